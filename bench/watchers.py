"""Live pages under load (issue 16): the 20-phone load benchmark (load.py), run
alone and then beside 100 tables of 5 phones each watching their scoreboard.

From the project root:

    .venv/bin/python bench/watchers.py                        # SQLite, gevent workers
    .venv/bin/python bench/watchers.py --database-url postgresql://user:pw@127.0.0.1/db
    .venv/bin/python bench/watchers.py --worker-class sync    # streams turn into polling

The watchers live in a process of their own (asyncio, one connection each, as
a phone's EventSource holds one). Each watched table saves a round every
--change-every seconds, through the round form like a phone; every watcher of
it then fetches its scoreboard again, as live.js does. A change's delay is from
the saving phone's redirect to a watcher holding the new scoreboard. The runs
alternate, alone then watched, --repeat times; throughput is the load phones'
requests a second, as load.py counts them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from itertools import cycle
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is on the path, not the root
from bench import hostspeed, load
from bench.http_client import Browser, read_form
from bench.server import Server, gunicorn

TABLES = 100
WATCHERS = 5  # a table's phones
TARGET_SHARE = 0.90  # of the throughput without watchers
TARGET_P95_S = 2.0


# The watchers: one process, one connection a phone


async def _request(host: str, port: int, path: str, cookie: str, accept: str):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write((f"GET {path} HTTP/1.0\r\nHost: {host}:{port}\r\nAccept: {accept}\r\n"
                  f"Cookie: {cookie}\r\n\r\n").encode("latin-1"))
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    while (await reader.readline()) not in (b"\r\n", b""):
        pass  # the headers
    return status, reader, writer


async def _watch(host, port, cookie, session_id, seen, stop: asyncio.Event, failures):
    """One phone on one scoreboard: follows its stream (opening it again when
    it ends, like EventSource) and fetches the page at each change."""
    path = f"/sessions/{session_id}"
    known = None
    while not stop.is_set():
        try:
            status, reader, writer = await _request(host, port, f"{path}/live", cookie,
                                                    "text/event-stream")
        except OSError as error:
            failures.append(f"stream: {error}")
            await asyncio.sleep(1)
            continue
        if status != 200:
            failures.append(f"stream: status {status}")
            writer.close()
            return
        retry = 2.0
        try:
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"retry: "):
                    retry = int(line[7:]) / 1000
                if not line.startswith(b"data: "):
                    continue
                version = json.loads(line[6:])["version"]
                arrived = time.monotonic()
                if known is not None and version != known:
                    page_status, page, page_writer = await _request(
                        host, port, path, cookie, "text/html")
                    await page.read()
                    page_writer.close()
                    if page_status != 200:
                        failures.append(f"scoreboard: status {page_status}")
                    seen.append((session_id, version, arrived, time.monotonic()))
                known = version
        finally:
            writer.close()
        if not stop.is_set():
            await asyncio.sleep(retry)  # as EventSource waits before opening it again


def watchers_process(host, port, cookie, session_ids, per_table, ready, stop, out_path):
    async def main():
        seen: list[tuple] = []
        failures: list[str] = []
        stopping = asyncio.Event()
        tasks = [asyncio.create_task(_watch(host, port, cookie, sid, seen, stopping, failures))
                 for sid in session_ids for _ in range(per_table)]
        await asyncio.sleep(3)  # time to connect
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.2)
        stopping.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        Path(out_path).write_text(json.dumps({"seen": seen, "failures": failures}))

    asyncio.run(main())


# The tables that change while they are watched


@dataclass
class Changer:
    """Saves a round at each watched table in turn, one every ``interval``
    seconds, through the round form; notes when each was saved."""

    server: Server
    tables: list[load.Table]
    interval: float
    cookies: dict[str, str]
    saved: list[tuple[int, float]] = field(default_factory=list)  # (session, monotonic)
    errors: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        deals = cycle(load.valid_deals(200, seed=7))
        phones = {}
        for table in self.tables:
            browser = Browser(self.server.host, self.server.port)
            browser.cookies = dict(self.cookies)
            phones[table.session_id] = load.Phone(0, table, browser, deals)
        for table in cycle(self.tables):
            if self.stop.wait(self.interval):
                return
            phone = phones[table.session_id]
            before = phone.saved
            page = phone.visit("round form", "GET", f"{phone.board}/rounds/new")
            form = page and read_form(page, "/rounds/new")
            if not form:
                self.errors.append(f"round form of {table.session_id}")
                continue
            action, fields = form
            for row, (outcome, cards) in enumerate(next(deals)):
                fields[f"entries-{row}-outcome"] = outcome
                fields[f"entries-{row}-cards"] = cards
            saved = f"{phone.board}/rounds/{fields['number']}"
            if phone.visit("submit", "POST", action, fields, status=302,
                           location=saved) is not None:
                self.saved.append((table.session_id, time.monotonic()))
                phone.saved = before + 1
            self.errors.extend(phone.errors)
            phone.errors.clear()


def sign_in_cookies(server: Server, table: load.Table) -> dict[str, str]:
    phone = load.Phone(0, table, Browser(server.host, server.port), iter(()))
    if not phone.sign_in():
        raise RuntimeError(f"could not sign in: {phone.errors}")
    return phone.browser.cookies


# Results


@dataclass
class Watched:
    requests_per_second: float
    delays: list[float]  # seconds, one per watcher and change
    missed: int  # changes a watcher never showed
    failures: list[str]
    changes: int


def delays_of(saved: list[tuple[int, float]], seen: list[list], per_table: int,
              first_versions: dict[int, int]) -> tuple[list[float], int]:
    """Each change's delay to each of its table's watchers: the k-th save at a
    table made its session's version first + k."""
    saved_at = {}
    counts: dict[int, int] = {}
    for session_id, at in saved:
        counts[session_id] = counts.get(session_id, 0) + 1
        saved_at[(session_id, first_versions[session_id] + counts[session_id])] = at
    delays = []
    shown: dict[tuple[int, int], int] = {}
    for session_id, version, _arrived, fetched in seen:
        key = (session_id, version)
        if key in saved_at:
            delays.append(fetched - saved_at[key])
            shown[key] = shown.get(key, 0) + 1
    missed = sum(per_table - shown.get(key, 0) for key in saved_at)
    return sorted(delays), missed


def versions_now(app, session_ids: list[int]) -> dict[int, int]:
    from scorekeeper import queries

    with load.database(app):
        return {sid: state[0] for sid, state in queries.live_states(session_ids).items()}


def watched_run(server, app, load_tables, watched_tables, seconds, per_table, change_every,
                folder: Path, cookies) -> Watched:
    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    out_path = folder / "watchers.json"
    ids = [t.session_id for t in watched_tables]
    first_versions = versions_now(app, ids)
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    process = context.Process(target=watchers_process, args=(
        server.host, server.port, cookie, ids, per_table, ready, stop, str(out_path)))
    process.start()
    if not ready.wait(60):
        raise RuntimeError("the watchers did not start")
    changer = Changer(server, watched_tables, change_every / len(watched_tables), cookies)
    changing = threading.Thread(target=changer.run)
    changing.start()
    run = load.drive(server, load_tables, seconds)
    changer.stop.set()
    changing.join()
    time.sleep(3)  # the last changes reach their watchers
    stop.set()
    process.join(60)
    result = json.loads(out_path.read_text())
    delays, missed = delays_of(changer.saved, result["seen"], per_table, first_versions)
    outcome = load.Outcome(run, {}, 0, 0, {}, 0)
    errors = [e for p in run.phones for e in p.errors]
    return Watched(outcome.requests_per_second, delays, missed,
                   result["failures"] + changer.errors + errors, len(changer.saved))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30, help="of each load run")
    parser.add_argument("--repeat", type=int, default=2, help="pairs of runs, alone and watched")
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--watchers", type=int, default=WATCHERS, help="phones a table")
    parser.add_argument("--change-every", type=float, default=60,
                        help="seconds between two rounds saved at one watched table")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", help="gunicorn's (default: gunicorn.conf.py's)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="scorekeeper-watchers-") as temporary:
        folder = Path(temporary)
        database_url = args.database_url or f"sqlite:///{folder / 'load.sqlite3'}"
        print(f"Database: {load.describe(database_url)}")
        load.prepare_database(database_url, 1, 500, 20, 1)
        app = load.make_app(database_url)
        load_tables = load.start_tables(app, 20)
        watched_tables = load.start_tables(app, args.tables)
        speed_before = hostspeed.reference_ms()
        alone, watched = [], []
        with gunicorn(database_url, args.workers, folder, args.worker_class) as server:
            cookies = sign_in_cookies(server, watched_tables[0])
            for _ in range(args.repeat):
                run = load.drive(server, load_tables, args.seconds)
                alone.append(load.Outcome(run, {}, 0, 0, {}, 0).requests_per_second)
                print(f"alone:   {alone[-1]:.0f} req/s", flush=True)
                watched.append(watched_run(server, app, load_tables, watched_tables,
                                           args.seconds, args.watchers, args.change_every,
                                           folder, cookies))
                w = watched[-1]
                print(f"watched: {w.requests_per_second:.0f} req/s, {w.changes} changes, "
                      f"{len(w.delays)} shown, {w.missed} missed, "
                      f"{len(w.failures)} failures", flush=True)
        print(hostspeed.describe(speed_before, hostspeed.reference_ms()))
    return report(args, alone, watched)


def report(args, alone: list[float], watched: list[Watched]) -> int:
    delays = sorted(d for w in watched for d in w.delays)
    missed = sum(w.missed for w in watched)
    failures = [f for w in watched for f in w.failures]
    share = sum(w.requests_per_second for w in watched) / sum(alone)
    p95 = load.percentile(delays, 0.95) if delays else float("inf")
    print(f"{args.tables} tables x {args.watchers} watchers, {args.workers} "
          f"{args.worker_class or 'gevent'} workers, a round per table every "
          f"{args.change_every:g} s")
    print(f"throughput watched / alone: {share:.1%} (target at least {TARGET_SHARE:.0%})")
    if delays:
        print(f"delay to every watcher: median {load.percentile(delays, 0.5):.2f} s, "
              f"p95 {p95:.2f} s, max {delays[-1]:.2f} s over {len(delays)} "
              f"(target p95 under {TARGET_P95_S:g} s); missed {missed}")
    for failure in failures[:10]:
        print(f"  failure: {failure}")
    met = share >= TARGET_SHARE and p95 < TARGET_P95_S and not missed and not failures
    print("target met" if met else "target NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
