"""Template filters for money (integer cents) and card notation."""

MINUS = "\u2212"


def money(cents: int) -> str:
    """12345 -> "123.45"; -50 -> "−0.50"."""
    sign = MINUS if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{part:02d}"


def signed_money(cents: int) -> str:
    """Like money, with a plus sign for gains: "+9.00", "−1.00", "0.00"."""
    return ("+" if cents > 0 else "") + money(cents)


def register(app) -> None:
    app.add_template_filter(money)
    app.add_template_filter(signed_money)
