"""Use cases: each loads rows, calls the rules engine, writes rows and commits.

This is the only module that commits. A round and everything it changes (the
money, dealers and playing orders of the rounds after it) are written in one
transaction or not at all.

Every change to a session raises its version in the same transaction, with a
guarded UPDATE, so of two phones saving on the same version only one succeeds;
the other gets Conflict. Every change is also written to the audit trail, with
the label of the phone that made it (``device``).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
import re
import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from typing import TYPE_CHECKING

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import aliased
from sqlalchemy.orm.attributes import set_committed_value

from . import throttle
from .extensions import db
from .models import (
    DEVICE_MAX,
    GROUP_NAME_MAX,
    NAME_MAX,
    AuditEvent,
    GameSession,
    Group,
    Payment,
    Player,
    Round,
    RoundEntry,
    Seat,
    ShareLink,
    SignIn,
    utcnow,
)
from .passphrases import hash_passphrase, passphrase_matches
from .rules import (
    Entry,
    HouseRules,
    Problem,
    RoundError,
    RoundScore,
    Transfer,
    format_cards,
    next_dealer,
    parse_cards,
    playing_order,
    score_round,
    settle,
)

if TYPE_CHECKING:
    from .demo import DemoGroup, DemoSession

MIN_PLAYERS = 2
MAX_PLAYERS = 6
PASSPHRASE_MIN = 8

# The house rules the app takes, typed in the new-session form or read from a backup.
RULE_RANGES = {"packs": (1, 4), "jokers": (0, 16), "joker_points": (0, 100),
               "hand_size": (1, 40), "hand_size_three": (1, 40)}
RULE_MONEY_MAX = 10_000_000  # cents in one amount (100,000.00): more is surely a slip
MAX_TIERS = 6  # places paid
TIER_MAX = 100  # units one place pays


class ServiceError(ValueError):
    """A request that the current state does not allow; the message says why."""


class Conflict(ServiceError):
    """Another phone changed the session after the page this change came from
    was made; ``since`` is the version that page was built on."""

    def __init__(self, since: int | None) -> None:
        super().__init__("This session was changed from another phone while you were on "
                         "this page: nothing was saved. Check what changed, then save again.")
        self.since = since


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


def clean_name(name: str) -> str:
    return " ".join(name.split())


# Versions and the audit trail


def _check_version(session: GameSession, version: int | None) -> None:
    """Conflict if the page a change comes from was built on an older version
    of the session than this request read (None: the caller saw the latest)."""
    if version is not None and version != session.version:
        raise Conflict(version)


def _claim(session: GameSession, version: int | None) -> None:
    """Take the session's next version for this change, or raise Conflict if
    another phone changed it since ``version``.

    The guarded UPDATE is the transaction's first write: on PostgreSQL it waits
    for a concurrent change to commit and then matches no row; on SQLite it
    takes the database's write lock.
    """
    _check_version(session, version)
    claimed = db.session.execute(
        sa.update(GameSession)
        .where(GameSession.id == session.id, GameSession.version == session.version)
        .values(version=GameSession.version + 1)
        .execution_options(synchronize_session=False)
    ).rowcount
    if claimed != 1:
        seen = session.version
        db.session.rollback()
        raise Conflict(version if version is not None else seen)
    set_committed_value(session, "version", session.version + 1)


def _audit(group_id: int, action: str, subject: str, *, session: GameSession | None = None,
           before: dict | None = None, after: dict | None = None, device: str = "") -> None:
    db.session.add(AuditEvent(
        group_id=group_id, session_id=session.id if session else None,
        version=session.version if session else None, device=device[:DEVICE_MAX],
        action=action, subject=subject[:80], before=before, after=after))


SNAPSHOT_FIELDS = ("seat", "turn", "outcome", "cards", "points", "position", "net_cents")


def round_snapshot(round_: Round) -> dict:
    """A round as the audit trail keeps it: enough to show it and to restore it."""
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return _snapshot(round_.number, round_.dealer.name,
                     [(e.player.name, {name: getattr(e, name) for name in SNAPSHOT_FIELDS})
                      for e in entries])


def _snapshot(number: int, dealer: str, entries: list[tuple[str, dict]]) -> dict:
    """round_snapshot of a round's number, dealer and (player, values) entries
    in playing order."""
    return {"number": number, "dealer": dealer,
            "entries": [{"player": player, **{name: values[name] for name in SNAPSHOT_FIELDS}}
                        for player, values in entries]}


# Groups


def create_group(name: str, passphrase: str, *, address: str | None = None) -> Group:
    """A new group. A name already taken (whatever the letter case) is refused
    and nothing is written; such refusals from ``address`` count against the
    sign-in limit, as they tell a stranger which names exist."""
    name = _check_new_group(name, passphrase, address=address)
    group = Group(name=name, name_key=name.casefold(), passphrase_hash=_hash(passphrase))
    with _unless_taken(name):
        db.session.add(group)
        db.session.commit()
    return group


NAME_TAKEN = "There is a group called {} already: sign in to it, or choose another name"


def _check_new_group(name: str, passphrase: str, *, address: str | None = None) -> str:
    """The cleaned name for a new group, if no group has it yet."""
    name = clean_name(name)
    if not 1 <= len(name) <= GROUP_NAME_MAX:
        raise ServiceError(f"A group name needs 1 to {GROUP_NAME_MAX} characters")
    _check_passphrase_strength(passphrase)
    keys = [f"address:{address}"] if address is not None else []
    with throttle.guessing(_sign_in_limit(), *keys) as guess:
        if find_group(name) is not None:
            raise ServiceError(NAME_TAKEN.format(name))
        guess.was_right()
    return name


@contextmanager
def _unless_taken(name: str) -> Iterator[None]:
    """Writing a new group: all or nothing. Another phone creating the same
    name at the same moment gets the same refusal as if it had asked first."""
    try:
        yield
    except sa.exc.IntegrityError:
        db.session.rollback()
        if find_group(name) is None:
            raise
        raise ServiceError(NAME_TAKEN.format(name)) from None
    except BaseException:
        db.session.rollback()
        raise


def _sign_in_limit() -> throttle.Limit:
    return throttle.Limit.parse(current_app.config["SIGN_IN_LIMIT"])


def _hash(passphrase: str) -> str:
    return hash_passphrase(passphrase, current_app.config["PASSPHRASE_HASH_METHOD"])


@functools.cache
def _unused_hash(method: str) -> str:
    return hash_passphrase("no group has this passphrase", method)


def _check_passphrase_strength(passphrase: str) -> None:
    if len(passphrase) < PASSPHRASE_MIN:
        raise ServiceError(f"A passphrase needs at least {PASSPHRASE_MIN} characters")


def find_group(name: str) -> Group | None:
    """The group of that name, whatever its letter case."""
    return db.session.scalar(sa.select(Group).where(Group.name_key == clean_name(name).casefold()))


def group_for_sign_in(name: str, passphrase: str, *, address: str | None = None) -> Group | None:
    """The group with this name and passphrase; None whether the name or the
    passphrase is wrong, so nobody learns which names exist. Each try counts
    against the limit for the name (and for ``address``); past it,
    throttle.TooManyGuesses, before any passphrase is checked."""
    key = clean_name(name).casefold()
    keys = [f"group:{key}"] + ([f"address:{address}"] if address is not None else [])
    with throttle.guessing(_sign_in_limit(), *keys) as guess:
        group = find_group(key)
        # As slow without the group as with it, so the name's absence doesn't show.
        stored = group.passphrase_hash if group else _unused_hash(
            current_app.config["PASSPHRASE_HASH_METHOD"])
        if passphrase_matches(stored, passphrase) and group is not None:
            guess.was_right()
            return group
    return None


def change_passphrase(group: Group, current: str, new: str, *, device: str = "",
                      address: str | None = None) -> None:
    """A new passphrase signs out every other phone and revokes every share
    link. Checking ``current`` counts against the group's sign-in limit."""
    keys = [f"group:{group.name_key}"] + ([f"address:{address}"] if address is not None else [])
    with throttle.guessing(_sign_in_limit(), *keys) as guess:
        if not passphrase_matches(group.passphrase_hash, current):
            raise ServiceError("The current passphrase is not right")
        guess.was_right()
    set_passphrase(group, new, device=device)


def set_passphrase(group: Group, passphrase: str, *, device: str = "") -> None:
    """Every phone is signed out; the web layer signs in again the one that
    asked."""
    _check_passphrase_strength(passphrase)
    group.passphrase_hash = _hash(passphrase)
    db.session.execute(sa.delete(SignIn).where(SignIn.group_id == group.id))
    _audit(group.id, "group.passphrase", "New passphrase", device=device)
    db.session.commit()


def sign_in_phone(group: Group) -> int:
    """A phone's sign-in to ``group``, which its cookie names; its id."""
    sign_in = SignIn(group_id=group.id)
    db.session.add(sign_in)
    db.session.commit()
    return sign_in.id


def sign_out_phone(sign_in_id: int) -> None:
    """The sign-in ends for good: a copy of its cookie opens nothing either."""
    db.session.execute(sa.delete(SignIn).where(SignIn.id == sign_in_id))
    db.session.commit()


# Players and sessions


def _player_name(name: str) -> str:
    """``name`` as a player's name is kept: spaces tidied, 1 to NAME_MAX characters."""
    name = clean_name(name)
    if not 1 <= len(name) <= NAME_MAX:
        raise ServiceError(f"A name needs 1 to {NAME_MAX} characters: {name!r}")
    return name


def group_players(group_id: int) -> list[Player]:
    """Everyone in the group, oldest first."""
    return list(db.session.scalars(
        sa.select(Player).where(Player.group_id == group_id).order_by(Player.id)))


def find_or_create_players(group: Group, names: list[str], *, device: str = "") -> list[Player]:
    """The group's players by name, reusing anyone seen before whatever the
    letter case, and adding the others, even when another phone adds the
    same name at the same moment."""
    names = [_player_name(n) for n in names]
    keys = [n.casefold() for n in names]
    if len(set(keys)) != len(keys):
        raise ServiceError("Each player needs a different name")
    known = {p.name_key: p for p in group_players(group.id)}
    new = [name for name, key in zip(names, keys) if key not in known]
    for name in new:
        if _insert_player(group.id, name):
            _audit(group.id, "player.add", name, after={"name": name}, device=device)
    if new:
        known = {p.name_key: p for p in group_players(group.id)}
    return [known[key] for key in keys]


def _insert_player(group_id: int, name: str) -> bool:
    """Add a player unless the group has one of that name (whatever the letter
    case) by now, waiting for a phone that is adding them at this moment;
    whether this one added them."""
    insert = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}[
        db.session.get_bind().dialect.name]
    added = db.session.scalar(
        insert(Player).values(group_id=group_id, name=name, name_key=name.casefold(),
                              created_at=utcnow())
        .on_conflict_do_nothing(index_elements=["group_id", "name_key"])
        .returning(Player.id))
    return added is not None


def _check_table(rules: HouseRules, n_players: int) -> None:
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ServiceError(f"A table has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    deck = rules.packs_for(n_players) * 52 + rules.jokers
    needed = rules.cards_dealt(n_players) * n_players
    if needed > deck:
        raise ServiceError(
            f"{n_players} players need {needed} cards, but the deck has only {deck}: "
            "add a pack or deal fewer cards")


def start_session(group: Group, names: list[str], rules: HouseRules,
                  first_dealer: str | None = None, currency: str = "RM",
                  rng: random.Random | None = None, *, device: str = "") -> GameSession:
    """A new session with players seated clockwise in the order given.

    ``first_dealer`` is one of the names, or None to draw one at random.
    """
    _check_table(rules, len(names))
    players = find_or_create_players(group, names, device=device)
    if first_dealer is None:
        dealer = (rng or random).choice(players)
    else:
        wanted = clean_name(first_dealer).casefold()
        dealer = next((p for p in players if p.name.casefold() == wanted), None)
        if dealer is None:
            raise ServiceError(f"The first dealer {first_dealer!r} is not at the table")
    session = GameSession(
        group=group,
        currency=currency.strip() or "RM",
        house_rules=_rules_to_json(rules),
        first_dealer=dealer,
        seats=[Seat(player=p, position=i) for i, p in enumerate(players)],
    )
    db.session.add(session)
    db.session.flush()
    _audit(group.id, "session.start", "Session started", session=session, after={
        "players": [p.name for p in players], "first_dealer": dealer.name,
        "currency": session.currency, "house_rules": session.house_rules}, device=device)
    db.session.commit()
    return session


def _rules_to_json(rules: HouseRules) -> dict:
    return dataclasses.asdict(rules)


def active_players(session: GameSession) -> list[Player]:
    """Who sits at the table now, clockwise."""
    return [seat.player for seat in session.seats if seat.active]


def _renumber_seats(seats: list[Seat]) -> None:
    for position, seat in enumerate(seats):
        seat.position = position


def join_session(session: GameSession, name: str, position: int, *, device: str = "",
                 version: int | None = None) -> Player:
    """Seat a player (new, known, or back after leaving) before the ``position``-th
    player clockwise; ``position`` equal to the number seated puts them last."""
    _check_open(session)
    everyone = list(session.seats)  # clockwise; those who left keep their place
    seated = [seat for seat in everyone if seat.active]
    wanted = clean_name(name).casefold()
    here = next((seat.player for seat in seated if seat.player.name.casefold() == wanted), None)
    if here is not None:
        raise ServiceError(f"{here.name} is already at the table")
    _check_table(session.rules, len(seated) + 1)
    _claim(session, version)
    # nothing is added before the checks pass
    (player,) = find_or_create_players(session.group, [name], device=device)
    seat = next((s for s in everyone if s.player is player), None)
    if seat is None:
        seat = Seat(player=player, position=len(everyone))
        session.seats.append(seat)
    else:
        everyone.remove(seat)
    seat.active = True
    position = max(0, min(position, len(seated)))
    if position < len(seated):
        everyone.insert(everyone.index(seated[position]), seat)
    else:
        everyone.insert(everyone.index(seated[-1]) + 1, seat)
    _renumber_seats(everyone)
    _audit(session.group_id, "seat.join", player.name, session=session,
           after={"player": player.name, "seats": [s.player.name for s in everyone if s.active]},
           device=device)
    db.session.commit()
    return player


def leave_session(session: GameSession, player_id: int, *, device: str = "",
                  version: int | None = None) -> None:
    """The player's seat stays in its place, inactive, so that a deal they would
    have had passes on from where they sat."""
    _check_open(session)
    seats = [seat for seat in session.seats if seat.active]
    seat = next((s for s in seats if s.player_id == player_id), None)
    if seat is None:
        raise ServiceError("That player is not at the table")
    if len(seats) <= MIN_PLAYERS:
        raise ServiceError(f"A table needs at least {MIN_PLAYERS} players")
    _claim(session, version)
    seat.active = False
    _audit(session.group_id, "seat.leave", seat.player.name, session=session,
           before={"player": seat.player.name}, device=device)
    db.session.commit()


def _check_open(session: GameSession) -> None:
    if session.is_finished:
        raise ServiceError("This session has ended")


# Rounds


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


@contextmanager
def _saving(version: int | None) -> Iterator[None]:
    """Commit what the block writes. A unique constraint broken by a concurrent
    change, when the block flushes or at the commit, is a Conflict."""
    try:
        yield
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise Conflict(version) from None


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


# Seat totals: each player's sums over a session's rounds, stored on the seat

SEAT_TOTALS = ("rounds_played", "points", "net_cents", "wins", "hu", "tien_hu",
               "counted_rounds", "counted_points")


def _count_if(condition) -> sa.ColumnElement[int]:
    return sa.func.sum(sa.case((condition, 1), else_=0))


def _seat_totals(*where) -> sa.Select:
    """(session_id, player_id, *SEAT_TOTALS) from the round entries of the
    sessions that ``where`` picks (it may name Round and RoundEntry)."""
    entry = RoundEntry
    tien_hu = aliased(RoundEntry)
    counted = ~sa.select(tien_hu.id).where(
        tien_hu.round_id == entry.round_id, tien_hu.outcome == "tien_hu",
        tien_hu.player_id != entry.player_id).exists()
    return (
        sa.select(
            Round.session_id, entry.player_id,
            sa.func.count(entry.id).label("rounds_played"),
            sa.func.sum(entry.points).label("points"),
            sa.func.sum(entry.net_cents).label("net_cents"),
            _count_if(entry.position == 1).label("wins"),
            _count_if(entry.outcome == "hu").label("hu"),
            _count_if(entry.outcome == "tien_hu").label("tien_hu"),
            _count_if(counted).label("counted_rounds"),
            sa.func.sum(sa.case((counted, entry.points), else_=0)).label("counted_points"),
        )
        .join(Round, Round.id == entry.round_id)
        .where(*where)
        .group_by(Round.session_id, entry.player_id)
    )


def _total_seats(session: GameSession) -> None:
    """Store the session's seat totals as its rounds now stand."""
    db.session.flush()
    totals = {row.player_id: row for row in db.session.execute(
        _seat_totals(Round.session_id == session.id))}
    for seat in session.seats:
        row = totals.get(seat.player_id)
        for name in SEAT_TOTALS:
            setattr(seat, name, int(getattr(row, name)) if row else 0)


@functools.cache
def _add_round_to_seats() -> sa.Update:
    """Add the round ``round_id``, just written as the session's last, to its
    players' seat totals, rather than summing every round again: one statement,
    built once. The seats are current: the version claimed for the change
    proves nothing changed since they were read."""
    seat = Seat.__table__
    totals = _seat_totals(Round.id == sa.bindparam("round_id")).subquery()
    return (sa.update(seat)
            .where(seat.c.session_id == totals.c.session_id,
                   seat.c.player_id == totals.c.player_id)
            .values({name: seat.c[name] + totals.c[name] for name in SEAT_TOTALS}))


def _total_seats_in_bulk(*where) -> None:
    """Store the seat totals of the sessions that ``where`` picks (see
    _seat_totals), for rows written in bulk; loaded Seat objects are not updated."""
    rows = [{"session": row.session_id, "player": row.player_id,
             **{f"new_{name}": int(getattr(row, name)) for name in SEAT_TOTALS}}
            for row in db.session.execute(_seat_totals(*where))]
    if rows:
        db.session.execute(
            sa.update(Seat.__table__)
            .where(Seat.session_id == sa.bindparam("session"),
                   Seat.player_id == sa.bindparam("player"))
            .values({name: sa.bindparam(f"new_{name}") for name in SEAT_TOTALS}),
            rows)


# Money


def balances(session: GameSession) -> dict[int, int]:
    """Each player's money over the session, in cents, by player id."""
    return {seat.player_id: seat.net_cents for seat in session.seats}


@dataclass(frozen=True)
class Settlement:
    transfer: Transfer  # payer and payee are Players
    paid: bool


def settlement(session: GameSession) -> list[Settlement]:
    """The fewest transfers that settle the session, each marked if paid."""
    players = {seat.player_id: seat.player for seat in session.seats}
    by_name = {p.name: p for p in players.values()}
    transfers = settle({players[pid].name: cents for pid, cents in balances(session).items()})
    paid = {(p.payer_id, p.payee_id, p.cents) for p in session.payments}
    result = []
    for t in transfers:
        payer, payee = by_name[t.payer], by_name[t.payee]
        result.append(Settlement(Transfer(payer, payee, t.cents),
                                 (payer.id, payee.id, t.cents) in paid))
    return result


def set_paid(session: GameSession, payer_id: int, payee_id: int, cents: int,
             paid: bool, *, device: str = "", version: int | None = None) -> None:
    """Mark one of the session's transfers as paid, or not paid."""
    due = {(s.transfer.payer.id, s.transfer.payee.id, s.transfer.cents)
           for s in settlement(session)}
    key = (payer_id, payee_id, cents)
    if key not in due:
        raise ServiceError("That transfer is not part of the settlement any more")
    _claim(session, version)
    names = {seat.player_id: seat.player.name for seat in session.seats}
    transfer = {"payer": names[payer_id], "payee": names[payee_id], "cents": cents}
    _audit(session.group_id, "payment.paid" if paid else "payment.unpaid",
           f"{names[payer_id]} pays {names[payee_id]}", session=session,
           before=None if paid else transfer, after=transfer if paid else None, device=device)
    for payment in list(session.payments):
        if (payment.payer_id, payment.payee_id, payment.cents) == key:
            session.payments.remove(payment)
    if paid:
        session.payments.append(Payment(payer_id=payer_id, payee_id=payee_id, cents=cents))
    db.session.commit()


def end_session(session: GameSession, *, device: str = "", version: int | None = None) -> None:
    _check_open(session)
    _claim(session, version)
    session.ended_at = utcnow()
    _count_finished(session.group_id, 1)
    _audit(session.group_id, "session.end", "Session ended", session=session, device=device)
    db.session.commit()


def reopen_session(session: GameSession, *, device: str = "",
                   version: int | None = None) -> None:
    """Open an ended session again, so a round can be corrected."""
    if not session.is_finished:
        raise ServiceError("This session is still open")
    _claim(session, version)
    session.ended_at = None
    _count_finished(session.group_id, -1)
    _audit(session.group_id, "session.reopen", "Session reopened", session=session,
           device=device)
    db.session.commit()


def _count_finished(group_id: int, change: int) -> None:
    """Add ``change`` to the group's count of finished sessions: in SQL, so
    that two sessions of the group ending at once both count."""
    db.session.execute(
        sa.update(Group).where(Group.id == group_id)
        .values(finished_sessions=Group.finished_sessions + change)
        .execution_options(synchronize_session=False))


def _recount_finished(group_id: int) -> None:
    """Count the group's finished sessions afresh, after writing them in bulk."""
    db.session.execute(
        sa.update(Group).where(Group.id == group_id)
        .values(finished_sessions=sa.select(sa.func.count()).select_from(GameSession)
                .where(GameSession.group_id == group_id, GameSession.ended_at.is_not(None))
                .scalar_subquery())
        .execution_options(synchronize_session=False))


# Correcting a session's house rules and a player's name


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


def rename_player(player: Player, name: str, *, device: str = "") -> None:
    """Correct a player's name everywhere; the audit trail keeps the old one."""
    name = _player_name(name)
    if name == player.name:
        return
    taken = ServiceError(f"Someone in the group is called {name} already")
    if any(other.id != player.id and other.name_key == name.casefold()
           for other in group_players(player.group_id)):
        raise taken
    before = {"name": player.name}
    player.name = name
    _audit(player.group_id, "player.rename", name, before=before, after={"name": name},
           device=device)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # renamed so by another phone at the same moment
        db.session.rollback()
        raise taken from None


# Share links



def create_share_link(session: GameSession, *, device: str = "") -> ShareLink:
    """A new read-only link to the session; its token is made by the web layer."""
    link = ShareLink(session_id=session.id)
    db.session.add(link)
    db.session.flush()
    _audit(session.group_id, "share.create", f"Share link {link.id}", session=session,
           after={"link": link.id}, device=device)
    db.session.commit()
    return link


def revoke_share_link(link: ShareLink, *, device: str = "") -> None:
    """The link opens nothing from now on; the others keep working."""
    if link.revoked_at is not None:
        raise ServiceError("That link is revoked already")
    link.revoked_at = utcnow()
    session = link.session
    _audit(session.group_id, "share.revoke", f"Share link {link.id}", session=session,
           before={"link": link.id}, device=device)
    db.session.commit()


# Importing a group's backup


def import_group(name: str, passphrase: str, backup, *, device: str = "",
                 address: str | None = None) -> Group:
    """A new group holding everything in ``backup`` (a scorekeeper.backup.Backup:
    checked, and every round scored again, by read_backup), written in one
    transaction: all of it or, on any error, nothing.

    The slow part, the passphrase's hash, comes before the transaction begins;
    then each table's rows go in a statement or two (Core executemany, as
    seed-demo writes), so that on SQLite the database's write lock is held for
    the INSERTs alone: 0.35 s for the largest real backup allowed, 0.8 s for
    one made to write the most rows (bench/README.md, "Import of the largest
    backup")."""
    name = _check_new_group(name, passphrase, address=address)
    passphrase_hash = _hash(passphrase)
    with _unless_taken(name):
        group = _write_backup(name, passphrase_hash, backup, device)
        db.session.commit()
    return group


def _write_backup(name: str, passphrase_hash: str, backup, device: str) -> Group:
    group = Group(name=name, name_key=name.casefold(), passphrase_hash=passphrase_hash,
                  timezone=backup.timezone,
                  finished_sessions=sum(s.ended_at is not None for s in backup.sessions))
    db.session.add(group)
    db.session.flush()
    if backup.players:
        db.session.execute(sa.insert(Player.__table__), [
            {"group_id": group.id, "name": p.name, "created_at": p.created_at}
            for p in backup.players])
    players = dict(db.session.execute(
        sa.select(Player.name, Player.id).where(Player.group_id == group.id)).all())
    session_ids = _write_sessions(group.id, players, backup.sessions, [
        {"version": s.version, "started_at": s.started_at, "ended_at": s.ended_at,
         "currency": s.currency, "house_rules": s.house_rules,
         "first_dealer_id": players[s.first_dealer]} for s in backup.sessions])
    events = [{"group_id": group.id,
               "session_id": None if e.session is None else session_ids[e.session],
               "at": e.at, "device": e.device, "action": e.action, "subject": e.subject,
               "before": e.before, "after": e.after, "version": e.version}
              for e in backup.events]
    events.append({"group_id": group.id, "session_id": None, "at": utcnow(),
                   "device": device[:DEVICE_MAX], "action": "group.import",
                   "subject": "Imported from a backup", "before": None, "version": None,
                   "after": {"from": backup.group_name,
                             "exported_at": backup.exported_at.isoformat() + "Z",
                             "sessions": len(backup.sessions), "rounds": backup.rounds}})
    db.session.execute(sa.insert(AuditEvent.__table__), events)
    restores = [i for i, e in enumerate(backup.events) if e.action == "round.restore"]
    if restores:
        # The deletion each undid, from its index to its id. Rows inserted one
        # after another take rising ids, and nobody else writes to this group yet.
        event_ids = db.session.scalars(sa.select(AuditEvent.id).where(
            AuditEvent.group_id == group.id).order_by(AuditEvent.id)).all()
        db.session.execute(
            sa.update(AuditEvent.__table__)
            .where(AuditEvent.__table__.c.id == sa.bindparam("event"))
            .values(after=sa.bindparam("new_after")),
            [{"event": event_ids[i], "new_after": {
                **events[i]["after"], "restores": event_ids[events[i]["after"]["restores"]]}}
             for i in restores])
    return group


# Time zones


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA time zone names a group may choose ("Asia/Kuala_Lumpur", "UTC" …):
    those this server knows, less the placeholders that name no place."""

    return frozenset(zoneinfo.available_timezones() - {"Factory", "localtime", "posixrules"})


def set_timezone(group: Group, timezone: str, *, device: str = "") -> None:
    """Show the group's times in ``timezone`` from now on; stored times stay UTC."""
    if timezone not in time_zones():
        raise ServiceError("Choose a time zone from the list")
    if timezone == group.timezone:
        return
    before = {"timezone": group.timezone}
    group.timezone = timezone
    _audit(group.id, "group.timezone", f"Time zone {timezone}", before=before,
           after={"timezone": timezone}, device=device)
    db.session.commit()


# Demo data (flask seed-demo): a plan of scorekeeper.demo, written in bulk

DEMO_GROUP = "Demo table"
DEMO_DEVICE = "Demo"
DEMO_CURRENCY = "RM"
DEMO_CHUNK = 500  # sessions per transaction


def next_demo_group_name() -> str:
    """"Demo table N", N one more than any demo table so far."""
    numbers = [0]
    for name in db.session.scalars(sa.select(Group.name).where(
            Group.name_key.like(f"{DEMO_GROUP.casefold()} %"))):
        match = re.fullmatch(rf"{DEMO_GROUP} (\d+)", name)
        if match:
            numbers.append(int(match[1]))
    return f"{DEMO_GROUP} {max(numbers) + 1}"


def seed_demo_group(name: str, passphrase: str, plan: DemoGroup,
                    chunk: int = DEMO_CHUNK) -> tuple[Group, int, int]:
    """A new group holding ``plan``, its sessions ``chunk`` to a transaction
    (bulk INSERTs rather than a use case per round): the group, its number of
    sessions and of rounds."""
    group = create_group(name, passphrase)
    group.created_at = plan.since
    players = _write_demo_players(group, plan.players, plan.since)
    db.session.commit()
    sessions = iter(plan.sessions)
    written = rounds = 0
    while batch := list(islice(sessions, chunk)):
        rounds += _write_demo_batch(group.id, players, batch)
        written += len(batch)
        db.session.commit()
    _recount_finished(group.id)
    db.session.commit()
    return group, written, rounds


def _write_demo_players(group: Group, names: list[str], at: datetime) -> dict[str, int]:
    """The group's players, added; their ids by name."""
    ids = db.session.scalars(
        sa.insert(Player).returning(Player.id, sort_by_parameter_order=True),
        [{"group_id": group.id, "name": name, "created_at": at} for name in names]).all()
    db.session.execute(sa.insert(AuditEvent.__table__), [
        {"group_id": group.id, "at": at, "device": DEMO_DEVICE, "action": "player.add",
         "subject": name, "after": {"name": name}} for name in names])
    return dict(zip(names, ids))


def _write_demo_batch(group_id: int, players: dict[str, int],
                      batch: list[DemoSession]) -> int:
    session_ids = _write_sessions(group_id, players, batch, [
        {"version": s.version, "started_at": s.started_at, "ended_at": s.ended_at,
         "currency": DEMO_CURRENCY, "house_rules": dataclasses.asdict(s.rules),
         "first_dealer_id": players[s.first_dealer]} for s in batch])
    db.session.execute(sa.insert(AuditEvent.__table__), [
        {"group_id": group_id, "session_id": sid, "at": s.started_at, "device": DEMO_DEVICE,
         "action": "session.start", "subject": "Session started", "version": 1,
         "after": {"players": s.table, "first_dealer": s.first_dealer, "currency": DEMO_CURRENCY,
                   "house_rules": dataclasses.asdict(s.rules)}}
        for sid, s in zip(session_ids, batch)])
    return sum(len(s.rounds) for s in batch)


def _write_sessions(group_id: int, players: dict[str, int], sessions: list,
                    columns: list[dict]) -> list[int]:
    """Sessions written in bulk, with their seats, rounds, entries, payments
    and seat totals; their ids, in order. ``sessions`` are DemoSession or
    backup.SessionData (their seats, rounds and payments), ``columns`` each
    one's other values (version, times, currency, house_rules, first_dealer_id);
    ``players`` the group's player ids by name. A few statements whatever the
    number of rows."""
    if not sessions:
        return []
    db.session.execute(sa.insert(GameSession.__table__),
                       [{"group_id": group_id, **values} for values in columns])
    # Their ids, in the order written: rows inserted one after another take
    # rising ids (SQLite gives the largest + 1, under its write lock; a
    # PostgreSQL sequence rises within a connection), and they are the group's
    # newest. (RETURNING in order would take, on SQLite, one INSERT per row.)
    session_ids = db.session.scalars(
        sa.select(GameSession.id).where(GameSession.group_id == group_id)
        .order_by(GameSession.id.desc()).limit(len(columns))).all()[::-1]
    db.session.execute(sa.insert(Seat.__table__), [
        {"session_id": sid, "player_id": players[seat.player], "position": seat.position,
         "active": seat.active}
        for sid, s in zip(session_ids, sessions) for seat in s.seats])
    payments = [
        {"session_id": sid, "payer_id": players[p.payer], "payee_id": players[p.payee],
         "cents": p.cents, "paid_at": p.paid_at}
        for sid, s in zip(session_ids, sessions) for p in s.payments]
    if payments:
        db.session.execute(sa.insert(Payment.__table__), payments)
    rounds = [(sid, r) for sid, s in zip(session_ids, sessions) for r in s.rounds]
    if rounds:
        db.session.execute(sa.insert(Round.__table__), [
            {"session_id": sid, "number": r.number, "dealer_id": players[r.dealer],
             "created_at": r.created_at}
            for sid, r in rounds])
        # Found by (session, number) in one query: RETURNING in order would take,
        # on SQLite, one INSERT per round.
        round_ids = {(sid, number): rid for sid, number, rid in db.session.execute(
            sa.select(Round.session_id, Round.number, Round.id)
            .where(Round.session_id.in_(session_ids)))}
        db.session.execute(sa.insert(RoundEntry.__table__), [
            {"round_id": round_ids[sid, r.number], "player_id": players[e.player],
             "seat": e.seat, "turn": e.turn, "outcome": e.outcome, "cards": e.cards,
             "points": e.points, "position": e.position, "tier_cents": e.tier_cents,
             "hu_cents": e.hu_cents, "joker_ace_cents": e.joker_ace_cents,
             "net_cents": e.net_cents}
            for sid, r in rounds for e in r.entries])
        _total_seats_in_bulk(Round.session_id.in_(session_ids))
    return session_ids


def analyze_tables() -> None:
    """Fresh statistics for the query planner, which would otherwise plan for
    the tables as they were before the bulk load; on PostgreSQL a VACUUM too,
    whose visibility map lets counts be read from an index alone."""
    db.session.commit()
    quote = db.engine.dialect.identifier_preparer.quote
    command = "VACUUM ANALYZE" if db.engine.dialect.name == "postgresql" else "ANALYZE"
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        for table in db.metadata.sorted_tables:
            connection.execute(sa.text(f"{command} {quote(table.name)}"))
