"""How soon a round saved on one phone shows on the others' screens (issue 16:
"within a second or two"; the browser tests asserted it with a 2 s timeout,
which on this shared machine measured the machine as much as the app).

From the project root:

    .venv/bin/python bench/live_delay.py                        # SQLite, gunicorn.conf.py's workers
    .venv/bin/python bench/live_delay.py --database-url postgresql://user:pw@127.0.0.1/db
    .venv/bin/python bench/live_delay.py --rounds 60

gunicorn as deployed (2 workers, gevent) on a small seeded database. The
phones that watch are Chromium pages at phone size, each a browser of its
own, as in tests/e2e: three on the scoreboard, one on settle up, one on the
shared scoreboard (not signed in). Another phone saves a round through the
round form every 0.5 to 1.5 s (HTTP, as load.py's phones do), so that saves
fall anywhere in the watch's 0.5 s between reads. A change's delay runs from
the save's redirect reaching the saving phone to a watching page having put
the new page in place (live.js swaps its live regions; a MutationObserver
the benchmark adds to each page notes when). Target: p95 under 2 s.
"""

from __future__ import annotations

import argparse
import html
import os
import random
import re
import sys
import tempfile
import time
from itertools import cycle
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is on the path, not the root
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from bench import hostspeed, load
from bench.http_client import Browser, read_form
from bench.server import Server, gunicorn

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 1}
WATCHERS = {"scoreboard": 3, "settle up": 1, "shared scoreboard": 1}
TARGET_P95_S = 2.0
MISSED_AFTER_S = 30

# When each live region is put in place after the page has loaded (ms since
# the epoch), and how many states the page's stream has brought.
OBSERVER = """
window.benchSwaps = [];
window.benchStates = 0;
document.addEventListener("live:change", () => { window.benchStates += 1; });
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && node.matches("[data-live][id]")) {
          window.benchSwaps.push(performance.timeOrigin + performance.now());
        }
      }
    }
  }).observe(document.body, {childList: true, subtree: true});
});
"""


def share_path(phone: load.Phone) -> str:
    """A share link made through its page, as a member makes one (the server's
    secret key signs it); its path."""
    manage = f"{phone.board}/share"
    form = read_form(phone.visit("share links", "GET", manage) or "", "/share")
    if not form:
        raise RuntimeError(f"no share links form: {phone.errors}")
    phone.visit("new link", "POST", *form, status=302)
    found = re.search(r'class="share-url" value="([^"]+)"',
                      phone.visit("share links", "GET", manage) or "")
    if not found:
        raise RuntimeError(f"no share link made: {phone.errors}")
    return urlsplit(html.unescape(found[1])).path


def watcher(browser, server: Server, table: load.Table, path: str, signed_in: bool):
    base = f"http://{server.host}:{server.port}"
    context = browser.new_context(**PHONE, base_url=base)
    if signed_in:
        form = read_form(context.request.get("/sign-in").text(), "/sign-in")
        assert form, "no sign-in form"
        action, fields = form
        fields.update(name=table.group, passphrase=load.PASSPHRASE, device="Watching phone")
        answer = context.request.post(action, form=fields, max_redirects=0)
        assert answer.status == 302, answer.status
    context.add_init_script(OBSERVER)
    page = context.new_page()
    page.goto(path)
    page.wait_for_function("() => window.benchStates > 0")  # its stream is open
    return page


def save_round(phone: load.Phone) -> float:
    """A round saved through the form; when its redirect arrived (s since the epoch)."""
    page = phone.visit("round form", "GET", f"{phone.board}/rounds/new")
    form = page and read_form(page, "/rounds/new")
    if not form:
        raise RuntimeError(f"no round form: {phone.errors}")
    action, fields = form
    for row, (outcome, cards) in enumerate(next(phone.deals)):
        fields[f"entries-{row}-outcome"] = outcome
        fields[f"entries-{row}-cards"] = cards
    saved = f"{phone.board}/rounds/{fields['number']}"
    if phone.visit("submit", "POST", action, fields, status=302, location=saved) is None:
        raise RuntimeError(f"round not saved: {phone.errors}")
    return time.time()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory(prefix="scorekeeper-live-delay-") as temporary:
        folder = Path(temporary)
        database_url = args.database_url or f"sqlite:///{folder / 'live.sqlite3'}"
        print(f"Database: {load.describe(database_url)}")
        load.prepare_database(database_url, 1, 20, 10, args.seed, echo=False)
        app = load.make_app(database_url)
        (table,) = load.start_tables(app, 1)
        board = f"/sessions/{table.session_id}"
        speed_before = hostspeed.reference_ms()
        delays: dict[str, list[float]] = {kind: [] for kind in WATCHERS}
        missed = 0
        with gunicorn(database_url, args.workers, folder) as server, \
                sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            saver = load.Phone(0, table, Browser(server.host, server.port),
                               cycle(load.valid_deals(args.rounds + 10, seed=args.seed)))
            if not saver.sign_in():
                raise RuntimeError(f"could not sign in: {saver.errors}")
            paths = {"scoreboard": board, "settle up": f"{board}/settle",
                     "shared scoreboard": share_path(saver)}
            pages = [(kind, watcher(browser, server, table, paths[kind],
                                    kind != "shared scoreboard"))
                     for kind, count in WATCHERS.items() for _ in range(count)]
            for _ in range(args.rounds):
                time.sleep(rng.uniform(0.5, 1.5))  # the table's pace, not a wait for the app
                before = [page.evaluate("window.benchSwaps.length") for _, page in pages]
                saved_at = save_round(saver)
                for (kind, page), seen in zip(pages, before, strict=True):
                    try:
                        page.wait_for_function("(n) => window.benchSwaps.length > n", arg=seen,
                                               timeout=MISSED_AFTER_S * 1000)
                    except PlaywrightTimeout:
                        missed += 1
                        continue
                    shown = page.evaluate(f"window.benchSwaps[{seen}]") / 1000
                    delays[kind].append(shown - saved_at)
            browser.close()
        speed_after = hostspeed.reference_ms()
    print(hostspeed.describe(speed_before, speed_after))
    return report(args, delays, missed)


def summary(values: list[float]) -> str:
    values = sorted(values)
    return (f"median {load.percentile(values, 0.5):.2f} s, p95 {load.percentile(values, 0.95):.2f} "
            f"s, max {values[-1]:.2f} s over {len(values)}")


def report(args, delays: dict[str, list[float]], missed: int) -> int:
    every = sorted(d for values in delays.values() for d in values)
    print(f"{args.rounds} rounds saved, {sum(WATCHERS.values())} pages watching, "
          f"{args.workers} gunicorn workers")
    for kind, values in delays.items():
        if values:
            print(f"  {kind} ({WATCHERS[kind]}): {summary(values)}")
    p95 = load.percentile(every, 0.95) if every else float("inf")
    print(f"every page: {summary(every) if every else 'nothing shown'}; missed {missed} "
          f"(target p95 under {TARGET_P95_S:g} s, none missed)")
    return 0 if p95 < TARGET_P95_S and not missed else 1


if __name__ == "__main__":
    raise SystemExit(main())
