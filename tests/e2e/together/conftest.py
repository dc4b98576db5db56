"""Three phones, each a browser of its own and each its player's, on the
round form of a session for Ann, Ben and Cat."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules import HouseRules
from tests.conftest import the_group
from tests.e2e.conftest import signed_in
from tests.e2e.together.steps import PLAYERS
from tests.web.helpers import token_in


@pytest.fixture
def table(live_app):
    """A Rummi session for Ann, Ben and Cat, Ann dealing; its URL and players' ids."""
    with live_app.app_context():
        game = services.start_session(services.Change(the_group()),
                                      PLAYERS, HouseRules.rummi(), "Ann")
        return f"/sessions/{game.id}", {s.player.name: s.player_id for s in game.seats}


@pytest.fixture
def phone(new_context, table, base_url):
    """phone(name, language="en"): a phone of its own, signed in as "<name>'s
    phone", that says it is <name>'s, on the round form, in ``language`` (the
    tag its language cookie holds, as the footer's switch sets it). With
    ``live=False`` its page's live stream never connects: it hears of the
    other phones only when told. With ``clock=True`` its page's timers run on
    Playwright's clock, moved on by the test (``page.clock.fast_forward``)."""
    url, ids = table

    def make(name, language="en", live=True, clock=False):
        context = new_context()
        context.add_cookies([{"name": "language", "value": language, "url": base_url}])
        if not live:
            context.route(re.compile(r"/live$"), lambda route: route.abort())
        signed_in(context, device=f"{name}'s phone")
        token = token_in(context.request.get(url).text())
        said = context.request.post(f"{url}/phone", form={"csrf_token": token,
                                                          "player": str(ids[name])})
        assert said.ok
        page = context.new_page()
        if clock:
            page.clock.install()
        page.goto(f"{url}/rounds/new")
        expect(page.locator("#together[data-draft]")).to_have_count(1)  # together.js is ready
        expect(page.locator("html")).to_have_attribute("lang", language)
        return page

    return make
