"""Playing order and who deals next (docs/RULES.md §10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .house import HouseRules
from .players import P


class Scored(Protocol[P]):
    """What next_dealer reads of a round's score: a RoundScore, or the same
    fields of a round as stored."""

    @property
    def order(self) -> Sequence[P]: ...

    @property
    def points(self) -> Mapping[P, int]: ...

    @property
    def position(self) -> Mapping[P, int]: ...


def playing_order(seats: Sequence[P], dealer: P, rules: HouseRules) -> list[P]:
    """Everyone in turn, starting next to the dealer in the dealing direction;
    ``seats`` are clockwise and the dealer plays last."""
    if dealer not in seats:
        raise ValueError(f"the dealer {dealer} is not seated at the table")
    i = list(seats).index(dealer)
    n = len(seats)
    step = 1 if rules.direction == "clockwise" else -1
    return [seats[(i + step * k) % n] for k in range(1, n + 1)]


def _first_seated(order: Sequence[P], start: int, seats: Sequence[P]) -> P:
    """From ``order[start]`` on, in playing direction, the first player still seated."""
    for k in range(len(order)):
        player = order[(start + k) % len(order)]
        if player in seats:
            return player
    return seats[0]


def next_dealer(seats: Sequence[P], dealer: P, score: Scored[P], rules: HouseRules) -> P:
    """Who deals the next round, given who sits now (clockwise), the last dealer
    and the last round's score. A chosen dealer who has left passes the deal on
    to the next player in the dealing direction."""
    if not seats:
        raise ValueError("nobody is seated")
    order = list(score.order)
    if rules.dealer_rule == "rotate":
        if dealer in seats:
            return playing_order(seats, dealer, rules)[0]
        return _first_seated(order, 0, seats)
    if rules.dealer_rule == "winner":
        best = min(score.position[p] for p in order)
        chosen = next(p for p in order if score.position[p] == best)
    else:
        worst = max(score.points[p] for p in order)
        chosen = next(p for p in order if score.points[p] == worst)
    return _first_seated(order, order.index(chosen), seats)
