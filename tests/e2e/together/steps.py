"""What a phone does on the round filled in together, step by step: for the
tests here and for the pictures (docs/screenshots.py).

The phones are told of each other's hands by a "live:change" event, as
live.js tells them; ``told`` sends it, so that the tests show this side on
its own."""

import re

from playwright.sync_api import expect

PLAYERS = ["Ann", "Ben", "Cat"]
HAND = re.compile(r"/draft/\d+$")  # where a hand is sent


def row(page, name):
    return page.locator("section.round-player").filter(
        has=page.get_by_role("heading", name=name, exact=True))


def strip(page, name):
    return page.locator(".together-strip li").filter(has_text=name)


def told(*pages) -> None:
    """What live.js does when another phone saved a hand."""
    for page in pages:
        page.evaluate("document.dispatchEvent(new CustomEvent('live:change', "
                      "{detail: {version: -1, draft: -1}}))")


def type_cards(page, name, cards) -> None:
    """Type a hand's cards and leave the field, as a thumb does: it is sent."""
    field = page.get_by_label(re.compile(rf" in {name}'s hand$"))  # or "Whole hand (20 cards)"
    field.fill(cards)
    with page.expect_response(re.compile(r"/draft/\d+$")):
        field.blur()


def choose(page, name, outcome) -> None:
    """Tap an outcome (a hand it puts in may fold its row at once: hidden, still checked)."""
    label = row(page, name).locator("label.round-outcome").filter(
        has_text=re.compile(rf"^\s*{outcome}\s*$"))
    label.tap()
    expect(label.locator("input")).to_be_checked()


def pad_keys(page, *keys: str) -> None:
    """Taps on the pad: a suit by its name, a rank, "Done"."""
    pad = page.locator("#card-pad")
    for key in keys:
        if key in ("Spades", "Hearts", "Diamonds", "Clubs", "Done"):
            pad.get_by_role("button", name=key, exact=True).tap()
        else:
            pad.locator(f"[data-rank='{key}']").tap()
