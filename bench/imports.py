"""Importing the largest backup that "Import a backup" takes.

Builds backups at the import's limits (scorekeeper/backup/check.py: MAX_BYTES,
MAX_ALL_ROUNDS and the other MAX_ counts) and imports each into a fresh
database as the import page does (backup.read_backup, then
services.import_group), each in a process of its own, printing: the file's
size and counts, the time to read and check it (JSON, every round scored
again), the time to write it, how long the write transaction held the
database (on SQLite its write lock: from the first INSERT to the end of the
COMMIT), and the process's peak memory (max RSS, the app loaded included).

With --neighbour, another process meanwhile saves rounds in another group's
session, one after another, as a table playing next door would; the figures
then include the slowest of those saves and how many failed.

    .venv/bin/python bench/imports.py                       # SQLite file in instance/
    .venv/bin/python bench/imports.py --database-url postgresql://...
    .venv/bin/python bench/imports.py --shape real --neighbour
    .venv/bin/python bench/imports.py --shape real --save /tmp/real.json
    .venv/bin/python bench/imports.py --file /tmp/real.json  # a file made before

The shapes (see build):

    real   a group as the app leaves it: demo play (every deal from a shuffled
           deck, every round scored by the rules engine) and its history of
           changes as the services write it (a round.add per round with the
           round's snapshot, session.start, payment.paid, session.end):
           sessions of about 25 rounds, as many as the limits allow.
    dense  a file made to write the most rows: every count at its limit (six
           players a round, the most seats, payments and audit events), the
           bytes left over spent on the events' "after" objects.
    slow   the most rounds, each with hands that are slow to score: a Tien Hu
           of 40 cards that melds completely and five dead hands of 36 cards
           (four packs, 16 jokers), no two rounds alike: what the checking
           deadline (CHECK_SECONDS) is for.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import resource
import sys
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hostspeed
from scorekeeper import backup, create_app, demo, services
from scorekeeper.audit import (
    SNAPSHOT_FIELDS,
    Payload,
    PaymentPaid,
    PlayerAdded,
    RoundAdded,
    RoundSnapshot,
    SessionEnded,
    SessionStarted,
    SnapshotEntry,
)
from scorekeeper.backup.export import file_time
from scorekeeper.extensions import db
from scorekeeper.records import RoundData, SessionData
from scorekeeper.rules import (
    JOKER,
    Card,
    Entry,
    HouseRules,
    RoundError,
    format_cards,
    score_round,
)
from scorekeeper.rules.cards import SUITS
from scorekeeper.services.protocol import event_columns

NOW = datetime(2026, 11, 20, 12)
AT = "2026-01-01T00:00:00Z"
PASSPHRASE = "bench passphrase"
SETTINGS = {"SECRET_KEY": "bench-" + "0" * 40, "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000"}
DEVICE = "Mei's phone"


def compact(document: dict) -> bytes:
    """As the JSON export writes it."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def document(group: str, players: list[dict], sessions: list[dict], audit: list[dict],
             timezone: str = "Asia/Kuala_Lumpur") -> dict:
    return {"format": backup.FORMAT, "version": backup.VERSION, "exported_at": file_time(NOW),
            "group": {"name": group, "timezone": timezone}, "players": players,
            "sessions": sessions, "payments": [], "audit": audit}


# The real shape: demo play, and the history of changes the services write


def audit_event(at: datetime, payload: Payload, session: int | None = None,
          version: int | None = None) -> dict:
    """An audit event as the JSON export writes it, of ``payload`` as the
    services record it."""
    return {"at": file_time(at), "device": DEVICE, **event_columns(payload),
            "session": session, "version": version}


def snapshot(played: RoundData) -> RoundSnapshot:
    """A round as the audit trail keeps it (services.round_snapshot)."""
    return RoundSnapshot(played.number, played.dealer, tuple(
        SnapshotEntry(e.player, *(getattr(e, name) for name in SNAPSHOT_FIELDS))
        for e in played.entries))


def real_document(sessions: list[SessionData], players: list[str],
                  since: datetime) -> dict:
    """A group's backup as the JSON export writes it, of ``sessions`` played by
    ``players``, with the history of changes the services would have written."""
    audit = [audit_event(since, PlayerAdded(name)) for name in players]
    documents = []
    for index, s in enumerate(sessions):
        rules = s.house_rules.to_json()
        documents.append({
            "started_at": file_time(s.started_at), "ended_at": file_time(s.ended_at),
            "version": s.version, "currency": "RM", "house_rules": rules,
            "first_dealer": s.first_dealer,
            "seats": [{"player": seat.player, "position": seat.position, "active": seat.active}
                      for seat in s.seats],
            "rounds": [{"number": r.number, "dealer": r.dealer,
                        "created_at": file_time(r.created_at),
                        "entries": [dataclasses.asdict(e) for e in r.entries]}
                       for r in s.rounds],
            "payments": [{"payer": p.payer, "payee": p.payee, "cents": p.cents,
                          "paid_at": file_time(p.paid_at)} for p in s.payments],
        })
        changes: list[tuple[datetime, Payload]] = [
            (s.started_at, SessionStarted(tuple(s.first_table), s.first_dealer, "RM", rules))]
        changes += [(r.created_at, RoundAdded(snapshot(r))) for r in s.rounds]
        changes += [(p.paid_at, PaymentPaid(p.payer, p.payee, p.cents)) for p in s.payments]
        if s.ended_at:
            changes.append((s.ended_at, SessionEnded()))
        audit += [audit_event(at, payload, index, version)
                  for version, (at, payload) in enumerate(changes, start=1)]
    return document("Bench table", [{"name": n, "created_at": file_time(since)}
                                    for n in players], documents, audit)


def real_backup(rounds_per_session: int = 25, seed: int = 2026) -> bytes:
    """The largest real backup within the limits: sessions of about
    ``rounds_per_session`` rounds, weekly, as many as fit."""
    rng = random.Random(seed)
    most_rounds = backup.check.MAX_ALL_ROUNDS
    plan = demo.play_group(rng, most_rounds // rounds_per_session + 10, rounds_per_session,
                           NOW)
    sessions = []
    totals = Counter(events=len(plan.players))
    for session in plan.sessions:
        adds = Counter(rounds=len(session.rounds), seats=len(session.seats),
                       payments=len(session.payments),
                       events=2 + len(session.rounds) + len(session.payments))
        totals += adds
        if (len(sessions) == backup.check.MAX_SESSIONS or totals["rounds"] > most_rounds
                or totals["seats"] > backup.check.MAX_ALL_SEATS
                or totals["payments"] > backup.check.MAX_ALL_PAYMENTS
                or totals["events"] > backup.check.MAX_EVENTS):
            break
        sessions.append(session)
    while True:  # fewer sessions if the bytes are over the limit
        body = compact(real_document(sessions, plan.players, plan.since))
        if len(body) <= backup.check.MAX_BYTES:
            return body
        sessions = sessions[:int(len(sessions) * backup.check.MAX_BYTES / len(body))]


# The dense shape: the most rows


def dense_backup() -> bytes:
    """Every count at its limit, in as few bytes as each row can have; the
    bytes left over go to the audit events' "after" objects."""
    names = [f"P{i}" for i in range(backup.check.MAX_GROUP_PLAYERS)]
    n_sessions = backup.check.MAX_SESSIONS
    seats_each = min(backup.check.MAX_SEATS, backup.check.MAX_ALL_SEATS // n_sessions)
    payments_each = min(backup.check.MAX_PAYMENTS, backup.check.MAX_ALL_PAYMENTS // n_sessions)
    rounds_each = min(backup.check.MAX_ROUNDS, max(1, backup.check.MAX_ALL_ROUNDS // n_sessions))
    cards = ["", "2S", "3S", "4S", "5S", "6S"]  # a Hu, and five dead hands of one card
    sessions = []
    for i in range(n_sessions):
        table = [names[(i * 7 + k) % len(names)] for k in range(seats_each)]
        playing = table[:6]
        sessions.append({
            "started_at": AT, "ended_at": AT, "version": 1, "currency": "RM",
            "house_rules": {}, "first_dealer": playing[0],
            "seats": [{"player": name, "position": k, "active": k < 6}
                      for k, name in enumerate(table)],
            "rounds": [{"number": n, "dealer": playing[0], "created_at": AT,
                        "entries": [{"player": name, "seat": k, "turn": k,
                                     "outcome": "hu" if k == 0 else "dead", "cards": cards[k]}
                                    for k, name in enumerate(playing)]}
                       for n in range(1, rounds_each + 1)],
            "payments": [{"payer": playing[0], "payee": playing[1], "cents": 1, "paid_at": AT}
                         for _ in range(payments_each)],
        })
    events = [{"at": AT, "device": "", "action": "x.y", "subject": ""}
              for _ in range(backup.check.MAX_EVENTS)]
    doc = document("Dense", [{"name": n, "created_at": AT} for n in names], sessions, events)
    spare = backup.check.MAX_BYTES - len(compact(doc)) - 1000
    each = spare // len(events) - len(',"after":{"x":""}')
    if each > 0:
        for event in events:
            event["after"] = {"x": "a" * each}
    return compact(doc)


# The slow shape: hands that take the rules engine long


SLOW_RULES = dataclasses.replace(HouseRules.penang(), packs=4, jokers=16, hand_size=40,
                                 hand_size_three=40, extra_pack_players=None)


def slow_hands(rng: random.Random) -> tuple[str, list[str]]:
    """A Tien Hu of 40 cards (runs crowded with twins and jokers), and five
    dead hands of 36 cards from the rest of a four-pack deck."""
    deck = [Card(r, s) for _ in range(4) for s in SUITS for r in range(1, 14)] + [JOKER] * 16
    hand = demo.melded_hand(rng, Counter(deck), 40)
    rest = list(deck)
    for card in hand:
        rest.remove(card)
    rng.shuffle(rest)
    return format_cards(hand), [format_cards(rest[i * 36:(i + 1) * 36]) for i in range(5)]


def slow_backup(seed: int = 7) -> bytes:
    """The most rounds, each of its own slow hands (the solver keeps what it
    worked out for hands it has seen: repeated hands would be quick)."""
    rng = random.Random(seed)
    rules = SLOW_RULES.to_json()
    names = [f"P{i}" for i in range(6)]
    per_session = backup.check.MAX_ROUNDS
    shapes = []
    while len(shapes) < backup.check.MAX_ALL_ROUNDS:
        tien_hu, dead = slow_hands(rng)
        entries = {names[0]: Entry("tien_hu", tien_hu),
                   **{name: Entry("dead", cards)
                      for name, cards in zip(names[1:], dead, strict=False)}}
        try:
            score_round(names, entries, SLOW_RULES)
        except RoundError:  # the solver gives up on a few such hands: not valid
            continue
        shapes.append((tien_hu, dead))
    sessions, rounds = [], 0
    while rounds < backup.check.MAX_ALL_ROUNDS:
        count = min(per_session, backup.check.MAX_ALL_ROUNDS - rounds)
        played = []
        for n in range(1, count + 1):
            tien_hu, dead = shapes[(rounds + n) % len(shapes)]
            played.append({"number": n, "dealer": names[0], "created_at": AT, "entries": [
                {"player": name, "seat": k, "turn": k,
                 "outcome": "tien_hu" if k == 0 else "dead",
                 "cards": tien_hu if k == 0 else dead[k - 1]}
                for k, name in enumerate(names)]})
        rounds += count
        sessions.append({"started_at": AT, "ended_at": AT, "version": 1, "currency": "RM",
                         "house_rules": rules, "first_dealer": names[0],
                         "seats": [{"player": n, "position": k, "active": True}
                                   for k, n in enumerate(names)],
                         "rounds": played, "payments": []})
    return compact(document("Slow", [{"name": n, "created_at": AT} for n in names],
                            sessions, []))


SHAPES = {"real": real_backup, "dense": dense_backup, "slow": slow_backup}


def build(shape: str) -> bytes:
    return SHAPES[shape]()


# Measuring


def fresh_app(url: str, empty: bool):
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, **SETTINGS})
    if empty:
        with app.app_context():
            metadata = sa.MetaData()
            metadata.reflect(db.engine)
            metadata.drop_all(db.engine)
            db.create_all()
            db.session.remove()
    return app


def import_once(url: str, body: bytes, results) -> None:
    """Import ``body`` at ``url`` (made empty first), in this process."""
    app = fresh_app(url, empty=False)
    with app.app_context():
        first_write = []

        def writes(conn, cursor, statement, *_):
            if not first_write and statement.lstrip()[:6].upper() in ("INSERT", "UPDATE"):
                first_write.append(time.perf_counter())

        started = time.perf_counter()
        try:
            found = backup.read_backup(body)
        except backup.BackupError as error:
            results.put({"refused after s": round(time.perf_counter() - started, 2),
                         "message": str(error)})
            return
        checked = time.perf_counter()
        sa.event.listen(db.engine, "before_cursor_execute", writes)
        group = services.import_group("Imported", PASSPHRASE, found, device="Bench")
        done = time.perf_counter()
        sa.event.remove(db.engine, "before_cursor_execute", writes)
        entries = db.session.scalar(sa.text(
            "SELECT count(*) FROM round_entry JOIN round ON round.id = round_entry.round_id "
            "JOIN game_session ON game_session.id = round.session_id "
            "WHERE game_session.group_id = :g"), {"g": group.id})
        results.put({
            "MB": round(len(body) / 2 ** 20, 2), "sessions": len(found.sessions),
            "rounds": found.rounds, "entries": entries, "events": len(found.events),
            "seats": sum(len(s.seats) for s in found.sessions),
            "payments": sum(len(s.payments) for s in found.sessions),
            "check s": round(checked - started, 2), "write s": round(done - checked, 2),
            "lock s": round(done - first_write[0], 2), "total s": round(done - started, 2),
            "peak MB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)})


def neighbour(url: str, stop, results) -> None:
    """Save rounds in another group's session until ``stop`` is set: each
    save's time, and the errors."""
    app = fresh_app(url, empty=False)
    with app.app_context():
        group = services.create_group("Next door", "next door passphrase")
        session = services.start_session(services.Change(group),
                                         ["Ann", "Bob", "Cat"], HouseRules.penang(),
                                         first_dealer="Ann")
        times, errors = [], []
        low = 0
        while not stop.is_set():
            started = time.perf_counter()
            low = low % 8 + 2  # Bob's low card: each round another game (the same would ask)
            try:
                services.record_round(services.Change.to(session),
                                      {"Ann": Entry("dead", "KS"),
                                       "Bob": Entry("dead", f"{low}H 3C"), "Cat": Entry("hu")})
            except Exception as error:
                db.session.rollback()
                errors.append(type(error).__name__ + ": " + str(error).splitlines()[0][:80])
            times.append(time.perf_counter() - started)
            time.sleep(0.005)
        results.put({"saves": len(times), "slowest save s": round(max(times), 3),
                     "failed": len(errors), "errors": sorted(set(errors))})


def measure(url: str, body: bytes, next_door: bool) -> dict:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    fresh_app(url, empty=True)
    others = None
    if next_door:
        stop, other_results = context.Event(), context.Queue()
        others = context.Process(target=neighbour, args=(url, stop, other_results))
        others.start()
        time.sleep(3)  # the neighbour's app is up and saving
    process = context.Process(target=import_once, args=(url, body, results))
    process.start()
    result = results.get()
    process.join()
    if others is not None:
        time.sleep(0.5)
        stop.set()
        result["neighbour"] = other_results.get()
        others.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url",
                        default=f"sqlite:///{ROOT / 'instance' / 'bench-imports.sqlite3'}")
    parser.add_argument("--shape", choices=tuple(SHAPES), action="append",
                        help="which backups (all if not given)")
    parser.add_argument("--file", help="import this file instead")
    parser.add_argument("--save", help="write the backup built to this file (one shape)")
    parser.add_argument("--neighbour", action="store_true",
                        help="save rounds in another group meanwhile")
    args = parser.parse_args()
    speed_before = hostspeed.reference_ms()
    print(f"database: {sa.make_url(args.database_url).get_backend_name()}; limits: "
          f"{backup.check.MAX_BYTES / 2 ** 20:g} MB, {backup.check.MAX_ALL_ROUNDS} rounds, "
          f"check {backup.check.CHECK_SECONDS} s", flush=True)
    bodies = ({"file": Path(args.file).read_bytes()} if args.file
              else {shape: build(shape) for shape in args.shape or SHAPES})
    for shape, body in bodies.items():
        if args.save:
            Path(args.save).write_bytes(body)
        print(shape, json.dumps(measure(args.database_url, body, args.neighbour),
                                ensure_ascii=False), flush=True)
    print(hostspeed.describe(speed_before, hostspeed.reference_ms()))


if __name__ == "__main__":
    main()
