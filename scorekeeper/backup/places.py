"""Where in a backup a refusal is, as a phrase the web layer words in the
reader's language: a place is a phrase within a phrase, "Session 2" within
"%(place)s, round %(number)s" within "%(place)s, %(player)s's entry". JSON's
keys are quoted as the file writes them, the same in every language."""

from __future__ import annotations

import json
from collections.abc import Iterable

from ..phrases import N_, Phrase

BACKUP = Phrase(N_("The backup"))
GROUP = Phrase(N_("The backup's group"))


def quoted(key: str) -> str:
    """A JSON key as messages give it: "dealer"."""
    return json.dumps(key, ensure_ascii=False)


def within(place: Phrase, message: str, **values: object) -> Phrase:
    """A part of ``place``: within(session, N_("%(place)s, seat %(number)s"), number=2)."""
    return Phrase(message, place=place, **values)


def owned(place: Phrase, key: str) -> Phrase:
    """A key of an object that ``place`` is: 'Audit event 3's "after"'."""
    return within(place, N_("%(place)s's %(key)s"), key=quoted(key))


def player(number: int) -> Phrase:
    return Phrase(N_("Player %(number)s"), number=number)


def session(number: int) -> Phrase:
    return Phrase(N_("Session %(number)s"), number=number)


def event(number: int) -> Phrase:
    return Phrase(N_("Audit event %(number)s"), number=number)


def json_path(path: Iterable[str | int], place: Phrase | None = None) -> Phrase | str:
    """Keys and list items (counted from 1) leading into a JSON document, or
    into the object at ``place``: '"entries" item 2, "cards"', or
    'Audit event 3's "after": "entries" item 2, "cards"'."""
    found: Phrase | str | None = place
    for step in path:
        if isinstance(step, int):
            found = (Phrase(N_("item %(number)s"), number=step) if found is None
                     else Phrase(N_("%(place)s item %(number)s"), place=found, number=step))
        elif found is None:
            found = quoted(step)
        else:
            found = Phrase(N_("%(place)s: %(key)s") if found is place
                           else N_("%(place)s, %(key)s"), place=found, key=quoted(step))
    assert found is not None, "a path of no step, within no place"
    return found
