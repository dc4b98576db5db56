"""docs/RULES.md §2: cards and how they are written."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import JOKER, Card, CardError, parse_cards

from .helpers import SUITS, SYMBOL

RANK_TOKENS = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13,
}


# -- the Card type -------------------------------------------------------------

def test_card_fields_and_joker():
    assert Card(1, "S").rank == 1 and Card(1, "S").suit == "S"
    assert Card(0, "") == JOKER
    assert JOKER.is_joker
    assert not Card(1, "S").is_joker
    assert not Card(13, "C").is_joker


def test_card_is_frozen_and_hashable():
    card = Card(12, "D")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 3
    assert len({Card(12, "D"), Card(12, "D"), Card(12, "H")}) == 2


def test_cards_are_ordered():
    cards = [Card(13, "S"), JOKER, Card(1, "H"), Card(10, "C"), Card(2, "D")]
    ordered = sorted(cards)
    assert ordered[0] == JOKER
    assert [c.rank for c in ordered] == [0, 1, 2, 10, 13]
    assert Card(5, "C") < Card(6, "C")


@pytest.mark.parametrize(
    "card, text",
    [
        (Card(1, "S"), "AS"),
        (Card(10, "H"), "10H"),
        (Card(12, "D"), "QD"),
        (Card(11, "C"), "JC"),
        (Card(13, "S"), "KS"),
        (Card(2, "H"), "2H"),
        (Card(9, "C"), "9C"),
        (JOKER, "JK"),
    ],
)
def test_canonical_text(card, text):
    assert str(card) == text


# -- parse_cards -----------------------------------------------------------------

def test_rules_examples():
    assert parse_cards("as 10h jk") == [Card(1, "S"), Card(10, "H"), JOKER]
    assert parse_cards("A♠,10♥") == [Card(1, "S"), Card(10, "H")]
    assert [str(c) for c in parse_cards("AS 10H QD JK")] == ["AS", "10H", "QD", "JK"]


@pytest.mark.parametrize("rank_text, rank", sorted(RANK_TOKENS.items()))
@pytest.mark.parametrize("suit", SUITS)
def test_every_rank_and_suit_in_every_spelling(rank_text, rank, suit):
    expected = [Card(rank, suit)]
    for token in (
        rank_text + suit,
        (rank_text + suit).lower(),
        rank_text.lower() + suit,
        rank_text + suit.lower(),
        rank_text + SYMBOL[suit],
        rank_text.lower() + SYMBOL[suit],
    ):
        assert parse_cards(token) == expected, token


def test_ten_written_as_t():
    assert parse_cards("TH td T♣ ts") == [Card(10, s) for s in "HDCS"]
    assert str(parse_cards("TH")[0]) == "10H"


@pytest.mark.parametrize("token", ["JK", "jk", "Jk", "JOKER", "joker", "Joker", "jOkEr", "★", "🃏"])
def test_joker_spellings(token):
    assert parse_cards(token) == [JOKER]
    assert parse_cards(f"AS {token} 2S") == [Card(1, "S"), JOKER, Card(2, "S")]


@pytest.mark.parametrize(
    "text",
    ["AS 2H JK", "as,2h,jk", "AS, 2H, JK", "  AS   2H  JK  ", "A♠ 2♥ 🃏", "a♠,2♥,★", "AS,2H JK"],
)
def test_separators(text):
    assert parse_cards(text) == [Card(1, "S"), Card(2, "H"), JOKER]


@pytest.mark.parametrize("text", ["", " ", "   "])
def test_blank_text_is_no_cards(text):
    assert parse_cards(text) == []


def test_repeats_are_kept_in_order():
    assert parse_cards("8h 8h 8c") == [Card(8, "H"), Card(8, "H"), Card(8, "C")]


@pytest.mark.parametrize(
    "text, token, position",
    [
        ("XX", "XX", 1),
        ("AS 1H JK", "1H", 2),
        ("as, 10h, 11h", "11h", 3),
        ("AS,QQ", "QQ", 2),
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S ZS", "ZS", 10),
        ("AS 0H", "0H", 2),
        ("A", "A", 1),
        ("AS 10", "10", 2),
        ("AS H", "H", 2),
        ("AS AX", "AX", 2),
        ("JK JKS", "JKS", 2),
        ("AS 2S 3S4S", "3S4S", 3),
    ],
)
def test_unreadable_token_names_token_and_position(text, token, position):
    with pytest.raises(CardError) as excinfo:
        parse_cards(text)
    error = excinfo.value
    assert isinstance(error, ValueError)
    assert error.token == token
    assert error.position == position
    assert (error.code, error.values) == ("unreadable_card", {"token": token, "position": position})
    assert str(error) == f"unreadable_card(token={token!r}, position={position})"


# -- round trips (hypothesis) --------------------------------------------------

ALL_CARDS = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)] + [JOKER]


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_canonical_text_parses_back(card):
    assert parse_cards(str(card)) == [card]


@settings(deadline=None, max_examples=200, database=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS), max_size=30),
    st.sampled_from([" ", ",", ", ", "  ", " , "]),
    st.booleans(),
)
def test_round_trip(cards, separator, lower):
    text = separator.join(str(c) for c in cards)
    if lower:
        text = text.lower()
    assert parse_cards(text) == cards
