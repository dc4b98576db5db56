"""A backup read and checked before it is imported: nothing here writes."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone

from ..limits import (
    DEFAULT_TIMEZONE,
    DEVICE_MAX,
    GROUP_NAME_MAX,
    MAX_PLAYERS,
    MAX_TIERS,
    MIN_PLAYERS,
    NAME_MAX,
    RULE_MONEY_MAX,
    RULE_RANGES,
    TIER_MAX,
    clean_name,
    time_zones,
)
from ..records import (
    Backup,
    EntryData,
    EventData,
    PaymentData,
    PlayerData,
    RoundData,
    SeatData,
    SessionData,
)
from ..rules import Entry, HouseRules, RoundError, format_cards, score_round
from ..rules.cards import Card, scan_cards
from ..rules.scoring import OUTCOMES
from .format import FORMAT, VERSION

# What one backup may hold. A group playing weekly adds about 1,000 rounds a
# year (1.6 KB of file each, with the history of changes): four years fit.
# These bound what one import costs: the largest real file they allow is read,
# checked and written in 2.3 s on SQLite and 3.5 s on PostgreSQL here, one made
# to write the most rows in 2.6 and 4.4 s (bench/README.md, "Import of the
# largest backup").
MAX_BYTES = 8 * 1024 * 1024
MAX_GROUP_PLAYERS = 1000
MAX_SESSIONS = 1000
MAX_ROUNDS = 1000  # in one session
MAX_ALL_ROUNDS = 4000
MAX_SEATS = 50  # at one session, players who left included
MAX_ALL_SEATS = 6000
MAX_PAYMENTS = 100  # in one session
MAX_ALL_PAYMENTS = 5000
MAX_EVENTS = 12_000  # the history of changes: a real one has about 1.2 per round
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
CARDS_MAX = 400  # characters of one hand
CURRENCY_MAX = 8
ACTION_MAX = 24
SUBJECT_MAX = 80
ZONE_MAX = 64  # Group.timezone's column
VERSION_MAX = 10 ** 9
CENTS_MAX = 10 ** 9  # one amount; fits every database's integer column
# House rules, within what the new-session form accepts.
RULE_NUMBERS = {**RULE_RANGES, **{key: (0, RULE_MONEY_MAX) for key in (
    "unit_cents", "hu_cents", "tien_hu_cents", "joker_ace_cents", "point_cents")}}
RULE_WORDS = ("passport", "direction", "dealer_rule", "scheme")
ACTION = re.compile(r"[a-z_]+\.[a-z_]+")
# Scoring a round takes under a millisecond, but a crafted full hand of 40 cards
# can take tens: a file that takes this long to check is refused. The largest
# real backup allowed takes about 2 s to check here (3.4 s beside another busy
# process), twice that in the host's slow spells; 4,000 rounds of large crafted
# hands 7.6 s.
CHECK_SECONDS = 8


class BackupError(ValueError):
    """A backup that can't be imported; the message says what is wrong and where."""





def read_backup(data: bytes, seconds: float = CHECK_SECONDS) -> Backup:
    """The backup in ``data``, checked from end to end in at most about ``seconds``;
    BackupError says what is wrong and where. Nothing is written."""
    if len(data) > MAX_BYTES:
        raise BackupError(f"The file is {size_text(len(data))}, larger than a backup may be: "
                          f"an import takes files of up to {size_text(MAX_BYTES)}.")
    return _backup(_parse(data), time.monotonic() + seconds)


def size_text(size: int) -> str:
    """A file's size in MB (2**20 bytes), rounded up to the hundredth:
    8388608 -> "8 MB", 8388609 -> "8.01 MB", 9437184 -> "9 MB"."""
    hundredths = -(-size * 100 // 2 ** 20)
    return f"{hundredths / 100:.2f}".rstrip("0").rstrip(".") + " MB"


def _on_time(deadline: float, where: str) -> None:
    if time.monotonic() > deadline:
        raise BackupError(f"Checking this backup takes too long (it stopped at {where}): "
                          "its rounds are more or larger than a group's real ones.")


def _parse(data: bytes):
    if not data.strip():
        raise BackupError("The file is empty.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BackupError(
            f"The file is not UTF-8 text (byte {error.start + 1} is not), so it is not "
            "a Scorekeeper backup.") from None
    try:
        document = json.loads(text, object_pairs_hook=_object_without_twins,
                              parse_int=_whole_number, parse_float=_Fraction,
                              parse_constant=_no_constant)
    except RecursionError:
        raise BackupError("The file nests lists or objects far too deeply to be a "
                          "Scorekeeper backup.") from None
    except json.JSONDecodeError as error:
        raise BackupError(
            f"The file is not JSON ({error.msg} at line {error.lineno}, column {error.colno}), "
            "so it is not a Scorekeeper backup.") from None
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
            raise ValueError(f"the key {_shown(key)} appears twice in one object")
        result[key] = value
    return result


def _whole_number(text: str) -> int:
    """A whole number; one too large is refused by _check_nesting_and_text,
    which can say where it is."""
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
    stack = [(document, ())]
    while stack:
        item, path = stack.pop()
        if item is value:
            if not path:
                return "as the whole file"
            place = "at"
            for step in path:
                if isinstance(step, int):
                    place += f" item {step}"
                else:
                    place += ("," if place != "at" else "") + " " + json.dumps(
                        step, ensure_ascii=False)
            return place
        if isinstance(item, dict):
            stack.extend((child, path + (key,)) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, path + (n,)) for n, child in enumerate(item, start=1))
    return ""


def _check_storable(text: str) -> None:
    if "\x00" in text:
        raise BackupError("The file holds a NUL character (\\u0000), which can't be stored.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BackupError("The file holds a broken \\u escape (half of a surrogate pair), "
                          "which can't be stored.") from None


def _shown(value, limit: int = 40) -> str:
    """A value as a message quotes it, cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise BackupError(f"{where} must be an object {{…}}, not {_kind(value)}.")
    return value


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "text", int: "a number",
            float: "a number"}.get(type(value), "something else")


def _get(obj: dict, key: str, where: str):
    if key not in obj:
        raise BackupError(f"{where}: \"{key}\" is missing.")
    return obj[key]


def _list(obj: dict, key: str, where: str, most: int, least: int = 0) -> list:
    value = _get(obj, key, where)
    if not isinstance(value, list):
        raise BackupError(f"{where}: \"{key}\" must be a list, not {_kind(value)}.")
    if not least <= len(value) <= most:
        raise BackupError(f"{where}: \"{key}\" has {len(value)} items; "
                          f"a backup allows {least} to {most}.")
    return value


def _int(obj: dict, key: str, where: str, low: int, high: int, *, optional: bool = False):
    value = obj.get(key) if optional else _get(obj, key, where)
    if value is None and optional:
        return None
    if type(value) is not int or not low <= value <= high:
        raise BackupError(f"{where}: \"{key}\" must be a whole number from {low} to {high}, "
                          f"not {_shown(value)}.")
    return value


def _bool(obj: dict, key: str, where: str) -> bool:
    value = _get(obj, key, where)
    if not isinstance(value, bool):
        raise BackupError(f"{where}: \"{key}\" must be true or false, not {_shown(value)}.")
    return value


def _text(obj: dict, key: str, where: str, high: int, low: int = 1) -> str:
    value = _get(obj, key, where)
    if not isinstance(value, str):
        raise BackupError(f"{where}: \"{key}\" must be text, not {_kind(value)}.")
    if not low <= len(value) <= high:
        raise BackupError(f"{where}: \"{key}\" has {len(value)} characters; "
                          f"it must have {low} to {high}.")
    return value


def _moment(obj: dict, key: str, where: str, *, optional: bool = False) -> datetime | None:
    value = obj.get(key) if optional else _get(obj, key, where)
    if value is None and optional:
        return None
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value)
            if moment.tzinfo is not None:
                moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
        except (ValueError, OverflowError):
            pass
        else:
            if not EARLIEST <= moment < LATEST:
                raise BackupError(f"{where}: \"{key}\" is {_shown(value)}, which is not in the "
                                  f"years {FIRST_YEAR} to {LAST_YEAR} (UTC), as every time of a "
                                  "Scorekeeper backup is.")
            return moment
    raise BackupError(f"{where}: \"{key}\" must be a date and time like "
                      f"2025-05-01T20:15:00Z, not {_shown(value)}.")


def _name(value, where: str) -> str:
    if not isinstance(value, str):
        raise BackupError(f"{where} must be text, not {_kind(value)}.")
    name = clean_name(value)
    if not name:
        raise BackupError(f"{where} is empty.")
    if len(name) > NAME_MAX:
        raise BackupError(f"{where} has {len(name)} characters; a name has at most {NAME_MAX}.")
    return name


GROUP_PLAYER = "one of the group's players"
SEATED = "at this session's table"


def _player(obj: dict, key: str, where: str, known: frozenset, among: str = SEATED) -> str:
    """The player that ``obj[key]`` names, who must be one of ``known``."""
    value = _get(obj, key, where)
    name = clean_name(value) if isinstance(value, str) else None
    if name not in known:
        raise BackupError(f"{where}: \"{key}\" is {_shown(value)}, who is not {among}.")
    return name


def _backup(document, deadline: float) -> Backup:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError('This is not a Scorekeeper group backup: it lacks the mark '
                          '"format": "scorekeeper-group". Export one from a group\'s page.')
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        raise BackupError(f"This backup is of version {_shown(version)}, but this Scorekeeper "
                          f"reads version {VERSION} only.")
    where = "The backup"
    exported_at = _moment(document, "exported_at", where)
    group = _object(_get(document, "group", where), "The backup's \"group\"")
    group_name = _text(group, "name", "The backup's group", GROUP_NAME_MAX)
    zone = _zone(group)

    players = []
    seen: dict[str, str] = {}
    for n, raw in enumerate(_list(document, "players", where, MAX_GROUP_PLAYERS), start=1):
        row = _object(raw, f"Player {n}")
        name = _name(_get(row, "name", f"Player {n}"), f"Player {n}'s name")
        if name.casefold() in seen:
            raise BackupError(f"Player {n}'s name, {name}, is already the name of "
                              f"{seen[name.casefold()]}.")
        seen[name.casefold()] = f"player {n}"
        players.append(PlayerData(name, _moment(row, "created_at", f"Player {n}")))
    known = frozenset(p.name for p in players)

    raw_sessions = _list(document, "sessions", where, MAX_SESSIONS)
    raw_events = _list(document, "audit", where, MAX_EVENTS)
    # Counted over all sessions before any is checked.
    for key, most in (("rounds", MAX_ALL_ROUNDS), ("seats", MAX_ALL_SEATS),
                      ("payments", MAX_ALL_PAYMENTS)):
        total = sum(len(s[key]) for s in raw_sessions
                    if isinstance(s, dict) and isinstance(s.get(key), list))
        if total > most:
            raise BackupError(f"The backup has {total:,} {key} in all sessions together; "
                              f"an import takes at most {most:,}.")
    sessions = [_session(raw, n, known, deadline) for n, raw in enumerate(raw_sessions, start=1)]

    events: list[EventData] = []
    for n, raw in enumerate(raw_events, start=1):
        events.append(_event(raw, n, sessions, events, deadline))
    return Backup(group_name, zone, exported_at, players, sessions, events)


def _zone(group: dict) -> str:
    """The group's time zone; a backup from before groups had one gets the default."""
    if "timezone" not in group:
        return DEFAULT_TIMEZONE
    where = "The backup's group"
    name = _text(group, "timezone", where, ZONE_MAX)
    if name not in time_zones():
        raise BackupError(f'{where}: "timezone" is {_shown(name)}, which is not a time zone '
                          'this Scorekeeper knows; it names one such as "Asia/Kuala_Lumpur".')
    return name


def _session(raw, n: int, known: frozenset, deadline: float) -> SessionData:
    where = f"Session {n}"
    row = _object(raw, where)
    started_at = _moment(row, "started_at", where)
    ended_at = _moment(row, "ended_at", where, optional=True)
    version = _int(row, "version", where, 1, VERSION_MAX)
    currency = _text(row, "currency", where, CURRENCY_MAX).strip()
    if not currency:
        raise BackupError(f'{where}: "currency" is blank.')
    rules = house_rules(_get(row, "house_rules", where), f"{where}'s house rules")

    seats = []
    for k, raw_seat in enumerate(_list(row, "seats", where, MAX_SEATS, MIN_PLAYERS), start=1):
        seat_where = f"{where}, seat {k}"
        seat = _object(raw_seat, seat_where)
        seats.append(SeatData(_player(seat, "player", seat_where, known, GROUP_PLAYER),
                              _int(seat, "position", seat_where, 0, MAX_SEATS - 1),
                              _bool(seat, "active", seat_where)))
    if len({s.player for s in seats}) != len(seats):
        raise BackupError(f"{where}: a player has two seats.")
    if sorted(s.position for s in seats) != list(range(len(seats))):
        raise BackupError(f"{where}: the seats' positions must be 0, 1, 2… each once.")
    seats.sort(key=lambda s: s.position)
    seated = sum(s.active for s in seats)
    if not MIN_PLAYERS <= seated <= MAX_PLAYERS:
        raise BackupError(f"{where}: {seated} players are seated; a table has "
                          f"{MIN_PLAYERS} to {MAX_PLAYERS}.")
    at_table = frozenset(s.player for s in seats)
    first_dealer = _player(row, "first_dealer", where, at_table)

    rounds = []
    for number, raw_round in enumerate(_list(row, "rounds", where, MAX_ROUNDS), start=1):
        _on_time(deadline, f"{where}, round {number}")
        rounds.append(_round(raw_round, f"{where}, round {number}", number, rules, at_table))

    payments = []
    for k, raw_payment in enumerate(_list(row, "payments", where, MAX_PAYMENTS), start=1):
        pay_where = f"{where}, payment {k}"
        payment = _object(raw_payment, pay_where)
        payer = _player(payment, "payer", pay_where, at_table)
        payee = _player(payment, "payee", pay_where, at_table)
        if payer == payee:
            raise BackupError(f"{pay_where}: {payer} pays themselves.")
        payments.append(PaymentData(payer, payee, _int(payment, "cents", pay_where, 1, CENTS_MAX),
                                    _moment(payment, "paid_at", pay_where)))
    return SessionData(started_at, ended_at, version, currency,
                       dataclasses.asdict(rules), first_dealer, seats, rounds, payments)


def house_rules(value, where: str) -> HouseRules:
    """The house rules a backup gives, checked field by field; missing fields
    take HouseRules' defaults, as they would when the app reads them."""
    given = _object(value, where)
    fields = {f.name for f in dataclasses.fields(HouseRules)}
    unknown = sorted(set(given) - fields)
    if unknown:
        raise BackupError(f"{where}: {', '.join(map(_shown, unknown))} is not a house rule.")
    for key in given:
        if key in RULE_NUMBERS:
            _int(given, key, where, *RULE_NUMBERS[key])
        elif key == "extra_pack_players":
            _int(given, key, where, MIN_PLAYERS, MAX_PLAYERS, optional=True)
        elif key == "no_passport_last":
            _bool(given, key, where)
        elif key == "tiers":
            tiers = _list(given, key, where, MAX_TIERS, 1)
            if any(type(t) is not int or not 0 <= t <= TIER_MAX for t in tiers):
                raise BackupError(f'{where}: "tiers" must be whole numbers from 0 to {TIER_MAX}.')
        elif key in RULE_WORDS:
            _text(given, key, where, 20)
    try:
        return HouseRules(**given)
    except ValueError as error:
        raise BackupError(f"{where}: {error}.") from None


def _round(raw, where: str, number: int, rules: HouseRules, at_table: frozenset) -> RoundData:
    row = _object(raw, where)
    given = _int(row, "number", where, 1, MAX_ROUNDS)
    if given != number:
        raise BackupError(f"{where} is numbered {given}: rounds are numbered 1, 2, 3… in order.")
    dealer = _player(row, "dealer", where, at_table)
    created_at = _moment(row, "created_at", where)
    hands = _hands(row, where, at_table)
    if dealer not in {h.player for h in hands}:
        raise BackupError(f"{where}: the dealer, {dealer}, does not play in it.")
    order = [h.player for h in sorted(hands, key=lambda h: h.turn)]
    try:
        score = score_round(order, {h.player: Entry(h.outcome, h.cards) for h in hands}, rules)
    except RoundError as error:
        raise BackupError(f"{where}: {error}.") from None
    entries = []
    for hand in hands:
        parts = score.breakdown[hand.player]
        if max(abs(parts.tier), abs(parts.hu), abs(parts.joker_ace), abs(parts.total)) > CENTS_MAX:
            raise BackupError(f"{where}: {hand.player}'s money is out of range.")
        entries.append(EntryData(
            hand.player, hand.seat, hand.turn, hand.outcome, hand.text,
            score.points[hand.player], score.position[hand.player],
            parts.tier, parts.hu, parts.joker_ace, parts.total))
    entries.sort(key=lambda e: e.turn)
    return RoundData(number, dealer, created_at, entries)


@dataclass(frozen=True)
class _Hand:
    player: str
    seat: int
    turn: int
    outcome: str
    cards: tuple[Card, ...]
    text: str  # the cards in canonical notation


def _hands(row: dict, where: str, players: frozenset) -> list[_Hand]:
    """A round's entries: who, where they sat, when they played, what they held."""
    hands = []
    for raw in _list(row, "entries", where, MAX_PLAYERS, MIN_PLAYERS):
        entry = _object(raw, f"{where}, an entry")
        player = _player(entry, "player", f"{where}, an entry", players)
        at = f"{where}, {player}'s entry"
        outcome, cards, text = _played(entry, at, f"{where}: {player}")
        hands.append(_Hand(player, _int(entry, "seat", at, 0, MAX_PLAYERS - 1),
                           _int(entry, "turn", at, 0, MAX_PLAYERS - 1), outcome, cards, text))
    if len({h.player for h in hands}) != len(hands):
        raise BackupError(f"{where}: a player has two entries.")
    for key in ("seat", "turn"):
        if sorted(getattr(h, key) for h in hands) != list(range(len(hands))):
            raise BackupError(f'{where}: the entries\' "{key}" must be 0, 1, 2… each once.')
    return hands


def _played(entry: dict, at: str, whose: str) -> tuple[str, tuple[Card, ...], str]:
    """An entry's outcome and its cards, also in canonical notation; ``at`` and
    ``whose`` say where they are for the messages."""
    outcome = _text(entry, "outcome", at, 12)
    if outcome not in OUTCOMES:
        raise BackupError(f"{at}: the outcome {_shown(outcome)} is not one of "
                          f"{', '.join(OUTCOMES)}.")
    cards, errors = scan_cards(_text(entry, "cards", at, CARDS_MAX, low=0))
    if errors:
        raise BackupError(f"{whose}'s cards: {_shown(errors[0].token)} is not a card.")
    return outcome, tuple(cards), format_cards(cards)


# The audit trail: what the app writes for each action, checked so that the
# history pages can show it; other actions need only objects or null.
TEXT, TEXTS, INT, RULES = "text", "list of text", "whole number", "house rules"
EVENT_SHAPES = {
    "player.add": {"after": {"name": TEXT}},
    "player.rename": {"before": {"name": TEXT}, "after": {"name": TEXT}},
    "group.timezone": {"before": {"timezone": TEXT}, "after": {"timezone": TEXT}},
    "session.start": {"after": {"players": TEXTS, "first_dealer": TEXT, "currency": TEXT,
                                "house_rules": RULES}},
    "session.rules": {"before": {"house_rules": RULES, "currency": TEXT},
                      "after": {"house_rules": RULES, "currency": TEXT}},
    "seat.join": {"after": {"player": TEXT, "seats": TEXTS}},
    "seat.leave": {"before": {"player": TEXT}},
    "payment.paid": {"after": {"payer": TEXT, "payee": TEXT, "cents": INT}},
    "payment.unpaid": {"before": {"payer": TEXT, "payee": TEXT, "cents": INT}},
    "share.create": {"after": {"link": INT}},
    "share.revoke": {"before": {"link": INT}},
}
ROUND_ACTIONS = ("round.add", "round.edit", "round.delete", "round.restore")


def _event(raw, n: int, sessions: list[SessionData], earlier: list[EventData],
           deadline: float) -> EventData:
    where = f"Audit event {n}"
    _on_time(deadline, where)
    row = _object(raw, where)
    action = _text(row, "action", where, ACTION_MAX)
    if not ACTION.fullmatch(action):
        raise BackupError(f"{where}: the action {_shown(action)} is not like \"round.add\".")
    session = _int(row, "session", where, 0, max(len(sessions) - 1, 0), optional=True)
    if session is not None and not sessions:
        raise BackupError(f"{where}: \"session\" names a session, but the backup has none.")
    sides = {}
    for side in ("before", "after"):
        value = row.get(side)
        sides[side] = None if value is None else _object(value, f"{where}'s \"{side}\"")
    if action in ROUND_ACTIONS:
        if session is None:
            raise BackupError(f"{where}: a round's change needs its \"session\".")
        for side, value in sides.items():
            if value is not None:
                sides[side] = _snapshot(value, f"{where}'s \"{side}\"")
        if action == "round.restore":
            sides["after"] = _restore(sides["after"], row.get("after"), where, session, earlier)
    for side, shape in EVENT_SHAPES.get(action, {}).items():
        if sides[side] is not None:
            sides[side] = _shaped(sides[side], shape, f"{where}'s \"{side}\"")
    return EventData(
        _moment(row, "at", where), _text(row, "device", where, DEVICE_MAX, low=0), action,
        _text(row, "subject", where, SUBJECT_MAX, low=0), session,
        _int(row, "version", where, 1, VERSION_MAX, optional=True), sides["before"],
        sides["after"])


def _shaped(value: dict, shape: dict, where: str) -> dict:
    """``value`` with each key of ``shape`` it has of the kind named; house rules normalised."""
    value = dict(value)
    for key, kind in shape.items():
        if key not in value:
            continue
        item = value[key]
        if kind == RULES:
            value[key] = dataclasses.asdict(house_rules(item, f"{where}, \"{key}\""))
            continue
        fits = {TEXT: isinstance(item, str),
                TEXTS: isinstance(item, list) and all(isinstance(i, str) for i in item),
                INT: type(item) is int and abs(item) <= CENTS_MAX}[kind]
        if not fits:
            raise BackupError(f"{where}: \"{key}\" must be {kind}, not {_shown(item)}.")
    return value


def _snapshot(value: dict, where: str) -> dict:
    """A round as the audit trail keeps it (services.round_snapshot): the shape is
    checked and the cards must read, so it can be shown and restored. It is not
    scored: the session's house rules may have changed since."""
    number = _int(value, "number", where, 1, MAX_ROUNDS)
    dealer = _name(_get(value, "dealer", where), f"{where}: the dealer")
    entries = []
    for raw in _list(value, "entries", where, MAX_PLAYERS, MIN_PLAYERS):
        entry = _object(raw, f"{where}, an entry")
        at = f"{where}, an entry"
        player = _name(_get(entry, "player", at), f"{at}: the player")
        outcome, _, cards = _played(entry, at, f"{where}: {player}")
        entries.append({
            "player": player, "seat": _int(entry, "seat", at, 0, MAX_PLAYERS - 1),
            "turn": _int(entry, "turn", at, 0, MAX_PLAYERS - 1), "outcome": outcome,
            "cards": cards, "points": _int(entry, "points", at, 0, CENTS_MAX),
            "position": _int(entry, "position", at, 1, MAX_PLAYERS),
            "net_cents": _int(entry, "net_cents", at, -CENTS_MAX, CENTS_MAX)})
    names = [e["player"] for e in entries]
    if len(set(names)) != len(names) or dealer not in names:
        raise BackupError(f"{where}: each player must appear once, the dealer among them.")
    for key in ("seat", "turn"):
        if sorted(e[key] for e in entries) != list(range(len(entries))):
            raise BackupError(f'{where}: the entries\' "{key}" must be 0, 1, 2… each once.')
    return {"number": number, "dealer": dealer, "entries": entries}


def _restore(after: dict | None, raw_after, where: str, session: int,
             earlier: list[EventData]) -> dict:
    """A restore names the deletion it undid by its index in the audit list."""
    index = raw_after.get("restores") if isinstance(raw_after, dict) else None
    if after is None or type(index) is not int or not 0 <= index < len(earlier):
        raise BackupError(f"{where}: a restored round's \"restores\" must be the index of "
                          "an earlier audit event.")
    deletion = earlier[index]
    if deletion.action != "round.delete" or deletion.session != session:
        raise BackupError(f"{where}: it restores audit event {index + 1}, which is not a "
                          "round deleted from the same session.")
    return {**after, "restores": index}
