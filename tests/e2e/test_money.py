"""Money across sessions in a phone browser: a transfer paid in part on settle
up, and Who owes whom following it live on another phone, then Settle
everything paid from there. The sums and rows are checked through the test
client (tests/web/test_money.py); here, what needs a browser: the "Paid part"
form opened and sent with a tap, the page's layout and accessibility, and
the live page changing by itself, keeping what was typed on it."""

import re

from playwright.sync_api import expect

from scorekeeper import services
from tests.e2e.conftest import a_session_with_a_round, phone_of, phone_page_problems


def test_a_part_payment_shows_on_the_other_phones_who_owes_whom(new_context, live_app):
    with live_app.app_context():
        first = a_session_with_a_round()  # Dan went out: Ann, Ben and Cat pay Dan
        services.end_session(services.Change.to(first))
        a_session_with_a_round()  # and again, the next evening
        seats = {s.player.name: s.player.id for s in first.seats}
        sid = first.id

    dan = phone_of(new_context, sid, seats["Dan"], "Dan's phone")
    dan.goto("/money")
    nets = dan.locator("table.board-totals tbody tr")
    expect(nets.first).to_contain_text("Dan (this phone) is owed")
    owed_before = nets.first.inner_text()
    assert phone_page_problems(dan) == []
    # Dan starts typing a part payment of his own: the page changing keeps it.
    first = dan.locator("#everything li.settle-transfer").first
    first.get_by_text("Paid part").tap()
    amount = first.get_by_label(re.compile("Amount paid"))
    amount.fill("0.20")

    ben = phone_of(new_context, sid, seats["Ben"], "Ben's phone")
    ben.goto(f"/sessions/{sid}/settle")
    mine = ben.locator("li.settle-transfer", has_text="You pay")
    mine.get_by_text("Paid part").tap()
    mine.get_by_label(re.compile("Amount paid")).fill("0.50")
    assert phone_page_problems(ben) == []
    mine.get_by_role("button", name="Save").tap()
    ben.wait_for_url("**/settle#transfers")
    expect(ben.locator("li.settle-transfer", has_text="You pay")).to_contain_text(
        re.compile(r"RM 0\.50 paid, RM [\d.]+ left"))

    # Dan's page, untouched, follows the payment by itself, keeping what he typed.
    expect(nets.first).not_to_have_text(owed_before)
    expect(amount).to_have_value("0.20")
    expect(first.locator("details.settle-part")).to_have_attribute("open", "")
    assert phone_page_problems(dan) == []

    # Settle everything, from Dan's phone: each transfer marked paid.
    buttons = dan.locator("#everything").get_by_role("button", name="Mark as paid")
    for left in reversed(range(buttons.count())):
        with dan.expect_navigation():
            buttons.first.tap()
        expect(buttons).to_have_count(left)
    expect(dan.get_by_text("Nobody owes anything.")).to_be_visible()
    assert phone_page_problems(dan) == []
