"""The figures behind the charts (scorekeeper/charts): a session's running
money round by round, and a player's money by month, best and worst evening
and points left per round. Each in one statement whatever the history."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import GameSession, Player, Round, RoundEntry, Seat

# The rounds a player's spread of points left counts: their latest, about
# fifty evenings' worth.
SPREAD_ROUNDS = 1_000


@functools.cache
def _session_entries(points: bool) -> sa.Select:
    figure = RoundEntry.points if points else RoundEntry.net_cents
    return (sa.select(Round.number, RoundEntry.player_id, figure)
            .join(RoundEntry.round)
            .where(Round.session_id == sa.bindparam("session_id", type_=sa.Integer))
            .order_by(Round.number))


def running_totals(session_id: int, player_ids: Iterable[int],
                   points: bool = False) -> list[list[int]]:
    """Each player's money (or with ``points``, points) after each round of
    the session: a list a player, in the order given, the first figure after
    round 1; a round a player sat out leaves theirs as it was."""
    ids = list(player_ids)
    column = {player_id: i for i, player_id in enumerate(ids)}
    per_round: dict[int, list[int]] = {}
    for number, player_id, cents in db.session.execute(_session_entries(points),
                                                       {"session_id": session_id}):
        per_round.setdefault(number, [0] * len(ids))[column[player_id]] += cents
    last = max(per_round, default=0)
    series: list[list[int]] = [[] for _ in ids]
    totals = [0] * len(ids)
    for number in range(1, last + 1):
        for i, cents in enumerate(per_round.get(number, ())):
            totals[i] += cents
        for i, total in enumerate(totals):
            series[i].append(total)
    return series


@dataclass(frozen=True)
class Month:
    year: int
    month: int
    cents: int  # the player's money over the sessions started that month (group's clock)
    sessions: int


@dataclass(frozen=True)
class Evening:
    session_id: int
    started_at: datetime
    cents: int


def money_by_month(player: Player, currency: str, zone: str) -> list[Month]:
    """The player's money month by month in ``currency``, the months they
    played in, oldest first: a session counts in the month it started in on
    the group's clock (``zone``, at its offset from UTC now: in a zone with
    summer time, a session begun within an hour of midnight at a month's end
    may count in the month beside)."""
    started = _on_clock(GameSession.started_at, zone)
    year, month = sa.extract("year", started), sa.extract("month", started)
    rows = db.session.execute(
        sa.select(year, month, sa.func.sum(Seat.net_cents), sa.func.count())
        .join(GameSession, GameSession.id == Seat.session_id)
        .where(Seat.player_id == player.id, GameSession.currency == currency)
        .group_by(year, month).order_by(year, month))
    return [Month(int(y), int(m), int(cents), int(count)) for y, m, cents, count in rows]


def _on_clock(moment: sa.orm.InstrumentedAttribute[datetime],
              zone: str) -> sa.ColumnElement[datetime]:
    """A stored UTC time as the wall clock of ``zone`` reads it, in SQL."""
    offset = datetime.now(ZoneInfo(zone)).utcoffset()
    seconds = int(offset.total_seconds()) if offset else 0
    if db.session.get_bind().dialect.name == "sqlite":
        return sa.func.datetime(moment, f"{seconds:+d} seconds", type_=sa.DateTime)
    return moment + sa.func.make_interval(0, 0, 0, 0, 0, 0, seconds)


def best_and_worst(player: Player, currency: str) -> tuple[Evening | None, Evening | None]:
    """The player's best and worst session in ``currency`` (the latest of
    equals), in one statement; (None, None) before their first."""
    evenings = (sa.select(GameSession.id, GameSession.started_at, Seat.net_cents)
                .join(GameSession, GameSession.id == Seat.session_id)
                .where(Seat.player_id == player.id, GameSession.currency == currency))
    best = evenings.order_by(Seat.net_cents.desc(), GameSession.started_at.desc()).limit(1)
    worst = evenings.order_by(Seat.net_cents, GameSession.started_at.desc()).limit(1)
    rows = db.session.execute(sa.union_all(
        sa.select(best.subquery(), sa.literal(1).label("best")),
        sa.select(worst.subquery(), sa.literal(0).label("best")))).all()
    found = {row[3]: Evening(row[0], row[1], int(row[2])) for row in rows}
    return found.get(1), found.get(0)


def points_spread(player: Player, last: int = SPREAD_ROUNDS) -> dict[int, int]:
    """How many of the player's ``last`` rounds entered ended with each count
    of points left in hand: the rounds their average counts (a round lost to
    another's Tien Hu is left out, as in PlayerRecord). The latest rounds
    only, so that years of them cost no more to read than one."""
    recent = (sa.select(RoundEntry.round_id, RoundEntry.player_id, RoundEntry.points)
              .where(RoundEntry.player_id == player.id)
              .order_by(RoundEntry.id.desc()).limit(last).subquery())
    tien_hu = aliased(RoundEntry)
    counted = ~sa.select(tien_hu.id).where(
        tien_hu.round_id == recent.c.round_id, tien_hu.outcome == "tien_hu",
        tien_hu.player_id != recent.c.player_id).exists()
    rows = db.session.execute(
        sa.select(recent.c.points, sa.func.count()).where(counted)
        .group_by(recent.c.points).order_by(recent.c.points))
    return {int(points): int(count) for points, count in rows}
