"""Players joining and leaving a session: where a newcomer sits, what is
refused and why, and who deals once someone has left."""

import re

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import HouseRules
from tests.web.examples import NO_HU, make_session, player_id
from tests.web.helpers import csrf_token, error_of, parsed


def test_the_scoreboard_links_to_the_players_page(app, client):
    sid = make_session(app, rounds=[NO_HU])
    assert f'<a href="/sessions/{sid}/players">Players join or leave</a>' in \
        client.get(f"/sessions/{sid}").text
    html = client.get(f"/sessions/{sid}/players").text
    assert list(re.findall(r'<span class="board-seat-name">(\w+)</span>', html)) == \
        ["Ann", "Bob", "Cat", "Dan"]
    assert html.count('class="board-leave"') == 4


def test_a_player_joins_between_two_players(app, client):
    sid = make_session(app, rounds=[NO_HU])
    html = client.get(f"/sessions/{sid}/players").text
    assert '<option value="1">Between Ann and Bob</option>' in html
    assert '<option selected value="4">Between Dan and Ann</option>' in html
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players",
                           data={"csrf_token": token, "name": " Eve ", "position": "2"})
    assert response.status_code == 302
    assert response.location == f"/sessions/{sid}"
    with app.app_context():
        session = db.session.get(GameSession, sid)
        assert [p.name for p in services.active_players(session)] == \
            ["Ann", "Bob", "Eve", "Cat", "Dan"]


@pytest.mark.parametrize("name, position, field, message", [
    ("ann", "1", "name", "Ann is already at the table"),
    ("", "1", "name", "Type a name of 1 to 30 characters."),
    ("y" * 31, "1", "name", "Type a name of 1 to 30 characters."),
    ("Eve", "9", "position", "Not a valid choice."),
])
def test_join_errors_are_shown_by_the_field(app, client, name, position, field, message):
    sid = make_session(app)
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players",
                           data={"csrf_token": token, "name": name, "position": position})
    assert response.status_code == 200
    html = response.text
    assert error_of(html, field) == message
    assert "<h1>Players join or leave</h1>" in html
    assert re.search(rf'<input [^>]*id="name" list="known-players"[^>]*value="{name}"', html)
    with app.app_context():
        assert len(db.session.get(GameSession, sid).seats) == 4


def test_a_full_table_refuses_another_player(app, client):
    sid = make_session(app, names=list("ABCDEF"), rules=HouseRules.penang(), dealer="A")
    token = csrf_token(client, f"/sessions/{sid}/players")
    html = client.post(f"/sessions/{sid}/players",
                       data={"csrf_token": token, "name": "G", "position": "1"}).text
    assert error_of(html, "name") == "A table has 2 to 6 players"
    assert '<option value="G">' not in html
    with app.app_context():
        assert db.session.query(Player).count() == 6


def test_a_player_leaves_and_keeps_their_money(app, client):
    sid = make_session(app, rounds=[NO_HU])
    cat = player_id(app, "Cat")
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players/{cat}/leave", data={"csrf_token": token})
    assert response.status_code == 302
    html = client.get(f"/sessions/{sid}").text
    totals = parsed(html).select("table.board-totals tbody tr")
    assert [row.text for row in totals] == ["Ann 27 −1", "Bob 32 −8", "Dan 24 0",
                                            "Cat leads left 7 +9"]
    assert totals[3].attrs["class"] == "board-left"
    assert f"/players/{cat}/leave" not in html
    # Cat won and would deal, but has left: the deal passes anticlockwise to Bob.
    assert "<strong>Bob</strong> deals" in html
    assert "Ann → Dan → Bob" in re.sub(r"<[^>]+>", "", html)


def test_a_first_dealer_who_leaves_passes_the_deal_on(app, client):
    sid = make_session(app, rules=HouseRules.penang(), dealer="Bob")
    bob = player_id(app, "Bob")
    token = csrf_token(client, f"/sessions/{sid}/players")
    client.post(f"/sessions/{sid}/players/{bob}/leave", data={"csrf_token": token})
    html = client.get(f"/sessions/{sid}").text
    assert "<strong>Cat</strong> deals" in html  # Penang deals on clockwise
    # Bob comes back, now between Cat and Dan.
    client.post(f"/sessions/{sid}/players", data={"csrf_token": token, "name": "bob",
                                                  "position": "2"})
    assert '<option value="2">Between Cat and Bob</option>' in \
        client.get(f"/sessions/{sid}/players").text
    html = client.get(f"/sessions/{sid}").text
    assert "<strong>Bob</strong> deals" in html  # seated again, so the first deal is his


def test_the_last_two_players_cannot_leave(app, client):
    sid = make_session(app, names=["Ann", "Bob"], rules=HouseRules.penang(), dealer="Ann")
    bob = player_id(app, "Bob")
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players/{bob}/leave", data={"csrf_token": token})
    assert response.status_code == 200
    html = response.text
    leave_form = html[html.index(f"/players/{bob}/leave"):]
    assert leave_form.index("A table needs at least 2 players") < leave_form.index("</li>")


def test_someone_not_at_the_table_cannot_leave(app, client):
    sid = make_session(app)
    other = make_session(app, names=["Zoe", "Yan"], rules=HouseRules.penang(), dealer="Zoe")
    zoe = player_id(app, "Zoe")
    assert other
    token = csrf_token(client, f"/sessions/{sid}/players")
    html = client.post(f"/sessions/{sid}/players/{zoe}/leave", data={"csrf_token": token}).text
    assert '<p class="error" role="alert">That player is not at the table</p>' in html
