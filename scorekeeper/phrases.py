"""Messages of the parts that have no language (the backup check, the reader
of stored JSON): each a catalog msgid, marked N_ (or Nn_ for one with a
plural), kept in English with its values until the web layer words it in the
reader's language (web/presenters/refusals.py)."""

from __future__ import annotations

from typing import NamedTuple


def N_(message: str) -> str:
    """Marks a message for the catalog (pybabel's default keyword)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural for the catalog (babel.cfg's ``Nn_:1,2``):
    its number is the phrase's ``count``."""
    return singular, plural


class Phrase:
    """A message (a msgid, or a singular and plural pair counted by the value
    ``count``) with its values, each shown as it is (a name, a JSON key in
    quotes, a value from a file), a whole number (shown as the reader's
    language writes numbers) or a Phrase, worded in its turn: a place in a
    backup is a phrase within a phrase ("%(place)s, round %(number)s")."""

    __slots__ = ("message", "values")

    def __init__(self, message: str | tuple[str, str], /, **values: object) -> None:
        self.message, self.values = message, values

    def __str__(self) -> str:
        """In English."""
        message = self.message
        if isinstance(message, tuple):
            message = message[0] if self.values["count"] == 1 else message[1]
        if not self.values:
            return message
        return message % {name: f"{value:,}" if type(value) is int else str(value)
                          for name, value in self.values.items()}

    def __repr__(self) -> str:
        return f"Phrase({self.message!r}, **{self.values!r})"


class Amount(NamedTuple):
    """An amount of money as a value of a message: the web layer writes it as
    the reader's language writes numbers ("RM 1,234.50")."""

    cents: int
    currency: str

    def __str__(self) -> str:
        """In English."""
        return f"{self.currency} {self.cents // 100:,}.{self.cents % 100:02d}"
