"""Issue 16 at the table, in Chromium at phone size: "This is Ann's phone",
a new session "as last time" (taps and keystrokes counted before and after),
and the switch that keeps the screen on. What the server makes of the forms
sent (the rules stored, her money and rows) is checked through the test client
(tests/web/test_phone_player.py, test_table_flows.py)."""

import itertools
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.forms.sessions import rule_texts
from scorekeeper.models import GameSession
from scorekeeper.rules import Entry, HouseRules
from tests.conftest import the_group
from tests.e2e.conftest import phone_page_problems, sign_in

SEATS = ["Ann", "Ben", "Cat", "Dan"]
# Nine house rules a table plays every week, away from the Penang preset the
# page started from before "as last time".
OWN_RULES = {"Jokers": "8", "Joker points": "25", "Passport": "run", "Play goes": "anticlockwise",
             "Next dealer": "rotate", "No passport ranks last": True, "Units by place": "0 1 2 3",
             "One unit": "2.00", "Hu": "5.00"}
EXPECTED_RULES = HouseRules(jokers=8, joker_points=25, passport="run", direction="anticlockwise",
                            dealer_rule="rotate", no_passport_last=True, tiers=(0, 1, 2, 3),
                            unit_cents=200, hu_cents=500)


@dataclass
class Effort:
    """Taps and keystrokes, counted as a thumb makes them: a select is two taps
    (open it, pick), a text field one tap to put the cursor at its end, then a
    backspace for each character after what the old and new values share at
    their start, and a key for each character typed."""

    taps: int = 0
    keys: int = 0

    def tap(self, target) -> None:
        target.tap()
        self.taps += 1

    def choose(self, select, value: str) -> None:
        select.select_option(value)
        self.taps += 2

    def type_over(self, field, text: str) -> None:
        old = field.input_value()
        kept = 0
        while kept < min(len(old), len(text)) and old[kept] == text[kept]:
            kept += 1
        field.tap()
        field.fill(text)
        self.taps += 1
        self.keys += len(old) - kept + len(text) - kept


def set_own_rules(page, effort: Effort) -> None:
    """Open the house rules and set the table's nine, counting the effort."""
    effort.tap(page.locator(".new-rules > summary"))
    for label, value in OWN_RULES.items():
        field = page.get_by_label(label, exact=True)
        if value is True:
            effort.tap(field)
        elif field.evaluate("e => e.tagName") == "SELECT":
            effort.choose(field, value)
        else:
            effort.type_over(field, value)


def start(page, effort: Effort) -> dict[str, str]:
    """Start tapped: what the form sent."""
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/sessions/new")
                             ) as sent:
        effort.tap(page.get_by_role("button", name="Start session").last)
    page.wait_for_url(re.compile(r"/sessions/\d+$"))
    return dict(parse_qsl(sent.value.post_data or "", keep_blank_values=True))


def the_tables_own(sent: dict[str, str]) -> bool:
    """Whether the form sent the table's seats and its own rules, in RM."""
    rules = rule_texts(EXPECTED_RULES)
    return (all(sent.get(name) == ("y" if value is True else value)
                for name, value in rules.items() if value is not False)
            and not any(name in sent for name, value in rules.items() if value is False)
            and sent.get("currency") == "RM"
            and [sent.get(f"seats-{i}") for i in range(len(SEATS))] == SEATS)


TABLES = itertools.count(1)


def end_the_week(live_app, page) -> None:
    """The session just started ends, as the week's does (not counted): the
    next week's table sits at none still open, so Start starts it."""
    session_id = int(page.url.rsplit("/", 1)[1])
    with live_app.app_context():
        services.end_session(services.Change.to(db.session.get(GameSession, session_id)))


@pytest.fixture
def new_table(page, live_app):
    """A group of its own that has never played, and the page signed in to it."""
    name = f"Weekly table {next(TABLES)}"
    with live_app.app_context():
        services.create_group(name, "same time next week")
    sign_in(page, name, "same time next week")
    return page


def test_a_table_that_plays_the_same_rules_every_week_taps_start_and_nothing_else(
        new_table, live_app, outside_requests):
    page = new_table

    # Week 1, the group's first session: four names typed, nine rules set.
    first = Effort()
    page.goto("/sessions/new")
    expect(page.get_by_label("Rules")).to_have_value("penang")
    for i, name in enumerate(SEATS, start=1):
        first.type_over(page.get_by_label(f"Seat {i}", exact=True), name)
    set_own_rules(page, first)
    assert the_tables_own(start(page, first))
    assert (first.taps, first.keys) == (1 + 13 + 4, 24 + 12)
    end_the_week(live_app, page)

    # Week 2 as the page was before "as last time": Penang's rules and empty
    # seats to start from (set up here, not counted), the known names offered.
    before = Effort()
    page.goto("/sessions/new")
    page.get_by_label("Rules").select_option("penang")
    for seat in page.locator(".new-seat").all():
        seat.fill("")
    for name in SEATS:
        before.tap(page.get_by_role("button", name=name, exact=True))
    set_own_rules(page, before)
    assert the_tables_own(start(page, before))
    assert (before.taps, before.keys) == (4 + 13 + 1, 24)
    end_the_week(live_app, page)

    # Week 3 with "as last time": chosen already, said in a line, one tap.
    after = Effort()
    page.goto("/sessions/new")
    expect(page.get_by_label("Rules")).to_have_value("last")
    expect(page.locator(".new-last")).to_be_visible()
    expect(page.locator(".new-last")).to_contain_text(
        "own rules, money in RM. 8 jokers at 25 points · run passport · anticlockwise")
    for i, name in enumerate(SEATS, start=1):
        expect(page.get_by_label(f"Seat {i}", exact=True)).to_have_value(name)
    expect(page.get_by_role("button", name="Ann", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    assert phone_page_problems(page) == [] and outside_requests == []
    assert the_tables_own(start(page, after))
    assert (after.taps, after.keys) == (1, 0)
    print(f"\nnew session, same as last week: first time {first.taps} taps {first.keys} keys; "
          f"before {before.taps} taps {before.keys} keys; after {after.taps} tap {after.keys} keys")


def test_changing_away_from_last_time_stays_one_choice(new_table):
    page = new_table
    page.goto("/sessions/new")
    for i, name in enumerate(["Ann", "Ben"], start=1):
        page.get_by_label(f"Seat {i}", exact=True).fill(name)
    page.get_by_label("Currency").fill("SGD")
    page.get_by_label("Rules").select_option("rummi")
    page.get_by_role("button", name="Start session").last.tap()
    page.wait_for_url(re.compile(r"/sessions/\d+$"))

    page.goto("/sessions/new")
    expect(page.get_by_label("Currency")).to_have_value("SGD")
    expect(page.locator(".new-last")).to_contain_text("Rummi rules as they come, money in SGD.")
    page.get_by_label("Rules").select_option("penang")  # the script fills Penang's rules in
    expect(page.locator(".new-last")).to_be_hidden()
    page.locator(".new-rules > summary").tap()
    expect(page.get_by_label("Jokers", exact=True)).to_have_value("6")
    page.get_by_label("Rules").select_option("last")  # and back: last time's, currency too
    expect(page.locator(".new-last")).to_be_visible()
    expect(page.get_by_label("Jokers", exact=True)).to_have_value("8")
    page.get_by_label("Currency").fill("MYR")
    page.get_by_label("Rules").select_option("penang")
    page.get_by_label("Rules").select_option("last")
    expect(page.get_by_label("Currency")).to_have_value("SGD")


# This is Ann's phone


@pytest.fixture(scope="module")
def evening(live_app):
    """A session of three rounds at the tests' group: Ann −13.50, 4th, pays Ben 3.50
    and Dan 10.00; Cat pays Ben 2.00."""
    with live_app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         SEATS, HouseRules.rummi(), "Dan")
        for hands in ({"Ann": "QS QH 3C", "Ben": "JK 7C", "Cat": "4D KC", "Dan": "5S 9H"},
                      {"Ann": "JK 6S", "Ben": "hu", "Cat": "AH 2C", "Dan": "4S 4D"},
                      {"Ann": "AC AC 2S", "Ben": "AS 9H", "Cat": "JK 7H", "Dan": "3D 4D"}):
            services.record_round(services.Change.to(session), {name: Entry("hu") if cards == "hu"
                                                                else Entry("dead", cards)
                                                                for name, cards in hands.items()})
        return session.id


def test_this_is_anns_phone(member, evening, outside_requests):
    page = member
    page.goto(f"/sessions/{evening}")
    expect(page.locator(".board-me")).to_have_count(0)
    page.get_by_text("Whose phone is this?").tap()
    page.get_by_role("button", name="Ann", exact=True).tap()
    page.wait_for_url(re.compile(rf"/sessions/{evening}$"))

    # Her money is the first thing on the screen, and her row is told to a
    # screen reader (what they say: tests/web/test_table_flows.py).
    expect(page.locator(".board-me-line")).to_contain_text("Ann (this phone)")
    top = page.locator(".board-me").bounding_box()
    assert top["y"] < page.get_by_role("heading", level=1).bounding_box()["y"]
    assert page.get_by_role("rowheader", name="Ann (this phone's player)").count() == 1
    assert phone_page_problems(page) == [] and outside_requests == []

    page.get_by_role("link", name="Settle up").tap()
    expect(page.locator(".settle-mine")).to_be_visible()
    assert phone_page_problems(page) == []

    page.goto(f"/sessions/{evening}/rounds/1")
    expect(page.locator("li.round-line.sessions-me")).to_be_visible()
    assert phone_page_problems(page) == []

    # Someone else's now, then nobody's.
    page.goto(f"/sessions/{evening}")
    page.get_by_text("Not Ann’s phone?").tap()
    page.get_by_role("button", name="Cat", exact=True).tap()
    expect(page.locator(".board-me-line")).to_contain_text("Cat (this phone)")
    page.get_by_text("Not Cat’s phone?").tap()
    page.get_by_role("button", name="Nobody's").tap()
    expect(page.get_by_text("Whose phone is this?")).to_be_visible()
    expect(page.locator(".sessions-me")).to_have_count(0)


def test_choosing_a_phones_player_works_without_javascript(new_context, live_app, evening):
    page = new_context(java_script_enabled=False, has_touch=False, is_mobile=False,
                          device_scale_factor=None).new_page()
    with live_app.app_context():
        the_group()
    sign_in(page)
    page.goto(f"/sessions/{evening}")
    page.get_by_text("Whose phone is this?").click()
    page.get_by_role("button", name="Dan", exact=True).click()
    expect(page.locator(".board-me-line")).to_contain_text("Dan (this phone)")


# Keep screen on

# A stand-in for the Screen Wake Lock API that counts what the page asks of it.
FAKE_WAKE_LOCK = """
window.wake = {requests: 0, releases: 0, held: null, refuse: false};
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  async request(type) {
    wake.requests += 1;
    if (wake.refuse) throw new DOMException("Not now", "NotAllowedError");
    const lock = new EventTarget();
    lock.type = type;
    lock.released = false;
    lock.release = async () => {
      if (lock.released) return;
      lock.released = true;
      wake.releases += 1;
      lock.dispatchEvent(new Event("release"));
    };
    wake.held = lock;
    return lock;
  },
}});
"""


@pytest.fixture
def at_the_table(member, evening):
    """The scoreboard of the session in play, and any script errors on it."""
    errors = []
    member.on("pageerror", lambda error: errors.append(str(error)))
    return member, f"/sessions/{evening}", errors


def wake(page) -> dict:
    return page.evaluate("({requests: wake.requests, releases: wake.releases})")


def test_the_switch_keeps_the_screen_on_and_is_remembered(at_the_table):
    page, board, errors = at_the_table
    page.add_init_script(FAKE_WAKE_LOCK)
    page.goto(board)
    switch = page.get_by_role("switch", name="Keep screen on")
    expect(switch).to_be_visible()
    expect(switch).to_be_checked()
    page.wait_for_function("() => wake.requests === 1")
    expect(page.locator(".wake")).to_have_attribute("data-state", "on")

    # The browser lets the lock go when the page is hidden; back in view, it is asked again.
    page.evaluate("wake.held.release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => wake.requests === 2")

    switch.tap()
    expect(switch).not_to_be_checked()
    page.wait_for_function("() => wake.releases === 2")
    assert page.evaluate("localStorage.getItem('scorekeeper.keepScreenOn')") == "off"

    # Off on every session page from now on, until switched on again.
    for url in (board, f"{board}/settle", f"{board}/rounds/1", f"{board}/rounds/new"):
        page.goto(url)
        expect(page.get_by_role("switch", name="Keep screen on")).not_to_be_checked()
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        assert wake(page)["requests"] == 0, url
    page.get_by_role("switch", name="Keep screen on").tap()
    page.wait_for_function("() => wake.requests === 1")
    assert page.evaluate("localStorage.getItem('scorekeeper.keepScreenOn')") == "on"
    assert errors == []


def test_a_refused_lock_is_said_plainly(at_the_table):
    page, board, errors = at_the_table
    page.add_init_script(FAKE_WAKE_LOCK + "wake.refuse = true;")
    page.goto(board)
    status = page.locator(".wake-status")
    expect(status).to_have_text("The screen could not be kept on: it may dim as usual.")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(page.locator(".wake")).to_have_attribute("data-state", "refused")
    expect(page.get_by_role("switch", name="Keep screen on")).to_be_checked()
    assert errors == []


def test_chromiums_own_wake_lock_is_asked_for_without_an_error(at_the_table):
    """Headless Chromium may grant the lock or refuse it: either way the page
    says where it stands, and nothing throws."""
    page, board, errors = at_the_table
    page.goto(board)
    expect(page.get_by_role("switch", name="Keep screen on")).to_be_visible()
    expect(page.locator(".wake")).to_have_attribute("data-state", re.compile(r"^(on|refused)$"))
    if page.locator(".wake").get_attribute("data-state") == "refused":
        expect(page.locator(".wake-status")).to_contain_text("could not be kept on")
    assert errors == []


def test_no_switch_where_the_browser_has_no_wake_lock(at_the_table):
    page, board, errors = at_the_table
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    page.goto(board)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Scoreboard")
    expect(page.locator(".wake")).to_be_hidden()
    assert errors == []
