"""Reading a JSON document's fields, each refusal (BackupError) naming where
in the file it is: the parts of the backup check that know nothing of groups."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime

from .. import payto
from ..limits import NAME_MAX, PAYTO_MAX, clean_name, unstorable
from ..rules import Problem
from ..rules.house import shown
from ..stored_json import path_words

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


def N_(message: str) -> str:
    """Marks a message for the catalog (pybabel's default keyword): the
    backup check has no language; the web layer translates the message with
    its values when it shows it (web/presenters/refusals.py)."""
    return message


class BackupError(ValueError):
    """A backup that can't be imported; the message says what is wrong and
    where: English, with ``%(name)s`` placeholders for its ``values`` where it
    is marked with N_ (those a file that is no backup meets are; those of a
    part of a backup, named by its JSON keys, are English only). Where the
    rules engine refused a part, the message is where, and ``problems`` (the
    engine's) say what (the web layer words them)."""

    def __init__(self, message: str, problems: Sequence[Problem] = (), **values) -> None:
        text = message % values if values else message
        super().__init__(f"{text}: {'; '.join(map(str, problems))}" if problems else text)
        self.message, self.values = message, values
        self.where = text
        self.problems = tuple(problems)


def on_time(deadline: float, where: str) -> None:
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
    except BackupError:
        raise
    except ValueError as error:
        raise BackupError(f"The file is not valid JSON: {error}.") from None
    _check_nesting_and_text(document)
    return document


def _object_without_twins(pairs: list) -> dict:
    result = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {shown(key)} appears twice in one object")
        result[key] = value
    return result


def _whole_number(text: str) -> int:
    """A whole number. One of more than MAX_DIGITS digits is refused here, before
    int() spends time on it, though the parser can't say where it is; any other
    over INT_MAX is refused by _check_nesting_and_text, which can."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BackupError(f"The file holds the number {_number(text)}, larger than any in a "
                          f"Scorekeeper backup: its numbers are at most {INT_MAX:,} in size.")
    return int(text)


class _Fraction:
    """A number with a fraction or an exponent, kept as written until
    _check_nesting_and_text refuses it, saying where it is."""

    def __init__(self, text: str):
        self.text = text


def _number(text: str) -> str:
    return text if len(text) <= 24 else text[:23] + "…"


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


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
            raise BackupError(f"The file holds the number {_number(str(value))} "
                              f"{_place(document, value)}, larger than any in a Scorekeeper "
                              f"backup: its numbers are at most {INT_MAX:,} in size.")
        elif isinstance(value, _Fraction):
            raise BackupError(f"The file holds the number {_number(value.text)} "
                              f"{_place(document, value)}, but every number in a Scorekeeper "
                              "backup is whole (money is in cents).")
        elif isinstance(value, (list, dict)):
            if depth > MAX_DEPTH:
                raise BackupError(f"The file nests lists or objects more than {MAX_DEPTH} "
                                  "deep: a Scorekeeper backup never does.")
            if isinstance(value, dict):
                for key in value:
                    _check_storable(key)
                value = value.values()
            stack.extend((item, depth + 1) for item in value)


def _place(document, value) -> str:
    """Where ``value`` (that very object) is in ``document``: 'at "sessions"
    item 1, "rounds" item 2, "entries" item 1, "seat"' (counted from 1)."""
    stack: list[tuple[object, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        item, path = stack.pop()
        if item is value:
            return f"at {path_words(path)}" if path else "as the whole file"
        if isinstance(item, dict):
            stack.extend((child, (*path, key)) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, (*path, n)) for n, child in enumerate(item, start=1))
    return ""


def _check_storable(text: str) -> None:
    found = unstorable(text)
    if found is not None:
        raise BackupError(f"The file holds {found}, which can't be stored.")


def an_object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise BackupError(f"{where} must be an object {{…}}, not {kind_of(value)}.")
    return value


def kind_of(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "text", int: "a number",
            float: "a number"}.get(type(value), "something else")


def field(obj: dict, key: str, where: str):
    if key not in obj:
        raise BackupError(f"{where}: \"{key}\" is missing.")
    return obj[key]


def list_field(obj: dict, key: str, where: str, most: int, least: int = 0) -> list:
    value = field(obj, key, where)
    if not isinstance(value, list):
        raise BackupError(f"{where}: \"{key}\" must be a list, not {kind_of(value)}.")
    if not least <= len(value) <= most:
        raise BackupError(f"{where}: \"{key}\" has {len(value)} items; "
                          f"a backup allows {least} to {most}.")
    return value


def int_field(obj: dict, key: str, where: str, low: int, high: int, *, optional: bool = False):
    value = obj.get(key) if optional else field(obj, key, where)
    if value is None and optional:
        return None
    if type(value) is not int or not low <= value <= high:
        raise BackupError(f"{where}: \"{key}\" must be a whole number from {low} to {high}, "
                          f"not {shown(value)}.")
    return value


def bool_field(obj: dict, key: str, where: str) -> bool:
    value = field(obj, key, where)
    if not isinstance(value, bool):
        raise BackupError(f"{where}: \"{key}\" must be true or false, not {shown(value)}.")
    return value


def text_field(obj: dict, key: str, where: str, high: int, low: int = 1) -> str:
    value = field(obj, key, where)
    if not isinstance(value, str):
        raise BackupError(f"{where}: \"{key}\" must be text, not {kind_of(value)}.")
    if not low <= len(value) <= high:
        raise BackupError(f"{where}: \"{key}\" has {len(value)} characters; "
                          f"it must have {low} to {high}.")
    return value


def optional_moment_field(obj: dict, key: str, where: str) -> datetime | None:
    """moment_field, or None where the key is missing or null."""
    return None if obj.get(key) is None else moment_field(obj, key, where)


def moment_field(obj: dict, key: str, where: str) -> datetime:
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
                raise BackupError(f"{where}: \"{key}\" is {shown(value)}, which is not in the "
                                  f"years {FIRST_YEAR} to {LAST_YEAR} (UTC), as every time of a "
                                  "Scorekeeper backup is.")
            return moment
    raise BackupError(f"{where}: \"{key}\" must be a date and time like "
                      f"2025-05-01T20:15:00Z, not {shown(value)}.")


def name_at(value, where: str) -> str:
    if not isinstance(value, str):
        raise BackupError(f"{where} must be text, not {kind_of(value)}.")
    name = clean_name(value)
    if not name:
        raise BackupError(f"{where} is empty.")
    if len(name) > NAME_MAX:
        raise BackupError(f"{where} has {len(name)} characters; a name has at most {NAME_MAX}.")
    return name


GROUP_PLAYER = "one of the group's players"
SEATED = "at this session's table"


def player_field(obj: dict, key: str, where: str, known: frozenset, among: str = SEATED) -> str:
    """The player that ``obj[key]`` names, who must be one of ``known``."""
    value = field(obj, key, where)
    name = clean_name(value) if isinstance(value, str) else None
    if name is None or name not in known:
        raise BackupError(f"{where}: \"{key}\" is {shown(value)}, who is not {among}.")
    return name


def payto_field(obj: dict, where: str) -> tuple[str, str]:
    """A player's payment details, "payto": {"kind": …, "value": …} (absent:
    none), as the app stores them: a kind it knows, and a value it would take
    from the form and keep unchanged (an ID already tidied, a bank QR whose
    CRC is right)."""
    if "payto" not in obj:
        return "", ""
    at = f'{where}\'s "payto"'
    details = an_object(obj["payto"], at)
    kind = text_field(details, "kind", at, 20)
    value = text_field(details, "value", at, PAYTO_MAX)
    try:
        chosen = payto.Kind(kind)
    except ValueError:
        raise BackupError(f'{at}: "kind" is {shown(kind)}, which is none of '
                          f"{', '.join(k.value for k in payto.Kind)}.") from None
    try:
        tidy = (payto.read_bank_qr(value)[0] if chosen is payto.Kind.BANK_QR
                else payto.clean_id(chosen, value))
    except payto.PayloadError as error:
        raise BackupError(f'{at}: "value" is not a {kind} the app takes ({error.code}).') from None
    if tidy != value:
        raise BackupError(f'{at}: "value" is not written as the app writes it: {shown(tidy)}.')
    return kind, value
