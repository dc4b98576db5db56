"""The home page in a phone browser."""

from tests.e2e.conftest import phone_page_problems, screenshot


def test_check_a_hand_in_the_browser(page, outside_requests):
    page.goto("/")
    page.get_by_text("Check a hand").click()
    page.get_by_label("Cards").fill("as 2s 3s jk 7h 7d 7c qh")
    page.get_by_role("button", name="Check").click()
    page.wait_for_url("**/?cards=*#check")
    assert "10 points left" in page.get_by_role("status").inner_text()
    assert page.get_by_role("status").is_visible() and page.evaluate("window.scrollY") > 0
    assert phone_page_problems(page) == []
    assert outside_requests == []
    screenshot(page, "home-check-a-hand")
