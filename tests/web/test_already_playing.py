"""A new session whose players sit at a session still open asks first
(issue 26): "As last time" while last time's session runs is one tap, and
made a second session of the same table. The question names the session
and the players in both; "Start another anyway" starts it all the same."""

import re

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession
from scorekeeper.rules import HouseRules
from tests.conftest import the_group
from tests.web.helpers import form_values, forms_on, parsed, visible_text


def start(app, names, ended=False) -> int:
    with app.app_context():
        session = services.start_session(services.Change(the_group()), list(names),
                                         HouseRules.penang(), first_dealer=names[0])
        if ended:
            services.end_session(services.Change.to(session))
        return session.id


def sessions() -> int:
    return db.session.scalar(sa.select(sa.func.count(GameSession.id)))


def as_last_time(client, **typed) -> dict[str, str]:
    """The new-session form as it opens ("As last time"), ``typed`` typed over it."""
    return form_values(client.get("/sessions/new").text, "/sessions/new") | typed


def test_one_tap_on_as_last_time_while_it_runs_starts_nothing_and_asks(app, client):
    running = start(app, ("Ann", "Ben", "Cat", "Dan"))
    fields = as_last_time(client)
    assert [fields[f"seats-{i}"] for i in range(4)] == ["Ann", "Ben", "Cat", "Dan"]
    asked = client.post("/sessions/new", data=fields)
    assert asked.status_code == 200
    with app.app_context():
        assert sessions() == 1
        assert db.session.scalar(sa.select(sa.func.count(AuditEvent.id)).where(
            AuditEvent.action == "session.start")) == 1
    (box,) = parsed(asked).select("section.new-busy")
    assert box.attrs["role"] == "alert"
    words = " ".join(box.text.split())
    assert "Already playing: nothing was started" in words
    assert re.search(r"The session started \w{3} \d{1,2} \w{3}, \d\d:\d\d is still open, "
                     r"with Ann, Ben, Cat, Dan\. In both: Ann, Ben, Cat, Dan\.", words)
    assert [a.attrs["href"] for a in box.select("a")] == [f"/sessions/{running}"]
    # The form comes back as typed, with the second tap in it.
    (form,) = [f for f in forms_on(asked.text) if f.action == "/sessions/new"]
    assert form.values["seats-0"] == ["Ann"] and form.values["preset"] == ["last"]
    assert form.buttons["alongside"] == {str(running)}

    again = client.post("/sessions/new", data=form_values(asked.text, "/sessions/new")
                        | {"alongside": str(running)})
    assert again.status_code == 302
    with app.app_context():
        new = db.session.scalar(sa.select(GameSession).order_by(GameSession.id.desc()))
        assert again.location == f"/sessions/{new.id}" and new.id != running
        assert [s.player.name for s in new.seats] == ["Ann", "Ben", "Cat", "Dan"]


def test_the_question_names_only_the_players_in_both(app, client):
    first = start(app, ("Ann", "Ben"))
    second = start(app, ("Cat", "Dan", "Eve"))
    start(app, ("Fay", "Gus"), ended=True)  # over: no one sits there now
    asked = client.post("/sessions/new", data=as_last_time(
        client, **{"seats-0": "ann", "seats-1": "Dan", "seats-2": "Fay", "seats-3": "Hal"}))
    assert asked.status_code == 200
    words = visible_text(asked)
    # The latest started first, each with its own players in both.
    assert re.search(r"is still open, with Cat, Dan, Eve\. In both: Dan ?\. Open that session "
                     r"The session started \w{3} \d{1,2} \w{3}, \d\d:\d\d is still open, "
                     r"with Ann, Ben\. In both: Ann ?\.",
                     words), words
    assert "Fay" not in words[words.index("Already playing"):words.index("Start another")]
    (form,) = [f for f in forms_on(asked.text) if f.action == "/sessions/new"]
    assert form.buttons["alongside"] == {f"{first} {second}"}
    with app.app_context():
        assert sessions() == 3


def test_a_table_nobody_of_which_plays_now_starts_at_once(app, client):
    start(app, ("Ann", "Ben"))
    start(app, ("Cat", "Dan"), ended=True)
    left = start(app, ("Eve", "Fay", "Gus"))
    with app.app_context():
        game = db.session.get(GameSession, left)
        services.leave_session(services.Change.to(game), game.seats[0].player_id)
    response = client.post("/sessions/new", data=as_last_time(
        client, **{"seats-0": "Cat", "seats-1": "Dan", "seats-2": "Eve", "seats-3": ""}))
    assert response.status_code == 302
    with app.app_context():
        assert sessions() == 4


def test_starting_beside_other_sessions_than_those_asked_about_asks_again(app, client):
    """The second tap names the sessions it was asked about: a session
    started meanwhile with the same players (or a value that names none)
    asks again rather than starting a third table."""
    first = start(app, ("Ann", "Ben"))
    fields = as_last_time(client, **{"seats-0": "Ann", "seats-1": "Ben"})
    start(app, ("Ben", "Cat"))  # another phone, meanwhile
    for alongside in (str(first), "", "x1", "99999999999"):
        asked = client.post("/sessions/new", data=fields | {"alongside": alongside})
        assert asked.status_code == 200 and "Already playing" in asked.text, alongside
    with app.app_context():
        assert sessions() == 2


def test_the_service_refuses_unless_told_which_sessions_to_play_beside(app):
    """start_session(alongside=...) as the view calls it; None (a test, demo
    play) starts whoever plays elsewhere."""
    first = start(app, ("Ann", "Ben", "Cat"))
    with app.app_context():
        change = services.Change(the_group())
        with pytest.raises(services.AlreadyPlaying,
                           match=r"^Ann and Ben are playing at a session still open$") as refused:
            services.start_session(change, ["ann", "Ben", "Dan"], HouseRules.penang(),
                                   alongside=())
        assert refused.value.ids == {first}
        assert [(t.players, t.shared) for t in refused.value.tables] == [
            (["Ann", "Ben", "Cat"], ["Ann", "Ben"])]
        assert sessions() == 1
        services.start_session(change, ["Ann", "Dan"], HouseRules.penang(), alongside={first})
        services.start_session(change, ["Ann", "Dan"], HouseRules.penang())
        assert sessions() == 3
