"""The home page in a phone browser."""

from playwright.sync_api import expect

from tests.e2e.conftest import phone_page_problems


def test_check_a_hand_in_the_browser(page, outside_requests):
    page.goto("/")
    page.get_by_text("Check a hand").click()
    page.get_by_label("Cards").fill("as 2s 3s jk 7h 7d 7c qh")
    page.get_by_role("button", name="Check").click()
    page.wait_for_url("**/?cards=*#check")
    # The page opens at the answer (its points: tests/web/test_app.py).
    expect(page.get_by_role("status")).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0
    assert phone_page_problems(page) == []
    assert outside_requests == []
