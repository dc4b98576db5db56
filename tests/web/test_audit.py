"""The audit trail's schema (scorekeeper.audit): what the services write reads
back as its typed payload, a malformed payload is refused by name, and the
history of changes shows a damaged one as a plain line."""

import json

import pytest
import sqlalchemy as sa

from scorekeeper import audit, services
from scorekeeper.audit import Action, PayloadError, read_payload
from scorekeeper.backup import BackupError, read_backup
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Payment, Player
from scorekeeper.rules import HouseRules
from tests.conftest import signed_in_client, the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, build_evenings, set_paid
from tests.web.helpers import text


def every_kind_of_change(session: GameSession) -> None:
    """Every action the app records, on ``session`` and its group."""
    a = session.seats[0].player
    services.save_hand(services.Change.to(session), a.id, "dead", "AS", base=0, number=1)
    services.clear_hands(services.Change.to(session), 1)
    services.record_round(services.Change.to(session), EXAMPLE_1)
    services.record_round(services.Change.to(session), EXAMPLE_2)
    services.edit_round(services.Change.to(session), session.rounds[0], EXAMPLE_2)
    services.delete_round(services.Change.to(session), session.rounds[1])
    deletion = db.session.scalars(sa.select(AuditEvent).where(
        AuditEvent.action == Action.ROUND_DELETE)).one()
    services.restore_round(services.Change.to(session), deletion)
    services.join_session(services.Change.to(session), "Eve", 1)
    eve = db.session.scalar(sa.select(Player.id).where(Player.name == "Eve"))
    services.leave_session(services.Change.to(session), eve)
    transfer = services.settlement(session)[0].transfer
    for paid in (True, False):
        set_paid(services.Change.to(session),
                 transfer.payer.id, transfer.payee.id, transfer.cents, paid)
    across = services.debts_of(session).plan[0]
    services.pay(services.Change(session.group), across.payer.id, across.payee.id, across.cents,
                 session.currency)
    services.unpay(services.Change(session.group), db.session.scalar(
        sa.select(Payment.id).where(Payment.session_id.is_(None))))
    services.change_house_rules(services.Change.to(session), HouseRules.penang(), "SGD")
    link = services.create_share_link(services.Change.to(session))
    services.revoke_share_link(services.Change.to(session), link)
    services.end_session(services.Change.to(session))
    services.reopen_session(services.Change.to(session))
    services.rename_player(services.Change(session.group), session.seats[0].player, "Ah Seng")
    services.set_timezone(services.Change(session.group), "Asia/Singapore")
    services.set_payto(services.Change(session.group), session.seats[1].player,
                       "paynow_mobile", "9123 4567")
    invite, _ = services.create_invite(services.Change(session.group))
    services.use_invite(services.Change(session.group, device="Ben's phone"), invite)
    services.revoke_invite(services.Change(session.group), invite)
    services.set_passphrase(services.Change(session.group), "another long passphrase")


def test_what_the_services_write_reads_back_as_its_payload(table):
    every_kind_of_change(table)
    events = db.session.scalars(sa.select(AuditEvent).order_by(AuditEvent.id)).all()
    assert {e.action for e in events} == set(Action) - {Action.GROUP_IMPORT}
    for event in events:
        payload = read_payload(event.action, event.before, event.after)
        assert type(payload) is audit.PAYLOADS[Action(event.action)]
        assert payload.to_json() == (event.before, event.after)
        assert payload.subject == event.subject


def test_an_action_this_app_never_wrote_has_no_payload():
    assert audit.payload_type("x.y") is None
    assert read_payload("x.y", {"any": 1}, None) is None


@pytest.mark.parametrize("action, before, after, message", [
    ("player.add", None, None, 'the payload\'s "after" must be an object, not None'),
    ("player.add", None, {}, 'the payload\'s "after": "name" is missing'),
    ("seat.join", None, {"player": "Eve", "seats": ["Ann", 3]},
     'the payload\'s "after": "seats" must be a list of text, not [\'Ann\', 3]'),
    ("share.revoke", {"link": True}, None,
     'the payload\'s "before": "link" must be a whole number, not True'),
    ("round.delete", {"number": 1, "dealer": "A", "entries": [{"player": "A"}]}, None,
     'the payload\'s "before": "entries" item 1, "seat" is missing'),
    ("round.restore", None, {"number": 1, "dealer": "A", "entries": []},
     'the payload\'s "after": "restores" is missing'),
])
def test_a_malformed_payload_is_refused_saying_what_is_wrong(action, before, after, message):
    with pytest.raises(PayloadError) as caught:
        read_payload(action, before, after)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


DAMAGE = {
    Action.ROUND_ADD: ("after", {"number": "one"}),
    Action.ROUND_EDIT: ("before", None),
    Action.ROUND_DELETE: ("before", {"entries": "A"}),
    Action.ROUND_RESTORE: ("after", {"restores": "x"}),
    Action.SESSION_START: ("after", ["A", "B"]),
    Action.SEAT_JOIN: ("after", {"player": 5}),
    Action.PAYMENT_PAID: ("after", {"payer": "A"}),
    Action.SESSION_RULES: ("before", {"house_rules": "penang"}),
}


def test_a_damaged_payload_is_shown_as_a_plain_line(app, group, table):
    every_kind_of_change(table)
    sid = table.id
    for action, (side, value) in DAMAGE.items():
        for event in db.session.scalars(sa.select(AuditEvent).where(AuditEvent.action == action)):
            setattr(event, side, value)
    rename = db.session.scalars(sa.select(AuditEvent).where(
        AuditEvent.action == Action.PLAYER_RENAME)).one()
    rename.after = {"name": None}
    payment = db.session.scalar(sa.select(AuditEvent.subject).where(
        AuditEvent.action == Action.PAYMENT_PAID))
    db.session.commit()
    client = signed_in_client(app, group)
    pages = [client.get(f"/sessions/{sid}/changes?page={n}") for n in (1, 2)]  # 16 changes
    assert [response.status_code for response in pages] == [200, 200]
    page = "".join(text(response) for response in pages)
    for subject in ("Round 1", "Round 2", "Session started", "House rules", payment, "Eve"):
        assert f"<h2>{subject}</h2>" in page  # the event's subject, as it was saved
    assert "<h2>Eve left the table</h2>" in page  # undamaged, in words as ever
    group_page = client.get("/group")
    assert group_page.status_code == 200
    assert '<span class="group-event-what">Ah Seng</span>' in text(group_page)
    assert services.restored_deletions(db.session.get(GameSession, sid)) == set()


@pytest.fixture
def exported(app):
    build_evenings(app)
    with app.app_context():
        client = signed_in_client(app, the_group())
    return client.get("/group/export.json").get_json()


def test_a_backup_event_must_have_its_actions_payload(exported):
    start = next(i for i, e in enumerate(exported["audit"]) if e["action"] == "session.start")
    del exported["audit"][start]["after"]["players"]
    with pytest.raises(BackupError) as caught:
        read_backup(json.dumps(exported).encode())
    assert str(caught.value) == f'Audit event {start + 1}\'s "after": "players" is missing.'


def test_a_backup_event_keeps_only_what_its_payload_holds(exported):
    join = next(i for i, e in enumerate(exported["audit"]) if e["action"] == "seat.join")
    exported["audit"][join]["after"]["note"] = "kept by no one"
    exported["audit"][join]["before"] = {"stray": 1}
    event = read_backup(json.dumps(exported).encode()).events[join]
    assert event.before is None and set(event.after) == {"player", "seats"}
