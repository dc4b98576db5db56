"""Every change a phone makes carries a key made with its form, applied at
most once: the same POST twice (a double tap, a retry after a timeout) makes
one change, and the repeat gets the first one's answer; twice at the same
moment over real HTTP too, on several gunicorn workers."""


import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, ChangeKey, GameSession, Player, Round
from tests.conftest import signed_in_client, the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_RULES, TYPED_1, TYPED_2, TYPED_3
from tests.web.helpers import filled, forms_on, send_hand, text
from tests.web.phones import SAVED, Gunicorn, Phone, released_together


def game(session_id: int) -> GameSession:
    db.session.expire_all()
    return db.session.get(GameSession, session_id)


def record(session_id: int, *rounds: dict) -> None:
    for entries in rounds:
        services.record_round(game(session_id), entries)


def pid(name: str) -> int:
    return db.session.scalar(sa.select(Player.id).where(Player.name == name))


def events(action: str | None = None) -> int:
    query = sa.select(sa.func.count(AuditEvent.id))
    if action is not None:
        query = query.where(AuditEvent.action == action)
    return db.session.scalar(query)


def form_of_html(html: str, action: str) -> dict[str, str]:
    """What a browser posts from the page's first form that posts to ``action``."""
    form = next(f for f in forms_on(html, action) if f.action == action)
    return {name: values[0] for name, values in form.values.items()}


# Each kind of change: made ready (the session's id given), then its page, the
# form's action, what is typed, and the audit action it writes.


def new_round(sid):
    return f"/sessions/{sid}/rounds/new", f"/sessions/{sid}/rounds/new", TYPED_1, "round.add"


def edited_round(sid):
    record(sid, EXAMPLE_1)
    return f"/sessions/{sid}/rounds/1/edit", f"/sessions/{sid}/rounds/1/edit", TYPED_2, \
        "round.edit"


def deleted_round(sid):
    record(sid, EXAMPLE_1, EXAMPLE_2)
    return f"/sessions/{sid}/rounds/1", f"/sessions/{sid}/rounds/1/delete", {}, "round.delete"


def restored_round(sid):
    record(sid, EXAMPLE_1, EXAMPLE_2)
    services.delete_round(game(sid).rounds[0])
    deletion = db.session.scalar(sa.select(AuditEvent.id).where(
        AuditEvent.action == "round.delete"))
    return f"/sessions/{sid}/changes", f"/sessions/{sid}/changes/{deletion}/restore", {}, \
        "round.restore"


def payment_marked(sid):
    record(sid, EXAMPLE_1)
    return f"/sessions/{sid}/settle", f"/sessions/{sid}/settle/paid", {}, "payment.paid"


def payment_unmarked(sid):
    record(sid, EXAMPLE_1)
    (first, *_) = services.settlement(game(sid))
    services.set_paid(game(sid), first.transfer.payer.id, first.transfer.payee.id,
                      first.transfer.cents, True)
    return f"/sessions/{sid}/settle", f"/sessions/{sid}/settle/paid", {}, "payment.unpaid"


def player_joins(sid):
    return f"/sessions/{sid}/players", f"/sessions/{sid}/players", {"name": "Eve"}, "seat.join"


def player_leaves(sid):
    services.join_session(game(sid), "Eve", 4)
    return f"/sessions/{sid}/players", f"/sessions/{sid}/players/{pid('Eve')}/leave", {}, \
        "seat.leave"


def rules_changed(sid):
    return f"/sessions/{sid}/rules", f"/sessions/{sid}/rules", {"currency": "SGD"}, \
        "session.rules"


def session_started(sid):
    return "/sessions/new", "/sessions/new", {}, "session.start"


def session_ended(sid):
    return f"/sessions/{sid}/settle", f"/sessions/{sid}/end", {}, "session.end"


def session_reopened(sid):
    services.end_session(game(sid))
    return f"/sessions/{sid}", f"/sessions/{sid}/reopen", {}, "session.reopen"


KINDS = [new_round, edited_round, deleted_round, restored_round, payment_marked,
         payment_unmarked, player_joins, player_leaves, rules_changed, session_started,
         session_ended, session_reopened]


def typed(client, page: str, action: str, typing: dict) -> dict[str, str]:
    """What a browser posts from the form of ``page`` that posts to ``action``,
    with ``typing`` typed in: a round's entries ({name: (outcome, cards)}), or fields."""
    response = client.get(page)
    assert response.status_code == 200, page
    if typing and all(isinstance(value, tuple) for value in typing.values()):
        return filled(response.text, typing)
    return form_of_html(response.text, action) | typing


@pytest.fixture
def sid(table):
    return table.id


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_the_same_post_twice_makes_one_change_and_the_same_answer(client, sid, kind):
    page, action, typing, audited = kind(sid)
    fields = typed(client, page, action, typing)
    assert fields.get("key"), "the form carries a key"
    before = events(audited)
    first = client.post(action, data=fields)
    assert first.status_code in SAVED, text(first)
    assert events(audited) == before + 1
    written = events()
    again = client.post(action, data=fields)
    assert (again.status_code, again.location) == (first.status_code, first.location)
    assert (events(audited), events()) == (before + 1, written)
    assert db.session.scalar(sa.select(sa.func.count(ChangeKey.id))) == 1


def test_every_form_that_changes_a_session_has_a_key_of_its_own(client, sid):
    record(sid, EXAMPLE_1)
    keys = []
    for page in (f"/sessions/{sid}/settle", f"/sessions/{sid}/players",
                 f"/sessions/{sid}/rounds/1", f"/sessions/{sid}/rounds/new",
                 f"/sessions/{sid}/rules", "/sessions/new"):
        forms = [f for f in forms_on(client.get(page).text, page)
                 if not f.action.endswith("/phone")]
        assert forms, page
        for form in forms:
            assert "key" in form.values, form.action
            keys += form.values["key"]
    assert len(set(keys)) == len(keys)
    assert all(16 <= len(key) <= 64 for key in keys)


def test_a_form_shown_again_after_a_refusal_has_a_new_key(client, sid):
    page = f"/sessions/{sid}/rounds/new"
    fields = filled(client.get(page).text, {**TYPED_1, "A": ("dead", "ZZ")})
    refused = client.post(page, data=fields)
    assert refused.status_code == 200 and "ZZ" in refused.text
    shown = form_of_html(refused.text, page)
    assert shown["key"] and shown["key"] != fields["key"]
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0
    # The refused key was applied to nothing: sent again with the round put right, it saves.
    saved = client.post(page, data=filled(client.get(page).text, TYPED_1) | {"key": fields["key"]})
    assert saved.status_code in SAVED
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 1


def test_a_repeat_refused_on_its_way_gets_the_first_answer(client, sid):
    """Deleting round 1 twice: the repeat's page is out of date by then (a
    conflict), yet it answers as the first did and deletes nothing more."""
    page, action, _, _ = deleted_round(sid)
    fields = typed(client, page, action, {})
    first = client.post(action, data=fields)
    again = client.post(action, data=fields)
    assert (again.status_code, again.location) == (first.status_code, first.location)
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 1


def test_a_post_without_a_key_is_applied_as_before(client, sid):
    page, action, typing, _ = player_joins(sid)
    fields = typed(client, page, action, typing)
    del fields["key"]
    assert client.post(action, data=fields).status_code in SAVED
    assert events("seat.join") == 1
    assert db.session.scalar(sa.select(sa.func.count(ChangeKey.id))) == 0


@pytest.mark.parametrize("key", ["", "short", "x" * 65, "has space in it..", "ünïcödé-key-ünïcödé",
                                 "semi;colon;is;not;allowed"])
def test_a_key_that_is_not_one_is_a_400_and_changes_nothing(client, sid, key):
    page, action, typing, _ = player_joins(sid)
    fields = typed(client, page, action, typing) | {"key": key}
    before = events()
    response = client.post(action, data=fields)
    assert response.status_code == 400
    assert events() == before


@pytest.mark.parametrize("key", ["", "short", 12345678901234567890, ["a-list-of-keys-1234"],
                                 {"a": "document"}])
def test_a_hand_with_a_key_that_is_not_one_is_a_400(client, sid, key):
    response = send_hand(client, sid, pid("A"), "dead", "JK 7H", key=key)
    assert response.status_code == 400
    assert "key" in response.json["error"]


def test_a_key_is_bound_to_its_group(app, client, group):
    """Another group sending a key this group used makes its own change, and
    learns nothing of this group's. (No app context held across the requests:
    each client's page has its own CSRF token.)"""
    with app.app_context():
        sid = services.start_session(the_group(), list("ABCD"), EXAMPLE_RULES).id
        theirs = services.create_group("Another table", "another passphrase")
        other_sid = services.start_session(theirs, list("WXYZ"), EXAMPLE_RULES).id
        other = signed_in_client(app, theirs)
    ours = f"/sessions/{sid}/players"
    fields = typed(client, ours, ours, {"name": "Eve"})
    assert client.post(ours, data=fields).status_code in SAVED
    path = f"/sessions/{other_sid}/players"
    answer = other.post(path, data=typed(other, path, path, {"name": "Eve"})
                        | {"key": fields["key"]})
    assert (answer.status_code, answer.location) == (302, f"/sessions/{other_sid}")
    assert other.post(ours, data=fields).status_code == 404  # nor can it replay ours
    with app.app_context():
        assert events("seat.join") == 2
        assert db.session.scalar(sa.select(sa.func.count(ChangeKey.id))) == 2


def test_a_hand_sent_twice_gets_the_first_answer_even_once_it_saved_the_round(client, sid):
    """The last hand in saves the round (the group's autosave): its repeat
    would find the round gone, yet gets the first answer, saying so."""
    services.set_autosave_rounds(the_group(), True)
    hands = {name: (entry.outcome, entry.cards) for name, entry in EXAMPLE_1.items()}
    for name in "ABC":
        assert send_hand(client, sid, pid(name), *hands[name]).status_code == 200
    first = send_hand(client, sid, pid("D"), *hands["D"], key="the-last-hand-in-0001")
    assert first.status_code == 200 and first.json["recorded"]["number"] == 1
    again = send_hand(client, sid, pid("D"), *hands["D"], key="the-last-hand-in-0001")
    assert (again.status_code, again.json) == (200, first.json)
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 1


def test_a_hand_sent_twice_after_another_phone_changed_it_gets_the_first_answer(client, sid):
    first = send_hand(client, sid, pid("A"), "dead", "JK 7H", key="a-hand-of-ann-00001")
    assert first.status_code == 200
    changed = send_hand(client, sid, pid("A"), "dead", "7H", base=1)  # another phone
    assert changed.status_code == 200
    again = send_hand(client, sid, pid("A"), "dead", "JK 7H", key="a-hand-of-ann-00001")
    assert (again.status_code, again.json) == (200, first.json)
    assert db.session.scalar(sa.select(sa.func.count(ChangeKey.id))) == 1


def test_services_roll_a_repeat_back_whole(sid):
    """The key written last in the change's transaction: a repeat that gets
    as far is rolled back, and told what the first answered."""
    once = services.Once("service-level-key-01", lambda number: {"redirect": f"/r/{number}"})
    services.record_round(game(sid), EXAMPLE_1, once=once)
    with pytest.raises(services.Repeated) as repeated:
        services.record_round(game(sid), EXAMPLE_1, once=once)
    assert repeated.value.answer == {"redirect": "/r/1"}
    assert [r.number for r in game(sid).rounds] == [1]
    started = services.Once("service-level-key-02", lambda s: {"redirect": f"/s/{s.id}"})
    services.start_session(the_group(), list("ABCD"), EXAMPLE_RULES, once=started)
    with pytest.raises(services.Repeated):
        services.start_session(the_group(), list("ABCD"), EXAMPLE_RULES, once=started)
    assert db.session.scalar(sa.select(sa.func.count(GameSession.id))) == 2


# At the same moment, over real HTTP


def at_once(phone: Phone, path: str, fields: dict, times: int) -> list[tuple]:
    """The same POST from ``phone``, ``times`` at once: their (status, Location, body)."""
    return released_together([lambda: phone.request("POST", path, fields)] * times)


def test_the_same_round_sent_at_once_to_several_workers_is_saved_once(app, group, tmp_path):
    with app.app_context():
        game_id = services.start_session(the_group(), list("ABCD"), EXAMPLE_RULES,
                                         first_dealer="D").id
    with Gunicorn(app, tmp_path, workers=3) as server:
        phone = Phone(server.port, "Mei's phone").sign_in()
        path = f"/sessions/{game_id}/rounds/new"
        for race in range(1, 4):
            _, _, page = phone.request("GET", path)
            with app.app_context():  # each round another game: the same twice asks first
                fields = filled(page, (TYPED_1, TYPED_2, TYPED_3)[race - 1])
            answers = at_once(phone, path, fields, 4)
            assert {(status, location) for status, location, _ in answers} == {
                (302, f"/sessions/{game_id}/rounds/{race}")}, [a[:2] for a in answers]
            with app.app_context():
                assert db.session.scalar(sa.select(sa.func.count(Round.id))) == race
                assert events("round.add") == race
        # Joining, a change that no version guards the same way: once too.
        _, _, page = phone.request("GET", f"/sessions/{game_id}/players")
        fields = form_of_html(page, f"/sessions/{game_id}/players") | {"name": "Eve"}
        answers = at_once(phone, f"/sessions/{game_id}/players", fields, 4)
        assert {(status, location) for status, location, _ in answers} == {
            (302, f"/sessions/{game_id}")}
        with app.app_context():
            assert events("seat.join") == 1
