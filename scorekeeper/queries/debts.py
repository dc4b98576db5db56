"""What the group's players still owe each other: every session's transfers
against the payments marked since (rules/ledger.py), in each currency the
group plays in. Worked out from the sessions not settled by their own
payments (GameSession.settled), whatever the years of history, and kept by
each app server under the group's ledger stamp (Group.ledger_stamp), which
every change to a session or a payment makes anew: a page of the group's
money reads its players alone until the money changes."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import NamedTuple

import sqlalchemy as sa

from ..extensions import db
from ..models import GameSession, Group, Payment, Player, Seat
from ..rules import Transfer, settle
from ..rules.ledger import Debt, Paid, ledger

# The groups whose money each app server keeps (a group's money pages are
# read again on every payment and round of an evening).
KEPT_GROUPS = 64


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


class _Owing(NamedTuple):
    """Owed, by player ids (what an app server keeps)."""

    session: SessionRef
    payer: int
    payee: int
    cents: int
    paid: int
    cleared: int
    payments: tuple[PaymentRow, ...]


@dataclass(frozen=True)
class _Book:
    """A group's money in one currency as worked out from its rows, by
    player ids: kept by each app server under the group's ledger stamp."""

    currency: str
    transfers: tuple[_Owing, ...]
    nets: Mapping[int, int]
    plan: tuple[Transfer[int], ...]
    across: tuple[tuple[PaymentRow, int], ...]  # each with its cents unused
    by_session: Mapping[int, tuple[int, ...]]  # the transfers' indexes
    open_sessions: frozenset[int]  # the sessions with something left owed


class Debts:
    """A group's money in one currency: each session's transfers (oldest
    session first), each player's net (positive: is owed), "Settle
    everything" (the fewest transfers that clear every open debt at once),
    and the payments across sessions; named with the group's players as
    they are now."""

    def __init__(self, book: _Book, players: Mapping[int, Player]) -> None:
        self.currency = book.currency
        self._book = book
        self._players = players

    @classmethod
    def none(cls, currency: str) -> Debts:
        return cls(_Book(currency, (), {}, (), (), {}, frozenset()), {})

    def _owed(self, owing: _Owing) -> Owed:
        return Owed(owing.session, self._players[owing.payer], self._players[owing.payee],
                    owing.cents, owing.paid, owing.cleared, owing.payments)

    @functools.cached_property
    def transfers(self) -> list[Owed]:
        return [self._owed(owing) for owing in self._book.transfers]

    @functools.cached_property
    def nets(self) -> dict[Player, int]:
        return {self._players[pid]: cents for pid, cents in self._book.nets.items()}

    @functools.cached_property
    def plan(self) -> list[Transfer[Player]]:
        return [Transfer(self._players[t.payer], self._players[t.payee], t.cents)
                for t in self._book.plan]

    @functools.cached_property
    def across(self) -> list[Across]:
        return [Across(p, self._players[p.payer_id], self._players[p.payee_id], unused)
                for p, unused in self._book.across]

    def open(self) -> list[Owed]:
        return [owed for owed in self.transfers if owed.left]

    def of_session(self, session_id: int) -> list[Owed]:
        return [self._owed(self._book.transfers[i])
                for i in self._book.by_session.get(session_id, ())]

    def owed_beside(self, session_id: int) -> bool:
        """Whether a session other than this one still owes something."""
        return bool(self._book.open_sessions - {session_id})


def group_debts(group: Group, currency: str | None = None) -> list[Debts]:
    """The group's debts in each currency (only ``currency``'s, if given),
    the currency owed most first: worked out once for each ledger stamp
    (Group.ledger_stamp) by each app server, and named with the group's
    players as they are now (one statement)."""
    books = [book for book in _books(group.id, group.ledger_stamp)
             if currency is None or book.currency == currency]
    if not books:
        return []
    players = {p.id: p for p in db.session.scalars(
        sa.select(Player).where(Player.group_id == group.id))}
    return [Debts(book, players) for book in books]


@functools.lru_cache(maxsize=KEPT_GROUPS)
def _books(group_id: int, stamp: str) -> tuple[_Book, ...]:
    """The group's money in each currency, the currency owed most first.
    Kept for ``stamp``: any change of the group's sessions or payments makes
    a new one (services/protocol.py), and a stamp is never made twice."""
    seats = (sa.select(Seat.session_id, Seat.player_id, Seat.net_cents, GameSession.started_at,
                       GameSession.ended_at, GameSession.currency)
             .join(GameSession, GameSession.id == Seat.session_id)
             .where(GameSession.group_id == group_id, ~GameSession.settled, Seat.net_cents != 0))
    payments = (sa.select(*(getattr(Payment, name) for name in PaymentRow._fields))
                .where(Payment.group_id == group_id, _not_settled(group_id)).order_by(Payment.id))
    refs: dict[int, tuple[str, SessionRef]] = {}
    balances: dict[int, dict[int, int]] = defaultdict(dict)
    for row in db.session.execute(seats):
        refs.setdefault(row.session_id, (row.currency, SessionRef(
            row.session_id, row.started_at, row.ended_at is not None)))
        balances[row.session_id][row.player_id] = row.net_cents
    paid = [PaymentRow(*row) for row in db.session.execute(payments)]
    order = sorted(balances, key=lambda sid: (refs[sid][1].started_at, sid))
    currencies = {refs[sid][0] for sid in order} | {p.currency for p in paid}
    books = [_book(c, [(refs[sid][1], balances[sid]) for sid in order if refs[sid][0] == c],
                   [p for p in paid if p.currency == c])
             for c in currencies]
    return tuple(sorted(books, key=lambda b: (-sum(c for c in b.nets.values() if c > 0),
                                              b.currency)))


def _book(currency: str, sessions: list[tuple[SessionRef, dict[int, int]]],
          payments: list[PaymentRow]) -> _Book:
    owing = [(ref, t) for ref, balance in sessions
             for t in session_transfers(tuple(sorted(balance.items())))]
    book = ledger([Debt(ref.id, t.payer, t.payee, t.cents) for ref, t in owing],
                  [Paid(p.payer_id, p.payee_id, p.cents, p.session_id) for p in payments])
    for_transfer: dict[tuple[int, int, int], list[PaymentRow]] = defaultdict(list)
    for p in payments:
        if p.session_id is not None:
            for_transfer[p.session_id, p.payer_id, p.payee_id].append(p)
    transfers = tuple(_Owing(ref, t.payer, t.payee, t.cents, book.paid[i], book.cleared[i],
                             tuple(for_transfer[ref.id, t.payer, t.payee]))
                      for i, (ref, t) in enumerate(owing))
    by_session: dict[int, list[int]] = defaultdict(list)
    for i, owed in enumerate(transfers):
        by_session[owed.session.id].append(i)
    return _Book(currency, transfers, MappingProxyType(book.nets), tuple(settle(book.nets)),
                 tuple((p, book.unused[k]) for k, p in enumerate(payments)
                       if p.session_id is None),
                 MappingProxyType({sid: tuple(ix) for sid, ix in by_session.items()}),
                 frozenset(o.session.id for i, o in enumerate(transfers) if book.left(i)))


@dataclass(frozen=True)
class StillOwed:
    """What is still owed in the group in one currency, all sessions
    together: in all, and by or to one player (``mine``: positive, owed to
    them; None: nobody's phone, or nothing owed by or to them)."""

    currency: str
    total: int
    mine: int | None


def still_owed(group: Group, player_id: int | None) -> list[StillOwed]:
    """What is still owed in each currency the group owes in (group_nets)."""
    return [StillOwed(currency, sum(c for c in nets.values() if c > 0),
                      nets.get(player_id) if player_id else None)
            for currency, nets in sorted(group_nets(group).items())]


def group_nets(group: Group) -> Mapping[str, Mapping[int, int]]:
    """Each player's net in each currency (positive: is owed), by player id:
    every session's balance with what was paid since (rules/ledger.py's nets
    are these). Kept for the group's ledger stamp, as its debts are."""
    return _nets(group.id, group.ledger_stamp)


@functools.lru_cache(maxsize=KEPT_GROUPS)
def _nets(group_id: int, stamp: str) -> Mapping[str, Mapping[int, int]]:
    """group_nets, in two statements summed by the database (cheaper than
    the ledger, which also says which transfers are paid)."""
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
    return MappingProxyType({
        currency: MappingProxyType({pid: cents for pid, cents in by_player.items() if cents})
        for currency, by_player in nets.items() if any(by_player.values())})


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
