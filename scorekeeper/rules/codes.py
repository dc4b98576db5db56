"""What the engine reports, by code: every problem and warning it can give.
The engine has no language: a report is a code with the values its words
need (numbers, cards, players), and the web layer words each code
(web/presenters/problems.py, whose tests hold it to this list)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Code(StrEnum):
    """Each report the engine can make; docs/rules-api.md lists their values."""

    # A card's notation (CardError, and a round's hand)
    UNREADABLE_CARD = "unreadable_card"
    # A round that can't be scored (RoundError)
    TOO_FEW_PLAYERS = "too_few_players"
    DUPLICATE_PLAYER = "duplicate_player"
    UNKNOWN_PLAYER = "unknown_player"
    MISSING_ENTRY = "missing_entry"
    UNKNOWN_OUTCOME = "unknown_outcome"
    SEVERAL_WINNERS = "several_winners"
    WRONG_CARD_COUNT = "wrong_card_count"
    HU_WITH_CARDS = "hu_with_cards"
    TOO_MANY_COPIES = "too_many_copies"
    TIEN_HU_NOT_MELDED = "tien_hu_not_melded"
    HAS_PASSPORT = "has_passport"
    # A hand no deal gives (hand_problems), besides too many copies
    TOO_MANY_CARDS = "too_many_cards"
    # What the table confirms before a round is saved (RoundScore.warnings, repeated_round)
    TIEN_HU_UNCHECKED = "tien_hu_unchecked"
    DEAD_WITHOUT_CARDS = "dead_without_cards"
    MELD_IN_DEAD_HAND = "meld_in_dead_hand"
    SAME_AS_LAST_ROUND = "same_as_last_round"
    # House rules that can't be (RulesError)
    RULE_NOT_A_CHOICE = "rule_not_a_choice"
    RULE_BELOW_ONE = "rule_below_one"
    RULE_NEGATIVE = "rule_negative"
    TIERS_REFUSED = "tiers_refused"
    RULES_NOT_AN_OBJECT = "rules_not_an_object"
    NOT_A_RULE = "not_a_rule"
    RULE_NOT_WHOLE = "rule_not_whole"
    RULE_NOT_WHOLE_OR_NULL = "rule_not_whole_or_null"
    RULE_NOT_TRUE_OR_FALSE = "rule_not_true_or_false"
    RULE_NOT_TEXT = "rule_not_text"
    TIERS_NOT_WHOLE = "tiers_not_whole"
    RULE_OUT_OF_RANGE = "rule_out_of_range"
    TIER_COUNT_OUT_OF_RANGE = "tier_count_out_of_range"
    TIER_OUT_OF_RANGE = "tier_out_of_range"


def logged(code: Code, values: Mapping[str, object]) -> str:
    """A report as logs and tracebacks show it: ``too_many_copies(card=Card(AC), count=3)``."""
    return f"{code}({', '.join(f'{key}={value!r}' for key, value in values.items())})"
