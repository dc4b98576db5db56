"""A cold load of the round form and the scoreboard over a slow mobile link.

Each checkout given (by default this one) is served in a process of its own
(werkzeug, threaded, on a SQLite file: a session of four players with five
rounds). Chromium (/usr/bin/chromium) then opens each page in a new browser
context, signed in but with an empty cache and no service worker, over a link
that CDP throttles to 400 ms of latency a request and 50 KB/s each way. The
checkouts take turns, load by load, so that a slow spell of the host slows
them alike. Printed per page and checkout, in ms (median, and the range):
DOMContentLoaded (the module scripts have run, with everything they import)
and the load event; then the requests and bytes of one load.

    git archive main | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    .venv/bin/python bench/cold_load.py --checkout /tmp/before --checkout .
    .venv/bin/python bench/cold_load.py --runs 9           # this checkout alone

The servers use this venv's packages, with each checkout's own code.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
LATENCY_MS = 400
BYTES_PER_SECOND = 50_000
CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 1}
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HANDS = ["3C 7H", "KD", "QS 10H 2C", "5S 9H"]


def serve(checkout: Path) -> None:
    """Seed a database and serve ``checkout``'s app; say where on stdout."""
    sys.path.insert(0, str(checkout))
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

    import scorekeeper
    from scorekeeper import create_app, services
    from scorekeeper.rules import Entry, HouseRules
    from scorekeeper.web.access import today

    assert Path(scorekeeper.__file__).resolve().is_relative_to(checkout), scorekeeper.__file__
    folder = Path(tempfile.mkdtemp(prefix="cold-load-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
                      "SECRET_KEY": "bench cold load, a key long enough to sign",
                      "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000"})
    with app.app_context():
        upgrade(directory=str(checkout / "migrations"))
        group = services.create_group("Bench table", "bench passphrase")
        game = services.start_session(group, PLAYERS, HouseRules.rummi(), "Ann")
        for number in range(5):
            services.record_round(game, {
                name: Entry("hu") if i == number % 4 else Entry("dead", HANDS[i])
                for i, name in enumerate(PLAYERS)})
        client = app.test_client()
        with client.session_transaction() as cookie:
            cookie.update(group_id=group.id, sign_in=services.sign_in_phone(group),
                          device="Bench phone", day=today())
        session_cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
        pages = {"round form": f"/sessions/{game.id}/rounds/new",
                 "scoreboard": f"/sessions/{game.id}"}
    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(json.dumps({"port": server.server_port, "pages": pages,
                      "cookie": {"name": session_cookie.key, "value": session_cookie.value}}),
          flush=True)
    server.serve_forever()


def load(browser, site: dict, url: str) -> dict:
    """One cold load of ``url``: its timings (ms), requests and bytes."""
    context = browser.new_context(**PHONE, service_workers="block")
    base = f"http://127.0.0.1:{site['port']}"
    context.add_cookies([{**site["cookie"], "url": base}])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS,
        "downloadThroughput": BYTES_PER_SECOND, "uploadThroughput": BYTES_PER_SECOND})
    response = page.goto(base + url, wait_until="load")
    assert response is not None and response.status == 200, url
    page.wait_for_function("() => performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
    figures = page.evaluate("""() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const resources = performance.getEntriesByType("resource");
        return {ready: nav.domContentLoadedEventEnd, load: nav.loadEventStart,
                requests: 1 + resources.length,
                bytes: [nav, ...resources].reduce((sum, each) => sum + each.transferSize, 0)};
    }""")
    context.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", type=Path,
                        help="a checkout to serve (repeat to compare; default: this one)")
    parser.add_argument("--runs", type=int, default=7, help="cold loads per page and checkout")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)  # the server process
    args = parser.parse_args()
    if args.serve:
        serve(args.serve.resolve())
        return
    checkouts = [path.resolve() for path in args.checkout or [HERE.parent.parent]]

    from playwright.sync_api import sync_playwright

    servers, sites = [], []
    try:
        for checkout in checkouts:
            server = subprocess.Popen([sys.executable, str(HERE), "--serve", str(checkout)],
                                      stdout=subprocess.PIPE, text=True, cwd=checkout,
                                      env={**os.environ, "FLASK_DEBUG": "0"})
            servers.append(server)
            assert server.stdout is not None
            sites.append(json.loads(server.stdout.readline()))
        figures: dict[tuple[str, int], list[dict]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--no-first-run", "--disable-sync"])
            for name in sites[0]["pages"]:
                for site in sites:
                    load(browser, site, site["pages"][name])  # templates compiled, files hashed
                for _ in range(args.runs):
                    for i, site in enumerate(sites):
                        figures.setdefault((name, i), []).append(
                            load(browser, site, site["pages"][name]))
            browser.close()
    finally:
        for server in servers:
            server.terminate()
            server.wait()
    print(f"{args.runs} cold loads each, {LATENCY_MS} ms latency, "
          f"{BYTES_PER_SECOND // 1000} KB/s; ms: median (min to max)")
    print("| page | checkout | DOMContentLoaded | load | requests | bytes |")
    print("|---|---|---|---|---|---|")
    for (name, i), runs in figures.items():
        def spread(key: str, runs: list[dict] = runs) -> str:
            values = sorted(run[key] for run in runs)
            return f"{statistics.median(values):.0f} ({values[0]:.0f} to {values[-1]:.0f})"
        print(f"| {name} | {checkouts[i]} | {spread('ready')} | {spread('load')} | "
              f"{runs[0]['requests']} | {runs[0]['bytes']:,} |")


if __name__ == "__main__":
    main()
