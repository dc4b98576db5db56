"""A backup read and checked before it is imported: nothing here writes."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace

from ..audit import (
    Action,
    Payload,
    PayloadError,
    RoundAdded,
    RoundDeleted,
    RoundEdited,
    RoundRestored,
    RoundSnapshot,
    RulesChanged,
    SessionStarted,
    Stored,
    payload_type,
)
from ..limits import (
    ACTION_MAX,
    CURRENCY_MAX,
    DEFAULT_TIMEZONE,
    DEVICE_MAX,
    GROUP_NAME_MAX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OUTCOME_MAX,
    SUBJECT_MAX,
    ZONE_MAX,
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
from ..rules import Entry, HouseRules, RoundError, RulesError, format_cards, score_round
from ..rules.cards import Card, scan_cards
from ..rules.house import shown
from ..rules.scoring import OUTCOMES
from .fields import (
    GROUP_PLAYER,
    N_,
    BackupError,
    an_object,
    bool_field,
    field,
    int_field,
    kind_of,
    list_field,
    moment_field,
    name_at,
    on_time,
    optional_moment_field,
    parse,
    payto_field,
    player_field,
    text_field,
)
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
CARDS_MAX = 400  # characters of one hand
VERSION_MAX = 10 ** 9
CENTS_MAX = 10 ** 9  # one amount; fits every database's integer column
ACTION = re.compile(r"[a-z_]+\.[a-z_]+")
# Scoring a round takes under a millisecond, but a crafted full hand of 40 cards
# can take tens: a file that takes this long to check is refused. The largest
# real backup allowed takes about 2 s to check here (3.4 s beside another busy
# process), twice that in the host's slow spells; 4,000 rounds of large crafted
# hands 7.6 s.
CHECK_SECONDS = 8


# More of these in all sessions together than an import takes.
TOO_MANY = {
    "rounds": N_("The backup has %(total)s rounds in all sessions together; "
                 "an import takes at most %(most)s."),
    "seats": N_("The backup has %(total)s seats in all sessions together; "
                "an import takes at most %(most)s."),
    "payments": N_("The backup has %(total)s payments in all sessions together; "
                   "an import takes at most %(most)s."),
}


def read_backup(data: bytes, seconds: float = CHECK_SECONDS) -> Backup:
    """The backup in ``data``, checked from end to end in at most about ``seconds``;
    BackupError says what is wrong and where. Nothing is written."""
    if len(data) > MAX_BYTES:
        raise BackupError(N_("The file is %(size)s, larger than a backup may be: "
                             "an import takes files of up to %(most)s."),
                          size=size_text(len(data)), most=size_text(MAX_BYTES))
    return _backup(parse(data), time.monotonic() + seconds)


def size_text(size: int) -> str:
    """A file's size in MB (2**20 bytes), rounded up to the hundredth:
    8388608 -> "8 MB", 8388609 -> "8.01 MB", 9437184 -> "9 MB"."""
    hundredths = -(-size * 100 // 2 ** 20)
    return f"{hundredths / 100:.2f}".rstrip("0").rstrip(".") + " MB"


def _backup(document, deadline: float) -> Backup:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(N_("This is not a Scorekeeper group backup: it lacks the mark "
                             "%(mark)s. Export one from a group's page."),
                          mark='"format": "scorekeeper-group"')
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        raise BackupError(N_("This backup is of version %(version)s, but this Scorekeeper "
                             "reads version %(reads)s only."),
                          version=shown(version), reads=VERSION)
    where = "The backup"
    exported_at = moment_field(document, "exported_at", where)
    group = an_object(field(document, "group", where), "The backup's \"group\"")
    group_name = text_field(group, "name", "The backup's group", GROUP_NAME_MAX)
    zone = _zone(group)

    players = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(list_field(document, "players", where, MAX_GROUP_PLAYERS), start=1):
        row = an_object(raw, f"Player {n}")
        name = name_at(field(row, "name", f"Player {n}"), f"Player {n}'s name")
        if name.casefold() in seen:
            raise BackupError(N_("Player %(number)s's name, %(name)s, is already the name of "
                                 "player %(first)s."),
                              number=n, name=name, first=seen[name.casefold()])
        seen[name.casefold()] = n
        players.append(PlayerData(name, moment_field(row, "created_at", f"Player {n}"),
                                  *payto_field(row, f"Player {n}")))
    known = frozenset(p.name for p in players)

    raw_sessions = list_field(document, "sessions", where, MAX_SESSIONS)
    raw_events = list_field(document, "audit", where, MAX_EVENTS)
    # Counted over all sessions before any is checked.
    for key, most in (("rounds", MAX_ALL_ROUNDS), ("seats", MAX_ALL_SEATS),
                      ("payments", MAX_ALL_PAYMENTS)):
        total = sum(len(s[key]) for s in raw_sessions
                    if isinstance(s, dict) and isinstance(s.get(key), list))
        if total > most:
            raise BackupError(TOO_MANY[key], total=total, most=most)
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
    name = text_field(group, "timezone", where, ZONE_MAX)
    if name not in time_zones():
        raise BackupError(f'{where}: "timezone" is {shown(name)}, which is not a time zone '
                          'this Scorekeeper knows; it names one such as "Asia/Kuala_Lumpur".')
    return name


def _session(raw, n: int, known: frozenset, deadline: float) -> SessionData:
    where = f"Session {n}"
    row = an_object(raw, where)
    started_at = moment_field(row, "started_at", where)
    ended_at = optional_moment_field(row, "ended_at", where)
    version = int_field(row, "version", where, 1, VERSION_MAX)
    currency = text_field(row, "currency", where, CURRENCY_MAX).strip()
    if not currency:
        raise BackupError(f'{where}: "currency" is blank.')
    rules = house_rules(field(row, "house_rules", where), f"{where}'s house rules")

    seats = []
    for k, raw_seat in enumerate(list_field(row, "seats", where, MAX_SEATS, MIN_PLAYERS), start=1):
        seat_where = f"{where}, seat {k}"
        seat = an_object(raw_seat, seat_where)
        seats.append(SeatData(player_field(seat, "player", seat_where, known, GROUP_PLAYER),
                              int_field(seat, "position", seat_where, 0, MAX_SEATS - 1),
                              bool_field(seat, "active", seat_where)))
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
    first_dealer = player_field(row, "first_dealer", where, at_table)

    rounds = []
    for number, raw_round in enumerate(list_field(row, "rounds", where, MAX_ROUNDS), start=1):
        on_time(deadline, f"{where}, round {number}")
        rounds.append(_round(raw_round, f"{where}, round {number}", number, rules, at_table))

    payments = []
    for k, raw_payment in enumerate(list_field(row, "payments", where, MAX_PAYMENTS), start=1):
        pay_where = f"{where}, payment {k}"
        payment = an_object(raw_payment, pay_where)
        payer = player_field(payment, "payer", pay_where, at_table)
        payee = player_field(payment, "payee", pay_where, at_table)
        if payer == payee:
            raise BackupError(f"{pay_where}: {payer} pays themselves.")
        cents = int_field(payment, "cents", pay_where, 1, CENTS_MAX)
        payments.append(PaymentData(payer, payee, cents,
                                    moment_field(payment, "paid_at", pay_where)))
    return SessionData(started_at, ended_at, version, currency,
                       rules, first_dealer, seats, rounds, payments)


def house_rules(value, where: str) -> HouseRules:
    """The house rules a backup gives, read as the app reads a session's
    (HouseRules.from_json: missing fields take the defaults) and held to the
    limits the app takes (HouseRules.check_limits), as the form's are."""
    given = an_object(value, where)
    try:
        rules = HouseRules.from_json(given)
        rules.check_limits()
    except RulesError as error:
        raise BackupError(where, error.problems) from None
    return rules


def _round(raw, where: str, number: int, rules: HouseRules, at_table: frozenset) -> RoundData:
    row = an_object(raw, where)
    given = int_field(row, "number", where, 1, MAX_ROUNDS)
    if given != number:
        raise BackupError(f"{where} is numbered {given}: rounds are numbered 1, 2, 3… in order.")
    dealer = player_field(row, "dealer", where, at_table)
    created_at = moment_field(row, "created_at", where)
    hands = _hands(row, where, at_table)
    if dealer not in {h.player for h in hands}:
        raise BackupError(f"{where}: the dealer, {dealer}, does not play in it.")
    order = [h.player for h in sorted(hands, key=lambda h: h.turn)]
    try:
        score = score_round(order, {h.player: Entry(h.outcome, h.cards) for h in hands}, rules)
    except RoundError as error:
        raise BackupError(where, error.problems) from None
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
    for raw in list_field(row, "entries", where, MAX_PLAYERS, MIN_PLAYERS):
        entry = an_object(raw, f"{where}, an entry")
        player = player_field(entry, "player", f"{where}, an entry", players)
        at = f"{where}, {player}'s entry"
        outcome, cards, text = _played(entry, at, f"{where}: {player}")
        hands.append(_Hand(player, int_field(entry, "seat", at, 0, MAX_PLAYERS - 1),
                           int_field(entry, "turn", at, 0, MAX_PLAYERS - 1), outcome, cards, text))
    if len({h.player for h in hands}) != len(hands):
        raise BackupError(f"{where}: a player has two entries.")
    for key in ("seat", "turn"):
        if sorted(getattr(h, key) for h in hands) != list(range(len(hands))):
            raise BackupError(f'{where}: the entries\' "{key}" must be 0, 1, 2… each once.')
    return hands


def _played(entry: dict, at: str, whose: str) -> tuple[str, tuple[Card, ...], str]:
    """An entry's outcome and its cards, also in canonical notation; ``at`` and
    ``whose`` say where they are for the messages."""
    outcome = text_field(entry, "outcome", at, OUTCOME_MAX)
    if outcome not in OUTCOMES:
        raise BackupError(f"{at}: the outcome {shown(outcome)} is not one of "
                          f"{', '.join(OUTCOMES)}.")
    cards, errors = scan_cards(text_field(entry, "cards", at, CARDS_MAX, low=0))
    if errors:
        raise BackupError(f"{whose}'s cards: {shown(errors[0].token)} is not a card.")
    return outcome, tuple(cards), format_cards(cards)


# The audit trail: an action the schema (scorekeeper.audit) knows must have its
# payload, checked so that the history pages can show it and a deleted round can
# be restored; other actions need only objects or null.


def _event(raw, n: int, sessions: list[SessionData], earlier: list[EventData],
           deadline: float) -> EventData:
    where = f"Audit event {n}"
    on_time(deadline, where)
    row = an_object(raw, where)
    action = text_field(row, "action", where, ACTION_MAX)
    if not ACTION.fullmatch(action):
        raise BackupError(f"{where}: the action {shown(action)} is not like \"round.add\".")
    session = int_field(row, "session", where, 0, max(len(sessions) - 1, 0), optional=True)
    if session is not None and not sessions:
        raise BackupError(f"{where}: \"session\" names a session, but the backup has none.")
    before, after = (None if row.get(side) is None
                     else an_object(row[side], f"{where}'s \"{side}\"")
                     for side in ("before", "after"))
    kind = payload_type(action)
    if kind is not None:
        before, after = _payload(kind, before, after, where, session, earlier)
    return EventData(
        moment_field(row, "at", where), text_field(row, "device", where, DEVICE_MAX, low=0), action,
        text_field(row, "subject", where, SUBJECT_MAX, low=0), session,
        int_field(row, "version", where, 1, VERSION_MAX, optional=True), before, after)


def _payload(kind: type[Payload], before: dict | None, after: dict | None, where: str,
             session: int | None, earlier: list[EventData]) -> Stored:
    """The before and after of an event of ``kind``, as the schema writes them:
    read by it, round snapshots checked by _snapshot, house rules as a
    session's are, and every whole number within CENTS_MAX."""
    try:
        payload = kind.from_json(before, after)
    except PayloadError as error:
        raise BackupError(_payload_problem(error, where)) from None
    if kind.action.is_round and session is None:
        raise BackupError(f"{where}: a round's change needs its \"session\".")
    if isinstance(payload, RoundRestored):
        _restore(payload.restores, where, session, earlier)
    stored = _rules_checked(_snapshots_checked(payload, where), where).to_json()
    for side, value in stored._asdict().items():
        for key, item in (value or {}).items():
            if type(item) is int:
                int_field(value, key, f"{where}'s \"{side}\"", -CENTS_MAX, CENTS_MAX)
    return stored


def _payload_problem(error: PayloadError, where: str) -> str:
    if not error.path:  # a side that is null or missing, in JSON's words
        return f"{where}'s \"{error.side}\" must be an object {{…}}, not {kind_of(error.value)}."
    return error.of(where) + "."


def _rules_checked(payload: Payload, where: str) -> Payload:
    """A payload's house rules checked as a session's are, and written out in full."""
    def rules(value: dict, side: str) -> dict:
        return house_rules(value, f"{where}'s \"{side}\", \"house_rules\"").to_json()

    if isinstance(payload, SessionStarted):
        return replace(payload, house_rules=rules(payload.house_rules, "after"))
    if isinstance(payload, RulesChanged):
        return replace(payload, old_rules=rules(payload.old_rules, "before"),
                       new_rules=rules(payload.new_rules, "after"))
    return payload


def _snapshots_checked(payload: Payload, where: str) -> Payload:
    """A round change's snapshots checked by _snapshot, names tidied and cards
    written as the app writes them."""
    def checked(snapshot: RoundSnapshot, side: str) -> RoundSnapshot:
        return _snapshot(snapshot, f"{where}'s \"{side}\"")

    match payload:
        case RoundEdited(old=old, new=new):
            return replace(payload, old=checked(old, "before"), new=checked(new, "after"))
        case RoundDeleted(round=kept):
            return replace(payload, round=checked(kept, "before"))
        case RoundAdded(round=kept, entered_by=entered_by):
            kept = checked(kept, "after")
            return replace(payload, round=kept, entered_by=_entered_by(entered_by, kept, where))
        case RoundRestored(round=kept):
            return replace(payload, round=checked(kept, "after"))
    return payload


def _entered_by(entered_by: tuple[tuple[str, str], ...], kept: RoundSnapshot,
                where: str) -> tuple[tuple[str, str], ...]:
    """Which phone entered each hand of a round filled in together: players of
    the round, and phone names no longer than a phone's."""
    at = f'{where}\'s "after", "entered_by"'
    names = {entry.player for entry in kept.entries}
    checked = []
    for player, phone in entered_by:
        name = name_at(player, f"{at}: a player")
        if name not in names:
            raise BackupError(f"{at}: {shown(name)} does not play that round.")
        if len(phone) > DEVICE_MAX:
            raise BackupError(f"{at}: a phone's name has at most {DEVICE_MAX} characters.")
        checked.append((name, phone))
    return tuple(checked)


def _snapshot(snapshot: RoundSnapshot, where: str) -> RoundSnapshot:
    """A round as the audit trail keeps it (services.round_snapshot), its
    numbers in range and its cards readable, so it can be shown and restored.
    It is not scored: the session's house rules may have changed since."""
    int_field(vars(snapshot), "number", where, 1, MAX_ROUNDS)
    dealer = name_at(snapshot.dealer, f"{where}: the dealer")
    if not MIN_PLAYERS <= len(snapshot.entries) <= MAX_PLAYERS:
        raise BackupError(f"{where}: \"entries\" has {len(snapshot.entries)} items; "
                          f"a backup allows {MIN_PLAYERS} to {MAX_PLAYERS}.")
    entries = []
    for entry in snapshot.entries:
        at, fields = f"{where}, an entry", vars(entry)
        player = name_at(entry.player, f"{at}: the player")
        _, _, cards = _played(fields, at, f"{where}: {player}")
        for key, low, high in (("seat", 0, MAX_PLAYERS - 1), ("turn", 0, MAX_PLAYERS - 1),
                               ("points", 0, CENTS_MAX), ("position", 1, MAX_PLAYERS),
                               ("net_cents", -CENTS_MAX, CENTS_MAX)):
            int_field(fields, key, at, low, high)
        entries.append(replace(entry, player=player, cards=cards))
    names = [e.player for e in entries]
    if len(set(names)) != len(names) or dealer not in names:
        raise BackupError(f"{where}: each player must appear once, the dealer among them.")
    for key in ("seat", "turn"):
        if sorted(getattr(e, key) for e in entries) != list(range(len(entries))):
            raise BackupError(f'{where}: the entries\' "{key}" must be 0, 1, 2… each once.')
    return replace(snapshot, dealer=dealer, entries=tuple(entries))


def _restore(index: int, where: str, session: int | None, earlier: list[EventData]) -> None:
    """A restore names the deletion it undid by its index in the audit list."""
    if not 0 <= index < len(earlier):
        raise BackupError(f"{where}: a restored round's \"restores\" must be the index of "
                          "an earlier audit event.")
    deletion = earlier[index]
    if deletion.action != Action.ROUND_DELETE or deletion.session != session:
        raise BackupError(f"{where}: it restores audit event {index + 1}, which is not a "
                          "round deleted from the same session.")
