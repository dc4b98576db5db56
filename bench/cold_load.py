"""A cold load of the round form and the scoreboard over a slow mobile link.

Each checkout given (by default this one) is served in processes of its own,
on a SQLite file holding a session of four players with five rounds: over
HTTP/1.1 by werkzeug (threaded, plain http, as the browser tests serve), and
over HTTP/2 with TLS by hypercorn (as a phone reaches it through caddy or
nginx in production; a certificate made with openssl for the run). Chromium
(/usr/bin/chromium) then opens each page in a new browser context, signed in
but with an empty cache and no service worker, over a link that CDP throttles
to 400 ms of latency a request and 50 KB/s each way. The servers take turns,
load by load, so that a slow spell of the host slows them alike. Printed per
page, protocol and checkout, in ms (median, and the range): DOMContentLoaded
(the module scripts have run, with all they import) and the load event; then
the requests and bytes (headers included) of one load.

    .venv/bin/pip install -e '.[bench]'                    # hypercorn
    git archive main | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    .venv/bin/python bench/cold_load.py --checkout /tmp/before --checkout .
    .venv/bin/python bench/cold_load.py --runs 9 --protocol h2   # this checkout alone

The servers use this venv's packages, with each checkout's own code.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
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


def serve(checkout: Path, protocol: str, folder: Path) -> None:
    """Seed a database in ``folder`` and serve ``checkout``'s app over
    ``protocol`` (h1 or h2); say where on stdout."""
    sys.path.insert(0, str(checkout))
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

    import scorekeeper
    from scorekeeper import create_app, services
    from scorekeeper.rules import Entry, HouseRules
    from scorekeeper.web.access import today

    assert Path(scorekeeper.__file__).resolve().is_relative_to(checkout), scorekeeper.__file__
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
                      "SECRET_KEY": "bench cold load, a key long enough to sign",
                      "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000"})
    with app.app_context():
        upgrade(directory=str(checkout / "migrations"))
        group = services.create_group("Bench table", "bench passphrase")
        # A change is services.Change since issue 24; a checkout before it
        # took the group and the session themselves.
        change = getattr(services, "Change", None)
        game = services.start_session(change(group) if change else group, PLAYERS,
                                      HouseRules.rummi(), "Ann")
        for number in range(5):
            services.record_round(change.to(game) if change else game, {
                name: Entry("hu") if i == number % 4 else Entry("dead", HANDS[i])
                for i, name in enumerate(PLAYERS)})
        client = app.test_client()
        with client.session_transaction() as cookie:
            cookie.update(group_id=group.id, sign_in=services.sign_in_phone(group),
                          device="Bench phone", day=today())
        session_cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
        pages = {"round form": f"/sessions/{game.id}/rounds/new",
                 "scoreboard": f"/sessions/{game.id}"}
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    said = {"pages": pages,
            "cookie": {"name": session_cookie.key, "value": session_cookie.value}}
    if protocol == "h1":
        server = make_server("127.0.0.1", 0, app, threaded=True)
        print(json.dumps({**said, "base": f"http://127.0.0.1:{server.server_port}"}), flush=True)
        server.serve_forever()
        return
    import asyncio

    from hypercorn.asyncio import serve as hypercorn_serve
    from hypercorn.config import Config

    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
                   check=True, capture_output=True)
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.certfile, config.keyfile = str(folder / "cert.pem"), str(folder / "key.pem")
    config.accesslog = config.errorlog = None
    print(json.dumps({**said, "base": f"https://127.0.0.1:{port}"}), flush=True)
    asyncio.run(hypercorn_serve(app, config, mode="wsgi"))


def load(browser, site: dict, url: str) -> dict:
    """One cold load of ``url``: its timings (ms), requests and bytes."""
    context = browser.new_context(**PHONE, service_workers="block", ignore_https_errors=True)
    base = site["base"]
    context.add_cookies([{**site["cookie"], "url": base}])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS,
        "downloadThroughput": BYTES_PER_SECOND, "uploadThroughput": BYTES_PER_SECOND})
    response = page.goto(base + url, wait_until="load")
    assert response is not None and response.status == 200, url
    protocol = page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol")
    assert protocol == site["protocol"], (protocol, site)
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


PROTOCOLS = {"h1": "http/1.1", "h2": "h2"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", type=Path,
                        help="a checkout to serve (repeat to compare; default: this one)")
    parser.add_argument("--protocol", choices=["h1", "h2", "both"], default="both")
    parser.add_argument("--runs", type=int, default=7, help="cold loads per page and server")
    parser.add_argument("--serve", nargs=3, help=argparse.SUPPRESS)  # a server process
    args = parser.parse_args()
    if args.serve:
        serve(Path(args.serve[0]).resolve(), args.serve[1], Path(args.serve[2]))
        return
    checkouts = [path.resolve() for path in args.checkout or [HERE.parent.parent]]
    protocols = ["h1", "h2"] if args.protocol == "both" else [args.protocol]

    from playwright.sync_api import sync_playwright

    processes, sites = [], []
    scratch = tempfile.TemporaryDirectory(prefix="cold-load-")
    try:
        for protocol in protocols:
            for checkout in checkouts:
                folder = Path(scratch.name) / str(len(processes))
                folder.mkdir()
                process = subprocess.Popen(
                    [sys.executable, str(HERE), "--serve", str(checkout), protocol, str(folder)],
                    stdout=subprocess.PIPE, text=True, cwd=checkout,
                    env={**os.environ, "FLASK_DEBUG": "0"})
                processes.append(process)
                assert process.stdout is not None
                sites.append({**json.loads(process.stdout.readline()), "checkout": checkout,
                              "protocol": PROTOCOLS[protocol]})
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
        for process in processes:
            process.terminate()
            process.wait()
        scratch.cleanup()
    print(f"{args.runs} cold loads each, {LATENCY_MS} ms latency, "
          f"{BYTES_PER_SECOND // 1000} KB/s; ms: median (min to max)")
    print("| page | protocol | checkout | DOMContentLoaded | load | requests | bytes |")
    print("|---|---|---|---|---|---|---|")
    for (name, i), runs in figures.items():
        def spread(key: str, runs: list[dict] = runs) -> str:
            values = sorted(run[key] for run in runs)
            return f"{statistics.median(values):.0f} ({values[0]:.0f} to {values[-1]:.0f})"
        site = sites[i]
        print(f"| {name} | {site['protocol']} | {site['checkout']} | {spread('ready')} | "
              f"{spread('load')} | {runs[0]['requests']} | {runs[0]['bytes']:,} |")


if __name__ == "__main__":
    main()
