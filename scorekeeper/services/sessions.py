"""Players and sessions: seating a table, players joining and leaving,
ending and reopening, a player's name."""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import selectinload

from ..audit import (
    PlayerAdded,
    PlayerRenamed,
    SeatJoined,
    SeatLeft,
    SessionEnded,
    SessionReopened,
    SessionStarted,
)
from ..extensions import db
from ..limits import MIN_PLAYERS, NAME_MAX, clean_name
from ..models import GameSession, Group, Player, Seat, utcnow
from ..rules import HouseRules
from ._common import check_open, check_rules, check_table, session_of
from .protocol import N_, Applying, Change, ServiceError, applying


def _player_name(name: str) -> str:
    """``name`` as a player's name is kept: spaces tidied, 1 to NAME_MAX characters."""
    name = clean_name(name)
    if not 1 <= len(name) <= NAME_MAX:
        raise ServiceError(N_("A name needs 1 to %(most)s characters: %(name)s"),
                           most=NAME_MAX, name=repr(name))
    return name


def group_players(group_id: int) -> list[Player]:
    """Everyone in the group, oldest first."""
    return list(db.session.scalars(
        sa.select(Player).where(Player.group_id == group_id).order_by(Player.id)))


def _find_or_add_players(done: Applying, names: list[str]) -> list[Player]:
    """The group's players by name, reusing anyone seen before whatever the
    letter case, and adding the others (audited), even when another phone
    adds the same name at the same moment."""
    group_id = done.change.group.id
    names = [_player_name(n) for n in names]
    keys = [n.casefold() for n in names]
    if len(set(keys)) != len(keys):
        raise ServiceError(N_("Each player needs a different name"))
    known = {p.name_key: p for p in group_players(group_id)}
    new = [name for name, key in zip(names, keys, strict=True) if key not in known]
    for name in new:
        if _insert_player(group_id, name):
            done.audit(PlayerAdded(name))
    if new:
        known = {p.name_key: p for p in group_players(group_id)}
    return [known[key] for key in keys]


def _insert_player(group_id: int, name: str) -> bool:
    """Add a player unless the group has one of that name (whatever the letter
    case) by now, waiting for a phone that is adding them at this moment;
    whether this one added them."""
    dialect = postgresql if db.session.get_bind().dialect.name == "postgresql" else sqlite
    added = db.session.scalar(
        dialect.insert(Player).values(group_id=group_id, name=name, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=["group_id", "name_key"])
        .returning(Player.id))
    return added is not None


@dataclass(frozen=True)
class Running:
    """A session still open that seats some of a new session's players:
    who sits at it now (clockwise), and which of them the new one seats."""

    session: GameSession
    players: list[str]
    shared: list[str]


class AlreadyPlaying(ServiceError):
    """Players of a new session sit at sessions still open (``tables``,
    the latest started first): nothing was started. ``ids`` names those
    sessions, for the table to start alongside them all the same."""

    def __init__(self, tables: list[Running]) -> None:
        shared = list(dict.fromkeys(name for t in tables for name in t.shared))
        super().__init__(f"{_and_list(shared)} {'is' if len(shared) == 1 else 'are'} "
                         "playing at a session still open")
        self.tables = tables
        self.ids = frozenset(t.session.id for t in tables)


def _and_list(names: list[str]) -> str:
    """Names as a sentence says them: "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def running_tables(group_id: int, names: list[str]) -> list[Running]:
    """The group's sessions still open at which one of ``names`` sits (any
    letter case), the latest started first."""
    keys = {clean_name(name).casefold() for name in names}
    open_with_them = (
        sa.select(Seat.session_id).join(Player, Seat.player)
        .join(GameSession, Seat.session)
        .where(GameSession.group_id == group_id, GameSession.ended_at.is_(None),
               Seat.active, Player.name_key.in_(keys)))
    sessions = db.session.scalars(
        sa.select(GameSession).where(GameSession.id.in_(open_with_them))
        .options(selectinload(GameSession.seats).selectinload(Seat.player))
        .order_by(GameSession.started_at.desc(), GameSession.id.desc()))
    tables = []
    for session in sessions:
        seated = [seat.player for seat in session.seats if seat.active]
        tables.append(Running(session, [p.name for p in seated],
                              [p.name for p in seated if p.name_key in keys]))
    return tables


def start_session(change: Change, names: list[str], rules: HouseRules,
                  first_dealer: str | None = None, currency: str = "RM",
                  rng: random.Random | None = None,
                  alongside: Collection[int] | None = None) -> GameSession:
    """A new session of the change's group, with players seated clockwise in
    the order given. ``first_dealer`` is one of the names, or None to draw one
    at random. ``alongside``: the sessions still open that the table chose to
    play beside (a phone's "Start another anyway"); AlreadyPlaying if any
    other seats one of the players. None starts it whoever plays elsewhere
    (a test, demo play).
    """
    check_rules(rules)
    check_table(rules, len(names))
    with applying(change) as done:
        if alongside is not None:
            _one_start_at_a_time(change.group.id)
            tables = running_tables(change.group.id, names)
            if not {t.session.id for t in tables} <= set(alongside):
                raise AlreadyPlaying(tables)
        players = _find_or_add_players(done, names)
        if first_dealer is None:
            dealer = (rng or random).choice(players)
        else:
            wanted = clean_name(first_dealer).casefold()
            dealer = next((p for p in players if p.name_key == wanted), None)
            if dealer is None:
                raise ServiceError(N_("The first dealer %(player)s is not at the table"),
                                   player=repr(first_dealer))
        session = GameSession(
            group=change.group,
            currency=currency.strip() or "RM",
            rules=rules,
            first_dealer=dealer,
            seats=[Seat(player=p, position=i) for i, p in enumerate(players)],
        )
        db.session.add(session)
        db.session.flush()
        done.session = done.result = session
        done.audit(SessionStarted(tuple(p.name for p in players), dealer.name,
                                  session.currency, rules.to_json()))
    return session


def _one_start_at_a_time(group_id: int) -> None:
    """Lock the group's row for the rest of the transaction, so that of two
    phones starting a session at once, the second sees the first's session
    as running: on PostgreSQL the second waits here for the first to
    commit; on SQLite this write takes the database's write lock."""
    db.session.execute(
        sa.update(Group).where(Group.id == group_id)
        .values(finished_sessions=Group.finished_sessions)
        .execution_options(synchronize_session=False))


def active_players(session: GameSession) -> list[Player]:
    """Who sits at the table now, clockwise."""
    return [seat.player for seat in session.seats if seat.active]


def _renumber_seats(seats: list[Seat]) -> None:
    for position, seat in enumerate(seats):
        seat.position = position


def join_session(change: Change, name: str, position: int) -> Player:
    """Seat a player (new, known, or back after leaving) before the ``position``-th
    player clockwise; ``position`` equal to the number seated puts them last."""
    session = session_of(change)
    check_open(session)
    everyone = list(session.seats)  # clockwise; those who left keep their place
    seated = [seat for seat in everyone if seat.active]
    wanted = clean_name(name).casefold()
    here = next((seat.player for seat in seated if seat.player.name_key == wanted), None)
    if here is not None:
        raise ServiceError(N_("%(player)s is already at the table"), player=here.name)
    check_table(session.rules, len(seated) + 1)
    with applying(change) as done:  # nothing is added before the checks pass
        (player,) = _find_or_add_players(done, [name])
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
        done.audit(SeatJoined(player.name, tuple(s.player.name for s in everyone if s.active)))
        done.result = player
    return player


def leave_session(change: Change, player_id: int) -> None:
    """The player's seat stays in its place, inactive, so that a deal they would
    have had passes on from where they sat."""
    session = session_of(change)
    check_open(session)
    seats = [seat for seat in session.seats if seat.active]
    seat = next((s for s in seats if s.player_id == player_id), None)
    if seat is None:
        raise ServiceError(N_("That player is not at the table"))
    if len(seats) <= MIN_PLAYERS:
        raise ServiceError(N_("A table needs at least %(least)s players"), least=MIN_PLAYERS)
    with applying(change) as done:
        seat.active = False
        done.audit(SeatLeft(seat.player.name))


def end_session(change: Change) -> None:
    session = session_of(change)
    check_open(session)
    with applying(change) as done:
        session.ended_at = utcnow()
        _count_finished(session.group_id, 1)
        done.audit(SessionEnded())


def reopen_session(change: Change) -> None:
    """Open an ended session again, so a round can be corrected."""
    session = session_of(change)
    if not session.is_finished:
        raise ServiceError(N_("This session is still open"))
    with applying(change) as done:
        session.ended_at = None
        _count_finished(session.group_id, -1)
        done.audit(SessionReopened())


def _count_finished(group_id: int, change: int) -> None:
    """Add ``change`` to the group's count of finished sessions: in SQL, so
    that two sessions of the group ending at once both count."""
    db.session.execute(
        sa.update(Group).where(Group.id == group_id)
        .values(finished_sessions=Group.finished_sessions + change)
        .execution_options(synchronize_session=False))


def rename_player(change: Change, player: Player, name: str) -> None:
    """Correct a player's name everywhere; the audit trail keeps the old one."""
    name = _player_name(name)
    if name == player.name:
        return
    taken = ServiceError(f"Someone in the group is called {name} already")
    if any(other.id != player.id and other.name_key == name.casefold()
           for other in group_players(player.group_id)):
        raise taken
    try:
        with applying(change) as done:
            done.audit(PlayerRenamed(player.name, name))
            player.name = name
    except sa.exc.IntegrityError:  # renamed so by another phone at the same moment
        raise taken from None


def player_named(done: Applying, name: str) -> Player:
    """The group's player called ``name`` (whatever the letter case), added
    (audited) if there is none yet: a phone saying "I'm new here"."""
    return _find_or_add_players(done, [name])[0]


def phone_player(change: Change, name: str) -> Player:
    """The player a phone says it is, by name: someone the group knows, or
    added to it (audited) if the group has nobody of that name."""
    with applying(change, audited=False) as done:  # a known name adds nobody
        return player_named(done, name)
