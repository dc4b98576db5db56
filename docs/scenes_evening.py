"""The README's pictures of an evening: a new group and a session played,
the group's pages, getting in, a round filled in together, offline, and the
rules (docs/screenshots.py takes them)."""

from __future__ import annotations

import re

from camera import Camera, hands, phone
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import HouseRules
from scorekeeper.web.share_links import share_url
from tests.conftest import the_group
from tests.e2e import test_evening as evening
from tests.e2e import test_offline_queue as queue
from tests.e2e import test_table_phone as table_phone
from tests.e2e.conftest import (
    back_online,
    controlled,
    see,
    signed_in,
)
from tests.e2e.together import steps as together
from tests.web.evening import CURRENCY, EDITED_ANN, FIRST_DEALER, ROUNDS, SEATS


def an_evening(camera: Camera) -> None:
    """A new group, a session of Rummi for four, three rounds on the pad,
    round 1 corrected, settled and ended, and looked up in history."""
    context = camera.phone(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/groups/new")
    page.get_by_label("Group name").fill("Thursday rummy")
    page.get_by_label("Passphrase", exact=True).fill("sapu bersih 88")
    page.get_by_label("Passphrase again").fill("sapu bersih 88")
    page.get_by_label("This phone's name").fill("Ann's phone")
    camera.take(page, "new-group")
    page.get_by_role("button", name="Create the group").tap()
    page.wait_for_url(re.compile(r"/group/invite$"))
    page.get_by_role("button", name="Show an invite QR code").tap()
    expect(page.get_by_role("img", name=re.compile("QR code of the invite link"))).to_be_visible()
    camera.take(page, "invite")
    page.goto("/")
    page.get_by_label("Someone new").fill("Ann")
    page.get_by_role("button", name="That’s me").tap()
    expect(page.get_by_text("Which player are you?")).to_have_count(0)

    page.goto("/sessions/new")
    for i, name in enumerate(SEATS, start=1):
        page.get_by_label(f"Seat {i}", exact=True).fill(name)
    page.get_by_label("Rules").select_option(label="Rummi")
    expect(page.get_by_label("Currency")).to_have_value(CURRENCY)
    page.get_by_label("First dealer").select_option(label=f"Seat 1: {FIRST_DEALER}")
    page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
    camera.take(page, "new-session")
    page.get_by_role("button", name="Start session").tap()
    page.wait_for_url(re.compile(r"/sessions/\d+$"))
    board = page.url

    for number, (typed, expected) in enumerate(
            zip(ROUNDS, evening.expected_evening(ROUNDS), strict=True), start=1):
        page.goto(f"{board}/rounds/new")
        expect(page.locator("#card-pad")).to_be_visible()
        for name in expected["order"]:
            if typed[name] == "hu":
                evening.declare_hu(page, name)
            else:
                evening.tap_cards(page, name, typed[name].split())
        if number == 1:
            # A touch on the pad's title ends the last key's tap highlight.
            page.locator("#card-pad-player").tap()
            camera.take(page, "round-entry")
        page.get_by_role("button", name="Done", exact=True).tap()
        page.locator(".round-actions button[type=submit]").first.tap()
        page.wait_for_url(re.compile(rf"/rounds/{number}$"))
    camera.take(page, "round-result")
    page.goto(board)
    camera.take(page, "scoreboard")

    page.goto(f"{board}/rounds/1/edit")
    page.get_by_label("Cards left in Ann's hand").fill(EDITED_ANN)
    page.locator(".round-actions button[type=submit]").first.tap()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    page.goto(f"{board}/settle")
    page.locator("li.settle-transfer").first.get_by_role("button", name="Mark as paid").tap()
    page.wait_for_url("**/settle#transfers")
    expect(page.get_by_role("button", name="Copy as text")).to_be_visible()
    camera.take(page, "settle")
    page.get_by_text("End the session", exact=True).tap()
    page.get_by_role("button", name="End the session now").tap()
    page.wait_for_url(board)
    expect(page.get_by_role("heading", name="Final places")).to_be_visible()
    camera.take(page, "night")

    page.goto("/history")
    camera.take(page, "history")
    page.locator("li.history-item a.history-item-head").tap()
    page.wait_for_url(re.compile(r"/history/sessions/\d+$"))
    camera.take(page, "history-session")
    page.locator("section[aria-labelledby=balances-title]").get_by_role(
        "link", name="Ann", exact=True).tap()
    page.wait_for_url(re.compile(r"/players/\d+$"))
    camera.take(page, "player")
    page.goto("/")
    camera.take(page, "home")
    page.context.close()


def group_pages(camera: Camera) -> None:
    """A finished session with a round deleted and a payment, and one in play
    with a share link: the group's page, the history of changes, the share
    links, the shared scoreboard, the house rules, What if (the finished
    session under Penang's rules) and How we play (from the share link)."""
    with camera.app.app_context():
        group = the_group()
        done = services.start_session(services.Change(group, device="Ann's phone"),
                                      ["Ann", "Ben", "Cat", "Dan"], HouseRules.rummi(), "Ann")
        for typed in ({"Dan": "5S 9H", "Cat": "4D", "Ben": "JK 7C", "Ann": "AC"},
                      {"Dan": "2S", "Ben": "hu", "Ann": "KD", "Cat": "AH"},
                      {"Ann": "9S", "Ben": "2H", "Cat": "5C", "Dan": "hu"}):
            services.record_round(phone(done, "Ann"), hands(typed))
        services.delete_round(phone(done, "Ben"), done.rounds[2])
        first = services.settlement(done)[0].transfer
        services.pay(phone(done, "Cat"), first.payer.id, first.payee.id, first.cents)
        services.end_session(phone(done, "Ann"))
        playing = services.start_session(services.Change(group, device="Ann's phone"),
                                         ["Ann", "Ben", "Cat", "Dan"], HouseRules.rummi(), "Ben")
        services.record_round(phone(playing, "Ben"), hands({"Ann": "3C", "Dan": "8H",
                                                            "Cat": "QS", "Ben": "JK"}))
        part = services.settlement(playing)[0].transfer
        services.pay(phone(playing, "Ben"), part.payer.id, part.payee.id, part.cents // 2)
        link = services.create_share_link(phone(playing, "Ann"))
        with camera.app.test_request_context():
            token = share_url(link, group).rsplit("/", 1)[1]
        done_id, playing_id = done.id, playing.id
    page = camera.member()
    for name, url in {"group": "/group", "changes": f"/sessions/{done_id}/changes",
                      "share-links": f"/sessions/{playing_id}/share",
                      "shared-scoreboard": f"/share/{token}",
                      "house-rules": f"/sessions/{playing_id}/rules", "money": "/money",
                      "settle-part": f"/sessions/{playing_id}/settle",
                      "what-if": f"/sessions/{done_id}/what-if?preset=penang&use_preset=1",
                      "how-we-play": f"/share/{token}/how-we-play"}.items():
        page.goto(url)
        camera.take(page, name)
    page.context.close()


def getting_in(camera: Camera) -> None:
    """A phone opening an invite link ("Which player are you?"), and the
    link once revoked."""
    with camera.app.app_context():
        services.start_session(services.Change(the_group()), SEATS, HouseRules.rummi(), "Ann")
    page = camera.member()
    page.goto("/group/invite")
    page.get_by_role("button", name="Show an invite QR code").tap()
    link = page.locator("#invite-url").input_value()
    joining = camera.phone().new_page()
    joining.goto(link)
    expect(joining.get_by_role("button", name="Ben", exact=True)).to_be_visible()
    camera.take(joining, "invite-join")
    page.goto("/group")
    page.locator("summary", has_text="Revoke invite link").first.tap()
    page.get_by_role("button", name=re.compile("^Revoke invite link")).first.tap()
    page.wait_for_url(re.compile(r"/group/invite$"))
    joining.reload()
    expect(joining.get_by_role("heading", name="This invite link no longer works")).to_be_visible()
    camera.take(joining, "invite-gone")
    for each in (page, joining):
        each.context.close()


def this_phone_and_last_time(camera: Camera) -> None:
    """"This is Ann's phone" on a session of three rounds, and a new session
    as last time at a table with rules of its own."""
    with camera.app.app_context():
        game = services.start_session(services.Change(the_group()), SEATS, HouseRules.rummi(),
                                      "Dan")
        for typed in ROUNDS:
            services.record_round(services.Change.to(game), hands(typed))
        board = f"/sessions/{game.id}"
    page = camera.member()
    page.goto(board)
    page.get_by_text("Whose phone is this?").tap()
    page.get_by_role("button", name="Ann", exact=True).tap()
    expect(page.locator(".board-me-line")).to_contain_text("Ann (this phone)")
    camera.take(page, "this-phone")
    page.context.close()

    weekly = ("Weekly table", "same time next week")
    with camera.app.app_context():
        services.start_session(services.Change(services.create_group(*weekly)), SEATS,
                               table_phone.EXPECTED_RULES, "Ann")
    context = camera.phone()
    signed_in(context, "Ann's phone", *weekly)
    page = context.new_page()
    page.goto("/sessions/new")
    expect(page.get_by_label("Rules")).to_have_value("last")
    camera.take(page, "new-session-as-last-time")
    context.close()


def a_form_told_of_a_change(camera: Camera) -> None:
    with camera.app.app_context():
        game = services.start_session(services.Change(the_group()), SEATS, HouseRules.rummi(),
                                      "Ann")
        board, game_id = f"/sessions/{game.id}", game.id
    page = camera.member(device="Ben's phone")
    page.goto(f"{board}/rounds/new")
    page.get_by_label("Cards left in Cat's hand").fill("QH QD")
    with camera.app.app_context():
        services.record_round(phone(db.session.get(GameSession, game_id), "Ann"),
                              hands({"Ann": "5S", "Ben": "9H", "Cat": "KC", "Dan": "2C"}))
    expect(page.locator("#live-notice")).to_contain_text("Round 1 added from")
    camera.take(page, "live-form-notice")
    page.context.close()


def together_phone(camera: Camera, board: str, ids: dict[str, int], name: str):
    """A phone of its own, signed in as "<name>'s phone", that says it is
    <name>'s, on the round form (as tests/e2e/together/conftest.py's ``phone``)."""
    from tests.web.helpers import token_in

    context = camera.phone()
    signed_in(context, device=f"{name}'s phone")
    token = token_in(context.request.get(board).text())
    context.request.post(f"{board}/phone", form={"csrf_token": token, "player": str(ids[name])})
    page = context.new_page()
    page.goto(f"{board}/rounds/new")
    expect(page.locator("#together[data-draft]")).to_have_count(1)
    return page


def a_table(camera: Camera) -> tuple[str, dict[str, int]]:
    with camera.app.app_context():
        game = services.start_session(services.Change(the_group()), together.PLAYERS,
                                      HouseRules.rummi(), "Ann")
        return f"/sessions/{game.id}", {s.player.name: s.player_id for s in game.seats}


def a_round_together(camera: Camera) -> None:
    """Three phones fill a round in together; two change one hand; two tap
    Save at once; the next round with the same hands."""
    board, ids = a_table(camera)
    ann, ben, cat = (together_phone(camera, board, ids, n) for n in together.PLAYERS)
    together.type_cards(ann, "Ann", "5S 9H")
    with ben.expect_response(together.HAND):
        together.choose(ben, "Ben", "Hu")
    together.told(ann, cat)
    expect(together.strip(ben, "Ann")).to_have_class("together-done")
    camera.take(ben, "together-ben")
    scoreboard = cat.context.new_page()  # Cat's scoreboard: the round is being entered
    scoreboard.goto(board)
    expect(scoreboard.locator(".board-entering")).to_contain_text("Ann ✓")
    camera.take(scoreboard, "together-board")
    scoreboard.close()
    together.type_cards(cat, "Cat", "kd qd 3c")
    together.told(ann, ben)
    expect(ann.locator(".together-ready")).to_be_visible()
    camera.take(ann, "together-ann")
    for page in (ann, ben, cat):
        page.context.close()

    board, ids = a_table(camera)
    ann, cat = (together_phone(camera, board, ids, n) for n in ("Ann", "Cat"))
    together.row(cat, "Cat").get_by_label("Cards left in Cat's hand").fill("2C 4C")
    together.type_cards(ann, "Cat", "2C 3C")
    together.told(cat)
    expect(together.row(cat, "Cat").locator(".together-ask")).to_be_visible()
    camera.take(cat, "together-conflict")
    for page in (ann, cat):
        page.context.close()

    board, ids = a_table(camera)
    ann, ben = (together_phone(camera, board, ids, n) for n in ("Ann", "Ben"))
    typed = {"Ann": "5S 9H", "Ben": "4C 8D", "Cat": "KD QD 3C"}
    for name, cards in typed.items():
        together.type_cards(ben if name == "Ben" else ann, name, cards)
    together.told(ann, ben)
    for page in (ann, ben):
        expect(page.locator(".together-ready")).to_be_visible()
    for page in (ann, ben):  # at once
        page.locator(".round-actions button[type=submit]").first.click(no_wait_after=True)
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{board}/rounds/1(\?saved=\d+)?$"))
    late = ann if "?saved=" in ann.url else ben
    camera.take(late, "together-saved-elsewhere")
    together_round_saved(camera)
    late.get_by_role("link", name="Enter round 2").click()
    expect(late.locator("#together[data-draft]")).to_have_count(1)
    for name, cards in typed.items():
        together.type_cards(late, name, cards)
    late.locator(".round-actions button[type=submit]").first.click()
    expect(late.locator("#round-summary")).to_contain_text("Every hand is the same")
    camera.take(late, "round-same-hands")
    for page in (ann, ben):
        page.context.close()


def together_round_saved(camera: Camera) -> None:
    """Cat saves the round while Ben's pad is open on his hand, half typed."""
    board, ids = a_table(camera)
    ben, cat = (together_phone(camera, board, ids, n) for n in ("Ben", "Cat"))
    ben.get_by_label("Cards left in Ben's hand").fill("4C 8D 2H")
    for name, cards in {"Ann": "5S 9H", "Ben": "4C 8D", "Cat": "KD QD 3C"}.items():
        together.type_cards(cat, name, cards)
    cat.locator(".round-actions button[type=submit]").first.click()
    cat.wait_for_url(f"**{board}/rounds/1")
    together.told(ben)
    expect(ben.locator(".round-saved")).to_contain_text("Typed here")
    camera.take(ben, "together-round-saved")
    for page in (ben, cat):
        page.context.close()


def offline_pages(camera: Camera) -> None:
    """Pages seen opened offline, a page never seen, rounds waiting, a round
    sent after another phone saved one, and an edit not sent."""
    page = camera.member()
    table = queue.start(camera.app)
    page.goto(table["board"])
    controlled(page)
    see(page, [table["board"], table["form"], f"{table['board']}/rounds/1/edit"])
    page.context.set_offline(True)
    page.goto(table["board"])
    expect(page.locator(".offline-bar")).to_be_visible()
    camera.take(page, "offline-scoreboard")
    page.goto("/history")
    expect(page.get_by_role("heading", name="No network")).to_be_visible()
    camera.take(page, "offline-page")
    page.goto(f"{table['board']}/rounds/1/edit")
    page.get_by_label("Cards left in Ann's hand").fill("5S 9H")
    page.locator(".round-actions button[type=submit]").first.click()
    note = page.get_by_role("alert").filter(has_text="No network: nothing was sent")
    expect(note).to_be_visible()
    note.scroll_into_view_if_needed()
    camera.take(page, "offline-round-form")
    page.context.set_offline(False)

    table = queue.start(camera.app)
    queue.saved_offline(page, table, told=True)
    queue.round_3_saved_offline(page, table)
    expect(page.get_by_role("region", name="Kept on this phone")).to_contain_text("Round 3")
    camera.take(page, "offline-rounds-waiting")
    page.context.set_offline(False)
    page.context.close()

    page = camera.member()
    table = queue.start(camera.app)
    queue.saved_offline(page, table)
    queue.record_elsewhere(camera.app, table["id"], queue.HANDS[1])
    back_online(page)
    page.wait_for_url(re.compile(table["form"] + "$"))
    expect(page.get_by_text("Round 2 was saved from Ben's phone.")).to_be_visible()
    camera.take(page, "offline-round-conflict")
    page.context.close()


def playing_and_the_rules(camera: Camera) -> None:
    """A table in the middle of a session: the home page opens it, "As last
    time" asks before starting a second one; and the rules page."""
    saturday = ("Saturday table", "kopi o kosong")
    with camera.app.app_context():
        game = services.start_session(services.Change(services.create_group(*saturday)), SEATS,
                                      HouseRules.penang(), "Ann")
        for typed in ROUNDS[:2]:
            services.record_round(services.Change.to(game), hands(typed))
    context = camera.phone()
    signed_in(context, "Ann's phone", *saturday)
    page = context.new_page()
    page.goto("/")
    camera.take(page, "home-playing")
    page.goto("/sessions/new")
    page.get_by_role("button", name="Start session").last.tap()
    expect(page.get_by_role("button", name="Start another anyway")).to_be_visible()
    page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
    camera.take(page, "already-playing")
    page.goto("/rules")
    camera.take(page, "rules")
    context.close()
