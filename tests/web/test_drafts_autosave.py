"""A round filled in together under the house setting that saves the round
when the last hand is in: set on the group page, off at first; the last
hand in saves the round, once its field is left; warnings still need a
tap."""

import re

import pytest
import sqlalchemy as sa

from scorekeeper.audit import RoundAdded
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, DraftEntry, Group
from tests.web.examples import TYPED_1
from tests.web.helpers import csrf_token, game, round_count, send, send_all, state

# Several phones in each test (conftest.own_tokens).
pytestmark = pytest.mark.usefixtures("own_tokens")


def autosave(client, on: bool) -> None:
    data = {"csrf_token": csrf_token(client, "/group")} | ({"autosave": "y"} if on else {})
    assert client.post("/group/autosave", data=data).status_code == 302


def autosave_box(client) -> str:
    html = client.get("/group").get_data(as_text=True)
    assert "Save the round as soon as the last player is in" in html
    return re.search(r'<input[^>]*name="autosave"[^>]*>', html)[0]


def test_the_setting_is_off_at_first_and_set_on_the_group_page(client, our_group):
    assert "checked" not in autosave_box(client)
    autosave(client, True)
    assert game_group().autosave_rounds is True
    assert "checked" in autosave_box(client)
    autosave(client, False)
    assert game_group().autosave_rounds is False


def game_group() -> Group:
    db.session.expire_all()
    return db.session.scalar(sa.select(Group))


def test_with_the_setting_the_last_hand_in_saves_the_round(client, ben_phone, sid):
    autosave(client, True)
    hands = dict(TYPED_1)
    last = hands.pop("D")
    send_all(client, sid, hands)
    assert round_count() == 0
    answer = send(ben_phone, sid, "D", *last)
    body = answer.get_json()
    assert body["recorded"] == {"number": 1, "url": f"/sessions/{sid}/rounds/1"}
    assert round_count() == 1
    assert {e.player.name: e.net_cents for e in game(sid).rounds[0].entries} == {
        "A": -100, "B": -800, "C": 900, "D": 0}
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0
    added = db.session.scalars(sa.select(AuditEvent).where(AuditEvent.action == "round.add")).one()
    assert added.device == "Ben's phone"
    assert dict(RoundAdded.from_json(added.before, added.after).entered_by)["D"] == "Ben's phone"


def test_with_the_setting_a_hand_sent_as_it_is_typed_saves_the_round_once_left(client, sid):
    """A hand goes as it is typed (together.js), its field not yet left: the
    round waits, the player may not be done. Left, the same hand saves it."""
    autosave(client, True)
    hands = dict(TYPED_1)
    outcome, cards = hands.pop("D")
    send_all(client, sid, hands)
    for base, typed in enumerate((cards.split()[0], cards)):  # the field still typed in
        answer = send(client, sid, "D", outcome, typed, typing=True, base=base)
        assert answer.status_code == 200 and "recorded" not in answer.get_json()
    assert round_count() == 0
    assert state(client, sid)["complete"] is False  # being typed: not in
    answer = send(client, sid, "D", outcome, cards, base=2)  # the field left: in now
    assert answer.get_json()["recorded"] == {"number": 1, "url": f"/sessions/{sid}/rounds/1"}
    assert round_count() == 1
    assert {e.player.name: e.cards for e in game(sid).rounds[0].entries}["D"] == cards


def test_with_the_setting_warnings_still_need_a_tap(client, sid):
    autosave(client, True)
    send_all(client, sid, {**TYPED_1, "D": ("dead", "")})
    assert round_count() == 0
    assert state(client, sid)["warnings"]


def test_without_the_setting_the_last_hand_saves_nothing(client, sid):
    send_all(client, sid, TYPED_1)
    assert round_count() == 0
