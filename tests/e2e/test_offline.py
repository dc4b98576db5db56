"""Installable, and readable offline (issue 17): Chromium finds the app
installable, the service worker controls the pages, and a phone that loses
the network opens the pages it saw, marked with the time it saw them."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules import HouseRules
from scorekeeper.web.share import share_url
from tests.conftest import the_group
from tests.e2e.conftest import (
    a_session_with_a_round,
    controlled,
    offline,
    phone_page_problems,
    see,
    sign_in,
    until,
)

pytestmark = pytest.mark.service_worker

OTHER_GROUP = ("Saturday table", "another passphrase")


@pytest.fixture(scope="module")
def table(live_app):
    """A session in play with one round, and a share link to it."""
    with live_app.app_context():
        game = a_session_with_a_round()
        link = services.create_share_link(services.Change.to(game, device="Ann's phone"))
        with live_app.test_request_context():
            shared = share_url(link, the_group()).split("://", 1)[1].split("/", 1)[1]
        services.create_group(*OTHER_GROUP)
        return {"board": f"/sessions/{game.id}", "id": game.id, "shared": "/" + shared}


def seen_pages(table) -> dict[str, str]:
    board = table["board"]
    return {"scoreboard": board, "round result": f"{board}/rounds/1",
            "settle up": f"{board}/settle", "round form": f"{board}/rounds/new"}


def kept_pages(page) -> list[str]:
    return page.evaluate("""async () => {
        const found = [];
        for (const name of await caches.keys()) {
            if (!name.startsWith('pages-')) continue;
            for (const key of await (await caches.open(name)).keys()) found.push(key.url);
        }
        return found;
    }""")


def phone_clock(page) -> str:
    return page.evaluate("""() => { const two = (n) => String(n).padStart(2, '0');
        const now = new Date(); return two(now.getHours()) + ':' + two(now.getMinutes()); }""")


def test_chromium_finds_it_installable(member, table):
    page = member
    page.goto(table["board"])
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's browser context is incognito, where Chromium installs nothing.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    parsed = page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")
    assert parsed["display"] == "standalone" and parsed["start_url"] == "/"
    state = page.evaluate("navigator.serviceWorker.ready.then((r) => [r.scope, r.active.state])")
    assert state == [page.url.split("/sessions")[0] + "/", "activated"]


def test_pages_seen_open_offline_marked_with_the_time(member, table):
    page = member
    page.goto("/")
    controlled(page)
    urls = seen_pages(table)
    before = phone_clock(page)
    see(page, urls.values())
    seen = {before, phone_clock(page)}  # the minute may turn meanwhile
    # The round form's key, as the worker kept the form (of the scoreboard's round).
    kept_key = page.evaluate("""async (path) => {
        const name = (await caches.keys()).find((n) => n.startsWith('pages-'));
        const kept = await (await caches.open(name)).match(path);
        return /name="key" value="([^"]+)"/.exec(await kept.text())[1];
    }""", urls["round form"])
    page.context.set_offline(True)
    for name, url in urls.items():
        page.goto(url)
        bar = page.locator(".offline-bar")
        expect(bar).to_contain_text(re.compile(r"Offline, as of \d\d:\d\d"))
        assert bar.inner_text().split("as of ")[1][:5] in seen, name
        if name == "round form":
            # A form shown again is a new change: a new key, of the time the form was made.
            key = page.locator("form.round-form [name=key]")
            expect(key).not_to_have_value(kept_key)
            made, _ = kept_key.split(".")
            assert re.fullmatch(rf"{made}\.[A-Za-z0-9_-]{{22}}", key.input_value())
        expect(page.locator("h1")).to_have_count(1)
        if name == "scoreboard":
            expect(page.get_by_role("rowheader", name="Dan")).to_be_visible()
        assert phone_page_problems(page) == [], name
    # The manifest's shortcut opens the scoreboard last seen.
    page.goto("/scoreboard")
    assert page.url.endswith(table["board"])
    expect(page.locator(".offline-bar")).to_be_visible()
    page.goto("/history")  # never seen
    expect(page.get_by_role("heading", name="No network")).to_be_visible()
    assert phone_page_problems(page) == []
    page.context.set_offline(False)


def test_back_online_the_bar_says_how_to_get_the_page_as_it_is(member, table):
    page = member
    page.goto(table["board"])
    controlled(page)
    see(page, [table["board"]])
    page.context.set_offline(True)
    page.goto(table["board"])
    offline(page)
    page.context.set_offline(False)
    expect(page.locator(".offline-bar")).to_contain_text("Back online, as of")
    page.get_by_role("link", name="Reload").click()
    expect(page.locator(".offline-bar")).to_have_count(0)


def test_a_share_page_is_never_kept(member, table):
    page = member
    page.goto(table["board"])
    controlled(page)
    see(page, [table["shared"], table["board"]])  # the board kept after the share page
    assert not any("/share/" in url for url in kept_pages(page))
    page.context.set_offline(True)
    page.goto(table["shared"])
    expect(page.get_by_role("heading", name="No network")).to_be_visible()
    page.context.set_offline(False)


def test_signing_out_deletes_the_kept_pages(member, table):
    page = member
    page.goto(table["board"])
    controlled(page)
    see(page, seen_pages(table).values())
    page.goto("/group")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/")
    until(page, "async () => !(await caches.keys()).some((n) => n.startsWith('pages-'))")
    page.context.set_offline(True)
    page.goto(table["board"])
    expect(page.get_by_role("heading", name="No network")).to_be_visible()
    page.context.set_offline(False)


def test_signing_out_offline_deletes_the_copies_first(member, table):
    """With no network the sign-out cannot be sent: the phone's copies go
    all the same, before it is tried (the kept pages, and a round kept to be
    sent), and the page says what happened."""
    page = member
    page.goto(table["board"])
    controlled(page)
    see(page, [*seen_pages(table).values(), "/group"])
    page.context.set_offline(True)
    page.goto(seen_pages(table)["round form"])
    offline(page)
    for name, cards in {"Ann": "5S 9H", "Ben": "KD", "Cat": "2C", "Dan": "7H"}.items():
        page.get_by_label(f"Cards left in {name}'s hand").fill(cards)
    page.get_by_role("button", name="Save round 2").click()
    expect(page.get_by_text("Round 2, waiting to be sent")).to_be_visible()
    assert stores(page) == ["scorekeeper"]
    page.goto("/group")
    offline(page)
    page.get_by_role("button", name="Sign out").click()
    said = page.get_by_role("alert")
    expect(said).to_be_visible()
    assert kept_pages(page) == [] and stores(page) == []
    assert page.evaluate("() => localStorage.getItem('scorekeeper-waiting')") is None
    expect(said).to_contain_text("copies of the group's pages, and the rounds it kept to "
                                 "send, are deleted, but the sign-out was not sent")
    page.context.set_offline(False)


def stores(page) -> list[str]:
    """The IndexedDB databases of the page's origin."""
    return page.evaluate("async () => (await indexedDB.databases()).map((d) => d.name)")


def test_another_sign_in_never_sees_the_pages_kept_before(member, table):
    page = member
    page.goto(table["board"])
    controlled(page)
    see(page, seen_pages(table).values())
    sign_in(page, *OTHER_GROUP)  # the sign-in form, over the first group's sign-in
    until(page, """async () => { for (const name of await caches.keys()) {
        if (name.startsWith('pages-') && (await (await caches.open(name)).keys())
            .some((k) => k.url.includes('/sessions/'))) return false; } return true; }""")
    page.context.set_offline(True)
    page.goto(table["board"])
    expect(page.get_by_role("heading", name="No network")).to_be_visible()
    page.context.set_offline(False)


def test_without_a_worker_the_app_works_online_as_before(new_context, live_app):
    """An old browser, or one that refuses service workers: nothing is kept,
    and a round is saved as it always was."""
    with live_app.app_context():
        game = services.start_session(services.Change(the_group()),
                                      ["Eve", "Fay", "Gus"], HouseRules.penang(),
                                      "Eve")
        board = f"/sessions/{game.id}"
    page = new_context(service_workers="block").new_page()
    sign_in(page)
    page.goto(f"{board}/rounds/new")
    assert page.evaluate("navigator.serviceWorker.controller") is None
    for name, cards in {"Eve": "3C", "Fay": "5S 9H", "Gus": "KD"}.items():
        page.get_by_label(f"Cards left in {name}'s hand").fill(cards)
    page.locator(".round-actions button[type=submit]").first.click()
    page.wait_for_url(f"**{board}/rounds/1")
    expect(page.locator("h1")).to_contain_text("Round 1")


# The page's background as the theme paints it: app.css's --paper, dark.css's.
BACKGROUND = "() => getComputedStyle(document.documentElement).backgroundColor"
DARK_PAPER = "rgb(20, 22, 21)"


def test_the_theme_switches_offline_and_the_pages_kept_follow_it(member, table):
    """Pages the worker kept as the phone's setting (light) are shown dark
    once Dark was tapped offline: theme.js reads the cookie, not the copy;
    the page never seen (the worker's offline page, one for every phone) too."""
    page = member
    page.goto("/")
    controlled(page)
    see(page, ["/", table["board"]])
    page.context.set_offline(True)
    page.goto("/")
    offline(page)
    expect(page.locator(".offline-bar")).to_be_visible()
    assert page.evaluate(BACKGROUND) != DARK_PAPER
    page.locator("footer").get_by_role("button", name="Dark").tap()
    page.wait_for_function(f"() => ({BACKGROUND})() === '{DARK_PAPER}'")
    expect(page.locator("footer .theme-switch [aria-current]")).to_have_text("Dark")
    for url in (table["board"], "/history", "/"):
        page.goto(url)  # the worker's copies, made before the choice; its offline page
        expect(page.locator(".offline-bar, h1:has-text('No network')").first).to_be_visible()
        assert page.evaluate(BACKGROUND) == DARK_PAPER, url
        assert page.locator("link#theme-dark").get_attribute("media") == "all"
    expect(page.locator("footer .theme-switch [aria-current]")).to_have_text("Dark")
    page.context.set_offline(False)
