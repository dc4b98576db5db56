"""What the session and round pages show: the scoreboard, a round, the
sessions in play, the group's players and recent changes."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import aliased, joinedload, selectinload

from ..extensions import db
from ..models import (
    AuditEvent,
    GameSession,
    Group,
    Invite,
    Player,
    Round,
    RoundEntry,
    Seat,
    ShareLink,
    SignIn,
    utcnow,
)
from .history import ROUNDS_PER_PAGE
from .paging import page_count
from .turns import LastRound, Upcoming, coming_after


def group_of_sign_in(group_id: int, token_hash: str) -> Group | None:
    """The group a phone's sign-in opens (the sign-in named by the hash of
    its cookie's token), if that sign-in has not ended."""
    return db.session.scalar(
        sa.select(Group).join(SignIn, SignIn.group_id == Group.id)
        .where(SignIn.token_hash == token_hash, Group.id == group_id))


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
    hu: int = 0
    tien_hu: int = 0


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
    leaders: frozenset[int]  # who is first (several when tied), once a round is played

    @property
    def amounts(self) -> list[int]:
        """Every amount the scoreboard shows (totals and rounds), in cents."""
        return ([s.cents for s in self.standings]
                + [cell.net_cents for row in self.rows for cell in row.cells if cell])

    @property
    def latest_page(self) -> int:
        """The page of session_rounds that holds the latest round."""
        return page_count(self.rounds, ROUNDS_PER_PAGE)


def standings(session: GameSession) -> list[Standing]:
    """Totals from the session's seats: seated players clockwise, then those
    who left."""
    return [Standing(seat.player, seat.active, seat.points, seat.net_cents, seat.hu, seat.tien_hu)
            for seat in sorted(session.seats, key=lambda seat: not seat.active)]


@dataclass(frozen=True)
class Place:
    """A player's place at the session."""

    standing: Standing
    place: int  # competition ranking: 1, 1, 3
    tied: bool
    by_points: bool  # ranked by points (a points-only session), else by money

    @property
    def ordinal(self) -> str:
        """ "1st", "2nd", "11th", "joint 2nd". """
        n = self.place
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{'joint ' if self.tied else ''}{n}{suffix}"


def by_points(session: GameSession) -> bool:
    """Whether the session's places go by points (it is played for points
    only), else by money."""
    return session.rules.scheme == "none"


def places(standings: Sequence[Standing], by_points: bool = False) -> list[Place]:
    """Everyone's place, best first: most money first, or fewest points first
    when the session is played for points only; ties share a place."""
    def score(standing: Standing) -> int:
        return standing.points if by_points else -standing.cents

    scores = [score(s) for s in standings]
    ranked = [Place(s, sum(other < mine for other in scores) + 1, scores.count(mine) > 1, by_points)
              for s, mine in zip(standings, scores, strict=True)]
    return sorted(ranked, key=lambda place: place.place)


@functools.cache
def _board_entries() -> sa.Select:
    """The entries of the latest BOARD_ROUNDS rounds of the session
    ``session_id``, as plain rows (no objects to build for a table); a
    statement built once, as are the others that every page of a session runs."""
    session_id = sa.bindparam("session_id", type_=sa.Integer)
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
    leaders = frozenset(place.standing.player.id
                        for place in places(table, by_points(session))
                        if place.place == 1) if last else frozenset()
    return Scoreboard(table, list(rows.values()), last, coming, leaders)


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


def open_invites(group: Group) -> list[Invite]:
    """The group's invite links that still sign phones in, the newest first."""
    return list(db.session.scalars(
        sa.select(Invite).where(Invite.group_id == group.id, Invite.revoked_at.is_(None),
                                Invite.used < Invite.phones, Invite.expires_at > utcnow())
        .order_by(Invite.id.desc())))


GROUP_EVENTS = 20


def group_events(group: Group) -> list[AuditEvent]:
    """The group's latest changes that belong to no session: players added or
    renamed, passphrase changes, imports."""
    return list(db.session.scalars(
        sa.select(AuditEvent)
        .where(AuditEvent.group_id == group.id, AuditEvent.session_id.is_(None))
        .order_by(AuditEvent.at.desc(), AuditEvent.id.desc())
        .limit(GROUP_EVENTS)))
