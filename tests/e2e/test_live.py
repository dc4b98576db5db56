"""Two and three phones at one table, each its own browser: what one saves shows
on the others without a reload, without moving what they read or touching what
they type. How soon it shows (the 2 s target) is measured by bench/live_delay.py."""

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import HouseRules
from scorekeeper.web.share import share_url
from tests.conftest import the_group
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


def test_an_open_form_says_what_changed_and_keeps_what_was_typed(phones, table):
    """(The round being filled in together, saved from another phone, is said
    by a card of its own: tests/e2e/test_together.py.)"""
    ann, ben = phones(2)
    save_round_on(ann, table, {"Ann": "3S", "Ben": "4H", "Cat": "KD", "Dan": "7C"})
    ben.goto(f"{table}/rounds/1/edit")
    typed = ben.get_by_label("Cards left in Cat's hand")
    typed.fill("QH QD")
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
