"""Unloaded server time of the main pages, one request at a time.

A group with 10,000 finished sessions of about 20 rounds and one open session
of 400 rounds (the scoreboard's stress case) is seeded once into a database
that later runs reuse. The pages are then requested in turn, in-process through
the WSGI app (no network), as a signed-in phone that accepts compressed
responses, and each one's median, 90th percentile and maximum are printed in
milliseconds, with the SQL statements and Python function calls of one request
(figures that a busy machine doesn't change).

    .venv/bin/python bench/pages.py                       # SQLite file in instance/
    .venv/bin/python bench/pages.py --database-url postgresql://...
    .venv/bin/python bench/pages.py --profile scoreboard  # pip install -e '.[bench]' first
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import runpy
import statistics
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hostspeed
from scorekeeper import create_app, demo, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Group, Seat
from scorekeeper.rules import HouseRules
from scorekeeper.web.access import today

GROUP = "Bench table"
PASSPHRASE = "bench passphrase"
SHAPES = 200  # distinct sessions, repeated (moved in time) to make up the count
NOW = datetime(2026, 11, 20, 12)
TARGETS_MS = {"scoreboard": 5, "settlement": 5, "round form": 5, "history": 5, "player": 20}
STEADY_SPREAD = 1.3  # p90 / median; runs at the host's full speed: 1.03 to 1.2
PHONE_HEADERS = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def bench_plan(sessions: int, rounds: int, long_rounds: int) -> demo.DemoGroup:
    """``sessions`` - 1 finished sessions of about ``rounds`` rounds over ten
    years, then an open one of ``long_rounds``."""
    rng = random.Random(2026)
    players = demo.choose_players(rng)
    since = NOW - timedelta(days=3650)
    gap = timedelta(days=3650) / sessions
    shapes = [demo.play_session(rng, players, rules, since, demo.about(rng, rounds))
              for rules in [HouseRules.penang(), HouseRules.rummi()] * (SHAPES // 2)]
    played = [demo.moved(shapes[i % SHAPES], i * gap) for i in range(sessions - 1)]
    played.append(demo.play_session(rng, players, HouseRules.penang(),
                                    since + sessions * gap, long_rounds, finished=False))
    return demo.DemoGroup(players, since, played)


def bench_group(args) -> Group:
    """The bench group, seeded first if the database doesn't have it yet."""
    group = db.session.scalar(sa.select(Group).where(Group.name == GROUP))
    if group is None:
        print(f"seeding {args.sessions} sessions (one of {args.long_rounds} rounds)...",
              flush=True)
        started = time.perf_counter()
        plan = bench_plan(args.sessions, args.rounds, args.long_rounds)
        group, written, rounds = services.seed_demo_group(GROUP, PASSPHRASE, plan)
        services.analyze_tables()
        print(f"seeded {written} sessions, {rounds} rounds in "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    return group


def pages(group: Group) -> dict[str, str]:
    long_session = db.session.scalar(
        sa.select(GameSession.id).where(GameSession.group_id == group.id,
                                        GameSession.ended_at.is_(None)))
    regulars = db.session.scalars(
        sa.select(Seat.player_id).join(GameSession)
        .where(GameSession.group_id == group.id)
        .group_by(Seat.player_id).order_by(sa.func.count().desc()).limit(2)).all()
    regular, next_regular = regulars
    ended = db.session.scalar(sa.select(sa.func.max(GameSession.id)).where(
        GameSession.group_id == group.id, GameSession.ended_at.is_not(None)))
    return {
        "scoreboard": f"/sessions/{long_session}",
        "settlement": f"/sessions/{long_session}/settle",
        "round form": f"/sessions/{long_session}/rounds/new",
        "history": "/history",
        "player": f"/players/{regular}",
        "home": "/",
        "who owes whom": "/money",
        "leaderboard": "/records",
        "head to head": f"/records/head-to-head?a={regular}&b={next_regular}",
        "what if": f"/sessions/{long_session}/what-if?preset=penang&use_preset=1",
        "how we play": f"/sessions/{long_session}/how-we-play",
        "session chart": f"/history/sessions/{ended}",
        "result picture": f"/sessions/{long_session}/result.png",
    }


def time_pages(client, urls: list[str], repeat: int) -> list[list[float]]:
    """``repeat`` timings of each page, in ms. The pages take turns, request by
    request, so that a slow spell of the host (see hostspeed.py) slows them
    all alike rather than whichever page it fell on."""
    for url in urls:
        for _ in range(5):  # warm: templates compiled, statements cached
            assert client.get(url, headers=PHONE_HEADERS).status_code == 200, url
    times: list[list[float]] = [[] for _ in urls]
    for _ in range(repeat):
        for url, page_times in zip(urls, times, strict=False):
            started = time.perf_counter()
            response = client.get(url, headers=PHONE_HEADERS)
            page_times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, url
    return times


def work_of(client, url: str) -> tuple[int, int]:
    """SQL statements and Python function calls of one request: the same on
    any machine, busy or not, unlike its time."""
    statements = []

    def count(*_):
        statements.append(1)

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", count)
    profile = cProfile.Profile()
    profile.enable()
    client.get(url, headers=PHONE_HEADERS)
    profile.disable()
    sa.event.remove(sa.engine.Engine, "before_cursor_execute", count)
    calls = sum(stats[1] for stats in pstats.Stats(profile).stats.values())
    return len(statements), calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url",
                        default=f"sqlite:///{ROOT / 'instance' / 'bench-pages.sqlite3'}")
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--long-rounds", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=200, help="requests per page")
    parser.add_argument("--profile", metavar="PAGE", help="profile one page with pyinstrument")
    args = parser.parse_args()

    app = create_app({"SQLALCHEMY_DATABASE_URI": args.database_url,
                      "SECRET_KEY": "bench pages, a key long enough to sign",
                      "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000"})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade(directory=str(ROOT / "migrations"))
        group = bench_group(args)
        urls = pages(group)
        client = app.test_client()
        with client.session_transaction() as cookie:
            cookie.update(group_id=group.id, sign_in=services.sign_in_phone(group),
                          device="Bench", day=today())
        db.session.remove()
    # As in a gunicorn worker once the app is loaded (gunicorn.conf.py).
    runpy.run_path(str(ROOT / "gunicorn.conf.py"))["post_worker_init"](None)

    if args.profile:
        from pyinstrument import Profiler
        with Profiler(interval=0.0002) as profiler:
            time_pages(client, [urls[args.profile]], args.repeat)
        print(profiler.output_text(unicode=True, color=False))
        return

    speed_before = hostspeed.reference_ms()
    print(f"database: {sa.make_url(args.database_url).get_backend_name()}, "
          f"{args.repeat} requests per page, ms")
    print("| page | median | p90 | max | target (median) | statements | Python calls |")
    print("|---|---|---|---|---|---|---|")
    timings = time_pages(client, list(urls.values()), args.repeat)
    spreads = []
    for (name, url), times in zip(urls.items(), timings, strict=False):
        times.sort()
        median, p90 = statistics.median(times), times[int(len(times) * 0.9)]
        spreads.append(p90 / median)
        target = TARGETS_MS.get(name)
        verdict = f"< {target} ({'met' if median < target else 'MISSED'})" if target else ""
        statements, calls = work_of(client, url)
        print(f"| {name} | {median:.2f} | {p90:.2f} | "
              f"{times[-1]:.2f} | {verdict} | {statements} | {calls:,} |", flush=True)
    print(hostspeed.describe(speed_before, hostspeed.reference_ms()))
    # The pages take turns, so a slowdown of the host during the run widens
    # every page's spread alike; the reference, timed before and after, can miss it.
    print(f"spread: p90 / median {min(spreads):.2f} to {max(spreads):.2f} "
          f"(steady runs: {STEADY_SPREAD} at most on some page)")
    if min(spreads) > STEADY_SPREAD:
        print("every page's spread is wide: the host slowed during this run; run it again")


if __name__ == "__main__":
    main()
