"""What the services share, in one place rather than in each other's
private names: the checks a change of a session makes, a round as the audit
trail keeps it and as the engine scores it again, a group's count of
finished sessions, and seat totals (each player's sums over a session's
rounds, stored on the seat so that the history and player pages read one
row per session)."""

from __future__ import annotations

import functools

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ..audit import SNAPSHOT_FIELDS, RoundSnapshot, SnapshotEntry
from ..extensions import db
from ..limits import MAX_PLAYERS, MIN_PLAYERS
from ..models import (
    GameSession,
    Group,
    Round,
    RoundEntry,
    Seat,
    table,
)
from ..rules import Entry, HouseRules, Played, Problem, RulesError
from .protocol import N_, Change, ServiceError


class RulesRefused(ServiceError):
    """House rules past the limits the app takes: the engine's ``problems``
    name each (the web layer words them)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("house rules refused: " + "; ".join(map(str, problems)))
        self.problems = problems


def session_of(change: Change) -> GameSession:
    """The session that a change of a session changes."""
    if change.session is None:
        raise TypeError("A change of a session needs its session")
    return change.session


def check_open(session: GameSession) -> None:
    if session.is_finished:
        raise ServiceError(N_("This session has ended"))


def check_rules(rules: HouseRules) -> None:
    """Rules within the limits the app takes (as the form's and a backup's are)."""
    try:
        rules.check_limits()
    except RulesError as error:
        raise RulesRefused(error.problems) from None


def check_table(rules: HouseRules, n_players: int) -> None:
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ServiceError(N_("A table has %(least)s to %(most)s players"),
                           least=MIN_PLAYERS, most=MAX_PLAYERS)
    deck = rules.packs_for(n_players) * 52 + rules.jokers
    needed = rules.cards_dealt(n_players) * n_players
    if needed > deck:
        raise ServiceError(N_("%(players)s players need %(needed)s cards, but the deck has only "
                              "%(deck)s: add a pack or deal fewer cards"),
                           players=n_players, needed=needed, deck=deck)


def check_new_rules(session: GameSession, rules: HouseRules) -> None:
    """Rules a session's table could play on: within the app's limits, and
    dealt to the players at the table now (a correction, What if)."""
    check_rules(rules)
    check_table(rules, sum(seat.active for seat in session.seats))


def played_round(round_: Round) -> Played[str]:
    """A stored round as the engine replays it, by player name: its playing
    order, each entry and each player's money as scored."""
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return Played(round_.number, tuple(e.player.name for e in entries),
                  {e.player.name: Entry(e.outcome, e.cards) for e in entries},
                  {e.player.name: e.net_cents for e in entries})


def round_snapshot(round_: Round) -> RoundSnapshot:
    """A round as the audit trail keeps it: enough to show it and to restore it."""
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return snapshot(round_.number, round_.dealer.name,
                    [(e.player.name, {name: getattr(e, name) for name in SNAPSHOT_FIELDS})
                     for e in entries])


def snapshot(number: int, dealer: str, entries: list[tuple[str, dict]]) -> RoundSnapshot:
    """round_snapshot of a round's number, dealer and (player, values) entries
    in playing order."""
    return RoundSnapshot(number, dealer, tuple(
        SnapshotEntry(player, **{name: values[name] for name in SNAPSHOT_FIELDS})
        for player, values in entries))


def recount_finished(group_id: int) -> None:
    """Count the group's finished sessions afresh, after writing them in bulk."""
    db.session.execute(
        sa.update(Group).where(Group.id == group_id)
        .values(finished_sessions=sa.select(sa.func.count()).select_from(GameSession)
                .where(GameSession.group_id == group_id, GameSession.ended_at.is_not(None))
                .scalar_subquery())
        .execution_options(synchronize_session=False))


# Seat totals

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


def total_seats(session: GameSession) -> None:
    """Store the session's seat totals as its rounds now stand."""
    db.session.flush()
    totals = {row.player_id: row for row in db.session.execute(
        _seat_totals(Round.session_id == session.id))}
    for seat in session.seats:
        row = totals.get(seat.player_id)
        for name in SEAT_TOTALS:
            setattr(seat, name, int(getattr(row, name)) if row else 0)


@functools.cache
def add_round_to_seats() -> sa.Update:
    """Add the round ``round_id``, just written as the session's last, to its
    players' seat totals, rather than summing every round again: one statement,
    built once. The seats are current: the version claimed for the change
    proves nothing changed since they were read."""
    seat = table(Seat)
    totals = _seat_totals(Round.id == sa.bindparam("round_id")).subquery()
    return (sa.update(seat)
            .where(seat.c.session_id == totals.c.session_id,
                   seat.c.player_id == totals.c.player_id)
            .values({name: seat.c[name] + totals.c[name] for name in SEAT_TOTALS}))


def total_seats_in_bulk(*where) -> None:
    """Store the seat totals of the sessions that ``where`` picks (see
    _seat_totals), for rows written in bulk; loaded Seat objects are not updated."""
    rows = [{"session": row.session_id, "player": row.player_id,
             **{f"new_{name}": int(getattr(row, name)) for name in SEAT_TOTALS}}
            for row in db.session.execute(_seat_totals(*where))]
    if rows:
        db.session.execute(
            sa.update(table(Seat))
            .where(Seat.session_id == sa.bindparam("session"),
                   Seat.player_id == sa.bindparam("player"))
            .values({name: sa.bindparam(f"new_{name}") for name in SEAT_TOTALS}),
            rows)
