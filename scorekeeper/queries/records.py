"""The group's records: a leaderboard over any dates, and two players head to
head. Summed by the database from each seat's stored totals (models.Seat):
a fixed number of statements whatever the years of history."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import GameSession, Payment, Player, Seat
from .debts import session_transfers
from .history import ratio
from .paging import Page, page_params, paged


def day_start(day: date, zone: str) -> datetime:
    """When ``day`` begins where the group plays, as a stored (naive UTC) time:
    a session belongs to the day it started on the group's clock, as the
    history shows it."""
    local = datetime.combine(day, time(), tzinfo=ZoneInfo(zone))
    return local.astimezone(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class Line:
    """A player's line of the leaderboard: sums over the sessions they sat at
    in the dates and currency chosen."""

    player_id: int
    name: str
    sessions: int
    rounds: int
    net_cents: int
    wins: int  # rounds finished first, ties too
    hu: int
    tien_hu: int
    counted_rounds: int  # rounds whose points count for the average (Seat)
    counted_points: int

    @property
    def per_session_cents(self) -> int:
        """Money per session, to the cent (halves away from zero)."""
        return int(ratio(self.net_cents, self.sessions, "1") or 0)

    @property
    def average_points(self) -> Decimal | None:
        """Points left in hand per counted round, to one decimal."""
        return ratio(self.counted_points, self.counted_rounds, "0.1")


# The columns the board sorts by, each with its first direction (True: the
# highest first); ties go by name. A player with no average sorts last.
SORTS: dict[str, tuple[Callable[[Line], Any], bool]] = {
    "name": (lambda line: 0, False),
    "sessions": (lambda line: line.sessions, True),
    "money": (lambda line: line.net_cents, True),
    "per_session": (lambda line: line.per_session_cents, True),
    "wins": (lambda line: line.wins, True),
    "hu": (lambda line: line.hu, True),
    "tien_hu": (lambda line: line.tien_hu, True),
    "rounds": (lambda line: line.rounds, True),
    "points": (lambda line: line.average_points, False),
}


def sorted_lines(lines: list[Line], column: str, descending: bool) -> list[Line]:
    """The lines by ``column`` (a SORTS key), the other way round than
    ascending if ``descending``; ties by name, blanks last."""
    key, _ = SORTS[column]
    by_name = sorted(lines, key=lambda line: (line.name.casefold(), line.player_id),
                     reverse=descending and column == "name")
    known = [line for line in by_name if key(line) is not None]
    blank = [line for line in by_name if key(line) is None]
    return sorted(known, key=key, reverse=descending) + blank


@dataclass(frozen=True)
class Leaderboard:
    """The board in ``currency`` (None: no session in the dates), and every
    currency played in the dates, the most played first."""

    currency: str | None
    currencies: list[str]
    lines: list[Line]


TOTALS = ("rounds_played", "net_cents", "wins", "hu", "tien_hu", "counted_rounds",
          "counted_points")


def _in_dates(since: datetime | None, until: datetime | None) -> list[sa.ColumnElement[bool]]:
    where = []
    if since is not None:
        where.append(GameSession.started_at >= since)
    if until is not None:
        where.append(GameSession.started_at < until)
    return where


def leaderboard(group_id: int, since: datetime | None, until: datetime | None,
                currency: str | None) -> Leaderboard:
    """Each player's sums over the group's sessions started from ``since``
    up to (not including) ``until`` that they sat at, in ``currency`` (if
    played in those dates, else the currency played most): one statement."""
    rows = db.session.execute(
        sa.select(Seat.player_id, Player.name, GameSession.currency,
                  sa.func.count().label("sessions"),
                  *(sa.func.sum(getattr(Seat, name)).label(name) for name in TOTALS))
        .join(GameSession, GameSession.id == Seat.session_id)
        .join(Player, Player.id == Seat.player_id)
        .where(GameSession.group_id == group_id, *_in_dates(since, until))
        .group_by(Seat.player_id, Player.name, GameSession.currency)).all()
    played: dict[str, int] = defaultdict(int)  # seats, as the sessions are not counted apart
    for row in rows:
        played[row.currency] += row.sessions
    currencies = sorted(played, key=lambda c: (-played[c], c))
    if currency not in played:
        currency = currencies[0] if currencies else None
    lines = [Line(row.player_id, row.name, row.sessions,
                  *(int(getattr(row, name)) for name in TOTALS))
             for row in rows if row.currency == currency]
    return Leaderboard(currency, currencies, lines)


@dataclass(frozen=True)
class PairMoney:
    """Two players' money in one currency over the sessions they played
    together: each one's net, what each paid the other in those sessions'
    settle-ups (each session's own fewest transfers, rules.settle), and the
    payments marked between them (for a session or across sessions)."""

    currency: str
    sessions: int
    a_net: int
    b_net: int
    a_to_b: int  # settle-up transfers from a to b
    b_to_a: int
    paid_a_to_b: int = 0
    paid_b_to_a: int = 0


@dataclass(frozen=True)
class HeadToHead:
    sessions: int
    a_ahead: int  # sessions a ended with more money than b
    b_ahead: int
    level: int  # ended with the same money
    money: list[PairMoney]  # by currency, the most played first
    transfers: dict[int, tuple[int, int]]  # by session: (payer id, cents) between them


def _pair(a_id: int, b_id: int):
    """The two players' seats, and the shared sessions' where clause."""
    a, b = aliased(Seat, name="a"), aliased(Seat, name="b")
    return a, b, (a.player_id == a_id, b.player_id == b_id, b.session_id == a.session_id)


def head_to_head(group_id: int, a_id: int, b_id: int) -> HeadToHead:
    """The sessions both players sat at, who ended ahead, and the money
    between them: three statements."""
    a, b, together = _pair(a_id, b_id)
    rows = db.session.execute(
        sa.select(GameSession.currency, sa.func.count().label("sessions"),
                  sa.func.sum(sa.case((a.net_cents > b.net_cents, 1), else_=0)).label("a_ahead"),
                  sa.func.sum(sa.case((a.net_cents < b.net_cents, 1), else_=0)).label("b_ahead"),
                  sa.func.sum(a.net_cents).label("a_net"), sa.func.sum(b.net_cents).label("b_net"))
        .select_from(a).join(b, sa.true()).join(GameSession, GameSession.id == a.session_id)
        .where(*together, GameSession.group_id == group_id)
        .group_by(GameSession.currency)).all()
    transfers = _transfers_between(group_id, a_id, b_id)
    paid = _paid_between(group_id, a_id, b_id)
    money = []
    for row in sorted(rows, key=lambda r: (-r.sessions, r.currency)):
        sent = {a_id: 0, b_id: 0}
        for t in transfers:
            if t.currency == row.currency:
                sent[t.payer] += t.cents
        money.append(PairMoney(row.currency, row.sessions, int(row.a_net), int(row.b_net),
                               sent[a_id], sent[b_id], paid.get((row.currency, a_id), 0),
                               paid.get((row.currency, b_id), 0)))
    sessions = sum(r.sessions for r in rows)
    a_ahead = sum(int(r.a_ahead) for r in rows)
    b_ahead = sum(int(r.b_ahead) for r in rows)
    return HeadToHead(sessions, a_ahead, b_ahead, sessions - a_ahead - b_ahead, money,
                      {t.session_id: (t.payer, t.cents) for t in transfers})


class Between(NamedTuple):
    """The transfer between the two players in one session's settle-up."""

    session_id: int
    currency: str
    payer: int
    cents: int


def _transfers_between(group_id: int, a_id: int, b_id: int) -> list[Between]:
    """What went between the two in each shared session's settle-up. A
    transfer runs from a loss to a gain, so only the sessions where one of
    them lost and the other won are read, with their other seats."""
    a, b, together = _pair(a_id, b_id)
    apart = (sa.select(a.session_id).select_from(a).join(b, sa.true())
             .where(*together, sa.or_(sa.and_(a.net_cents < 0, b.net_cents > 0),
                                      sa.and_(a.net_cents > 0, b.net_cents < 0))))
    balances: dict[int, dict[int, int]] = defaultdict(dict)
    currencies: dict[int, str] = {}
    for row in db.session.execute(
            sa.select(Seat.session_id, Seat.player_id, Seat.net_cents, GameSession.currency)
            .join(GameSession, GameSession.id == Seat.session_id)
            .where(GameSession.group_id == group_id, Seat.session_id.in_(apart),
                   Seat.net_cents != 0)):
        balances[row.session_id][row.player_id] = row.net_cents
        currencies[row.session_id] = row.currency
    pair = {a_id, b_id}
    return [Between(sid, currencies[sid], t.payer, t.cents)
            for sid, balance in balances.items()
            for t in session_transfers(tuple(sorted(balance.items())))
            if {t.payer, t.payee} == pair]


def _paid_between(group_id: int, a_id: int, b_id: int) -> dict[tuple[str, int], int]:
    """The payments marked between the two, by (currency, payer id)."""
    return {(currency, payer): int(cents) for currency, payer, cents in db.session.execute(
        sa.select(Payment.currency, Payment.payer_id, sa.func.sum(Payment.cents))
        .where(Payment.group_id == group_id,
               sa.or_(sa.and_(Payment.payer_id == a_id, Payment.payee_id == b_id),
                      sa.and_(Payment.payer_id == b_id, Payment.payee_id == a_id)))
        .group_by(Payment.currency, Payment.payer_id))}


@dataclass(frozen=True)
class SharedSession:
    """A session both sat at, with each one's money and what went between them."""

    id: int
    started_at: datetime
    finished: bool
    currency: str
    a_cents: int
    b_cents: int


def shared_sessions(group_id: int, a_id: int, b_id: int, number: int, total: int) -> Page:
    """Page ``number`` of the sessions both sat at, newest first; ``total``
    is how many there are (HeadToHead.sessions)."""
    a, b, together = _pair(a_id, b_id)
    rows = db.session.execute(paged(
        sa.select(GameSession.id, GameSession.started_at, GameSession.ended_at,
                  GameSession.currency, a.net_cents.label("a_cents"),
                  b.net_cents.label("b_cents"))
        .join(a, a.session_id == GameSession.id).join(b, sa.true())
        .where(GameSession.group_id == group_id, *together)
        .order_by(GameSession.started_at.desc(), GameSession.id.desc())), page_params(number))
    return Page([SharedSession(r.id, r.started_at, r.ended_at is not None, r.currency,
                               r.a_cents, r.b_cents) for r in rows], number, total)
