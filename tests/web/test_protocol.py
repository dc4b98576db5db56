"""Every change follows one protocol, run by one construct
(services.protocol.applying): it claims the session's version, writes the
audit trail with the phone, keeps the change's key with its answer, and
commits once. Watched here while the pages make every kind of change: the
audit trail is written inside the construct alone, and every action the
app records goes through it."""

import re

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from scorekeeper import services
from scorekeeper.audit import Action, SessionEnded
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, ChangeKey, GameSession, Player
from scorekeeper.services import protocol
from scorekeeper.web.once import new_key
from tests.conftest import PASSPHRASE
from tests.web.backups import post_import
from tests.web.examples import EXAMPLE_1, TYPED_1, TYPED_2, TYPED_3
from tests.web.helpers import filled, forms_on, send_hand, text

WRITES_THE_TRAIL = re.compile(r"\s*(INSERT INTO|UPDATE|DELETE FROM) audit_event\b", re.I)


class Watch:
    """What the construct did: the actions it audited, the keys of the
    changes it wrote, and any statement that wrote the audit trail outside it."""

    def __init__(self) -> None:
        self.open: list[protocol.Applying] = []
        self.audited: list[Action] = []
        self.keyed: list[str] = []
        self.outside: list[str] = []


@pytest.fixture
def watch(app, monkeypatch):
    seen = Watch()
    real = protocol.Applying

    def enter(self):
        entered = real_enter(self)
        seen.open.append(self)
        return entered

    def leave(self, *raised):
        try:
            real_exit(self, *raised)
        finally:
            seen.open.remove(self)
        if raised[0] is None and self.change.once is not None:
            seen.keyed.append(self.change.once.key)

    def audit(self, payload):
        seen.audited.append(payload.action)
        real_audit(self, payload)

    def audit_rows(self, rows):
        seen.audited += [Action(row["action"]) for row in rows]
        real_rows(self, rows)

    real_enter, real_exit, real_audit, real_rows = (
        real.__enter__, real.__exit__, real.audit, real.audit_rows)
    monkeypatch.setattr(real, "__enter__", enter)
    monkeypatch.setattr(real, "__exit__", leave)
    monkeypatch.setattr(real, "audit", audit)
    monkeypatch.setattr(real, "audit_rows", audit_rows)

    def statement(conn, cursor, sql, parameters, context, executemany):
        if WRITES_THE_TRAIL.match(sql) and not seen.open:
            seen.outside.append(sql)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", statement)
    yield seen
    event.remove(engine, "before_cursor_execute", statement)


def post(client, page: str, action: str, **typed) -> str:
    """Post the first form of ``page`` that posts to ``action``, as a browser
    would, with ``typed`` typed in; where the change's answer sends the phone."""
    (form, *_) = [f for f in forms_on(client.get(page).text, page) if f.action == action]
    response = client.post(action, data={name: values[0] for name, values in form.values.items()}
                           | typed)
    assert response.status_code == 302, text(response)
    return response.location


def post_round(app, client, page: str, typed: dict) -> str:
    html = client.get(page).text
    with app.app_context():  # the players' ids
        data = filled(html, typed)
    response = client.post(page, data=data)
    assert response.status_code == 302, text(response)
    return response.location


def player_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Player.id).where(Player.name == name))


def test_every_action_is_audited_inside_the_construct_and_every_key_kept(
        app, client, anonymous, watch):
    board = post(client, "/sessions/new", "/sessions/new",
                 **{"seats-0": "A", "seats-1": "B", "seats-2": "C", "seats-3": "D"})
    sid = int(board.rsplit("/", 1)[1])
    rounds = f"/sessions/{sid}/rounds"
    hand = send_hand(client, sid, player_id(app, "A"), *TYPED_1["A"], key=new_key())
    assert hand.status_code == 200, hand.json
    post(client, f"{rounds}/new", f"/sessions/{sid}/draft/clear")
    post_round(app, client, f"{rounds}/new", TYPED_1)
    hand = send_hand(client, sid, player_id(app, "A"), *TYPED_2["A"], number=2, key=new_key())
    assert hand.status_code == 200, hand.json
    post_round(app, client, f"{rounds}/new", TYPED_2)
    post_round(app, client, f"{rounds}/1/edit", TYPED_3)
    post(client, f"{rounds}/2", f"{rounds}/2/delete")
    deletion = re.search(r'action="(/sessions/\d+/changes/\d+/restore)"',
                         client.get(f"/sessions/{sid}/changes").text)[1]
    post(client, f"/sessions/{sid}/changes", deletion)
    post(client, f"/sessions/{sid}/rules", f"/sessions/{sid}/rules", currency="SGD")
    post(client, f"/sessions/{sid}/players", f"/sessions/{sid}/players", name="Eve")
    eve = player_id(app, "Eve")
    post(client, f"/sessions/{sid}/players", f"/sessions/{sid}/players/{eve}/leave")
    settle = f"/sessions/{sid}/settle"
    post(client, settle, f"{settle}/paid")  # marked paid
    post(client, settle, f"{settle}/undo")  # and taken back
    post(client, "/money", "/money/paid")  # paid across sessions
    post(client, "/money", "/money/undo")  # and taken back
    share = f"/sessions/{sid}/share"
    post(client, share, share)
    link = re.search(rf'action="({share}/\d+/revoke)"', client.get(share).text)[1]
    post(client, share, link)
    post(client, settle, f"/sessions/{sid}/end")
    post(client, f"/sessions/{sid}", f"/sessions/{sid}/reopen")
    post(client, f"/players/{eve}", f"/players/{eve}/name", name="Evelyn")
    post(client, f"/players/{eve}/payment", f"/players/{eve}/payment", kind="paynow_uen",
         number="201403121W")
    post(client, "/group", "/group/timezone", timezone="Asia/Singapore")
    post(client, "/group/invite", "/group/invite")
    shown = client.get("/group/invite").text
    joining = re.search(r'value="https?://[^/"]+(/join/[^"]+)"', shown)[1]
    assert post(anonymous, joining, joining, player="nobody") == "/"
    revoke = re.search(r'action="(/group/invite/\d+/revoke)"', client.get("/group").text)[1]
    post(client, "/group", revoke)
    post(client, "/group", "/group/passphrase", current=PASSPHRASE,
         passphrase="a newer passphrase", confirm="a newer passphrase")
    backup = client.get("/group/export.json").data
    imported = post_import(anonymous, backup)
    assert imported.status_code == 302, text(imported)

    with app.app_context():
        written = set(db.session.scalars(sa.select(AuditEvent.action)))
        keys = set(db.session.scalars(sa.select(ChangeKey.key)))
    assert written == set(Action)
    assert set(watch.audited) == set(Action)
    assert watch.outside == []
    # Every change made from a form that carries a key (18 of them, and the
    # two hands) kept it, in the construct.
    assert len(watch.keyed) == len(keys) == 20 and set(watch.keyed) == keys


def test_a_change_that_audits_nothing_is_refused_and_writes_nothing(table):
    change = services.Change.to(table)
    version = table.version
    with pytest.raises(RuntimeError, match="audit trail"), protocol.applying(change):
        table.currency = "SGD"
    db.session.expire_all()
    assert (table.version, table.currency) == (version, "RM")


def test_an_error_inside_a_change_rolls_it_back_whole(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    version, events = table.version, db.session.scalar(sa.select(sa.func.count(AuditEvent.id)))
    with pytest.raises(ZeroDivisionError), protocol.applying(services.Change.to(table)) as done:
        table.currency = "SGD"
        done.audit(SessionEnded())
        db.session.flush()
        raise ZeroDivisionError
    db.session.expire_all()
    assert (table.version, table.currency) == (version, "RM")
    assert db.session.scalar(sa.select(sa.func.count(AuditEvent.id))) == events
    assert db.session.get(GameSession, table.id).version == version
