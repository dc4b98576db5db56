"""The names the app gives a phone ("Shared phone" for nobody's, "Ben's
phone" for Ben's) in the reader's language (issue 27): stored as ever, in
English, and worded where shown, so the rows already stored read right too."""

import re

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import HouseRules
from tests.web.helpers import csrf_token, visible_text
from tests.web.test_invites import make_invite, phones_cookie

pytestmark = pytest.mark.any_database

WORDS = {"zh-Hans": ("共用手机", "Ben 的手机"), "ms": ("telefon dikongsi", "telefon Ben")}
DEVICE = re.compile(r'<input[^>]*name="device"[^>]*value="([^"]*)"')


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def choose(client, player: str):
    answer = client.post("/group/phone", data={"csrf_token": csrf_token(client, "/"),
                                               "player": player})
    assert answer.status_code == 302


def test_a_shared_phone_is_named_in_the_reader_s_language_and_stored_as_ever(app, client):
    choose(client, "nobody")
    assert phones_cookie(client)[1] == "Shared phone"
    make_invite(client)  # the link's row names the phone that made it
    for tag, (shared, _) in WORDS.items():
        page = in_language(client, tag).get("/group")
        assert shared in visible_text(page) and "Shared phone" not in page.text
        assert DEVICE.search(page.text).group(1) == shared  # its name, to change
        # Left as shown, the name stays the one stored; typed anew, it is the typed one.
        kept = client.post("/group/device", data={"csrf_token": csrf_token(client, "/group"),
                                                  "device": shared})
        assert kept.status_code == 302 and phones_cookie(client)[1] == "Shared phone"
    client.post("/group/device", data={"csrf_token": csrf_token(client, "/group"),
                                       "device": "Mei"})
    assert phones_cookie(client)[1] == "Mei"


def test_stored_names_of_phones_read_in_the_reader_s_language_in_the_history(app, group, client):
    """Rows as every version has stored them: "Shared phone", "Ben's phone"."""
    with app.app_context():
        started = services.start_session(services.Change(group, device="Shared phone"),
                                         ["Ann", "Ben", "Cat"], HouseRules.rummi(),
                                         first_dealer="Ann")
        services.end_session(services.Change.to(started, device="Ben's phone"))
        session_id = db.session.scalar(sa.select(GameSession.id))
    for tag, (shared, ben_s) in WORDS.items():
        page = in_language(client, tag).get(f"/sessions/{session_id}/changes")
        assert page.status_code == 200
        shown = visible_text(page)
        assert shared in shown and ben_s in shown
        assert "Shared phone" not in shown and "Ben's phone" not in shown
    english = visible_text(in_language(client, "en").get(f"/sessions/{session_id}/changes"))
    assert "Shared phone" in english and "Ben's phone" in english


def test_a_player_s_phone_is_named_in_the_reader_s_language_where_it_is_shown(app, client):
    with app.app_context():
        services.start_session(services.Change(services.find_group("Friday table")),
                               ["Ann", "Ben", "Cat"], HouseRules.rummi(), first_dealer="Ann")
    ben = next(value for value in re.findall(r'name="player" value="(\d+)"',
                                            client.get("/").text))
    choose(client, ben)
    label = phones_cookie(client)[1]
    assert label.endswith("'s phone")
    owner = label.removesuffix("'s phone")
    make_invite(client)
    page = in_language(client, "zh-Hans").get("/group")
    assert f"{owner} 的手机" in visible_text(page) and label not in page.text
