"""Lists of sessions (in play, finished) a page at a time, one session's record, a
player's record. Fixed statement counts whatever the years of play."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.orm import joinedload, selectinload

from ..extensions import db
from ..models import (
    GameSession,
    Group,
    Player,
    Round,
    RoundEntry,
    Seat,
)
from .paging import PER_PAGE, Page, page_params, paged


class Seated(NamedTuple):
    """A player at a session of a list."""

    id: int
    name: str
    active: bool
    net_cents: int


@dataclass(frozen=True)
class SessionSummary:
    session: sa.Row  # LISTED: id, started_at, ended_at, currency, is_finished, rounds
    players: list[Seated]  # seat order, players who left included
    winners: list[Seated]  # the highest balance, several when tied; empty if nobody won money
    winner_cents: int

    @property
    def rounds(self) -> int:
        return self.session.rounds


# What a list shows of each session: plain rows, as a list needs no objects.
LISTED = (GameSession.id, GameSession.started_at, GameSession.ended_at, GameSession.currency,
          GameSession.ended_at.is_not(None).label("is_finished"),
          sa.select(sa.func.count()).where(Round.session_id == GameSession.id)
          .scalar_subquery().label("rounds"))


@functools.cache
def _players_on_record() -> sa.Select:
    seated = sa.select(Seat.id).where(Seat.player_id == Player.id).exists()
    return (sa.select(Player.id, Player.name)
            .where(Player.group_id == sa.bindparam("group_id"), seated)
            .order_by(sa.func.lower(Player.name), Player.id))


def players_on_record(group: Group) -> list[sa.Row]:
    """Everyone in the group who has sat at a table, by name: (id, name) rows."""
    return list(db.session.execute(_players_on_record(), {"group_id": group.id}).all())


def _listed_where(finished: bool, with_player: bool) -> list[sa.ColumnElement[bool]]:
    """The group ``group_id``'s finished sessions, or those still being played;
    with ``with_player``, only those where ``player_id`` sat."""
    ended = GameSession.ended_at.is_not(None) if finished else GameSession.ended_at.is_(None)
    where = [GameSession.group_id == sa.bindparam("group_id"), ended]
    if with_player:
        where.append(sa.select(Seat.id).where(
            Seat.session_id == GameSession.id,
            Seat.player_id == sa.bindparam("player_id")).exists())
    return where


@functools.cache
def _listed_page(finished: bool, with_player: bool) -> sa.Select:
    """A page of _listed_where(finished, with_player), the latest started
    first, with its sessions' players (see _with_seats), built once."""
    return _with_seats(paged(
        sa.select(*LISTED).where(*_listed_where(finished, with_player))
        .order_by(GameSession.started_at.desc(), GameSession.id.desc())), "started_at")


@functools.cache
def _listed_count(finished: bool, with_player: bool) -> sa.Select:
    """How many sessions _listed_where(finished, with_player) picks (the group
    keeps the count of all its finished sessions), built once."""
    return (sa.select(sa.func.count()).select_from(GameSession)
            .where(*_listed_where(finished, with_player)))


def finished_sessions(group: Group, number: int, player_id: int | None = None) -> Page:
    """Page ``number`` of the group's finished sessions, newest first, as
    SessionSummary items; only those where ``player_id`` sat, if given."""
    values = {"group_id": group.id, "player_id": player_id}
    if player_id is None:
        total = group.finished_sessions
    else:
        total = db.session.scalar(_listed_count(True, True), values)
    rows = db.session.execute(_listed_page(True, player_id is not None),
                              {**values, **page_params(number)})
    return Page(_summaries(rows), number, total)


def _with_seats(listed: sa.Select, newest: str) -> sa.Select:
    """The LISTED sessions of ``listed`` (ordered newest first by the column
    ``newest``, then id) each followed by its players in seat order: a row a
    seat, in one statement (plain rows: a list needs no Seat and Player objects)."""
    page = listed.subquery("page")
    return (sa.select(page, Player.id.label("player_id"), Player.name,
                      Seat.active, Seat.net_cents)
            .outerjoin(Seat, Seat.session_id == page.c.id)
            .outerjoin(Player, Player.id == Seat.player_id)
            .order_by(page.c[newest].desc(), page.c.id.desc(), Seat.position))


def _summaries(rows: Iterable[sa.Row]) -> list[SessionSummary]:
    """SessionSummary of each session of these _with_seats rows."""
    sessions: list[tuple[sa.Row, list[Seated]]] = []
    for row in rows:
        if not sessions or sessions[-1][0].id != row.id:
            sessions.append((row, []))
        if row.player_id is not None:
            sessions[-1][1].append(Seated(row.player_id, row.name, row.active, row.net_cents))
    summaries = []
    for session, players in sessions:
        best = max((p.net_cents for p in players), default=0)
        winners = [p for p in players if best > 0 and p.net_cents == best]
        summaries.append(SessionSummary(session, players, winners, best))
    return summaries


ROUNDS_PER_PAGE = 20


def session_record(group: Group, session_id: int) -> GameSession | None:
    """The group's session with its seats and payments loaded (not its rounds), or None."""
    return db.session.scalar(
        sa.select(GameSession)
        .where(GameSession.id == session_id, GameSession.group_id == group.id).options(
            selectinload(GameSession.seats).joinedload(Seat.player),
            selectinload(GameSession.payments)))


def session_rounds(session_id: int, number: int) -> Page:
    """Page ``number`` of a session's rounds, in order, with dealers and entries loaded."""
    total = db.session.execute(
        sa.select(sa.func.count()).where(Round.session_id == session_id)).scalar_one()
    rounds = list(db.session.scalars(
        paged(sa.select(Round).where(Round.session_id == session_id).order_by(Round.number))
        .options(joinedload(Round.dealer),
                 selectinload(Round.entries).joinedload(RoundEntry.player)),
        page_params(number, ROUNDS_PER_PAGE)))
    return Page(rounds, number, total, ROUNDS_PER_PAGE)


@dataclass(frozen=True)
class Money:
    """A player's money over the sessions played in one currency."""

    currency: str
    sessions: int
    won_cents: int  # sum of the winning session balances
    lost_cents: int  # sum of the losing session balances (zero or less)

    @property
    def net_cents(self) -> int:
        return self.won_cents + self.lost_cents


def ratio(total: int, count: int, places: str) -> Decimal | None:
    """``total`` / ``count`` to ``places`` ("0.1"), halves away from zero;
    None of nothing."""
    if not count:
        return None
    return (Decimal(total) / count).quantize(Decimal(places), ROUND_HALF_UP)


@dataclass(frozen=True)
class PlayerRecord:
    rounds: int
    wins: int  # rounds finished in first place, ties included
    hu: int
    tien_hu: int
    counted_rounds: int  # rounds whose points count for the average
    counted_points: int
    money: list[Money]  # by currency

    @property
    def sessions(self) -> int:
        return sum(m.sessions for m in self.money)

    @property
    def average_points(self) -> Decimal | None:
        """Points left in hand per counted round, to one decimal."""
        return ratio(self.counted_points, self.counted_rounds, "0.1")


@dataclass(frozen=True)
class PlayedSession:
    session: GameSession
    rounds: int  # rounds this player played in it
    balance_cents: int


def player_record(player: Player) -> PlayerRecord:
    """Counts over every round the player played and money over every session
    they sat at, summed from their seats in one pass. A Hu or Tien Hu scores 0
    points; rounds that someone else won with a Tien Hu don't count for the
    average (the others' cards need not be entered then)."""
    counts = ("rounds_played", "wins", "hu", "tien_hu", "counted_rounds", "counted_points")
    rows = db.session.execute(
        sa.select(GameSession.currency, sa.func.count().label("sessions"),
                  sa.func.sum(sa.case((Seat.net_cents > 0, Seat.net_cents), else_=0))
                  .label("won"),
                  sa.func.sum(sa.case((Seat.net_cents < 0, Seat.net_cents), else_=0))
                  .label("lost"),
                  *(sa.func.sum(getattr(Seat, name)).label(name) for name in counts))
        .join(GameSession, GameSession.id == Seat.session_id)
        .where(Seat.player_id == player.id)
        .group_by(GameSession.currency)
        .order_by(sa.func.count().desc(), GameSession.currency)).all()
    money = [Money(row.currency, int(row.sessions), int(row.won), int(row.lost)) for row in rows]
    total = {name: sum(int(getattr(row, name)) for row in rows) for name in counts}
    return PlayerRecord(total["rounds_played"], total["wins"], total["hu"], total["tien_hu"],
                        total["counted_rounds"], total["counted_points"], money)


def played_sessions(player: Player, number: int, total: int) -> Page:
    """Page ``number`` of the sessions the player sat at, newest first, as
    PlayedSession items; ``total`` is how many there are (PlayerRecord.sessions)."""
    rows = db.session.execute(paged(
        sa.select(GameSession, Seat.rounds_played, Seat.net_cents)
        .join(Seat, Seat.session_id == GameSession.id)
        # The group's sessions newest first, each looked up in the player's seats:
        # a page is read without sorting every session the player sat at.
        .where(GameSession.group_id == player.group_id, Seat.player_id == player.id)
        .order_by(GameSession.started_at.desc(), GameSession.id.desc())), page_params(number)
    ).all()
    return Page([PlayedSession(s, rounds, cents) for s, rounds, cents in rows], number, total)


def recently_finished(group: Group, limit: int) -> list[SessionSummary]:
    """The group's last ``limit`` sessions that ended, the latest first."""
    return _summaries(db.session.execute(_with_seats(
        sa.select(*LISTED)
        .where(GameSession.group_id == group.id, GameSession.ended_at.is_not(None))
        .order_by(GameSession.ended_at.desc(), GameSession.id.desc())
        .limit(limit), "ended_at")))


def open_sessions(group: Group, number: int, per_page: int = PER_PAGE) -> Page:
    """Page ``number`` of the group's sessions still being played, the latest
    started first, as SessionSummary items. A group usually has one or two:
    they are counted only when they fill the page."""
    values = {"group_id": group.id, **page_params(number, per_page)}
    items = _summaries(db.session.execute(_listed_page(False, False), values))
    if number == 1 and len(items) < per_page:
        total = len(items)
    else:
        total = db.session.scalar(_listed_count(False, False), values)
    return Page(items, number, total, per_page)
