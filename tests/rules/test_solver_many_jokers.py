"""RULES.md §5: the solver on hands with many jokers.

From melds._MELD_ALL_JOKERS jokers on, the solver first looks, for a few
steps, for an arrangement that leaves no natural card dead, and solves the
hand in full only if that look finds none. Both ways must give the least
deadwood, checked here against the exhaustive search of ``reference.py``.
"""

import random

import pytest

from scorekeeper.rules import JOKER, Card, best_melds, melds

from . import reference as ref
from .helpers import H, penang

# Small naturals parts (the reference is exhaustive) with 6 to 8 jokers:
# crowded suits that usually meld completely, and scattered cards that often
# cannot (each lone card takes two jokers).
DECKS = {
    "crowded": [Card(r, s) for s in "SH" for r in range(1, 8) for _ in range(2)],
    "scattered": [Card(r, s) for s in "SHDC" for r in range(1, 14)],
}


def many_joker_hands(name, count):
    rnd = random.Random(f"many-jokers-{name}")
    for _ in range(count):
        naturals = rnd.sample(DECKS[name], rnd.randint(3, 9))
        yield naturals + [JOKER] * rnd.randint(melds._MELD_ALL_JOKERS, 8)


def check(hand):
    joker_points = 20
    arrangement = best_melds(list(hand), penang(joker_points=joker_points))
    text = " ".join(map(str, hand))
    assert arrangement.points == ref.ref_min_deadwood(hand, joker_points), text
    assert not ref.arrangement_problems(hand, arrangement, joker_points), text
    return arrangement.points


@pytest.mark.parametrize("name", sorted(DECKS))
def test_many_jokers_match_reference(name):
    points = [check(hand) for hand in many_joker_hands(name, 150)]
    if name == "crowded":
        assert points.count(0) > len(points) // 2  # mostly melded completely
    else:
        assert any(points)  # some cards stay dead


@pytest.mark.parametrize("name", sorted(DECKS))
def test_many_jokers_when_the_first_look_gives_up_at_once(name, monkeypatch):
    monkeypatch.setattr(melds, "_MELD_ALL_BUDGET", 1)
    for hand in many_joker_hands(name, 60):
        check(hand)


def test_lone_cards_stay_dead_with_six_jokers():
    # Four lone cards need eight jokers between them: the cheapest stays dead.
    hand = H("2S 6H 10D KC JK JK JK JK JK JK")
    assert check(hand) == 2
