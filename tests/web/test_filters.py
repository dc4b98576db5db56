import pytest

from scorekeeper.web.filters import money, signed_money


@pytest.mark.parametrize("cents, text, signed", [
    (0, "0.00", "0.00"), (5, "0.05", "+0.05"), (-50, "\u22120.50", "\u22120.50"),
    (900, "9.00", "+9.00"), (123456, "1,234.56", "+1,234.56"),
])
def test_money(cents, text, signed):
    assert money(cents) == text
    assert signed_money(cents) == signed
