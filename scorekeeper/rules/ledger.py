"""What is still owed across sessions: each session's transfers (its debts)
against the payments marked since, in whole or in part.

A payment marked for a session pays that session's transfer between the same
two players first. Whatever else there is (a payment made across sessions, by
"Settle everything"; a session's payment its transfer no longer needs) pays
debts by clearing: money that goes round in a circle (Ann owes Ben, Ben owes
Carl, Carl owes Ann; or Ann owes Ben and Ann paid Ben across sessions) is
owed by nobody, so each debt and payment on the circle is cleared by the
circle's smallest amount, until no circle is left. So when every player's net
is zero, nothing is owed and every debt shows paid; and a payment is never
counted twice, since each of its cents clears one debt's cent at most."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Generic

from .players import P
from .settlement import settle


@dataclass(frozen=True)
class Debt(Generic[P]):
    """A session's transfer: ``payer`` owes ``payee`` ``cents``."""

    session: Hashable
    payer: P
    payee: P
    cents: int


@dataclass(frozen=True)
class Paid(Generic[P]):
    """Money that went from ``payer`` to ``payee``: for one session's
    transfer (``session``), or across sessions (None)."""

    payer: P
    payee: P
    cents: int
    session: Hashable | None = None


@dataclass
class Ledger(Generic[P]):
    """For each debt (in the order given), the cents paid for it directly
    and the cents cleared by payments across sessions or by debts in a
    circle; for each payment, the cents of it that cleared nothing yet; and
    each player's net (positive: is owed)."""

    debts: Sequence[Debt[P]]
    paid: list[int]
    cleared: list[int]
    payments: Sequence[Paid[P]]
    unused: list[int]
    nets: dict[P, int] = field(default_factory=dict)

    def left(self, index: int) -> int:
        """What is still owed of debt ``index``."""
        return self.debts[index].cents - self.paid[index] - self.cleared[index]

    def open(self) -> list[int]:
        """The indexes of the debts not paid in full."""
        return [i for i in range(len(self.debts)) if self.left(i)]


def ledger(debts: Sequence[Debt[P]], payments: Sequence[Paid[P]]) -> Ledger[P]:
    """The debts against the payments; the same input gives the same answer."""
    paid = [0] * len(debts)
    unused = [p.cents for p in payments]
    by_transfer = {(d.session, d.payer, d.payee): i for i, d in enumerate(debts)}
    for k, payment in enumerate(payments):
        i = by_transfer.get((payment.session, payment.payer, payment.payee))
        if payment.session is not None and i is not None:
            used = min(unused[k], debts[i].cents - paid[i])
            paid[i] += used
            unused[k] -= used
    cleared = [0] * len(debts)
    # Each pair's edge, "debtor owes creditor": its debts, then each payment
    # the other way, oldest first; a payment from A to B is owed back by B
    # until it clears something.
    edges: dict[tuple[P, P], list[tuple[str, int]]] = defaultdict(list)
    for i, d in enumerate(debts):
        if d.cents - paid[i]:
            edges[d.payer, d.payee].append(("debt", i))
    for k, p in enumerate(payments):
        if unused[k]:
            edges[p.payee, p.payer].append(("paid", k))

    def amount(part: tuple[str, int]) -> int:
        kind, i = part
        return unused[i] if kind == "paid" else debts[i].cents - paid[i] - cleared[i]

    def take(edge: tuple[P, P], cents: int) -> None:
        # Payments first: a payment clearing nothing yet is the odd one out.
        for part in sorted(edges[edge], key=lambda part: part[0] != "paid"):
            used = min(cents, amount(part))
            kind, i = part
            if kind == "paid":
                unused[i] -= used
            else:
                cleared[i] += used
            cents -= used
        edges[edge] = [part for part in edges[edge] if amount(part)]
        if not edges[edge]:
            del edges[edge]

    while (circle := _a_circle(edges)) is not None:
        smallest = min(sum(map(amount, edges[edge])) for edge in circle)
        for edge in circle:
            take(edge, smallest)
    nets: dict[P, int] = defaultdict(int)
    for (debtor, creditor), parts in edges.items():
        owed = sum(map(amount, parts))
        nets[debtor] -= owed
        nets[creditor] += owed
    return Ledger(debts, paid, cleared, payments, unused,
                  {p: cents for p, cents in nets.items() if cents})


def _a_circle(edges: Iterable[tuple[P, P]]) -> list[tuple[P, P]] | None:
    """A circle of edges, each from where the last one ended, or None."""
    after: dict[P, list[P]] = defaultdict(list)
    for debtor, creditor in edges:
        after[debtor].append(creditor)
    done: set[P] = set()  # no circle goes through these
    for start in list(after):
        if start in done:
            continue
        path, nexts = [start], [iter(after[start])]
        while path:
            step = next(nexts[-1], None)
            if step is None:
                done.add(path.pop())
                nexts.pop()
            elif step in path:
                return list(pairwise([*path[path.index(step):], step]))
            elif step not in done:
                path.append(step)
                nexts.append(iter(after.get(step, ())))
    return None


def settled_alone(balances: Mapping[P, int], payments: Iterable[tuple[P, P, int]]) -> bool:
    """Whether a session's own payments (payer, payee, cents) pay its
    transfers (``settle(balances)``) exactly, each in full and nothing more:
    then it owes nothing, and the group's ledger can leave it out."""
    due = Counter({(t.payer, t.payee): t.cents for t in settle(balances)})
    paid: Counter[tuple[P, P]] = Counter()
    for payer, payee, cents in payments:
        paid[payer, payee] += cents
    return due == paid
