"""Reading a JSON document's fields, each refusal (BackupError) naming where
in the file it is: the parts of the backup check that know nothing of groups.
Every message is a phrase (scorekeeper.phrases) that the web layer words in
the reader's language; where in the file is a phrase too (places.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime

from .. import payto
from ..limits import NAME_MAX, PAYTO_KIND_MAX, PAYTO_MAX, clean_name, unstorable
from ..phrases import N_, Nn_, Phrase
from ..rules import Problem
from ..rules.house import shown
from .places import json_path, owned, quoted

MAX_DEPTH = 20  # lists and objects inside each other
MAX_DIGITS = 20  # in one number
# Every number is whole and at most this in size: the largest that every JSON
# reader keeps exact (JavaScript's too), far inside a 64-bit column.
INT_MAX = 2 ** 53 - 1
# Every time lies in these years (UTC). A backup's times were all read from a
# server's clock, by an app written in 2026; and a time this far from
# datetime's own ends (years 1 and 9999) stays a date in every time zone.
FIRST_YEAR, LAST_YEAR = 2000, 2099
EARLIEST, LATEST = datetime(FIRST_YEAR, 1, 1), datetime(LAST_YEAR + 1, 1, 1)


class BackupError(ValueError):
    """A backup that can't be imported. ``phrase`` says what is wrong and
    where (its ``where`` value, a place in the file); where the rules engine
    refused a part, ``problems`` (the engine's) say what, the message being
    "%(where)s: %(problems)s." (the web layer words them). ``str()`` is English."""

    def __init__(self, message: str | tuple[str, str], problems: Sequence[Problem] = (),
                 **values: object) -> None:
        self.phrase = Phrase(message, **values)
        self.problems = tuple(problems)
        english = Phrase(message, **values, problems="; ".join(map(str, problems))) \
            if problems else self.phrase
        super().__init__(str(english))


def refused_by_rules(where: Phrase, problems: Sequence[Problem]) -> BackupError:
    return BackupError(N_("%(where)s: %(problems)s."), problems, where=where)


def on_time(deadline: float, where: Phrase) -> None:
    if time.monotonic() > deadline:
        raise BackupError(N_("Checking this backup takes too long (it stopped at %(where)s): "
                             "its rounds are more or larger than a group's real ones."),
                          where=where)


def parse(data: bytes):
    if not data.strip():
        raise BackupError(N_("The file is empty."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BackupError(
            N_("The file is not UTF-8 text (byte %(byte)s is not), so it is not "
               "a Scorekeeper backup."), byte=error.start + 1) from None
    try:
        document = json.loads(text, object_pairs_hook=_object_without_twins,
                              parse_int=_whole_number, parse_float=_Fraction,
                              parse_constant=_no_constant)
    except RecursionError:
        raise BackupError(N_("The file nests lists or objects far too deeply to be a "
                             "Scorekeeper backup.")) from None
    except json.JSONDecodeError as error:
        # Translators: %(why)s is the JSON reader's own words, in English.
        raise BackupError(
            N_("The file is not JSON (%(why)s at line %(line)s, column %(column)s), "
               "so it is not a Scorekeeper backup."),
            why=error.msg, line=error.lineno, column=error.colno) from None
    _check_nesting_and_text(document)
    return document


def _object_without_twins(pairs: list) -> dict:
    result = {}
    for key, value in pairs:
        if key in result:
            raise BackupError(N_("The file is not valid JSON: the key %(key)s appears twice "
                                 "in one object."), key=shown(key))
        result[key] = value
    return result


def _whole_number(text: str) -> int:
    """A whole number. One of more than MAX_DIGITS digits is refused here, before
    int() spends time on it, though the parser can't say where it is; any other
    over INT_MAX is refused by _check_nesting_and_text, which can."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BackupError(N_("The file holds the number %(number)s, larger than any in a "
                             "Scorekeeper backup: its numbers are at most %(most)s in size."),
                          number=_number(text), most=INT_MAX)
    return int(text)


class _Fraction:
    """A number with a fraction or an exponent, kept as written until
    _check_nesting_and_text refuses it, saying where it is."""

    def __init__(self, text: str):
        self.text = text


def _number(text: str) -> str:
    return text if len(text) <= 24 else text[:23] + "…"


def _no_constant(name: str):
    raise BackupError(N_("The file is not valid JSON: %(name)s is not a number JSON allows."),
                      name=name)


def _check_nesting_and_text(document) -> None:
    """No nesting deeper than MAX_DEPTH, only text that databases can store,
    and only whole numbers within INT_MAX: in the fields read and in the free
    objects of the history of changes alike."""
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_storable(value)
        elif type(value) is int and not -INT_MAX <= value <= INT_MAX:
            raise BackupError(N_("The file holds the number %(number)s %(place)s, larger than "
                                 "any in a Scorekeeper backup: its numbers are at most "
                                 "%(most)s in size."),
                              number=_number(str(value)), place=_place(document, value),
                              most=INT_MAX)
        elif isinstance(value, _Fraction):
            raise BackupError(N_("The file holds the number %(number)s %(place)s, but every "
                                 "number in a Scorekeeper backup is whole (money is in cents)."),
                              number=_number(value.text), place=_place(document, value))
        elif isinstance(value, (list, dict)):
            if depth > MAX_DEPTH:
                raise BackupError(N_("The file nests lists or objects more than %(most)s "
                                     "deep: a Scorekeeper backup never does."), most=MAX_DEPTH)
            if isinstance(value, dict):
                for key in value:
                    _check_storable(key)
                value = value.values()
            stack.extend((item, depth + 1) for item in value)


def _place(document, value) -> Phrase:
    """Where ``value`` (that very object) is in ``document``: 'at "sessions"
    item 1, "rounds" item 2, "entries" item 1, "seat"' (counted from 1)."""
    stack: list[tuple[object, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        item, path = stack.pop()
        if item is value:
            break
        if isinstance(item, dict):
            stack.extend((child, (*path, key)) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, (*path, n)) for n, child in enumerate(item, start=1))
    if not path:
        return Phrase(N_("as the whole file"))
    return Phrase(N_("at %(path)s"), path=json_path(path))


def _check_storable(text: str) -> None:
    found = unstorable(text)
    if found is not None:
        raise BackupError(N_("The file holds %(what)s, which can't be stored."),
                          what=Phrase(found))


def an_object(value, where: Phrase) -> dict:
    if not isinstance(value, dict):
        raise BackupError(N_("%(where)s must be an object {…}, not %(kind)s."),
                          where=where, kind=kind_of(value))
    return value


# What a value read from JSON is (parse refuses every number but a whole one).
KINDS = {dict: N_("an object"), list: N_("a list"), str: N_("text"), int: N_("a number"),
         bool: N_("true or false")}


def kind_of(value) -> Phrase | str:
    if value is None:
        return "null"  # JSON's word, the same in every language
    return Phrase(KINDS[type(value)])


def field(obj: dict, key: str, where: Phrase):
    if key not in obj:
        raise BackupError(N_("%(where)s: %(key)s is missing."), where=where, key=quoted(key))
    return obj[key]


def list_field(obj: dict, key: str, where: Phrase, most: int, least: int = 0) -> list:
    value = field(obj, key, where)
    if not isinstance(value, list):
        raise BackupError(N_("%(where)s: %(key)s must be a list, not %(kind)s."),
                          where=where, key=quoted(key), kind=kind_of(value))
    if not least <= len(value) <= most:
        raise items_refused(where, key, len(value), least, most)
    return value


def items_refused(where: Phrase, key: str, count: int, least: int, most: int) -> BackupError:
    return BackupError(Nn_("%(where)s: %(key)s has %(count)s item; a backup allows %(least)s "
                           "to %(most)s.",
                           "%(where)s: %(key)s has %(count)s items; a backup allows %(least)s "
                           "to %(most)s."),
                       where=where, key=quoted(key), count=count, least=least, most=most)


def int_field(obj: dict, key: str, where: Phrase, low: int, high: int, *,
              optional: bool = False):
    value = obj.get(key) if optional else field(obj, key, where)
    if value is None and optional:
        return None
    if type(value) is not int or not low <= value <= high:
        raise BackupError(N_("%(where)s: %(key)s must be a whole number from %(low)s to "
                             "%(high)s, not %(value)s."),
                          where=where, key=quoted(key), low=low, high=high, value=shown(value))
    return value


def bool_field(obj: dict, key: str, where: Phrase) -> bool:
    value = field(obj, key, where)
    if not isinstance(value, bool):
        raise BackupError(N_("%(where)s: %(key)s must be true or false, not %(value)s."),
                          where=where, key=quoted(key), value=shown(value))
    return value


def text_field(obj: dict, key: str, where: Phrase, high: int, low: int = 1) -> str:
    value = field(obj, key, where)
    if not isinstance(value, str):
        raise BackupError(N_("%(where)s: %(key)s must be text, not %(kind)s."),
                          where=where, key=quoted(key), kind=kind_of(value))
    if not low <= len(value) <= high:
        raise BackupError(Nn_("%(where)s: %(key)s has %(count)s character; it must have "
                              "%(low)s to %(high)s.",
                              "%(where)s: %(key)s has %(count)s characters; it must have "
                              "%(low)s to %(high)s."),
                          where=where, key=quoted(key), count=len(value), low=low, high=high)
    return value


def optional_moment_field(obj: dict, key: str, where: Phrase) -> datetime | None:
    """moment_field, or None where the key is missing or null."""
    return None if obj.get(key) is None else moment_field(obj, key, where)


def moment_field(obj: dict, key: str, where: Phrase) -> datetime:
    value = field(obj, key, where)
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value)
            if moment.tzinfo is not None:
                moment = moment.astimezone(UTC).replace(tzinfo=None)
        except (ValueError, OverflowError):
            pass
        else:
            if not EARLIEST <= moment < LATEST:
                # Years as text: never written 2,000.
                raise BackupError(N_("%(where)s: %(key)s is %(value)s, which is not in the "
                                     "years %(first)s to %(last)s (UTC), as every time of a "
                                     "Scorekeeper backup is."),
                                  where=where, key=quoted(key), value=shown(value),
                                  first=str(FIRST_YEAR), last=str(LAST_YEAR))
            return moment
    raise BackupError(N_("%(where)s: %(key)s must be a date and time like "
                         "%(example)s, not %(value)s."),
                      where=where, key=quoted(key), example="2025-05-01T20:15:00Z",
                      value=shown(value))


def name_at(value, where: Phrase) -> str:
    if not isinstance(value, str):
        raise BackupError(N_("%(where)s must be text, not %(kind)s."),
                          where=where, kind=kind_of(value))
    name = clean_name(value)
    if not name:
        raise BackupError(N_("%(where)s is empty."), where=where)
    if len(name) > NAME_MAX:
        raise BackupError(N_("%(where)s has %(count)s characters; a name has at most "
                             "%(most)s."), where=where, count=len(name), most=NAME_MAX)
    return name


# Who a player named in a backup must be, as the refusal says.
GROUP_PLAYER = N_("%(where)s: %(key)s is %(value)s, who is not one of the group's players.")
SEATED = N_("%(where)s: %(key)s is %(value)s, who is not at this session's table.")


def player_field(obj: dict, key: str, where: Phrase, known: frozenset,
                 among: str = SEATED) -> str:
    """The player that ``obj[key]`` names, who must be one of ``known``."""
    value = field(obj, key, where)
    name = clean_name(value) if isinstance(value, str) else None
    if name is None or name not in known:
        raise BackupError(among, where=where, key=quoted(key), value=shown(value))
    return name


def payto_field(obj: dict, where: Phrase) -> tuple[str, str]:
    """A player's payment details, "payto": {"kind": …, "value": …} (absent:
    none), as the app stores them: a kind it knows, and a value it would take
    from the form and keep unchanged (an ID already tidied, a bank QR whose
    CRC is right)."""
    if "payto" not in obj:
        return "", ""
    at = owned(where, "payto")
    details = an_object(obj["payto"], at)
    kind = text_field(details, "kind", at, PAYTO_KIND_MAX)
    value = text_field(details, "value", at, PAYTO_MAX)
    try:
        chosen = payto.Kind(kind)
    except ValueError:
        raise BackupError(N_("%(where)s: %(key)s is %(value)s, which is none of %(kinds)s."),
                          where=at, key=quoted("kind"), value=shown(kind),
                          kinds=", ".join(quoted(k.value) for k in payto.Kind)) from None
    try:
        tidy = payto.tidied(chosen, value)
    except payto.PayloadError:
        raise BackupError(N_("%(where)s: %(key)s is not one the app takes as %(kind)s."),
                          where=at, key=quoted("value"), kind=quoted(kind)) from None
    if tidy != value:
        raise BackupError(N_("%(where)s: %(key)s is not written as the app writes it: "
                             "%(tidy)s."), where=at, key=quoted("value"), tidy=shown(tidy))
    return kind, value
