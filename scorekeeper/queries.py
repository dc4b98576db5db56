"""Read-only queries for the pages; nothing here writes or commits.

The database does the counting and summing (GROUP BY), and each function runs
a fixed number of statements however many sessions and rounds there are. A
player's totals per session are read from their seat (the services keep them),
not summed from every round.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, NamedTuple

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
    SignIn,
)
from .services import LastRound, Upcoming, coming_after


def signed_in_group(group_id: int, sign_in_id: int) -> Group | None:
    """The group a phone's sign-in opens, if that sign-in has not ended."""
    return db.session.scalar(
        sa.select(Group).join(SignIn, SignIn.group_id == Group.id)
        .where(SignIn.id == sign_in_id, Group.id == group_id))

PER_PAGE = 10


def page_count(total: int, per_page: int) -> int:
    """How many pages ``total`` items fill, ``per_page`` a page; an empty list has one."""
    return max(1, -(-total // per_page))


@dataclass(frozen=True)
class Page:
    """One page of a list, ``number`` counted from 1."""

    items: list
    number: int
    total: int
    per_page: int = PER_PAGE

    @property
    def pages(self) -> int:
        return page_count(self.total, self.per_page)

    @property
    def exists(self) -> bool:
        return 1 <= self.number <= self.pages

    @property
    def has_prev(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages


def paged(query: sa.Select) -> sa.Select:
    """``query`` cut to one page, whose bounds page_params gives when it runs.
    They go into the statement's text rather than in as parameters: PostgreSQL
    plans a prepared statement whose LIMIT is a parameter afresh at every run
    (0.3 ms a page here), and one without once per connection."""
    return (query.limit(sa.bindparam("page_limit", type_=sa.Integer, literal_execute=True))
            .offset(sa.bindparam("page_offset", type_=sa.Integer, literal_execute=True)))


def page_params(number: int, per_page: int = PER_PAGE) -> dict[str, int]:
    """The bounds of page ``number`` of a paged() statement."""
    return {"page_limit": per_page, "page_offset": (max(number, 1) - 1) * per_page}


# The history list


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
    return db.session.execute(_players_on_record(), {"group_id": group.id}).all()


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
        sa.select(sa.func.count()).where(Round.session_id == session_id))
    rounds = list(db.session.scalars(
        paged(sa.select(Round).where(Round.session_id == session_id).order_by(Round.number))
        .options(joinedload(Round.dealer),
                 selectinload(Round.entries).joinedload(RoundEntry.player)),
        page_params(number, ROUNDS_PER_PAGE)))
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
    return PlayerRecord(*(sum(int(getattr(row, name)) for row in rows) for name in counts),
                        money=money)


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


# What the session and round pages show


def known_players(group: Group) -> list[Player]:
    """Everyone in the group, who sat at the latest session first (a lookup
    in the seat index per player, not a read of every seat)."""
    last_session = (sa.select(sa.func.max(Seat.session_id))
                    .where(Seat.player_id == Player.id).scalar_subquery())
    return list(db.session.scalars(
        sa.select(Player)
        .where(Player.group_id == group.id)
        .order_by(last_session.desc().nulls_last(), Player.created_at.desc(), Player.id.desc())
    ))


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


def recently_finished(group: Group, limit: int) -> list[SessionSummary]:
    """The group's last ``limit`` sessions that ended, the latest first."""
    return _summaries(db.session.execute(_with_seats(
        sa.select(*LISTED)
        .where(GameSession.group_id == group.id, GameSession.ended_at.is_not(None))
        .order_by(GameSession.ended_at.desc(), GameSession.id.desc())
        .limit(limit), "ended_at")))


def load_board(session: GameSession) -> GameSession:
    """The session read afresh with its group, seats (their totals) and players,
    and none of its rounds."""
    return db.session.scalars(
        sa.select(GameSession).where(GameSession.id == session.id)
        .options(joinedload(GameSession.group),
                 selectinload(GameSession.seats).joinedload(Seat.player))
        .execution_options(populate_existing=True)
    ).one()


@dataclass(frozen=True)
class Standing:
    player: Player
    seated: bool
    points: int  # sum of the player's round points
    cents: int   # money over the session


BOARD_ROUNDS = 20  # the latest rounds a scoreboard shows; all of them are in history


@dataclass(frozen=True)
class BoardRow:
    """A round on the scoreboard: in the order of the standings, each player's
    entry (a row with outcome, points, position and net_cents), None for a
    player who was not at the table."""

    number: int
    cells: list[sa.Row | None]


@dataclass(frozen=True)
class Scoreboard:
    standings: list[Standing]  # seated players clockwise, then those who left
    rows: list[BoardRow]  # the latest rounds, in order
    rounds: int  # how many rounds the session has
    upcoming: Upcoming | None  # None once the session has ended

    @property
    def latest_page(self) -> int:
        """The page of session_rounds that holds the latest round."""
        return page_count(self.rounds, ROUNDS_PER_PAGE)


def standings(session: GameSession) -> list[Standing]:
    """Totals from the session's seats: seated players clockwise, then those
    who left."""
    return [Standing(seat.player, seat.active, seat.points, seat.net_cents)
            for seat in sorted(session.seats, key=lambda seat: not seat.active)]


@functools.cache
def _board_entries() -> sa.Select:
    """The entries of the latest BOARD_ROUNDS rounds of the session
    ``session_id``, as plain rows (no objects to build for a table); a
    statement built once, as are the others that every page of a session runs."""
    session_id = sa.bindparam("session_id")
    last = sa.select(sa.func.max(Round.number)).where(Round.session_id == session_id)
    return (sa.select(Round.number, Round.dealer_id, RoundEntry.player_id, RoundEntry.outcome,
                      RoundEntry.points, RoundEntry.position, RoundEntry.net_cents)
            .join(RoundEntry.round)
            .where(Round.session_id == session_id,
                   Round.number > last.scalar_subquery() - BOARD_ROUNDS)
            .order_by(Round.number, RoundEntry.turn))


def scoreboard(session: GameSession) -> Scoreboard:
    """Totals, the latest BOARD_ROUNDS rounds in order and who deals next (from
    the same rows: the last round's entries come in playing order)."""
    table = standings(session)
    column = {standing.player.id: i for i, standing in enumerate(table)}
    rows: dict[int, BoardRow] = {}
    entries = db.session.execute(_board_entries(), {"session_id": session.id}).all()
    for entry in entries:
        row = rows.get(entry.number)
        if row is None:
            row = rows[entry.number] = BoardRow(entry.number, [None] * len(table))
        row.cells[column[entry.player_id]] = entry
    last = max(rows, default=0)
    coming = None if session.is_finished else coming_after(
        session, LastRound.of([entry for entry in entries if entry.number == last]))
    return Scoreboard(table, list(rows.values()), last, coming)


@functools.cache
def _round_with_entries() -> sa.Select:
    return (sa.select(Round)
            .where(Round.session_id == sa.bindparam("session_id"),
                   Round.number == sa.bindparam("number"))
            .options(joinedload(Round.entries).joinedload(RoundEntry.player)))


def load_round(session: GameSession, number: int) -> Round | None:
    """Round ``number`` of the session with its entries and their players (one
    statement); None if there is no such round."""
    return db.session.scalars(
        _round_with_entries(), {"session_id": session.id, "number": number}
    ).unique().one_or_none()


@dataclass(frozen=True)
class RoundPage:
    round: Round  # with its entries and their players
    count: int  # the session's rounds, numbered 1 to count
    next_dealer: Player | None  # who dealt the round after it; None after the last


@functools.cache
def _round_page() -> sa.Select:
    other = aliased(Round)
    count = (sa.select(sa.func.max(other.number)).where(other.session_id == Round.session_id)
             .scalar_subquery())
    next_dealer = (sa.select(other.dealer_id)
                   .where(other.session_id == Round.session_id, other.number == Round.number + 1)
                   .scalar_subquery())
    return _round_with_entries().add_columns(count, next_dealer)


def round_page(session: GameSession, number: int) -> RoundPage | None:
    """What a round's page shows beyond the session, in one statement; None
    if there is no such round."""
    row = db.session.execute(
        _round_page(), {"session_id": session.id, "number": number}).unique().one_or_none()
    if row is None:
        return None
    round_, count, next_dealer_id = row
    # The dealer is one of the session's players, loaded already: no statement.
    next_dealer = None if next_dealer_id is None else db.session.get(Player, next_dealer_id)
    return RoundPage(round_, count, next_dealer)


@functools.cache
def _round_count() -> sa.Select:
    return (sa.select(sa.func.coalesce(sa.func.max(Round.number), 0))
            .where(Round.session_id == sa.bindparam("session_id")))


def round_count(session: GameSession) -> int:
    """How many rounds the session has (they are numbered 1 to that)."""
    return db.session.scalar(_round_count(), {"session_id": session.id})


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
