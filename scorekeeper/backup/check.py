"""A backup read and checked before it is imported: nothing here writes. The
document, its group and players, its sessions and their rounds; the history
of changes is events.py's."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..limits import (
    CURRENCY_MAX,
    DEFAULT_TIMEZONE,
    GROUP_NAME_MAX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ZONE_MAX,
    time_zones,
)
from ..phrases import N_, Nn_, Phrase
from ..records import (
    AcrossData,
    Backup,
    EntryData,
    EventData,
    PaymentData,
    PlayerData,
    RoundData,
    SeatData,
    SessionData,
)
from ..rules import Entry, HouseRules, RoundError, score_round
from ..rules.cards import Card
from ..rules.house import shown
from .events import read_event
from .fields import (
    GROUP_PLAYER,
    BackupError,
    an_object,
    bool_field,
    field,
    int_field,
    list_field,
    moment_field,
    name_at,
    on_time,
    optional_moment_field,
    parse,
    payto_field,
    player_field,
    refused_by_rules,
    text_field,
)
from .format import FORMAT, VERSION
from .game import (
    CENTS_MAX,
    MAX_ROUNDS,
    VERSION_MAX,
    cards_of,
    house_rules,
    once_each,
    played,
)
from .places import BACKUP, GROUP, owned, player, quoted, session, within

# What one backup may hold. A group playing weekly adds about 1,000 rounds a
# year (1.6 KB of file each, with the history of changes): four years fit.
# These bound what one import costs: the largest real file they allow is read,
# checked and written in 2.3 s on SQLite and 3.5 s on PostgreSQL here, one made
# to write the most rows in 2.6 and 4.4 s (bench/README.md, "Import of the
# largest backup"). MAX_ROUNDS (in one session) and the largest numbers are
# game.py's.
MAX_BYTES = 8 * 1024 * 1024
MAX_GROUP_PLAYERS = 1000
MAX_SESSIONS = 1000
MAX_ALL_ROUNDS = 4000
MAX_SEATS = 50  # at one session, players who left included
MAX_ALL_SEATS = 6000
MAX_PAYMENTS = 100  # in one session
MAX_ALL_PAYMENTS = 5000
MAX_EVENTS = 12_000  # the history of changes: a real one has about 1.2 per round
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
    exported_at = moment_field(document, "exported_at", BACKUP)
    group = an_object(field(document, "group", BACKUP), owned(BACKUP, "group"))
    group_name = text_field(group, "name", GROUP, GROUP_NAME_MAX)
    zone = _zone(group)

    players = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(list_field(document, "players", BACKUP, MAX_GROUP_PLAYERS),
                            start=1):
        row = an_object(raw, player(n))
        name = name_at(field(row, "name", player(n)),
                       within(player(n), N_("%(place)s's name")))
        if name.casefold() in seen:
            raise BackupError(N_("Player %(number)s's name, %(name)s, is already the name of "
                                 "player %(first)s."),
                              number=n, name=name, first=seen[name.casefold()])
        seen[name.casefold()] = n
        players.append(PlayerData(name, moment_field(row, "created_at", player(n)),
                                  *payto_field(row, player(n))))
    known = frozenset(p.name for p in players)

    raw_sessions = list_field(document, "sessions", BACKUP, MAX_SESSIONS)
    raw_events = list_field(document, "audit", BACKUP, MAX_EVENTS)
    # Counted over all sessions before any is checked.
    for key, most in (("rounds", MAX_ALL_ROUNDS), ("seats", MAX_ALL_SEATS),
                      ("payments", MAX_ALL_PAYMENTS)):
        total = sum(len(s[key]) for s in raw_sessions
                    if isinstance(s, dict) and isinstance(s.get(key), list))
        if total > most:
            raise BackupError(TOO_MANY[key], total=total, most=most)
    sessions = [_session(raw, n, known, deadline) for n, raw in enumerate(raw_sessions, start=1)]
    across = _across(document, known)

    events: list[EventData] = []
    for n, raw in enumerate(raw_events, start=1):
        events.append(read_event(raw, n, sessions, events, deadline))
    return Backup(group_name, zone, exported_at, players, sessions, events, across)


def _zone(group: dict) -> str:
    """The group's time zone; a backup from before groups had one gets the default."""
    if "timezone" not in group:
        return DEFAULT_TIMEZONE
    name = text_field(group, "timezone", GROUP, ZONE_MAX)
    if name not in time_zones():
        raise BackupError(N_("%(where)s: %(key)s is %(value)s, which is not a time zone this "
                             "Scorekeeper knows; it names one such as %(example)s."),
                          where=GROUP, key=quoted("timezone"), value=shown(name),
                          example=quoted("Asia/Kuala_Lumpur"))
    return name


def _across(document: dict, known: frozenset) -> list[AcrossData]:
    """The payments across sessions (a backup from before them has none)."""
    if "payments" not in document:
        return []
    payments = []
    for k, raw in enumerate(list_field(document, "payments", BACKUP, MAX_ALL_PAYMENTS),
                            start=1):
        where = Phrase(N_("Payment %(number)s across sessions"), number=k)
        row = an_object(raw, where)
        payer, payee = (player_field(row, key, where, known, GROUP_PLAYER)
                        for key in ("payer", "payee"))
        if payer == payee:
            raise BackupError(N_("%(where)s: %(payer)s pays themselves."),
                              where=where, payer=payer)
        cents = int_field(row, "cents", where, 1, CENTS_MAX)
        currency = text_field(row, "currency", where, CURRENCY_MAX).strip()
        if not currency:
            raise BackupError(N_("%(where)s: %(key)s is blank."), where=where,
                              key=quoted("currency"))
        payments.append(AcrossData(payer, payee, cents, currency,
                                   moment_field(row, "paid_at", where)))
    return payments


def _session(raw, n: int, known: frozenset, deadline: float) -> SessionData:
    where = session(n)
    row = an_object(raw, where)
    started_at = moment_field(row, "started_at", where)
    ended_at = optional_moment_field(row, "ended_at", where)
    version = int_field(row, "version", where, 1, VERSION_MAX)
    currency = text_field(row, "currency", where, CURRENCY_MAX).strip()
    if not currency:
        raise BackupError(N_("%(where)s: %(key)s is blank."), where=where, key=quoted("currency"))
    rules = house_rules(field(row, "house_rules", where),
                        within(where, N_("%(place)s's house rules")))

    seats = []
    for k, raw_seat in enumerate(list_field(row, "seats", where, MAX_SEATS, MIN_PLAYERS), start=1):
        seat_where = within(where, N_("%(place)s, seat %(number)s"), number=k)
        seat = an_object(raw_seat, seat_where)
        seats.append(SeatData(player_field(seat, "player", seat_where, known, GROUP_PLAYER),
                              int_field(seat, "position", seat_where, 0, MAX_SEATS - 1),
                              bool_field(seat, "active", seat_where)))
    if len({s.player for s in seats}) != len(seats):
        raise BackupError(N_("%(where)s: a player has two seats."), where=where)
    if sorted(s.position for s in seats) != list(range(len(seats))):
        raise BackupError(N_("%(where)s: the seats' positions must be 0, 1, 2… each once."),
                          where=where)
    seats.sort(key=lambda s: s.position)
    seated = sum(s.active for s in seats)
    if not MIN_PLAYERS <= seated <= MAX_PLAYERS:
        raise BackupError(Nn_("%(where)s: %(count)s player is seated; a table has %(least)s to "
                              "%(most)s.",
                              "%(where)s: %(count)s players are seated; a table has %(least)s "
                              "to %(most)s."),
                          where=where, count=seated, least=MIN_PLAYERS, most=MAX_PLAYERS)
    at_table = frozenset(s.player for s in seats)
    first_dealer = player_field(row, "first_dealer", where, at_table)

    rounds = []
    for number, raw_round in enumerate(list_field(row, "rounds", where, MAX_ROUNDS), start=1):
        round_where = within(where, N_("%(place)s, round %(number)s"), number=number)
        on_time(deadline, round_where)
        rounds.append(_round(raw_round, round_where, number, rules, at_table))

    payments = []
    for k, raw_payment in enumerate(list_field(row, "payments", where, MAX_PAYMENTS), start=1):
        pay_where = within(where, N_("%(place)s, payment %(number)s"), number=k)
        payment = an_object(raw_payment, pay_where)
        payer = player_field(payment, "payer", pay_where, at_table)
        payee = player_field(payment, "payee", pay_where, at_table)
        if payer == payee:
            raise BackupError(N_("%(where)s: %(payer)s pays themselves."),
                              where=pay_where, payer=payer)
        cents = int_field(payment, "cents", pay_where, 1, CENTS_MAX)
        payments.append(PaymentData(payer, payee, cents,
                                    moment_field(payment, "paid_at", pay_where)))
    return SessionData(started_at, ended_at, version, currency,
                       rules, first_dealer, seats, rounds, payments)


def _round(raw, where: Phrase, number: int, rules: HouseRules,
           at_table: frozenset) -> RoundData:
    row = an_object(raw, where)
    given = int_field(row, "number", where, 1, MAX_ROUNDS)
    if given != number:
        raise BackupError(N_("%(where)s is numbered %(given)s: rounds are numbered 1, 2, 3… "
                             "in order."), where=where, given=given)
    dealer = player_field(row, "dealer", where, at_table)
    created_at = moment_field(row, "created_at", where)
    hands = _hands(row, where, at_table)
    if dealer not in {h.player for h in hands}:
        raise BackupError(N_("%(where)s: the dealer, %(dealer)s, does not play in it."),
                          where=where, dealer=dealer)
    order = [h.player for h in sorted(hands, key=lambda h: h.turn)]
    try:
        score = score_round(order, {h.player: Entry(h.outcome, h.cards) for h in hands}, rules)
    except RoundError as error:
        raise refused_by_rules(where, error.problems) from None
    entries = []
    for hand in hands:
        parts = score.breakdown[hand.player]
        if max(abs(parts.tier), abs(parts.hu), abs(parts.joker_ace), abs(parts.total)) > CENTS_MAX:
            raise BackupError(N_("%(where)s: %(player)s's money is out of range."),
                              where=where, player=hand.player)
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


def _hands(row: dict, where: Phrase, players: frozenset) -> list[_Hand]:
    """A round's entries: who, where they sat, when they played, what they held."""
    hands = []
    for raw in list_field(row, "entries", where, MAX_PLAYERS, MIN_PLAYERS):
        an_entry = within(where, N_("%(place)s, an entry"))
        entry = an_object(raw, an_entry)
        name = player_field(entry, "player", an_entry, players)
        at = within(where, N_("%(place)s, %(player)s's entry"), player=name)
        outcome, cards, text = played(entry, at, cards_of(where, name))
        hands.append(_Hand(name, int_field(entry, "seat", at, 0, MAX_PLAYERS - 1),
                           int_field(entry, "turn", at, 0, MAX_PLAYERS - 1), outcome, cards, text))
    if len({h.player for h in hands}) != len(hands):
        raise BackupError(N_("%(where)s: a player has two entries."), where=where)
    for key in ("seat", "turn"):
        if sorted(getattr(h, key) for h in hands) != list(range(len(hands))):
            raise once_each(where, key)
    return hands
