"""What if: a session's rounds scored again under other house rules, as the
table played them (who dealt and the order of play kept), beside the money
as played (docs/RULES.md §9). Nothing is kept; a round the other rules
refuse says why and counts on neither side."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic

from .house import HouseRules
from .players import P
from .problems import Problem
from .scoring import Entry, RoundError, RoundScore, score_round


@dataclass(frozen=True)
class Played(Generic[P]):
    """A round as the table played it: its number, its playing order, each
    player's entry and each player's money as it was scored (cents)."""

    number: int
    order: tuple[P, ...]
    entries: Mapping[P, Entry]
    money: Mapping[P, int] = field(default_factory=dict)

    def score(self, rules: HouseRules) -> RoundScore[P]:
        """The round scored under ``rules``; RoundError if they refuse it."""
        return score_round(self.order, self.entries, rules)


@dataclass(frozen=True)
class Replayed(Generic[P]):
    """One round under the other rules: its money as played and as it would
    have been (None, with the ``problems``, if those rules refuse the round)."""

    number: int
    played: Mapping[P, int]
    score: RoundScore[P] | None
    problems: tuple[Problem, ...] = ()

    @property
    def money(self) -> Mapping[P, int] | None:
        return None if self.score is None else self.score.net_cents


@dataclass(frozen=True)
class WhatIf(Generic[P]):
    """Every round replayed, and each player's money over the rounds that
    both rules score: as played, as it would have been, and the difference."""

    rounds: list[Replayed[P]]
    played: dict[P, int]
    would_be: dict[P, int]

    @property
    def difference(self) -> dict[P, int]:
        return {p: self.would_be[p] - cents for p, cents in self.played.items()}

    @property
    def refused(self) -> list[Replayed[P]]:
        """The rounds the other rules can't score (left out of the totals)."""
        return [r for r in self.rounds if r.score is None]


def what_if(rounds: Iterable[Played[P]], rules: HouseRules,
            players: Iterable[P] = ()) -> WhatIf[P]:
    """The rounds scored again under ``rules``. The totals name ``players``
    (everyone of the session, 0 if they played no round) and everyone who
    played; a round the rules refuse counts on neither side."""
    replayed: list[Replayed[P]] = []
    played: dict[P, int] = dict.fromkeys(players, 0)
    would_be: dict[P, int] = dict.fromkeys(players, 0)
    for round_ in rounds:
        for player in round_.order:
            played.setdefault(player, 0)
            would_be.setdefault(player, 0)
        try:
            score = round_.score(rules)
        except RoundError as error:
            replayed.append(Replayed(round_.number, round_.money, None, tuple(error.problems)))
            continue
        replayed.append(Replayed(round_.number, round_.money, score))
        for player in round_.order:
            played[player] += round_.money.get(player, 0)
            would_be[player] += score.net_cents[player]
    return WhatIf(replayed, played, would_be)
