"""Settling up and ending a session: balances, who pays whom and the message
to share, transfers marked paid, an ended session read-only until it is
reopened."""

import re

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Payment
from tests.conftest import GROUP_NAME
from tests.web.examples import NO_HU, make_session, player_id
from tests.web.helpers import csrf_token, form_values, parsed


def test_settle_shows_balances_transfers_and_the_message(app, client):
    sid = make_session(app, rounds=[NO_HU])
    html = client.get(f"/sessions/{sid}/settle").text
    assert re.findall(r"<strong>(\w+)</strong> pays <strong>(\w+)</strong></span>\s*"
                      r'<span class="settle-amount">([^<]+)</span>', html) == \
        [("Ann", "Cat", "RM 1.00"), ("Bob", "Cat", "RM 8.00")]
    assert '<span class="sessions-loss">−8.00</span>' in html
    assert '<label class="settle-label" for="share-text">' in html
    lines = parsed(html).select("textarea#share-text")[0].children[0].split("\n")
    day = r"[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}"
    assert re.fullmatch(rf"{GROUP_NAME}: rummy on {day} \(so far\)", lines[0])
    assert lines[1:] == ["1. Cat +RM 9.00", "2. Dan RM 0.00", "3. Ann −RM 1.00", "4. Bob −RM 8.00",
                         "Who pays whom:", "Ann pays Cat RM 1.00", "Bob pays Cat RM 8.00"]
    buttons = parsed(html).select("section[aria-labelledby=share-title] button")
    assert [(b.text, b.attrs) for b in buttons] == [
        ("Copy as text", {"type": "button", "class": "button settle-copy",
                          "data-copy": "share-text", "id": "copy-share", "hidden": ""}),
        ("Share…", {"type": "button", "class": "button sessions-quiet",
                    "data-share": "share-text", "id": "share-sheet", "hidden": ""})]
    assert 'id="share-text-status" role="status"' in html
    assert 'role="status"' in html
    assert "End the session now" in html


def test_settle_with_even_balances(app, client):
    sid = make_session(app)
    html = client.get(f"/sessions/{sid}/settle").text
    assert '<p class="settle-none">Nobody owes anything.</p>' in html
    assert "Who pays whom:\nNobody owes anything." in html


def test_a_transfer_is_marked_paid_and_back(app, client):
    sid = make_session(app, rounds=[NO_HU])
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    token = csrf_token(client, f"/sessions/{sid}/settle")
    paid = {"csrf_token": token, "payer_id": ann, "payee_id": cat, "cents": 100}
    response = client.post(f"/sessions/{sid}/settle/paid", data=paid)
    assert response.status_code == 302
    assert response.location == f"/sessions/{sid}/settle#transfers"
    html = client.get(f"/sessions/{sid}/settle").text
    assert html.count("settle-transfer settle-paid") == 1
    assert '<span aria-hidden="true">✓</span> Paid</p>' in html
    assert "Ann pays Cat RM 1.00 (paid)" in html
    assert "RM 1.00 marked paid just now" in html
    with app.app_context():
        payment = db.session.scalars(sa.select(Payment)).one()
        assert (payment.payer_id, payment.payee_id, payment.cents) == (ann, cat, 100)
        assert (payment.session_id, payment.currency) == (sid, "RM")
    undo = {"csrf_token": token, "payment_id": payment.id}
    assert client.post(f"/sessions/{sid}/settle/undo", data=undo).status_code == 302
    assert "settle-paid" not in client.get(f"/sessions/{sid}/settle").text
    with app.app_context():
        assert db.session.query(Payment).count() == 0
    response = client.post(f"/sessions/{sid}/settle/undo", data=undo)
    assert "That payment was taken back already" in response.text


def test_a_transfer_not_in_the_settlement_is_refused(app, client):
    sid = make_session(app, rounds=[NO_HU])
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    token = csrf_token(client, f"/sessions/{sid}/settle")
    response = client.post(f"/sessions/{sid}/settle/paid", data={
        "csrf_token": token, "payer_id": cat, "payee_id": ann, "cents": 100})
    assert response.status_code == 200
    assert "That transfer is not part of the settlement any more" in response.text
    response = client.post(f"/sessions/{sid}/settle/paid", data={
        "csrf_token": token, "payer_id": ann, "payee_id": cat, "cents": 101})
    assert "Only RM 1.00 is still owed." in response.text
    for bad in ({"payer_id": "x", "payee_id": cat, "cents": 100}, {"payee_id": cat, "cents": 100},
                {"payer_id": ann, "payee_id": cat, "cents": -5}):
        response = client.post(f"/sessions/{sid}/settle/paid", data={"csrf_token": token, **bad})
        assert response.status_code == 400
    with app.app_context():
        assert db.session.query(Payment).count() == 0


def test_ending_a_session_leaves_it_read_only(app, client):
    sid = make_session(app, rounds=[NO_HU])
    token = csrf_token(client, f"/sessions/{sid}/settle")
    response = client.post(f"/sessions/{sid}/end", data={"csrf_token": token})
    assert response.status_code == 302
    assert response.location == f"/sessions/{sid}"
    html = client.get(f"/sessions/{sid}").text
    assert "<h2 id=\"night-title\">Final places</h2>" in html
    for gone in ("Enter round", "/rounds/new", "/leave", f'action="/sessions/{sid}/players"',
                 "plays first"):
        assert gone not in html
    assert f'href="/sessions/{sid}/settle">Settle up</a>' in html
    assert f'href="/history/sessions/{sid}">In history</a>' in html
    settle = client.get(f"/sessions/{sid}/settle").text
    assert "End the session now" not in settle
    assert "Mark as paid" in settle  # money can still change hands


def test_a_finished_session_refuses_changes(app, client):
    sid = make_session(app, rounds=[NO_HU], ended=True)
    ann = player_id(app, "Ann")
    token = csrf_token(client, f"/sessions/{sid}/settle")
    html = client.post(f"/sessions/{sid}/end", data={"csrf_token": token}).text
    assert "This session has ended" in html
    html = client.post(f"/sessions/{sid}/players/{ann}/leave", data={"csrf_token": token}).text
    assert '<p class="sessions-alert" role="alert">This session has ended</p>' in html
    html = client.post(f"/sessions/{sid}/players",
                       data={"csrf_token": token, "name": "Eve", "position": "1"}).text
    assert "This session has ended" in html
    players = client.get(f"/sessions/{sid}/players").text
    assert "This session has ended: players can no longer join or leave." in players
    assert "<form" not in players.split("<main", 1)[1].split("</main>", 1)[0]
    with app.app_context():
        assert len(db.session.get(GameSession, sid).seats) == 4


def test_an_ended_session_can_be_reopened_to_correct_a_round(app, client):
    sid = make_session(app, rounds=[NO_HU], ended=True)
    board = client.get(f"/sessions/{sid}").text
    assert "Reopen the session" in board
    token = csrf_token(client, f"/sessions/{sid}")  # the reopen form's
    assert client.post(f"/sessions/{sid}/rounds/1/delete",
                       data={"csrf_token": token}).status_code == 409
    response = client.post(f"/sessions/{sid}/reopen", data={"csrf_token": token})
    assert (response.status_code, response.location) == (302, f"/sessions/{sid}")
    assert "Enter round 2" in client.get(f"/sessions/{sid}").text
    page = client.get(f"/sessions/{sid}/rounds/1").text
    version = form_values(page, f"/sessions/{sid}/rounds/1/delete")["version"]
    assert client.post(f"/sessions/{sid}/rounds/1/delete",
                       data={"csrf_token": token, "version": version}).status_code == 302
    with app.app_context():
        session = db.session.get(GameSession, sid)
        assert (session.ended_at, session.rounds) == (None, [])
    # Reopening an open session changes nothing.
    assert client.post(f"/sessions/{sid}/reopen", data={"csrf_token": token}).status_code == 302
    assert client.post(f"/sessions/{sid}/reopen").status_code == 400
