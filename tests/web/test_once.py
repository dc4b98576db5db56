"""Every change a phone makes carries a key made with its form, applied at
most once: the same POST twice (a double tap, a retry after a timeout) makes
one change, and the repeat gets the first one's answer; twice at the same
moment over real HTTP too, on several gunicorn workers."""


import re
import secrets
from datetime import UTC, timedelta

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.limits import CLOCK_SLACK, KEY_DAYS, KEY_LIFE
from scorekeeper.models import (
    AuditEvent,
    ChangeKey,
    DraftEntry,
    GameSession,
    Invite,
    Player,
    Round,
    utcnow,
)
from scorekeeper.services import protocol
from scorekeeper.services.protocol import FORGET_AT_ONCE
from scorekeeper.services.sign_ins import token_hash
from scorekeeper.web import once as web_once
from scorekeeper.web.once import KEY, new_key
from tests.conftest import signed_in_client, the_group
from tests.web.examples import (
    EXAMPLE_1,
    EXAMPLE_2,
    EXAMPLE_3,
    EXAMPLE_RULES,
    TYPED_1,
    TYPED_2,
    TYPED_3,
)
from tests.web.helpers import filled, forms_on, send_hand, text
from tests.web.phones import SAVED, Gunicorn, Phone, released_together


def game(session_id: int) -> GameSession:
    db.session.expire_all()
    return db.session.get(GameSession, session_id)


def record(session_id: int, *rounds: dict) -> None:
    for entries in rounds:
        services.record_round(services.Change.to(game(session_id)), entries)


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
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[0])
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
    services.pay(services.Change.to(game(sid)),
                 first.transfer.payer.id, first.transfer.payee.id, first.transfer.cents)
    return f"/sessions/{sid}/settle", f"/sessions/{sid}/settle/undo", {}, "payment.unpaid"


def player_joins(sid):
    return f"/sessions/{sid}/players", f"/sessions/{sid}/players", {"name": "Eve"}, "seat.join"


def player_leaves(sid):
    services.join_session(services.Change.to(game(sid)), "Eve", 4)
    return f"/sessions/{sid}/players", f"/sessions/{sid}/players/{pid('Eve')}/leave", {}, \
        "seat.leave"


def rules_changed(sid):
    return f"/sessions/{sid}/rules", f"/sessions/{sid}/rules", {"currency": "SGD"}, \
        "session.rules"


def session_started(sid):
    # As last time: the table of session sid, still open, started again beside it.
    return "/sessions/new", "/sessions/new", {"alongside": str(sid)}, "session.start"


def session_ended(sid):
    return f"/sessions/{sid}/settle", f"/sessions/{sid}/end", {}, "session.end"


def session_reopened(sid):
    services.end_session(services.Change.to(game(sid)))
    return f"/sessions/{sid}", f"/sessions/{sid}/reopen", {}, "session.reopen"


def share_link_made(sid):
    return f"/sessions/{sid}/share", f"/sessions/{sid}/share", {}, "share.create"


def invite_made(sid):
    # The group's change, not the session's (tests/web/test_invites.py: the
    # second tap is shown the link the first made).
    return "/group/invite", "/group/invite", {}, "group.invite"


KINDS = [new_round, edited_round, deleted_round, restored_round, payment_marked,
         payment_unmarked, player_joins, player_leaves, rules_changed, session_started,
         session_ended, session_reopened, share_link_made, invite_made]


def typed(client, page: str, action: str, typing: dict) -> dict[str, str]:
    """What a browser posts from the form of ``page`` that posts to ``action``,
    with ``typing`` typed in: a round's entries ({name: (outcome, cards)}), or fields."""
    response = client.get(page)
    assert response.status_code == 200, page
    if typing and all(isinstance(value, tuple) for value in typing.values()):
        return filled(response.text, typing)
    return form_of_html(response.text, action) | typing


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
                 f"/sessions/{sid}/rules", "/sessions/new", f"/sessions/{sid}/share",
                 "/group/invite"):
        forms = [f for f in forms_on(client.get(page).text, page)
                 if not f.action.endswith(("/phone", "/theme", "/language"))]
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
        sid = services.start_session(services.Change(the_group()), list("ABCD"), EXAMPLE_RULES).id
        theirs = services.create_group("Another table", "another passphrase")
        other_sid = services.start_session(services.Change(theirs), list("WXYZ"), EXAMPLE_RULES).id
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


LAST_HAND, ANNS_HAND = new_key(), new_key()


def saved_hand(answer) -> dict:
    """Of the hand a save answered with, what its repeats are told."""
    return {name: answer.json["hand"][name] for name in ("outcome", "cards", "version")}


def test_a_hand_sent_twice_gets_the_first_answer_even_once_it_saved_the_round(client, sid):
    """The last hand in saves the round (the group's autosave): its repeat
    would find the round gone, yet gets the first answer, saying so."""
    services.set_autosave_rounds(the_group(), True)
    hands = {name: (entry.outcome, entry.cards) for name, entry in EXAMPLE_1.items()}
    for name in "ABC":
        assert send_hand(client, sid, pid(name), *hands[name]).status_code == 200
    first = send_hand(client, sid, pid("D"), *hands["D"], key=LAST_HAND)
    assert first.status_code == 200 and first.json["recorded"]["number"] == 1
    again = send_hand(client, sid, pid("D"), *hands["D"], key=LAST_HAND)
    # The hand and the round it saved; the round's state is asked anew (together.js).
    assert (again.status_code, again.json) == (
        200, {"hand": saved_hand(first), "recorded": first.json["recorded"]})
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 1


def test_a_hand_sent_twice_after_another_phone_changed_it_gets_the_first_answer(client, sid):
    first = send_hand(client, sid, pid("A"), "dead", "JK 7H", key=ANNS_HAND)
    assert first.status_code == 200
    changed = send_hand(client, sid, pid("A"), "dead", "7H", base=1)  # another phone
    assert changed.status_code == 200
    again = send_hand(client, sid, pid("A"), "dead", "JK 7H", key=ANNS_HAND)
    assert (again.status_code, again.json) == (200, {"hand": saved_hand(first)})
    assert db.session.scalar(sa.select(sa.func.count(ChangeKey.id))) == 1


def test_services_roll_a_repeat_back_whole(sid):
    """The key written last in the change's transaction: a repeat that gets
    as far is rolled back, and told what the first answered."""
    once = services.Once(new_key(), utcnow(), lambda number: {"redirect": f"/r/{number}"})
    services.record_round(services.Change.to(game(sid), once=once), EXAMPLE_1)
    with pytest.raises(services.Repeated) as repeated:
        services.record_round(services.Change.to(game(sid), once=once), EXAMPLE_1)
    assert repeated.value.answer == {"redirect": "/r/1"}
    assert [r.number for r in game(sid).rounds] == [1]
    started = services.Once(new_key(), utcnow(), lambda s: {"redirect": f"/s/{s.id}"})
    services.start_session(services.Change(the_group(), once=started), list("ABCD"), EXAMPLE_RULES)
    with pytest.raises(services.Repeated):
        services.start_session(services.Change(the_group(), once=started),
                               list("ABCD"), EXAMPLE_RULES)
    assert db.session.scalar(sa.select(sa.func.count(GameSession.id))) == 2


# Keys expire


def made(days_ago: float) -> str:
    """A key as a form made ``days_ago`` days ago carries it."""
    seconds = int(utcnow().replace(tzinfo=UTC).timestamp() - days_ago * 86400)
    return f"{seconds}.{secrets.token_urlsafe(16)}"


def later(monkeypatch, days: int) -> None:
    """The app's clock, ``days`` days on: the keys it makes, takes and deletes."""
    now = utcnow()
    for module in (protocol, web_once):
        monkeypatch.setattr(module, "utcnow", lambda: now + timedelta(days=days))


def keys() -> list[str]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(ChangeKey.key).order_by(ChangeKey.id)))


def test_a_form_carries_a_key_telling_when_it_was_made(client, sid):
    before = int(utcnow().replace(tzinfo=UTC).timestamp())
    fields = typed(client, *new_round(sid)[:2], {})
    after = int(utcnow().replace(tzinfo=UTC).timestamp())
    seconds, random = fields["key"].split(".")
    assert before <= int(seconds) <= after and len(random) >= 16


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_form_older_than_keys_live_is_refused_saying_so(client, sid, kind):
    """It may have been applied when it was new, its key deleted since: it is
    not applied, and what was typed on it is shown again, on a form of now."""
    page, action, typing, _ = kind(sid)
    fields = typed(client, page, action, typing) | {"key": made(KEY_DAYS + 1)}
    written = events()
    response = client.post(action, data=fields)
    assert response.status_code == 409
    assert f"This page was opened more than {KEY_DAYS} days ago" in text(response)
    assert "nothing was saved" in text(response)
    assert (events(), keys()) == (written, [])
    shown = [f for f in forms_on(response.text, action) if f.action == action]
    if typing:  # typed: its form comes back as typed, with a key of its own
        again = {name: values[0] for name, values in shown[0].values.items()}
        assert {name: again.get(name) for name in fields if name.endswith(TYPED)} == {
            name: value for name, value in fields.items() if name.endswith(TYPED)}
        assert KEY.fullmatch(again["key"]) and again["key"] != fields["key"]


TYPED = ("-outcome", "-cards", "name", "currency")


def test_a_hand_on_a_page_too_old_is_refused_saying_so(client, sid):
    answer = send_hand(client, sid, pid("A"), "dead", "JK 7H", key=made(KEY_DAYS + 1))
    assert answer.status_code == 409
    assert f"more than {KEY_DAYS} days ago" in answer.json["error"]
    assert (db.session.scalar(sa.select(sa.func.count(DraftEntry.id))), keys()) == (0, [])


def test_a_key_made_later_than_now_is_not_one(client, sid):
    page, action, typing, _ = player_joins(sid)
    fields = typed(client, page, action, typing) | {"key": made(-1)}
    assert client.post(action, data=fields).status_code == 400
    assert events("seat.join") == 0


def test_a_change_replayed_after_its_key_was_deleted_is_refused_not_applied(
        client, sid, monkeypatch):
    """A session started (which nothing but its key stops from starting twice):
    29 days on, the same POST gets the first answer; 31 days on, its key has
    been deleted as another change wrote its own, and the POST is refused."""
    fields = typed(client, "/sessions/new", "/sessions/new", {"alongside": str(sid)})
    first = client.post("/sessions/new", data=fields)
    assert first.status_code in SAVED and events("session.start") == 2
    later(monkeypatch, 29)
    again = client.post("/sessions/new", data=fields)
    assert (again.status_code, again.location) == (first.status_code, first.location)
    later(monkeypatch, 31)
    page, action, typing, _ = player_joins(sid)
    joined = typed(client, page, action, typing)
    assert client.post(action, data=joined).status_code in SAVED
    assert keys() == [joined["key"]]  # the start's key was deleted as this one was written
    replayed = client.post("/sessions/new", data=fields)
    assert replayed.status_code == 409 and f"more than {KEY_DAYS} days ago" in text(replayed)
    assert events("session.start") == 2


def test_old_keys_are_deleted_a_few_at_each_key_written(sid):
    """Found by their index on made_at; a key refused on this server but
    perhaps taken yet on another (whose clock is behind) is kept a while."""
    now, group_id = utcnow(), game(sid).group_id
    gone = now - KEY_LIFE - CLOCK_SLACK
    db.session.execute(sa.insert(ChangeKey), [
        {"group_id": group_id, "key": made(40), "answer": {"redirect": "/"},
         "made_at": gone - timedelta(minutes=n)} for n in range(1, 46)])
    db.session.execute(sa.insert(ChangeKey).values(
        group_id=group_id, key="1.refused-here-but-not-everywhere", answer={"redirect": "/"},
        made_at=gone + timedelta(minutes=10)))
    db.session.commit()
    left = []
    for entries in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3):
        services.record_round(services.Change.to(game(sid), once=services.Once(
            new_key(), utcnow(), lambda _: {"redirect": "/"})), entries)
        old = db.session.scalar(sa.select(sa.func.count(ChangeKey.id)).where(
            ChangeKey.made_at < gone))
        left.append(old)
    assert left == [45 - FORGET_AT_ONCE, 45 - 2 * FORGET_AT_ONCE, 0]
    assert "1.refused-here-but-not-everywhere" in keys()
    assert len(keys()) == 1 + 3


def test_a_key_from_before_keys_told_their_time(client, sid):
    """Keys written before migration 0013 carry no time: a repeat is still
    answered as the first while its row is kept; any other is too old."""
    page, action, typing, _ = player_joins(sid)
    db.session.add(ChangeKey(group_id=game(sid).group_id, key="an-untimed-key-00001",
                             answer={"redirect": f"/sessions/{sid}"}, made_at=utcnow()))
    db.session.commit()
    fields = typed(client, page, action, typing)
    repeat = client.post(action, data=fields | {"key": "an-untimed-key-00001"})
    assert (repeat.status_code, repeat.location) == (302, f"/sessions/{sid}")
    other = client.post(action, data=fields | {"key": "another-untimed-key"})
    assert other.status_code == 409 and f"more than {KEY_DAYS} days ago" in text(other)
    assert events("seat.join") == 0


def test_a_key_keeps_a_small_answer_however_full_the_round(client, sid):
    """A hand's key kept the whole round as the phones see it (about 1 KB
    with four hands in): now the hand alone, what a repeat is told."""
    long = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH"
    for name in "ABC":
        assert send_hand(client, sid, pid(name), "dead", long).status_code == 200
    key = new_key()
    assert send_hand(client, sid, pid("D"), "dead", "JK 7H", key=key).status_code == 200
    answer = db.session.scalar(sa.select(ChangeKey.answer).where(ChangeKey.key == key))
    assert answer == {"status": 200, "json": {"hand": {"outcome": "dead", "cards": "JK 7H",
                                                       "version": 1}}}
    page, action, typing, _ = new_round(sid)
    fields = typed(client, page, action, typing)
    assert client.post(action, data=fields).status_code in SAVED
    answer = db.session.scalar(sa.select(ChangeKey.answer).where(ChangeKey.key == fields["key"]))
    assert answer == {"redirect": f"/sessions/{sid}/rounds/1"}


def test_a_key_takes_a_few_hundred_bytes_of_the_database(app, sid):
    """The row and its three indexes' entries, measured over a thousand keys
    shaped as a hand's (the larger answer): README, "Never twice"."""
    group_id = game(sid).group_id
    shape = {"group_id": group_id, "session_id": sid, "made_at": utcnow(),
             "answer": {"status": 200, "json": {"hand": {"outcome": "dead",
                                                         "cards": "2C 5D 9H 3S", "version": 2}}}}
    before = stored_bytes()
    db.session.execute(sa.insert(ChangeKey), [shape | {"key": new_key()} for _ in range(1000)])
    db.session.commit()
    assert (stored_bytes() - before) / 1000 < 400


def stored_bytes() -> int:
    """The change_key table's bytes with its indexes'."""
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(sa.text("VACUUM change_key"))
            return connection.scalar(sa.text("SELECT pg_total_relation_size('change_key')"))
    return db.session.scalar(sa.text(
        "SELECT SUM(pgsize) FROM dbstat WHERE name = 'change_key' OR name IN "
        "(SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'change_key')"))


# At the same moment, over real HTTP


def at_once(phone: Phone, path: str, fields: dict, times: int) -> list[tuple]:
    """The same POST from ``phone``, ``times`` at once: their (status, Location, body)."""
    return released_together([lambda: phone.request("POST", path, fields)] * times)


def test_the_same_round_sent_at_once_to_several_workers_is_saved_once(app, group, tmp_path):
    with app.app_context():
        game_id = services.start_session(services.Change(the_group()), list("ABCD"), EXAMPLE_RULES,
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
        # "Make a link" tapped at once: a share link, an invite link, once each;
        # every answer shows the one invite link made.
        for path, made in ((f"/sessions/{game_id}/share", "share.create"),
                           ("/group/invite", "group.invite")):
            _, _, page = phone.request("GET", path)
            answers = at_once(phone, path, form_of_html(page, path), 4)
            assert {(status, location) for status, location, _ in answers} == {(302, path)}
            with app.app_context():
                assert events(made) == 1
        shown = set(re.findall(r"/join/([\w-]+)", phone.request("GET", "/group/invite")[2]))
        with app.app_context():
            (made,) = db.session.scalars(sa.select(Invite.token_hash))
        assert [token_hash(token) for token in shown] == [made]
