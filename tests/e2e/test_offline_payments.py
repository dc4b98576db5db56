"""Payments marked with no network (issue 28): kept on the phone like a round,
said to wait, sent once the network is back, once (their key); one the server
refuses as it arrives comes back as its page, with the server's words. What a
payment does to the money, and its key's once-only answer, are checked through
the test client (tests/web/test_money.py, test_offline_payments.py)."""

import re

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Payment
from tests.e2e.conftest import (
    a_session_with_a_round,
    back_online,
    controlled,
    offline,
    phone_page_problems,
    see,
)

pytestmark = pytest.mark.service_worker


def table(live_app) -> dict:
    """A session where Ann, Ben and Cat pay Dan: what Ann owes Dan, in cents."""
    with live_app.app_context():
        game = a_session_with_a_round()
        owed = next(s.owed for s in services.settlement(game)
                    if (s.owed.payer.name, s.owed.payee.name) == ("Ann", "Dan"))
        seats = {s.player.name: s.player.id for s in game.seats}
        return {"id": game.id, "settle": f"/sessions/{game.id}/settle", "left": owed.left,
                "ann": seats["Ann"], "dan": seats["Dan"]}


def payments(live_app, session_id) -> list[int]:
    with live_app.app_context():
        return list(db.session.scalars(
            sa.select(Payment.cents).where(Payment.session_id == session_id)))


def rm(cents: int) -> str:
    return f"RM {cents // 100}.{cents % 100:02d}"


def paid_part_offline(page, settle: str, amount: str):
    """Settle up seen online, then, with no network, Ann's part payment to
    Dan of ``amount``: kept, the page says so. Ann's transfer, as a locator."""
    page.goto(settle)
    controlled(page)
    see(page, [settle])
    offline(page)
    ann = page.locator("li.settle-transfer").filter(has_text="Ann pays Dan")
    ann.get_by_text("Paid part").click()
    ann.get_by_label("Amount paid, in RM").fill(amount)
    ann.get_by_role("button", name="Save").click()
    return ann


def waiting_on_phone(page) -> int:
    return int(page.evaluate("() => localStorage.getItem('scorekeeper-waiting') || '0'"))


def test_a_part_payment_marked_offline_is_sent_once_when_the_network_is_back(member, live_app):
    page = member
    t = table(live_app)
    ann = paid_part_offline(page, t["settle"], "1.00")
    queue = page.get_by_role("region", name="Kept on this phone")
    expect(queue).to_contain_text("Ann → Dan RM 1.00 marked paid: waiting to be sent")
    expect(queue).to_contain_text("if another phone changed the same payment meanwhile")
    assert waiting_on_phone(page) == 1
    assert phone_page_problems(page) == []
    assert payments(live_app, t["id"]) == []  # nothing sent yet

    back_online(page)
    expect(page.get_by_role("status").filter(
        has_text="Ann → Dan RM 1.00 marked paid: sent, and saved.")).to_be_visible()
    expect(queue).to_have_count(0)
    # The page as it is now: what is left of Ann's transfer, and the payment.
    expect(ann).to_contain_text(f"RM 1.00 paid, {rm(t['left'] - 100)} left")
    expect(ann.locator("form.settle-payment")).to_contain_text("RM 1.00 marked paid")
    assert payments(live_app, t["id"]) == [100]
    assert waiting_on_phone(page) == 0
    page.reload()
    assert payments(live_app, t["id"]) == [100]  # once


def test_a_payment_refused_as_it_arrives_comes_back_with_the_server_s_words(member, live_app):
    page = member
    t = table(live_app)
    paid_part_offline(page, t["settle"], "1.00")
    expect(page.get_by_role("region", name="Kept on this phone")).to_contain_text(
        "Ann → Dan RM 1.00 marked paid: waiting to be sent")
    # Meanwhile another phone marks all but 0.50 paid.
    with live_app.app_context():
        game = db.session.get(GameSession, t["id"])
        services.pay(services.Change.to(game), t["ann"], t["dan"], t["left"] - 50)

    back_online(page)
    alert = page.locator(".sessions-alert")
    expect(alert).to_have_text("Only RM 0.50 is still owed.")
    expect(page.get_by_role("status").filter(has_text=re.compile(
        r"^Ann → Dan RM 1\.00 marked paid, kept on this phone, was not saved:$"))).to_be_visible()
    # The part payment's form as typed, saying why.
    expect(page.get_by_role("textbox", name="Amount paid, in RM")).to_have_value("1.00")
    assert payments(live_app, t["id"]) == [t["left"] - 50]
    assert waiting_on_phone(page) == 0
    expect(page.get_by_role("region", name="Kept on this phone")).to_have_count(0)
