"""Cards and their notation (docs/RULES.md §2)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .codes import Code, logged

SUITS = "SHDC"
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}

_RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
_RANKS.update({str(n): n for n in range(2, 11)})
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C",
                 "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_JOKERS = {"JK", "JOKER", "★", "🃏"}
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card. ``rank`` 1 (ace) to 13 (king); a joker is rank 0, suit ""."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def rank_label(self) -> str:
        """The rank as written: ``A``, ``10``, ``Q``; ``JK`` for a joker."""
        if self.is_joker:
            return "JK"
        return RANK_NAMES.get(self.rank, str(self.rank))

    def __str__(self) -> str:
        return self.rank_label + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"


JOKER = Card(0, "")


class CardError(ValueError):
    """A token that is not a card: the code UNREADABLE_CARD with the token and
    its 1-based position."""

    code = Code.UNREADABLE_CARD

    def __init__(self, token: str, position: int) -> None:
        self.token = token
        self.position = position
        self.values = {"token": token, "position": position}
        super().__init__(logged(self.code, self.values))


def parse_card(token: str, position: int = 1) -> Card:
    """One card from its notation, e.g. ``10h``, ``A♠`` or ``JK``."""
    text = token.replace("\ufe0f", "").strip().upper()
    if text in _JOKERS:
        return JOKER
    suit = _SUIT_SYMBOLS.get(text[-1:], text[-1:])
    rank = _RANKS.get(text[:-1])
    if rank is None or suit not in SUITS or not suit:
        raise CardError(token, position)
    return Card(rank, suit)


def scan_cards(text: str) -> tuple[list[Card], list[CardError]]:
    """Every readable card of ``text`` and an error for every unreadable token."""
    cards: list[Card] = []
    errors: list[CardError] = []
    tokens = [t for t in _SEPARATORS.split(text) if t]
    for position, token in enumerate(tokens, start=1):
        try:
            cards.append(parse_card(token, position))
        except CardError as error:
            errors.append(error)
    return cards, errors


def parse_cards(text: str) -> list[Card]:
    """Cards from text such as ``"as 10h jk"`` or ``"A♠,10♥"``.

    Raises CardError for the first unreadable token.
    """
    cards, errors = scan_cards(text)
    if errors:
        raise errors[0]
    return cards


def format_cards(cards) -> str:
    return " ".join(str(card) for card in cards)
