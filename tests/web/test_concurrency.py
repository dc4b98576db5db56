"""Two phones saving the same round at the same moment, over real HTTP: the app
served by werkzeug in threads, on SQLite, or on PostgreSQL when DATABASE_URL is
set. Of two saves made on the same version of a session exactly one is kept;
the other phone gets the conflict page (409) with its typed cards kept."""

import re
from html import unescape

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Group, Player, Round, RoundEntry
from scorekeeper.rules import format_cards, parse_cards
from tests.conftest import (
    fresh_app,
    signed_in_client,
    the_group,
)
from tests.web.examples import EXAMPLE_1, EXAMPLE_RULES, TYPED_1, TYPED_2, TYPED_3
from tests.web.helpers import filled, form_values
from tests.web.phones import SAVED, Phone, released_together, serving

RACES = 5


def round_form(phone: Phone, path: str, entries: dict, names: dict[int, str]) -> dict:
    """The round form of the page at ``path``, filled with ``entries``
    ({player name: (outcome, cards)}) as the phone's owner would type them."""
    status, _, page = phone.request("GET", path)
    assert status == 200, status
    return filled(page, entries, names)


def at_once(posts):
    """Send the (phone, path, fields) posts at the same moment; their answers,
    in the same order."""
    return released_together([lambda p=p: p[0].request("POST", p[1], p[2]) for p in posts])


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app on a free port, with the tests' group and a session of players A to D."""
    with fresh_app(tmp_path_factory.mktemp("race")) as app:
        with app.app_context():
            game = services.start_session(services.Change(the_group()), list("ABCD"), EXAMPLE_RULES,
                                          first_dealer="D")
            session_id = game.id
            names = {p.id: p.name for p in db.session.scalars(sa.select(Player))}
        with serving(app) as port:
            yield app, port, session_id, names


def audit_count(app, action: str) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count(AuditEvent.id))
                                 .where(AuditEvent.action == action))


def round_rows(app, session_id: int) -> list[tuple[int, int, int]]:
    """(number, money summed, entries) of each round of the session."""
    with app.app_context():
        return db.session.execute(
            sa.select(Round.number, sa.func.sum(RoundEntry.net_cents), sa.func.count())
            .join(RoundEntry).where(Round.session_id == session_id)
            .group_by(Round.id, Round.number).order_by(Round.number)).all()


def typed_cards(fields: dict) -> list[str]:
    return [v for k, v in fields.items() if k.endswith("-cards") and v]


def assert_conflict_page(page: str, winner: str, fields: dict):
    """The loser's page names the phone that saved, and keeps what was typed."""
    text = unescape(page)
    assert winner in text
    for cards in typed_cards(fields):
        assert f'value="{cards}"' in text, cards


def test_two_phones_saving_the_same_new_round_keep_exactly_one(served):
    app, port, session_id, names = served
    one, two = Phone(port, "Phone One").sign_in(), Phone(port, "Phone Two").sign_in()
    path = f"/sessions/{session_id}/rounds/new"
    last = None
    for race in range(RACES):
        # Two games, each other than the round before (the same again asks first).
        games = [typed for typed in (TYPED_1, TYPED_2, TYPED_3) if typed is not last]
        posts = [(one, path, round_form(one, path, games[0], names)),
                 (two, path, round_form(two, path, games[1], names))]
        assert posts[0][2]["version"] == posts[1][2]["version"]
        answers = at_once(posts)
        statuses = sorted(status for status, _, _ in answers)
        assert statuses in ([302, 409], [303, 409]), statuses
        won = 0 if answers[0][0] in SAVED else 1
        winner, loser = posts[won][0], posts[1 - won][0]
        last = games[won]
        assert_conflict_page(answers[1 - won][2], winner.label, posts[1 - won][2])
        rounds = round_rows(app, session_id)
        assert [number for number, _, _ in rounds] == list(range(1, race + 2))
        assert all(total == 0 and entries == 4 for _, total, entries in rounds)
        assert audit_count(app, "round.add") == race + 1
        with app.app_context():
            latest = db.session.scalar(sa.select(AuditEvent).where(
                AuditEvent.action == "round.add").order_by(AuditEvent.id.desc()))
            assert latest.device == winner.label
            assert latest.subject == f"Round {race + 1}"
    # The loser's page keeps the typed cards in a form for the next round: sent again, it saves.
    status, _, _ = loser.request("POST", path, form_values(answers[1 - won][2], path))
    assert status in SAVED
    assert audit_count(app, "round.add") == RACES + 1


def test_two_phones_editing_the_same_round_keep_exactly_one(served):
    app, port, session_id, names = served
    one, two = Phone(port, "Phone Three").sign_in(), Phone(port, "Phone Four").sign_in()
    path = f"/sessions/{session_id}/rounds/1/edit"
    if not round_rows(app, session_id):
        one.request("POST", f"/sessions/{session_id}/rounds/new",
                    round_form(one, f"/sessions/{session_id}/rounds/new", TYPED_1, names))
    before = audit_count(app, "round.edit")
    for race in range(3):
        posts = [(one, path, round_form(one, path, TYPED_3, names)),
                 (two, path, round_form(two, path, TYPED_2 if race % 2 else TYPED_1, names))]
        answers = at_once(posts)
        statuses = sorted(status for status, _, _ in answers)
        assert statuses in ([302, 409], [303, 409]), statuses
        won = 0 if answers[0][0] in SAVED else 1
        assert_conflict_page(answers[1 - won][2], posts[won][0].label, posts[1 - won][2])
        assert audit_count(app, "round.edit") == before + race + 1
        assert all(total == 0 for _, total, _ in round_rows(app, session_id))
        with app.app_context():
            stored = db.session.scalars(sa.select(RoundEntry.cards).join(Round).where(
                Round.session_id == session_id, Round.number == 1))
            assert sorted(c for c in stored if c) == sorted(
                format_cards(parse_cards(c)) for c in typed_cards(posts[won][2]))


def test_a_round_saved_while_the_page_loads_is_a_conflict(app, group):
    """The race above made certain: another phone's round is saved after this
    request has read the session's version but before it reads its rounds."""
    with app.app_context():
        game = services.start_session(services.Change(db.session.get(Group, group.id)),
                                      list("ABCD"),
                                      EXAMPLE_RULES, first_dealer="D")
        session_id, names = game.id, {p.id: p.name for p in db.session.scalars(sa.select(Player))}
        engine = db.engine
    path = f"/sessions/{session_id}/rounds/new"
    phone = signed_in_client(app, group, device="Slow phone")
    fields = filled(phone.get(path).text, TYPED_2, names)
    saved = []

    def another_phone_saves_now(connection, cursor, statement, *args):
        if saved or not re.search(r"FROM round\b.*WHERE round\.session_id", statement, re.S):
            return
        saved.append(True)
        with app.app_context():  # the other phone's request, with a connection of its own
            other = db.session.get(GameSession, session_id)
            services.record_round(
                services.Change.to(other, device="Quick phone", seen=other.version), EXAMPLE_1)

    event.listen(engine, "before_cursor_execute", another_phone_saves_now)
    try:
        response = phone.post(path, data=fields)
    finally:
        event.remove(engine, "before_cursor_execute", another_phone_saves_now)
    assert saved and audit_count(app, "round.add") == 1
    assert response.status_code == 409
    assert_conflict_page(response.text, "Quick phone", fields)


def new_session_fields(phone: Phone, seats: list[str]) -> dict:
    """The new-session form as its page offers it, with ``seats`` typed in."""
    status, _, page = phone.request("GET", "/sessions/new")
    assert status == 200
    fields = form_values(page, "/sessions/new")
    fields.update({f"seats-{i}": name for i, name in enumerate(seats)}, first_dealer="random")
    return fields


def open_sessions(app) -> str:
    """The ids of the sessions still open, as "Start another anyway" names them."""
    with app.app_context():
        return " ".join(map(str, db.session.scalars(
            sa.select(GameSession.id).where(GameSession.ended_at.is_(None))
            .order_by(GameSession.id))))


@pytest.mark.parametrize("twins", [("Casey", "Casey"), ("Casey", "casey")])
def test_two_phones_adding_the_same_new_player_at_once_make_one(served, twins):
    """Each phone seats a player the group has never seen at a table of its
    own, spelt in either letter case: both join, as one player."""
    app, port, session_id, _ = served
    with app.app_context():
        other = services.start_session(services.Change(the_group()), ["E", "F"],
                                       EXAMPLE_RULES, first_dealer="E").id
    one, two = Phone(port, "Phone One").sign_in(), Phone(port, "Phone Two").sign_in()
    for attempt in range(RACES):
        new = [f"{name} {attempt}" for name in twins]
        posts = []
        for phone, sid, name in zip((one, two), (session_id, other), new, strict=True):
            _, _, page = phone.request("GET", f"/sessions/{sid}/players")
            fields = form_values(page, f"/sessions/{sid}/players") | {"name": name}
            posts.append((phone, f"/sessions/{sid}/players", fields))
        answers = at_once(posts)
        assert [status for status, _, _ in answers] == [302, 302], answers
        with app.app_context():
            players = db.session.scalars(
                sa.select(Player.name).where(Player.name_key == new[0].casefold())).all()
        assert players in ([new[0]], [new[1]])
        for sid in (session_id, other):  # off again, for the next attempt
            with app.app_context():
                game = db.session.get(GameSession, sid)
                seat = next(s for s in game.seats if s.active and s.player.name == players[0])
                services.leave_session(services.Change.to(game), seat.player_id)


def test_two_phones_starting_the_same_table_at_once_start_it_once(served):
    """Both tap Start on the same table (beside the sessions open before):
    one session starts, and the other phone is asked, naming it."""
    app, port, _, _ = served
    one, two = Phone(port, "Phone One").sign_in(), Phone(port, "Phone Two").sign_in()
    for _ in range(RACES):
        before = open_sessions(app)
        posts = [(phone, "/sessions/new",
                  new_session_fields(phone, ["G", "H"]) | {"alongside": before})
                 for phone in (one, two)]
        answers = at_once(posts)
        assert sorted(status for status, _, _ in answers) == [200, 302], answers
        (started,) = [location for status, location, _ in answers if status == 302]
        (asked,) = [page for status, _, page in answers if status == 200]
        assert "Already playing: nothing was started" in asked
        assert f'href="{started}"' in asked
        assert len(open_sessions(app).split()) == len(before.split()) + 1
