"""Names typed by players (players, groups, phones) cannot reorder the text
around them: a right-to-left override (U+202E) in a name reverses that name
at most, on the pages and in the chat message."""

import re
import unicodedata

import pytest
from markupsafe import Markup

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import HouseRules
from scorekeeper.web.filters import isolate, isolated
from tests.conftest import signed_in_client, the_group
from tests.web.examples import NO_HU

pytestmark = pytest.mark.any_database

RLO, PDF, FSI, PDI = "\u202e", "\u202c", "\u2068", "\u2069"
# Bob's name as typed with an override: without isolation, everything after it
# on the line ("pays Cat RM 8.00") would read backwards.
BOB = f"Bob{RLO}"


def test_a_plain_name_is_left_as_it_is():
    assert isolate("Ann") == Markup("Ann") and isolated("Ann") == "Ann"
    assert isolate("Zoë-Marie O'Neil 2") == Markup("Zoë-Marie O&#39;Neil 2")


@pytest.mark.parametrize("name", [BOB, f"{RLO}evE", "محمد", "דוד", f"x{PDF}", "a\u200fb"])
def test_a_name_that_could_reorder_its_surroundings_is_isolated(name):
    assert isolate(name) == Markup(f"<bdi>{name}</bdi>")
    assert isolated(name) == f"{FSI}{name}{PDI}"


def test_an_isolated_name_is_escaped():
    assert isolate(f"<b>{RLO}</b>") == Markup(f"<bdi>&lt;b&gt;{RLO}&lt;/b&gt;</bdi>")


def test_a_name_cannot_close_the_isolate_it_is_put_in():
    """A PDI (or an isolate opened) in the name would end ours early, or
    keep it open past the name: they are left out."""
    for name in (f"x{PDI}{RLO}", f"{FSI}x", f"\u2066{RLO}x\u2067"):
        inner = isolated(name)[1:-1]
        assert not set(inner) & {FSI, PDI, "\u2066", "\u2067"}
        assert RLO not in name or RLO in inner
        assert str(isolate(name)).count("<bdi>") == 1
        assert not set(str(isolate(name))) & {FSI, PDI, "\u2066", "\u2067"}


def shown_outside_bdi(html: str) -> str:
    """The page's text outside <bdi> elements (or FSI…PDI, which SVG text
    isolates with), attribute values and the chat message's box."""
    html = html.split("<textarea")[0] + html.split("</textarea>")[-1]
    return re.sub(rf'<bdi>[^<]*</bdi>|="[^"]*"|{FSI}[^{PDI}]*{PDI}', "", html)


def after_isolation_every_override_is_closed(text: str) -> bool:
    """Whether each U+202E in ``text`` sits inside an FSI…PDI pair, which ends it."""
    depth = 0
    for char in text:
        if char == FSI:
            depth += 1
        elif char == PDI:
            depth -= 1
        elif unicodedata.bidirectional(char) == "RLO" and depth == 0:
            return False
    return depth == 0


@pytest.fixture
def evening(app):
    """A session with Bob's name as above, and a round in which he owes Cat."""
    names = ["Ann", BOB, "Cat", "Dan"]
    with app.app_context():
        session = services.start_session(services.Change(the_group()), names, HouseRules.rummi(),
                                         first_dealer=BOB)
        services.record_round(services.Change.to(session), {BOB if name == "Bob" else name: entry
                                                            for name, entry in NO_HU.items()})
        db.session.commit()
        return session.id


def test_the_chat_message_isolates_names(client, evening):
    html = client.get(f"/sessions/{evening}/settle").text
    message = re.search(r'id="share-text"[^>]*>(.*?)</textarea>', html, re.S)[1]
    lines = message.split("\n")
    assert lines[-2:] == ["Ann pays Cat RM 1.00", f"{FSI}{BOB}{PDI} pays Cat RM 8.00"]
    assert any(line.endswith(f"{FSI}{BOB}{PDI} \u2212RM 8.00") for line in lines)  # his net
    assert after_isolation_every_override_is_closed(message)


@pytest.mark.parametrize("page", ["", "/settle", "/players", "/rounds/1", "/rounds/new",
                                  "/changes"])
def test_pages_put_names_in_bdi(client, evening, page):
    html = client.get(f"/sessions/{evening}{page}").text
    assert f"<bdi>{BOB}</bdi>" in html
    if page not in ("/players", "/changes"):  # see below
        # Every override in the page's text ends with the <bdi> it is in.
        assert RLO not in shown_outside_bdi(html), page


@pytest.mark.parametrize("page", ["/players", "/changes"])
def test_texts_made_with_names_isolate_them(client, evening, page):
    """The seat choices and the facts of a change are made in Python: their
    names come between FSI and PDI."""
    html = client.get(f"/sessions/{evening}{page}").text
    assert after_isolation_every_override_is_closed(shown_outside_bdi(html))
    assert f"{FSI}{BOB}{PDI}" in html


def test_the_settle_page_isolates_payer_and_payee(client, evening):
    html = client.get(f"/sessions/{evening}/settle").text
    assert f"<strong><bdi>{BOB}</bdi></strong> pays <strong>Cat</strong>" in html


def test_history_and_a_players_page_isolate_names(app, client, evening):
    with app.app_context():
        services.end_session(services.Change.to(db.session.get(GameSession, evening)))
        db.session.commit()
    history = client.get("/history").text
    assert f"<bdi>{BOB}</bdi>" in history
    bob = re.search(r'href="(/players/\d+)">' + re.escape(f"<bdi>{BOB}</bdi>"), history)[1]
    page = client.get(bob).text
    assert f"<h1><bdi>{BOB}</bdi></h1>" in page
    assert f"<title>{FSI}{BOB}{PDI} · Scorekeeper</title>" in page
    session_page = client.get(f"/history/sessions/{evening}").text
    assert RLO not in shown_outside_bdi(session_page)


def test_a_group_name_is_isolated(app):
    with app.app_context():
        group = services.create_group(f"Friday {RLO}table", "four of a kind")
        db.session.refresh(group)
        db.session.expunge(group)
    phone = signed_in_client(app, group)
    home = phone.get("/").text
    settings = phone.get("/group").text
    assert f"<h1><bdi>Friday {RLO}table</bdi></h1>" in home
    assert f"Sign out of <bdi>Friday {RLO}table</bdi>" in settings
    assert f"<title>{FSI}Friday {RLO}table{PDI} · Scorekeeper</title>" in settings
