"""A report of the engine: a code (codes.Code) with its values, and the
players and cards it concerns."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from .cards import Card
from .codes import Code, logged


@dataclass(frozen=True)
class Problem:
    """An error or a warning: ``values`` are what its words need (numbers,
    cards, players; docs/rules-api.md), ``players`` and ``cards`` what it concerns."""

    code: Code
    values: Mapping[str, object] = field(default_factory=dict)
    players: tuple[Hashable, ...] = ()
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return logged(self.code, self.values)
