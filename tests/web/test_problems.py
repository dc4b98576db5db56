"""The rules engine's reports in words (web/presenters/problems.py): every
code the engine can give has its words, which take the values the engine
gives it, plurals and all; and refusals that carry the engine's problems
(web/presenters/refusals.py) word them."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import services
from scorekeeper.backup import BackupError
from scorekeeper.rules import (
    CardError,
    Code,
    Entry,
    HouseRules,
    RoundError,
    RulesError,
    hand_problems,
    parse_cards,
    repeated_round,
    score_round,
)
from scorekeeper.web.presenters.problems import WORDS, words
from scorekeeper.web.presenters.refusals import refusal
from tests.rules.helpers import ALMOST_TIEN_HU_20, MELD_FREE_20, MELD_FREE_25, penang
from tests.rules.test_solver_limits import HARD, PENANG_25_THREE_AH

pytestmark = pytest.mark.any_database


def refused(call, error=RoundError):
    with pytest.raises(error) as caught:
        call()
    return caught.value


def round_problems(order, entries, rules=None):
    return refused(lambda: score_round(order, entries, rules or penang())).problems


def warnings(order, entries, rules=None):
    return score_round(order, entries, rules or penang()).warnings


def rules_problems(call):
    return refused(call, RulesError).problems


def dead(cards=""):
    return Entry("dead", cards)


def reports():
    """What the engine reports, from real calls: at least one of each code,
    and each code's variants (a joker or a card, with or without players...)."""
    largest, _, tien_hu_hard = HARD[2]  # 40 cards: the solver stops at its cap
    return [
        *round_problems(["Ann"], {"Ann": Entry("won", "AS XQ")}),
        *round_problems(["Ann", "Bob", "Ann"], {"Ann": dead("2C"), "Zed": dead()}),
        *round_problems(["Ann", "Bob"], {"Ann": Entry("hu"), "Bob": Entry("hu")}),
        *round_problems(["Ann", "Bob", "Cyd"], {p: Entry("hu") for p in ("Ann", "Bob", "Cyd")}),
        *round_problems(["Ann", "Bob", "Cyd", "Dot"], {
            "Ann": dead(MELD_FREE_20), "Bob": Entry("no_passport", "2S 3S 4S"), "Cyd": dead(),
            "Dot": dead()}),
        *round_problems(["Ann", "Bob"], {"Ann": Entry("hu", "5S"), "Bob": dead()}),
        *round_problems(["Ann", "Bob"], {"Ann": Entry("hu", "5S 6S"), "Bob": dead()}),
        *round_problems(["Ann", "Bob"], {"Ann": Entry("tien_hu", "AS"), "Bob": dead("AS AS")}),
        *round_problems(["Ann", "Bob"], {"Ann": Entry("tien_hu", ALMOST_TIEN_HU_20),
                                         "Bob": dead("JK " * 7)}),
        *round_problems(["Ann", "Bob"], {"Ann": dead(), "Bob": Entry(
            "no_passport", "5S 6S 7S 9H 10D QC AD 2H 3C 4D KH 9C JD 2C KD 4H 10C QH 8D 6D")}),
        *hand_problems(parse_cards("JK"), penang(jokers=0)),
        *hand_problems(parse_cards("JK " * 7), penang()),
        *hand_problems(parse_cards(PENANG_25_THREE_AH), penang()),
        *hand_problems(parse_cards(MELD_FREE_25 + " KC"), penang()),
        *warnings(["Ann", "Bob", "Cyd"], {"Ann": dead(), "Bob": dead("5S 6S 7S 9D"),
                                          "Cyd": Entry("hu")}),
        *warnings(["Ann", "Bob"], {"Ann": Entry("tien_hu", tien_hu_hard), "Bob": dead()},
                  largest),
        *repeated_round(4, {"Ann": dead("AS")}, {"Ann": dead("AS")}),
        refused(lambda: parse_cards("AS ZZ"), CardError),
        *rules_problems(lambda: HouseRules.from_json(["packs"])),
        *rules_problems(lambda: HouseRules.from_json({"bonus": 1})),
        *rules_problems(lambda: HouseRules.from_json({"bonus": 1, "extra": 2})),
        *rules_problems(lambda: HouseRules.from_json({
            "packs": "2", "extra_pack_players": "5", "no_passport_last": 1, "passport": 1,
            "tiers": [0, None]})),
        *rules_problems(lambda: HouseRules(packs=0, jokers=-1, hu_cents=-5, tiers=(),
                                           direction="sideways")),
        *rules_problems(lambda: penang(packs=9, tiers=(0,) * 7).check_limits()),
        *rules_problems(lambda: penang(tiers=(0, 101)).check_limits()),
    ]


REPORTS = reports()


def test_every_code_has_its_words():
    assert set(WORDS) == set(Code)


def test_the_engine_is_made_to_give_every_code_here():
    """A code added to the engine is given here too, so that its words are tried."""
    assert {report.code for report in REPORTS} == set(Code)


@pytest.mark.parametrize("report", REPORTS, ids=lambda report: str(report.code))
def test_each_report_is_worded_with_the_values_the_engine_gives(app, report):
    outside = words(report)  # python -m scorekeeper.rules: no app, English
    with app.test_request_context():
        inside = words(report)
    assert inside == outside
    assert outside and "%(" not in outside and "%)" not in outside


def said(code):
    return [words(report) for report in REPORTS if report.code == code]


def test_counts_take_their_plural():
    assert said(Code.WRONG_CARD_COUNT) == [
        "Ann is dead with 20 cards, but a dead hand holds at most 19 (20 were dealt)",
        "Bob has no passport, so the whole hand of 20 cards is needed; 3 were entered",
        "Ann has Tien Hu, so the whole hand of 20 cards is needed; 1 was entered"]
    assert said(Code.HU_WITH_CARDS) == [
        "Ann went out (Hu) but has a card entered: 5S",
        "Ann went out (Hu) but has cards entered: 5S 6S"]
    assert said(Code.NOT_A_RULE) == ["'bonus' is not a house rule",
                                     "'bonus', 'extra' are not house rules"]
    assert said(Code.DUPLICATE_PLAYER) == ["Ann is listed 2 times in the round"]
    assert said(Code.TOO_FEW_PLAYERS) == ["A round needs at least 2 players"]


def test_cards_jokers_and_their_holders():
    assert said(Code.TOO_MANY_COPIES) == [
        "3 copies of AS entered (Ann, Bob), but the deck has only 2",
        "7 jokers entered (Bob), but the deck has only 6",
        "1 joker entered, but the deck has only 0",
        "7 jokers entered, but the deck has only 6",
        "3 copies of AH entered, but the deck has only 2 where a hand of 25 cards or more is "
        "dealt"]
    assert said(Code.TOO_MANY_CARDS) == [
        "26 cards entered, but a hand holds at most 25 (the most these rules deal)"]


def test_winners_are_listed_as_a_sentence_lists_them():
    assert said(Code.SEVERAL_WINNERS) == [
        "Only one player can win a round, but Ann and Bob are both marked Hu or Tien Hu",
        "Only one player can win a round, but Ann, Bob, and Cyd are all marked Hu or Tien Hu"]


def test_a_hand_and_a_card_that_cannot_be_read():
    assert said(Code.UNREADABLE_CARD) == [
        'Ann: "XQ" (card 2) is not a card: write rank then suit, like AS, 10H, QD, or JK for '
        "a joker",
        '"ZZ" (card 2) is not a card: write rank then suit, like AS, 10H, QD, or JK for a joker']
    assert said(Code.UNKNOWN_OUTCOME) == [
        "Ann: the outcome 'won' is not one of dead, hu, tien_hu, no_passport"]


def test_a_tien_hu_that_does_not_meld_says_what_is_left():
    [text] = said(Code.TIEN_HU_NOT_MELDED)
    assert text.startswith("Ann's hand does not meld completely: the best is ")
    assert text.endswith(", leaving 9D (9 points)")


def test_house_rules_that_cannot_be():
    assert said(Code.RULE_NOT_A_CHOICE) == [
        "direction must be one of 'clockwise', 'anticlockwise', not 'sideways'"]
    assert said(Code.RULE_OUT_OF_RANGE) == ['"packs" must be a whole number from 1 to 4, not 9']
    assert said(Code.RULE_NEGATIVE) == ["jokers can't be negative", "hu_cents can't be negative"]
    assert said(Code.TIER_COUNT_OUT_OF_RANGE) == ['"tiers" must list 1 to 6 places, not 7']


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(
    st.sampled_from(["Ann", "Bob", "Cyd", "Dot", "Eve"]),
    st.tuples(st.sampled_from(["dead", "hu", "tien_hu", "no_passport", "won"]),
              st.lists(st.sampled_from(["AS", "AS", "5H", "6H", "7H", "JK", "QD", "ZZ", "10C"]),
                       max_size=22).map(" ".join)),
    max_size=5))
def test_whatever_the_round_its_problems_are_worded(hands):
    order = ["Ann", "Bob", "Cyd"]
    entries = {player: Entry(outcome, cards) for player, (outcome, cards) in hands.items()}
    try:
        found = score_round(order, entries, penang()).warnings
    except RoundError as error:
        found = error.problems
    for problem in found:
        assert "%(" not in words(problem)


def test_refusals_word_the_engines_problems(app):
    rules = refused(lambda: penang(packs=9).check_limits(), RulesError)
    unscorable = round_problems(["Ann", "Bob"], {"Ann": Entry("hu", "5S"), "Bob": dead()})
    with app.test_request_context():
        assert refusal(services.RulesRefused(rules.problems)) == (
            'These house rules can\'t be taken: "packs" must be a whole number from 1 to 4, '
            "not 9")
        assert refusal(services.Unscorable(3, unscorable)) == (
            "Round 3 can't be scored: Ann went out (Hu) but has a card entered: 5S")
        assert refusal(services.Unscorable(3, unscorable, new_rules=True)) == (
            "Round 3 can't be scored under these rules: Ann went out (Hu) but has a card "
            "entered: 5S")
        refused_part = BackupError("%(where)s: %(problems)s.", rules.problems,
                                   where="Session 1's house rules")
        assert refusal(refused_part) == (
            'Session 1\'s house rules: "packs" must be a whole number from 1 to 4, not 9.')
        assert refusal(services.ServiceError("This session has ended")) == (
            "This session has ended")
