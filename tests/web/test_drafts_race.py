"""Phones sending hands of a round filled in together at the same moment, over
real HTTP (werkzeug in threads; PostgreSQL when DATABASE_URL is set): of two
phones changing one hand from the same version one is kept and the other sees
it; hands of different players are all kept; a Save racing a late hand either
saves the round with the hands taken away, or is refused with nothing saved."""

import re
from functools import partial
from html import unescape

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import DraftEntry, GameSession, Player, Round
from tests.conftest import fresh_app, the_group
from tests.web.examples import EXAMPLE_RULES, TYPED_1, TYPED_2, TYPED_3
from tests.web.helpers import filled, form_values, token_in
from tests.web.phones import Phone, released_together, serving

RACES = 4


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app on a free port, with the tests' group and a session of A to D."""
    with fresh_app(tmp_path_factory.mktemp("draft-race")) as app:
        with app.app_context():
            game = services.start_session(services.Change(the_group()), list("ABCD"), EXAMPLE_RULES,
                                          first_dealer="D")
            session_id = game.id
            ids = {p.name: p.id for p in db.session.scalars(sa.select(Player))}
        with serving(app) as port:
            yield app, port, session_id, ids


def send(phone: Phone, path: str, token: str, body: dict) -> tuple[int, dict]:
    """A hand sent as together.js sends it: (status, the JSON answer)."""
    return phone.send_json(path, token, body)


def phones_on(port: int, session_id: int, n: int) -> list[tuple[Phone, str]]:
    """n phones signed in, each with the CSRF token of its round form."""
    found = []
    for i in range(n):
        phone = Phone(port, f"Phone {i + 1}").sign_in()
        _, _, page = phone.request("GET", f"/sessions/{session_id}/rounds/new")
        found.append((phone, token_in(page)))
    return found


def hands(app, session_id) -> dict[int, tuple[str, int, str]]:
    with app.app_context():
        return {row.player_id: (row.cards, row.version, row.device) for row in db.session.scalars(
            sa.select(DraftEntry).where(DraftEntry.session_id == session_id))}


def coming_number(app, session_id) -> int:
    with app.app_context():
        return 1 + db.session.scalar(sa.select(sa.func.count(Round.id))
                                     .where(Round.session_id == session_id))


def test_phones_changing_one_hand_at_once_keep_one_and_show_it(served):
    app, port, session_id, ids = served
    phones = phones_on(port, session_id, 3)
    path = f"/sessions/{session_id}/draft/{ids['A']}"
    for race in range(RACES):
        base = hands(app, session_id).get(ids["A"], ("", 0, ""))[1]
        number = coming_number(app, session_id)
        answers = released_together([
            partial(send, phone, path, token, {"outcome": "dead", "cards": f"{i + 2}S {race + 2}H",
                                               "base": base, "number": number})
            for i, (phone, token) in enumerate(phones)])
        assert sorted(status for status, _ in answers) == [200, 409, 409]
        (kept,) = [body["hand"] for status, body in answers if status == 200]
        for status, body in answers:
            if status == 409:
                assert body["hand"] == kept  # the later phones see what was kept
        assert hands(app, session_id)[ids["A"]] == (kept["cards"], base + 1, kept["phone"])


def test_hands_of_different_players_at_once_are_all_kept(served):
    app, port, session_id, ids = served
    phones = phones_on(port, session_id, 4)
    with app.app_context():
        drafts = db.session.get(GameSession, session_id).draft_version
    number = coming_number(app, session_id)
    known = hands(app, session_id)
    answers = released_together([
        partial(send, phone, f"/sessions/{session_id}/draft/{ids[name]}", token,
                {"outcome": TYPED_1[name][0], "cards": TYPED_1[name][1],
                 "base": known.get(ids[name], ("", 0, ""))[1], "number": number})
        for (phone, token), name in zip(phones, "ABCD", strict=True)])
    assert [status for status, _ in answers] == [200] * 4
    assert {pid: cards for pid, (cards, _, _) in hands(app, session_id).items()} == {
        ids[name]: TYPED_1[name][1] for name in "ABCD"}
    with app.app_context():
        assert db.session.get(GameSession, session_id).draft_version == drafts + 4
    assert max(body["state"]["draft"] for _, body in answers) == drafts + 4


def test_a_save_racing_a_late_hand_never_loses_it(served):
    app, port, session_id, ids = served
    (saver, _), (late, token) = phones_on(port, session_id, 2)
    form_path = f"/sessions/{session_id}/rounds/new"
    for race in range(RACES):
        number = coming_number(app, session_id)
        _, _, page = saver.request("GET", form_path)
        names = {i: n for n, i in ids.items()}
        # Each round another game: the same twice asks first.
        fields = filled(page, (TYPED_1, TYPED_2, TYPED_3)[race % 3], names)
        base = hands(app, session_id).get(ids["C"], ("", 0, ""))[1]
        late_cards = f"{race + 5}D"  # differs from what the form holds for C
        saved, sent = released_together([
            partial(saver.request, "POST", form_path, fields),
            partial(send, late, f"/sessions/{session_id}/draft/{ids['C']}", token,
                    {"outcome": "dead", "cards": late_cards, "base": base, "number": number})])
        if saved[0] in (302, 303):  # the round first: the late hand is refused
            assert sent[0] == 409 and sent[1]["state"]["number"] == number + 1
            assert hands(app, session_id) == {}
        else:  # the hand first: the form is shown again with it
            assert saved[0] == 409 and sent[0] == 200
            assert coming_number(app, session_id) == number
            shown = unescape(saved[2])
            assert re.search(rf'value="{late_cards}"', shown)
            again = form_values(shown)
            assert saver.request("POST", form_path, again)[0] in (302, 303)
            assert hands(app, session_id) == {}
        assert coming_number(app, session_id) == number + 1
