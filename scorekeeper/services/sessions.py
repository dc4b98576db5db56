"""Players and sessions: seating a table, players joining and leaving,
ending and reopening, a player's name."""

from __future__ import annotations

import random

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

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
from ..limits import MAX_PLAYERS, MIN_PLAYERS, NAME_MAX, clean_name
from ..models import GameSession, Group, Player, Seat, utcnow
from ..rules import HouseRules, RulesError
from .versioning import Once, ServiceError, _audit, _claim, _remember


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
    new = [name for name, key in zip(names, keys, strict=True) if key not in known]
    for name in new:
        if _insert_player(group.id, name):
            _audit(group.id, PlayerAdded(name), device=device)
    if new:
        known = {p.name_key: p for p in group_players(group.id)}
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


def _check_rules(rules: HouseRules) -> None:
    """Rules within the limits the app takes (as the form's and a backup's are)."""
    try:
        rules.check_limits()
    except RulesError as error:
        raise ServiceError(f"These house rules can't be taken: {error}") from None


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
                  rng: random.Random | None = None, *, device: str = "",
                  once: Once | None = None) -> GameSession:
    """A new session with players seated clockwise in the order given.

    ``first_dealer`` is one of the names, or None to draw one at random.
    """
    _check_rules(rules)
    _check_table(rules, len(names))
    players = find_or_create_players(group, names, device=device)
    if first_dealer is None:
        dealer = (rng or random).choice(players)
    else:
        wanted = clean_name(first_dealer).casefold()
        dealer = next((p for p in players if p.name_key == wanted), None)
        if dealer is None:
            raise ServiceError(f"The first dealer {first_dealer!r} is not at the table")
    session = GameSession(
        group=group,
        currency=currency.strip() or "RM",
        rules=rules,
        first_dealer=dealer,
        seats=[Seat(player=p, position=i) for i, p in enumerate(players)],
    )
    db.session.add(session)
    db.session.flush()
    _audit(group.id, SessionStarted(tuple(p.name for p in players), dealer.name,
                                    session.currency, rules.to_json()),
           session=session, device=device)
    _remember(group.id, once, session, session=session)
    db.session.commit()
    return session


def active_players(session: GameSession) -> list[Player]:
    """Who sits at the table now, clockwise."""
    return [seat.player for seat in session.seats if seat.active]


def _renumber_seats(seats: list[Seat]) -> None:
    for position, seat in enumerate(seats):
        seat.position = position


def join_session(session: GameSession, name: str, position: int, *, device: str = "",
                 version: int | None = None, once: Once | None = None) -> Player:
    """Seat a player (new, known, or back after leaving) before the ``position``-th
    player clockwise; ``position`` equal to the number seated puts them last."""
    _check_open(session)
    everyone = list(session.seats)  # clockwise; those who left keep their place
    seated = [seat for seat in everyone if seat.active]
    wanted = clean_name(name).casefold()
    here = next((seat.player for seat in seated if seat.player.name_key == wanted), None)
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
    _audit(session.group_id,
           SeatJoined(player.name, tuple(s.player.name for s in everyone if s.active)),
           session=session, device=device)
    _remember(session.group_id, once, player, session=session)
    db.session.commit()
    return player


def leave_session(session: GameSession, player_id: int, *, device: str = "",
                  version: int | None = None, once: Once | None = None) -> None:
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
    _audit(session.group_id, SeatLeft(seat.player.name), session=session, device=device)
    _remember(session.group_id, once, session=session)
    db.session.commit()


def _check_open(session: GameSession) -> None:
    if session.is_finished:
        raise ServiceError("This session has ended")


def end_session(session: GameSession, *, device: str = "", version: int | None = None,
                once: Once | None = None) -> None:
    _check_open(session)
    _claim(session, version)
    session.ended_at = utcnow()
    _count_finished(session.group_id, 1)
    _audit(session.group_id, SessionEnded(), session=session, device=device)
    _remember(session.group_id, once, session=session)
    db.session.commit()


def reopen_session(session: GameSession, *, device: str = "",
                   version: int | None = None, once: Once | None = None) -> None:
    """Open an ended session again, so a round can be corrected."""
    if not session.is_finished:
        raise ServiceError("This session is still open")
    _claim(session, version)
    session.ended_at = None
    _count_finished(session.group_id, -1)
    _audit(session.group_id, SessionReopened(), session=session, device=device)
    _remember(session.group_id, once, session=session)
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


def rename_player(player: Player, name: str, *, device: str = "") -> None:
    """Correct a player's name everywhere; the audit trail keeps the old one."""
    name = _player_name(name)
    if name == player.name:
        return
    taken = ServiceError(f"Someone in the group is called {name} already")
    if any(other.id != player.id and other.name_key == name.casefold()
           for other in group_players(player.group_id)):
        raise taken
    renamed = PlayerRenamed(player.name, name)
    player.name = name
    _audit(player.group_id, renamed, device=device)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # renamed so by another phone at the same moment
        db.session.rollback()
        raise taken from None
