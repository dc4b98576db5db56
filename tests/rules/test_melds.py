"""docs/RULES.md §5: melds, the best arrangement (solver) and finding a meld.

The solver is compared with the exhaustive search of ``reference.py`` on
thousands of small random hands drawn from dense sub-decks (few suits, ranks
near A and K, jokers, two or three packs so that twins appear).
"""

import random
from collections import Counter

import pytest

from scorekeeper.rules import JOKER, Card, best_melds, find_meld, is_meld

from . import reference as ref
from .helpers import (
    ALMOST_TIEN_HU_20,
    MELD_FREE_20,
    MELD_FREE_25,
    SETS_NO_RUN_20,
    TIEN_HU_20,
    TIEN_HU_25,
    H,
    penang,
    rummi,
)

FOURTEEN = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"

MELDS = [
    "AH 2H 3H",
    "QH KH AH",
    "AH KH QH",
    "3H 4H 5H 6H",
    FOURTEEN,
    "8H 8H 8C",
    "8H 8C 8D 8S 8H 8C 8D 8S",
    "JK JK 5S",
    "JK JK JK 5S",
    "5H JK 7H",
    "JK 2H 3H",
    "QH KH JK",
    "AH JK KH",
    "AH JK JK KH",
    "JK 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC JK",
    "AS JK JK JK",
    "AS KS AS " + " ".join(["JK"] * 11),
    "AS AS " + " ".join(["JK"] * 12),
    "8H 8C JK",
    "AS AS AS",
    "AS AH AD AC AS",
]

NOT_MELDS = [
    "",
    "AH",
    "AH 2H",
    "8H 8C",
    "JK JK",
    "KH AH 2H",
    "KH JK 2H",
    "JK JK JK",
    "JK JK JK JK JK JK",
    "5S 6H 7S",
    "5S 5S 6S",
    "AS 2S AS",
    "2S 2S 3S 4S",
    "AH 2S 3H",
    "AH AH 2H 3H",
    "AS KS AS " + " ".join(["JK"] * 10),
    FOURTEEN + " JK",
    "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S",
    "QS KS AS 2S",
    "JS QS KS AS 2S",
    "8H 8H 9H",
    "8H 9C 10H",
]


@pytest.mark.parametrize("text", MELDS)
def test_melds(text):
    cards = H(text)
    assert ref.ref_is_meld(cards)  # the reference agrees with the rule book
    assert is_meld(cards)
    assert is_meld(list(reversed(cards)))
    shuffled = list(cards)
    random.Random(text).shuffle(shuffled)
    assert is_meld(shuffled)


@pytest.mark.parametrize("text", NOT_MELDS)
def test_not_melds(text):
    cards = H(text)
    assert not ref.ref_is_meld(cards)
    assert not is_meld(cards)
    assert not is_meld(list(reversed(cards)))


# -- best_melds on the rule book's examples ---------------------------------------------

def check(hand, arrangement, joker_points=20):
    problems = ref.arrangement_problems(hand, arrangement, joker_points)
    assert not problems, (" ".join(map(str, hand)), problems)


@pytest.mark.parametrize(
    "text, points",
    [
        ("", 0),
        ("KH AH 2H", 27),            # K A 2 is not a run
        ("QH KH AH", 0),             # Q K A is
        (FOURTEEN, 0),               # A..K A melds completely
        ("8H 8H 8C", 0),             # a set may repeat a suit
        ("JK JK 5S", 0),             # jokers with one natural card
        ("JK JK JK", 60),            # a meld needs a natural card
        ("JK", 20),
        ("7H JK", 27),
        ("AC AC 2S", 32),
        ("5S 6S 7S 9D", 9),
        ("5S 6S 7S 8S 9D", 9),
        ("AS AS AS KS", 10),
    ],
)
def test_best_melds_examples(text, points):
    hand = H(text)
    rules = penang()
    arrangement = best_melds(hand, rules)
    assert arrangement.points == points
    check(hand, arrangement)


def test_best_melds_needs_the_only_ace_once():
    # Q K A 2 3 of diamonds: Q K A is a run, A 2 3 is a run; one ace serves one.
    hand = H("QD KD AD 2D 3D")
    assert ref.ref_min_deadwood(hand) == 5  # KD QD AD + 2D 3D left (5), or A23 + QK (20)
    arrangement = best_melds(hand, penang())
    assert arrangement.points == 5
    check(hand, arrangement)


def test_best_melds_joker_points_follow_the_house_rule():
    hand = H("JK JK JK")
    assert best_melds(hand, penang(joker_points=50)).points == 150
    assert best_melds(H("JK 5S"), penang(joker_points=50)).points == 55
    assert best_melds(H("JK 5S 5H"), penang(joker_points=50)).points == 0


@pytest.mark.parametrize("preset", [penang, rummi])
def test_best_melds_same_for_both_passports(preset):
    # The passport rule decides only the first meld; leftover scoring uses sets too.
    hand = H("8H 8H 8C 9S")
    arrangement = best_melds(hand, preset())
    assert arrangement.points == 9
    check(hand, arrangement)


@pytest.mark.parametrize("text", [TIEN_HU_20, TIEN_HU_25])
def test_best_melds_complete_hands(text):
    hand = H(text)
    arrangement = best_melds(hand, penang())
    assert arrangement.points == 0
    assert arrangement.deadwood == []
    check(hand, arrangement)


def test_best_melds_almost_complete_hand():
    hand = H(ALMOST_TIEN_HU_20)
    arrangement = best_melds(hand, penang())
    assert arrangement.points == 9
    assert arrangement.deadwood == [Card(9, "D")]
    check(hand, arrangement)


@pytest.mark.parametrize("text", [MELD_FREE_20, MELD_FREE_25])
def test_meld_free_hands(text):
    hand = H(text)
    assert not ref.ref_has_meld(hand)
    arrangement = best_melds(hand, penang())
    assert arrangement.melds == []
    assert arrangement.points == ref.hand_points(hand)
    check(hand, arrangement)
    assert find_meld(hand, penang()) is None
    assert find_meld(hand, rummi(), runs_only=True) is None


# -- find_meld -------------------------------------------------------------------

def is_sub_multiset(part, whole):
    return not (Counter(part) - Counter(whole))


@pytest.mark.parametrize(
    "text, any_meld, run",
    [
        ("8H 8H 8C 2S", True, False),
        ("2S 3S 4S 9D", True, True),
        ("QH KH AH", True, True),
        ("KH AH 2H", False, False),
        ("JK JK JK", False, False),
        ("JK JK 9C", True, True),
        ("5S 5H 5D 6S 7H", True, False),
        (SETS_NO_RUN_20, True, False),
        ("", False, False),
    ],
)
def test_find_meld(text, any_meld, run):
    hand = H(text)
    assert ref.ref_has_meld(hand) == any_meld
    assert ref.ref_has_meld(hand, runs_only=True) == run
    for rules in (penang(), rummi()):
        found = find_meld(hand, rules)
        if any_meld:
            assert found is not None and is_meld(found) and ref.ref_is_meld(found)
            assert is_sub_multiset(found, hand)
        else:
            assert found is None
        found_run = find_meld(hand, rules, runs_only=True)
        if run:
            assert found_run is not None and ref.ref_is_run(found_run)
            assert is_sub_multiset(found_run, hand)
        else:
            assert found_run is None


# -- the reference itself --------------------------------------------------------------

def test_reference_sanity():
    assert ref.ref_min_deadwood(H("QD KD AD 2D 3D")) == 5
    assert ref.ref_min_deadwood(H("JK JK JK")) == 60
    assert ref.ref_min_deadwood(H("JK JK JK 2C")) == 0
    assert ref.ref_min_deadwood(H("AS 2S 3S 3S 4S 5S")) == 0
    assert ref.ref_min_deadwood(H("AS 2S 3S 3S 4S")) == 3
    assert ref.ref_min_deadwood(H("8H 8H 8C 9H 10H")) == 16
    assert ref.ref_min_deadwood(H("8H 8H 8C 8D 9H 10H")) == 0
    assert ref.ref_is_run(H("AS KS AS " + " ".join(["JK"] * 11)))
    assert not ref.ref_is_set(H("AS KS AS"))
    assert ref.ace_joker_units(H("AC AC 2S")) == 4
    assert ref.ace_joker_units(H("JK 7H")) == 1
    assert ref.ace_joker_units(H("AC AD JK")) == 3
    assert ref.ref_min_transfers({"A": -500, "B": 500, "C": 300, "D": -200, "E": -100}) == 3
    assert ref.ref_min_transfers({"A": 0}) == 0
    assert ref.ref_min_transfers({"A": -1, "B": -1, "C": 2}) == 2


# -- the solver against the exhaustive reference -----------------------------------

SUB_DECKS = {
    # name: (suits, ranks, packs, jokers)
    "two-suits-ends": ("SH", (1, 2, 3, 4, 12, 13), 3, 4),
    "one-suit-long": ("S", (1, 2, 3, 4, 5, 10, 11, 12, 13), 2, 3),
    "three-suits-aces": ("SHD", (1, 2, 12, 13), 2, 2),
    "four-suits-sets": ("SHDC", (1, 13), 3, 2),
    "middle": ("HC", (5, 6, 7, 8), 3, 3),
}
HANDS_PER_DECK = 700


def sub_deck(suits, ranks, packs, jokers):
    cards = [Card(r, s) for s in suits for r in ranks for _ in range(packs)]
    return cards + [JOKER] * jokers


@pytest.mark.parametrize("name", sorted(SUB_DECKS))
def test_solver_matches_exhaustive_reference(name):
    rnd = random.Random(f"solver-{name}")
    deck = sub_deck(*SUB_DECKS[name])
    for _ in range(HANDS_PER_DECK):
        hand = rnd.sample(deck, rnd.randint(3, 9))
        joker_points = rnd.choice((20, 20, 20, 5, 50))
        rules = penang(joker_points=joker_points)
        arrangement = best_melds(list(hand), rules)
        expected = ref.ref_min_deadwood(hand, joker_points)
        text = " ".join(map(str, hand))
        assert arrangement.points == expected, (text, joker_points, arrangement)
        problems = ref.arrangement_problems(hand, arrangement, joker_points)
        assert not problems, (text, problems)


@pytest.mark.parametrize("name", sorted(SUB_DECKS))
def test_find_meld_matches_reference(name):
    rnd = random.Random(f"find-{name}")
    deck = sub_deck(*SUB_DECKS[name])
    for _ in range(HANDS_PER_DECK):
        hand = rnd.sample(deck, rnd.randint(0, 9))
        text = " ".join(map(str, hand))
        found = find_meld(list(hand), penang())
        if ref.ref_has_meld(hand):
            assert found is not None, text
            assert ref.ref_is_meld(found) and is_sub_multiset(found, hand), (text, found)
        else:
            assert found is None, (text, found)
        run = find_meld(list(hand), rummi(), runs_only=True)
        if ref.ref_has_meld(hand, runs_only=True):
            assert run is not None, text
            assert ref.ref_is_run(run) and is_sub_multiset(run, hand), (text, run)
        else:
            assert run is None, (text, run)


@pytest.mark.parametrize("name", sorted(SUB_DECKS))
def test_is_meld_matches_reference(name):
    rnd = random.Random(f"is-meld-{name}")
    deck = sub_deck(*SUB_DECKS[name])
    for _ in range(HANDS_PER_DECK * 2):
        cards = rnd.sample(deck, rnd.randint(0, 8))
        assert is_meld(list(cards)) == ref.ref_is_meld(cards), " ".join(map(str, cards))


def test_is_meld_matches_reference_on_long_runs():
    # Long candidate runs: one suit, a window of ranks, some jokers, maybe a twin.
    rnd = random.Random("long-runs")
    for _ in range(2000):
        length = rnd.randint(3, 15)
        low = rnd.randint(1, 14)
        positions = [low + i for i in range(length)]
        cards = []
        for p in positions:
            if rnd.random() < 0.3:
                cards.append(JOKER)
            else:
                rank = 1 if p == 14 else p
                if rank > 14:
                    rank = rnd.randint(1, 13)
                cards.append(Card(rank, "H"))
        if rnd.random() < 0.2:
            cards[rnd.randrange(len(cards))] = Card(rnd.randint(1, 13), rnd.choice("HS"))
        rnd.shuffle(cards)
        assert is_meld(cards) == ref.ref_is_meld(cards), " ".join(map(str, cards))



FULL_DEALS = {
    # name: (suits, ranks, packs, jokers, cards in hand, hands)
    "2 packs + 8 jokers, 20 cards": ("SHDC", range(1, 14), 2, 8, 20, 60),
    "3 packs + 6 jokers, 25 cards": ("SHDC", range(1, 14), 3, 6, 25, 60),
    "two suits + 8 jokers, 20 cards": ("SH", range(1, 14), 2, 8, 20, 20),
}


@pytest.mark.parametrize("name", sorted(FULL_DEALS))
def test_solver_matches_exhaustive_reference_on_full_deals(name):
    *deck_spec, size, hands = FULL_DEALS[name]
    rnd = random.Random(f"full-{name}")
    deck = sub_deck(*deck_spec)
    rules = penang()
    for _ in range(hands):
        hand = rnd.sample(deck, size)
        arrangement = best_melds(list(hand), rules)
        text = " ".join(map(str, hand))
        assert arrangement.points == ref.ref_min_deadwood(hand), text
        problems = ref.arrangement_problems(hand, arrangement)
        assert not problems, (text, problems)
