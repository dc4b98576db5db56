"""Who deals the next round and the order of play, from the latest round
as stored (docs/RULES.md section 10)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import sqlalchemy as sa

from ..extensions import db
from ..models import GameSession, Player, Round, RoundEntry
from ..rules import Entry, next_dealer, playing_order


@dataclass(frozen=True)
class Upcoming:
    """Who deals the next round and the order of play; ``last`` is the round
    before it (None: the first)."""

    number: int
    dealer: Player
    order: list[Player]
    last: LastRound | None = None


def _pass_deal(session: GameSession, player: Player) -> Player:
    """``player`` if seated, else the next seated player in the dealing direction."""
    seats = session.seats  # all rows, clockwise; a player who left keeps a position
    start = next(i for i, seat in enumerate(seats) if seat.player is player)
    step = 1 if session.rules.direction == "clockwise" else -1
    for k in range(len(seats)):
        seat = seats[(start + step * k) % len(seats)]
        if seat.active:
            return seat.player
    raise LookupError("Nobody is seated")


@dataclass(frozen=True)
class LastRound:
    """The session's latest round as stored: what next_dealer reads of its score."""

    number: int
    dealer_id: int
    order: tuple[int, ...]  # player ids in playing order
    points: dict[int, int]
    position: dict[int, int]
    hands: dict[int, Entry] | None = None  # as stored, if read with them (last_round)

    @classmethod
    def of(cls, rows) -> LastRound | None:
        """From the round's entry rows (number, dealer_id, player_id, points,
        position) in playing order; None for no rows (no round yet)."""
        if not rows:
            return None
        return cls(rows[0].number, rows[0].dealer_id, tuple(r.player_id for r in rows),
                   {r.player_id: r.points for r in rows}, {r.player_id: r.position for r in rows})

    @classmethod
    def of_round(cls, round_: Round) -> LastRound:
        """From a loaded round, when it is the latest."""
        entries = sorted(round_.entries, key=lambda e: e.turn)
        return cls(round_.number, round_.dealer_id, tuple(e.player_id for e in entries),
                   {e.player_id: e.points for e in entries},
                   {e.player_id: e.position for e in entries})


@functools.cache
def _last_round_entries() -> sa.Select:
    """The entries of the session ``session_id``'s latest round, a statement
    built once (every page of a session runs it)."""
    session_id = sa.bindparam("session_id", type_=sa.Integer)
    latest = sa.select(sa.func.max(Round.number)).where(Round.session_id == session_id)
    return (sa.select(Round.number, Round.dealer_id, RoundEntry.player_id, RoundEntry.points,
                      RoundEntry.position, RoundEntry.outcome, RoundEntry.cards)
            .join(RoundEntry.round)
            .where(Round.session_id == session_id, Round.number == latest.scalar_subquery())
            .order_by(RoundEntry.turn))


def last_round(session: GameSession) -> LastRound | None:
    """The latest round's stored results and hands, read without loading the
    rounds before it nor scoring it again."""
    rows = db.session.execute(_last_round_entries(), {"session_id": session.id}).all()
    last = LastRound.of(rows)
    return last and replace(last, hands={r.player_id: Entry(r.outcome, r.cards) for r in rows})


@functools.cache
def _round_hands() -> sa.Select:
    return (sa.select(RoundEntry.player_id, RoundEntry.outcome, RoundEntry.cards)
            .join(RoundEntry.round)
            .where(Round.session_id == sa.bindparam("session_id", type_=sa.Integer),
                   Round.number == sa.bindparam("number", type_=sa.Integer)))


def round_hands(session: GameSession, number: int) -> dict[int, Entry]:
    """Round ``number``'s hands as stored, by player id; {} if there is no such round."""
    rows = db.session.execute(_round_hands(), {"session_id": session.id, "number": number})
    return {row.player_id: Entry(row.outcome, row.cards) for row in rows}


def upcoming(session: GameSession) -> Upcoming:
    return coming_after(session, last_round(session))


def coming_after(session: GameSession, last: LastRound | None) -> Upcoming:
    """Who deals and who plays when after ``last``, the session's latest round
    (None: before the first)."""
    rules = session.rules
    seated = [seat.player for seat in session.seats if seat.active]
    if last is None:
        dealer = _pass_deal(session, session.first_dealer)
    else:
        by_id = {seat.player_id: seat.player for seat in session.seats}
        dealer = by_id[next_dealer([p.id for p in seated], last.dealer_id, last, rules)]
    order = playing_order(seated, dealer, rules)
    return Upcoming((last.number if last else 0) + 1, dealer, order, last)
