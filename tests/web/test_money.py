"""Money that follows the group: part payments, what is owed across
sessions ("Who owes whom"), "Settle everything" and its payments."""

import json
import re

import sqlalchemy as sa
from flask_babel import force_locale

from scorekeeper import queries, services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Group, Payment
from scorekeeper.phrases import Amount
from scorekeeper.web.presenters.refusals import refusal
from tests.conftest import GROUP_NAME
from tests.web.backups import post_import
from tests.web.examples import HU, NO_HU, make_session, player_id
from tests.web.helpers import csrf_token, visible_text


def pay(client, url, **fields):
    page = url.rsplit("/", 1)[0] if url.endswith(("/paid", "/undo")) else url
    page = page if "/sessions/" in page else "/money"
    return client.post(url, data={"csrf_token": csrf_token(client, page), **fields})


def this_phone_is(client, sid, player):
    board = f"/sessions/{sid}"
    client.post(f"{board}/phone", data={"csrf_token": csrf_token(client, board),
                                        "player": str(player)})


def test_a_transfer_paid_in_part_shows_what_is_left_and_the_rest_can_be_paid(app, client):
    sid = make_session(app, rounds=[NO_HU])  # Ann pays Cat 1.00, Bob pays Cat 8.00
    bob, cat = player_id(app, "Bob"), player_id(app, "Cat")
    settle = f"/sessions/{sid}/settle"
    response = pay(client, f"{settle}/paid", payer_id=bob, payee_id=cat, cents=800,
                   amount="3")
    assert response.status_code == 302
    html = visible_text(client.get(settle))
    assert "RM 3.00 paid, RM 5.00 left" in html
    assert "RM 3.00 marked paid just now Undo" in html
    assert "Mark the rest as paid" in html
    assert 'name="cents" value="500"' in client.get(settle).text
    assert pay(client, f"{settle}/paid", payer_id=bob, payee_id=cat,
               cents=500).status_code == 302
    html = visible_text(client.get(settle))
    assert "Bob pays Cat RM 8.00 ✓ Paid RM 3.00 marked paid" in html
    with app.app_context():
        assert sorted(db.session.scalars(sa.select(Payment.cents))) == [300, 500]
        events = db.session.execute(sa.select(AuditEvent.action, AuditEvent.after)
                                    .order_by(AuditEvent.id.desc()).limit(2)).all()
    assert [(e.action, e.after["cents"], e.after["owed"]) for e in events] == \
        [("payment.paid", 500, 500), ("payment.paid", 300, 800)]
    changes = visible_text(client.get(f"/sessions/{sid}/changes"))
    assert "Bob → Cat RM 3.00 of RM 8.00 marked paid" in changes
    assert "Bob → Cat RM 5.00 marked paid" in changes


def test_a_part_payment_refused_says_why_and_keeps_what_was_typed(app, client):
    sid = make_session(app, rounds=[NO_HU])
    bob, cat = player_id(app, "Bob"), player_id(app, "Cat")
    settle = f"/sessions/{sid}/settle"
    for typed, why in (("abc", "Type an amount like 1.50."),
                       ("1.234", "Use at most two decimals: whole cents."),
                       ("0", "Type the amount paid, more than 0.00."),
                       ("8.01", "Only RM 8.00 is still owed.")):
        response = pay(client, f"{settle}/paid", payer_id=bob, payee_id=cat, cents=800,
                       amount=typed)
        assert response.status_code == 200
        html = response.text
        assert why in visible_text(response)
        field = re.search(rf'<input id="part-{bob}-{cat}"[^>]*>', html)[0]
        assert f'value="{typed}"' in field and 'aria-invalid="true"' in field
        assert re.search(rf'<details class="settle-part" id="part-{bob}-{cat}-open" open>', html)
    with app.app_context():
        assert db.session.query(Payment).count() == 0


def test_who_owes_whom_adds_up_every_session_less_what_was_paid(app, client):
    first = make_session(app, rounds=[NO_HU])  # Ann → Cat 1.00, Bob → Cat 8.00
    make_session(app, rounds=[HU], ended=True)
    ann, bob, cat = (player_id(app, name) for name in ("Ann", "Bob", "Cat"))
    pay(client, f"/sessions/{first}/settle/paid", payer_id=bob, payee_id=cat, cents=800,
        amount="3")
    this_phone_is(client, first, cat)
    html = visible_text(client.get("/money"))
    with app.app_context():
        group_id = db.session.scalar(sa.select(Payment.group_id))
        (debts,) = queries.group_debts(db.session.get(Group, group_id))
        nets = {p.name: cents for p, cents in debts.nets.items()}
    # Cat, this phone's player, first.
    rows = re.findall(r"(\w+)(?: \(this phone\))? (is owed|owes) ([\d.]+)", html)
    assert rows[0][0] == "Cat"
    assert {name: (1 if verb == "is owed" else -1) * round(float(amount) * 100)
            for name, verb, amount in rows} == nets
    assert sum(nets.values()) == 0
    # Bob's 8.00 to Cat: 3.00 paid, 4.00 cleared by Cat's 4.00 to Bob the next time.
    assert "Bob pays you RM 1.00 left of RM 8.00" in html
    assert ann in {t.payer.id for t in debts.plan} or ann in {t.payee.id for t in debts.plan}


def test_settle_everything_paid_clears_every_sessions_transfers(app, client):
    one = make_session(app, rounds=[NO_HU])
    two = make_session(app, rounds=[HU])
    html = visible_text(client.get("/money"))
    assert "Settle everything" in html
    with app.app_context():
        (debts,) = queries.group_debts(db.session.get(Group, db.session.scalar(
            sa.select(AuditEvent.group_id).limit(1))))
        plan = [(t.payer.id, t.payee.id, t.cents) for t in debts.plan]
        sessions_transfers = len(debts.transfers)
    assert 0 < len(plan) <= sessions_transfers
    for payer, payee, cents in plan:
        response = pay(client, "/money/paid", payer_id=payer, payee_id=payee, cents=cents,
                       currency="RM")
        assert response.status_code == 302 and response.location == "/money#everything"
    html = visible_text(client.get("/money"))
    assert "Nobody owes anything." in html
    for sid in (one, two):
        settle = visible_text(client.get(f"/sessions/{sid}/settle"))
        assert "Not paid yet" not in settle and "Mark as paid" not in settle
        assert "✓ Settled across sessions" in settle
    assert "Still owed" not in visible_text(client.get("/"))
    with app.app_context():
        assert db.session.scalars(sa.select(Payment.session_id)).all() == [None] * len(plan)
        across = db.session.scalars(sa.select(Payment.id)).first()
    assert pay(client, "/money/undo", payment_id=across).status_code == 302
    assert "Settle everything" in visible_text(client.get("/money"))
    group = visible_text(client.get("/group"))
    assert re.search(r"\w+ → \w+ RM [\d.]+ across sessions marked paid", group)
    assert re.search(r"\w+ → \w+ RM [\d.]+ across sessions marked not paid", group)


def test_a_payment_across_sessions_is_refused_past_the_plan(app, client):
    make_session(app, rounds=[NO_HU])
    ann, bob, cat = (player_id(app, name) for name in ("Ann", "Bob", "Cat"))
    response = pay(client, "/money/paid", payer_id=bob, payee_id=cat, cents=900,
                   currency="RM")
    assert "Only RM 8.00 is still owed." in visible_text(response)
    response = pay(client, "/money/paid", payer_id=cat, payee_id=ann, cents=100,
                   currency="RM")
    assert "That transfer is not part of the settlement any more" in visible_text(response)
    response = pay(client, "/money/paid", payer_id=bob, payee_id=cat, cents=800,
                   currency="SGD")
    assert "That transfer is not part of the settlement any more" in visible_text(response)
    with app.app_context():
        assert db.session.query(Payment).count() == 0


def test_the_home_page_says_what_is_still_owed_this_phones_own_first(app, client):
    sid = make_session(app, rounds=[NO_HU])
    assert "Still owed" in visible_text(client.get("/"))
    this_phone_is(client, sid, player_id(app, "Bob"))
    html = visible_text(client.get("/"))
    assert "You owe RM 8.00. RM 9.00 is owed in the group, all sessions together." in html
    this_phone_is(client, sid, player_id(app, "Cat"))
    assert "You are owed RM 9.00." in visible_text(client.get("/"))


def test_a_payment_marked_or_taken_back_is_news_on_the_groups_stream(app, client):
    sid = make_session(app, rounds=[NO_HU], ended=True)  # no session in play
    bob, cat = player_id(app, "Bob"), player_id(app, "Cat")

    def state():
        with app.app_context():
            group_id = db.session.scalar(sa.select(AuditEvent.group_id).limit(1))
            return queries.group_states([group_id])[group_id]

    before = state()
    pay(client, f"/sessions/{sid}/settle/paid", payer_id=bob, payee_id=cat, cents=800)
    paid = state()
    with app.app_context():
        payment = db.session.scalar(sa.select(Payment.id))
    pay(client, f"/sessions/{sid}/settle/undo", payment_id=payment)
    assert paid != before
    assert state() == before  # as it was: the same payments
    # The pages that follow the group's stream are built on the same state.
    assert f'data-live-playing="{state()}"' in client.get("/money").text
    assert f'data-live-playing="{state()}"' in client.get("/").text


def owed_by_name(app, group_name):
    """Who owes whom in a group, players by name: each currency's nets,
    sessions' transfers as they stand, plan and payments across sessions."""
    with app.app_context():
        group = services.find_group(group_name)
        return [(d.currency, {p.name: c for p, c in d.nets.items()},
                 [(o.payer.name, o.payee.name, o.cents, o.paid, o.cleared)
                  for o in d.transfers],
                 [(t.payer.name, t.payee.name, t.cents) for t in d.plan],
                 [(a.payer.name, a.payee.name, a.payment.cents, a.unused) for a in d.across])
                for d in queries.group_debts(group)]


def test_part_payments_and_payments_across_sessions_come_back_from_a_backup(
        app, client, anonymous):
    first = make_session(app, rounds=[NO_HU])
    make_session(app, rounds=[HU, NO_HU], ended=True)
    make_session(app, rounds=[HU], currency="SGD")
    bob, cat = player_id(app, "Bob"), player_id(app, "Cat")
    pay(client, f"/sessions/{first}/settle/paid", payer_id=bob, payee_id=cat, cents=800,
        amount="2.50")
    with app.app_context():
        group_id = db.session.scalar(sa.select(AuditEvent.group_id).limit(1))
        plan = {d.currency: d.plan[0] for d in queries.group_debts(db.session.get(Group, group_id))}
    for currency, t in plan.items():
        pay(client, "/money/paid", payer_id=t.payer.id, payee_id=t.payee.id, cents=t.cents,
            currency=currency, amount="1.10")
    exported = client.get("/group/export.json").get_json()
    assert [(p["currency"], p["cents"]) for p in exported["payments"]] == \
        [(currency, 110) for currency in plan]
    before = owed_by_name(app, GROUP_NAME)
    assert len(before) == 2 and all(d[4] for d in before)

    response = post_import(anonymous, json.dumps(exported).encode(), name="Back again")
    assert response.status_code == 302
    assert owed_by_name(app, "Back again") == before
    again = anonymous.get("/group/export.json").get_json()
    again["audit"] = [e for e in again["audit"] if e["action"] != "group.import"]
    for document in (exported, again):
        del document["group"], document["exported_at"]
    assert again == exported


def test_a_session_its_own_payments_pay_exactly_is_settled_until_its_money_moves(app, client):
    sid = make_session(app, rounds=[NO_HU])  # Ann pays Cat 1.00, Bob pays Cat 8.00
    other = make_session(app, rounds=[HU], currency="SGD")  # nothing to clear against

    def settled():
        with app.app_context():
            return db.session.get(GameSession, sid).settled

    ann, bob, cat = (player_id(app, name) for name in ("Ann", "Bob", "Cat"))
    settle = f"/sessions/{sid}/settle"
    pay(client, f"{settle}/paid", payer_id=ann, payee_id=cat, cents=100)
    pay(client, f"{settle}/paid", payer_id=bob, payee_id=cat, cents=800, amount="3")
    assert not settled()
    pay(client, f"{settle}/paid", payer_id=bob, payee_id=cat, cents=500)
    assert settled()
    page = visible_text(client.get(settle))
    assert page.count("✓ Paid") == 2 and "Mark as paid" not in page
    # Left out of what the group owes: the other session's debts alone.
    with app.app_context():
        owing = queries.group_debts(db.session.get(Group, db.session.scalar(
            sa.select(GameSession.group_id))))
        assert {o.session.id for debts in owing for o in debts.transfers} == {other}
    with app.app_context():
        last = db.session.scalars(sa.select(Payment.id).order_by(Payment.id.desc())).first()
    pay(client, f"{settle}/undo", payment_id=last)
    assert not settled()
    assert "RM 3.00 paid, RM 5.00 left" in visible_text(client.get(settle))
    pay(client, f"{settle}/paid", payer_id=bob, payee_id=cat, cents=500)
    assert settled()
    with app.app_context():
        services.record_round(services.Change.to(db.session.get(GameSession, sid)), HU)
    assert not settled()
    assert "Mark as paid" in visible_text(client.get(settle))


def test_who_owes_whom_lists_the_latest_sessions_with_a_link_to_every_one(
        app, client, monkeypatch):
    monkeypatch.setattr("scorekeeper.web.money.SHOWN_SESSIONS", 2)
    sids = [make_session(app, rounds=[NO_HU]) for _ in range(3)]

    def listed(html):
        return {int(sid) for sid in re.findall(r'href="/sessions/(\d+)/settle"', html)}

    page = client.get("/money")
    assert listed(page.text) == set(sids[1:])
    assert "The latest sessions' transfers still open; 1 earlier session owes too." \
        in visible_text(page)
    assert 'href="/money?all=1#sessions-1"' in page.text
    page = client.get("/money?all=1")
    assert listed(page.text) == set(sids) and "earlier session" not in page.text


def test_an_amount_in_a_refusal_is_written_as_the_readers_language_writes_it(app):
    refused = services.ServiceError("Only %(left)s is still owed.", left=Amount(123450, "RM"))
    assert str(refused) == "Only RM 1,234.50 is still owed."  # the logs' English
    with app.test_request_context(), force_locale("zh_Hans"):
        assert refusal(refused) == "只剩 RM 1,234.50 未付。"
