"""docs/RULES.md §6-§9 and §12: entries, validation, ranking and money of a round."""

import pytest

from scorekeeper.rules import (
    JOKER,
    Card,
    Entry,
    RoundError,
    RoundScore,
    next_dealer,
    parse_cards,
    playing_order,
    score_round,
)

from .helpers import (
    ALMOST_TIEN_HU_20,
    MELD_FREE_20,
    MELD_FREE_25,
    SETS_NO_RUN_20,
    TIEN_HU_20,
    TIEN_HU_25,
    H,
    assert_names,
    one_problem,
    penang,
    problems_of,
    round_error,
    rummi,
    worked_rules,
)

SEATS = ["A", "B", "C", "D"]


def dead(text=""):
    return Entry("dead", text)


def money(score):
    return dict(score.net_cents)


def breakdown(score, player):
    b = score.breakdown[player]
    return (b.tier, b.hu, b.joker_ace)


def assert_balanced(score):
    assert sum(score.net_cents.values()) == 0
    for player, cents in score.net_cents.items():
        b = score.breakdown[player]
        assert b.total == b.tier + b.hu + b.joker_ace == cents


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


# -- §7 errors -------------------------------------------------------------------------

NAMES = ["Ann", "Bob", "Cyd", "Dot"]


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
