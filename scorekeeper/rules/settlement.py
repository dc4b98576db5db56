"""Settling a session with the fewest transfers (docs/RULES.md §11)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic

from .players import P

# Beyond this many players with a balance the exact search (2^n subsets) is
# too slow for a page view; a greedy settlement (still correct, maybe longer) is used.
EXACT_LIMIT = 14


@dataclass(frozen=True)
class Transfer(Generic[P]):
    payer: P
    payee: P
    cents: int


def _stable(players: Iterable[Hashable]) -> list:
    players = list(players)
    try:
        return sorted(players)
    except TypeError:
        return sorted(players, key=repr)


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """The most disjoint zero-sum groups covering everyone, as index lists."""
    n = len(amounts)
    full = (1 << n) - 1
    if n > EXACT_LIMIT:
        return [list(range(n))]
    total = [0] * (full + 1)
    groups = [0] * (full + 1)  # most zero-sum groups a mask splits into
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        best = 0
        rest = mask
        while rest:
            bit = rest & -rest
            best = max(best, groups[mask ^ bit])
            rest ^= bit
        groups[mask] = best + (total[mask] == 0)
    # Walk down from everyone, dropping one player at a time while keeping the
    # count; the zero-sum sets met on the way nest, and their differences are the groups.
    result = []
    mask, zero_sum_above = full, full
    while mask:
        bits = [1 << i for i in range(n) if mask >> i & 1]
        bit = max(bits, key=lambda b: groups[mask ^ b])
        mask ^= bit
        if total[mask] == 0:
            result.append([i for i in range(n) if (zero_sum_above ^ mask) >> i & 1])
            zero_sum_above = mask
    return result


def settle(balances: Mapping[P, int]) -> list[Transfer[P]]:
    """Who pays whom, in the fewest transfers, for balances in cents summing to zero.

    The same balances always give the same list, sorted by payer then payee.
    """
    if sum(balances.values()) != 0:
        raise ValueError(f"balances sum to {sum(balances.values())} cents, not zero")
    people = _stable(p for p, cents in balances.items() if cents)
    amounts = [balances[p] for p in people]
    transfers: list[Transfer[P]] = []
    for group in _zero_sum_groups(amounts):
        left = {people[i]: amounts[i] for i in group}
        while any(left.values()):
            payer = min(left, key=lambda p: (left[p], people.index(p)))
            payee = max(left, key=lambda p: (left[p], -people.index(p)))
            cents = min(-left[payer], left[payee])
            transfers.append(Transfer(payer, payee, cents))
            left[payer] += cents
            left[payee] -= cents
    order = {p: i for i, p in enumerate(people)}
    return sorted(transfers, key=lambda t: (order[t.payer], order[t.payee]))
