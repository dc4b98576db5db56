"""Rounds: who deals next, and a round recorded, edited, deleted or restored,
with the rounds after it scored again. A round and everything it changes are
written in one transaction or not at all."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

import sqlalchemy as sa

from ..extensions import db
from ..models import (
    AuditEvent,
    GameSession,
    Player,
    Round,
    RoundEntry,
)
from ..rules import (
    Entry,
    HouseRules,
    Problem,
    RoundError,
    RoundScore,
    format_cards,
    next_dealer,
    parse_cards,
    playing_order,
    score_round,
)
from .sessions import _check_open, _check_table, _rules_to_json, active_players
from .totals import _add_round_to_seats, _total_seats
from .versioning import (
    ServiceError,
    _audit,
    _check_version,
    _claim,
    _saving,
    _snapshot,
    round_snapshot,
)


class NeedsConfirmation(Exception):
    """The round has warnings the table has not yet confirmed."""

    def __init__(self, warnings: list[Problem]) -> None:
        super().__init__("; ".join(w.message for w in warnings))
        self.warnings = warnings
        self.digest = warnings_digest(warnings)


def warnings_digest(warnings: list[Problem]) -> str:
    """A short fingerprint of warnings, so a confirmation covers exactly those."""
    text = "\n".join(sorted(f"{w.code}:{w.message}" for w in warnings))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Upcoming:
    """Who deals the next round and the order of play."""

    number: int
    dealer: Player
    order: list[Player]


def _round_score(round_: Round, rules: HouseRules) -> RoundScore:
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return score_round(
        [e.player.name for e in entries],
        {e.player.name: Entry(e.outcome, e.cards) for e in entries},
        rules)


def _pass_deal(session: GameSession, player: Player) -> Player:
    """``player`` if seated, else the next seated player in the dealing direction."""
    seats = session.seats  # all rows, clockwise; a player who left keeps a position
    start = next(i for i, seat in enumerate(seats) if seat.player is player)
    step = 1 if session.rules.direction == "clockwise" else -1
    for k in range(len(seats)):
        seat = seats[(start + step * k) % len(seats)]
        if seat.active:
            return seat.player
    raise ServiceError("Nobody is seated")


@dataclass(frozen=True)
class LastRound:
    """The session's latest round as stored: what next_dealer reads of its score."""

    number: int
    dealer_id: int
    order: tuple[int, ...]  # player ids in playing order
    points: dict[int, int]
    position: dict[int, int]

    @classmethod
    def of(cls, rows) -> LastRound | None:
        """From the round's entry rows (number, dealer_id, player_id, points,
        position) in playing order; None for no rows (no round yet)."""
        if not rows:
            return None
        return cls(rows[0].number, rows[0].dealer_id, tuple(r.player_id for r in rows),
                   {r.player_id: r.points for r in rows}, {r.player_id: r.position for r in rows})

    @classmethod
    def of_round(cls, round_: Round) -> LastRound:
        """From a loaded round, when it is the latest."""
        entries = sorted(round_.entries, key=lambda e: e.turn)
        return cls(round_.number, round_.dealer_id, tuple(e.player_id for e in entries),
                   {e.player_id: e.points for e in entries},
                   {e.player_id: e.position for e in entries})


@functools.cache
def _last_round_entries() -> sa.Select:
    """The entries of the session ``session_id``'s latest round, a statement
    built once (every page of a session runs it)."""
    session_id = sa.bindparam("session_id")
    latest = sa.select(sa.func.max(Round.number)).where(Round.session_id == session_id)
    return (sa.select(Round.number, Round.dealer_id, RoundEntry.player_id, RoundEntry.points,
                      RoundEntry.position)
            .join(RoundEntry.round)
            .where(Round.session_id == session_id, Round.number == latest.scalar_subquery())
            .order_by(RoundEntry.turn))


def last_round(session: GameSession) -> LastRound | None:
    """The latest round's stored results, read without loading the rounds
    before it nor scoring it again."""
    return LastRound.of(
        db.session.execute(_last_round_entries(), {"session_id": session.id}).all())


def upcoming(session: GameSession) -> Upcoming:
    return coming_after(session, last_round(session))


def coming_after(session: GameSession, last: LastRound | None) -> Upcoming:
    """Who deals and who plays when after ``last``, the session's latest round
    (None: before the first)."""
    rules = session.rules
    seated = active_players(session)
    if last is None:
        dealer = _pass_deal(session, session.first_dealer)
    else:
        by_id = {seat.player_id: seat.player for seat in session.seats}
        dealer = by_id[next_dealer([p.id for p in seated], last.dealer_id, last, rules)]
    order = playing_order(seated, dealer, rules)
    return Upcoming((last.number if last else 0) + 1, dealer, order)


def _entry_values(seats: list[Player], order: list[Player], entries: dict[str, Entry],
                  score: RoundScore) -> list[dict]:
    """The stored values of a round's entries, in playing order. A player
    missing from ``entries`` keeps the outcome and cards already stored."""
    values = []
    for turn, player in enumerate(order):
        parts = score.breakdown[player.name]
        row = {"player_id": player.id, "seat": seats.index(player), "turn": turn,
               "points": score.points[player.name], "position": score.position[player.name],
               "tier_cents": parts.tier, "hu_cents": parts.hu,
               "joker_ace_cents": parts.joker_ace, "net_cents": parts.total}
        given = entries.get(player.name)
        if given is not None:
            row.update(outcome=given.outcome, cards=format_cards(_cards_of(given)))
        values.append(row)
    if sum(row["net_cents"] for row in values) != 0:
        raise RuntimeError("A round's money does not sum to zero")
    return values


def _write_score(round_: Round, seats: list[Player], order: list[Player],
                 entries: dict[str, Entry], score: RoundScore) -> None:
    """Store a new score on a round's entries."""
    stored = {e.player_id: e for e in round_.entries}
    for row in _entry_values(seats, order, entries, score):
        entry = stored[row["player_id"]]
        for name, value in row.items():
            setattr(entry, name, value)


def _cards_of(entry: Entry):
    if isinstance(entry.cards, str):
        return parse_cards(entry.cards)
    return [c if not isinstance(c, str) else parse_cards(c)[0] for c in entry.cards]


def _score(order: list[Player], entries: dict[str, Entry], rules: HouseRules,
           confirmed: str | None) -> RoundScore:
    """Score a round, raising RoundError, or NeedsConfirmation for unconfirmed warnings."""
    score = score_round([p.name for p in order], entries, rules)
    if score.warnings and confirmed != warnings_digest(score.warnings):
        raise NeedsConfirmation(score.warnings)
    return score


def record_round(session: GameSession, entries: dict[str, Entry],
                 confirmed: str | None = None, *, device: str = "",
                 version: int | None = None, coming: Upcoming | None = None) -> int:
    """Save the next round and return its number. ``entries`` are by player
    name; ``confirmed`` is the digest of the warnings the table has accepted;
    ``version`` is the session's version the form was built on; ``coming`` is
    upcoming(session) if the caller has read it in this transaction.

    It is written without ORM objects (the most frequent write, kept lean):
    the round, its entries in one statement, and its totals added to the seats
    in another."""
    _check_open(session)
    _check_version(session, version)  # before scoring: a stale page's errors don't matter
    coming = coming or upcoming(session)
    score = _score(coming.order, entries, session.rules, confirmed)
    rows = _entry_values(active_players(session), coming.order, entries, score)
    _claim(session, version)
    with _saving(version):
        round_id = db.session.execute(_insert_round(), {
            "session_id": session.id, "number": coming.number, "dealer_id": coming.dealer.id,
        }).scalar_one()
        db.session.execute(_insert_entries(), [{**row, "round_id": round_id} for row in rows])
        db.session.execute(_add_round_to_seats(), {"round_id": round_id})
        _audit(session.group_id, "round.add", f"Round {coming.number}", session=session,
               after=_snapshot(coming.number, coming.dealer.name,
                               list(zip([p.name for p in coming.order], rows))),
               device=device)
    return coming.number


@functools.cache
def _insert_round() -> sa.Insert:
    return sa.insert(Round.__table__).returning(Round.__table__.c.id)


@functools.cache
def _insert_entries() -> sa.Insert:
    return sa.insert(RoundEntry.__table__)


def _round_seats(round_: Round) -> list[Player]:
    return [e.player for e in sorted(round_.entries, key=lambda e: e.seat)]


def edit_round(round_: Round, entries: dict[str, Entry], confirmed: str | None = None, *,
               device: str = "", version: int | None = None) -> Round:
    """Change what was entered for a round; later rounds are scored again."""
    session = round_.session
    _check_open(session)
    _check_version(session, version)  # before scoring: a stale page's errors don't matter
    order = [e.player for e in sorted(round_.entries, key=lambda e: e.turn)]
    score = _score(order, entries, session.rules, confirmed)
    before = round_snapshot(round_)
    _claim(session, version)
    with _saving(version):
        _write_score(round_, _round_seats(round_), order, entries, score)
        _rescore_after(session, round_.number)
        _total_seats(session)
        _audit(session.group_id, "round.edit", f"Round {round_.number}", session=session,
               before=before, after=round_snapshot(round_), device=device)
    return round_


def delete_round(round_: Round, *, device: str = "", version: int | None = None) -> None:
    """Remove a round; the rounds after it move up a number and are scored again.
    The audit trail keeps the round, so it can be restored."""
    session = round_.session
    _check_open(session)
    number = round_.number
    before = round_snapshot(round_)
    _claim(session, version)
    with _saving(version):
        session.rounds.remove(round_)
        db.session.flush()
        for later in session.rounds:
            if later.number > number:
                later.number -= 1
                db.session.flush()  # one at a time keeps (session, number) unique
        _rescore_after(session, number - 1)
        _total_seats(session)
        _audit(session.group_id, "round.delete", f"Round {number}", session=session,
               before=before, device=device)


def restore_round(session: GameSession, deletion: AuditEvent, *, device: str = "",
                  version: int | None = None) -> Round:
    """Put a deleted round back at the number it had (or last, if there are
    fewer rounds now); the rounds after it move down a number and are scored again."""
    _check_open(session)
    if deletion.action != "round.delete" or deletion.session_id != session.id:
        raise ServiceError("Only a deleted round of this session can be restored")
    if deletion.id in restored_deletions(session):
        raise ServiceError("That round has been restored already")
    number, dealer, entries = _deleted_round(session, deletion.before)
    _claim(session, version)
    with _saving(version):
        number = min(number, len(session.rounds) + 1)
        for later in sorted(session.rounds, key=lambda r: -r.number):
            if later.number >= number:
                later.number += 1
                db.session.flush()  # one at a time, from the last, keeps (session, number) unique
        round_ = Round(number=number, dealer=dealer, entries=[
            RoundEntry(player=player, seat=seat, turn=turn, outcome=outcome, cards=cards,
                       points=0, position=0, tier_cents=0, hu_cents=0, joker_ace_cents=0,
                       net_cents=0)
            for player, seat, turn, outcome, cards in entries])
        session.rounds.insert(number - 1, round_)
        db.session.flush()
        try:
            _rescore_after(session, number - 1)
        except ValueError as error:  # a record the rules engine refuses (an edited import)
            db.session.rollback()
            raise ServiceError(f"That round can't be scored: {error}") from None
        _total_seats(session)
        _audit(session.group_id, "round.restore", f"Round {number}", session=session,
               after={**round_snapshot(round_), "restores": deletion.id}, device=device)
    return round_


def _deleted_round(session: GameSession, kept: object) -> tuple[int, Player, list[tuple]]:
    """The number, dealer and entries (player, seat, turn, outcome, cards) of a
    round_snapshot, with players found by name, following renames since."""
    seated = {seat.player.name: seat.player for seat in session.seats}
    renamed = dict(db.session.execute(
        sa.select(AuditEvent.before["name"].as_string(), AuditEvent.after["name"].as_string())
        .where(AuditEvent.group_id == session.group_id, AuditEvent.action == "player.rename")
        .order_by(AuditEvent.id)).all())

    def player(name: str) -> Player:
        for _ in range(len(renamed) + 1):
            if name in seated:
                return seated[name]
            name = renamed.get(name)
        raise ServiceError("That round's players are no longer in this session")

    try:
        entries = [(player(e["player"]), int(e["seat"]), int(e["turn"]), str(e["outcome"]),
                    str(e["cards"])) for e in kept["entries"]]
        return int(kept["number"]), player(kept["dealer"]), entries
    except ServiceError:
        raise
    except (KeyError, TypeError, ValueError):
        raise ServiceError("The record of that round is damaged: it can't be restored") from None


def restored_deletions(session: GameSession) -> set[int]:
    """Ids of the session's round deletions that have been restored."""
    afters = db.session.scalars(sa.select(AuditEvent.after).where(
        AuditEvent.session_id == session.id, AuditEvent.action == "round.restore"))
    return {after["restores"] for after in afters}


def _rescore_after(session: GameSession, number: int) -> None:
    """Dealers, playing orders and money of the rounds after round ``number``."""
    rules = session.rules
    rounds = session.rounds
    if number >= len(rounds):
        return
    previous = rounds[number - 1] if number >= 1 else None
    score = _round_score(previous, rules) if previous else None
    for round_ in rounds[number:]:
        seats = _round_seats(round_)
        if previous is not None:
            by_name = {p.name: p for p in seats}
            round_.dealer = by_name[next_dealer(
                [p.name for p in seats], previous.dealer.name, score, rules)]
        order = playing_order(seats, round_.dealer, rules)
        for entry in round_.entries:
            entry.turn = order.index(entry.player)
        score = _round_score(round_, rules)
        _write_score(round_, seats, order, {}, score)
        previous = round_


def change_house_rules(session: GameSession, rules: HouseRules, currency: str, *,
                       device: str = "", version: int | None = None) -> None:
    """Correct a session's house rules: every round is scored again under them.

    Who dealt and the order of play stay as they were at the table; the points,
    places and money follow the new rules. Refused, with nothing changed, if a
    round can't be scored under them.
    """
    _check_open(session)
    _check_version(session, version)  # before scoring: a stale page's errors don't matter
    _check_table(rules, len(active_players(session)))
    scores = []
    for round_ in session.rounds:
        try:
            scores.append(_round_score(round_, rules))
        except RoundError as error:
            raise ServiceError(
                f"Round {round_.number} can't be scored under these rules: {error}") from None
    before = {"house_rules": session.house_rules, "currency": session.currency}
    _claim(session, version)
    session.house_rules = _rules_to_json(rules)
    session.currency = currency.strip() or session.currency
    for round_, score in zip(session.rounds, scores):
        order = [e.player for e in sorted(round_.entries, key=lambda e: e.turn)]
        _write_score(round_, _round_seats(round_), order, {}, score)
    _total_seats(session)
    _audit(session.group_id, "session.rules", "House rules", session=session, before=before,
           after={"house_rules": session.house_rules, "currency": session.currency},
           device=device)
    db.session.commit()
