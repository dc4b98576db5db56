"""docs/RULES.md §7: validation of a round, the errors that refuse it and the
warnings that ask first."""

import pytest

from scorekeeper.rules import (
    JOKER,
    Card,
    Entry,
    RoundError,
    parse_cards,
    score_round,
)

from .helpers import (
    ALMOST_TIEN_HU_20,
    MELD_FREE_20,
    MELD_FREE_25,
    NAMES,
    SETS_NO_RUN_20,
    TIEN_HU_20,
    H,
    assert_balanced,
    assert_names,
    dead,
    one_problem,
    penang,
    problems_of,
    round_error,
    rummi,
)

# -- §7 errors -------------------------------------------------------------------------

def test_unreadable_card():
    problems = round_error(NAMES, {"Ann": dead("AS XQ 3H"), "Bob": dead("2C"), "Cyd": dead(),
                                   "Dot": dead("5D")}, penang())
    problem = one_problem(problems, "unreadable_card")
    assert problem.players == ("Ann",)
    assert problem.values == {"player": "Ann", "token": "XQ", "position": 2}


def test_unreadable_card_in_a_token_list():
    problems = round_error(["Ann", "Bob"], {"Ann": dead(["AS", "3H", "1S"]), "Bob": dead("2C")},
                           penang())
    problem = one_problem(problems, "unreadable_card")
    assert problem.players == ("Ann",)
    assert problem.values == {"player": "Ann", "token": "1S", "position": 3}


def test_unreadable_cards_of_several_players():
    problems = round_error(["Ann", "Bob"], {"Ann": dead("AS ??"), "Bob": dead("2C 11C")}, penang())
    found = problems_of(problems, "unreadable_card")
    assert {p for problem in found for p in problem.players} == {"Ann", "Bob"}


def test_too_many_copies_across_entries():
    entries = {"Ann": dead("AS AS 2D"), "Bob": dead("AS 7C"), "Cyd": dead("3H"), "Dot": dead("4C")}
    problem = one_problem(round_error(NAMES, entries, rummi()), "too_many_copies")
    assert set(problem.players) == {"Ann", "Bob"}
    assert problem.values == {"card": Card(1, "S"), "count": 3, "limit": 2,
                              "players": ("Ann", "Bob")}


def test_too_many_copies_in_one_entry():
    entries = {"Ann": dead("QH QH QH"), "Bob": dead("7C"), "Cyd": dead("3H"), "Dot": dead("4C")}
    problem = one_problem(round_error(NAMES, entries, rummi()), "too_many_copies")
    assert problem.players == ("Ann",)
    assert_names(problem, players=["Ann"], cards=[Card(12, "H")])


def test_three_packs_from_five_players_in_penang():
    names = [*NAMES, "Eve"]
    entries = {"Ann": dead("QH QH 2C"), "Bob": dead("QH 7C"), "Cyd": dead("3H"), "Dot": dead("4C"),
               "Eve": dead("5S")}
    score = score_round(names, entries, penang())  # three QH: fine with three packs
    assert_balanced(score)
    entries["Eve"] = dead("QH 5S")
    problem = one_problem(round_error(names, entries, penang()), "too_many_copies")
    assert set(problem.players) == {"Ann", "Bob", "Eve"}
    assert_names(problem, players=["Ann", "Bob", "Eve"], cards=[Card(12, "H")])
    # Four players: two packs only.
    four = {"Ann": dead("QH QH"), "Bob": dead("QH 7C"), "Cyd": dead("3H"), "Dot": dead("4C")}
    problem = one_problem(round_error(NAMES, four, penang()), "too_many_copies")
    assert set(problem.players) == {"Ann", "Bob"}


@pytest.mark.parametrize("preset, jokers", [(penang, 6), (rummi, 8)])
def test_too_many_jokers(preset, jokers):
    rules = preset()
    first = jokers // 2
    entries = {
        "Ann": dead(" ".join(["JK"] * first) + " 2C"),
        "Bob": dead(" ".join(["JK"] * (jokers - first)) + " 3C"),
        "Cyd": dead("4H"),
        "Dot": dead("5H"),
    }
    assert_balanced(score_round(NAMES, entries, rules))  # exactly the deck's jokers: fine
    entries["Dot"] = dead("5H JK")
    problem = one_problem(round_error(NAMES, entries, rules), "too_many_copies")
    assert set(problem.players) == {"Ann", "Bob", "Dot"}
    assert problem.values == {"card": JOKER, "count": jokers + 1, "limit": jokers,
                              "players": ("Ann", "Bob", "Dot")}


def test_joker_count_is_a_house_rule():
    entries = {"Ann": dead("JK JK JK JK JK JK 2C"), "Bob": dead("3C"), "Cyd": dead("4H"),
               "Dot": dead("5H")}
    problem = one_problem(round_error(NAMES, entries, penang(jokers=4)), "too_many_copies")
    assert problem.players == ("Ann",)


def _others(names, skip):
    filler = {"Ann": "KC", "Bob": "9C", "Cyd": "8D", "Dot": "7C", "Eve": "6D"}
    return {n: dead(filler[n]) for n in names if n != skip}


@pytest.mark.parametrize(
    "preset, players, hand",
    [
        (rummi, 4, MELD_FREE_20),     # 20 dealt: 20 left is too many
        (penang, 4, MELD_FREE_20),
        (penang, 3, MELD_FREE_25),    # 25 dealt with three players
    ],
)
def test_dead_with_the_dealt_count(preset, players, hand):
    names = NAMES[:players]
    entries = _others(names, "Ann")
    entries["Ann"] = dead(hand)
    problem = one_problem(round_error(names, entries, preset()), "wrong_card_count")
    assert problem.players == ("Ann",)
    dealt = len(hand.split())
    assert problem.values == {"player": "Ann", "outcome": "dead", "count": dealt,
                              "dealt": dealt, "most": dealt - 1}
    # One card fewer is fine (warnings allowed).
    entries["Ann"] = dead(" ".join(hand.split()[:-1]))
    assert_balanced(score_round(names, entries, preset()))


def test_dead_with_more_than_dealt():
    entries = _others(NAMES, "Ann")
    entries["Ann"] = dead(MELD_FREE_20 + " KC")
    problem = one_problem(round_error(NAMES, entries, penang()), "wrong_card_count")
    assert problem.players == ("Ann",)


@pytest.mark.parametrize("outcome", ["no_passport", "tien_hu"])
@pytest.mark.parametrize("drop, add", [(1, ""), (0, " KC"), (20, "")])
def test_full_hand_outcomes_need_the_dealt_count(outcome, drop, add):
    base = TIEN_HU_20 if outcome == "tien_hu" else MELD_FREE_20
    cards = base.split()
    text = " ".join(cards[: len(cards) - drop]) + add
    entries = _others(NAMES, "Ann")
    entries["Ann"] = Entry(outcome, text)
    problem = one_problem(round_error(NAMES, entries, penang()), "wrong_card_count")
    assert problem.players == ("Ann",)
    assert problem.values == {"player": "Ann", "outcome": outcome,
                              "count": len(cards) - drop + bool(add), "dealt": 20}


def test_penang_three_players_full_hand_is_25():
    names = NAMES[:3]
    entries = _others(names, "Ann")
    entries["Ann"] = Entry("no_passport", MELD_FREE_20)
    problem = one_problem(round_error(names, entries, penang()), "wrong_card_count")
    assert problem.players == ("Ann",)
    entries["Ann"] = Entry("no_passport", MELD_FREE_25)
    assert_balanced(score_round(names, entries, penang()))


@pytest.mark.parametrize(
    "first, second",
    [("hu", "hu"), ("hu", "tien_hu"), ("tien_hu", "tien_hu")],
)
def test_several_winners(first, second):
    entries = {
        "Ann": Entry(first, TIEN_HU_20 if first == "tien_hu" else ""),
        "Bob": Entry(second, "8C 8D 8H 9C 10C JC QC KC AC 2D 3D 4D 5D 6D 7D 8D JK 9H 10H JH"
                     if second == "tien_hu" else ""),
        "Cyd": dead("4H"),
        "Dot": dead("5H"),
    }
    problem = one_problem(round_error(NAMES, entries, rummi()), "several_winners")
    assert set(problem.players) == {"Ann", "Bob"}
    assert problem.values == {"players": ("Ann", "Bob")}


def test_three_winners_are_named_in_playing_order():
    entries = {"Ann": Entry("hu"), "Bob": Entry("hu"), "Cyd": Entry("hu"), "Dot": dead("5H")}
    problem = one_problem(round_error(NAMES, entries, rummi()), "several_winners")
    assert problem.values == {"players": ("Ann", "Bob", "Cyd")}


def test_hu_with_cards():
    entries = {"Ann": Entry("hu", "5S"), "Bob": dead("3C"), "Cyd": dead("4H"), "Dot": dead("5H")}
    problem = one_problem(round_error(NAMES, entries, penang()), "hu_with_cards")
    assert problem.players == ("Ann",)
    assert problem.values == {"player": "Ann", "cards": (Card(5, "S"),)}


def test_tien_hu_not_melded_shows_what_is_left():
    entries = {"Ann": Entry("tien_hu", ALMOST_TIEN_HU_20), "Bob": dead(), "Cyd": dead(),
               "Dot": dead()}
    problem = one_problem(round_error(NAMES, entries, penang()), "tien_hu_not_melded")
    assert problem.players == ("Ann",)
    assert problem.values["deadwood"] == (Card(9, "D"),)
    assert problem.values["points"] == 9
    assert sorted(card for meld in problem.values["melds"] for card in meld) == sorted(
        H(ALMOST_TIEN_HU_20)[:-1])


def test_has_passport_penang_any_meld():
    # The only meld in this hand is 5S 6S 7S.
    hand = "5S 6S 7S 9H 10D QC AD 2H 3C 4D KH 9C JD 2C KD 4H 10C QH 8D 6D"
    assert len(hand.split()) == 20
    entries = _others(NAMES, "Ann")
    entries["Ann"] = Entry("no_passport", hand)
    problem = one_problem(round_error(NAMES, entries, penang()), "has_passport")
    assert problem.players == ("Ann",)
    assert problem.values == {"player": "Ann", "meld": tuple(H("5S 6S 7S"))}


def test_no_passport_with_a_set_is_an_error_in_penang():
    entries = _others(NAMES, "Ann")
    entries["Ann"] = Entry("no_passport", SETS_NO_RUN_20)
    problem = one_problem(round_error(NAMES, entries, penang()), "has_passport")
    assert problem.players == ("Ann",)
    assert_names(problem, players=["Ann"])


def test_no_passport_with_a_set_but_no_run_is_fine_in_rummi():
    entries = _others(NAMES, "Ann")
    entries["Ann"] = Entry("no_passport", SETS_NO_RUN_20)
    score = score_round(NAMES, entries, rummi())
    assert score.warnings == []
    assert score.points["Ann"] == sum(rummi().points(c) for c in parse_cards(SETS_NO_RUN_20))
    assert_balanced(score)


def test_no_passport_with_a_run_is_an_error_in_rummi():
    hand = SETS_NO_RUN_20.replace("6H 6H", "4S 6H")  # 2S 3S 4S is a run
    entries = _others(NAMES, "Ann")
    entries["Ann"] = Entry("no_passport", hand)
    problem = one_problem(round_error(NAMES, entries, rummi()), "has_passport")
    assert problem.players == ("Ann",)
    assert_names(problem, players=["Ann"], cards=[Card(4, "S")])


def test_missing_entry():
    entries = {"Ann": dead("2C"), "Bob": dead("3C"), "Cyd": dead("4H")}
    problem = one_problem(round_error(NAMES, entries, penang()), "missing_entry")
    assert problem.players == ("Dot",)
    assert_names(problem, players=["Dot"])


def test_unknown_player():
    entries = _others(NAMES, None)
    entries["Zed"] = dead("9S")
    problem = one_problem(round_error(NAMES, entries, penang()), "unknown_player")
    assert problem.players == ("Zed",)
    assert_names(problem, players=["Zed"])


def test_unknown_outcome():
    entries = _others(NAMES, "Ann")
    entries["Ann"] = Entry("won", "2S")
    problem = one_problem(round_error(NAMES, entries, penang()), "unknown_outcome")
    assert problem.players == ("Ann",)
    assert problem.values == {"player": "Ann", "outcome": "won",
                              "outcomes": ("dead", "hu", "tien_hu", "no_passport")}


@pytest.mark.parametrize("order", [[], ["Ann"]])
def test_too_few_players(order):
    entries = {p: dead("2C") for p in order}
    problems = round_error(order, entries, penang())
    assert one_problem(problems, "too_few_players").values == {"least": 2}


def test_duplicate_player():
    entries = {"Ann": dead("2C"), "Bob": dead("3C")}
    problem = one_problem(round_error(["Ann", "Bob", "Ann"], entries, penang()), "duplicate_player")
    assert problem.players == ("Ann",)
    assert problem.values == {"player": "Ann", "times": 2}


def test_all_problems_reported_at_once():
    entries = {
        "Ann": dead("AS ZZ"),
        "Bob": Entry("hu", "4C"),
        "Cyd": Entry("no_passport", "2S 3S"),
    }
    problems = round_error(NAMES, entries, penang())
    codes = {p.code for p in problems}
    assert {"unreadable_card", "hu_with_cards", "wrong_card_count", "missing_entry"} <= codes
    assert one_problem(problems, "unreadable_card").players == ("Ann",)
    assert one_problem(problems, "hu_with_cards").players == ("Bob",)
    assert one_problem(problems, "wrong_card_count").players == ("Cyd",)
    assert one_problem(problems, "missing_entry").players == ("Dot",)


def test_round_error_is_a_value_error():
    with pytest.raises(ValueError):
        score_round(NAMES, {}, penang())
    with pytest.raises(RoundError):
        score_round(NAMES, {}, penang())


# -- §7 warnings -----------------------------------------------------------------------

def test_last_one_standing_may_hold_a_meld():
    entries = {"Ann": dead("5S 6S 7S 9D"), "Bob": dead("KD"), "Cyd": dead("2H 9C"),
               "Dot": dead("4C 8H")}
    score = score_round(NAMES, entries, penang())
    assert score.warnings == []


@pytest.mark.parametrize("preset", [penang, rummi])
def test_two_dead_players_with_melds_are_warned(preset):
    entries = {"Ann": dead("5S 6S 7S 9D"), "Bob": dead("QH QD QC 2C"), "Cyd": dead("2H 9C"),
               "Dot": dead("4C 8H")}
    score = score_round(NAMES, entries, preset())
    warned = problems_of(score.warnings, "meld_in_dead_hand")
    assert {p for w in warned for p in w.players} == {"Ann", "Bob"}
    assert all(w.code == "meld_in_dead_hand" for w in score.warnings)
    for warning in warned:
        if "Ann" in warning.players:
            assert_names(warning, players=["Ann"], cards=H("5S 6S 7S"))
        if "Bob" in warning.players:
            assert_names(warning, players=["Bob"], cards=H("QH QD QC"))
    assert_balanced(score)  # the round still scores


def test_meld_in_dead_hand_in_a_hu_round():
    entries = {"Ann": dead("5S 6S 7S 9D"), "Bob": Entry("hu"), "Cyd": dead("2H 9C"),
               "Dot": dead("4C 8H")}
    score = score_round(NAMES, entries, penang())
    warning = one_problem(score.warnings, "meld_in_dead_hand")
    assert warning.players == ("Ann",)
    assert warning.values == {"player": "Ann", "meld": tuple(H("5S 6S 7S"))}
    assert len(score.warnings) == 1
    assert score.winner == "Bob"


def test_meld_with_jokers_in_dead_hand_is_warned():
    entries = {"Ann": dead("JK JK 9D"), "Bob": Entry("hu"), "Cyd": dead("2H 9C"),
               "Dot": dead("4C 8H")}
    warning = one_problem(score_round(NAMES, entries, penang()).warnings, "meld_in_dead_hand")
    assert warning.players == ("Ann",)
    assert_names(warning, players=["Ann"], cards=H("JK 9D"))


def test_dead_without_cards_suggests_hu():
    entries = {"Ann": dead(""), "Bob": dead("KD"), "Cyd": dead("2H 9C"), "Dot": dead("4C 8H")}
    score = score_round(NAMES, entries, penang())
    warning = one_problem(score.warnings, "dead_without_cards")
    assert warning.players == ("Ann",)
    assert warning.values == {"player": "Ann"}
    assert len(score.warnings) == 1
    assert score.points["Ann"] == 0
    assert_balanced(score)


def test_warnings_and_errors_together_raise():
    entries = {"Ann": dead("5S 6S 7S 9D"), "Bob": dead("QH QD QC 2C"), "Cyd": dead("2H ZZ"),
               "Dot": dead("4C 8H")}
    problems = round_error(NAMES, entries, penang())
    assert one_problem(problems, "unreadable_card").players == ("Cyd",)
