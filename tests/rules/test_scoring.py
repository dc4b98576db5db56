"""docs/RULES.md §6, §8 and §12: a round's entries, its ranking, and the worked
examples scored whole (validation: test_round_validation.py; money:
test_round_money.py)."""

from scorekeeper.rules import (
    Card,
    Entry,
    RoundScore,
    next_dealer,
    playing_order,
    score_round,
)

from .helpers import (
    MELD_FREE_20,
    NAMES,
    SETS_NO_RUN_20,
    assert_balanced,
    breakdown,
    dead,
    money,
    penang,
    worked_rules,
)

SEATS = ["A", "B", "C", "D"]


# -- docs/RULES.md §12: the worked examples --------------------------------------------------

def test_worked_example_playing_order():
    assert list(playing_order(SEATS, "D", worked_rules())) == ["A", "B", "C", "D"]


def test_worked_example_1_no_hu():
    rules = worked_rules()
    order = playing_order(SEATS, "D", rules)
    entries = {
        "A": dead("JK 7H"),
        "B": dead("AC AC 2S"),
        "C": dead("3D 4D"),
        "D": dead("AS 9H"),
    }
    score = score_round(order, entries, rules)
    assert isinstance(score, RoundScore)
    assert tuple(score.order) == ("A", "B", "C", "D")
    assert score.winner is None
    assert score.warnings == []
    assert dict(score.points) == {"A": 27, "B": 32, "C": 7, "D": 24}
    assert dict(score.position) == {"C": 1, "D": 2, "A": 3, "B": 4}
    assert breakdown(score, "D") == (-100, 0, 100)
    assert breakdown(score, "A") == (-200, 0, 100)
    assert breakdown(score, "B") == (-300, 0, -500)
    assert breakdown(score, "C") == (600, 0, 300)
    assert money(score) == {"A": -100, "B": -800, "C": 900, "D": 0}
    assert_balanced(score)
    assert next_dealer(SEATS, "D", score, rules) == "C"


def test_worked_example_2_tie_for_second():
    rules = worked_rules()
    order = playing_order(SEATS, "D", rules)
    entries = {"A": dead("5S 5H"), "B": dead("10C"), "C": dead("2D"), "D": dead("KS QS")}
    score = score_round(order, entries, rules)
    assert dict(score.points) == {"A": 10, "B": 10, "C": 2, "D": 20}
    assert dict(score.position) == {"C": 1, "A": 2, "B": 2, "D": 4}
    assert money(score) == {"A": -150, "B": -150, "C": 600, "D": -300}
    assert all(score.breakdown[p].joker_ace == 0 for p in SEATS)
    assert_balanced(score)
    assert next_dealer(SEATS, "D", score, rules) == "C"


def test_worked_example_3_hu():
    rules = worked_rules()
    order = playing_order(SEATS, "D", rules)
    entries = {"A": dead("JK 3C"), "B": Entry("hu"), "C": dead("AH"), "D": dead("4S 4D")}
    score = score_round(order, entries, rules)
    assert score.winner == "B"
    assert dict(score.points) == {"A": 23, "B": 0, "C": 15, "D": 8}
    assert dict(score.position) == {"B": 1, "D": 2, "C": 3, "A": 4}
    assert breakdown(score, "A") == (0, -300, -100)
    assert breakdown(score, "B") == (0, 900, 100)
    assert breakdown(score, "C") == (0, -300, -100)
    assert breakdown(score, "D") == (0, -300, 100)
    assert money(score) == {"A": -400, "B": 1000, "C": -400, "D": -200}
    assert_balanced(score)
    assert next_dealer(SEATS, "D", score, rules) == "B"


# -- entries: card text or card lists -------------------------------------------------

def test_entry_cards_may_be_text_cards_or_tokens():
    rules = penang()
    as_text = score_round(["A", "B"], {"A": dead("as 10h"), "B": dead("2c")}, rules)
    as_cards = score_round(
        ["A", "B"], {"A": dead([Card(1, "S"), Card(10, "H")]), "B": dead([Card(2, "C")])}, rules
    )
    as_tokens = score_round(["A", "B"], {"A": dead(["A♠", "10H"]), "B": dead(["2c"])}, rules)
    for score in (as_text, as_cards, as_tokens):
        assert dict(score.points) == {"A": 25, "B": 2}
        assert money(score) == {"A": -100, "B": 100}


# -- §8 ranking ------------------------------------------------------------------------

def test_competition_ranking():
    entries = {"Ann": dead("5S"), "Bob": dead("5H"), "Cyd": dead("7D"), "Dot": dead("9C")}
    score = score_round(NAMES, entries, penang())
    assert dict(score.position) == {"Ann": 1, "Bob": 1, "Cyd": 3, "Dot": 4}


def test_competition_ranking_tie_in_the_middle():
    entries = {"Ann": dead("2S"), "Bob": dead("5H"), "Cyd": dead("5D"), "Dot": dead("9C")}
    score = score_round(NAMES, entries, penang())
    assert dict(score.position) == {"Ann": 1, "Bob": 2, "Cyd": 2, "Dot": 4}


def test_hu_winner_is_first():
    entries = {"Ann": dead("2S"), "Bob": dead("5H"), "Cyd": Entry("hu"), "Dot": dead("5C")}
    score = score_round(NAMES, entries, penang())
    assert dict(score.position) == {"Cyd": 1, "Ann": 2, "Bob": 3, "Dot": 3}
    assert score.points["Cyd"] == 0


def test_no_passport_last_in_rummi():
    # Ann could not make a run (62 points); Bob holds 110 points but is dead.
    entries = {
        "Ann": Entry("no_passport", SETS_NO_RUN_20),
        "Bob": dead("KS KH QD QC JS JH AS AH 10D 10C"),
        "Cyd": dead("4H"),
        "Dot": dead("9C 8D"),
    }
    rules = worked_rules()
    score = score_round(NAMES, entries, rules)
    assert dict(score.points) == {"Ann": 62, "Bob": 110, "Cyd": 4, "Dot": 17}
    assert dict(score.position) == {"Cyd": 1, "Dot": 2, "Bob": 3, "Ann": 4}
    tiers = {p: score.breakdown[p].tier for p in NAMES}
    assert tiers == {"Cyd": 600, "Dot": -100, "Bob": -200, "Ann": -300}
    # Joker/ace units: Bob holds AS AH (2); nobody else any.
    assert {p: score.breakdown[p].joker_ace for p in NAMES} == {
        "Ann": 100, "Bob": -300, "Cyd": 100, "Dot": 100,
    }
    assert_balanced(score)


def test_several_no_passport_players_are_last_in_points_order():
    entries = {
        "Ann": Entry("no_passport", SETS_NO_RUN_20),  # 62 points
        "Bob": Entry("no_passport",
                     "9S 9S 10S 10S 9H 9H 10H 10H 9D 9D 10D 10D 9C 9C 10C 10C QS QS KH KH"),
        "Cyd": dead("4H"),
        "Dot": dead("KC QD JS AC"),
    }
    score = score_round(NAMES, entries, worked_rules())
    assert dict(score.points) == {"Ann": 62, "Bob": 192, "Cyd": 4, "Dot": 45}
    assert dict(score.position) == {"Cyd": 1, "Dot": 2, "Ann": 3, "Bob": 4}
    assert {p: score.breakdown[p].tier for p in NAMES} == {
        "Cyd": 600, "Dot": -100, "Ann": -200, "Bob": -300,
    }


def test_no_passport_ranked_by_points_in_penang():
    entries = {
        "Ann": Entry("no_passport", MELD_FREE_20),  # 144 points
        "Bob": dead("KC KH QD QC JC JH AC AH 10D 10C KD QH JD 10H 9S 9H"),
        "Cyd": dead("4H"),
        "Dot": dead("9C 8D"),
    }
    score = score_round(NAMES, entries, penang(tiers=(0, 1, 2, 3)))
    assert score.points["Ann"] == 144
    assert score.points["Bob"] == 168
    assert dict(score.position) == {"Cyd": 1, "Dot": 2, "Ann": 3, "Bob": 4}


def test_no_passport_last_is_a_house_rule():
    entries = {
        "Ann": Entry("no_passport", MELD_FREE_20),
        "Bob": dead("KC KH QD QC JC JH AC AH 10D 10C KD QH JD 10H 9S 9H"),
        "Cyd": dead("4H"),
        "Dot": dead("9C 8D"),
    }
    score = score_round(NAMES, entries, penang(no_passport_last=True))
    assert dict(score.position) == {"Cyd": 1, "Dot": 2, "Bob": 3, "Ann": 4}
