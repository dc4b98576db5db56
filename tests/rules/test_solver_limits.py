"""What the solver is given and how much work it may do (docs/RULES.md §3, §6).

A hand no deal can give is refused before the solver sees it (hand_problems:
the largest hand dealt, the copies the packs hold, the jokers), and the solver
caps its own work (melds._WORK_BUDGET): on a hand built to be slow it stops
within a few milliseconds with the best arrangement it finished, marked not
exact. The hard hands below were found by a hill climb on the solver's work
(bench/README.md, "Worst-case hands (hardening)").
"""


import pytest

from scorekeeper.rules import (
    JOKER,
    Entry,
    HouseRules,
    best_melds,
    hand_problems,
    melds,
    parse_cards,
    score_round,
)

from . import reference as ref
from .helpers import C, H, penang, round_error, rummi

# The most the app's house rules allow (limits.RULE_RANGES): 4 packs and the
# extra one, 16 jokers, 40 cards dealt.
LARGEST = HouseRules(packs=4, extra_pack_players=2, jokers=16, hand_size=40,
                     hand_size_three=40)

# 200 characters, 67 cards: 1.6 s of the solver before its work was capped.
ATTACK_200 = ("3C 5C 4D 7D 7C 6D 4H 3H 7C AD 6D 6H 6D 4C 6H 5H 7D 5D 4H 3C 4H 4C 3H 2D AD "
              "3D 5C 5D 5H 4D 6H 3H 5H 7H 6C 6C 6H 3D 7H 5C 5D 4H 3C 2D 5D 4D 4S 6D 5C 3H "
              "5C AS 2D 2H 5D 5H JK 4D 3H 5D 3D 2D 6D 7C 2H 3H 4C")
# Hands a deal can give that cost the uncapped solver the most work found,
# each several times what the cap allows (so whatever order the search takes
# its states in, it stops at the cap): (rules, fewest points, hand).
HARD = [
    # Penang: 25 cards (three players: 2 packs), 6 jokers (about 13 ms uncapped)
    (HouseRules.penang(), 8, ("JK JK JK JK JK AC AD 2D 2S 3C 3D 3H 4D 4H 4S 5C 5D 5H 5S 6D "
                              "6S 6S 7D 9H JC")),
    (HouseRules.penang(), 12, ("JK JK JK JK JK AC AH 2H 3C 3D 3H 4C 4H 4H 5C 5H 5H 6C 6D 6H "
                               "7H 7H 8H 9C 10S")),
    # The largest house rules: 40 cards (0.3 to 0.8 s before the cap)
    (LARGEST, 7, ("JK JK AH AS AS 2C 2H 2H 2S 2S 2S 3D 3H 3H 3S 3S 3S 4D 4D 4D 4D 4H 4H 4H "
                  "4H 4S 4S 4S 5D 5H 5H 5H 5S 5S 5S 6D 6H 6S 7C 8H")),
]
# Rummi, 20 cards: the hardest found needs about the whole cap.
RUMMI_HARD = "JK JK JK JK JK AD AD 2D 2H 3D 3H 4D 5D 5D 5H 6D 7D 7D 8C 10D"


# -- what reaches the solver ----------------------------------------------------------------

@pytest.mark.parametrize("rules, text, code, values", [
    (rummi(), "AH AH AH 2S 3S", "too_many_copies", {"card": C("AH"), "count": 3, "limit": 2}),
    (penang(), "JK JK JK JK JK JK JK", "too_many_copies", {"card": JOKER, "count": 7, "limit": 6}),
    (rummi(), "JK " * 9, "too_many_copies", {"card": JOKER, "count": 9, "limit": 8}),
    (penang(), "AH AH AH AH", "too_many_copies", {"card": C("AH"), "count": 4, "limit": 3}),
    (rummi(), "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8H 9H 10H",
     "too_many_cards", {"count": 21, "most": 20}),
    (penang(), ATTACK_200, "too_many_cards", {"count": 67, "most": 25}),
])
def test_a_hand_no_deal_can_give_is_named(rules, text, code, values):
    problems = hand_problems(parse_cards(text), rules)
    assert (code, values) in [(p.code, p.values) for p in problems], problems
    assert all(p.code in ("too_many_cards", "too_many_copies") for p in problems)
    assert all(p.players == () for p in problems)


@pytest.mark.parametrize("rules, text", [
    (penang(), "AH AH AH 2S 3S"),  # five or more players: a third pack (docs/RULES.md §3)
    (penang(), "JK JK JK JK JK JK"),
    (rummi(), "JK JK JK JK JK JK JK JK AH AH"),
    (penang(), "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H 5H 6H 7H 8D 8C 8H JK JK"),
    (penang(extra_pack_players=None), "AH AH"),
])
def test_a_hand_some_deal_can_give_passes(rules, text):
    assert hand_problems(parse_cards(text), rules) == []


# Penang deals 25 cards only to three players, and the third pack comes in only
# at five: each alone is within the rules, never both at one table.
PENANG_25_THREE_AH = "AH AH AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8D 8C 8H JK"


def test_a_hand_within_each_limit_but_at_no_one_table_size_is_refused():
    hand = parse_cards(PENANG_25_THREE_AH)
    assert len(hand) == penang().largest_hand() and hand.count(H("AH")[0]) == penang().most_packs()
    [problem] = hand_problems(hand, penang())
    assert problem.code == "too_many_copies"
    assert problem.players == ()
    assert problem.cards == tuple(H("AH"))
    assert problem.values == {"card": C("AH"), "count": 3, "limit": 2, "hand": 25}
    # One card fewer is dealt at three players too: still no table gives it.
    assert hand_problems(hand[1:], penang()) == []
    assert [p.code for p in hand_problems(hand[:-1], penang())] == ["too_many_copies"]


@pytest.mark.parametrize("rules, text", [
    (penang(), "AH AH AH " + "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H 5H 6H"),  # 20: five
    (penang(), "AH AH " + "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8D 8C 8H JK"),
    (penang(hand_size_three=20, extra_pack_players=3), PENANG_25_THREE_AH.replace("8D 8C 8H JK", "")
     .replace("7H ", "").strip()),  # 20 cards and the third pack from three players
])
def test_a_hand_some_one_table_size_gives_passes(rules, text):
    assert hand_problems(parse_cards(text), rules) == []


def test_the_hand_check_says_what_a_round_says_without_the_players():
    entries = {"Ann": Entry("dead", "AC AC AC"), "Bob": Entry("dead", "2D")}
    [in_round] = [p for p in round_error(["Ann", "Bob"], entries, rummi())
                  if p.code == "too_many_copies"]
    [in_hand] = hand_problems(H("AC AC AC"), rummi())
    assert in_round.values == {"card": C("AC"), "count": 3, "limit": 2, "players": ("Ann",)}
    assert in_hand.values == {"card": C("AC"), "count": 3, "limit": 2}


def test_house_rules_name_the_largest_hand_and_the_most_packs():
    assert (penang().largest_hand(), penang().most_packs()) == (25, 3)
    assert (rummi().largest_hand(), rummi().most_packs()) == (20, 2)
    assert (LARGEST.largest_hand(), LARGEST.most_packs()) == (40, 5)


# -- the work cap ---------------------------------------------------------------------

def test_a_200_character_hand_gets_a_valid_arrangement_within_the_cap():
    """Refused before the solver on every page; the solver alone still
    answers it (it took 1.4 s before the cap: bench/solver.py --worst)."""
    hand = parse_cards(ATTACK_200)
    arrangement = best_melds(hand, penang())
    assert not ref.arrangement_problems(hand, arrangement)


@pytest.mark.parametrize("rules, best, text", HARD)
def test_hard_hands_stop_at_the_cap_with_a_valid_arrangement(rules, best, text):
    hand = H(text)
    assert hand_problems(hand, rules) == []
    arrangement = best_melds(hand, rules)
    assert not ref.arrangement_problems(hand, arrangement)
    assert not arrangement.exact
    assert arrangement.points >= best


def test_without_the_cap_the_hard_hands_find_their_best(monkeypatch):
    monkeypatch.setattr(melds, "_WORK_BUDGET", 10 ** 7)
    arrangement = best_melds(H(RUMMI_HARD), rummi())
    assert (arrangement.points, arrangement.exact) == (8, True)
    for rules, best, text in HARD[:2]:
        assert best_melds(H(text), rules).points == best


CAPPED = ["AS 2S 3S 4S 9H 9D 9C KD 4D", "JK 5H 6H 8H 8C 8D QS 9S", "2C 3C 5C 6C 7C JK AH AD",
          "AS AS 2S 3S 3S 4S JK 4H 5H 6H 6H 7H", "5S 5H 5D 6S 7S 8S 9H 10H JK 2D"]


@pytest.mark.parametrize("budget, stop", [(0, -10 ** 9), (30, -30), (0, -1)])
def test_whatever_the_cap_an_exact_answer_is_the_best(monkeypatch, budget, stop):
    """With the cap at (almost) nothing, every answer is still a valid
    arrangement, and one marked exact leaves the fewest points (the reference).
    (0, -1): the dive stops too, and the hand is all deadwood, not exact."""
    monkeypatch.setattr(melds, "_WORK_BUDGET", budget)
    monkeypatch.setattr(melds, "_DIVE_STOP", stop)
    inexact = 0
    for text in CAPPED:
        hand = H(text)
        arrangement = best_melds(hand, penang())
        least = ref.ref_min_deadwood(hand)
        assert not ref.arrangement_problems(hand, arrangement), text
        assert arrangement.points >= least, text
        if arrangement.exact:
            assert arrangement.points == least, text
        else:
            inexact += 1
    if stop == -1:
        assert inexact == len(CAPPED)


# -- a Tien Hu the solver cannot settle within the cap ------------------------------------

def test_an_unsettled_tien_hu_is_a_warning_to_confirm_not_a_refusal():
    rules, _, text = HARD[2]
    entries = {"Ann": Entry("tien_hu", text), "Bob": Entry("dead")}
    score = score_round(["Ann", "Bob"], entries, rules)
    [warning] = score.warnings
    assert warning.code == "tien_hu_unchecked"
    assert warning.players == ("Ann",)
    assert warning.values == {"player": "Ann"}  # no arrangement: the same in every process
    assert score.points == {"Ann": 0, "Bob": 0}


def test_the_attack_runs_tien_hu_scores():
    """16 jokers and 16 cards dealt are house rules the app takes; this hand
    once made the round's save answer 500 (StopIteration)."""
    rules = HouseRules(packs=4, jokers=16, hand_size=16, hand_size_three=16)
    entries = {"Ann": Entry("tien_hu", "JK " * 14 + "QC KC"), "Bob": Entry("dead"),
               "Cyd": Entry("dead")}
    score = score_round(["Ann", "Bob", "Cyd"], entries, rules)
    assert score.winner == "Ann"
    assert score.warnings == []
    assert score.points == {"Ann": 0, "Bob": 0, "Cyd": 0}
    assert score.net_cents == {"Ann": 1200, "Bob": -600, "Cyd": -600}
