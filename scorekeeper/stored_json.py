"""Reading a stored JSON object (an audit event's ``before`` or ``after``)
key by key: PayloadError names the side, the keys leading to what is wrong,
and what it should be."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from .phrases import N_
from .rules.house import shown

JSON = dict[str, Any]


def path_words(path: Iterable[str | int]) -> str:
    """Keys and list items (counted from 1) leading into a JSON document, as
    messages give them: '"entries" item 2, "cards"'."""
    words = ""
    for step in path:
        if isinstance(step, int):
            words += (" " if words else "") + f"item {step}"
        else:
            words += (", " if words else "") + json.dumps(step, ensure_ascii=False)
    return words


class PayloadError(ValueError):
    """A stored payload that is not of its action's shape. ``side`` is "before"
    or "after"; ``path`` the keys (and list items, counted from 1) to the wrong
    value, empty for the side itself; ``expected`` what it must be; ``value``
    what it is, unless ``missing``."""

    def __init__(self, side: str, path: tuple[str | int, ...], expected: str,
                 value: object = None, *, missing: bool = False) -> None:
        self.side, self.path, self.expected = side, path, expected
        self.value, self.missing = value, missing
        # For the logs: 'the payload's "after": "entries" item 2, "cards" is missing'.
        at = f'the payload\'s "{side}"'
        problem = "is missing" if missing else f"must be {expected}, not {shown(value)}"
        super().__init__(f"{at}: {path_words(path)} {problem}" if path else f"{at} {problem}")


class Side:
    """One side of a stored payload, read key by key: PayloadError names what is wrong."""

    def __init__(self, side: str, value: object, path: tuple[str | int, ...] = ()) -> None:
        if not isinstance(value, dict):
            raise PayloadError(side, path, N_("an object"), value)
        self.side, self.value, self.path = side, value, path

    @classmethod
    def of(cls, column: str, before: object, after: object) -> Side:
        """The side kept in ``column``, "before" or "after"."""
        return cls(column, after if column == "after" else before)

    def _read(self, key: str, expected: str, fits: Callable[[object], bool]) -> Any:
        if key not in self.value:
            raise PayloadError(self.side, (*self.path, key), expected, missing=True)
        value = self.value[key]
        if not fits(value):
            raise PayloadError(self.side, (*self.path, key), expected, value)
        return value

    def text(self, key: str) -> str:
        return self._read(key, N_("text"), lambda v: isinstance(v, str))

    def texts(self, key: str) -> tuple[str, ...]:
        return tuple(self._read(key, N_("a list of text"), lambda v: isinstance(v, list) and all(
            isinstance(item, str) for item in v)))

    def whole(self, key: str) -> int:
        # Not bool, not float.
        return self._read(key, N_("a whole number"), lambda v: type(v) is int)

    def whole_or_none(self, key: str) -> int | None:
        """A whole number, or None where the key is not there (a payload of
        an older version of the app)."""
        return self.whole(key) if key in self.value else None

    def json_object(self, key: str) -> JSON:
        return self._read(key, N_("an object"), lambda v: isinstance(v, dict))

    def objects(self, key: str) -> list[Side]:
        items = self._read(key, N_("a list"), lambda v: isinstance(v, list))
        return [Side(self.side, item, (*self.path, key, n))
                for n, item in enumerate(items, start=1)]
