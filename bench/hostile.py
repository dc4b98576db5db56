"""One client against the server (issue 23): a phone's page latency while one
hostile client holds thousands of connections, over loopback.

From the project root:

    .venv/bin/python bench/hostile.py --attack streams     # live streams of one share link
    .venv/bin/python bench/hostile.py --attack bodies      # POST /sign-in, a byte every 10 s
    .venv/bin/python bench/hostile.py --checkout /tmp/before --attack streams
    .venv/bin/python bench/hostile.py --worker-connections 1000 --attack bodies

gunicorn runs gunicorn.conf.py as deployed (its workers, its worker
connections, unless told otherwise) from --checkout, by default this one: for
"before" figures, give it an older commit's files (`git archive <commit> | tar
-x -C /tmp/before`). The database is a new SQLite file with one group, one
session and one share link.

A phone fetches the session's scoreboard, a new connection each time, four
times a second for --seconds alone, then again while the hostile client (a
process of its own, asyncio) keeps --connections connections open:

- streams: each asks for the share link's live stream and reads it; when the
  server closes it, it asks again after the server's `retry:`, as a browser's
  EventSource does.
- bodies: each sends a sign-in's head (Content-Length: 1000) and then a byte
  every 10 s; cut off, it connects again at once.

A page not answered within 10 s counts as a timeout. Everything stops by
itself after the measures; the hostile client after twice --seconds and
a minute more at the most.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is on the path, not the root
from bench import hostspeed, load
from bench.http_client import read_response
from bench.server import free_port, stop, wait_until_healthy

HOST = "127.0.0.1"
PAGE_TIMEOUT = 10  # seconds a phone waits for a page
PAGES_A_SECOND = 4
BODY_BYTE_EVERY = 10  # seconds between the bytes of a slow body
RAMP_PER_SECOND = 1000  # hostile connections opened a second, until all are open
WARM_UP_PAGES = 40

SEED = """
import json, sys
from flask import session
from scorekeeper import create_app, services
from scorekeeper.rules import HouseRules
from scorekeeper.web import access, share

app = create_app({"SECRET_KEY": sys.argv[1]})
with app.app_context():
    group = services.create_group("Hostile bench", "a passphrase for the bench")
    game = services.start_session(services.Change(group), ["Ann", "Ben", "Cat", "Dan"],
                                  HouseRules.penang(), first_dealer="Ann")
    link = services.create_share_link(services.Change.to(game))
    with app.test_request_context(base_url="http://127.0.0.1"):
        token = share.share_url(link, group).rsplit("/", 1)[1]
        access.sign_in(group, "Bench phone")
        cookie = app.session_interface.get_signing_serializer(app).dumps(dict(session))
    print(json.dumps({"session": game.id, "token": token, "cookie": cookie}))
"""


# The server


def environment(checkout: Path, database_url: str, secret: str, folder: Path) -> dict:
    return {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secret,
            "PYTHONPATH": str(checkout), "XDG_RUNTIME_DIR": str(folder)}


def prepare(checkout: Path, environ: dict) -> dict:
    """The schema migrated, a group, a session and a share link: the
    session's id, the link's token and a signed-in phone's cookie."""
    subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
                   cwd=checkout, env=environ, check=True, capture_output=True)
    seeded = subprocess.run([sys.executable, "-c", SEED, environ["SECRET_KEY"]], cwd=checkout,
                            env=environ, check=True, capture_output=True, text=True)
    return json.loads(seeded.stdout)


@contextmanager
def gunicorn(checkout: Path, environ: dict, folder: Path, options: list[str]) -> Iterator[int]:
    port = free_port()
    error_log = folder / "gunicorn.err"
    with open(folder / "gunicorn.out", "wb") as out, open(error_log, "wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind",
             f"{HOST}:{port}", *options, "scorekeeper:create_app()"],
            cwd=checkout, env=environ, stdout=out, stderr=err)
    try:
        wait_until_healthy(HOST, port, process, error_log)
        yield port
    finally:
        stop(process)


# The phone


def page_seconds(port: int, path: str, cookie: str) -> float | None:
    """Seconds until the whole page came, or None: no 200 within PAGE_TIMEOUT."""
    request = (f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/html\r\n"
               f"Cookie: session={cookie}\r\nConnection: close\r\n\r\n").encode()
    started = time.perf_counter()
    try:
        with socket.create_connection((HOST, port), timeout=PAGE_TIMEOUT) as connection:
            connection.sendall(request)
            status, _, _ = read_response(connection)
    except OSError:
        return None
    seconds = time.perf_counter() - started
    return seconds if status == 200 and seconds <= PAGE_TIMEOUT else None


def measure(port: int, path: str, cookie: str, seconds: float, hostile=None) -> dict:
    """The phone's pages for ``seconds``; with the hostile client's counters,
    the fewest and most connections it held meanwhile."""
    times, timeouts, held = [], 0, []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        taken = page_seconds(port, path, cookie)
        if taken is None:
            timeouts += 1
        else:
            times.append(taken * 1000)
        if hostile is not None:
            held.append(hostile[OPEN])
        time.sleep(max(0.0, 1 / PAGES_A_SECOND - (time.monotonic() - started)))
    times.sort()
    figures = {"pages": len(times) + timeouts, "timeouts": timeouts,
               "p50_ms": round(load.percentile(times, 0.5), 1) if times else None,
               "p95_ms": round(load.percentile(times, 0.95), 1) if times else None,
               "max_ms": round(times[-1], 1) if times else None}
    if held:
        figures["hostile_open"] = [min(held), max(held)]
    return figures


# The hostile client: its counters, shared with the bench's process
OPEN, OPENED, FAILED = range(3)


async def _stream(port: int, path: str, state) -> None:
    request = (f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
               "Accept: text/event-stream\r\n\r\n").encode()
    while True:
        retry = 1.0
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            state[FAILED] += 1
            await asyncio.sleep(retry)
            continue
        state[OPEN] += 1
        state[OPENED] += 1
        try:
            writer.write(request)
            while line := await reader.readline():  # held for as long as the server holds it
                if line.startswith(b"retry: "):
                    retry = int(line[len(b"retry: "):]) / 1000
        except OSError:
            pass
        finally:
            state[OPEN] -= 1
            writer.close()
        await asyncio.sleep(retry)


async def _slow_body(port: int, path: str, state) -> None:
    head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: 1000\r\n\r\n").encode()
    while True:
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            state[FAILED] += 1
            await asyncio.sleep(1)
            continue
        state[OPEN] += 1
        state[OPENED] += 1
        answer = asyncio.ensure_future(reader.read(1))  # the server's 408, or its close
        try:
            writer.write(head)
            while not answer.done():
                writer.write(b"x")
                await asyncio.wait([answer], timeout=BODY_BYTE_EVERY)
        except OSError:
            pass
        finally:
            answer.cancel()
            state[OPEN] -= 1
            writer.close()


async def _attack(kind: str, port: int, path: str, connections: int, counters, stop,
                  seconds: float) -> None:
    one = _stream if kind == "streams" else _slow_body
    tasks = []
    end = time.monotonic() + seconds
    for i in range(connections):
        tasks.append(asyncio.ensure_future(one(port, path, counters)))
        if i % (RAMP_PER_SECOND // 10) == 0:
            await asyncio.sleep(0.1)
    while not stop.is_set() and time.monotonic() < end:
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def attack(kind: str, port: int, path: str, connections: int, counters, stop,
           seconds: float) -> None:
    """Runs until ``stop`` is set, or for ``seconds`` at the most."""
    asyncio.run(_attack(kind, port, path, connections, counters, stop, seconds))


# The run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attack", choices=["streams", "bodies"], default="streams")
    parser.add_argument("--connections", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=30, help="of each measure")
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--workers", type=int, help="gunicorn.conf.py's unless given")
    parser.add_argument("--worker-connections", type=int, help="gunicorn.conf.py's unless given")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    options = [*(["--workers", str(args.workers)] if args.workers else []),
               *(["--worker-connections", str(args.worker_connections)]
                 if args.worker_connections else [])]
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        environ = environment(checkout, f"sqlite:///{folder / 'hostile.sqlite3'}",
                              secrets.token_hex(32), folder)
        seeded = prepare(checkout, environ)
        page = f"/sessions/{seeded['session']}"
        target = (f"/share/{seeded['token']}/live" if args.attack == "streams" else "/sign-in")
        print(f"checkout {checkout}, attack {args.attack} x {args.connections}, "
              f"gunicorn {' '.join(options) or 'as gunicorn.conf.py says'}; "
              f"host reference {hostspeed.reference_ms():.2f} ms", flush=True)
        with gunicorn(checkout, environ, folder, options) as port:
            for _ in range(WARM_UP_PAGES):  # every worker has its app loaded and warm
                page_seconds(port, page, seeded["cookie"])
            alone = measure(port, page, seeded["cookie"], args.seconds)
            print("alone:   ", json.dumps(alone), flush=True)
            counters = multiprocessing.RawArray("q", 3)  # OPEN, OPENED, FAILED
            stop = multiprocessing.Event()
            ramp = args.connections / RAMP_PER_SECOND
            hostile = multiprocessing.Process(target=attack, args=(
                args.attack, port, target, args.connections, counters, stop,
                ramp + 2 * args.seconds + 60))
            hostile.start()
            try:
                ready = time.monotonic() + ramp + 30
                while counters[OPENED] < args.connections and time.monotonic() < ready:
                    time.sleep(0.2)  # every hostile connection made once
                attacked = measure(port, page, seeded["cookie"], args.seconds, counters)
            finally:
                stop.set()
                hostile.join(timeout=60)
                if hostile.is_alive():
                    hostile.kill()
            print("attacked:", json.dumps(attacked), flush=True)
            print(f"hostile connections opened {counters[OPENED]}, "
                  f"failed to connect {counters[FAILED]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
