"""Browser tests: the app served on a free local port, driven by Debian's Chromium
through Playwright at phone size with touch. They skip only where Chromium is missing.

They wait for what the app does (a page's state, a response, a worker taking
over), never for a time. How long they wait before failing is a bound, not a
measure: this machine's two cores are shared, and a page may take seconds to
come. What is timed (a live change's delay) is in bench/."""

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import GROUP_NAME, PASSPHRASE, fresh_app, the_group
from tests.web.phones import serving

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
# How long a wait for the page's state goes on before the test fails.
WAIT_SECONDS = 15
expect.set_options(timeout=WAIT_SECONDS * 1000)

if not CHROMIUM.exists():
    pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium",
                allow_module_level=True)


@pytest.fixture(scope="module")
def live_app(tmp_path_factory):
    # Changes read for the live pages every 0.1 s, not 0.5: the phones wait
    # less for what another did (bench/live_delay.py measures the real delay).
    with fresh_app(tmp_path_factory.mktemp("e2e"), LIVE_POLL_SECONDS=0.1) as app:
        yield app


@pytest.fixture(scope="module")
def base_url(live_app):
    with serving(live_app) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync"])
        yield browser
        browser.close()


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


# A phone: Playwright's options for every context, unless a test says otherwise.
# The service worker only where it is the point (``@pytest.mark.service_worker``):
# elsewhere its install, a fetch of every static file for each new context, is
# work a test does not need and one more thing under way as the test acts.
PHONE_OPTIONS = {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 1,
                 "service_workers": "block"}


@pytest.fixture
def new_context(request, browser, base_url):
    """new_context(**options): a browser of its own, a phone unless ``options``
    say otherwise. Closed after the test; if the test failed, what its pages
    did is printed first."""
    made = []

    worker = {"service_workers": "allow"} if request.node.get_closest_marker("service_worker") \
        else {}

    def make(**options):
        context = browser.new_context(
            **{**PHONE_OPTIONS, **worker, "base_url": base_url, **options})
        made.append((context, log_of(context)))
        return context

    yield make
    for context, log in made:
        if request.node.stash.get(FAILED, False):
            print_what_happened(context, log)
        context.close()


@pytest.fixture
def page(new_context):
    return new_context().new_page()


def log_of(context) -> list[str]:
    """What the context's pages do (where they go, what they ask for and
    get, what they log), in order, as a browser's developer tools would show."""
    happened: list[str] = []

    def went(frame) -> None:
        if frame.parent_frame is None:
            happened.append(f"went to {frame.url}")

    def asked(request, outcome) -> None:
        if "/static/" not in request.url:
            worker = " (worker)" if request.service_worker else ""
            happened.append(f"{request.method} {request.url} {outcome}{worker}")

    context.on("page", lambda page: page.on("framenavigated", went))
    context.on("response", lambda response: asked(response.request, response.status))
    context.on("requestfailed", lambda request: asked(request, f"failed: {request.failure}"))
    context.on("console", lambda message: happened.append(
        f"console {message.type}: {message.text}"))
    context.on("weberror", lambda error: happened.append(f"error: {error.error}"))
    return happened


def print_what_happened(context, happened: list[str]) -> None:
    print("In the browser, in order:", *happened, sep="\n  ")
    for each in context.pages:
        print(f"\nThe page at {each.url} shows:")
        print(each.locator("body").inner_text(timeout=2_000)[:2_000])


def a_session_with_a_round():
    """A Rummi session for Ann, Ben, Cat and Dan (Ann deals) with round 1
    saved, Dan going out; the session, to use inside an app context."""
    from scorekeeper import services
    from scorekeeper.rules import Entry, HouseRules

    game = services.start_session(services.Change(the_group()), ["Ann", "Ben", "Cat", "Dan"],
                                  HouseRules.rummi(), "Ann")
    services.record_round(services.Change.to(game),
                          {"Ann": Entry("dead", "3C"), "Ben": Entry("dead", "8H"),
                           "Cat": Entry("dead", "QS"), "Dan": Entry("hu")})
    return game


def sign_in(page, name=GROUP_NAME, passphrase=PASSPHRASE) -> None:
    """Sign the page's browser in through the sign-in form."""
    page.goto("/sign-in")
    page.get_by_label("Group name").fill(name)
    page.get_by_label("Passphrase").fill(passphrase)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/")


def signed_in(context, device: str = "Test phone", name: str = GROUP_NAME,
              passphrase: str = PASSPHRASE) -> None:
    """Sign the context's phone in by the sign-in form's POST, without showing
    a page (the form itself is used by sign_in)."""
    from tests.web.helpers import token_in

    form = context.request.get("/sign-in").text()
    answer = context.request.post("/sign-in", max_redirects=0, form={
        "csrf_token": token_in(form), "name": name, "passphrase": passphrase,
        "device": device, "next": ""})
    assert answer.status == 302, answer.status


def phone_of(new_context, sid: int, player: int, device: str):
    """A page of a phone signed in to the group that says whose it is."""
    from tests.web.helpers import token_in

    context = new_context()
    signed_in(context, device=device)
    board = f"/sessions/{sid}"
    answer = context.request.post(f"{board}/phone", max_redirects=0, form={
        "csrf_token": token_in(context.request.get(board).text()), "player": str(player)})
    assert answer.status == 302
    return context.new_page()


@pytest.fixture
def member(page, live_app):
    """The page, signed in to the tests' group (by the form's POST: the
    tests that sign in on the page itself use sign_in)."""
    with live_app.app_context():
        the_group()
    signed_in(page.context)
    return page


def controlled(page) -> None:
    """Wait until the service worker is active and controls the page: its
    install (every static file fetched) done, and the page claimed (offline.js
    asks a worker that started after the page loaded to claim it)."""
    # A function, not an expression: Playwright would eval() an expression in
    # the page, which its Content-Security-Policy refuses.
    page.wait_for_function("() => navigator.serviceWorker.controller && "
                           "navigator.serviceWorker.controller.state === 'activated'")


def offline(page) -> None:
    """Tell the page the phone is offline, as a phone's browser would: a page
    loaded with Chromium's network emulation on thinks it is online. The
    network is switched on and off again for the page to see it, and it is
    checked that nothing from the page, or from the worker for it, gets through."""
    page.context.set_offline(False)
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    assert page.evaluate(NOTHING_GETS_THROUGH), "the browser's network stayed on"


def back_online(page) -> None:
    """The network back, and the phone woken: queue.js sends the rounds that
    wait when the page sees the network come back, and when the phone is woken;
    a page loaded from the worker's copy offline thinks it was online all along
    and has only its next retry (2 to 30 s on) to go by, so it is woken. A
    page that saw the network come back may have sent its rounds and moved on
    to the next page already: then there is nothing left to wake."""
    page.context.set_offline(False)
    page.wait_for_function("() => navigator.onLine")
    # On the page's root, bubbling to the document: Playwright's dispatch waits
    # through a navigation (the page may already be reloading, its rounds sent
    # on the "online" event), where an evaluate would fail.
    page.dispatch_event("html", "visibilitychange")


# A HEAD goes past the worker, from the page; a GET of a page goes through the worker.
NOTHING_GETS_THROUGH = """async () => {
    const through = (method) => fetch("/healthz", {method, cache: "no-store"})
        .then(() => true, () => false);
    return !(await through("HEAD")) && !(await through("GET"));
}"""


def until(page, predicate: str, arg=None) -> None:
    """Wait until an async function (its source) resolves true in the page, as
    wait_for_function does for a plain one (given an async one, it takes the
    promise it returns for true, and waits for nothing): asked again as each
    answer comes, for as long as ``expect`` waits."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not page.evaluate(predicate, arg):
        assert time.monotonic() < deadline, f"never true in the page: {predicate}"


def see(page, urls) -> None:
    """Open each page online, as the phone sees it, and wait until the worker
    has kept the group pages among them (after they were shown)."""
    urls = list(urls)
    for url in urls:
        page.goto(url)
    until(page, """async (paths) => {
        const name = (await caches.keys()).find((n) => n.startsWith('pages-'));
        if (!name) return false;
        const kept = (await (await caches.open(name)).keys()).map((k) => new URL(k.url).pathname);
        return paths.every((path) => kept.includes(path));
    }""", [url for url in urls if not url.startswith("/share/")])


@pytest.fixture
def outside_requests(page, base_url):
    """Every request the page makes to a host other than the app's."""
    requests = []
    page.on("request", lambda r: None if r.url.startswith((base_url, "data:"))
            else requests.append(r.url))
    return requests


def accessibility_violations(page) -> list[str]:
    """axe-core's findings on the page, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} elements)"
            for v in results.response["violations"]]


def small_tap_targets(page) -> list[str]:
    """Visible buttons, links, inputs and selects smaller than 44×44 CSS pixels.

    Links inside running text are exempt, as WCAG 2.5.5 allows."""
    return page.evaluate("""() => {
        const found = [];
        for (const el of document.querySelectorAll(
                'button, a[href], input:not([type=hidden]), select, textarea, summary')) {
            const box = el.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) continue;
            if (el.tagName === 'A' && el.closest('p, li, td')
                && !el.classList.contains('button')) continue;
            const target = el.type === 'radio' || el.type === 'checkbox'
                ? (el.closest('label') || el).getBoundingClientRect() : box;
            if (target.width < 44 || target.height < 44) {
                const label = (el.innerText || el.name || el.id).trim().slice(0, 30);
                const size = `${Math.round(target.width)}x${Math.round(target.height)}`;
                found.push(`${el.tagName.toLowerCase()} "${label}" ${size}`);
            }
        }
        return found;
    }""")


def phone_page_problems(page) -> list[str]:
    """Everything wrong with the page as shown on a phone: axe findings, tap targets
    under 44 px, and a page wider than the screen (sideways scrolling)."""
    problems = [f"axe {v}" for v in accessibility_violations(page)]
    problems += [f"small tap target {t}" for t in small_tap_targets(page)]
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        problems.append(f"scrolls sideways: {width} px wide")
    return problems
