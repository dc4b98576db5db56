"""TEMPORARY probe: how long the service worker takes to control a page."""
import time

from tests.conftest import the_group
from tests.e2e.conftest import PHONE, sign_in


def test_probe(browser, base_url, live_app):
    with live_app.app_context():
        the_group()
    for i in range(6):
        context = browser.new_context(viewport=PHONE, base_url=base_url)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        errors, versions = [], []
        cdp.on("ServiceWorker.workerErrorReported", lambda e: errors.append(e))
        cdp.on("ServiceWorker.workerVersionUpdated",
               lambda e: versions.append([(v["status"], v["runningStatus"]) for v in e["versions"]]))
        cdp.send("ServiceWorker.enable")
        failed = []
        page.on("requestfailed", lambda r: failed.append((r.url, r.failure)))
        sign_in(page)
        start = time.monotonic()
        page.goto("/")
        try:
            page.wait_for_function("() => navigator.serviceWorker.controller && "
                                   "navigator.serviceWorker.controller.state === 'activated'",
                                   timeout=20_000)
            print(i, "controlled after", round(time.monotonic() - start, 2))
        except Exception:
            print(i, "NOT controlled", errors, versions[-5:], failed[:5])
        context.close()
