"""What the group's players still owe each other: every session's transfers
against the payments marked since (rules/ledger.py), in each currency the
group plays in. Three statements, reading only the sessions not settled by
their own payments (GameSession.settled), whatever the years of history."""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

import sqlalchemy as sa

from ..extensions import db
from ..models import GameSession, Payment, Player, Seat
from ..rules import Transfer, settle
from ..rules.ledger import Debt, Paid, ledger


class SessionRef(NamedTuple):
    """The session a transfer settles, as the pages name it."""

    id: int
    started_at: datetime
    finished: bool


class PaymentRow(NamedTuple):
    """A payment as the group's money reads it (a row, not a loaded Payment:
    a group with years of payments open reads thousands)."""

    id: int
    session_id: int | None
    payer_id: int
    payee_id: int
    cents: int
    currency: str
    paid_at: datetime

    @classmethod
    def of(cls, payment: Payment) -> PaymentRow:
        return cls(*(getattr(payment, name) for name in cls._fields))


class Owed(NamedTuple):
    """One of a session's transfers as it stands: ``paid`` for it, in whole
    or in part, and ``cleared`` by payments across sessions or by debts that
    cancel out (rules/ledger.py); ``payments``, those marked for it."""

    session: SessionRef
    payer: Player
    payee: Player
    cents: int
    paid: int
    cleared: int
    payments: tuple[PaymentRow, ...]

    @property
    def left(self) -> int:
        return self.cents - self.paid - self.cleared


@dataclass(frozen=True)
class Across:
    """A payment across sessions, and what of it clears nothing yet."""

    payment: PaymentRow
    payer: Player
    payee: Player
    unused: int


@dataclass(frozen=True)
class Debts:
    """A group's money in one currency: each session's transfers (oldest
    session first), each player's net (positive: is owed), "Settle
    everything" (the fewest transfers that clear every open debt at once),
    and the payments across sessions."""

    currency: str
    transfers: list[Owed]
    nets: dict[Player, int]
    plan: list[Transfer[Player]]
    across: list[Across]

    def open(self) -> list[Owed]:
        return [owed for owed in self.transfers if owed.left]

    def of_session(self, session_id: int) -> list[Owed]:
        return [owed for owed in self.transfers if owed.session.id == session_id]


def group_debts(group_id: int, currency: str | None = None) -> list[Debts]:
    """The group's debts in each currency (only ``currency``'s, if given),
    the currency owed most first."""
    seats = (sa.select(Seat.session_id, Seat.player_id, Seat.net_cents, GameSession.started_at,
                       GameSession.ended_at, GameSession.currency)
             .join(GameSession, GameSession.id == Seat.session_id)
             .where(GameSession.group_id == group_id, ~GameSession.settled, Seat.net_cents != 0))
    payments = (sa.select(*(getattr(Payment, name) for name in PaymentRow._fields))
                .where(Payment.group_id == group_id, _not_settled(group_id)).order_by(Payment.id))
    if currency is not None:
        seats = seats.where(GameSession.currency == currency)
        payments = payments.where(Payment.currency == currency)
    refs: dict[int, tuple[str, SessionRef]] = {}
    balances: dict[int, dict[int, int]] = defaultdict(dict)
    for row in db.session.execute(seats):
        refs.setdefault(row.session_id, (row.currency, SessionRef(
            row.session_id, row.started_at, row.ended_at is not None)))
        balances[row.session_id][row.player_id] = row.net_cents
    players = {p.id: p for p in db.session.scalars(
        sa.select(Player).where(Player.group_id == group_id))}
    paid = [PaymentRow(*row) for row in db.session.execute(payments)]
    order = sorted(balances, key=lambda sid: (refs[sid][1].started_at, sid))
    currencies = {refs[sid][0] for sid in order} | {p.currency for p in paid}
    result = [_debts(c, [(refs[sid][1], balances[sid]) for sid in order if refs[sid][0] == c],
                     [p for p in paid if p.currency == c], players)
              for c in currencies]
    return sorted(result, key=lambda d: (-sum(c for c in d.nets.values() if c > 0),
                                         d.currency))


def _debts(currency: str, sessions: list[tuple[SessionRef, dict[int, int]]],
           payments: list[PaymentRow], players: dict[int, Player]) -> Debts:
    owing = [(ref, t) for ref, balance in sessions
             for t in session_transfers(tuple(sorted(balance.items())))]
    debts = [Debt(ref.id, t.payer, t.payee, t.cents) for ref, t in owing]
    book = ledger(debts, [Paid(p.payer_id, p.payee_id, p.cents, p.session_id)
                          for p in payments])
    for_transfer: dict[tuple[int, int, int], list[PaymentRow]] = defaultdict(list)
    for p in payments:
        if p.session_id is not None:
            for_transfer[p.session_id, p.payer_id, p.payee_id].append(p)
    transfers = [Owed(ref, players[t.payer], players[t.payee], t.cents,
                      book.paid[i], book.cleared[i],
                      tuple(for_transfer[ref.id, t.payer, t.payee]))
                 for i, (ref, t) in enumerate(owing)]
    nets = {players[pid]: cents for pid, cents in book.nets.items()}
    plan = [Transfer(players[t.payer], players[t.payee], t.cents) for t in settle(book.nets)]
    across = [Across(p, players[p.payer_id], players[p.payee_id], book.unused[k])
              for k, p in enumerate(payments) if p.session_id is None]
    return Debts(currency, transfers, nets, plan, across)


@dataclass(frozen=True)
class StillOwed:
    """What is still owed in the group in one currency, all sessions
    together: in all, and by or to one player (``mine``: positive, owed to
    them; None: nobody's phone, or nothing owed by or to them)."""

    currency: str
    total: int
    mine: int | None


def still_owed(group_id: int, player_id: int | None) -> list[StillOwed]:
    """What is still owed in each currency the group owes in (group_nets)."""
    return [StillOwed(currency, sum(c for c in nets.values() if c > 0),
                      nets.get(player_id) if player_id else None)
            for currency, nets in sorted(group_nets(group_id).items())]


def group_nets(group_id: int) -> dict[str, dict[int, int]]:
    """Each player's net in each currency (positive: is owed), by player id:
    every session's balance with what was paid since (rules/ledger.py's nets
    are these). Two statements, summed by the database."""
    nets: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for currency, player_id, cents in db.session.execute(
            sa.select(GameSession.currency, Seat.player_id, sa.func.sum(Seat.net_cents))
            .join(GameSession, GameSession.id == Seat.session_id)
            .where(GameSession.group_id == group_id, ~GameSession.settled)
            .group_by(GameSession.currency, Seat.player_id)):
        nets[currency][player_id] += cents
    for currency, payer_id, payee_id, cents in db.session.execute(
            sa.select(Payment.currency, Payment.payer_id, Payment.payee_id,
                      sa.func.sum(Payment.cents))
            .where(Payment.group_id == group_id, _not_settled(group_id))
            .group_by(Payment.currency, Payment.payer_id, Payment.payee_id)):
        nets[currency][payer_id] += cents
        nets[currency][payee_id] -= cents
    return {currency: {pid: cents for pid, cents in by_player.items() if cents}
            for currency, by_player in nets.items()
            if any(by_player.values())}


@functools.lru_cache(maxsize=100_000)
def session_transfers(balances: tuple[tuple[int, int], ...]) -> tuple[Transfer[int], ...]:
    """A session's transfers for its balances (player id, cents), kept: the
    same balances always settle the same way (rules.settle), and the
    sessions still open are read again on every page of the group's money
    (and two players' shared sessions on their head to head, queries.records)."""
    return tuple(settle(dict(balances)))


def _not_settled(group_id: int) -> sa.ColumnElement[bool]:
    """A payment across sessions, or of a session not settled by its own
    payments (GameSession.settled: those sum to nothing for each player);
    found by the indexes on both, not by reading every payment."""
    return sa.or_(Payment.session_id.is_(None), Payment.session_id.in_(
        sa.select(GameSession.id).where(GameSession.group_id == group_id,
                                        ~GameSession.settled)))
