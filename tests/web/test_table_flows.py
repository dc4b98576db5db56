"""What the browser tests' phones see of the server, through the test client:
a hand checked on the home page, "This is Ann's phone" on the evening of
tests/e2e/test_table_phone.py, the round three phones fill in together
(tests/e2e/together/), and rounds a phone kept offline and sent later
(test_offline_queue.py). The browser tests keep what needs a browser: the
page scrolled to the answer, her line above the title, the hands coming in
live, the queue on the phone."""

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player, Round, RoundEntry
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.once import new_key
from tests.conftest import signed_in_client, the_group
from tests.web.helpers import csrf_token, filled, form_values, parsed, player_ids, send_hand

# Several phones in each test (conftest.own_tokens).
pytestmark = pytest.mark.usefixtures("own_tokens")


def entries(hands: dict) -> dict:
    return {name: Entry("hu") if cards == "hu" else Entry("dead", cards)
            for name, cards in hands.items()}


def start(app, names, dealer, rounds=()) -> int:
    with app.app_context():
        game = services.start_session(services.Change(the_group()), names, HouseRules.rummi(),
                                      dealer)
        for hands in rounds:
            services.record_round(services.Change.to(game), entries(hands))
        return game.id


def test_a_hand_checked_with_the_preset_the_home_page_offers(client):
    home = parsed(client.get("/"))
    (preset,) = [s for s in home.select("select") if s.attrs.get("name") == "preset"]
    chosen = [o.attrs["value"] for o in preset.select("option") if "selected" in o.attrs]
    page = parsed(client.get("/", query_string={"cards": "as 2s 3s jk 7h 7d 7c qh",
                                                 "preset": (chosen or ["penang"])[0]}))
    assert any("10 points left" in said for said in page.texts("[role=status]"))


# This is Ann's phone: the evening of the browser test, Dan dealing first.
EVENING = ({"Ann": "QS QH 3C", "Ben": "JK 7C", "Cat": "4D KC", "Dan": "5S 9H"},
           {"Ann": "JK 6S", "Ben": "hu", "Cat": "AH 2C", "Dan": "4S 4D"},
           {"Ann": "AC AC 2S", "Ben": "AS 9H", "Cat": "JK 7H", "Dan": "3D 4D"})
SEATS = ["Ann", "Ben", "Cat", "Dan"]


def test_this_is_anns_phone_her_money_and_rows(app, client):
    sid = start(app, SEATS, "Dan", EVENING)
    board = f"/sessions/{sid}"
    with app.app_context():
        ann = db.session.scalar(sa.select(Player.id).where(Player.name == "Ann"))
    assert parsed(client.get(board)).select(".board-me") == []
    client.post(f"{board}/phone", data={"csrf_token": csrf_token(client, board),
                                        "player": str(ann)})
    page = parsed(client.get(board))
    assert page.texts(".board-me-line") == ["Ann (this phone): −RM 13.50, 4th."]
    (mine,) = page.select("table.board-totals tr.sessions-me")
    assert mine.texts("th") == ["Ann you (this phone's player)"]
    assert len(page.select("table.board-rounds td.sessions-me")) == 3

    settle = parsed(client.get(f"{board}/settle"))
    assert settle.texts(".settle-mine li") == ["You pay Ben RM 3.50", "You pay Dan RM 10.00"]
    assert len(settle.select(".settle-transfer.sessions-me")) == 2
    assert "Cat pays Ben" in settle.select(".settle-transfer")[2].text
    result = parsed(client.get(f"{board}/rounds/1"))
    assert result.texts("li.round-line.sessions-me .round-name") == ["Ann"]


def test_three_phones_fill_in_a_round_and_it_saves_once_with_its_money(app, group):
    sid = start(app, ["Ann", "Ben", "Cat"], "Ann")
    phones = {name: signed_in_client(app, group, device=f"{name}'s phone")
              for name in ("Ann", "Ben", "Cat")}
    with app.app_context():
        ids = player_ids()
    for name, (outcome, cards) in {"Ann": ("dead", "5S 9H"), "Ben": ("hu", ""),
                                   "Cat": ("dead", "kd qd 3c")}.items():
        assert send_hand(phones[name], sid, ids[name], outcome, cards).status_code == 200
    ann = phones["Ann"]
    url = f"/sessions/{sid}/rounds/new"
    names = {i: n for n, i in ids.items()}
    form = form_values(ann.get(url).text)
    assert form["draft"]
    response = ann.post(url, data=filled(ann.get(url).text, {}, names))
    assert response.location == f"/sessions/{sid}/rounds/1"
    # Ben went out: Hu pays 3.00 from each; no points, no jokers or aces.
    page = parsed(ann.get(response.location))
    lines = {line.texts(".round-name")[0]: line.texts(".round-money strong")[0]
             for line in page.select("li.round-line")}
    assert lines == {"Ann": "\u22123.00", "Ben": "+6.00", "Cat": "\u22123.00"}
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(Round.id))
                                 .where(Round.session_id == sid)) == 1
        game = db.session.get(GameSession, sid)
        assert {e.player.name: e.net_cents for e in game.rounds[0].entries} == {
            "Ann": -300, "Ben": 600, "Cat": -300}
    changes = parsed(ann.get(f"/sessions/{sid}/changes"))
    assert ("Hands entered from Cat's phone: Cat; from Ben's phone: Ben; from Ann's phone: Ann."
            in changes.select(".changes-item")[0].text)


# Rounds kept on a phone offline: round 2 and round 3 entered on round 2's
# form as the phone kept it, sent later as queue.js sends them.
FIRST = {"Ann": "3C", "Ben": "8H", "Cat": "QS", "Dan": "hu"}
HANDS = [{"Ann": "5S 9H", "Ben": "KD", "Cat": "2C", "Dan": "7H"},
         {"Ann": "4D", "Ben": "JC 3S", "Cat": "10H", "Dan": "6C"}]


def nets(session_id) -> dict:
    """Each round's money, by round number and player."""
    rows = db.session.execute(
        sa.select(Round.number, Player.name, RoundEntry.net_cents)
        .join(RoundEntry.round).join(RoundEntry.player)
        .where(Round.session_id == session_id)).all()
    return {(number, name): net for number, name, net in rows}


def test_rounds_kept_offline_and_sent_later_count_as_rounds_saved_at_once(app, client):
    sid = start(app, SEATS, "Ann", [FIRST])
    url = f"/sessions/{sid}/rounds/new"
    kept = client.get(url).text  # the form as the phone kept it
    with app.app_context():
        names = {i: n for n, i in player_ids().items()}
    second = filled(kept, {n: ("dead", c) for n, c in HANDS[0].items()}, names)
    # queue.js moves the next round's form on past the round that waits.
    third = filled(kept, {n: ("dead", c) for n, c in HANDS[1].items()}, names) | {
        "number": "3", "version": str(int(second["version"]) + 1), "key": new_key()}
    for sent, number in ((second, 2), (third, 3)):
        sent["csrf_token"] = csrf_token(client, url)  # a fresh token, as queue.js asks
        assert client.post(url, data=sent).location == f"/sessions/{sid}/rounds/{number}"
    twin = start(app, SEATS, "Ann", [FIRST, *HANDS])
    with app.app_context():
        assert nets(sid) == nets(twin) and len(nets(sid)) == 12
