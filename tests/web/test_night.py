"""The end of the night (services/night.py, on the scoreboard of an ended
session) and the chat message (web/presenters/message.py), through the test client."""

import dataclasses

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import Entry, HouseRules
from tests.conftest import GROUP_NAME
from tests.web.examples import EXAMPLE_RULES, HU, NO_HU, TIE, TIEN_HU, make_session, player_id
from tests.web.helpers import csrf_token, parsed, visible_text


def cells(row) -> list[str]:
    return [cell.text for cell in row.children
            if not isinstance(cell, str) and cell.tag in ("th", "td")]


def message_of(html: str) -> list[str]:
    (box,) = parsed(html).select("textarea#share-text")
    return box.children[0].split("\n")


def test_an_ended_session_opens_on_the_nights_summary(app, client):
    # After examples 1 to 3 (Bob's Hu in the third): Cat +11.00, Bob +0.50,
    # Dan −5.00, Ann −6.50 (tests/web/test_scoreboard.py reads them off the board).
    sid = make_session(app, rounds=[NO_HU, TIE, HU])
    board = client.get(f"/sessions/{sid}").text
    assert "Final places" not in board
    token = csrf_token(client, f"/sessions/{sid}/settle")
    assert client.post(f"/sessions/{sid}/end", data={"csrf_token": token}).location == \
        f"/sessions/{sid}"
    response = client.get(f"/sessions/{sid}")
    page = parsed(response)
    assert page.texts("h1")[0].startswith("The night ")
    assert page.texts(".night-ended")[0].endswith(", after 3 rounds.")
    assert [cells(row) for row in page.select("table.night-places tbody tr")] == [
        ["1st", "Cat", "+11.00"], ["2nd", "Bob", "+0.50"], ["3rd", "Dan", "−5.00"],
        ["4th", "Ann", "−6.50"]]
    facts = dict(zip(page.texts(".night-facts dt"), page.texts(".night-facts dd"), strict=True))
    assert facts == {"Biggest winner": "Cat +RM 11.00", "Biggest loser": "Ann −RM 6.50",
                     "Hu": "Bob 1 (1 in all)", "Tien Hu": "none"}
    transfers = page.texts("li.settle-transfer .settle-line")
    assert transfers == ["Ann pays Cat RM 6.50", "Dan pays Bob RM 0.50", "Dan pays Cat RM 4.50"]
    # The places are the summary's: no totals table again, the rounds below.
    assert "Totals" not in page.texts("h2")
    assert len(page.select("table.board-rounds tbody tr")) == 3
    # Share and copy, with the final message; the grey box is gone.
    assert page.select("button#copy-share") and page.select("button#share-sheet")
    lines = message_of(response.text)
    assert lines[0].startswith(f"{GROUP_NAME}: rummy on ") and lines[0].endswith("(final)")
    assert lines[1:] == ["1. Cat +RM 11.00", "2. Bob +RM 0.50", "3. Dan −RM 5.00",
                         "4. Ann −RM 6.50", "Who pays whom:", *transfers]
    assert "board-ended" not in response.text
    assert "/static/js/copy." in response.text


def test_ties_share_a_place_and_the_title_and_a_tien_hu_is_counted(app, client):
    # A's Tien Hu: B and Eve, out with nothing in hand, pay alike and tie.
    sid = make_session(app, rounds=[
        {"A": Entry("tien_hu", TIEN_HU), "B": Entry("dead"), "Eve": Entry("dead")}],
        names=["A", "B", "Eve"], rules=EXAMPLE_RULES, dealer="A", ended=True)
    page = parsed(client.get(f"/sessions/{sid}"))
    places = [row.texts("td")[0] for row in page.select("table.night-places tbody tr")]
    assert places == ["1st", "joint 2nd", "joint 2nd"]
    facts = dict(zip(page.texts(".night-facts dt"), page.texts(".night-facts dd"), strict=True))
    assert facts["Tien Hu"] == "A 1 (1 in all)" and facts["Hu"] == "none"
    assert facts["Biggest loser"].startswith("B and Eve −")


def test_a_points_only_night_places_by_fewest_points(app, client):
    points_only = dataclasses.replace(HouseRules.penang(), scheme="none")
    sid = make_session(app, rounds=[NO_HU], rules=points_only, ended=True)
    response = client.get(f"/sessions/{sid}")
    page = parsed(response)
    # Round 1, Penang: Cat 7 points, Dan 24, Ann 27, Bob 32; no money changes hands.
    assert [cells(row) for row in page.select("table.night-places tbody tr")] == [
        ["1st", "Cat", "7"], ["2nd", "Dan", "24"], ["3rd", "Ann", "27"], ["4th", "Bob", "32"]]
    assert page.texts(".night-facts dt") == ["Hu", "Tien Hu"]  # nobody won or lost money
    assert message_of(response.text)[1:6] == ["1. Cat 7 points", "2. Dan 24 points",
                                              "3. Ann 27 points", "4. Bob 32 points",
                                              "Who pays whom:"]


def test_a_payment_marked_after_the_end_shows_in_the_summary(app, client):
    sid = make_session(app, rounds=[NO_HU], ended=True)
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    token = csrf_token(client, f"/sessions/{sid}/settle")
    client.post(f"/sessions/{sid}/settle/paid", data={
        "csrf_token": token, "payer_id": ann, "payee_id": cat, "cents": 100, "paid": "y"})
    response = client.get(f"/sessions/{sid}")
    assert "Ann pays Cat RM 1.00 (paid)" in message_of(response.text)
    assert "Ann pays Cat RM 1.00 ✓ Paid" in visible_text(response)
    with app.app_context():
        night = services.night(db.session.get(GameSession, sid))
        assert [s.paid for s in night.settlement] == [True, False]
