"""A round filled in together: each phone sends its player's hand (JSON), sees
its problems at once and the round's on every phone; nothing counts until
the round is saved; two phones on one hand; a form that missed a hand; who
entered each hand, kept in a backup. What such a round refuses is in
test_drafts_refusals.py; the house setting that saves the round when the
last hand is in, in test_drafts_autosave.py."""

import json
import re

import pytest
import sqlalchemy as sa

from scorekeeper import create_app, services
from scorekeeper.audit import RoundAdded
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, DraftEntry, GameSession, Group, Seat
from scorekeeper.rules import Entry
from tests.conftest import signed_in_client
from tests.web.backups import post_import
from tests.web.examples import TIEN_HU, TYPED_1
from tests.web.helpers import (
    csrf_token,
    filled,
    form_values,
    game,
    player_ids,
    round_count,
    section,
    send,
    send_all,
    state,
    text,
)

# Several phones in each test (conftest.own_tokens).
pytestmark = pytest.mark.usefixtures("own_tokens")


def place(answer: dict, name: str) -> dict:
    return next(p for p in answer["players"] if p["name"] == name)



def written():
    """What a round saved changes: rounds, seat totals, the session's version."""
    db.session.expire_all()
    return (round_count(),
            sorted(db.session.execute(sa.select(Seat.player_id, Seat.net_cents, Seat.points))),
            db.session.scalar(sa.select(GameSession.version)))


# Each hand checked at once, alone and with the others


def test_a_hand_is_checked_at_once_and_kept_with_its_problems(client, sid):
    answer = send(client, sid, "B", "dead", "AC X9 2S")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["problems"] == ['B: "X9" (card 2) is not a card: write rank then suit, '
                                "like AS, 10H, QD, or JK for a joker"]
    assert body["hand"]["cards"] == "AC X9 2S" and body["hand"]["version"] == 1
    b = place(body["state"], "B")
    assert b["done"] is False and b["hand"]["cards"] == "AC X9 2S"  # nothing typed is lost
    assert body["state"]["problems"] == []

    fixed = send(client, sid, "B", "dead", "AC 9S 2S", base=1).get_json()
    assert fixed["problems"] == [] and place(fixed["state"], "B")["done"] is True
    assert [p["done"] for p in state(client, sid)["players"]] == [False, True, False, False]


def test_each_players_problems_are_theirs_and_the_rounds_are_everyones(
        app, group, client, ben_phone, sid):
    a_phone = signed_in_client(app, group, device="A's phone")
    with a_phone.session_transaction() as cookie:
        cookie["player"] = player_ids()["A"]  # "This is A's phone"
    send(client, sid, "A", "no_passport", TIEN_HU)  # twenty cards that meld: a passport
    send(ben_phone, sid, "B", "dead", "AC AC 2S")
    answer = send(ben_phone, sid, "C", "dead", "AC 7H").get_json()
    # The details of A's problem: on the phone that entered the hand, and on A's.
    for body in (state(client, sid), state(a_phone, sid)):
        (a_problem,) = place(body, "A")["problems"]
        assert a_problem.startswith("A has a passport, so it is not 'no passport'")
    # Every other phone: that it is to be checked, and where (the strip's "!").
    for body in (answer["state"], state(ben_phone, sid)):
        assert place(body, "A")["problems"] == ["A's hand is to be checked on Test phone."]
    for body in (answer["state"], state(client, sid), state(ben_phone, sid), state(a_phone, sid)):
        assert [p["name"] for p in body["players"]] == ["A", "B", "C", "D"]  # playing order
        assert place(body, "A")["done"] is False and place(body, "A")["hand"] is not None
        assert place(body, "B")["problems"] == place(body, "C")["problems"] == []
        assert place(body, "B")["done"] and place(body, "C")["done"]
        assert place(body, "D")["hand"] is None and not place(body, "D")["done"]
        assert body["problems"] == ["3 copies of AC entered (B, C), but the deck has only 2"]
        assert body["complete"] is False
    # The round form says the round's problem as the page opens, before its script runs.
    note = client.get(f"/sessions/{sid}/rounds/new").text.split('id="together-note"')[1]
    assert note.split("</div>")[0].endswith(
        '<p class="error">3 copies of AC entered (B, C), but the deck has only 2</p>')


def test_two_hu_are_the_rounds_problem(client, sid):
    send(client, sid, "A", "hu")
    body = send(client, sid, "C", "hu").get_json()
    assert body["problems"] == []
    assert body["state"]["problems"] == [
        "Only one player can win a round, but A and C are both marked Hu or Tien Hu"]


def test_once_everyone_is_in_the_warnings_are_shown(client, sid):
    send_all(client, sid, {**TYPED_1, "D": ("dead", "")})
    body = state(client, sid)
    assert body["complete"] is True and body["problems"] == []
    assert body["warnings"] == ["D is dead with no cards left: if D went out, choose Hu"]


# Nothing counts until the round is saved


def test_hands_change_no_score_money_or_dealer_until_the_round_is_saved(client, sid):
    before = written()
    dealer = client.get(f"/sessions/{sid}").get_data(as_text=True).count("deals")
    drafts = game(sid).draft_version
    send_all(client, sid, TYPED_1)
    assert written() == before
    assert game(sid).draft_version == drafts + 4  # a save raises the draft version only
    assert client.get(f"/sessions/{sid}").get_data(as_text=True).count("deals") == dealer
    assert state(client, sid)["complete"] is True


def test_the_form_shows_the_hands_entered_and_saving_it_takes_them_away(client, ben_phone, sid):
    send(ben_phone, sid, "B", "dead", "ac ac 2s")
    send(client, sid, "A", "dead", "JK 7H")
    html = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert 'value="ac ac 2s"' in section(html, "B")  # as typed
    assert 'value="JK 7H"' in section(html, "A")
    assert '<li class="together-done" data-player' in html
    response = client.post(f"/sessions/{sid}/rounds/new", data=filled(html, TYPED_1))
    assert response.status_code == 302
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0
    added = db.session.scalars(sa.select(AuditEvent).where(AuditEvent.action == "round.add")).one()
    assert RoundAdded.from_json(added.before, added.after).entered_by == (
        ("A", "Test phone"), ("B", "Ben's phone"), ("C", "Test phone"), ("D", "Test phone"))
    changes = text(client.get(f"/sessions/{sid}/changes"))
    assert "Hands entered from Test phone: A, C, D; from Ben's phone: B." in changes
    after = state(client, sid)
    assert after["number"] == 2 and all(p["hand"] is None for p in after["players"])


def round_form_tag(client, url) -> str:
    return re.search(r'<form method="post" action="[^"]*" class="round-form"[^>]*>',
                     text(client.get(url)))[0]


def test_the_form_tells_the_pad_whose_phone_it_is_and_keeps_the_notation_behind_a_help(
        client, sid):
    """cards.js keeps the pad to the phone's own hand (data-own) and together.js
    keeps typed hands by session (data-session); the notation is a <details>,
    open with a tap, with or without JavaScript."""
    new = f"/sessions/{sid}/rounds/new"
    tag = round_form_tag(client, new)
    assert f'data-session="{sid}"' in tag and "data-own" not in tag  # nobody's phone: one phone
    board = f"/sessions/{sid}"
    client.post(f"{board}/phone", data={"csrf_token": csrf_token(client, board),
                                        "player": str(player_ids()["B"])})
    assert f'data-own="{player_ids()["B"]}"' in round_form_tag(client, new)
    html = text(client.get(new))
    assert re.search(r'<details class="round-help">\s*<summary><span class="round-help-mark" '
                     r'aria-hidden="true">\?</span> How to enter a hand</summary>\s*'
                     r'<p class="hint">For each player: how the round ended', html)
    send_all(client, sid, TYPED_1)
    assert client.post(new, data=filled(html, TYPED_1)).status_code == 302
    edit = round_form_tag(client, f"/sessions/{sid}/rounds/1/edit")  # one phone, B's or not
    assert "data-own" not in edit and "data-session" not in edit
    assert '<details class="round-help">' in text(client.get(f"/sessions/{sid}/rounds/1/edit"))


def test_a_round_saved_on_one_phone_takes_the_hands_away_too(client, sid):
    send(client, sid, "A", "dead", "QS")
    services.record_round(services.Change.to(game(sid)), {n: Entry(*e) for n, e in TYPED_1.items()})
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0
    added = db.session.scalars(sa.select(AuditEvent).where(AuditEvent.action == "round.add")).one()
    # A's hand was saved otherwise: the phone that saved the round entered it
    assert dict(RoundAdded.from_json(added.before, added.after).entered_by)["A"] == ""


def test_a_round_entered_on_one_phone_alone_has_no_entered_by(client, sid):
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    assert client.post(f"/sessions/{sid}/rounds/new", data=filled(page, TYPED_1)).status_code == 302
    added = db.session.scalars(sa.select(AuditEvent).where(AuditEvent.action == "round.add")).one()
    assert "entered_by" not in added.after


def test_a_phone_on_a_round_saved_meanwhile_is_refused(client, ben_phone, sid):
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    assert client.post(f"/sessions/{sid}/rounds/new", data=filled(page, TYPED_1)).status_code == 302
    answer = send(ben_phone, sid, "B", "dead", "2S", number=1)
    assert answer.status_code == 409
    assert answer.get_json()["error"] == "Round 1 has been saved: this is round 2 now."
    assert answer.get_json()["state"]["number"] == 2
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0


def test_hands_of_players_who_left_do_not_count(client, sid):
    send(client, sid, "B", "dead", "2S")
    send(client, sid, "C", "dead", "3S")
    b = player_ids()["B"]
    services.leave_session(services.Change.to(game(sid)), b)
    body = state(client, sid)
    assert [p["name"] for p in body["players"]] == ["A", "C", "D"]
    assert send(client, sid, "B", "dead", "4S").status_code == 409
    html = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert 'value="3S"' in section(html, "C")


def test_unfinished_hands_survive_a_restart(app, client, sid):
    send(client, sid, "A", "tien_hu", "AS 2S 3S")  # half-entered
    with app.app_context():
        config = {k: app.config[k] for k in ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY",
                                              "PASSPHRASE_HASH_METHOD")}
    restarted = create_app({**config, "TESTING": True})
    with restarted.app_context():
        group = db.session.scalar(sa.select(Group))
        phone = signed_in_client(restarted, group)
    body = state(phone, sid)
    assert place(body, "A")["hand"]["cards"] == "AS 2S 3S"
    assert place(body, "A")["problems"] == [
        "A has Tien Hu, so the whole hand of 20 cards is needed; 3 were entered"]
    with restarted.app_context():
        db.engine.dispose()


# Two phones on one hand


def test_two_phones_changing_one_hand_the_later_sees_the_others(client, ben_phone, sid):
    assert send(ben_phone, sid, "B", "dead", "2S 3S").status_code == 200
    refused = send(client, sid, "B", "dead", "KD", base=0)
    assert refused.status_code == 409
    body = refused.get_json()
    assert body["hand"]["cards"] == "2S 3S" and body["hand"]["version"] == 1
    assert body["hand"]["phone"] == "Ben's phone"
    assert place(body["state"], "B")["hand"]["cards"] == "2S 3S"
    assert place(state(client, sid), "B")["hand"]["cards"] == "2S 3S"  # nothing changed
    # the same hand is no conflict; keeping mine is a deliberate save on theirs
    assert send(client, sid, "B", "dead", "2S 3S", base=0).status_code == 200
    mine = send(client, sid, "B", "dead", "KD", base=1)
    assert mine.status_code == 200 and mine.get_json()["hand"]["version"] == 2
    assert mine.get_json()["hand"]["phone"] == "Test phone"


def test_a_refused_save_gives_back_the_draft_version(client, ben_phone, sid):
    send(ben_phone, sid, "B", "dead", "2S 3S")
    drafts = game(sid).draft_version
    body = send(client, sid, "B", "dead", "KD").get_json()
    assert body["state"]["draft"] == drafts == game(sid).draft_version


# The form's Save, with a hand it missed


def test_a_form_that_missed_a_hand_is_shown_again_with_it(client, ben_phone, sid):
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    assert form_values(page)["draft"] == "0"
    send(ben_phone, sid, "C", "dead", "3D 4D 5H")
    response = client.post(f"/sessions/{sid}/rounds/new", data=filled(page, TYPED_1))
    html = text(response)
    assert response.status_code == 409 and round_count() == 0
    assert ("C's hand was entered from Ben's phone meanwhile: Dead, 3D 4D 5H. "
            "You had Dead, 3D 4D.") in html
    assert 'value="3D 4D 5H"' in section(html, "C")
    data = form_values(html)
    assert data["draft"] == str(game(sid).draft_version)
    assert client.post(f"/sessions/{sid}/rounds/new", data=data).status_code == 302
    entries = {e.player.name: e.cards for e in game(sid).rounds[0].entries}
    assert entries["C"] == "3D 4D 5H"


def test_a_hand_the_form_already_has_is_no_reason_to_refuse(client, sid):
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    send(client, sid, "C", "dead", "3d 4d")  # sent as typed, just before Save
    response = client.post(f"/sessions/{sid}/rounds/new", data=filled(page, TYPED_1))
    assert response.status_code == 302 and round_count() == 1


def test_a_hand_this_phone_sent_then_put_right_in_the_form_is_saved_as_put_right(client, sid):
    """The page sent C's hand as it was (as the page opened, or as it was
    typed) and the player put it right just before Save: this phone's own
    hand is not another phone's news, and what the form holds is saved."""
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    send(client, sid, "C", "dead", "3D 4D 5H")
    response = client.post(f"/sessions/{sid}/rounds/new", data=filled(page, TYPED_1))
    assert response.status_code == 302 and round_count() == 1
    assert {e.player.name: e.cards for e in game(sid).rounds[0].entries}["C"] == "3D 4D"


def test_without_a_draft_field_the_form_saves_as_before(client, ben_phone, sid):
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    send(ben_phone, sid, "C", "dead", "KD")
    data = filled(page, TYPED_1)
    del data["draft"]
    assert client.post(f"/sessions/{sid}/rounds/new", data=data).status_code == 302


def test_the_phones_own_player_comes_first(client, sid):
    with client.session_transaction() as cookie:
        cookie["player"] = player_ids()["C"]
    html = text(client.get(f"/sessions/{sid}/rounds/new"))
    order = [html.index(f'id="player-{player_ids()[n]}"') for n in "CABD"]
    assert order == sorted(order)
    assert "your hand" in section(html, "C") and "your hand" not in section(html, "A")
    assert f'data-own="{player_ids()["C"]}"' in html
    response = client.post(f"/sessions/{sid}/rounds/new", data=filled(html, TYPED_1))
    assert response.status_code == 302  # the posted order is the rows' own, not the page's
    assert {e.player.name: e.cards for e in game(sid).rounds[0].entries}["C"] == "3D 4D"


def test_a_hand_remembers_whose_phone_saved_it(client, sid):
    with client.session_transaction() as cookie:
        cookie["player"] = player_ids()["B"]
    send(client, sid, "B", "dead", "2S")
    send(client, sid, "C", "dead", "3S")
    hands = {row.player_id: row for row in db.session.scalars(sa.select(DraftEntry))}
    assert hands[player_ids()["B"]].phone_player_id == player_ids()["B"]
    assert hands[player_ids()["C"]].phone_player_id == player_ids()["B"]
    body = state(client, sid)
    assert place(body, "B")["hand"]["by_player"] and not place(body, "C")["hand"]["by_player"]


# The backup


def test_who_entered_each_hand_survives_a_backup(client, ben_phone, anonymous, sid):
    send(ben_phone, sid, "B", "dead", "AC AC 2S")
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    assert client.post(f"/sessions/{sid}/rounds/new", data=filled(page, TYPED_1)).status_code == 302
    exported = client.get("/group/export.json").get_json()
    (added,) = [e for e in exported["audit"] if e["action"] == "round.add"]
    assert added["after"]["entered_by"]["B"] == "Ben's phone"
    assert post_import(anonymous, json.dumps(exported).encode()).status_code == 302
    again = anonymous.get("/group/export.json").get_json()
    (copied,) = [e for e in again["audit"] if e["action"] == "round.add"]
    assert copied["after"]["entered_by"] == added["after"]["entered_by"]


@pytest.mark.parametrize("entered_by, message", [
    ({"B": 12}, '"entered_by", "B" must be text, not 12'),
    ({"Nobody": "Phone"}, "\"entered_by\": 'Nobody' does not play that round."),
    ({"B": "x" * 31}, "a phone's name has at most 30 characters"),
    ([["B", "Phone"]], '"entered_by" must be an object'),
])
def test_a_backup_with_a_bad_entered_by_is_refused(client, anonymous, sid, entered_by, message):
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    client.post(f"/sessions/{sid}/rounds/new", data=filled(page, TYPED_1))
    exported = client.get("/group/export.json").get_json()
    (added,) = [e for e in exported["audit"] if e["action"] == "round.add"]
    added["after"]["entered_by"] = entered_by
    response = post_import(anonymous, json.dumps(exported).encode())
    assert response.status_code == 422
    assert message in text(response)
