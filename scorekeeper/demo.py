"""Demo data: realistic random play, for trying the app and for benchmarks.

Generation is pure: players are names, every deal comes from a shuffled deck
of the session's house rules, and every round is scored by the rules engine,
so the money is exactly what the app would have saved. Dealers and playing
orders follow the engine as queries.upcoming does.

Nothing here writes: a plan is made of records (records.SessionData), which
services.seed_demo_group puts in the database.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from functools import cache

from .payto import Kind, encode, merchant_name, with_crc
from .records import DemoGroup, EntryData, PaymentData, RoundData, SeatData, SessionData
from .rules import (
    JOKER,
    Card,
    Entry,
    HouseRules,
    RoundScore,
    find_meld,
    format_cards,
    next_dealer,
    playing_order,
    score_round,
    settle,
)
from .rules.cards import SUITS
from .rules.melds import display_order

DEMO_PASSPHRASE = "demo passphrase"
DEMO_CURRENCY = "RM"

NAMES = (
    "Ah Seng", "Mei Ling", "Kok Wai", "Siew Lan", "Ravi", "Aisyah", "Boon Hock",
    "Chooi Yee", "Hafiz", "Geok Lian", "Teik Hin", "Priya", "Wei Jie", "Swee Lin",
    "Kamal", "Bee Choo", "Jun Hao", "Lay Hoon", "Suresh", "Nurul",
)
POOL_SIZE = (6, 10)  # players a group has
TABLE_SIZE = (3, 6)  # players at a session's start

HU = 0.65  # share of rounds somebody wins
TIEN_HU = 0.005  # share of rounds won with the hand as dealt
SEAT_CHANGES = 0.15  # share of sessions where someone leaves or joins
OTHER_PRESET = 0.2  # share of a group's sessions played by its other preset
ALL_PAID = 0.85  # share of finished sessions whose transfers are all marked paid
DEAD_CARDS = (1, 10)  # cards a dead player is left with, before melds are taken out
ROUND_MINUTES = (3, 8)


def moved(session: SessionData, by: timedelta) -> SessionData:
    """The same session played ``by`` later (many sessions from a few played ones)."""
    return dataclasses.replace(
        session, started_at=session.started_at + by,
        ended_at=session.ended_at and session.ended_at + by,
        rounds=[dataclasses.replace(r, created_at=r.created_at + by) for r in session.rounds],
        payments=[dataclasses.replace(p, paid_at=p.paid_at + by) for p in session.payments])


# Generation


def play_group(rng: random.Random, sessions: int, rounds: int, now: datetime) -> DemoGroup:
    """A group's players and its ``sessions`` sessions of about ``rounds`` rounds,
    spread back from ``now``; made one at a time as they are read."""
    players = choose_players(rng)
    home = rng.choice((HouseRules.penang(), HouseRules.rummi()))
    other = HouseRules.rummi() if home == HouseRules.penang() else HouseRules.penang()
    # Weekly, or closer together when ten years would not hold them all.
    gap = min(timedelta(days=7), timedelta(days=3650) / sessions)
    since = now - sessions * gap

    def played() -> Iterator[SessionData]:
        for i in range(sessions):
            rules = other if rng.random() < OTHER_PRESET else home
            start = since + i * gap + rng.random() * gap / 4
            last = i == sessions - 1  # still being played
            count = rng.randint(1, rounds) if last else about(rng, rounds)
            yield play_session(rng, players, rules, start, count, finished=not last)

    return DemoGroup(players, since, played(), payto_details(rng, players))


def payto_details(rng: random.Random, players: list[str]) -> dict[str, tuple[str, str]]:
    """Payment details for about half the players, so that settle up shows
    QR codes: DuitNow mobile numbers (+60 12-000 0xxx, made up), and a bank's
    "receive money" QR in the layout of PayNet's own worked example (its
    example acquirer, a made-up QR id)."""
    details = {}
    for n, name in enumerate(rng.sample(players, (len(players) + 1) // 2)):
        if n % 2:
            details[name] = (Kind.DUITNOW_MOBILE.value, f"+60120000{rng.randrange(1000):03d}")
        else:
            account = encode([("00", "A0000006150001"), ("01", "501664"),
                              ("02", f"DEMO{rng.randrange(10 ** 6):06d}")])
            details[name] = (Kind.BANK_QR.value, with_crc([
                ("00", "02"), ("01", "11"), ("26", account), ("52", "0000"), ("53", "458"),
                ("58", "MY"), ("59", merchant_name(name).upper()), ("60", "PENANG")]))
    return details


def choose_players(rng: random.Random) -> list[str]:
    return rng.sample(NAMES, rng.randint(*POOL_SIZE))


def about(rng: random.Random, n: int) -> int:
    """A count within a quarter of ``n``, at least 1."""
    return max(1, rng.randint(n - n // 4, n + n // 4))


def fits(rules: HouseRules, players: int) -> bool:
    """Whether the deck holds a hand for each of ``players`` players."""
    return players * rules.cards_dealt(players) <= len(full_deck(rules.packs_for(players),
                                                                 rules.jokers))


def play_session(rng: random.Random, pool: list[str], rules: HouseRules, started_at: datetime,
                 rounds: int, finished: bool = True) -> SessionData:
    """A session of ``rounds`` rounds among players of ``pool``."""
    size = rng.randint(*TABLE_SIZE)
    while not fits(rules, size):
        size -= 1
    table = rng.sample(pool, size)
    everyone = list(table)  # clockwise, those who left keep their place
    left: set[str] = set()
    first_dealer = rng.choice(table)
    changes = set()
    if rounds >= 3 and rng.random() < SEAT_CHANGES:
        changes = set(rng.sample(range(2, rounds + 1), min(rng.randint(1, 2), rounds - 1)))

    version = 1
    played: list[RoundData] = []
    moment = started_at
    dealer, score = first_dealer, None
    for number in range(1, rounds + 1):
        if number in changes and _change_seats(rng, pool, rules, everyone, left):
            version += 1
        seated = [name for name in everyone if name not in left]
        if score is not None:
            dealer = next_dealer(seated, dealer, score, rules)
        order = playing_order(seated, dealer, rules)
        entries = deal(rng, rules, order)
        score = score_round(order, entries, rules)
        moment += timedelta(minutes=rng.uniform(*ROUND_MINUTES))
        played.append(RoundData(number, dealer, moment, _entries(seated, entries, score)))
        version += 1

    payments = []
    ended_at = None
    if finished:
        ended_at = moment + timedelta(minutes=rng.uniform(1, 10))
        payments = _payments(rng, played, everyone, ended_at)
        version += len(payments) + 1
    seats = [SeatData(name, i, name not in left) for i, name in enumerate(everyone)]
    return SessionData(started_at, ended_at, version, DEMO_CURRENCY, rules, first_dealer,
                       seats, played, payments)


def _change_seats(rng: random.Random, pool: list[str], rules: HouseRules,
                  everyone: list[str], left: set[str]) -> bool:
    """Someone leaves, or someone new joins at a random place, as
    services.leave_session and services.join_session do; whether anyone moved."""
    seated = [name for name in everyone if name not in left]
    newcomers = [name for name in pool if name not in everyone]
    can_join = bool(newcomers) and fits(rules, len(seated) + 1) and len(seated) < TABLE_SIZE[1]
    can_leave = len(seated) > TABLE_SIZE[0]
    if can_join and (not can_leave or rng.random() < 0.5):
        name = rng.choice(newcomers)
        position = rng.randint(0, len(seated))
        if position < len(seated):
            everyone.insert(everyone.index(seated[position]), name)
        else:
            everyone.insert(everyone.index(seated[-1]) + 1, name)
        return True
    if can_leave:
        left.add(rng.choice(seated))
        return True
    return False


@cache
def full_deck(packs: int, jokers: int) -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for _ in range(packs) for suit in SUITS
                 for rank in range(1, 14)) + (JOKER,) * jokers


def deal(rng: random.Random, rules: HouseRules, order: list[str]) -> dict[str, Entry]:
    """What each player is left with after a shuffled deal: nothing for a Hu
    winner, the whole melded hand for a Tien Hu, part of the hand dealt for
    everyone else (dead), without a meld they could have laid down."""
    n = len(order)
    dealt = rules.cards_dealt(n)
    deck = list(full_deck(rules.packs_for(n), rules.jokers))
    rng.shuffle(deck)
    roll = rng.random()
    winner = rng.choice(order) if roll < HU else None
    entries: dict[str, Entry] = {}
    if winner is not None:
        if roll < TIEN_HU:  # TIEN_HU < HU
            hand = melded_hand(rng, Counter(deck), dealt)
            for card in hand:
                deck.remove(card)
            entries[winner] = Entry("tien_hu", tuple(hand))
        else:
            entries[winner] = Entry("hu")
    for i, player in enumerate(p for p in order if p not in entries):
        entries[player] = Entry("dead", _dead_hand(rng, deck[i * dealt:(i + 1) * dealt]))
    return entries


def _dead_hand(rng: random.Random, hand: list[Card]) -> tuple[Card, ...]:
    cards = rng.sample(hand, min(len(hand) - 1, rng.randint(*DEAD_CARDS)))
    # A meld found would have been laid down; a meld takes three cards.
    while len(cards) >= 3 and (meld := find_meld(cards)) is not None:
        cards.remove(rng.choice(meld))
    return tuple(sorted(cards, key=display_order))


def melded_hand(rng: random.Random, deck: Counter, size: int) -> list[Card]:
    """``size`` cards of ``deck`` that are all runs and sets (a Tien Hu)."""
    while True:
        left = Counter(deck)
        hand: list[Card] = []
        while len(hand) < size:
            need = size - len(hand)
            length = need if need <= 5 else rng.choice([k for k in (3, 4, 5) if need - k >= 3])
            meld = _meld(rng, length)
            if rng.random() < 0.2:
                meld[rng.randrange(length)] = JOKER
            wanted = Counter(meld)
            if any(left[card] < n for card, n in wanted.items()):
                break  # not enough copies left: start the hand again
            left -= wanted
            hand += meld
        else:
            return sorted(hand, key=display_order)


def _meld(rng: random.Random, length: int) -> list[Card]:
    if rng.random() < 0.7:  # a run, the ace low or high
        suit = rng.choice(SUITS)
        start = rng.randint(1, 15 - length)
        return [Card(1 if p == 14 else p, suit) for p in range(start, start + length)]
    rank = rng.randint(1, 13)
    return [Card(rank, rng.choice(SUITS)) for _ in range(length)]


def _entries(seated: list[str], entries: dict[str, Entry],
             score: RoundScore) -> list[EntryData]:
    """The round's rows, in playing order, as services.rounds fills them."""
    rows = []
    for turn, player in enumerate(score.order):
        parts = score.breakdown[player]
        rows.append(EntryData(
            player, seated.index(player), turn, entries[player].outcome,
            format_cards(entries[player].cards), score.points[player], score.position[player],
            parts.tier, parts.hu, parts.joker_ace, score.net_cents[player]))
    return rows


def _payments(rng: random.Random, rounds: list[RoundData], everyone: list[str],
              ended_at: datetime) -> list[PaymentData]:
    balances = dict.fromkeys(everyone, 0)
    for round_ in rounds:
        for entry in round_.entries:
            balances[entry.player] += entry.net_cents
    paid = [(t, t.cents) for t in settle(balances)]
    if rng.random() >= ALL_PAID:  # some paid, some paid in part, some not yet
        paid = [(t, cents if rng.random() < 0.5 else _part(rng, cents))
                for t, cents in paid if rng.random() < 0.7]
    return [PaymentData(t.payer, t.payee, cents,
                        ended_at + timedelta(minutes=rng.uniform(1, 60 * 24)))
            for t, cents in paid if cents]


def _part(rng: random.Random, cents: int) -> int:
    """A round part of ``cents`` (whole ringgit or ten sen), less than all of it; 0 if none."""
    step = 100 if cents > 1000 else 10
    return rng.randrange(0, cents, step) if cents > step else 0
