"""The rules engine: pure Python, standard library only (docs/RULES.md). It
has no language: what it reports are codes with their values (codes.Code)."""

from .cards import JOKER, Card, CardError, format_cards, parse_card, parse_cards
from .codes import Code
from .dealer import next_dealer, playing_order
from .house import PRESETS, HouseRules, RulesError, preset_of
from .melds import Arrangement, best_melds, find_meld, is_meld
from .problems import Problem
from .replay import Played, Replayed, WhatIf, what_if
from .scoring import (
    Breakdown,
    Entry,
    Payouts,
    RoundError,
    RoundScore,
    hand_problems,
    payouts,
    repeated_round,
    same_hands,
    score_round,
    shares_a_hand,
)
from .settlement import Transfer, settle

__all__ = [
    "JOKER", "PRESETS", "Arrangement", "Breakdown", "Card", "CardError", "Code", "Entry",
    "HouseRules", "Payouts", "Played", "Problem", "Replayed", "RoundError", "RoundScore",
    "RulesError", "Transfer", "WhatIf",
    "best_melds", "find_meld", "format_cards", "hand_problems", "is_meld", "next_dealer",
    "parse_card", "parse_cards", "payouts", "playing_order", "preset_of", "repeated_round",
    "same_hands", "score_round", "settle", "shares_a_hand", "what_if",
]
