"""Rounds: who deals next, and a round recorded, edited, deleted or restored,
with the rounds after it scored again. A round and everything it changes are
written in one transaction or not at all."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from ..audit import (
    Action,
    PayloadError,
    RoundAdded,
    RoundDeleted,
    RoundEdited,
    RoundRestored,
    RulesChanged,
)
from ..extensions import db
from ..limits import PHONE_ID_LENGTH
from ..models import (
    AuditEvent,
    DraftEntry,
    GameSession,
    Player,
    Round,
    RoundEntry,
    being_typed,
    table,
)
from ..queries.turns import Upcoming, round_hands, upcoming
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
    repeated_round,
    score_round,
)
from ..rules.cards import scan_cards
from ._common import (
    add_round_to_seats,
    check_new_rules,
    check_open,
    played_round,
    round_snapshot,
    session_of,
    snapshot,
    total_seats,
)
from .protocol import N_, Change, Repeated, ServiceError, applied, applying
from .sessions import active_players
from .trail import renames, restored_deletions


@dataclass(frozen=True)
class StillTyped:
    """A hand of the round filled in together that is still being typed on
    another phone as the round is saved: its player, the hand as typed so
    far, and the phone (its name) it is typed on."""

    player: str
    outcome: str
    cards: str
    device: str


class NeedsConfirmation(Exception):
    """The round has warnings the table has not yet confirmed, or takes
    hands still being typed on other phones (``typing``)."""

    def __init__(self, warnings: list[Problem], typing: tuple[StillTyped, ...] = ()) -> None:
        super().__init__("; ".join([*map(str, warnings),
                                    *(f"still_typed(player={t.player!r})" for t in typing)]))
        self.warnings = warnings
        self.typing = typing
        self.digest = warnings_digest(warnings, typing)


class Unscorable(ServiceError):
    """Round ``number`` can't be scored (under the rules it would have, if
    ``new_rules``): the engine's ``problems`` say why (the web layer words them)."""

    def __init__(self, number: int, problems: list[Problem], *, new_rules: bool = False) -> None:
        super().__init__(f"round {number} unscorable: " + "; ".join(map(str, problems)))
        self.number = number
        self.problems = problems
        self.new_rules = new_rules


class DraftChanged(ServiceError):
    """Hands of the round filled in together were saved from other phones
    after the draft version that the form saw, and differ from the form's:
    ``hands`` (DraftEntry rows, as they were). Nothing was saved."""

    def __init__(self, hands: list) -> None:
        super().__init__(N_("Hands were entered on other phones while you were on this page: "
                            "nothing was saved. Check them, then save again."))
        self.hands = hands


def warnings_digest(warnings: list[Problem], typing: tuple[StillTyped, ...] = ()) -> str:
    """A short fingerprint of warnings (their codes and values), so a
    confirmation covers exactly those (and the hands being typed as they were
    typed then)."""
    text = "\n".join(sorted([*(f"{w.code}:{sorted(w.values.items())!r}" for w in warnings),
                              *(f"typing:{t.player}:{t.outcome}:{t.cards}:{t.device}"
                                for t in typing)]))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _round_score(round_: Round, rules: HouseRules) -> RoundScore:
    return played_round(round_).score(rules)


def _entry_values(seats: list[Player], order: list[Player], entries: dict[str, Entry],
                  score: RoundScore) -> list[dict]:
    """The stored values of a round's entries, in playing order. A player
    missing from ``entries`` keeps the outcome and cards already stored."""
    values: list[dict[str, int | str]] = []
    money = 0
    for turn, player in enumerate(order):
        parts = score.breakdown[player.name]
        values.append({
            "player_id": player.id, "seat": seats.index(player), "turn": turn,
            "points": score.points[player.name], "position": score.position[player.name],
            "tier_cents": parts.tier, "hu_cents": parts.hu,
            "joker_ace_cents": parts.joker_ace, "net_cents": parts.total})
        money += parts.total
        given = entries.get(player.name)
        if given is not None:
            values[-1].update(outcome=given.outcome, cards=format_cards(_cards_of(given)))
    if money != 0:
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
    _confirm(score.warnings, confirmed)
    return score


def _confirm(warnings: list[Problem], confirmed: str | None,
             change: Change | None = None, typing: tuple[StillTyped, ...] = ()) -> None:
    """NeedsConfirmation for warnings (and hands being typed) the table has
    not confirmed; but the repeat of a ``change`` applied under its key gets
    the first's answer (Repeated), not a question about the round the first
    one saved."""
    if not (warnings or typing) or confirmed == warnings_digest(warnings, typing):
        return
    if change is not None and change.once is not None:
        first = applied(change.group.id, change.once.key)
        if first is not None:
            raise Repeated(first)
    raise NeedsConfirmation(warnings, typing)


def repeat_warnings(session: GameSession, coming: Upcoming,
                    entries: Mapping[str, Entry]) -> list[Problem]:
    """The warning for a coming round whose hands (by player name) are all the
    last round's: the same game saved twice would move the money twice."""
    if coming.number == 1:
        return []
    by_id = {p.id: entries[p.name] for p in coming.order if p.name in entries}
    if len(by_id) != len(entries):
        return []
    last = coming.last.hands if coming.last is not None else None
    if last is None:  # not read with the round's order
        last = round_hands(session, coming.number - 1)
    return repeated_round(coming.number - 1, by_id, last)


def record_round(change: Change, entries: dict[str, Entry], confirmed: str | None = None,
                 *, coming: Upcoming | None = None, draft: int | None = None) -> int:
    """Save the session's next round and return its number. ``entries`` are
    by player name; ``confirmed`` is the digest of the warnings the table has
    accepted; ``coming`` is upcoming(session) if the caller has read it in
    this transaction; ``draft`` is the draft version the form saw of the
    round filled in together (None: the caller does not follow one). The
    draft's hands are taken away with it. Hands that are all the last
    round's are a warning too (repeat_warnings); so is, for a caller that
    follows the draft, a hand still being typed on another phone (it would
    be taken half typed): checked as the draft is taken, in the change's
    transaction. The change's key answers with the round's number.

    It is written without ORM objects (the most frequent write, kept lean):
    the round, its entries in one statement, and its totals added to the seats
    in another."""
    session = session_of(change)
    check_open(session)
    coming = coming or upcoming(session)
    score = score_round([p.name for p in coming.order], entries, session.rules)
    warnings = [*score.warnings, *repeat_warnings(session, coming, entries)]
    if draft is None:  # asked before anything is written
        _confirm(warnings, confirmed, change)
    rows = _entry_values(active_players(session), coming.order, entries, score)
    with applying(change, moves_money=True) as done:
        entered_by, typing = _take_draft(session, coming.order, entries, draft, change)
        if draft is not None:  # with the hands being typed as the draft is taken
            _confirm(warnings, confirmed, change, typing)
        round_id = db.session.execute(_insert_round(), {
            "session_id": session.id, "number": coming.number, "dealer_id": coming.dealer.id,
        }).scalar_one()
        db.session.execute(_insert_entries(), [{**row, "round_id": round_id} for row in rows])
        db.session.execute(add_round_to_seats(), {"round_id": round_id})
        names = [p.name for p in coming.order]
        done.audit(RoundAdded(snapshot(coming.number, coming.dealer.name,
                                       list(zip(names, rows, strict=True))), entered_by))
        done.result = coming.number
    return coming.number


def _take_draft(session: GameSession, order: list[Player], entries: dict[str, Entry],
                seen: int | None, change: Change
                ) -> tuple[tuple[tuple[str, str], ...], tuple[StillTyped, ...]]:
    """Take away the hands of the round filled in together as the round is
    saved; for the audit, (player, phone) in playing order: the phone that
    saved the hand as it is saved now, else the change's; and the hands
    still being typed on a phone other than the change's. DraftChanged,
    with nothing written, if a hand saved after draft version ``seen``
    differs."""
    taken = {row.player_id: row for row in db.session.execute(
        _delete_draft(), {"session_id": session.id})}
    if not taken:
        return (), ()
    newer, entered_by, typing = [], [], []
    phone = change.phone[:PHONE_ID_LENGTH]
    for player in order:
        row, given = taken.get(player.id), entries.get(player.name)
        same = row is not None and given is not None and _same_hand(row, given)
        # This phone's own hand, sent before it was put right in the form, is no news to it.
        own = row is not None and bool(phone) and row.phone == phone
        if row is not None and seen is not None and row.draft_version > seen and not (same or own):
            newer.append(row)
        if row is not None and being_typed(row.typing, row.at) and row.phone != phone:
            typing.append(StillTyped(player.name, row.outcome, row.cards, row.device))
        entered_by.append((player.name, row.device if same and row is not None
                           else change.device))
    if newer:
        raise DraftChanged(newer)  # the change is rolled back
    raised = db.session.execute(
        sa.update(GameSession).where(GameSession.id == session.id)
        .values(draft_version=GameSession.draft_version + 1)
        .returning(GameSession.draft_version)
        .execution_options(synchronize_session=False)).scalar_one()
    set_committed_value(session, "draft_version", raised)
    return tuple(entered_by), tuple(typing)


def _same_hand(row, entry: Entry) -> bool:
    """Whether a draft's hand, as typed, is ``entry`` as it is stored."""
    cards, errors = scan_cards(row.cards)
    return not errors and (row.outcome, format_cards(cards)) == (
        entry.outcome, format_cards(_cards_of(entry)))


@functools.cache
def _delete_draft() -> sa.Executable:
    draft = table(DraftEntry)
    return (sa.delete(draft).where(draft.c.session_id == sa.bindparam("session_id"))
            .returning(draft.c.player_id, draft.c.outcome, draft.c.cards,
                       draft.c.draft_version, draft.c.device, draft.c.phone,
                       draft.c.typing, draft.c.at))


@functools.cache
def _insert_round() -> sa.Insert:
    return sa.insert(table(Round)).returning(table(Round).c.id)


@functools.cache
def _insert_entries() -> sa.Insert:
    return sa.insert(table(RoundEntry))


def _round_seats(round_: Round) -> list[Player]:
    return [e.player for e in sorted(round_.entries, key=lambda e: e.seat)]


def edit_round(change: Change, round_: Round, entries: dict[str, Entry],
               confirmed: str | None = None) -> int:
    """Change what was entered for a round; later rounds are scored again.
    Its number, which the change's key answers with (as record_round's)."""
    session = _session_of_round(change, round_)
    check_open(session)
    order = [e.player for e in sorted(round_.entries, key=lambda e: e.turn)]
    score = _score(order, entries, session.rules, confirmed)
    before = round_snapshot(round_)
    with applying(change, moves_money=True) as done:
        _write_score(round_, _round_seats(round_), order, entries, score)
        _rescore_after(session, round_.number)
        total_seats(session)
        done.audit(RoundEdited(before, round_snapshot(round_)))
        done.result = number = round_.number
    return number


def delete_round(change: Change, round_: Round) -> None:
    """Remove a round; the rounds after it move up a number and are scored again.
    The audit trail keeps the round, so it can be restored."""
    session = _session_of_round(change, round_)
    check_open(session)
    number = round_.number
    before = round_snapshot(round_)
    with applying(change, moves_money=True) as done:
        session.rounds.remove(round_)
        db.session.flush()
        for later in session.rounds:
            if later.number > number:
                later.number -= 1
                db.session.flush()  # one at a time keeps (session, number) unique
        _rescore_after(session, number - 1)
        total_seats(session)
        done.audit(RoundDeleted(before))


def _session_of_round(change: Change, round_: Round) -> GameSession:
    """The session of a change to ``round_``, which is one of its rounds."""
    session = session_of(change)
    if round_.session_id != session.id:
        raise ServiceError(N_("That round is another session's"))
    return session


def restore_round(change: Change, deletion: AuditEvent) -> Round:
    """Put a deleted round back at the number it had (or last, if there are
    fewer rounds now); the rounds after it move down a number and are scored again."""
    session = session_of(change)
    check_open(session)
    if deletion.action != Action.ROUND_DELETE or deletion.session_id != session.id:
        raise ServiceError(N_("Only a deleted round of this session can be restored"))
    if deletion.id in restored_deletions(session):
        raise ServiceError(N_("That round has been restored already"))
    number, dealer, entries = _deleted_round(session, deletion)
    with applying(change, moves_money=True) as done:
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
        except Unscorable:
            raise
        except ValueError:  # a dealer the engine refuses (an edited import)
            raise ServiceError(N_("That round can't be scored")) from None
        total_seats(session)
        done.audit(RoundRestored(round_snapshot(round_), deletion.id))
        done.result = round_
    return round_


def _deleted_round(session: GameSession,
                   deletion: AuditEvent) -> tuple[int, Player, list[tuple]]:
    """The number, dealer and entries (player, seat, turn, outcome, cards) of
    the round a deletion kept, with players found by name, following renames since."""
    try:
        kept = RoundDeleted.from_json(deletion.before, deletion.after).round
    except PayloadError:
        raise ServiceError(
            N_("The record of that round is damaged: it can't be restored")) from None
    seated = {seat.player.name: seat.player for seat in session.seats}
    renamed = dict(renames(session.group_id))

    def player(name: str) -> Player:
        for _ in range(len(renamed) + 1):
            if name in seated:
                return seated[name]
            if name not in renamed:
                break
            name = renamed[name]
        raise ServiceError(N_("That round's players are no longer in this session"))

    entries = [(player(e.player), e.seat, e.turn, e.outcome, e.cards) for e in kept.entries]
    return kept.number, player(kept.dealer), entries


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
        if previous is not None and score is not None:
            by_name = {p.name: p for p in seats}
            round_.dealer = by_name[next_dealer(
                [p.name for p in seats], previous.dealer.name, score, rules)]
        order = playing_order(seats, round_.dealer, rules)
        for entry in round_.entries:
            entry.turn = order.index(entry.player)
        try:
            score = _round_score(round_, rules)
        except RoundError as error:  # a record the rules engine refuses (an edited import)
            raise Unscorable(round_.number, error.problems) from None
        _write_score(round_, seats, order, {}, score)
        previous = round_


def change_house_rules(change: Change, rules: HouseRules, currency: str) -> None:
    """Correct a session's house rules: every round is scored again under them.

    Who dealt and the order of play stay as they were at the table; the points,
    places and money follow the new rules. Refused, with nothing changed, if a
    round can't be scored under them.
    """
    session = session_of(change)
    check_open(session)
    check_new_rules(session, rules)
    scores = []
    for round_ in session.rounds:
        try:
            scores.append(_round_score(round_, rules))
        except RoundError as error:
            raise Unscorable(round_.number, error.problems, new_rules=True) from None
    was = session.rules.to_json(), session.currency
    with applying(change, moves_money=True) as done:
        session.rules = rules  # frozen: a new HouseRules is how the row changes
        session.currency = currency.strip() or session.currency
        for round_, score in zip(session.rounds, scores, strict=True):
            order = [e.player for e in sorted(round_.entries, key=lambda e: e.turn)]
            _write_score(round_, _round_seats(round_), order, {}, score)
        total_seats(session)
        done.audit(RulesChanged(*was, rules.to_json(), session.currency))
