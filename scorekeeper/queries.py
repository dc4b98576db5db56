"""Read-only queries for the pages; nothing here writes or commits.

The database does the counting and summing (GROUP BY), and each function runs
a fixed number of statements however many sessions and rounds there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import sqlalchemy as sa
from sqlalchemy.orm import aliased, joinedload, selectinload

from .extensions import db
from .models import (
    AuditEvent,
    GameSession,
    Group,
    Player,
    Round,
    RoundEntry,
    Seat,
    ShareLink,
)
from .services import Upcoming, balances, upcoming

PER_PAGE = 10


@dataclass(frozen=True)
class Page:
    """One page of a list, ``number`` counted from 1."""

    items: list
    number: int
    total: int
    per_page: int = PER_PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def exists(self) -> bool:
        return 1 <= self.number <= self.pages

    @property
    def has_prev(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages


def _offset(number: int) -> int:
    return (max(number, 1) - 1) * PER_PAGE


# The history list


@dataclass(frozen=True)
class SessionSummary:
    session: GameSession
    players: list[Player]  # seat order, players who left included
    rounds: int
    winners: list[Player]  # the highest balance, several when tied; empty if nobody won money
    winner_cents: int


def players_on_record(group: Group) -> list[Player]:
    """Everyone in the group who has sat at a table, by name."""
    seated = sa.select(Seat.id).where(Seat.player_id == Player.id).exists()
    return list(db.session.scalars(
        sa.select(Player).where(Player.group_id == group.id, seated)
        .order_by(sa.func.lower(Player.name), Player.id)))


def finished_sessions(group: Group, number: int, player_id: int | None = None) -> Page:
    """Page ``number`` of the group's finished sessions, newest first, as
    SessionSummary items; only those where ``player_id`` sat, if given."""
    where = [GameSession.group_id == group.id, GameSession.ended_at.is_not(None)]
    if player_id is not None:
        where.append(sa.select(Seat.id).where(
            Seat.session_id == GameSession.id, Seat.player_id == player_id).exists())
    total = db.session.scalar(sa.select(sa.func.count(GameSession.id)).where(*where))
    sessions = list(db.session.scalars(
        sa.select(GameSession).where(*where)
        .order_by(GameSession.started_at.desc(), GameSession.id.desc())
        .limit(PER_PAGE).offset(_offset(number))
        .options(selectinload(GameSession.seats).joinedload(Seat.player))))
    return Page(_summaries(sessions), number, total)


def _summaries(sessions: list[GameSession]) -> list[SessionSummary]:
    if not sessions:
        return []
    ids = [s.id for s in sessions]
    rounds = dict(db.session.execute(
        sa.select(Round.session_id, sa.func.count(Round.id))
        .where(Round.session_id.in_(ids)).group_by(Round.session_id)).all())
    balances: dict[int, dict[int, int]] = {}
    for session_id, player_id, cents in db.session.execute(
            sa.select(Round.session_id, RoundEntry.player_id, sa.func.sum(RoundEntry.net_cents))
            .join(Round).where(Round.session_id.in_(ids))
            .group_by(Round.session_id, RoundEntry.player_id)):
        balances.setdefault(session_id, {})[player_id] = int(cents)
    summaries = []
    for session in sessions:
        players = [seat.player for seat in session.seats]
        cents = balances.get(session.id, {})
        best = max(cents.values(), default=0)
        winners = [p for p in players if best > 0 and cents.get(p.id) == best]
        summaries.append(SessionSummary(
            session, players, int(rounds.get(session.id, 0)), winners, best))
    return summaries


# One session

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
    total = db.session.scalar(
        sa.select(sa.func.count(Round.id)).where(Round.session_id == session_id))
    rounds = list(db.session.scalars(
        sa.select(Round).where(Round.session_id == session_id).order_by(Round.number)
        .limit(ROUNDS_PER_PAGE).offset((max(number, 1) - 1) * ROUNDS_PER_PAGE)
        .options(joinedload(Round.dealer),
                 selectinload(Round.entries).joinedload(RoundEntry.player))))
    return Page(rounds, number, total, ROUNDS_PER_PAGE)


# A player's record


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
        if not self.counted_rounds:
            return None
        return (Decimal(self.counted_points) / self.counted_rounds).quantize(
            Decimal("0.1"), ROUND_HALF_UP)


@dataclass(frozen=True)
class PlayedSession:
    session: GameSession
    rounds: int  # rounds this player played in it
    balance_cents: int


def _count_if(condition) -> sa.ColumnElement[int]:
    return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)


def player_record(player_id: int) -> PlayerRecord:
    """Counts over every round the player played and money over every session
    they sat at. A Hu or Tien Hu scores 0 points; rounds that someone else won
    with a Tien Hu don't count for the average (the others' cards need not be
    entered then)."""
    entry = RoundEntry
    tien_hu = aliased(RoundEntry)
    by_other_tien_hu = sa.and_(tien_hu.id.is_not(None), tien_hu.player_id != entry.player_id)
    counted = sa.not_(by_other_tien_hu)
    row = db.session.execute(
        sa.select(
            sa.func.count(entry.id),
            _count_if(entry.position == 1),
            _count_if(entry.outcome == "hu"),
            _count_if(entry.outcome == "tien_hu"),
            _count_if(counted),
            sa.func.coalesce(sa.func.sum(sa.case((counted, entry.points), else_=0)), 0),
        )
        .select_from(entry)
        .outerjoin(tien_hu, sa.and_(tien_hu.round_id == entry.round_id,
                                    tien_hu.outcome == "tien_hu"))
        .where(entry.player_id == player_id)
    ).one()
    balance = _session_balances(player_id).subquery()
    money = [
        Money(currency, int(sessions), int(won), int(lost))
        for currency, sessions, won, lost in db.session.execute(
            sa.select(
                GameSession.currency,
                sa.func.count(balance.c.session_id),
                sa.func.sum(sa.case((balance.c.cents > 0, balance.c.cents), else_=0)),
                sa.func.sum(sa.case((balance.c.cents < 0, balance.c.cents), else_=0)),
            )
            .join(balance, balance.c.session_id == GameSession.id)
            .group_by(GameSession.currency)
            .order_by(sa.func.count(balance.c.session_id).desc(), GameSession.currency))
    ]
    return PlayerRecord(*(int(value) for value in row), money=money)


def _session_balances(player_id: int) -> sa.Select:
    """session_id, rounds played and balance (cents) for each session the player sat at."""
    return (
        sa.select(
            Seat.session_id.label("session_id"),
            sa.func.count(RoundEntry.id).label("rounds"),
            sa.func.coalesce(sa.func.sum(RoundEntry.net_cents), 0).label("cents"),
        )
        .outerjoin(Round, Round.session_id == Seat.session_id)
        .outerjoin(RoundEntry, sa.and_(RoundEntry.round_id == Round.id,
                                       RoundEntry.player_id == Seat.player_id))
        .where(Seat.player_id == player_id)
        .group_by(Seat.session_id)
    )


def played_sessions(player_id: int, number: int, total: int) -> Page:
    """Page ``number`` of the sessions the player sat at, newest first, as
    PlayedSession items; ``total`` is how many there are (PlayerRecord.sessions)."""
    balance = _session_balances(player_id).subquery()
    rows = db.session.execute(
        sa.select(GameSession, balance.c.rounds, balance.c.cents)
        .join(balance, balance.c.session_id == GameSession.id)
        .order_by(GameSession.started_at.desc(), GameSession.id.desc())
        .limit(PER_PAGE).offset(_offset(number))
    ).all()
    return Page([PlayedSession(s, int(rounds), int(cents)) for s, rounds, cents in rows],
                number, total)


# What the session and round pages show


def known_players(group: Group) -> list[Player]:
    """Everyone in the group, who played most recently first."""
    last_played = sa.func.max(GameSession.started_at)
    return list(db.session.scalars(
        sa.select(Player)
        .where(Player.group_id == group.id)
        .outerjoin(Seat, Seat.player_id == Player.id)
        .outerjoin(GameSession, GameSession.id == Seat.session_id)
        .group_by(Player.id)
        .order_by(last_played.desc().nulls_last(), Player.created_at.desc(), Player.id.desc())
    ))


def _sessions(query) -> list[SessionSummary]:
    return _summaries(list(db.session.scalars(
        query.options(selectinload(GameSession.seats).joinedload(Seat.player)))))


def open_sessions(group: Group) -> list[SessionSummary]:
    """The group's sessions still being played, the latest first."""
    return _sessions(sa.select(GameSession)
                     .where(GameSession.group_id == group.id, GameSession.ended_at.is_(None))
                     .order_by(GameSession.started_at.desc(), GameSession.id.desc()))


def recently_finished(group: Group, limit: int) -> list[SessionSummary]:
    """The group's last ``limit`` sessions that ended, the latest first."""
    return _sessions(sa.select(GameSession)
                     .where(GameSession.group_id == group.id, GameSession.ended_at.is_not(None))
                     .order_by(GameSession.ended_at.desc(), GameSession.id.desc())
                     .limit(limit))


def load_board(session: GameSession) -> GameSession:
    """The session with its seats, rounds and entries loaded, in a fixed
    number of statements however many rounds it has."""
    return db.session.scalars(
        sa.select(GameSession).where(GameSession.id == session.id)
        .options(joinedload(GameSession.group),
                 selectinload(GameSession.seats).selectinload(Seat.player),
                 selectinload(GameSession.rounds).selectinload(Round.entries)
                 .selectinload(RoundEntry.player))
        .execution_options(populate_existing=True)
    ).one()


@dataclass(frozen=True)
class Standing:
    player: Player
    seated: bool
    points: int  # sum of the player's round points
    cents: int   # money over the session


@dataclass(frozen=True)
class Scoreboard:
    standings: list[Standing]  # seated players clockwise, then those who left
    rows: list[tuple[Round, dict[int, RoundEntry]]]  # each round's entries by player id
    upcoming: Upcoming | None  # None once the session has ended


def scoreboard(session: GameSession) -> Scoreboard:
    """Running totals and the rounds so far, from a session loaded by load_board."""
    money = balances(session)
    points = {seat.player_id: 0 for seat in session.seats}
    rows = []
    for round_ in session.rounds:
        for entry in round_.entries:
            points[entry.player_id] += entry.points
        rows.append((round_, {e.player_id: e for e in round_.entries}))
    standings = [Standing(seat.player, seat.active, points[seat.player_id], money[seat.player_id])
                 for seat in sorted(session.seats, key=lambda seat: not seat.active)]
    coming = None if session.is_finished else upcoming(session)
    return Scoreboard(standings, rows, coming)


def load_round_pages(session: GameSession, number: int | None = None) -> Round | None:
    """What the round pages read, in a fixed number of statements however many
    rounds the session has: its seats and players, its rounds, and round
    ``number`` (None: the latest) with its entries; None if there is no such round."""
    session = db.session.scalars(
        sa.select(GameSession).where(GameSession.id == session.id)
        .options(selectinload(GameSession.seats).selectinload(Seat.player),
                 selectinload(GameSession.rounds))
        .execution_options(populate_existing=True)
    ).one()
    if number is None:
        number = len(session.rounds)
    return db.session.scalars(
        sa.select(Round).where(Round.session_id == session.id, Round.number == number)
        .options(selectinload(Round.entries))
    ).one_or_none()


def share_links(session: GameSession) -> list[ShareLink]:
    """The session's links: those that still work first, the newest first."""
    return list(db.session.scalars(
        sa.select(ShareLink).where(ShareLink.session_id == session.id)
        .order_by(ShareLink.revoked_at.is_not(None), ShareLink.id.desc())))


# The group page

GROUP_EVENTS = 20


def group_events(group: Group) -> list[AuditEvent]:
    """The group's latest changes that belong to no session: players added or
    renamed, passphrase changes, imports."""
    return list(db.session.scalars(
        sa.select(AuditEvent)
        .where(AuditEvent.group_id == group.id, AuditEvent.session_id.is_(None))
        .order_by(AuditEvent.at.desc(), AuditEvent.id.desc())
        .limit(GROUP_EVENTS)))


def session_version(session: GameSession) -> int:
    """The session's version as committed now, whatever this request read before."""
    return db.session.scalar(sa.select(GameSession.version).where(GameSession.id == session.id))
