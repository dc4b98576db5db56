"""docs/RULES.md §9: the money of a round, in integer cents: tiers, Hu and Tien
Hu, the joker/ace adjustment and the other schemes."""

import pytest

from scorekeeper.rules import (
    Card,
    Entry,
    score_round,
)

from .helpers import (
    MELD_FREE_20,
    NAMES,
    TIEN_HU_20,
    TIEN_HU_25,
    assert_balanced,
    assert_names,
    dead,
    money,
    one_problem,
    penang,
    round_error,
    rummi,
)

# -- §9 money: tiers -------------------------------------------------------------------

def four(points_text, **rules_changes):
    entries = {n: dead(t) for n, t in zip(NAMES, points_text, strict=True)}
    rules = penang(**rules_changes)
    return score_round(NAMES, entries, rules)


def test_tie_over_tiers_one_and_two_pays_the_average():
    score = four(["5S 5H", "10C", "2D", "KS QS"], tiers=(0, 1, 2, 3))
    assert money(score) == {"Ann": -150, "Bob": -150, "Cyd": 600, "Dot": -300}


def test_tie_average_rounds_half_up():
    # 1.5 units of 101 cents = 151.5 -> 152.
    score = four(["5S 5H", "10C", "2D", "KS QS"], tiers=(0, 1, 2, 3), unit_cents=101)
    assert money(score) == {"Ann": -152, "Bob": -152, "Cyd": 607, "Dot": -303}
    assert_balanced(score)


def test_tie_average_rounds_to_nearest_cent():
    # Three tied over tiers 1,1,2: 4/3 units = 133.33 -> 133.
    score = four(["2D", "5S", "5H", "5C"], tiers=(0, 1, 1, 2))
    assert money(score) == {"Ann": 399, "Bob": -133, "Cyd": -133, "Dot": -133}
    # Three tied over tiers 0,1,1: 2/3 units = 66.67 -> 67.
    score = four(["2D", "5S", "5H", "5C"], tiers=(0, 0, 1, 1))
    assert money(score) == {"Ann": 201, "Bob": -67, "Cyd": -67, "Dot": -67}


def test_positions_beyond_the_tiers_use_the_last_tier():
    names = [*NAMES, "Eve", "Fay"]
    texts = ["2C", "3C", "4C", "5C", "6C", "7C"]
    entries = {n: dead(t) for n, t in zip(names, texts, strict=True)}
    score = score_round(names, entries, penang(tiers=(0, 1, 2, 3)))
    assert money(score) == {"Ann": 1200, "Bob": -100, "Cyd": -200, "Dot": -300, "Eve": -300,
                            "Fay": -300}


def test_tie_spanning_beyond_the_tiers():
    names = [*NAMES, "Eve"]
    texts = ["2C", "3C", "9C", "9D", "9H"]
    entries = {n: dead(t) for n, t in zip(names, texts, strict=True)}
    score = score_round(names, entries, penang(tiers=(0, 1, 2)))
    assert dict(score.position) == {"Ann": 1, "Bob": 2, "Cyd": 3, "Dot": 3, "Eve": 3}
    assert money(score) == {"Ann": 700, "Bob": -100, "Cyd": -200, "Dot": -200, "Eve": -200}


def test_tied_for_first_split_everything():
    score = four(["5S", "5H", "7D", "9C"], tiers=(0, 1, 2, 3))
    assert money(score) == {"Ann": 250, "Bob": 250, "Cyd": -200, "Dot": -300}


@pytest.mark.parametrize(
    "order, expected",
    [
        (["Ann", "Bob", "Cyd", "Dot"], {"Ann": 253, "Bob": 252}),
        (["Bob", "Ann", "Cyd", "Dot"], {"Ann": 252, "Bob": 253}),
        (["Cyd", "Dot", "Bob", "Ann"], {"Ann": 252, "Bob": 253}),
    ],
)
def test_leftover_cent_goes_to_the_first_winner_in_playing_order(order, expected):
    # Cyd pays 2 x 101, Dot 3 x 101: 505 cents for two winners.
    entries = {"Ann": dead("5S"), "Bob": dead("5H"), "Cyd": dead("7D"), "Dot": dead("9C")}
    score = score_round(order, entries, penang(tiers=(0, 1, 2, 3), unit_cents=101))
    assert money(score) == {**expected, "Cyd": -202, "Dot": -303}


@pytest.mark.parametrize(
    "order, sixty_sevens",
    [
        (["Ann", "Bob", "Cyd", "Dot"], {"Ann", "Bob"}),
        (["Cyd", "Ann", "Bob", "Dot"], {"Cyd", "Ann"}),
        (["Dot", "Bob", "Cyd", "Ann"], {"Bob", "Cyd"}),
    ],
)
def test_leftover_cents_one_each_in_playing_order(order, sixty_sevens):
    # Three tied first, Dot pays 200: 66 each and two leftover cents.
    entries = {"Ann": dead("5S"), "Bob": dead("5H"), "Cyd": dead("5D"), "Dot": dead("9C")}
    score = score_round(order, entries, penang(tiers=(0, 1, 2, 2)))
    expected = {p: (67 if p in sixty_sevens else 66) for p in ("Ann", "Bob", "Cyd")}
    assert money(score) == {**expected, "Dot": -200}


@pytest.mark.parametrize("unit", [100, 101, 7])
def test_everyone_tied_pays_nothing(unit):
    score = four(["5S", "5H", "5D", "5C"], unit_cents=unit)
    assert money(score) == dict.fromkeys(NAMES, 0)


def test_unit_is_a_house_rule():
    score = four(["2C", "3C", "4C", "5C"], tiers=(0, 1, 2, 3), unit_cents=250)
    assert money(score) == {"Ann": 1500, "Bob": -250, "Cyd": -500, "Dot": -750}


# -- §9 money: Hu and Tien Hu ------------------------------------------------------------

def test_hu_pays_the_hu_amount_from_everyone():
    names = [*NAMES, "Eve"]
    entries = {"Ann": dead("JK AS AS"), "Bob": dead("3C"), "Cyd": Entry("hu"), "Dot": dead(),
               "Eve": dead("KD QH")}
    score = score_round(names, entries, penang())  # joker/ace adjustment off
    assert money(score) == {"Ann": -300, "Bob": -300, "Cyd": 1200, "Dot": -300, "Eve": -300}
    assert all(score.breakdown[p].tier == 0 and score.breakdown[p].joker_ace == 0 for p in names)
    score = score_round(names, entries, penang(hu_cents=250))
    assert money(score)["Cyd"] == 1000


def test_tien_hu_pays_the_tien_hu_amount_without_adjustment():
    entries = {"Ann": Entry("tien_hu", TIEN_HU_20), "Bob": dead(), "Cyd": dead(), "Dot": dead()}
    score = score_round(NAMES, entries, rummi())
    assert score.winner == "Ann"
    assert score.warnings == []
    assert money(score) == {"Ann": 1800, "Bob": -600, "Cyd": -600, "Dot": -600}
    for p in NAMES:
        assert score.breakdown[p].joker_ace == 0
        assert score.breakdown[p].tier == 0
    assert score.position["Ann"] == 1
    assert score.points["Ann"] == 0


def test_tien_hu_others_may_enter_anything():
    entries = {
        "Ann": Entry("tien_hu", TIEN_HU_20),
        "Bob": dead("JK JK AC AC"),                 # jokers and aces: no adjustment
        "Cyd": dead(MELD_FREE_20.replace("AS", "AD")),  # a full hand: count not checked
        "Dot": dead("QH QD QC"),                    # a meld: no warning
    }
    score = score_round(NAMES, entries, rummi(tien_hu_cents=500))
    assert score.warnings == []
    assert money(score) == {"Ann": 1500, "Bob": -500, "Cyd": -500, "Dot": -500}


def test_tien_hu_copies_still_checked():
    entries = {"Ann": Entry("tien_hu", TIEN_HU_20), "Bob": dead("AS"), "Cyd": dead(), "Dot": dead()}
    problem = one_problem(round_error(NAMES, entries, rummi()), "too_many_copies")
    assert set(problem.players) == {"Ann", "Bob"}
    assert_names(problem, players=["Ann", "Bob"], cards=[Card(1, "S")])


def test_tien_hu_with_three_players_in_penang():
    names = NAMES[:3]
    entries = {"Ann": dead("2C"), "Bob": Entry("tien_hu", TIEN_HU_25), "Cyd": dead()}
    score = score_round(names, entries, penang())
    assert money(score) == {"Ann": -600, "Bob": 1200, "Cyd": -600}


# -- §9 joker/ace adjustment ---------------------------------------------------------

@pytest.mark.parametrize(
    "text, units",
    [
        ("5D", 0),
        ("JK", 1),
        ("JK JK", 2),
        ("AC", 1),
        ("AC AD", 2),          # different suits: no twin
        ("AC AC", 4),          # twins count 2 each
        ("AC AC AD JK", 6),
        ("AC AC AD AD", 8),
    ],
)
def test_joker_ace_units(text, units):
    # Two players, unit 0.50: the difference is settled, so Ann gets 50 x (units_B - units_A).
    entries = {"Ann": dead(text), "Bob": dead("KD")}
    score = score_round(["Ann", "Bob"], entries, rummi())
    assert score.breakdown["Ann"].joker_ace == 50 * (0 - units)
    assert score.breakdown["Bob"].joker_ace == 50 * units


def test_joker_ace_formula_with_several_players():
    # units: Ann 1 (JK), Bob 4 (AC AC), Cyd 0, Dot 2 (AS AH); sum 7, n 4.
    entries = {"Ann": dead("JK 7H"), "Bob": dead("AC AC 2S"), "Cyd": dead("3D"),
               "Dot": dead("AS AH")}
    score = score_round(NAMES, entries, rummi(joker_ace_cents=30))
    expected = {"Ann": 30 * (7 - 4), "Bob": 30 * (7 - 16), "Cyd": 30 * 7, "Dot": 30 * (7 - 8)}
    assert {p: score.breakdown[p].joker_ace for p in NAMES} == expected
    assert_balanced(score)


def test_joker_ace_adjustment_off_in_penang():
    entries = {"Ann": dead("JK 7H"), "Bob": dead("AC AC 2S"), "Cyd": dead("3D"),
               "Dot": dead("AS AH")}
    score = score_round(NAMES, entries, penang())
    assert all(score.breakdown[p].joker_ace == 0 for p in NAMES)


def test_joker_ace_counts_no_passport_hands():
    entries = {"Ann": Entry("no_passport", MELD_FREE_20), "Bob": dead("3C"), "Cyd": Entry("hu"),
               "Dot": dead("4D")}
    score = score_round(NAMES, entries, rummi())
    # MELD_FREE_20 holds one ace (AS): units Ann 1, others 0; n 4.
    assert {p: score.breakdown[p].joker_ace for p in NAMES} == {
        "Ann": -150, "Bob": 50, "Cyd": 50, "Dot": 50,
    }


# -- §9 alternative schemes -------------------------------------------------------------

def test_per_point_scheme():
    entries = {"Ann": dead("10S"), "Bob": dead("KH QH"), "Cyd": dead("KS QS JS 3D")}
    score = score_round(["Ann", "Bob", "Cyd"], entries, penang(scheme="per_point"))
    # points 10, 20, 33; sum 63; n 3; 10 cents a point.
    assert dict(score.points) == {"Ann": 10, "Bob": 20, "Cyd": 33}
    assert money(score) == {"Ann": 330, "Bob": 30, "Cyd": -360}
    assert {p: score.breakdown[p].tier for p in score.order} == money(score)


def test_per_point_rate_is_a_house_rule():
    entries = {"Ann": dead("10S"), "Bob": dead("KH QH")}
    score = score_round(["Ann", "Bob"], entries, penang(scheme="per_point", point_cents=25))
    assert money(score) == {"Ann": 250, "Bob": -250}


def test_per_point_with_adjustment_keeps_the_parts_apart():
    entries = {"Ann": dead("JK"), "Bob": dead("KH QH")}
    score = score_round(["Ann", "Bob"], entries, rummi(scheme="per_point"))
    assert score.breakdown["Ann"].tier == 10 * (40 - 40) and score.breakdown["Bob"].tier == 0
    assert_balanced(score)


def test_per_point_hu_round_uses_hu_amounts():
    entries = {"Ann": dead("10S"), "Bob": dead("KH QH"), "Cyd": Entry("hu")}
    score = score_round(["Ann", "Bob", "Cyd"], entries, penang(scheme="per_point"))
    assert money(score) == {"Ann": -300, "Bob": -300, "Cyd": 600}


@pytest.mark.parametrize("winner", [None, "hu", "tien_hu"])
def test_scheme_none_moves_no_money(winner):
    entries = {"Ann": dead("JK AC AC"), "Bob": dead("KH QH"), "Cyd": dead("2C"), "Dot": dead("3C")}
    if winner == "hu":
        entries["Cyd"] = Entry("hu")
    if winner == "tien_hu":
        entries["Cyd"] = Entry("tien_hu", TIEN_HU_20.replace("AS 2S 3S", "AD 2D 3D"))
    score = score_round(NAMES, entries, rummi(scheme="none"))
    assert money(score) == dict.fromkeys(NAMES, 0)
    assert all(score.breakdown[p].total == 0 for p in NAMES)
    assert score.points["Bob"] == 20


def test_hu_round_in_rummi_still_adjusts_for_jokers_and_aces():
    entries = {"Ann": dead("JK JK"), "Bob": Entry("hu"), "Cyd": dead("2C")}
    score = score_round(["Ann", "Bob", "Cyd"], entries, rummi())
    # units Ann 2; sum 2; n 3.
    assert {p: score.breakdown[p].joker_ace for p in ("Ann", "Bob", "Cyd")} == {
        "Ann": -200, "Bob": 100, "Cyd": 100,
    }
    assert money(score) == {"Ann": -500, "Bob": 700, "Cyd": -200}
