"""Forms sent wrong, and the round form sent as a phone without JavaScript sends
it, as the server answers them. The browser tests (tests/e2e/test_pages.py,
test_pad.py) send the same forms and keep what needs a browser: axe, what a
screen reader is told, what is shown and hidden, the pad."""

import pytest

from scorekeeper import services
from scorekeeper.rules import Entry, HouseRules
from tests.conftest import the_group
from tests.web.helpers import filled, form_values, parsed, player_ids

pytestmark = pytest.mark.any_database

TIEN_HU = "AS 2S 3S 4S 5S 7H 8H 9H 10D JD QD KD 5H 5D 5C 9D 9C 9S JK JK"


def session(app, names, rules, dealer, rounds=()) -> str:
    with app.app_context():
        game = services.start_session(services.Change(the_group()), names, rules, dealer)
        for hands in rounds:
            services.record_round(services.Change.to(game), {name: Entry("hu") if cards == "hu"
                                         else Entry("dead", cards)
                                         for name, cards in hands.items()})
        return f"/sessions/{game.id}"


def send_round(app, client, url: str, typed: dict[str, str], **fields):
    """The round form at ``url`` sent with ``typed`` ({name: cards}) in."""
    with app.app_context():
        names = {i: n for n, i in player_ids().items()}
    data = filled(client.get(url).text, {n: ("dead", c) for n, c in typed.items()}, names)
    return client.post(url, data=data | fields)


def test_new_session_errors_are_said_by_their_fields(client):
    data = form_values(client.get("/sessions/new").text, "/sessions/new")
    data |= {"seats-0": "Ann", "seats-1": "ann", "first_dealer": "4", "tiers": "0 1 x",
             "unit_cents": "1.505"}
    page = parsed(client.post("/sessions/new", data=data))
    assert page.texts("[role=alert]") == ["Nothing was saved: check the fields marked below."]
    (seat_2,) = page.select("#seats-1")
    assert seat_2.attrs["aria-invalid"] == "true"
    assert page.texts("#seats-1-error") == ["Seat 1 has this name already."]
    assert page.texts("#first_dealer-error") == ["Seat 5 is empty."]
    assert "whole numbers" in page.texts("#tiers-error")[0]
    assert page.texts("#unit_cents-error") == ["Use at most two decimals: whole cents."]
    assert "open" in page.select("details.new-rules")[0].attrs

    # No names at all: the error is about the table, tied to the seats' fieldset.
    data |= {f"seats-{i}": "" for i in range(6)} | {"first_dealer": "random"}
    page = parsed(client.post("/sessions/new", data=data))
    assert page.texts("#seats-error") == ["Type the names of 2 to 6 players."]
    (seats,) = [f for f in page.select("fieldset")
                if "Players, clockwise round the table" in f.texts("legend")]
    assert "seats-error" in seats.attrs["aria-describedby"].split()


def test_round_errors_are_said_by_the_players_they_are_about(app, client):
    # Ben dealt round 1 and Ann won it: Ann deals round 2, play Dan Cat Ben Ann.
    board = session(app, ["Ann", "Ben", "Cat", "Dan"], HouseRules.rummi(), "Ben",
                    [{"Ann": "3C", "Dan": "8H", "Cat": "QS", "Ben": "JK"}])
    response = send_round(app, client, f"{board}/rounds/new",
                          {"Cat": "as 5h", "Ben": "AS AS", "Ann": "7d xx", "Dan": "9c"})
    page = parsed(response)
    (summary,) = page.select("#round-summary")
    assert summary.attrs["role"] == "alert"
    assert "3 copies of AS entered (Cat, Ben), but the deck has only 2" in summary.text
    assert "xx" in summary.text
    regions = {s.select("h2")[0].text: s for s in page.select("section.round-player")}
    for name, problem in [("Cat", "copies of AS"), ("Ben", "copies of AS"), ("Ann", "xx")]:
        region = regions[name]
        assert "round-player-invalid" in region.attrs["class"].split()
        assert any(problem in error for error in region.texts("p.error"))
        (cards,) = region.select(".round-cards input")
        assert cards.attrs["aria-invalid"] == "true"
        # The summary links to the player's panel.
        links = [a.attrs["href"] for a in summary.select("a") if a.text == name]
        assert links[0] == f"#{region.attrs['id']}"
    assert regions["Dan"].select("p.error") == []
    # What was typed is kept.
    assert regions["Ben"].select(".round-cards input")[0].attrs["value"] == "AS AS"


def test_a_round_typed_as_a_phone_without_javascript_sends_it(app, client):
    board = session(app, ["Eve", "Fay", "Gus"], HouseRules.penang(), "Eve")
    form = parsed(client.get(f"{board}/rounds/new"))
    # Penang, Eve deals, play goes clockwise from her left: Fay, Gus, Eve.
    assert "Play: Fay → Gus → Eve" in form.texts(".round-order")[0]
    response = send_round(app, client, f"{board}/rounds/new",
                          {"Fay": "ks, q♥", "Gus": "2c", "Eve": "jk 9D"})
    assert response.location == f"{board}/rounds/1"
    page = parsed(client.get(response.location))
    # Points Gus 2, Fay 20, Eve 29: Fay pays 1.00 and Eve 2.00 to Gus (tiers 0 1 2).
    lines = {line.texts(".round-name")[0]: line.texts(".round-money strong")[0]
             for line in page.select("li.round-line")}
    assert lines == {"Gus": "+3.00", "Fay": "\u22121.00", "Eve": "\u22122.00"}
    assert page.texts(".round-next") == ["Next: Gus deals round 2."]


@pytest.fixture
def rummi_table(app) -> str:
    return session(app, ["Ann", "Ben", "Cat", "Dan"], HouseRules.rummi(), "Ann")


def test_a_warning_has_save_anyway_under_it_and_at_the_form_end(app, client, rummi_table):
    # A dead hand holding a run.
    url = f"{rummi_table}/rounds/new"
    typed = {"Dan": "5S 6S 7S", "Cat": "8H 8D 8C", "Ben": "3D", "Ann": "4C"}
    page = parsed(send_round(app, client, url, typed))
    (summary,) = page.select("#round-summary")
    assert "Please check before saving" in summary.text
    (top,) = [b for b in summary.select("button") if b.text == "Save anyway"]
    (bottom,) = [b for b in page.select(".round-actions button") if b.text == "Save anyway"]
    assert top.attrs["name"] == bottom.attrs["name"] == "confirmed"
    assert top.attrs["value"] == bottom.attrs["value"]
    response = send_round(app, client, url, typed, confirmed=top.attrs["value"])
    assert response.location == f"{rummi_table}/rounds/1"


def test_a_tien_hu_hand_saved_puts_its_player_first(app, client, rummi_table):
    with app.app_context():
        names = {i: n for n, i in player_ids().items()}
    url = f"{rummi_table}/rounds/new"
    data = filled(client.get(url).text, {"Ben": ("tien_hu", TIEN_HU)}, names)
    response = client.post(url, data=data)
    assert response.location == f"{rummi_table}/rounds/1"
    page = parsed(client.get(response.location))
    assert page.select("li.round-line")[0].texts(".round-name") == ["Ben"]
