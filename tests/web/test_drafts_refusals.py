"""What a round filled in together refuses: another group's session or
player, a hand without its CSRF token, a finished session, a round number
that is not the coming one; and bodies it cannot read, each a 400 saying
why, with nothing written."""

import json

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import DraftEntry, Seat
from scorekeeper.rules import Entry
from tests.conftest import signed_in_client
from tests.web.examples import EXAMPLE_RULES, TYPED_1
from tests.web.helpers import csrf_token, game, player_ids, send, send_hand, state

# Several phones in each test (conftest.own_tokens).
pytestmark = pytest.mark.usefixtures("own_tokens")


def test_another_groups_session_is_a_404(app, client, sid):
    with app.app_context():
        other = services.create_group("Other table", "other passphrase")
        services.start_session(services.Change(other), ["X", "Y"], EXAMPLE_RULES, first_dealer="X")
        stranger = signed_in_client(app, other)
    assert stranger.get(f"/sessions/{sid}/draft").status_code == 404
    token = csrf_token(stranger, "/group")
    answer = send_hand(stranger, sid, player_ids()["A"], "dead", "2S", token=token)
    assert answer.status_code == 404
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0


def test_a_player_of_another_group_or_session_is_refused(app, client, sid, our_group):
    other = services.start_session(services.Change(our_group),
                                   ["A", "Zed"], EXAMPLE_RULES, first_dealer="A")
    zed = player_ids()["Zed"]
    answer = send_hand(client, sid, zed, "dead", "2S")
    assert answer.status_code == 409
    assert answer.get_json()["error"] == "That player does not play this round."
    assert send_hand(client, other.id, zed, "dead", "2S").status_code == 200


def test_a_hand_without_its_csrf_token_is_refused(client, sid):
    answer = client.post(f"/sessions/{sid}/draft/{player_ids()['A']}",
                         json={"outcome": "dead", "cards": "", "base": 0, "number": 1})
    assert answer.status_code == 400
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0


def test_a_finished_session_takes_no_hand(client, sid):
    services.end_session(services.Change.to(game(sid)))
    answer = send(client, sid, "A", "dead", "2S", token=csrf_token(client, "/group"))
    assert answer.status_code == 409 and "ended" in answer.get_json()["error"]
    assert state(client, sid)["open"] is False


GOOD = {"outcome": "dead", "cards": "2S", "base": 0, "number": 1}
SURROGATE = b'{"outcome": "dead", "cards": "\\ud800 2S", "base": 0, "number": 1}'
# Bodies that are not JSON the app can read, and what the error says of each.
UNREADABLE = {
    "lone surrogate": (SURROGATE, "half of a surrogate pair"),
    "lone surrogate, as UTF-8 bytes": (SURROGATE.replace(b"\\ud800", b"\xed\xa0\x80"),
                                       "half of a surrogate pair"),
    "lone surrogate in a member's name": (
        json.dumps({**GOOD, "\udfff": 1}).encode(), "half of a surrogate pair"),
    "100,000 [": (b"[" * 100_000 + b"]" * 100_000, "more than 20 deep"),
    "100,000 objects": (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "more than 20 deep"),
    "NaN": (json.dumps({**GOOD, "base": float("nan")}).encode(), "NaN"),
    "a 5,000-digit number": (b'{"base": 1' + b"0" * 5000 + b"}", "more than 20 digits"),
    "not UTF-8": (b'{"cards": "\xff"}', "is not UTF-8"),
    "not JSON": (b'{"cards": 2S}', "Expecting ',' delimiter at line 1, column 12"),
}


@pytest.mark.parametrize("body", [
    b"", b"not json", b"[]", b"null", b"12", b'"text"', b"{",
    json.dumps({**GOOD, "outcome": "won"}).encode(),
    json.dumps({**GOOD, "outcome": ["dead"]}).encode(),
    json.dumps({**GOOD, "cards": None}).encode(),
    json.dumps({**GOOD, "cards": 12}).encode(),
    json.dumps({**GOOD, "cards": "2S " * 200}).encode(),
    json.dumps({**GOOD, "cards": "2S\u0000"}).encode(),
    json.dumps({**GOOD, "base": True}).encode(),
    json.dumps({**GOOD, "base": 1.0}).encode(),
    json.dumps({**GOOD, "base": -1}).encode(),
    json.dumps({**GOOD, "number": 2**40}).encode(),
    json.dumps({**GOOD, "number": "1"}).encode(),
    json.dumps({k: v for k, v in GOOD.items() if k != "number"}).encode(),
    json.dumps({**GOOD, "outcome": "\ud800"}).encode(),
    *(body for body, _ in UNREADABLE.values()),
])
def test_a_bad_body_is_a_400_and_writes_nothing(client, sid, body):
    answer = post_body(client, sid, body)
    assert answer.status_code == 400 and answer.is_json and answer.json["error"]
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0


@pytest.mark.parametrize("name", UNREADABLE)
def test_json_no_database_can_store_is_a_400_saying_why(client, sid, name):
    """Half a surrogate pair made a 500 as the hand was written (neither
    database's text holds one); 100,000 [ overflowed the parser."""
    body, why = UNREADABLE[name]
    answer = post_body(client, sid, body)
    assert answer.status_code == 400
    assert why in answer.json["error"] and "Nothing was saved" in answer.json["error"]
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0


@pytest.mark.parametrize("body", [b"false", b"[1, 2]", b'{"name": 5}', b"[" * 100_000])
def test_json_sent_to_a_form_is_a_400(client, sid, body):
    """Flask-WTF reads a JSON body as a form's data: ``false`` made a 500."""
    token = csrf_token(client, f"/sessions/{sid}/players")
    answer = client.post(f"/sessions/{sid}/players", data=body,
                         headers={"X-CSRFToken": token, "Content-Type": "application/json"})
    assert answer.status_code == 400 and "takes a form, not JSON" in answer.json["error"]
    assert db.session.scalar(sa.select(sa.func.count(Seat.id))) == 4


def post_body(client, sid, body: bytes):
    token = csrf_token(client, f"/sessions/{sid}/rounds/new")
    return client.post(f"/sessions/{sid}/draft/{player_ids()['A']}", data=body,
                       headers={"X-CSRFToken": token, "Content-Type": "application/json"})


def test_a_round_number_that_is_not_the_coming_one_is_refused(client, sid):
    assert send(client, sid, "A", "dead", "2S", number=7).status_code == 409
    assert send(client, sid, "A", "dead", "2S", number=0).status_code == 409
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0


def test_a_phone_on_a_round_whose_number_moved_is_told_so(client, sid):
    services.record_round(services.Change.to(game(sid)), {n: Entry(*e) for n, e in TYPED_1.items()})
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[0])
    answer = send(client, sid, "A", "dead", "2S", number=2)
    assert answer.status_code == 409
    assert answer.get_json()["error"] == (
        "The rounds were changed on another phone: this is round 1 now.")
