"""Scales, ticks and the placing of labels (scorekeeper/charts/scales.py)."""

import itertools
import math

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.charts import Scale, nice_step, nice_ticks, sample, spread_labels

cents = st.integers(-10_000_000, 10_000_000)


def is_nice(step: int) -> bool:
    power = 10 ** math.floor(math.log10(step))
    return step % power == 0 and step // power in (1, 2, 5)


@given(cents, cents, st.integers(1, 10))
def test_ticks_are_round_even_and_cover_the_range(a, b, count):
    ticks = nice_ticks(a, b, count)
    assert ticks[0] <= min(a, b) and ticks[-1] >= max(a, b)
    steps = {later - earlier for earlier, later in itertools.pairwise(ticks)}
    assert len(steps) == 1 and is_nice(steps.pop())
    if min(a, b) <= 0 <= max(a, b):
        assert 0 in ticks
    # About ``count`` parts: never more than twice as many, and none empty at either end.
    assert len(ticks) - 1 <= 2 * count + 2
    if a != b:
        assert ticks[1] > min(a, b) and ticks[-2] < max(a, b)


def test_ticks_of_examples():
    assert nice_ticks(0, 1000) == [0, 200, 400, 600, 800, 1000]
    assert nice_ticks(-650, 1100) == [-1000, -500, 0, 500, 1000, 1500]
    assert nice_ticks(0, 0) == [-1, 0, 1]
    assert [nice_step(span, 10) for span in (7, 95, 101, 160)] == [1, 10, 10, 20]


@given(st.integers(-1000, 1000), st.integers(1, 1000), st.integers(0, 500), st.integers(0, 500))
def test_a_scale_maps_its_ends_and_keeps_the_order(low, span, start, end):
    scale = Scale(low, low + span, start, end)
    assert (scale(low), scale(low + span)) == (start, end)
    inside = [scale(v) for v in range(low, low + span + 1, max(1, span // 7))]
    assert inside == sorted(inside, reverse=end < start)
    assert all(isinstance(v, int) for v in inside)


@given(st.integers(1, 2000), st.integers(2, 200))
def test_a_sample_keeps_the_ends_in_order(count, at_most):
    kept = sample(count, at_most)
    assert kept[0] == 0 and kept[-1] == count - 1
    assert kept == sorted(set(kept)) and len(kept) <= at_most
    if count <= at_most:
        assert kept == list(range(count))


@given(st.lists(st.integers(0, 200), min_size=1, max_size=6))
def test_labels_keep_apart_within_the_plot_when_they_fit(wanted):
    placed = spread_labels(wanted, 12, 10, 200)
    ordered = sorted(placed)
    assert all(b - a >= 12 for a, b in itertools.pairwise(ordered))
    assert min(placed) >= 10 and max(placed) <= 200
    # Each keeps its place among the others.
    by_wanted = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    assert [placed[i] for i in by_wanted] == ordered
