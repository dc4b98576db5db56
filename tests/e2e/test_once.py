"""A double tap on Save over a slow network saves one round (issue 17): both
taps reach the server, carrying the key of the one form, and the second is
answered as the first."""

import re

import pytest
from playwright.sync_api import Error, expect

from scorekeeper import services
from scorekeeper.rules import HouseRules
from tests.conftest import the_group
from tests.e2e.conftest import sign_in


@pytest.fixture(scope="module")
def game(live_app):
    with live_app.app_context():
        return services.start_session(services.Change(the_group()), ["Ann", "Ben", "Cat", "Dan"],
                                      HouseRules.rummi(), "Ann").id


@pytest.fixture
def phone(new_context, live_app):
    """A phone whose requests all pass through the test's routes: the
    service worker, which would send the pages' requests itself, is kept out."""
    page = new_context(service_workers="block").new_page()
    sign_in(page)
    return page


def test_a_double_tap_on_save_over_a_slow_network_saves_one_round(phone, game):
    page = phone
    url = f"/sessions/{game}/rounds/new"
    sent = []  # the POSTs' routes, in the order the phone sent them
    answers = {}  # the server's answer to each, by its place in that order

    def slow_network(route):
        """Each POST reaches the server at once, and its answer is slow: the
        finger taps again once the server has answered the first, and the
        phone is answered once it has sent both (the taps cross on the network)."""
        sent.append(route)
        answers[len(sent) - 1] = route.fetch(max_redirects=0)
        if len(sent) == 1:
            page.touchscreen.tap(*centre)
            return
        for i, each in enumerate(sent):
            try:
                each.fulfill(response=answers[i])
            except Error:
                pass  # the one the browser gave up waiting for, as it sent the other

    page.route(re.compile(r".*/rounds/new$"),
               lambda route: slow_network(route) if route.request.method == "POST"
               else route.continue_())
    page.goto(url)
    for name, cards in {"Ann": "3C", "Ben": "8H", "Cat": "QS", "Dan": "4D"}.items():
        page.get_by_label(f"Cards left in {name}'s hand").fill(cards)
    save = page.get_by_role("button", name="Save round 1")
    save.scroll_into_view_if_needed()
    box = save.bounding_box()
    assert box is not None
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.touchscreen.tap(*centre)  # a finger's taps: nothing waits for the page to load
    # (The page's URL, not its navigation: the one given up on ends as aborted.)
    expect(page).to_have_url(re.compile(rf"/sessions/{game}/rounds/1$"))
    assert len(sent) == 2, "both taps reached the server"
    # Both reached the server, carrying the form's key: the second is answered
    # as the first (one round saved: tests/web/test_once.py).
    assert [(answers[i].status, answers[i].headers.get("location")) for i in (0, 1)] == [
        (302, f"/sessions/{game}/rounds/1")] * 2
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 1")
