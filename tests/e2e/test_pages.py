"""Every page in a phone browser: how much it weighs, whether it passes the phone
checks (axe, tap targets, width), how its errors read to a screen reader, and
the round form working with JavaScript turned off. What the server writes on
these pages (the error messages, the money) is checked by tests/web/test_form_errors.py."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.share import share_url
from tests.conftest import the_group
from tests.e2e.conftest import (
    accessibility_violations,
    phone_page_problems,
    sign_in,
    signed_in,
    small_tap_targets,
)
from tests.web.helpers import ROUND_FORM_WEIGHT_LIMIT, WEIGHT_LIMIT


@pytest.fixture(scope="module")
def seeded(live_app):
    """A finished session (for history), one in play with a round, and a fresh one."""
    with live_app.app_context():
        done = services.start_session(services.Change(the_group()), ["Ann", "Ben", "Cat", "Dan"],
                                      HouseRules.rummi(), "Ann")
        services.record_round(services.Change.to(done),
                              {"Dan": Entry("dead", "5S 9H"), "Cat": Entry("dead", "4D"),
                               "Ben": Entry("dead", "JK 7C"), "Ann": Entry("dead", "AC")})
        services.record_round(services.Change.to(done),
                              {"Dan": Entry("dead", "2S"), "Ben": Entry("hu"),
                               "Ann": Entry("dead", "KD"), "Cat": Entry("dead", "AH")})
        services.record_round(services.Change.to(done),
                              {"Ann": Entry("dead", "9S"), "Ben": Entry("dead", "2H"),
                               "Cat": Entry("dead", "5C"), "Dan": Entry("hu")})
        services.delete_round(services.Change.to(done, device="Ben's phone"), done.rounds[2])
        services.pay(services.Change.to(done), *_first_transfer(done))
        services.end_session(services.Change.to(done))
        playing = services.start_session(services.Change(the_group()), ["Ann", "Ben", "Cat", "Dan"],
                                         HouseRules.rummi(), "Ben")
        services.record_round(services.Change.to(playing),
                              {"Ann": Entry("dead", "3C"), "Dan": Entry("dead", "8H"),
                               "Cat": Entry("dead", "QS"), "Ben": Entry("dead", "JK")})
        fresh = services.start_session(services.Change(the_group()),
                                       ["Eve", "Fay", "Gus"], HouseRules.penang(),
                                       "Eve")
        link = services.create_share_link(services.Change.to(playing, device="Ann's phone"))
        with live_app.test_request_context():
            token = share_url(link, the_group()).rsplit("/", 1)[1]
        ids = {"done": done.id, "playing": playing.id, "fresh": fresh.id,
               "ann": done.seats[0].player_id, "ben": done.seats[1].player_id, "token": token}
    return ids


def _first_transfer(session):
    t = services.settlement(session)[0].transfer
    return t.payer.id, t.payee.id, t.cents


def page_urls(ids) -> dict[str, str]:
    playing = f"/sessions/{ids['playing']}"
    return {
        "home": "/",
        "group": "/group",
        "new session": "/sessions/new",
        "still open": "/sessions/open",
        "scoreboard": playing,
        "players": f"{playing}/players",
        "round form": f"{playing}/rounds/new",
        "round result": f"{playing}/rounds/1",
        "round edit": f"{playing}/rounds/1/edit",
        "settle": f"{playing}/settle",
        "who owes whom": "/money",
        "payment details": f"/players/{ids['ann']}/payment",
        "night": f"/sessions/{ids['done']}",
        "history": "/history",
        "history session": f"/history/sessions/{ids['done']}",
        "player": f"/players/{ids['ann']}",
        "leaderboard": "/records",
        "head to head": f"/records/head-to-head?a={ids['ann']}&b={ids['ben']}",
        "house rules": f"{playing}/rules",
        "what if": f"{playing}/what-if?preset=penang&use_preset=1",
        "how we play": f"{playing}/how-we-play",
        "rules": "/rules",
        "changes": f"/sessions/{ids['done']}/changes",
        "share links": f"{playing}/share",
        "shared scoreboard": f"/share/{ids['token']}",
        "shared settlement": f"/share/{ids['token']}/settle",
        "table screen": f"/share/{ids['token']}/table",
        "import": "/groups/import",
        "new group": "/groups/new",
        "sign in": "/sign-in",
        "get the others in": "/group/invite",
        "invite link gone": "/join/no-such-link",
        "not found": "/no/such/page",
    }


def test_every_page_is_light_passes_the_phone_checks_and_stays_on_the_app_host(
        page, member, seeded, outside_requests):
    """Each page once: the bytes of HTML, CSS and JS it loads, axe, 44-px tap
    targets and no sideways scrolling."""
    page.route("**/*", lambda route: route.continue_())  # routed requests skip the cache
    loaded = []
    page.on("response", lambda r: loaded.append(r)
            if r.request.resource_type in ("document", "stylesheet", "script") else None)
    problems = {}
    for name, url in page_urls(seeded).items():
        loaded.clear()
        response = page.goto(url)
        page.wait_for_load_state("load")
        assert response.status == (404 if name in ("not found", "invite link gone") else 200), name
        kinds = sorted({r.request.resource_type for r in loaded})
        assert "document" in kinds and "stylesheet" in kinds, (name, kinds)
        found = phone_page_problems(page)
        weight = sum(len(r.body()) for r in loaded)
        if weight >= (ROUND_FORM_WEIGHT_LIMIT if name == "round form" else WEIGHT_LIMIT):
            found.append(f"weighs {weight} bytes")
        if found:
            problems[name] = found
    assert problems == {}
    assert outside_requests == []


# The main pages, checked by axe in both themes.
MAIN_PAGES = ("home", "scoreboard", "round form", "round result", "settle", "who owes whom",
              "night", "history", "history session", "player", "leaderboard", "what if",
              "how we play", "group", "share links", "shared scoreboard", "table screen")
# The page's background as the theme paints it: app.css's --paper, dark.css's.
BACKGROUND = "() => getComputedStyle(document.documentElement).backgroundColor"
PAPER = {"light": "rgb(255, 255, 255)", "dark": "rgb(20, 22, 21)"}


def test_the_main_pages_pass_axe_in_dark_and_in_light(new_context, seeded):
    """A phone set to dark: the pages follow it, and axe (its colour
    contrast among its rules) finds nothing; then Light, tapped in a footer,
    wins over the phone's setting on every page after (axe in light is the
    every-page test's)."""
    context = new_context(color_scheme="dark")
    signed_in(context)
    page = context.new_page()
    urls = page_urls(seeded)
    problems = {}
    for theme in ("dark", "light"):
        for name in MAIN_PAGES:
            page.goto(urls[name])
            assert page.evaluate(BACKGROUND) == PAPER[theme], (theme, name)
            if theme == "dark" and (found := accessibility_violations(page)):
                problems[f"{name}, {theme}"] = found
        if theme == "dark":
            page.goto(urls["home"])
            page.locator("footer").get_by_role("button", name="Light").tap()
            expect(page.locator("footer .theme-switch [aria-current]")).to_have_text("Light")
            page.wait_for_function(f"() => ({BACKGROUND})() === '{PAPER['light']}'")
    assert problems == {}


SIX = ["Jasmine", "Bartholomew", "Cat", "Dan", "Evangeline", "Fay"]
# A name is one line however narrow its cell; one cut short has all of it in its title.
NAMES_WHOLE = """() => [...document.querySelectorAll(
        '.board-rounds th:not(:has(a)), .board-totals th[scope=row]')].flatMap((th) => {
    const n = th.querySelector('.board-name') || th;
    const text = document.createRange();
    text.selectNodeContents(n);
    const lines = new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
    const cut = n.scrollWidth > n.clientWidth;
    return [...(lines > 1 ? [`${n.textContent} wraps`] : []),
            ...(cut && n.title !== n.textContent ? [`${n.textContent} cut, no title`] : [])];
})"""


# The height of the row of the rounds table whose name is ``name``.
ROW_HEIGHT = """(name) => [...document.querySelectorAll('.board-turned tbody tr')]
    .find((tr) => tr.querySelector('th').textContent.includes(name))
    .getBoundingClientRect().height"""


INSIDE_ITS_CELL = """(n) => {
    const name = n.getBoundingClientRect(), cell = n.closest('th').getBoundingClientRect();
    return name.left >= cell.left && name.right <= cell.right;
}"""


def test_a_table_of_six_reads_at_360_and_390_px(page, live_app):
    """Six players, names long and short, on the scoreboard and the night's
    summary: no name wraps, nothing scrolls the page sideways, axe is clean.
    A name cut short opens whole with a tap, its row as tall as before.
    A group of its own: the other tests' group keeps its last session."""
    with live_app.app_context():
        group = services.create_group("Table of six", "six at the table")
        rounds = [dict(zip(SIX, hands, strict=True)) for hands in (
            [Entry("dead", "5S 9H"), Entry("hu"), Entry("dead", "KC"), Entry("dead", "2C 3C"),
             Entry("dead", "QH QD"), Entry("dead", "7S")],
            [Entry("dead", "AS"), Entry("dead", "4H"), Entry("hu"), Entry("dead", "9C"),
             Entry("dead", "JH 8D"), Entry("dead", "7S 6S")])]
        ids = []
        for ended in (False, True):
            game = services.start_session(services.Change(group), SIX,
                                          HouseRules.penang(), "Jasmine")
            for hands in rounds:
                services.record_round(services.Change.to(game), hands)
            if ended:
                services.end_session(services.Change.to(game))
            ids.append(game.id)
    signed_in(page.context, name="Table of six", passphrase="six at the table")
    problems = {}
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 844})
        for url in (f"/sessions/{i}" for i in ids):
            page.goto(url)
            found = [f"axe {v}" for v in accessibility_violations(page)]
            found += [f"small tap target {t}" for t in small_tap_targets(page)]
            found += page.evaluate(NAMES_WHOLE)
            wide = page.evaluate("document.documentElement.scrollWidth")
            if wide > width:
                found.append(f"scrolls sideways: {wide} px wide")
            if found:
                problems[f"{url} at {width}"] = found
        # The scoreboard again: Bartholomew, cut short in his row, opened whole.
        page.goto(f"/sessions/{ids[0]}")
        name = page.locator(".board-turned tbody th .board-name", has_text="Bartholomew")
        assert name.evaluate("(n) => n.scrollWidth > n.clientWidth"), "cut short"
        height = page.evaluate(ROW_HEIGHT, "Bartholomew")
        page.locator(".board-turned tbody th summary", has_text="Bartholomew").tap()
        expect(page.locator(".board-turned details.board-full[open]")).to_have_count(1)
        assert name.evaluate("(n) => n.scrollWidth <= n.clientWidth"), "whole"
        assert name.evaluate(INSIDE_ITS_CELL), "spills out of its cell"
        assert page.evaluate(ROW_HEIGHT, "Bartholomew") == height
        opened = page.evaluate(NAMES_WHOLE)  # one line still
        opened += [f"axe {v}" for v in accessibility_violations(page)]
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > width:
            opened.append(f"scrolls sideways: {wide} px wide")
        if opened:
            problems[f"a name opened at {width}"] = opened
    assert problems == {}


def invalid_fields_are_described(page) -> list[str]:
    """Fields marked invalid whose error message is not tied to them, and error
    messages that no field points to."""
    return page.evaluate("""() => {
        const found = [];
        const described = new Set();
        for (const el of document.querySelectorAll('[aria-describedby]')) {
            for (const id of el.getAttribute('aria-describedby').split(/\\s+/)) described.add(id);
        }
        for (const el of document.querySelectorAll('[aria-invalid=true]')) {
            const ids = (el.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
            const errors = ids.map((id) => document.getElementById(id))
                .filter((e) => e && e.classList.contains('error') && e.textContent.trim());
            if (!errors.length) found.push(`${el.name || el.id}: no error message tied to it`);
        }
        for (const p of document.querySelectorAll('p.error')) {
            if (!p.id || !described.has(p.id)) {
                found.push(`"${p.textContent.trim()}" is tied to no field`);
            }
        }
        return found;
    }""")


def test_new_session_errors_are_accessible(page, member, seeded, outside_requests):
    page.goto("/sessions/new")
    page.get_by_label("Seat 1", exact=True).fill("Ann")
    page.get_by_label("Seat 2", exact=True).fill("ann")
    page.get_by_label("First dealer").select_option(label="Seat 5")
    page.get_by_text("House rules").tap()
    page.get_by_label("Units by place").fill("0 1 x")
    page.get_by_label("One unit").fill("1.505")
    page.get_by_role("button", name="Start session").tap()

    expect(page.get_by_role("alert")).to_be_visible()
    assert invalid_fields_are_described(page) == []
    assert phone_page_problems(page) == []

    # No names at all: the error is about the table, tied to the seats' fieldset.
    for i in range(1, 7):
        page.get_by_label(f"Seat {i}", exact=True).fill("")
    page.get_by_label("First dealer").select_option(label="Draw at random")
    page.get_by_role("button", name="Start session").tap()
    expect(page.locator("#seats-error")).to_be_visible()
    assert invalid_fields_are_described(page) == []
    assert phone_page_problems(page) == []
    assert outside_requests == []


def test_round_errors_are_accessible(page, member, seeded, outside_requests):
    # Ben dealt round 1 and Ann won it: Ann deals round 2, play Dan Cat Ben Ann.
    page.goto(f"/sessions/{seeded['playing']}/rounds/new")
    cards = {"Cat": "as 5h", "Ben": "AS AS", "Ann": "7d xx", "Dan": "9c"}
    for name, text in cards.items():
        page.get_by_label(f"Cards left in {name}'s hand").fill(text)
    # The pad's live view already marks the third ace of spades.
    expect(page.locator(".round-chip-over")).to_have_count(3)
    with page.expect_navigation():
        page.locator(".round-actions button[type=submit]").first.tap()

    expect(page.get_by_role("alert")).to_contain_text("copies of AS")
    # No pad pops up over the errors.
    expect(page.locator("#card-pad")).to_be_hidden()
    assert phone_page_problems(page) == []
    assert outside_requests == []


def test_round_form_works_without_javascript(new_context, seeded):
    page = new_context(java_script_enabled=False).new_page()
    sign_in(page)
    page.goto(f"/sessions/{seeded['fresh']}/rounds/new")
    expect(page.locator("button.round-add")).to_have_count(3)
    for add in page.locator("button.round-add").all():
        expect(add).to_be_hidden()  # nothing to add with: the pad needs the script
    expect(page.locator("#card-pad")).to_be_hidden()
    page.get_by_label("Cards left in Fay's hand").fill("ks, q♥")
    page.get_by_label("Cards left in Gus's hand").fill("2c")
    page.get_by_label("Cards left in Eve's hand").fill("jk 9D")
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    # (No axe run here: page.evaluate never returns with JavaScript turned off.)


def test_a_tap_on_the_chart_opens_its_round_and_the_picture_downloads(member, seeded):
    """Where the browser has no Web Share for files (this Chromium), "Share
    the result" downloads the picture; a tap on a round's column of the
    chart opens that round."""
    page = member
    page.goto(f"/sessions/{seeded['done']}")
    expect(page.locator("html")).to_have_attribute("data-share-picture", "download")
    with page.expect_download() as got:
        page.get_by_role("link", name="Share the result").click()
    assert re.fullmatch(r"rummy-\d{4}-\d\d-\d\d\.png", got.value.suggested_filename)
    # Two rounds: the right half of the plot is round 2's column.
    column = page.locator("svg.chart-hits rect").nth(1).bounding_box()
    page.touchscreen.tap(column["x"] + column["width"] / 2, column["y"] + column["height"] / 2)
    page.wait_for_url(f"**/sessions/{seeded['done']}/rounds/2")
