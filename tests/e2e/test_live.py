"""Two and three phones at one table, each its own browser: what one saves shows
on the others without a reload, without moving what they read or touching what
they type. How soon it shows (the 2 s target) is measured by bench/live_delay.py."""

import re

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.limits import TYPING_LAPSE
from scorekeeper.models import DraftEntry, GameSession
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.share import share_url
from tests.conftest import the_group
from tests.e2e.conftest import phone_page_problems
from tests.e2e.conftest import signed_in as sign_in_by_form

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def phones(new_context, live_app):
    """phones(n): n phones, each a browser of its own, signed in to the group."""

    def make(n, signed_in=True):
        pages = []
        for _ in range(n):
            context = new_context()
            if signed_in:
                sign_in_by_form(context)
            pages.append(context.new_page())
        return pages

    with live_app.app_context():
        the_group()
    return make


@pytest.fixture
def table(live_app):
    with live_app.app_context():
        game = services.start_session(services.Change(the_group()),
                                      PLAYERS, HouseRules.rummi(), "Ann")
        return f"/sessions/{game.id}"


def save_round_on(page, table: str, hands: dict[str, str]) -> None:
    """A round typed into the round form of ``page`` and saved."""
    page.goto(f"{table}/rounds/new")
    for name, cards in hands.items():
        page.get_by_label(f"Cards left in {name}'s hand").fill(cards)
    page.locator(".round-actions button[type=submit]").first.click()
    page.wait_for_url(f"**{table}/rounds/*")


def mark(page) -> None:
    """A mark that a reload would wipe."""
    page.evaluate("window.notReloaded = true")


def not_reloaded(page) -> bool:
    return page.evaluate("window.notReloaded === true")


def test_a_round_saved_on_one_phone_shows_on_two_others(phones, table):
    ann, ben, cat = phones(3)
    for page in (ben, cat):
        page.goto(table)
        expect(page.get_by_role("link", name="Enter round 1")).to_be_visible()
        mark(page)
    cat.evaluate("window.scrollTo(0, 200)")
    scrolled = cat.evaluate("window.scrollY")
    save_round_on(ann, table, {"Ann": "5S", "Ben": "9H 9D", "Cat": "KC", "Dan": "2C 3C"})
    for page in (ben, cat):
        expect(page.get_by_role("link", name="Enter round 2")).to_be_visible()
        assert not_reloaded(page)
    assert cat.evaluate("window.scrollY") == scrolled


def test_a_round_result_follows_an_edit_on_another_phone(phones, table):
    ann, ben = phones(2)
    save_round_on(ann, table, {"Ann": "5S", "Ben": "9H", "Cat": "KC", "Dan": "2C"})
    ben.goto(f"{table}/rounds/1")
    mark(ben)
    ann.goto(f"{table}/rounds/1/edit")
    ann.get_by_label("Cards left in Ben's hand").fill("9H 9D 9C")
    ann.locator(".round-actions button[type=submit]").first.click()
    ann.wait_for_url(f"**{table}/rounds/1")
    ben_line = ben.locator("li.round-line").filter(has=ben.get_by_text("Ben", exact=True))
    expect(ben_line.locator(".round-meta")).to_contain_text("27 points")
    assert not_reloaded(ben)


# Each state a page was told of (live.js's live:change), for a test to wait on.
HEARD = "document.addEventListener('live:change', (e) => (window.heard ??= []).push(e.detail));"


def test_an_open_form_says_what_changed_and_keeps_what_was_typed(phones, table):
    """Nothing for this phone's own change (made in its other tab), then
    another phone's. (The round being filled in together, saved from another
    phone, is said by a card of its own: tests/e2e/together/.)"""
    ann, ben = phones(2)
    save_round_on(ann, table, {"Ann": "3S", "Ben": "4H", "Cat": "KD", "Dan": "7C"})
    ben.add_init_script(HEARD)
    ben.goto(f"{table}/rounds/1/edit")
    typed = ben.get_by_label("Cards left in Cat's hand")
    typed.fill("QH QD")
    ben_too = ben.context.new_page()
    ben_too.goto(f"{table}/settle")
    ben_too.get_by_role("button", name="Mark as paid").first.tap()
    ben_too.wait_for_url("**/settle#transfers")
    ben.wait_for_function("() => (window.heard ?? []).some((state) => state.own)")
    expect(ben.locator("#live-notice")).to_have_count(0)  # its own change: nothing said
    save_round_on(ann, table, {"Ann": "5S", "Ben": "9H", "Cat": "KC", "Dan": "2C"})
    notice = ben.locator("#live-notice")
    expect(notice).to_contain_text("Round 2 added from")
    expect(notice).to_contain_text("Cat 10 points")
    expect(typed).to_have_value("QH QD")


def test_a_share_page_follows_the_session_without_signing_in(phones, table, live_app):
    (ann,) = phones(1)
    (reader,) = phones(1, signed_in=False)
    with live_app.test_request_context():
        session_id = int(table.rsplit("/", 1)[1])
        game = db.session.get(GameSession, session_id)
        link = services.create_share_link(services.Change.to(game, device="Ann's phone"))
        token = share_url(link, the_group()).rsplit("/", 1)[1]
    reader.goto(f"/share/{token}")
    mark(reader)
    save_round_on(ann, table, {"Ann": "5S", "Ben": "9H", "Cat": "KC", "Dan": "2C"})
    expect(reader.locator("#live-page")).to_contain_text("Round 2")  # the next round
    assert not_reloaded(reader)


def test_a_round_being_entered_shows_on_the_scoreboard_and_clears_on_every_phone(phones, table):
    ann, ben = phones(2)
    ben.goto(table)
    card = ben.locator(".board-entering")
    expect(ben.get_by_role("link", name="Enter round 1")).to_be_visible()
    expect(card).to_have_count(0)
    mark(ben)
    ann.goto(f"{table}/rounds/new")
    expect(ann.locator("#together[data-draft]")).to_have_count(1)  # together.js is ready
    field = ann.get_by_label("Cards left in Ann's hand")
    field.fill("5S 9H")
    with ann.expect_response(lambda response: "/draft/" in response.url):
        field.blur()
    # A hand saved is no new version of the session: the board follows the draft's.
    expect(card).to_contain_text("Round 1 being entered:")
    expect(card.locator(".board-entering-done")).to_have_text("Ann ✓ in")  # the others not yet
    expect(card.locator(".board-entering-waiting")).to_have_count(3)
    assert not_reloaded(ben)
    assert phone_page_problems(ben) == []
    card.get_by_role("link", name="Add your hand").click()
    ben.wait_for_url(f"**{table}/rounds/new")
    expect(ben.get_by_label("Cards left in Ann's hand")).to_have_value("5S 9H")
    expect(ben.locator("#together-clear")).to_be_visible()
    assert phone_page_problems(ben) == []
    # Ann comes back to the round, and clears its hands: Ben's form and strip empty.
    ann.goto(f"{table}/rounds/new")
    expect(ann.locator(".together-from")).to_have_text(re.compile(r"^Entered on Test phone, "))
    ann.locator("#together-clear summary").click()
    ann.get_by_role("button", name="Yes, clear round 1’s hands").click()
    cleared = "Round 1's hands are cleared: 1 hand, from every phone."
    expect(ann.get_by_text(cleared)).to_be_visible()
    expect(ben.get_by_label("Cards left in Ann's hand")).to_have_value("")
    expect(ben.locator(".together-strip .together-waiting")).to_have_count(4)
    expect(ben.locator("#together-clear")).to_be_hidden()


def test_a_hand_being_typed_shows_in_on_the_scoreboard_once_its_time_is_up(
        phones, table, live_app):
    """Ann's hand, half typed, is "being typed" on Ben's scoreboard; once the
    2 minutes are up it counts as in, and the scoreboard fetches its card
    again by itself (its live stream held off: this is the page's own timer)."""
    ann, ben = phones(2)
    ben.context.route(re.compile(r"/live$"), lambda route: route.abort())
    ben.clock.install()
    ann.goto(f"{table}/rounds/new")
    expect(ann.locator("#together[data-draft]")).to_have_count(1)  # together.js is ready
    with ann.expect_response(lambda r: "/draft/" in r.url and r.request.post_data_json["typing"]):
        ann.get_by_label("Cards left in Ann's hand").fill("5S 9H")  # the field still focused
    ben.goto(table)
    card = ben.locator(".board-entering")
    expect(card.locator(".board-entering-typing")).to_have_text("Ann ✎ being typed")
    with live_app.app_context():  # on the server, the 2 minutes are up
        for hand in db.session.scalars(sa.select(DraftEntry)):
            hand.at -= TYPING_LAPSE
        db.session.commit()
    ben.clock.fast_forward(int(TYPING_LAPSE.total_seconds() + 1) * 1000)
    expect(card.locator(".board-entering-done")).to_have_text("Ann ✓ in")


def test_the_home_page_follows_a_round_being_entered_and_a_session_started(
        phones, table, live_app):
    """No group stream before: the home page's "Round 1 being entered" came
    only with a reload. Now its region follows the group's sessions in play."""
    (ben,) = phones(1)
    ben.goto("/")
    entering = ben.locator(f"#home-playing .home-entering:has(a[href='{table}/rounds/new'])")
    expect(ben.locator(f"#home-playing a[href='{table}']")).to_be_visible()
    expect(entering).to_have_count(0)
    mark(ben)
    with live_app.app_context():
        game = db.session.get(GameSession, int(table.rsplit("/", 1)[1]))
        services.save_hand(services.Change.to(game, device="Ann's phone"),
                           game.seats[0].player_id, "dead", "5S 9H", base=0, number=1)
    expect(entering).to_contain_text("Round 1 being entered (1 hand in)")
    with live_app.app_context():
        services.start_session(services.Change(the_group()), ["Gus", "Hal"],
                               HouseRules.rummi(), "Gus")
    expect(ben.locator("#home-playing")).to_contain_text("Gus, Hal")
    assert not_reloaded(ben)
    assert phone_page_problems(ben) == []


# The share sheet: what the page hands to navigator.share, where a phone has one
# (this Chromium has none).
SHARE_SHEET = "navigator.share = async (data) => { window.shared = data.text; };"


def test_settle_up_keeps_copy_and_share_when_another_phone_marks_a_payment(
        phones, table, live_app):
    """Ben's phone follows Ann's payment: its message, its Copy and Share
    buttons and, for a screen reader, a word that another phone changed it.
    Ann's other tab follows too, without that word: the change was hers."""
    with live_app.app_context():
        game = db.session.get(GameSession, int(table.rsplit("/", 1)[1]))
        services.record_round(services.Change.to(game), {
            "Ann": Entry("dead", "5S"), "Ben": Entry("dead", "9H 9D"),
            "Cat": Entry("dead", "KC"), "Dan": Entry("dead", "2C 3C")})
    ann, ben = phones(2)
    ben.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ben.context.add_init_script(SHARE_SHEET)
    ann_too = ann.context.new_page()
    for page in (ben, ann_too):
        page.goto(f"{table}/settle")
        expect(page.get_by_role("button", name="Copy as text")).to_be_visible()
    expect(ben.get_by_role("button", name="Share…")).to_be_visible()
    expect(ann_too.get_by_role("button", name="Share…")).to_be_hidden()  # no share sheet
    message = ben.locator("#share-text")
    expect(message).not_to_have_value(re.compile(r"\(paid\)"))

    ann.goto(f"{table}/settle")
    ann.get_by_role("button", name="Mark as paid").first.tap()
    ann.wait_for_url("**/settle#transfers")

    expect(message).to_have_value(re.compile(r"\(paid\)"))
    expect(ben.locator("#live-status")).to_have_text(
        "Brought up to date with a change from another phone.")
    ben.get_by_role("button", name="Copy as text").tap()
    expect(ben.locator("#share-text-status")).to_have_text("Copied: paste it into the chat.")
    assert ben.evaluate("navigator.clipboard.readText()") == message.input_value()
    ben.get_by_role("button", name="Share…").tap()
    expect(ben.locator("#share-text-status")).to_have_text("Shared.")
    assert ben.evaluate("window.shared") == message.input_value()
    # Ann's other tab is up to date (its region swapped, in the same task as
    # the word would be said), and says nothing of another phone.
    expect(ann_too.locator("#share-text")).to_have_value(re.compile(r"\(paid\)"))
    expect(ann_too.get_by_role("button", name="Copy as text")).to_be_visible()
    expect(ann_too.locator("#live-status")).to_have_count(0)
