"""The round form's JavaScript reads cards as the engine does: every card in
every spelling, the engine's own test cases and a few hundred random hands go
through static/js/core/cards.js (by node) and through rules.cards, and must
come out alike, card by card and in points."""

import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from scorekeeper.rules import HouseRules
from scorekeeper.rules.cards import scan_cards

from . import test_cards

RUN = Path(__file__).parents[1] / "js" / "cards_cases.js"
SUIT_SPELLINGS = {"S": "Ss♠♤", "H": "Hh♥♡", "D": "Dd♦♢", "C": "Cc♣♧"}
JOKERS = ["JK", "jk", "Jk", "JOKER", "joker", "jOkEr", "★", "🃏"]
# Python's whitespace and JavaScript's \s differ (\x1c-\x1f and \x85; \ufeff):
# both kinds are in the random hands, as is text that upper-cases oddly (ſ is S).
SEPARATORS = [" ", ",", ";", ", ", "  ", "\t", "\n", " ; ", "\u3000", "\xa0", "\x1c", "\x85",
              "\u2028", "\ufeff", ""]
JUNK = ["1S", "11H", "AX", "XX", "A", "10", "H", "♠", "JKS", "0H", "ſ", "aſ", "ß", "ǰ", "K\ufe0f♦",
        "Ⅹ", "١٠h", "１０H", "\ufeffAS", "A\u200bS", "🂡", "Q♠\ufe0f\ufe0f", "-", "."]


def every_card_spelled() -> list[str]:
    ranks = {**test_cards.RANK_TOKENS, "a": 1, "t": 10, "j": 11, "q": 12, "k": 13}
    cards = [rank + suit + tail for rank in ranks for spellings in SUIT_SPELLINGS.values()
             for suit in spellings for tail in ("", "\ufe0f")]
    return cards + JOKERS


def the_engines_cases() -> list[str]:
    """The texts of the engine's own parametrized card tests (tests/rules/test_cards.py)."""
    texts = []
    for value in vars(test_cards).values():
        for mark in getattr(value, "pytestmark", []):
            if mark.name == "parametrize" and mark.args[0].split(",")[0] in ("text", "token"):
                texts += [case[0] if isinstance(case, tuple) else case for case in mark.args[1]]
    return texts


def random_hands(count: int, seed: int = 24) -> list[str]:
    chance = random.Random(seed)
    words = every_card_spelled() + JUNK
    hands = []
    for _ in range(count):
        size = chance.randint(0, 25)
        picked = [chance.choice(words) for _ in range(size)]
        hands.append("".join(itertools.chain.from_iterable(
            (word, chance.choice(SEPARATORS)) for word in picked)))
    return hands


def the_engine(text: str, joker_points: int) -> dict:
    """What the engine reads in ``text``: each token's card (None: not one), and points."""
    cards, errors = scan_cards(text)
    bad = {error.position for error in errors}
    read = iter(cards)
    rules = HouseRules(joker_points=joker_points)
    return {"cards": [None if n in bad else str(next(read))
                      for n in range(1, len(cards) + len(errors) + 1)],
            "points": sum(rules.points(card) for card in cards)}


def javascript(hands: list[tuple[str, int]]) -> list[dict]:
    node = shutil.which("node")
    assert node, "node is needed: it runs on the phone's side of this test"
    done = subprocess.run([node, RUN], input=json.dumps(hands), capture_output=True,
                          text=True, check=True, timeout=60)
    return json.loads(done.stdout)


@pytest.mark.parametrize("texts", [every_card_spelled(), the_engines_cases(), random_hands(400)],
                         ids=["every card", "the engine's cases", "random hands"])
def test_the_javascript_reads_cards_as_the_engine(texts):
    chance = random.Random(len(texts))
    hands = [(text, chance.choice([0, 20, 25, 50])) for text in texts]
    assert len(hands) > 20
    for (text, joker_points), js in zip(hands, javascript(hands), strict=True):
        assert js == the_engine(text, joker_points), repr(text)


def test_the_random_hands_hold_what_tells_the_two_apart():
    hands = random_hands(400)
    for told_apart in ("\x1c", "\x85", "\ufeff", "ſ"):
        assert sum(told_apart in hand for hand in hands) > 10, repr(told_apart)
    assert sum(len(scan_cards(hand)[1]) for hand in hands) > 100  # tokens that are no card
