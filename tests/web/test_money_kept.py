"""What the group owes, as each app server keeps it (queries/debts.py): under
the group's ledger stamp, which every change to a session or a payment makes
anew, so that no page reads it stale, whichever worker answers."""

import re
from html import unescape

import sqlalchemy as sa

from scorekeeper import queries, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Group, Payment, Round
from scorekeeper.queries import debts
from scorekeeper.rules import HouseRules
from tests.conftest import the_group
from tests.web.examples import HU, NO_HU, make_session, player_id
from tests.web.helpers import token_in
from tests.web.phones import Gunicorn, Phone


def stamp() -> str:
    return db.session.scalar(sa.select(Group.ledger_stamp))


def test_every_change_to_a_session_or_a_payment_gives_the_group_a_new_stamp(app):
    sid = make_session(app, rounds=[NO_HU])
    ann, bob, cat = (player_id(app, name) for name in ("Ann", "Bob", "Cat"))
    with app.app_context():
        session = db.session.get(GameSession, sid)

        def round_(number):
            return db.session.scalar(sa.select(Round).where(
                Round.session_id == sid, Round.number == number))

        def across():
            return db.session.scalar(sa.select(Payment.id).where(Payment.session_id.is_(None)))

        def paid():
            return db.session.scalar(sa.select(Payment.id).where(Payment.session_id == sid))

        changes = {
            "round saved": lambda: services.record_round(services.Change.to(session), HU),
            "round corrected": lambda: services.edit_round(services.Change.to(session),
                                                           round_(2), NO_HU),
            "round deleted": lambda: services.delete_round(services.Change.to(session),
                                                           round_(2)),
            "house rules": lambda: services.change_house_rules(
                services.Change.to(session), HouseRules.penang(), "RM"),
            "paid": lambda: services.pay(services.Change.to(session), bob, cat, 300),
            "taken back": lambda: services.unpay(services.Change.to(session), paid()),
            "paid across": lambda: services.pay(services.Change(the_group()), bob, cat, 100,
                                                "RM"),
            "taken back across": lambda: services.unpay(services.Change(the_group()),
                                                        across()),
            "ended": lambda: services.end_session(services.Change.to(session)),
            "reopened": lambda: services.reopen_session(services.Change.to(session)),
            "joined": lambda: services.join_session(services.Change.to(session), "Eve", 3),
            "left": lambda: services.leave_session(services.Change.to(session), ann),
        }
        seen = {stamp()}
        for name, change in changes.items():
            change()
            assert stamp() not in seen, name
            seen.add(stamp())
            kept = money()
            debts._books.cache_clear()  # worked out afresh: the same
            debts._nets.cache_clear()
            assert money() == kept, name


def money():
    """What the group owes as a page reads it: nets (both ways of working
    them out) and each transfer left."""
    group = the_group()
    return (queries.group_nets(group),
            {d.currency: ({p.id: c for p, c in d.nets.items()},
                          [(o.session.id, o.payer.id, o.payee.id, o.left) for o in d.transfers])
             for d in queries.group_debts(group)})


def test_a_refused_change_leaves_the_stamp_as_it_was(app):
    sid = make_session(app, rounds=[NO_HU])
    bob, cat = player_id(app, "Bob"), player_id(app, "Cat")
    with app.app_context():
        before = stamp()
        session = db.session.get(GameSession, sid)
        try:
            services.pay(services.Change.to(session), bob, cat, 100_000)
        except services.ServiceError:
            pass
        assert stamp() == before


def owed_on(phone: Phone) -> str:
    """Who owes whom's nets, as the page says them."""
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", phone.request("GET", "/money")[2])).split())
    return " ".join(re.findall(r"\w+(?: \(this phone\))? (?:is owed|owes) [\d.]+", text))


def test_a_payment_shows_on_every_worker_at_once(app, group, tmp_path):
    make_session(app, rounds=[NO_HU])  # Ann → Cat 1.00, Bob → Cat 8.00
    make_session(app, rounds=[HU])
    with app.app_context():
        first = queries.group_debts(the_group())[0].plan[0]
        payer, payee = first.payer.id, first.payee.id
    with Gunicorn(app, tmp_path, workers=3) as server:
        phone = Phone(server.port).sign_in()
        before = {owed_on(phone) for _ in range(12)}  # every worker keeps it now
        assert len(before) == 1
        page = phone.request("GET", "/money")[2]
        status, _, _ = phone.request("POST", "/money/paid", {
            "csrf_token": token_in(page), "payer_id": payer, "payee_id": payee, "cents": 150,
            "currency": "RM"})
        assert status == 302
        after = {owed_on(phone) for _ in range(12)}
        assert len(after) == 1 and after != before
        with app.app_context():
            nets = queries.group_debts(the_group())[0].nets
        owes = next(-cents for player, cents in nets.items() if player.id == payer)
        assert f"{first.payer.name} owes {owes / 100:.2f}" in after.pop()
