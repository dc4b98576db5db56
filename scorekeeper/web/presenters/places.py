"""A player's place at a session in words, in the reader's language: "1st",
"joint 2nd" (queries.tables.Place has the number and whether it is tied)."""

from __future__ import annotations

from flask_babel import gettext as _


def place_words(place) -> str:
    """ "1st", "2nd", "11th", "joint 2nd" in English; each language its own."""
    words = ordinal(place.place)
    # Translators: a place shared with another player: "joint 2nd".
    return _("joint %(place)s", place=words) if place.tied else words


def ordinal(n: int) -> str:
    """ "1st", "2nd", "11th" in English; each language its own."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        # Translators: a place at the table, "4th"; the next three are "1st", "2nd", "3rd".
        return _("%(place)sth", place=n)
    elif n % 10 == 1:
        return _("%(place)sst", place=n)
    elif n % 10 == 2:
        return _("%(place)snd", place=n)
    else:
        return _("%(place)srd", place=n)
