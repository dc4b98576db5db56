"""The phone's language offline (issue 27): the service worker keeps pages in
the language they came in and shows, offline, those of the phone's language,
its offline page in it, and the bar of a kept page in it; a switch made
offline takes effect at once, and on the server once the network is back."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import (
    a_session_with_a_round,
    back_online,
    controlled,
    offline,
    phone_page_problems,
)

pytestmark = pytest.mark.service_worker


@pytest.fixture(scope="module")
def board(live_app) -> str:
    with live_app.app_context():
        return f"/sessions/{a_session_with_a_round().id}"


def kept_in(page, tag: str, path: str) -> None:
    """Wait until the worker keeps ``path`` among the pages of language ``tag``."""
    page.wait_for_function("""async ([tag, path]) => {
        const name = (await caches.keys()).find((n) => n.startsWith('pages-') &&
            n.endsWith(':' + tag));
        if (!name) return false;
        const kept = await (await caches.open(name)).keys();
        return kept.some((key) => new URL(key.url).pathname === path);
    }""", arg=[tag, path])


def switch_to(page, name: str, tag: str) -> None:
    page.locator("footer").get_by_role("button", name=name).click()
    expect(page.locator("html")).to_have_attribute("lang", tag)


def test_pages_offline_come_in_the_phone_s_language_even_switched_offline(member, board):
    page = member
    page.goto(board)
    controlled(page)
    kept_in(page, "en", board)
    switch_to(page, "中文", "zh-Hans")  # online: the page again, from the server
    assert page.url.endswith(board)
    kept_in(page, "zh-Hans", board)

    page.context.set_offline(True)
    page.goto(board)  # kept in Chinese: its bar says so in Chinese
    bar = page.locator(".offline-bar")
    expect(bar).to_contain_text(re.compile(r"离线，截至 \d\d:\d\d"))
    expect(bar.get_by_role("link", name="重试")).to_be_visible()
    offline(page)
    back_online(page)  # offline-bar.js follows, with the page's strings
    expect(bar).to_contain_text("已恢复联网，截至")
    expect(bar.get_by_role("link", name="重新加载")).to_be_visible()
    page.context.set_offline(True)

    page.goto("/history")  # never seen: the offline page, in Chinese
    expect(page.get_by_role("heading", name="没有网络")).to_be_visible()
    assert phone_page_problems(page) == []
    offline(page)
    switch_to(page, "Bahasa Melayu", "ms")  # offline: the worker's page in Malay
    expect(page.get_by_role("heading", name="Tiada rangkaian")).to_be_visible()
    page.goto(board)  # seen in English and Chinese, never in Malay
    expect(page.get_by_role("heading", name="Tiada rangkaian")).to_be_visible()
    offline(page)
    switch_to(page, "English", "en")  # the copy kept in English
    expect(page.locator(".offline-bar")).to_contain_text("Offline, as of")
    expect(page.get_by_role("rowheader", name="Dan")).to_be_visible()

    back_online(page)
    page.goto("/")  # the cookie set offline is the server's choice too
    expect(page.locator("html")).to_have_attribute("lang", "en")
    offline(page)
    switch_to(page, "Bahasa Melayu", "ms")
    page.context.set_offline(False)
    page.goto("/rules")
    expect(page.locator("html")).to_have_attribute("lang", "ms")
