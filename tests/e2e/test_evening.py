"""An evening of Rummi on a phone, as a new user goes through it: start a session
for four, enter three rounds by tapping cards on the pad (a tie, a Hu, twin aces),
correct the first round, settle up and end the session, then look it up in history.

The money expected here is worked out by the small, independent implementation of
RULES.md §8–§10 below (``expected_round``), and cross-checked against totals worked
out by hand. Every page visited is checked for axe findings, tap targets under 44 px,
sideways scrolling and requests to another host, and saved as a phone-size picture
in docs/screenshots/.
"""

import re
from collections import Counter

from playwright.sync_api import expect

from tests.e2e.conftest import phone_page_problems, screenshot

SEATS = ["Ann", "Ben", "Cat", "Dan"]  # clockwise round the table
FIRST_DEALER = "Ann"
CURRENCY = "RM"

# The Rummi preset as it comes (RULES.md §3, §4, §9).
TIERS = (0, 1, 2, 3, 4, 5)
UNIT_CENTS, HU_CENTS, JOKER_ACE_CENTS, JOKER_POINTS = 100, 300, 50, 20

# What each player is left holding, by round; "hu" went out.
ROUNDS = [
    # Dan and Cat tie for first on 14 points.
    {"Ann": "QS QH 3C", "Ben": "JK 7C", "Cat": "4D KC", "Dan": "5S 9H"},
    # Ben goes out.
    {"Ann": "JK 6S", "Ben": "hu", "Cat": "AH 2C", "Dan": "4S 4D"},
    # Ann holds twin aces of clubs: each counts 2 units.
    {"Ann": "AC AC 2S", "Ben": "AS 9H", "Cat": "JK 7H", "Dan": "3D 4D"},
]
# Round 1 corrected: Ann had 3C 2H, not QS QH 3C.
EDITED_ANN = "3C 2H"

# The same money worked out by hand, as a check on expected_round itself.
# Round 1 (dealer Ann; play Dan Cat Ben Ann). Points Dan 14, Cat 14, Ann 23, Ben 27:
#   Dan and Cat tie for 1st; Ann (3rd) pays 2.00, Ben (4th) 3.00; Dan, Cat +2.50 each.
#   Units: Ben 1 (joker), Σ 1: Ben 0.50×(1−4) = −1.50, the others +0.50.
#   Net: Ann −1.50, Ben −4.50, Cat +3.00, Dan +3.00. Dan deals next (first in play).
# Round 2 (dealer Dan; play Cat Ben Ann Dan). Ben Hu: +9.00, the others −3.00.
#   Units: Ann 1, Cat 1, Σ 2: Ann, Cat 0.50×(2−4) = −1.00; Ben, Dan +1.00.
#   Net: Ann −4.00, Ben +10.00, Cat −4.00, Dan −2.00. Ben deals next.
# Round 3 (dealer Ben; play Ann Dan Cat Ben). Points Dan 7, Ben 24, Cat 27, Ann 32:
#   Ben −1.00, Cat −2.00, Ann −3.00, Dan +6.00.
#   Units: Ann 4 (twin aces), Ben 1, Cat 1, Σ 6: Ann 0.50×(6−16) = −5.00,
#   Ben, Cat +1.00, Dan +3.00. Net: Ann −8.00, Ben 0.00, Cat −1.00, Dan +9.00.
BY_HAND_BEFORE_EDIT = {"Ann": -1350, "Ben": 550, "Cat": -200, "Dan": 1000}
# Round 1 edited: Ann 5 points wins; Dan and Cat tie for 2nd on 14 and each pay
#   avg(1, 2) = 1.50; Ben 3.00. With the joker: Ann +6.50, Ben −4.50, Cat −1.00,
#   Dan −1.00. Ann now deals round 2 (play Dan Cat Ben Ann): its money is unchanged.
BY_HAND_AFTER_EDIT = {"Ann": -550, "Ben": 550, "Cat": -600, "Dan": 600}
# Fewest transfers: two pairs that settle each other.
TRANSFERS = [("Ann", "Ben", 550), ("Cat", "Dan", 600)]


# An independent reading of RULES.md §4, §8–§10 for the Rummi preset.

def card_points(card: str) -> int:
    if card == "JK":
        return JOKER_POINTS
    rank = card[:-1]
    return 15 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)


def playing_order(dealer: str) -> list[str]:
    """Anticlockwise: play starts at the dealer's right, the previous seat clockwise."""
    i = SEATS.index(dealer)
    return [SEATS[(i - k) % len(SEATS)] for k in range(1, len(SEATS) + 1)]


def expected_round(dealer: str, hands: dict) -> dict:
    order = playing_order(dealer)
    winner = next((p for p in order if hands[p] == "hu"), None)
    cards = {p: [] if hands[p] == "hu" else hands[p].split() for p in order}
    points = {p: sum(map(card_points, cards[p])) for p in order}
    key = {p: (0, 0) if p == winner else (1, points[p]) for p in order}
    position = {p: 1 + sum(key[q] < key[p] for q in order) for p in order}
    money = dict.fromkeys(order, 0)
    if winner:
        for p in order:
            if p != winner:
                money[p] -= HU_CENTS
                money[winner] += HU_CENTS
    else:
        for p in order:
            first = position[p]
            if first == 1:
                continue
            size = sum(position[q] == first for q in order)
            units = sum(TIERS[min(q, len(TIERS)) - 1] for q in range(first, first + size))
            money[p] -= (2 * units * UNIT_CENTS + size) // (2 * size)  # average, half up
        firsts = [p for p in order if position[p] == 1]
        share, extra = divmod(-sum(money.values()), len(firsts))
        for i, p in enumerate(firsts):
            money[p] += share + (i < extra)
    units = {}
    for p in order:
        held = Counter(cards[p])
        units[p] = held["JK"] + sum(n * (2 if n >= 2 else 1)
                                    for card, n in held.items() if card.startswith("A"))
    for p in order:
        money[p] += JOKER_ACE_CENTS * (sum(units.values()) - len(order) * units[p])
    assert sum(money.values()) == 0
    return {"dealer": dealer, "order": order, "points": points, "position": position,
            "money": money,
            "next": min(order, key=lambda p: (position[p], order.index(p)))}


def expected_evening(rounds: list[dict]) -> list[dict]:
    results, dealer = [], FIRST_DEALER
    for hands in rounds:
        results.append(expected_round(dealer, hands))
        dealer = results[-1]["next"]
    return results


def totals(results: list[dict], what: str) -> dict:
    return {p: sum(r[what][p] for r in results) for p in SEATS}


def shown(cents: int) -> str:
    """Money as the app writes it: "+9.00", "−1.50" (a real minus sign), "0.00"."""
    sign = "+" if cents > 0 else "\u2212" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def plain(text: str) -> str:
    return " ".join(text.split())


# Driving the pages.

def check(page, outside_requests) -> None:
    assert phone_page_problems(page) == []
    assert outside_requests == []


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
    if add.get_attribute("aria-pressed") != "true":
        add.tap()
    expect(add).to_have_attribute("aria-pressed", "true")
    expect(section).to_have_class(re.compile(r"\bround-player-active\b"))
    pad = page.locator("#card-pad")
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
    expect(section.get_by_role("radio", name="Hu", exact=True)).to_be_checked()
    expect(section.locator(".round-cards")).to_be_hidden()
    expect(section.locator("output.round-points")).to_have_text("Hu · 0 pts")


def result_lines(page) -> dict:
    """{name: (place, money shown)} from a round's result page, checking the order."""
    found, places = {}, []
    for line in page.locator("li.round-line").all():
        name = line.locator(".round-name").inner_text()
        place = int(re.search(r"\d+", line.locator(".round-pos").inner_text()).group())
        places.append(place)
        found[name] = (place, line.locator(".round-money > strong").inner_text())
        is_win = "round-line-win" in (line.get_attribute("class") or "")
        assert is_win == (place == 1), name
    assert places == sorted(places)
    return found


def check_result(page, number: int, expected: dict, next_dealer: str | None) -> None:
    """Round ``number``'s result page against what is expected of it."""
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
    assert plain(page.locator(".round-order").inner_text()) == (
        f"{expected['dealer']} dealt. Play: {' → '.join(expected['order'])}")
    lines = result_lines(page)
    assert lines == {p: (expected["position"][p], shown(expected["money"][p])) for p in SEATS}
    # Each round sums to zero, as shown on the page.
    assert sum(int(m.replace("\u2212", "-").replace(".", "")) for _, m in lines.values()) == 0
    if next_dealer is not None:
        assert plain(page.locator(".round-next").inner_text()) == (
            f"Next: {next_dealer} deals round {number + 1}.")


def check_board(page, results: list[dict]) -> None:
    """The scoreboard: running points and money, who deals and plays first next."""
    expect(page.get_by_role("heading", level=1)).to_contain_text("Scoreboard")
    points, money = totals(results, "points"), totals(results, "money")
    rows = [[plain(c.inner_text()) for c in row.locator("th, td").all()]
            for row in page.locator("table.board-totals tbody tr").all()]
    assert rows == [[p, str(points[p]), shown(money[p])] for p in SEATS]
    dealer = results[-1]["next"] if results else FIRST_DEALER
    order = playing_order(dealer)
    assert plain(page.locator(".board-next h2").inner_text()) == f"Round {len(results) + 1}"
    assert plain(page.locator(".board-deal").inner_text()) == f"{dealer} deals"
    assert plain(page.locator(".board-first").inner_text()) == f"{order[0]} plays first"
    assert page.locator(".board-order-name").all_inner_texts() == order
    assert page.locator("table.board-rounds tbody tr").count() == len(results)


def enter_round(page, outside_requests, number: int, hands: dict, expected: dict,
                picture: str | None = None, slip: str | None = None) -> None:
    """From the scoreboard, enter round ``number`` by tapping cards and save it."""
    page.get_by_role("link", name=f"Enter round {number}").tap()
    page.wait_for_url(re.compile(r"/rounds/new$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
    assert plain(page.locator(".round-order").inner_text()) == (
        f"{expected['dealer']} deals. Play: {' → '.join(expected['order'])}")
    # The player who plays first is ready for cards as soon as the page opens.
    first = expected["order"][0]
    expect(page.locator("#card-pad")).to_be_visible()
    expect(page.locator("#card-pad-player")).to_have_text(first)
    expect(panel(page, first)).to_have_class(re.compile(r"\bround-player-active\b"))
    for name in expected["order"]:
        if hands[name] == "hu":
            declare_hu(page, name)
        else:
            tap_cards(page, name, hands[name].split())
            if name == slip:  # a wrong card tapped, and taken back
                cards_input = panel(page, name).locator(".round-cards input")
                page.get_by_role("button", name="Add king of clubs").tap()
                expect(cards_input).to_have_value(hands[name] + " KC")
                page.get_by_role("button", name="Remove the last card").tap()
                expect(cards_input).to_have_value(hands[name])
    if picture:
        check(page, outside_requests)
        screenshot(page, picture)
    if "AC AC" in hands.values():  # both aces of clubs are held: none left to add
        page.locator("#card-pad").get_by_role("button", name="Clubs", exact=True).tap()
        expect(page.get_by_role("button", name="Add ace of clubs")).to_be_disabled()
        expect(page.get_by_role("button", name="Add 2 of clubs")).to_be_enabled()
    page.get_by_role("button", name="Done", exact=True).tap()
    expect(page.locator("#card-pad")).to_be_hidden()
    expect(page.locator(".round-add[aria-pressed=true]")).to_have_count(0)
    save = page.locator(".round-actions button[type=submit]").first
    expect(save).to_have_text(f"Save round {number}")
    save.tap()
    page.wait_for_url(re.compile(rf"/rounds/{number}$"))


def test_an_evening_of_rummi(page, base_url, outside_requests):
    results = expected_evening(ROUNDS)
    assert totals(results, "money") == BY_HAND_BEFORE_EDIT
    assert [r["dealer"] for r in results] == ["Ann", "Dan", "Ben"]

    # A new phone: create the table's group, name the phone.
    page.goto("/")
    check(page, outside_requests)
    page.get_by_role("link", name="Create a group").tap()
    page.wait_for_url("**/groups/new")
    page.get_by_label("Group name").fill("Thursday rummy")
    page.get_by_label("Passphrase", exact=True).fill("sapu bersih 88")
    page.get_by_label("Passphrase again").fill("sapu bersih 88")
    page.get_by_label("This phone's name").fill("Ann's phone")
    check(page, outside_requests)
    screenshot(page, "new-group")
    page.get_by_role("button", name="Create the group").tap()

    # Home: signed in, nothing played yet.
    page.wait_for_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday rummy")
    check(page, outside_requests)
    page.get_by_role("link", name="New session").tap()

    # New session: four names clockwise, the Rummi preset as it is, Ann deals first.
    page.wait_for_url("**/sessions/new")
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
    page.get_by_text("House rules").tap()
    check(page, outside_requests)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "new-session")
    page.get_by_role("button", name="Start session").tap()
    page.wait_for_url(re.compile(r"/sessions/\d+$"))
    board_url = page.url
    check_board(page, [])
    check(page, outside_requests)

    # Three rounds, tapped in card by card.
    for number, (hands, expected) in enumerate(zip(ROUNDS, results, strict=True), start=1):
        enter_round(page, outside_requests, number, hands, expected,
                    picture="round-entry" if number == 1 else None,
                    slip="Cat" if number == 2 else None)
        check_result(page, number, expected, expected["next"])
        if number == 3:  # tiers and the joker/ace adjustment, twin aces included
            expect(page.locator(".round-parts dt")).to_have_text(
                ["Tiers", "Jokers & aces"] * len(SEATS))
            check(page, outside_requests)
            screenshot(page, "round-result")
        page.get_by_role("link", name="← Scoreboard").tap()
        page.wait_for_url(board_url)
        check_board(page, results[:number])
    check(page, outside_requests)
    screenshot(page, "scoreboard")

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
    check(page, outside_requests)
    screenshot(page, "round-edit")
    save = page.locator(".round-actions button[type=submit]").first
    expect(save).to_have_text("Save changes")
    save.tap()
    page.wait_for_url(re.compile(r"/rounds/1$"))

    edited = expected_evening([{**ROUNDS[0], "Ann": EDITED_ANN}, *ROUNDS[1:]])
    assert totals(edited, "money") == BY_HAND_AFTER_EDIT
    assert [r["dealer"] for r in edited] == ["Ann", "Ann", "Ben"]
    # Round 1 now names who dealt round 2 (no longer the latest round).
    check_result(page, 1, edited[0], None)
    assert plain(page.locator(".round-next").inner_text()) == "Ann dealt round 2."
    # The rounds after it are worked out again: round 2's dealer and playing order.
    page.get_by_role("link", name="round 2").tap()
    page.wait_for_url(re.compile(r"/rounds/2$"))
    check_result(page, 2, edited[1], None)
    page.goto(board_url + "/rounds/3")
    check_result(page, 3, edited[2], edited[2]["next"])
    page.goto(board_url)
    check_board(page, edited)

    # Settle up: the fewest transfers, copied as text for the group chat.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.get_by_role("link", name="Settle up").tap()
    page.wait_for_url("**/settle")
    balances = totals(edited, "money")
    rows = [[plain(c.inner_text()) for c in row.locator("th, td").all()]
            for row in page.locator("table.board-totals tbody tr").all()]
    assert rows == [[p, shown(balances[p])] for p in SEATS]
    transfers = page.locator("li.settle-transfer")
    assert [(plain(t.locator(".settle-line").inner_text())) for t in transfers.all()] == [
        f"{payer} pays {payee} {CURRENCY} {cents // 100}.{cents % 100:02d}"
        for payer, payee, cents in TRANSFERS]
    day = plain(page.locator("h1 .board-day").inner_text()).split()[1:]  # "22 Nov 2026"
    message = "\n".join([f"Rummy {' '.join(day)} — settle up:"] + [
        f"{payer} pays {payee} {CURRENCY} {cents // 100}.{cents % 100:02d}"
        for payer, payee, cents in TRANSFERS])
    page.get_by_role("button", name="Copy as text").tap()
    expect(page.get_by_role("status")).to_have_text("Copied: paste it into the chat.")
    assert page.evaluate("navigator.clipboard.readText()") == message
    check(page, outside_requests)

    transfers.first.get_by_role("button", name="Mark as paid").tap()
    page.wait_for_url("**/settle#transfers")
    expect(transfers.first).to_have_class(re.compile(r"\bsettle-paid\b"))
    expect(transfers.first.locator(".settle-status")).to_have_text("✓ Paid")
    expect(transfers.nth(1).locator(".settle-status")).to_have_text("Not paid yet")
    expect(page.locator("#share-text")).to_have_value(
        message.replace("RM 5.50", "RM 5.50 (paid)"))
    check(page, outside_requests)
    screenshot(page, "settle")

    page.get_by_text("End the session", exact=True).tap()
    page.get_by_role("button", name="End the session now").tap()
    page.wait_for_url(board_url)
    expect(page.locator(".board-ended")).to_contain_text("This session ended on")
    expect(page.get_by_role("link", name=re.compile(r"^Enter round"))).to_have_count(0)
    check(page, outside_requests)

    # History: the finished session, its record, and a player's record.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="History").tap()
    page.wait_for_url("**/history")
    item = page.locator("li.history-item")
    expect(item).to_have_count(1)
    expect(item.locator(".history-round-count")).to_have_text("3 rounds")
    expect(item.locator(".history-player")).to_have_text(SEATS)
    expect(item.locator(".history-top")).to_contain_text(f"Top: Dan {CURRENCY} 6.00")
    check(page, outside_requests)
    screenshot(page, "history")

    item.locator("a.history-item-head").tap()
    page.wait_for_url(re.compile(r"/history/sessions/\d+$"))
    expect(page.locator(".lead")).to_have_text("3 rounds, finished.")
    rows = [[plain(c.inner_text()) for c in row.locator("th, td").all()]
            for row in page.locator("section[aria-labelledby=balances-title] tbody tr").all()]
    assert rows == [[p, shown(balances[p])] for p in SEATS]
    expect(page.locator(".history-transfers li")).to_have_count(2)
    expect(page.locator(".history-transfers li").first).to_contain_text("✓ paid")
    expect(page.locator(".history-transfers li").nth(1)).to_contain_text("not paid")
    for number, expected in enumerate(edited, start=1):
        expect(page.locator(f"#round-{number} .history-round-head")).to_have_text(
            f"Round {number} dealer {expected['dealer']}")
    check(page, outside_requests)
    screenshot(page, "history-session")

    page.locator("section[aria-labelledby=balances-title]").get_by_role(
        "link", name="Ann", exact=True).tap()
    page.wait_for_url(re.compile(r"/players/\d+$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann")
    stats = dict(zip(page.locator(".history-stats dt").all_inner_texts(),
                     page.locator(".history-stats dd").all_inner_texts(), strict=True))
    wins = sum(r["position"]["Ann"] == 1 for r in edited)
    assert stats["Sessions"] == "1" and stats["Rounds"] == "3" and stats["Wins"] == str(wins)
    expect(page.locator(".history-net td")).to_have_text(shown(balances["Ann"]))
    check(page, outside_requests)
    screenshot(page, "player")

    # Home lists the finished session.
    page.get_by_role("link", name="Scorekeeper").first.tap()
    expect(page.get_by_role("heading", name="Finished")).to_be_visible()
    check(page, outside_requests)
    screenshot(page, "home")
