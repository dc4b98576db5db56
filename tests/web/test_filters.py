from datetime import datetime, timedelta

import pytest
from markupsafe import Markup

from scorekeeper.web.filters import ago, all_whole, amount, count, listed, money, signed_money


@pytest.mark.parametrize("cents, text, signed", [
    (0, "0.00", "0.00"), (5, "0.05", "+0.05"), (-50, "\u22120.50", "\u22120.50"),
    (900, "9.00", "+9.00"), (123456, "1,234.56", "+1,234.56"),
])
def test_money(cents, text, signed):
    assert money(cents) == text
    assert signed_money(cents) == signed


def test_a_list_of_names_keeps_each_name_s_markup_and_escapes_the_rest():
    assert listed([]) == ""
    assert listed(["Ann"]) == "Ann"
    assert listed(["Ann", Markup("<b>B&amp;C</b>")]) == "Ann and <b>B&amp;C</b>"
    assert listed(["<i>", "Ben", "Cyd"]) == "&lt;i&gt;, Ben, and Cyd"


def test_amount_is_coloured_by_its_sign():
    assert amount(900) == '<span class="sessions-gain">+9.00</span>'
    assert amount(-50) == '<span class="sessions-loss">\u22120.50</span>'
    assert amount(0) == '<span class="sessions-even">0.00</span>'


def test_a_table_of_whole_amounts_goes_without_cents():
    assert all_whole([0, 900, -300, 150_000]) and all_whole([])
    assert not all_whole([900, -50])
    assert [signed_money(c, whole=True) for c in (900, -300, 0, 123400)] == \
        ["+9", "\u22123", "0", "+1,234"]
    assert amount(-300, whole=True) == '<span class="sessions-loss">\u22123</span>'
    # An amount with cents keeps them, whole or not (all_whole decides for a table).
    assert money(1250, whole=True) == "12.50"


def test_count_has_thousands_separators():
    assert [count(n) for n in (0, 999, 9999, 152100)] == ["0", "999", "9,999", "152,100"]


@pytest.mark.parametrize("before, words", [
    (timedelta(seconds=59), "just now"), (timedelta(minutes=5), "5 min ago"),
    (timedelta(minutes=125), "2 h ago"), (timedelta(hours=47), "47 h ago"),
    (timedelta(days=3, hours=2), "3 days ago"),
])
def test_ago_says_how_long_ago_as_a_table_does(before, words):
    now = datetime(2026, 11, 29, 21, 0)
    assert ago(now - before, now) == words
