"""The new-session page: its seats, known players and preset, a table
started with its rules, and every mistake typed marked by its field with
nothing saved; money typed read as exact cents."""

import re

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.forms.sessions import cents_from_text
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import HouseRules
from tests.web.examples import TABLE, make_session, new_form
from tests.web.helpers import csrf_token, error_of


def test_new_session_page_has_six_seats_known_players_and_the_preset(app, client):
    make_session(app, names=["Old", "Timer"], rules=HouseRules.penang(), dealer="Old")
    make_session(app, names=["Newer", "Timer"], rules=HouseRules.penang(), dealer="Newer")
    html = client.get("/sessions/new").text
    for i in range(6):
        assert f'<label for="seats-{i}">Seat {i + 1}</label>' in html
        assert re.search(rf'<input [^>]*id="seats-{i}"[^>]*list="known-players"', html)
    datalist = re.search(r'<datalist id="known-players">(.*?)</datalist>', html).group(1)
    assert re.findall(r'value="([^"]+)"', datalist) == ["Newer", "Timer", "Old"]
    assert '<option selected value="random">Draw at random</option>' in html
    assert '<option value="5">Seat 6</option>' in html
    assert '<details class="panel new-rules">' in html
    assert re.search(r'id="jokers"[^>]*value="6"', html)
    assert re.search(r'id="hu_cents"[^>]*value="3.00"', html)
    assert re.search(r'id="tiers"[^>]*value="0 1 2 3 4 5"', html)
    assert '<option selected value="5">5 players</option>' in html
    assert 'name="use_preset"' in html
    assert 'data-presets="{&#34;penang&#34;' in html


def test_starting_a_session_seats_players_clockwise_and_keeps_the_rules(app, client):
    data = new_form(client, ["Ann", "", " Bob  Lee ", "", "cat", ""], preset="rummi",
                    first_dealer="2", currency="SGD", hu_cents="1.5", unit_cents="0.25",
                    tiers="0, 1, 3", dealer_rule="rotate", extra_pack_players="never")
    data.pop("no_passport_last")  # an unticked box is not posted
    response = client.post("/sessions/new", data=data)
    assert response.status_code == 302
    with app.app_context():
        session = db.session.scalars(db.select(GameSession)).one()
        assert response.location == f"/sessions/{session.id}"
        assert [p.name for p in services.active_players(session)] == ["Ann", "Bob Lee", "cat"]
        assert session.first_dealer.name == "Bob Lee"
        assert session.currency == "SGD"
        rules = session.rules
    assert (rules.hu_cents, rules.unit_cents, rules.tiers) == (150, 25, (0, 1, 3))
    assert (rules.dealer_rule, rules.extra_pack_players, rules.no_passport_last) == \
        ("rotate", None, False)
    assert (rules.jokers, rules.passport, rules.direction) == (8, "run", "anticlockwise")


def test_the_first_dealer_can_be_drawn_at_random(app, client):
    assert client.post("/sessions/new", data=new_form(client, ["X", "Y"])).status_code == 302
    with app.app_context():
        assert db.session.scalars(db.select(GameSession)).one().first_dealer.name in {"X", "Y"}


def test_a_name_typed_twice_alone_is_announced_too(app, client):
    response = client.post("/sessions/new", data=new_form(client, ["Ann", "ann", "Bob"]))
    html = response.text
    assert error_of(html, "seats-1") == "Seat 1 has this name already."
    assert '<p class="sessions-alert" role="alert">Nothing was saved' in html


def test_bad_seats_are_marked_one_by_one_and_everything_typed_stays(app, client):
    data = new_form(client, ["Ann", "", "ANN", "x" * 31, "Zed"], first_dealer="1",
                    currency="MYR", jokers="7")
    response = client.post("/sessions/new", data=data)
    assert response.status_code == 200
    html = response.text
    assert error_of(html, "seats-2") == "Seat 1 has this name already."
    assert error_of(html, "seats-3") == "Use at most 30 characters."
    assert error_of(html, "seats-0") is None and error_of(html, "seats-4") is None
    assert error_of(html, "first_dealer") == "Seat 2 is empty."
    assert "Nothing was saved" in html
    for value in ("Ann", "ANN", "x" * 31, "Zed", "MYR"):
        assert f'value="{value}"' in html
    assert re.search(r'id="jokers"[^>]*value="7"', html)
    assert '<option value="0">Seat 1: Ann</option>' in html
    with app.app_context():
        assert db.session.query(GameSession).count() == 0
        assert db.session.query(Player).count() == 0


@pytest.mark.parametrize("seats", [[], ["Solo"], ["", "", "", "", "", "Solo"]])
def test_a_table_needs_two_names(client, seats):
    html = client.post("/sessions/new", data=new_form(client, seats)).text
    assert '<p class="error" id="seats-error">Type the names of 2 to 6 players.</p>' in html


@pytest.mark.parametrize("field, typed, message", [
    ("hu_cents", "1.505", "Use at most two decimals: whole cents."),
    ("hu_cents", "-3", "The amount can&#39;t be negative."),
    ("unit_cents", "1,50", "Type an amount like 1.50."),
    ("point_cents", "", "Type an amount, e.g. 1.50."),
    ("unit_cents", "  ", "Type an amount, e.g. 1.50."),
    ("tiers", " ", "Type the units, e.g. 0 1 2 3."),
    ("tien_hu_cents", "100000.01", "That amount is too large."),
    ("tiers", "0 1 two", "Type whole numbers of units, e.g. 0 1 2 3 4 5."),
    ("tiers", "0 1 2 3 4 5 6", "Type at most 6 numbers, one per place."),
    ("jokers", "lots", "Type a number from 0 to 16."),
    ("packs", "0", "Type a number from 1 to 4."),
    ("currency", "", "Type 1 to 8 characters, e.g. RM."),
    ("currency", "RINGGIT!!", "Type 1 to 8 characters, e.g. RM."),
])
def test_bad_house_rules_are_marked_and_kept(app, client, field, typed, message):
    response = client.post("/sessions/new", data=new_form(client, TABLE, **{field: typed}))
    html = response.text
    assert error_of(html, field) == message
    assert re.search(rf'id="{field}"[^>]*value="{re.escape(typed)}"', html)
    if field != "currency":
        assert '<details class="panel new-rules" open>' in html
    with app.app_context():
        assert db.session.query(GameSession).count() == 0


def test_use_preset_fills_its_rules_and_keeps_the_names(app, client):
    data = new_form(client, ["Ann", "Bob"], preset="rummi", jokers="3", hu_cents="bad",
                    first_dealer="1", currency="SGD", use_preset="1")
    html = client.post("/sessions/new", data=data).text
    assert re.search(r'id="jokers"[^>]*value="8"', html)
    assert re.search(r'id="hu_cents"[^>]*value="3.00"', html)
    assert re.search(r'id="joker_ace_cents"[^>]*value="0.50"', html)
    assert '<option selected value="never">Never</option>' in html
    assert '<option selected value="anticlockwise">' in html
    assert re.search(r'<input [^>]*checked[^>]*id="no_passport_last"', html)
    assert 'value="Ann"' in html and 'value="Bob"' in html and 'value="SGD"' in html
    assert '<option selected value="1">Seat 2: Bob</option>' in html
    assert 'class="error"' not in html
    with app.app_context():
        assert db.session.query(GameSession).count() == 0


def test_a_table_the_deck_cannot_deal_is_refused_with_the_reason(app, client):
    data = new_form(client, list("ABCDEF"), preset="rummi")
    html = client.post("/sessions/new", data=data).text
    assert "6 players need 120 cards, but the deck has only 112" in html
    assert 'class="sessions-alert" role="alert"' in html
    assert '<option value="A">' not in html  # not added to the known players
    with app.app_context():
        assert db.session.query(GameSession).count() == 0
        assert db.session.query(Player).count() == 0


@pytest.mark.parametrize("text, cents", [
    ("1.50", 150), ("1.5", 150), ("3", 300), (" 0.05 ", 5), (".5", 50), ("0", 0),
    ("19.99", 1999), ("100000", 10_000_000),
])
def test_money_is_read_as_exact_cents(text, cents):
    assert cents_from_text(text) == cents


@pytest.mark.parametrize("text", ["1.999", "-1", "−1", "abc", "1e2", "NaN", "1,5", "0.001"])
def test_money_that_is_not_whole_cents_is_refused(text):
    with pytest.raises(ValueError):
        cents_from_text(text)

def test_a_bare_post_is_answered_with_messages_not_an_error(app, client):
    token = csrf_token(client, "/sessions/new")
    response = client.post("/sessions/new", data={"csrf_token": token, "first_dealer": "9",
                                                  "preset": "chess", "seats-0": "A"})
    assert response.status_code == 200
    html = response.text
    assert error_of(html, "first_dealer") == "Not a valid choice."
    assert error_of(html, "jokers") == "Type a number from 0 to 16."
    assert error_of(html, "hu_cents") == "Type an amount, e.g. 1.50."
    assert error_of(html, "direction") == "Not a valid choice."
    with app.app_context():
        assert db.session.query(GameSession).count() == 0
