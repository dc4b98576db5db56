"""Shared helpers for the rules-engine tests (no engine logic here)."""

from __future__ import annotations

import dataclasses

from scorekeeper.rules import JOKER, Card, Entry, HouseRules, RoundError, score_round

SUITS = "SHDC"
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def worked_rules(**changes):
    """docs/RULES.md §12: Rummi money rules, clockwise play, tiers 0,1,2,3."""
    rules = dataclasses.replace(HouseRules.rummi(), direction="clockwise", tiers=(0, 1, 2, 3))
    return dataclasses.replace(rules, **changes) if changes else rules


def penang(**changes):
    return dataclasses.replace(HouseRules.penang(), **changes)


def rummi(**changes):
    return dataclasses.replace(HouseRules.rummi(), **changes)


def C(text):
    """A card from canonical text, built without the parser ("AS", "10H", "JK")."""
    text = text.upper()
    if text == "JK":
        return JOKER
    rank_text, suit = text[:-1], text[-1]
    rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank_text)
    if rank is None:
        rank = int(rank_text)
    assert 1 <= rank <= 13 and suit in SUITS, text
    return Card(rank, suit)


def H(text):
    """A list of cards from space-separated canonical text."""
    return [C(t) for t in text.split()]


def full_deck(packs, jokers):
    deck = [Card(rank, suit) for _ in range(packs) for suit in SUITS for rank in range(1, 14)]
    return deck + [JOKER] * jokers


def named(problem):
    """The players and the cards a problem's values name (its words need them)."""
    players, cards = set(), set()
    for key, value in problem.values.items():
        for item in _flat(value):
            if isinstance(item, Card):
                cards.add(item)
            elif key in ("player", "players"):
                players.add(item)
    return players, cards


def _flat(value):
    if isinstance(value, tuple | list):
        for item in value:
            yield from _flat(item)
    else:
        yield value


def assert_names(problem, players=(), cards=()):
    named_players, named_cards = named(problem)
    assert set(players) <= named_players, (players, problem)
    assert set(cards) <= named_cards, (cards, problem)


def problems_of(excinfo_or_list, code):
    problems = getattr(excinfo_or_list, "problems", excinfo_or_list)
    return [p for p in problems if p.code == code]


def one_problem(problems, code):
    found = problems_of(problems, code)
    codes = [p.code for p in getattr(problems, "problems", problems)]
    assert len(found) == 1, f"expected one {code!r} among {codes}"
    return found[0]


NAMES = ["Ann", "Bob", "Cyd", "Dot"]  # a table of four, in playing order


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


def round_error(order, entries, rules):
    """score_round that must fail; returns the list of problems."""
    try:
        score = score_round(order, entries, rules)
    except RoundError as error:
        assert error.problems, "RoundError without problems"
        return error.problems
    raise AssertionError(f"expected RoundError, got {score!r}")


# Hands used by several tests ------------------------------------------------

# 20 cards, no meld of any kind (at most two of a rank, no three in suit sequence).
MELD_FREE_20 = "AS 2S 4S 5S 7S 8S 10S JS KS 2H 3H 5H 6H 8H 9H JH QH 3D 7D QD"
# 25 cards, no meld of any kind.
MELD_FREE_25 = (
    "AS 2S 4S 5S 7S 8S 10S JS KS 2H 3H 5H 6H 8H 9H JH QH 3D 4D 6D 7D 9D 10D QD KD"
)
# 20 cards, sets but no run (a Rummi no_passport hand).
SETS_NO_RUN_20 = "2S 2S 3S 3S 2H 2H 3H 3H 2D 2D 3D 3D 2C 2C 3C 3C 5S 5S 6H 6H"
# 20 cards that meld completely (A..KA spades, 2..7 hearts).
TIEN_HU_20 = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H 5H 6H 7H"
TIEN_HU_25 = TIEN_HU_20 + " 8D 8C 8H JK JK"
# 20 cards: 19 meld, the 9D never can.
ALMOST_TIEN_HU_20 = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H 5H 6H 9D"
