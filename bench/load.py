"""Load benchmark: gunicorn with 2 workers (gunicorn.conf.py's class) on a seeded database, driven
over loopback by 20 simulated phones from this process (issue 5).

From the project root:

    .venv/bin/python bench/load.py                          # SQLite in a temporary folder
    .venv/bin/python bench/load.py --db-file /tmp/10k.sqlite3 --sessions 10000
    .venv/bin/python bench/load.py --database-url postgresql://user:pw@127.0.0.1/db

Each phone signs in once (Argon2id, as in production), waits for the others, then
plays rounds with no pause until time is up, finishing the round under way: its
own session's scoreboard, the round form, a valid round submitted, the round
saved, the settlement. Every phone
plays its own session, so no save meets another phone's change. Afterwards
the rounds in the database are counted against the submits answered by the
redirect to the new round. The exit status is 1 on any error or mismatch.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import cycle
from pathlib import Path
from urllib.parse import urlencode

import sqlalchemy as sa

from scorekeeper import create_app, demo, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Group, Player, Round
from scorekeeper.rules import HouseRules, format_cards, score_round

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is on the path, not the root
from bench import hostspeed
from bench.cpu import Cpu, CpuMeter
from bench.http_client import Browser, read_form
from bench.server import Server, gunicorn

PASSPHRASE = demo.DEMO_PASSPHRASE
SIGN_INS_AT_ONCE = 5  # a table's phones

SIGN_IN = ("sign-in page", "sign-in")
LOOP = ("scoreboard", "round form", "submit", "result", "settle")
PAGES = SIGN_IN + LOOP

# The table each phone plays at.
TABLE = 4
RULES = HouseRules.penang()

# Targets of the issue, on this 2-core machine.
TARGET_RPS = 250
TARGET_P99_MS = 250


# The database


SECRET_KEY = "load benchmark, a key long enough to sign"


def make_app(database_url: str):
    """The app on ``database_url``, with the production settings (Argon2id)."""
    return create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": SECRET_KEY})


@contextmanager
def database(app):
    """An app context whose connections are closed afterwards: the benchmark
    leaves none open while the server runs, nor at exit."""
    with app.app_context():
        try:
            yield
        finally:
            db.session.remove()
            db.engine.dispose()


def flask_command(database_url: str, *args: str, echo: bool = True) -> None:
    """`flask --app scorekeeper ARGS` on the database, as an operator runs it."""
    environ = {**os.environ, "DATABASE_URL": database_url,
               "SECRET_KEY": os.environ.get("SECRET_KEY") or SECRET_KEY}
    output = None if echo else subprocess.PIPE
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", *args],
                          cwd=ROOT, env=environ, stdout=output, stderr=output, text=True)
    if done.returncode:
        raise RuntimeError(f"flask {' '.join(args)} failed:\n{done.stderr or ''}")


def demo_groups() -> list[Group]:
    return list(db.session.scalars(
        sa.select(Group).where(Group.name_key.like(f"{services.DEMO_GROUP.casefold()} %"))
        .order_by(Group.id)))


def prepare_database(database_url: str, groups: int, sessions: int, rounds: int, seed: int,
                     echo: bool = True) -> None:
    """Bring the schema up to date, then seed demo groups unless the database
    has some already (a database kept from an earlier run is reused as it is)."""
    flask_command(database_url, "db", "upgrade", echo=False)
    with database(make_app(database_url)):
        found = demo_groups()
        if found:
            if echo:
                print(f"Reusing the database: {database_size()} (the size options are ignored)")
        else:
            flask_command(database_url, "seed-demo", "--groups", str(groups),
                          "--sessions", str(sessions), "--rounds", str(rounds),
                          "--seed", str(seed), "--passphrase", PASSPHRASE, echo=echo)


def database_size() -> str:
    groups = len(demo_groups())
    sessions = db.session.scalar(sa.select(sa.func.count()).select_from(GameSession))
    rounds = db.session.scalar(sa.select(sa.func.count()).select_from(Round))
    return f"{groups} demo groups, {sessions:,} sessions, {rounds:,} rounds"


@dataclass(frozen=True)
class Table:
    """Where a phone plays: its group and its own session."""

    group: str
    session_id: int


def start_tables(app, phones: int) -> list[Table]:
    """A new session for each phone, in the demo groups in turn, among each
    group's first players."""
    with database(app):
        groups = demo_groups()
        tables = []
        for number in range(phones):
            group = groups[number % len(groups)]
            names = list(db.session.scalars(
                sa.select(Player.name).where(Player.group_id == group.id)
                .order_by(Player.id).limit(TABLE)))
            game = services.start_session(services.Change(group, device="Load benchmark"),
                                          names, RULES, first_dealer=names[0])
            tables.append(Table(group.name, game.id))
    return tables


def count_rounds(app, session_ids: list[int]) -> tuple[dict[int, int], int]:
    """The rounds saved in each of these sessions, and in the whole database."""
    with database(app):
        counts = dict.fromkeys(session_ids, 0) | dict(db.session.execute(
            sa.select(Round.session_id, sa.func.count()).where(Round.session_id.in_(session_ids))
            .group_by(Round.session_id)).all())
        total = db.session.scalar(sa.select(sa.func.count()).select_from(Round))
    return counts, total


# The phones


def valid_deals(count: int, seed: int = 0) -> list[tuple[tuple[str, str], ...]]:
    """Rounds for a table of TABLE players, each an (outcome, cards) per turn:
    dealt as scorekeeper.demo deals them, kept if the rules engine scores
    them without a warning (a warning would ask the phone to confirm)."""
    rng = random.Random(seed)
    names = [f"player {i}" for i in range(TABLE)]
    deals = []
    while len(deals) < count:
        entries = demo.deal(rng, RULES, names)
        if not score_round(names, entries, RULES).warnings:
            deals.append(tuple((entries[n].outcome, format_cards(entries[n].cards))
                               for n in names))
    return deals


ROW = re.compile(r"entries-(\d+)-player")


@dataclass
class Phone:
    number: int
    table: Table
    browser: Browser
    deals: Iterator[tuple[tuple[str, str], ...]]  # valid_deals, endlessly
    until: float = 0  # time.monotonic() after which no round is begun
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    saved: int = 0  # submits answered by the redirect to the new round

    @property
    def board(self) -> str:
        return f"/sessions/{self.table.session_id}"

    def visit(self, page: str, method: str, path: str, form: dict | None = None,
              status: int = 200, location: str | None = None) -> str | None:
        """Request ``path`` and time it; the page's text, or None after noting
        an error: another status, a redirect elsewhere, or no answer."""
        try:
            reply, seconds = self.browser.request(method, path, form)
        except Exception as error:  # any failure to get an answer is an error of the run
            self.errors.append(f"{page}: {method} {path}: {type(error).__name__}: {error}")
            return None
        self.seconds[page].append(seconds)
        if reply.status != status:
            self.errors.append(f"{page}: {method} {path}: status {reply.status}, not {status}")
            return None
        if location is not None and reply.location != location:
            self.errors.append(f"{page}: {method} {path}: redirected to {reply.location!r}, "
                               f"not {location!r}")
            return None
        return reply.text

    def fail(self, page: str, what: str) -> None:
        self.errors.append(f"{page}: {what}")

    def sign_in(self) -> bool:
        page = self.visit("sign-in page", "GET", "/sign-in?" + urlencode({"next": self.board}))
        form = page and read_form(page, "/sign-in")
        if not form:
            if page:
                self.fail("sign-in page", "no sign-in form")
            return False
        action, fields = form
        fields.update(name=self.table.group, passphrase=PASSPHRASE,
                      device=f"Phone {self.number + 1}")
        return self.visit("sign-in", "POST", action, fields, status=302,
                          location=self.board) is not None

    def play(self) -> None:
        """Rounds until time is up; the round under way is finished."""
        while time.monotonic() < self.until:
            try:
                self.play_round()
            except Exception as error:  # a page unlike what the phone expects
                self.fail("loop", f"{type(error).__name__}: {error}")

    def play_round(self) -> None:
        self.visit("scoreboard", "GET", self.board)
        page = self.visit("round form", "GET", f"{self.board}/rounds/new")
        form = page and read_form(page, "/rounds/new")
        if not form:
            if page:
                self.fail("round form", "no round form")
            return
        action, fields = form
        rows = sorted(int(m[1]) for name in fields if (m := ROW.fullmatch(name)))
        if rows != list(range(TABLE)):
            self.fail("round form", f"{len(rows)} players, not {TABLE}")
            return
        for row, (outcome, cards) in zip(rows, next(self.deals), strict=False):
            fields[f"entries-{row}-outcome"] = outcome
            fields[f"entries-{row}-cards"] = cards
        saved = f"{self.board}/rounds/{fields['number']}"
        if self.visit("submit", "POST", action, fields, status=302, location=saved) is None:
            return
        self.saved += 1
        self.visit("result", "GET", saved)
        self.visit("settle", "GET", f"{self.board}/settle")


@dataclass
class Run:
    phones: list[Phone]
    seconds: float  # wall time of the loop: all phones signed in, to the last one done
    cpu: Cpu


def drive(server: Server, tables: list[Table], seconds: float) -> Run:
    """Sign every phone in, then let them loop for ``seconds``."""
    deals = valid_deals(500)
    phones = []
    for n, table in enumerate(tables):
        start = n * len(deals) // len(tables)  # each phone from its own place in the pool
        phones.append(Phone(n, table, Browser(server.host, server.port),
                            cycle(deals[start:] + deals[:start])))
    meter = CpuMeter(server)
    started = []

    def go():  # once every phone is signed in, before they are let go
        until = time.monotonic() + seconds
        for phone in phones:
            phone.until = until
        started.append(time.monotonic())
        meter.start()

    barrier = threading.Barrier(len(phones), action=go)
    # All from one address: more passphrases in flight at once than the sign-in
    # limit allows (10) would be refused, as they would be from one table's wifi.
    signing_in = threading.Semaphore(SIGN_INS_AT_ONCE)

    def live(phone: Phone) -> None:
        signed_in = False
        try:
            with signing_in:
                signed_in = phone.sign_in()
        finally:
            barrier.wait()  # even after a failure, or the others would wait for ever
        if signed_in:
            phone.play()

    threads = [threading.Thread(target=live, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started[0]
    cpu = meter.stop()
    return Run(phones, wall, cpu)


# Results


def percentile(sorted_values: list[float], share: float) -> float:
    """Nearest rank: the smallest value with at least ``share`` of them at or below it."""
    return sorted_values[max(0, math.ceil(share * len(sorted_values)) - 1)]


PAGE_PATHS = [  # the access log's method and path, to the page it is
    ("GET", re.compile(r"/sign-in"), "sign-in page"),
    ("POST", re.compile(r"/sign-in"), "sign-in"),
    ("GET", re.compile(r"/sessions/\d+"), "scoreboard"),
    ("GET", re.compile(r"/sessions/\d+/rounds/new"), "round form"),
    ("POST", re.compile(r"/sessions/\d+/rounds/new"), "submit"),
    ("GET", re.compile(r"/sessions/\d+/rounds/\d+"), "result"),
    ("GET", re.compile(r"/sessions/\d+/settle"), "settle"),
]


def server_times(access_log: Path) -> dict[str, list[float]]:
    """Milliseconds per page as gunicorn logged them (from reading the request
    to the response sent: no time in the queue)."""
    times = defaultdict(list)
    for line in access_log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        for method, path, page in PAGE_PATHS:
            if entry.get("method") == method and path.fullmatch(entry.get("path") or ""):
                times[page].append(entry["duration_ms"])
    return times


@dataclass
class Outcome:
    run: Run
    rounds: dict[int, int]  # saved per session, counted in the database
    rounds_before: int  # in the whole database
    rounds_after: int
    server_ms: dict[str, list[float]]  # per page, as gunicorn logged them
    workers: int

    @property
    def errors(self) -> list[str]:
        return [error for phone in self.run.phones for error in phone.errors]

    @property
    def submits(self) -> int:
        return sum(phone.saved for phone in self.run.phones)

    @property
    def rounds_exact(self) -> bool:
        """Each session holds exactly the rounds its phone saw saved, and no
        other round appeared."""
        return (all(self.rounds[p.table.session_id] == p.saved for p in self.run.phones)
                and self.rounds_after - self.rounds_before == self.submits)

    def seconds(self, page: str) -> list[float]:
        return sorted(s for phone in self.run.phones for s in phone.seconds.get(page, ()))

    @property
    def loop_requests(self) -> int:
        return sum(len(self.seconds(page)) for page in LOOP)

    @property
    def requests_per_second(self) -> float:
        return self.loop_requests / self.run.seconds if self.loop_requests else 0.0


def benchmark(database_url: str, folder: Path, phones: int = 20, seconds: float = 30,
              workers: int = 2, worker_class: str | None = None) -> Outcome:
    """Sessions for the phones, gunicorn, the phones let loose, the rounds counted."""
    app = make_app(database_url)
    tables = start_tables(app, phones)
    ids = [t.session_id for t in tables]
    _, before = count_rounds(app, ids)
    with gunicorn(database_url, workers, folder, worker_class) as server:
        run = drive(server, tables, seconds)
    counts, after = count_rounds(app, ids)
    return Outcome(run, counts, before, after, server_times(server.access_log), workers)


def report(outcome: Outcome) -> str:
    run = outcome.run

    def ms(values: list[float], share: float) -> float:
        return percentile(values, share) * 1000 if values else 0

    lines = [f"{'page':<13}{'requests':>9}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}"
             f"{'server median':>15}{'server p99':>12}"]
    for page in PAGES:
        taken = outcome.seconds(page)
        server = [s / 1000 for s in sorted(outcome.server_ms.get(page, ()))]
        lines.append(f"{page:<13}{len(taken):>9}{ms(taken, .5):>11.1f}{ms(taken, .99):>9.1f}"
                     f"{ms(taken, 1):>9.1f}{ms(server, .5):>15.1f}{ms(server, .99):>12.1f}")
    rps = outcome.requests_per_second
    lines.append(f"Loop: {run.seconds:.1f} s, {rps:.1f} requests/s "
                 f"(the {len(run.phones)} sign-ins before it not counted)")
    requests = outcome.loop_requests
    logged = [ms for page in LOOP for ms in outcome.server_ms.get(page, ())]
    if requests and logged:
        # The workers are never idle: more phones than workers, no pause.
        each = outcome.workers * run.seconds / requests * 1000
        lines.append(f"Each worker's time a request: {each:.1f} ms, of which "
                     f"{sum(logged) / len(logged):.1f} ms logged by gunicorn (the rest: "
                     "accepting, reading the request, logging, closing)")
    cpu = run.cpu

    def share(seconds: float) -> str:
        return (f"{seconds / run.seconds:.0%} of a core "
                f"({seconds / requests * 1000:.2f} ms a request)")

    if requests:
        lines.append(
            f"CPU in the loop: phones {share(cpu.phones)}; gunicorn {share(cpu.gunicorn)}"
            + (f"; PostgreSQL {share(cpu.postgres)}" if cpu.postgres is not None else "")
            + f"; the machine {cpu.machine / max(cpu.machine_total, 1e-9):.0%} busy "
            f"({os.cpu_count()} cores)")
    errors = outcome.errors
    lines.append(f"Errors: {len(errors)}")
    lines += [f"  {error}" for error in errors[:10]]
    if len(errors) > 10:
        lines.append(f"  ... and {len(errors) - 10} more")
    lines.append(f"Rounds: {outcome.submits} submits answered by the new round, "
                 f"{sum(outcome.rounds.values())} rounds in the phones' sessions, "
                 f"{outcome.rounds_after - outcome.rounds_before} more in the database: "
                 f"{'exact' if outcome.rounds_exact else 'MISMATCH'}")

    def p99_verdict(pages: tuple[str, ...]) -> tuple[str, bool]:
        p99 = {page: ms(outcome.seconds(page), .99) for page in pages}
        worst = max(pages, key=p99.get)
        untimed = [page for page in pages if not outcome.seconds(page)]
        detail = (f"not timed: {', '.join(untimed)}" if untimed
                  else f"worst: {worst} {p99[worst]:.0f} ms")
        return (f"p99 under {TARGET_P99_MS} ms on {', '.join(pages)} ({detail})",
                not untimed and p99[worst] < TARGET_P99_MS)

    verdicts = [
        ("zero errors", not errors),
        ("no lost or duplicated round", outcome.rounds_exact),
        (f"at least {TARGET_RPS} requests/s ({rps:.0f})", rps >= TARGET_RPS),
        p99_verdict(LOOP),
        p99_verdict(SIGN_IN),
    ]
    lines.append("Targets:")
    lines += [f"  {'met   ' if met else 'MISSED'} {what}" for what, met in verdicts]
    return "\n".join(lines)


def describe(database_url: str) -> str:
    return sa.engine.make_url(database_url).render_as_string(hide_password=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30, help="how long the phones loop")
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--worker-class", help="gunicorn's (default: gunicorn.conf.py's, gevent)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                        help="PostgreSQL (default: $DATABASE_URL; else SQLite)")
    parser.add_argument("--db-file", type=Path,
                        help="SQLite file to keep: seeded on the first run, reused after "
                             "(without it or a database URL: a new file in a temporary folder)")
    parser.add_argument("--groups", type=int, default=1, help="demo groups to seed")
    parser.add_argument("--sessions", type=int, default=500, help="sessions per group to seed")
    parser.add_argument("--rounds", type=int, default=20, help="about how many rounds a session")
    parser.add_argument("--seed", type=int, default=1, help="of the demo data")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="scorekeeper-load-") as temporary:
        folder = Path(temporary)
        if args.db_file or not args.database_url:
            database_url = f"sqlite:///{(args.db_file or folder / 'load.sqlite3').resolve()}"
        else:
            database_url = args.database_url
        print(f"Database: {describe(database_url)}")
        prepare_database(database_url, args.groups, args.sessions, args.rounds, args.seed)
        print(f"Load average before: {Path('/proc/loadavg').read_text().strip()}")
        speed_before = hostspeed.reference_ms()
        outcome = benchmark(database_url, folder, args.phones, args.seconds, args.workers,
                            args.worker_class)
        speed_after = hostspeed.reference_ms()
        print(f"Load average after:  {Path('/proc/loadavg').read_text().strip()}")
        print(hostspeed.describe(speed_before, speed_after))
        print(f"{args.phones} phones, {args.workers} gunicorn {args.worker_class or 'gevent'} "
              f"workers, "
              f"{args.seconds:g} s")
        print(report(outcome))
    return 0 if not outcome.errors and outcome.rounds_exact else 1


if __name__ == "__main__":
    sys.exit(main())
