"""Seat totals: each player's sums over a session's rounds, stored on the seat
so that the history and player pages read one row per session."""

from __future__ import annotations

import functools

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import (
    GameSession,
    Round,
    RoundEntry,
    Seat,
    table,
)

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
    seat = table(Seat)
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
            sa.update(table(Seat))
            .where(Seat.session_id == sa.bindparam("session"),
                   Seat.player_id == sa.bindparam("player"))
            .values({name: sa.bindparam(f"new_{name}") for name in SEAT_TOTALS}),
            rows)
