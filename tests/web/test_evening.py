"""The evening of tests/e2e/test_evening.py, as the pages show it: what the
browser test once read off each page (places, money, dealers, the scoreboard,
the settlement, history) is read here from the same pages through the test
client, against the evening's own reckoning (tests/web/evening.py). The browser
test keeps what needs a browser: the pad, the preset filled in by its script,
the chips, the clipboard."""

import re
from html import unescape

from scorekeeper.forms.sessions import rule_texts
from scorekeeper.rules import HouseRules
from tests.conftest import GROUP_NAME
from tests.web.evening import (
    BY_HAND_AFTER_EDIT,
    BY_HAND_BEFORE_EDIT,
    CURRENCY,
    EDITED_ANN,
    FIRST_DEALER,
    ROUNDS,
    SEATS,
    TRANSFERS,
    expected_evening,
    playing_order,
    shown,
    totals,
)
from tests.web.helpers import csrf_token, filled, forms_on, parsed, player_ids


def cells(row) -> list[str]:
    return [cell.text for cell in row.children
            if not isinstance(cell, str) and cell.tag in ("th", "td")]


def rows(page, selector: str) -> list[list[str]]:
    return [cells(row) for row in page.select(selector)]


def start(client) -> str:
    """The session started through its form: the four seats clockwise, the
    Rummi preset as it is, Ann first to deal. Its scoreboard's path."""
    data = {"csrf_token": csrf_token(client, "/sessions/new"), "preset": "rummi",
            "currency": CURRENCY, "first_dealer": str(SEATS.index(FIRST_DEALER))}
    for name, value in rule_texts(HouseRules.rummi()).items():
        if value is not False:
            data[name] = "y" if value is True else value
    data |= {f"seats-{i}": name for i, name in enumerate(SEATS)}
    response = client.post("/sessions/new", data=data)
    assert response.status_code == 302
    return response.location


def typed(hands: dict) -> dict:
    return {name: ("hu", "") if cards == "hu" else ("dead", cards) for name, cards in hands.items()}


def save(client, url: str, hands: dict, ids: dict):
    names = {i: n for n, i in ids.items()}
    page = client.get(url).text
    response = client.post(url, data=filled(page, typed(hands), names))
    assert response.status_code == 302, response.text
    return response.location


def check_result(client, board: str, number: int, expected: dict, next_dealer: str | None):
    """Round ``number``'s result page against what is expected of it."""
    page = parsed(client.get(f"{board}/rounds/{number}"))
    assert page.texts("h1") == [f"Round {number}"]
    assert page.texts(".round-order") == [
        f"{expected['dealer']} dealt. Play: {' → '.join(expected['order'])}"]
    lines, places = {}, []
    for line in page.select("li.round-line"):
        (name,) = line.texts(".round-name")
        place = int(re.search(r"\d+", line.texts(".round-pos")[0]).group())
        places.append(place)
        lines[name] = (place, line.texts(".round-money strong")[0])
        assert ("round-line-win" in line.attrs["class"].split()) == (place == 1), name
    assert places == sorted(places)
    assert lines == {p: (expected["position"][p], shown(expected["money"][p])) for p in SEATS}
    # Each round sums to zero, as shown on the page.
    assert sum(int(m.replace("\u2212", "-").replace(".", "")) for _, m in lines.values()) == 0
    if next_dealer is not None:
        assert page.texts(".round-next") == [f"Next: {next_dealer} deals round {number + 1}."]
    return page


def check_board(client, board: str, results: list[dict]) -> None:
    """The scoreboard: running points and money, who deals and plays first next."""
    page = parsed(client.get(board))
    points, money = totals(results, "points"), totals(results, "money")
    # No ".00" where every amount of the table is whole; the most money leads.
    whole = all(r["money"][p] % 100 == 0 for r in results for p in SEATS)
    most = max(money.values()) if results else None
    assert rows(page, "table.board-totals tbody tr") == [
        [p + (" leads" if money[p] == most else ""), str(points[p]), shown(money[p], whole)]
        for p in SEATS]
    dealer = results[-1]["next"] if results else FIRST_DEALER
    order = playing_order(dealer)
    assert page.texts(".board-next h2") == [f"Round {len(results) + 1}"]
    assert page.texts(".board-deal") == [f"{dealer} deals"]
    assert page.texts(".board-first") == [f"{order[0]} plays first"]
    assert page.texts(".board-order-name") == order
    assert len(page.select("table.board-rounds tbody tr")) == len(results)


def test_an_evening_of_rummi_as_its_pages_show_it(app, client):
    results = expected_evening(ROUNDS)
    assert totals(results, "money") == BY_HAND_BEFORE_EDIT
    assert [r["dealer"] for r in results] == ["Ann", "Dan", "Ben"]

    board = start(client)
    with app.app_context():
        ids = player_ids()
    check_board(client, board, [])
    for number, (hands, expected) in enumerate(zip(ROUNDS, results, strict=True), start=1):
        assert save(client, f"{board}/rounds/new", hands, ids) == f"{board}/rounds/{number}"
        page = check_result(client, board, number, expected, expected["next"])
        if number == 3:  # tiers and the joker/ace adjustment, twin aces included
            assert page.texts(".round-parts dt") == ["Tiers", "Jokers & aces"] * len(SEATS)
        check_board(client, board, results[:number])

    # Round 1 corrected: Ann had 3C 2H.
    assert save(client, f"{board}/rounds/1/edit", {"Ann": EDITED_ANN}, ids) == f"{board}/rounds/1"
    edited = expected_evening([{**ROUNDS[0], "Ann": EDITED_ANN}, *ROUNDS[1:]])
    assert totals(edited, "money") == BY_HAND_AFTER_EDIT
    assert [r["dealer"] for r in edited] == ["Ann", "Ann", "Ben"]
    # Round 1 now names who dealt round 2 (no longer the latest round).
    page = check_result(client, board, 1, edited[0], None)
    assert page.texts(".round-next") == ["Ann dealt round 2."]
    # The rounds after it are worked out again: round 2's dealer and playing order.
    check_result(client, board, 2, edited[1], None)
    check_result(client, board, 3, edited[2], edited[2]["next"])
    check_board(client, board, edited)

    # Settle up: the fewest transfers, and the message for the group chat.
    settle = client.get(f"{board}/settle").text
    page = parsed(settle)
    balances = totals(edited, "money")
    assert rows(page, "table.board-totals tbody tr") == [[p, shown(balances[p])] for p in SEATS]
    said = [f"{payer} pays {payee} {CURRENCY} {cents // 100}.{cents % 100:02d}"
            for payer, payee, cents in TRANSFERS]
    assert page.texts("li.settle-transfer .settle-line") == said
    day = page.texts("h1 .board-day")[0]  # "Sun 22 Nov 2026"
    best_first = sorted(SEATS, key=lambda p: -balances[p])
    nets = [f"{place}. {p} {shown(balances[p])[0]}{CURRENCY} {shown(abs(balances[p]))[1:]}"
            for place, p in enumerate(best_first, start=1)]  # no balance is even
    message = "\n".join([f"{GROUP_NAME}: rummy on {day} (so far)", *nets, "Who pays whom:", *said])
    assert message_on(settle) == message

    paid = next(form for form in forms_on(settle) if form.action.endswith("/settle/paid"))
    response = client.post(paid.action, data={k: v[0] for k, v in paid.values.items()})
    assert response.location == f"{board}/settle#transfers"
    settle = client.get(f"{board}/settle").text
    transfers = parsed(settle).select("li.settle-transfer")
    assert "settle-paid" in transfers[0].attrs["class"].split()
    assert [t.texts(".settle-status") for t in transfers] == [["✓ Paid"], ["Not paid yet"]]
    assert message_on(settle) == message.replace("Ben RM 5.50", "Ben RM 5.50 (paid)")

    (end,) = [form for form in forms_on(settle) if form.action.endswith("/end")]
    assert client.post(end.action, data={k: v[0] for k, v in end.values.items()}).location == board
    page = parsed(client.get(board))
    assert page.texts("h1")[0] == f"The night {day}"
    assert message_on(client.get(board).text) == message.replace("(so far)", "(final)").replace(
        "Ben RM 5.50", "Ben RM 5.50 (paid)")
    assert not [a for a in page.select("a") if a.text.startswith("Enter round")]

    # History: the finished session, its record, and a player's record.
    page = parsed(client.get("/history"))
    (item,) = page.select("li.history-item")
    assert item.texts(".history-round-count") == ["3 rounds"]
    assert item.texts(".history-player") == SEATS
    assert f"Top: Dan {CURRENCY} 6.00" in item.texts(".history-top")[0]

    (record,) = [a.attrs["href"] for a in item.select("a.history-item-head")]
    page = parsed(client.get(record))
    assert page.texts(".lead") == ["3 rounds, finished."]
    assert rows(page, "section[aria-labelledby=balances-title] tbody tr") == [
        [p, shown(balances[p])] for p in SEATS]
    transfers = page.texts(".history-transfers li")
    assert len(transfers) == 2 and "✓ paid" in transfers[0] and "not paid" in transfers[1]
    for number, expected in enumerate(edited, start=1):
        assert page.texts(f"#round-{number} .history-round-head") == [
            f"Round {number} dealer {expected['dealer']}"]

    ann = next(a.attrs["href"] for a in page.select("section[aria-labelledby=balances-title] a")
           if a.text == "Ann")
    page = parsed(client.get(ann))
    assert page.texts("h1") == ["Ann"]
    stats = dict(zip(page.texts(".history-stats dt"), page.texts(".history-stats dd"),
                     strict=True))
    wins = sum(r["position"]["Ann"] == 1 for r in edited)
    assert stats["Sessions"] == "1" and stats["Rounds"] == "3" and stats["Wins"] == str(wins)
    assert page.texts(".history-net td") == [shown(balances["Ann"])]

    # Home lists the finished session.
    assert "Finished" in parsed(client.get("/")).texts("h2")


def message_on(settle: str) -> str:
    """The settle-up message as its textarea holds it."""
    return unescape(re.search(r'id="share-text"[^>]*>(.*?)</textarea>', settle, re.S).group(1))
