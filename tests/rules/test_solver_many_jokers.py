"""docs/RULES.md §5: the solver on hands with many jokers.

From melds._MELD_ALL_JOKERS jokers on, the solver first looks, for a few
steps, for an arrangement that leaves no natural card dead, and solves the
hand in full only if that look finds none. Both ways must give the least
deadwood, checked here against the exhaustive search of ``reference.py``.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# -- hands that are mostly jokers, up to the house rules' limits -------------------------
#
# The app takes up to 16 jokers, 5 packs (4 and the extra one) and 40 cards dealt
# (limits.RULE_RANGES). With more jokers than the melds of a hand's few natural
# cards have room for, the solver once raised StopIteration placing the last ones.

MOST_JOKERS = 16
MOST_PACKS = 5
NEARBY = [Card(r, s) for s in "SC" for r in (1, 2, 3, 11, 12, 13)]  # ends of runs
ANY = [Card(r, s) for s in "SHDC" for r in range(1, 14)]


@st.composite
def mostly_jokers(draw):
    """A hand of 2 to 16 jokers and one to four natural cards, often crowded at
    the ends of a run (where a full 14-card run has no room to split)."""
    jokers = draw(st.integers(2, MOST_JOKERS))
    pool = draw(st.sampled_from([NEARBY, ANY]))
    naturals = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4))
    return naturals + [JOKER] * jokers


@settings(deadline=None, max_examples=300, database=None)
@given(mostly_jokers())
def test_hands_of_mostly_jokers_meld_every_card_they_can(hand):
    rules = penang(jokers=MOST_JOKERS, packs=MOST_PACKS)
    arrangement = best_melds(list(hand), rules)
    text = " ".join(map(str, hand))
    assert not ref.arrangement_problems(hand, arrangement, 20), text
    assert arrangement.points == ref.ref_min_deadwood(hand, 20), text
    assert arrangement.exact
    naturals = sum(not card.is_joker for card in hand)
    if len(hand) - naturals >= 2 * naturals:
        assert arrangement.points == 0, text  # two jokers meld any card


@pytest.mark.parametrize("text", [
    "JK JK JK JK JK JK JK JK JK JK JK JK JK JK QC KC",  # the attack run's hand
    "JK JK JK JK JK JK JK JK JK JK JK JK JK JK QC",
    "JK JK JK JK JK JK JK JK JK JK JK JK JK AC 2C 3C",
    "JK JK JK JK JK JK JK JK JK JK JK JK JK QC KC AC",
])
def test_jokers_past_a_full_run_go_to_sets(text):
    hand = H(text)
    arrangement = best_melds(hand, penang(jokers=MOST_JOKERS))
    assert arrangement.points == 0
    assert not ref.arrangement_problems(hand, arrangement, 20)
    assert sorted(map(str, (c for m in arrangement.melds for c in m))) == sorted(text.split())
