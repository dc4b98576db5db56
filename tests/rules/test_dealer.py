"""docs/RULES.md §10: playing order and who deals next."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Entry, HouseRules, next_dealer, playing_order, score_round

from .helpers import penang, rummi, worked_rules

SEATS = ["A", "B", "C", "D"]


@pytest.mark.parametrize(
    "dealer, order",
    [("D", "ABCD"), ("A", "BCDA"), ("B", "CDAB"), ("C", "DABC")],
)
def test_clockwise_starts_at_the_dealers_left(dealer, order):
    assert list(playing_order(SEATS, dealer, HouseRules.penang())) == list(order)


@pytest.mark.parametrize(
    "dealer, order",
    [("D", "CBAD"), ("A", "DCBA"), ("B", "ADCB"), ("C", "BADC")],
)
def test_anticlockwise_starts_at_the_dealers_right(dealer, order):
    assert list(playing_order(SEATS, dealer, HouseRules.rummi())) == list(order)


def test_direction_is_a_house_rule():
    assert list(playing_order(SEATS, "D", rummi(direction="clockwise"))) == list("ABCD")
    assert list(playing_order(SEATS, "D", penang(direction="anticlockwise"))) == list("CBAD")


def test_two_players():
    assert list(playing_order(["A", "B"], "A", HouseRules.penang())) == ["B", "A"]
    assert list(playing_order(["A", "B"], "A", HouseRules.rummi())) == ["B", "A"]


def test_dealer_not_seated():
    with pytest.raises(ValueError):
        playing_order(SEATS, "Z", HouseRules.penang())


@settings(deadline=None, max_examples=200, database=None)
@given(
    st.lists(st.text(min_size=1, max_size=4), min_size=2, max_size=8, unique=True),
    st.data(),
    st.sampled_from(["clockwise", "anticlockwise"]),
)
def test_playing_order_is_a_rotation_ending_with_the_dealer(seats, data, direction):
    dealer = data.draw(st.sampled_from(seats))
    order = list(playing_order(seats, dealer, penang(direction=direction)))
    assert order[-1] == dealer
    assert sorted(order) == sorted(seats)
    i = seats.index(dealer)
    step = 1 if direction == "clockwise" else -1
    assert order == [seats[(i + step * k) % len(seats)] for k in range(1, len(seats) + 1)]


# -- who deals next ----------------------------------------------------------------

def dead(text=""):
    return Entry("dead", text)


def scored(rules, dealer, entries, seats=SEATS):
    return score_round(playing_order(seats, dealer, rules), entries, rules)


EX1 = {"A": dead("JK 7H"), "B": dead("AC AC 2S"), "C": dead("3D 4D"), "D": dead("AS 9H")}


def test_winner_deals():
    rules = worked_rules()
    assert next_dealer(SEATS, "D", scored(rules, "D", EX1), rules) == "C"


def test_loser_deals():
    rules = worked_rules(dealer_rule="loser")
    assert next_dealer(SEATS, "D", scored(rules, "D", EX1), rules) == "B"


def test_hu_winner_deals():
    rules = worked_rules()
    entries = {"A": dead("KS"), "B": dead("2C"), "C": Entry("hu"), "D": dead("3C")}
    assert next_dealer(SEATS, "D", scored(rules, "D", entries), rules) == "C"


def test_loser_deals_in_a_hu_round():
    rules = worked_rules(dealer_rule="loser")
    entries = {"A": dead("KS"), "B": dead("2C"), "C": Entry("hu"), "D": dead("3C")}
    assert next_dealer(SEATS, "D", scored(rules, "D", entries), rules) == "A"


TIED = {"A": dead("5S"), "B": dead("5H"), "C": dead("5D"), "D": dead("9C")}
TIED_LAST = {"A": dead("9S"), "B": dead("2H"), "C": dead("9D"), "D": dead("9C")}


@pytest.mark.parametrize(
    "dealer, direction, expected",
    [
        ("D", "clockwise", "A"),       # order A B C D
        ("A", "clockwise", "B"),       # order B C D A
        ("B", "clockwise", "C"),       # order C D A B
        ("C", "clockwise", "A"),       # order D A B C
        ("D", "anticlockwise", "C"),   # order C B A D
        ("B", "anticlockwise", "A"),   # order A D C B
        ("C", "anticlockwise", "B"),   # order B A D C
    ],
)
def test_tie_for_first_goes_to_the_earliest_in_playing_order(dealer, direction, expected):
    rules = penang(direction=direction)
    assert next_dealer(SEATS, dealer, scored(rules, dealer, TIED), rules) == expected


@pytest.mark.parametrize(
    "dealer, direction, expected",
    [
        ("D", "clockwise", "A"),       # A C D tied on most points
        ("A", "clockwise", "C"),       # order B C D A
        ("C", "clockwise", "D"),       # order D A B C
        ("D", "anticlockwise", "C"),   # order C B A D
        ("C", "anticlockwise", "A"),   # order B A D C
    ],
)
def test_tie_for_most_points_goes_to_the_earliest_in_playing_order(dealer, direction, expected):
    rules = penang(direction=direction, dealer_rule="loser")
    assert next_dealer(SEATS, dealer, scored(rules, dealer, TIED_LAST), rules) == expected


@pytest.mark.parametrize(
    "dealer, direction, expected",
    [("D", "clockwise", "A"), ("A", "clockwise", "B"), ("D", "anticlockwise", "C"),
     ("A", "anticlockwise", "D")],
)
def test_rotate(dealer, direction, expected):
    rules = penang(direction=direction, dealer_rule="rotate")
    assert next_dealer(SEATS, dealer, scored(rules, dealer, EX1), rules) == expected


def test_winner_who_left_passes_the_deal_on_clockwise():
    rules = worked_rules()
    score = scored(rules, "D", EX1)  # C wins
    assert next_dealer(["A", "B", "D"], "D", score, rules) == "D"
    assert next_dealer(["A", "B"], "D", score, rules) == "A"


def test_winner_who_left_passes_the_deal_on_anticlockwise():
    rules = HouseRules.rummi()
    score = scored(rules, "D", EX1)  # order C B A D; C wins
    assert score.position["C"] == 1
    assert next_dealer(["A", "B", "D"], "D", score, rules) == "B"
    assert next_dealer(["A", "D"], "D", score, rules) == "A"


def test_loser_who_left_passes_the_deal_on():
    rules = worked_rules(dealer_rule="loser")
    score = scored(rules, "D", EX1)  # B has most points
    assert next_dealer(["A", "C", "D"], "D", score, rules) == "C"


def test_rotate_when_the_dealer_left():
    rules = penang(dealer_rule="rotate")
    score = scored(rules, "D", EX1)
    assert next_dealer(["A", "B", "C"], "D", score, rules) == "A"
    assert next_dealer(["B", "C"], "D", score, rules) == "B"
    rules = rummi(dealer_rule="rotate")
    score = scored(rules, "D", EX1)
    assert next_dealer(["A", "B", "C"], "D", score, rules) == "C"
    assert next_dealer(["A", "B"], "D", score, rules) == "B"


@settings(deadline=None, max_examples=100, database=None)
@given(
    st.sampled_from(["winner", "loser", "rotate"]),
    st.sampled_from(["clockwise", "anticlockwise"]),
    st.sampled_from(SEATS),
    st.lists(st.sampled_from(["2C", "5S", "5H", "5D", "9C", "KD", "", "AS JK"]), min_size=4,
             max_size=4, unique=True),
    st.sets(st.sampled_from(SEATS), max_size=2),
)
def test_next_dealer_is_always_seated(rule, direction, dealer, texts, left):
    rules = penang(dealer_rule=rule, direction=direction)
    entries = dict(zip(SEATS, (dead(t) for t in texts), strict=True))
    score = scored(rules, dealer, entries)
    seats = [s for s in SEATS if s not in left]
    assert next_dealer(seats, dealer, score, rules) in seats
