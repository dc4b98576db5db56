"""An evening of Rummi on a phone, as a table goes through it: start a session
for four with the Rummi preset, tap three rounds in on the card pad (a tie, a
Hu, twin aces), correct the first round by its chips, and copy the settlement
for the group chat. What needs a browser is checked here: the preset the page's
script fills in, the pad (who it is for, the chips, the live points, the cards
the deck has left), the clipboard, and that no page asks another host for
anything. The money, places, dealers, settlement and history of the same
evening are checked through the pages by tests/web/test_evening.py; every
page's axe findings, tap targets and width by test_pages.py.
"""

import re

from playwright.sync_api import expect

from tests.conftest import GROUP_NAME
from tests.web.evening import (
    CURRENCY,
    EDITED_ANN,
    FIRST_DEALER,
    ROUNDS,
    SEATS,
    card_points,
    expected_evening,
)

# Driving the pages.

RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_words(card: str) -> str:
    if card == "JK":
        return "joker"
    return f"{RANK_NAMES.get(card[:-1], card[:-1])} of {SUIT_NAMES[card[-1]]}"


def panel(page, name: str):
    return page.locator("section.round-player").filter(
        has=page.get_by_role("heading", name=name, exact=True))


def live_points(cards: list[str]) -> str:
    n = len(cards)
    return f"{n} {'card' if n == 1 else 'cards'} · {sum(map(card_points, cards))} pts"


def tap_cards(page, name: str, cards: list[str]) -> None:
    """Open the pad for ``name`` (unless it is open for them) and tap the cards in."""
    section = panel(page, name)
    add = section.get_by_role("button", name=f"Add cards for {name}")
    pad = page.locator("#card-pad")
    if add.get_attribute("aria-pressed") != "true" or pad.is_hidden():  # hidden: a field typed in
        add.tap()
    expect(add).to_have_attribute("aria-pressed", "true")
    expect(section).to_have_class(re.compile(r"\bround-player-active\b"))
    expect(pad).to_be_visible()
    expect(page.locator("#card-pad-player")).to_have_text(name)
    before = section.locator(".round-cards input").input_value().split()
    for card in cards:
        if card == "JK":
            pad.get_by_role("button", name="Add a joker").tap()
        else:
            suit = pad.get_by_role("button", name=SUIT_NAMES[card[-1]].capitalize(), exact=True)
            suit.tap()
            expect(suit).to_have_attribute("aria-pressed", "true")
            pad.get_by_role("button", name=f"Add {card_words(card)}", exact=True).tap()
    held = before + cards
    expect(section.locator(".round-cards input")).to_have_value(" ".join(held))
    expect(section.locator(".round-chips > button.round-chip")).to_have_count(len(held))
    expect(section.locator("output.round-points")).to_have_text(live_points(held))


def declare_hu(page, name: str) -> None:
    section = panel(page, name)
    section.locator("label.round-outcome").filter(has_text=re.compile(r"^\s*Hu\s*$")).tap()
    # A Hu is a hand in: it goes at once and, once the server has it, its row
    # folds to one line (the radios hidden with the rest), which is waited for.
    expect(section.locator(".round-line")).to_have_text("✓ Hu")
    expect(section.locator(".round-outcomes input[value=hu]")).to_be_checked()
    expect(section.locator(".round-cards")).to_be_hidden()
    expect(section.locator("output.round-points")).to_have_text("Hu · 0 pts")


def enter_round(page, number: int, hands: dict, expected: dict, slip: str | None = None,
                tapped: set[str] | None = None) -> None:
    """From the scoreboard, enter round ``number`` and save it: the cards of
    the players ``tapped`` (all by default) tapped in on the pad, the others'
    typed, each ended with Enter (which never sends the round)."""
    page.get_by_role("link", name=f"Enter round {number}").tap()
    page.wait_for_url(re.compile(r"/rounds/new$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
    # The player who plays first is ready for cards as soon as the page opens.
    first = expected["order"][0]
    expect(page.locator("#card-pad")).to_be_visible()
    expect(page.locator("#card-pad-player")).to_have_text(first)
    expect(panel(page, first)).to_have_class(re.compile(r"\bround-player-active\b"))
    for name in expected["order"]:
        if hands[name] == "hu":
            declare_hu(page, name)
        elif tapped is not None and name not in tapped:
            field = panel(page, name).locator(".round-cards input")
            field.fill(hands[name])
            field.press("Enter")
            expect(field).not_to_be_focused()
        else:
            tap_cards(page, name, hands[name].split())
            if name == slip:  # a wrong card tapped, and taken back
                cards_input = panel(page, name).locator(".round-cards input")
                page.get_by_role("button", name="Add king of clubs").tap()
                expect(cards_input).to_have_value(hands[name] + " KC")
                page.get_by_role("button", name="Remove the last card").tap()
                expect(cards_input).to_have_value(hands[name])
    if "AC AC" in hands.values():  # both aces of clubs are held: none left to add
        page.locator("#card-pad").get_by_role("button", name="Clubs", exact=True).tap()
        expect(page.get_by_role("button", name="Add ace of clubs")).to_be_disabled()
        expect(page.get_by_role("button", name="Add 2 of clubs")).to_be_enabled()
    last = expected["order"][-1]
    if tapped is None or last in tapped or hands[last] == "hu":  # else Enter moved on to Save
        page.get_by_role("button", name="Done", exact=True).tap()
    expect(page.locator("#card-pad")).to_be_hidden()
    expect(page.locator(".round-add[aria-pressed=true]")).to_have_count(0)
    save = page.locator(".round-actions button[type=submit]").first
    expect(save).to_be_focused()
    expect(save).to_have_text(f"Save round {number}")
    save.tap()
    page.wait_for_url(re.compile(rf"/rounds/{number}$"))


def test_an_evening_of_rummi(member, outside_requests):
    page = member
    results = expected_evening(ROUNDS)

    # New session: four names clockwise, the Rummi preset as it is, Ann deals first.
    page.goto("/sessions/new")
    for i, name in enumerate(SEATS, start=1):
        page.get_by_label(f"Seat {i}", exact=True).fill(name)
    page.get_by_label("Rules").select_option(label="Rummi")
    page.get_by_text("House rules").tap()  # open them to see what the preset filled in
    expect(page.get_by_label("Play goes")).to_have_value("anticlockwise")
    expect(page.get_by_label("Units by place")).to_have_value("0 1 2 3 4 5")
    expect(page.get_by_label("One unit")).to_have_value("1.00")
    expect(page.get_by_label("Hu", exact=True)).to_have_value("3.00")
    expect(page.get_by_label("Joker / ace")).to_have_value("0.50")
    expect(page.get_by_label("Jokers", exact=True)).to_have_value("8")
    expect(page.get_by_label("No passport ranks last")).to_be_checked()
    expect(page.get_by_label("Currency")).to_have_value(CURRENCY)
    page.get_by_label("First dealer").select_option(label=f"Seat 1: {FIRST_DEALER}")
    page.get_by_role("button", name="Start session").tap()
    page.wait_for_url(re.compile(r"/sessions/\d+$"))
    board_url = page.url

    # Three rounds: the first tapped in card by card, then a Hu with a slip
    # on Cat's cards, then Ann's twin aces (the other hands typed).
    for number, (hands, expected) in enumerate(zip(ROUNDS, results, strict=True), start=1):
        enter_round(page, number, hands, expected, slip="Cat" if number == 2 else None,
                    tapped=[None, {"Cat"}, {"Ann"}][number - 1])
        page.get_by_role("link", name="← Scoreboard").tap()
        page.wait_for_url(board_url)

    # Round 1 corrected: Ann's two queens come off (a tap on each chip), a 2♥ goes on.
    page.get_by_role("link", name="Round 1", exact=True).tap()
    page.get_by_role("link", name="Edit round 1").tap()
    page.wait_for_url(re.compile(r"/rounds/1/edit$"))
    expect(page.locator("#card-pad")).to_be_hidden()  # nobody is active on an edit page
    ann = panel(page, "Ann")
    expect(ann.locator(".round-chips > button.round-chip")).to_have_text(["Q♠", "Q♥", "3♣"])
    ann.get_by_role("button", name="Remove queen of spades").tap()
    expect(page.locator("#card-pad-player")).to_have_text("Ann")  # the chip's player is active
    ann.get_by_role("button", name="Remove queen of hearts").tap()
    expect(ann.locator("output.round-points")).to_have_text(live_points(["3C"]))
    tap_cards(page, "Ann", ["2H"])
    expect(ann.locator(".round-cards input")).to_have_value(EDITED_ANN)
    save = page.locator(".round-actions button[type=submit]").first
    expect(save).to_have_text("Save changes")
    save.tap()
    page.wait_for_url(re.compile(r"/rounds/1$"))

    # Settle up: the message for the group chat, copied to the clipboard.
    page.goto(board_url)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("link", name="Settle up").tap()
    page.wait_for_url("**/settle")
    message = page.locator("#share-text").input_value()
    assert message.startswith(f"{GROUP_NAME}: rummy on ")
    page.get_by_role("button", name="Copy as text").tap()
    expect(page.get_by_role("status")).to_have_text("Copied: paste it into the chat.")
    assert page.evaluate("navigator.clipboard.readText()") == message
    assert outside_requests == []
