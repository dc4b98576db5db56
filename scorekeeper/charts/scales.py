"""Scales and ticks for the charts: whole numbers in, whole viewBox units out
(a chart's coordinates are integers, which keeps its SVG short)."""

from __future__ import annotations

import math
from dataclasses import dataclass


def nice_step(span: int, count: int) -> int:
    """The step of 1, 2 or 5 times a power of ten that cuts ``span`` (> 0)
    into nearest ``count`` parts; never less than 1."""
    raw = max(span / max(count, 1), 1)
    power = 10 ** math.floor(math.log10(raw))
    return max(1, min((factor * power for factor in (1, 2, 5, 10)),
                      key=lambda step: abs(span / step - count)))


def nice_ticks(low: int, high: int, count: int = 4) -> list[int]:
    """Round values from at or below ``low`` to at or above ``high``, evenly
    spaced (1, 2 or 5 × 10ⁿ apart), zero among them when the range holds it."""
    low, high = min(low, high), max(low, high)
    if low == high:
        low, high = low - 1, high + 1
    step = nice_step(high - low, count)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + 1, step))


@dataclass(frozen=True)
class Scale:
    """A linear map of [low, high] onto [start, end] (end < start for a y axis
    drawn downwards), rounded to whole units."""

    low: int
    high: int
    start: int
    end: int

    def __call__(self, value: float) -> int:
        if self.high == self.low:
            return self.start
        return round(self.start + (value - self.low) * (self.end - self.start)
                     / (self.high - self.low))


def sample(count: int, at_most: int) -> list[int]:
    """At most ``at_most`` (≥ 2) indexes of ``count`` items, evenly spread,
    the first and last always among them."""
    if count <= at_most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (at_most - 1)) for i in range(at_most)})


def spread_labels(wanted: list[int], gap: int, low: int, high: int) -> list[int]:
    """Positions as near ``wanted`` as can be with at least ``gap`` between any
    two, kept within [low, high] where they fit (the labels at the lines'
    ends); in the order given."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed = list(wanted)
    floor = low - gap
    for i in order:  # downwards: each at least a gap below the one above
        placed[i] = floor = max(placed[i], floor + gap)
    ceiling = high + gap
    for i in reversed(order):  # then upwards, off the bottom
        placed[i] = ceiling = min(placed[i], ceiling - gap)
    return placed
