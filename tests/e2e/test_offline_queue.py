"""Rounds entered offline (issue 17): kept on the phone, shown as waiting,
sent by themselves once the network is back, in order and once each; one the
server refuses comes back as its form, as typed, saying why. What the server
holds is read to see what the phone sent (which hands, as which round, how
many times); the money of rounds sent late is checked through the test client
(tests/web/test_table_flows.py)."""

import re

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player, Round, RoundEntry
from scorekeeper.rules import Entry, HouseRules
from tests.conftest import the_group
from tests.e2e.conftest import (
    back_online,
    controlled,
    offline,
    phone_page_problems,
    see,
    until,
)

pytestmark = pytest.mark.service_worker

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
FIRST = {"Ann": "3C", "Ben": "8H", "Cat": "QS", "Dan": "hu"}
HANDS = [{"Ann": "5S 9H", "Ben": "KD", "Cat": "2C", "Dan": "7H"},
         {"Ann": "4D", "Ben": "JC 3S", "Cat": "10H", "Dan": "6C"}]


def start(live_app) -> dict:
    """A session in play with one round."""
    with live_app.app_context():
        game = services.start_session(services.Change(the_group()),
                                      PLAYERS, HouseRules.rummi(), "Ann")
        services.record_round(services.Change.to(game), entries(FIRST))
        board = f"/sessions/{game.id}"
        return {"id": game.id, "board": board, "form": f"{board}/rounds/new"}


def entries(hands: dict) -> dict:
    return {name: Entry("hu") if cards == "hu" else Entry("dead", cards)
            for name, cards in hands.items()}


def saved(live_app, session_id) -> dict[int, dict[str, str]]:
    """The hands the server holds, by round: what the phone sent, as which round."""
    with live_app.app_context():
        rows = db.session.execute(
            sa.select(Round.number, Player.name, RoundEntry.outcome, RoundEntry.cards)
            .join(RoundEntry.round).join(RoundEntry.player)
            .where(Round.session_id == session_id)).all()
    hands: dict[int, dict[str, str]] = {}
    for number, name, outcome, cards in rows:
        hands.setdefault(number, {})[name] = "hu" if outcome == "hu" else cards
    return hands


def rounds(*typed: dict) -> dict[int, dict[str, str]]:
    """Round 1, then ``typed``, as the server would hold them."""
    return dict(enumerate([FIRST, *typed], start=1))


def type_round(page, hands: dict) -> None:
    for name, cards in hands.items():
        page.get_by_label(f"Cards left in {name}'s hand").fill(cards)


def waiting_on_phone(page) -> int:
    return int(page.evaluate("() => localStorage.getItem('scorekeeper-waiting') || '0'"))


def saved_offline(page, table, told: bool = False, hands: dict = HANDS[0]) -> None:
    """Round 2 saved on the round form opened with no network: back on the
    scoreboard. ``told``: the browser knows (navigator.onLine), so the page
    keeps the round at once; else the worker finds out, as on a network that
    looks up but is not. ``hands``: round 2's as typed."""
    page.goto(table["board"])
    controlled(page)
    see(page, [table["board"], table["form"]])
    page.context.set_offline(True)
    page.goto(table["form"])
    if told:
        offline(page)
    type_round(page, hands)
    page.get_by_role("button", name="Save round 2").click()
    page.wait_for_url(re.compile(table["board"] + "$"))


def round_3_saved_offline(page, table) -> None:
    """Round 3 entered on the scoreboard kept offline, behind round 2."""
    page.get_by_role("link", name="Enter round 3").click()
    type_round(page, HANDS[1])
    page.get_by_role("button", name="Save round 3").click()
    page.wait_for_url(re.compile(table["board"] + "$"))


def test_rounds_entered_offline_are_sent_in_order_once_each(member, live_app):
    page = member
    table = start(live_app)
    saved_offline(page, table, told=True)
    queue = page.get_by_role("region", name="Kept on this phone")
    expect(queue).to_contain_text("Round 2, waiting to be sent")
    expect(queue).to_contain_text("checked as it is sent")
    # The next round, on the same page kept offline: it is for round 3, and
    # starts empty (round 2's hands typed on this phone wait with round 2).
    page.get_by_role("link", name="Enter round 3").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 3")
    expect(page.locator(".round-order")).to_contain_text("Round 2 waits on this phone")
    for name in PLAYERS:
        expect(page.get_by_label(f"Cards left in {name}'s hand")).to_have_value("")
    type_round(page, HANDS[1])
    page.get_by_role("button", name="Save round 3").click()
    page.wait_for_url(re.compile(table["board"] + "$"))
    expect(queue).to_contain_text("Round 3, waiting to be sent")
    # Who deals round 4 waits for rounds 2 and 3: the scoreboard does not guess.
    coming = page.locator(".board-next")
    expect(coming).to_have_text(re.compile(r"Round 4\s*Who deals shows once round 3 is sent."))
    assert phone_page_problems(page) == []
    assert saved(live_app, table["id"]) == rounds()  # nothing sent yet

    back_online(page)
    for number in (2, 3):
        expect(page.get_by_role("status").filter(
            has_text=f"Round {number}, kept on this phone, is sent and saved")).to_be_visible()
    expect(queue).to_have_count(0)
    expect(page.locator(".offline-bar")).to_have_count(0)  # the scoreboard as it is now
    expect(page.get_by_role("link", name="Enter round 4")).to_be_visible()
    expect(coming).to_contain_text(re.compile(r"Round 4\s*\w+ deals"))
    assert saved(live_app, table["id"]) == rounds(*HANDS)
    assert waiting_on_phone(page) == 0
    page.reload()
    assert saved(live_app, table["id"]) == rounds(*HANDS)


def test_the_queue_speaks_the_phone_s_language(member, live_app, base_url):
    """Issue 27: a phone in Chinese: what the queue says of a round kept, of
    the round after it, and of the round sent, is in Chinese."""
    page = member
    page.context.add_cookies([{"name": "language", "value": "zh-Hans", "url": base_url}])
    table = start(live_app)
    page.goto(table["board"])
    controlled(page)
    see(page, [table["board"], table["form"]])
    page.context.set_offline(True)
    page.goto(table["form"])
    offline(page)
    for name, cards in HANDS[0].items():
        page.locator("section.round-player").filter(
            has=page.get_by_role("heading", name=name, exact=True)
        ).locator(".round-cards input").fill(cards)
    page.locator(".round-actions button[type=submit]").click()
    page.wait_for_url(re.compile(table["board"] + "$"))
    queue = page.get_by_role("region", name="保存在这部手机上")
    expect(queue).to_contain_text("第 2 局，等待发送")
    expect(queue).to_contain_text("其余的在发送时检查")
    expect(page.locator(".board-next")).to_have_text(
        re.compile(r"第 3 局\s*第 2 局发送后会显示由谁发牌。"))
    page.get_by_role("link", name="输入第 3 局").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("第 3 局")
    expect(page.locator(".round-order")).to_have_text(
        "第 2 局在这部手机上等待发送：发送后会显示由谁发牌。")
    expect(page.locator(".round-actions button[type=submit]")).to_have_text("保存第 3 局")
    back_online(page)
    expect(page.get_by_role("status").filter(
        has_text="保存在这部手机上的第 2 局已发送并保存。")).to_be_visible()
    assert saved(live_app, table["id"]) == rounds(HANDS[0])


@pytest.mark.parametrize("choice", ["another game", "same game"])
def test_a_round_entered_offline_that_conflicts_comes_back_as_typed(member, live_app, choice):
    page = member
    table = start(live_app)
    saved_offline(page, table)
    record_elsewhere(live_app, table["id"], HANDS[1])  # meanwhile, from another phone

    back_online(page)
    page.wait_for_url(re.compile(table["form"] + "$"))
    expect(page.get_by_text("Round 2 was saved from Ben's phone.")).to_be_visible()
    for name, cards in HANDS[0].items():
        expect(page.get_by_label(f"Cards left in {name}'s hand")).to_have_value(cards)
    assert saved(live_app, table["id"]) == rounds(HANDS[1])  # the other phone's round 2 only
    if choice == "another game":
        page.get_by_role("button", name="Save as round 3").first.click()
        page.wait_for_url(re.compile(table["board"] + "/rounds/3$"))
        assert saved(live_app, table["id"]) == rounds(HANDS[1], HANDS[0])
    else:
        page.get_by_role("button", name="Same game: drop mine, see round 2").click()
        page.wait_for_url(re.compile(table["board"] + "/rounds/2$"))
        page.goto(table["board"])
        expect(page.get_by_role("link", name="Enter round 3")).to_be_visible()
        expect(page.get_by_role("region", name="Kept on this phone")).to_have_count(0)
        assert saved(live_app, table["id"]) == rounds(HANDS[1])
    assert waiting_on_phone(page) == 0


def test_a_round_entered_offline_that_another_phone_saved_the_same_leaves_the_phone(
        member, live_app):
    page = member
    table = start(live_app)
    saved_offline(page, table)
    record_elsewhere(live_app, table["id"], HANDS[0])  # the same game, from another phone
    back_online(page)
    said = page.get_by_role("status").filter(
        has_text="Round 2, kept on this phone, had been saved from another phone: "
                 "it counts once.")
    expect(said).to_be_visible()
    expect(page.get_by_role("region", name="Kept on this phone")).to_have_count(0)
    assert saved(live_app, table["id"]) == rounds(HANDS[0]) and waiting_on_phone(page) == 0
    said.get_by_role("link", name="See round 2").click()
    expect(page.locator("#round-summary h2")).to_have_text("Ben's phone saved this round")


def test_a_round_refused_for_a_hand_comes_back_and_the_next_waits_for_it(member, live_app):
    page = member
    table = start(live_app)
    saved_offline(page, table, told=True, hands=HANDS[0] | {"Ann": "5S 9X"})  # 9X: no card
    round_3_saved_offline(page, table)

    back_online(page)
    page.wait_for_url(re.compile(table["form"] + "$"))
    expect(page.get_by_role("alert")).to_contain_text("Not saved: please correct this")
    expect(page.get_by_label("Cards left in Ann's hand")).to_have_value("5S 9X")
    expect(page.get_by_role("region", name="Kept on this phone")).to_contain_text(
        "Round 3, waiting to be sent")
    assert saved(live_app, table["id"]) == rounds() and waiting_on_phone(page) == 2

    page.get_by_label("Cards left in Ann's hand").fill(HANDS[0]["Ann"])
    page.get_by_role("button", name="Save round 2").click()  # then round 3 goes too
    page.wait_for_url(re.compile(table["board"] + "/rounds/3$"))
    assert saved(live_app, table["id"]) == rounds(*HANDS)
    assert waiting_on_phone(page) == 0


def test_a_round_refused_then_saved_as_its_page_is_off_the_phone_and_the_next_goes(
        member, live_app):
    """A refused round's form goes once more, as the page itself, to come back
    with why; if it is saved that time (what refused it had passed: a hand
    still on its way), its result page takes it off the phone and the next goes."""
    page = member
    table = start(live_app)
    saved_offline(page, table, told=True)
    round_3_saved_offline(page, table)
    # As queue.js leaves it when round 2 was refused and its form sent again as the page:
    page.evaluate(AS_LEFT, [2, {"refused": True, "told": True}, True])
    record_elsewhere(live_app, table["id"], HANDS[0])  # and it was saved, that time
    page.context.set_offline(False)
    page.goto(f"{table['board']}/rounds/2")  # its result, where the server sent the page
    page.wait_for_url(re.compile(table["board"] + "/rounds/3$"))
    assert saved(live_app, table["id"]) == rounds(*HANDS)
    assert waiting_on_phone(page) == 0


# A round kept, as the page or the worker leaves it after sending it: its
# fields changed, and (sentAgain) its form sent again as the page.
AS_LEFT = """([number, fields, sentAgain]) => new Promise((resolve, reject) => {
    const open = indexedDB.open("scorekeeper");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
        const store = open.result.transaction("rounds", "readwrite").objectStore("rounds");
        const all = store.getAll();
        all.onsuccess = () => {
            const item = all.result.find((kept) => kept.number === number);
            store.put({...item, ...fields});
            if (sentAgain) sessionStorage.setItem("scorekeeper-refused", String(item.id));
            store.transaction.oncomplete = () => { open.result.close(); resolve(); };
        };
    };
})"""


def test_a_round_the_worker_was_refused_comes_back_on_a_page(member, live_app):
    """The worker sent round 2 by itself and was refused, with no page open to
    tell (or one not yet listening): the next page to send sends it again, and
    its form comes back, as typed, saying why."""
    page = member
    table = start(live_app)
    saved_offline(page, table, told=True, hands=HANDS[0] | {"Ann": "5S 9X"})
    page.evaluate(AS_LEFT, [2, {"refused": True, "told": False}, False])  # as sw-sync.js
    back_online(page)
    page.wait_for_url(re.compile(table["form"] + "$"))
    expect(page.get_by_role("alert")).to_contain_text("Not saved: please correct this")
    expect(page.get_by_label("Cards left in Ann's hand")).to_have_value("5S 9X")
    assert saved(live_app, table["id"]) == rounds() and waiting_on_phone(page) == 1


def record_elsewhere(live_app, session_id, hands) -> None:
    with live_app.app_context():
        game = db.session.get(GameSession, session_id)
        services.record_round(services.Change.to(game, device="Ben's phone"), entries(hands))


def test_a_round_kept_when_the_page_is_closed_is_sent_on_the_next_visit(member, live_app):
    """A browser without Background Sync (Safari, Firefox): the classic worker,
    and the page says to open the app when the network is back."""
    page = member
    page.context.add_init_script("delete window.SyncManager")
    table = start(live_app)
    saved_offline(page, table)
    expect(page.get_by_role("region", name="Kept on this phone")).to_contain_text(
        "if you close it, open the app when the network is back.")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").split("?")[0] \
        .endswith("/sw.js")
    context = page.context
    page.close()
    context.set_offline(False)

    later = context.new_page()
    later.goto(table["board"])
    expect(later.get_by_role("status").filter(
        has_text="Round 2, kept on this phone, is sent and saved")).to_be_visible()
    assert saved(live_app, table["id"]) == rounds(HANDS[0])


@pytest.mark.parametrize("cut", ["offline", "lost"])
def test_an_edit_with_no_network_stays_typed_and_is_not_sent(member, live_app, cut):
    """Only a new round waits on the phone: an edit made with no network (the
    phone offline, or its request lost on the way) is kept as typed, and says so."""
    page = member
    table = start(live_app)
    edit = f"{table['board']}/rounds/1/edit"
    page.goto(table["board"])
    controlled(page)
    see(page, [edit])
    if cut == "offline":
        page.context.set_offline(True)
        page.goto(edit)
    else:
        page.context.route("**/rounds/1/edit", lambda route: route.abort()
                           if route.request.method == "POST" else route.continue_())
    page.get_by_label("Cards left in Ann's hand").fill("5S 9H")
    page.locator(".round-actions button[type=submit]").first.click()
    note = page.get_by_role("alert").filter(has_text="No network: nothing was sent")
    expect(note).to_be_visible()
    expect(page.get_by_label("Cards left in Ann's hand")).to_have_value("5S 9H")
    assert page.url.endswith(edit)
    if cut == "offline":
        # "Try again" would load the form afresh: once something is typed, it goes.
        expect(page.locator(".offline-bar a")).to_have_count(0)
    page.context.set_offline(False)
    page.context.unroute("**/rounds/1/edit")
    assert saved(live_app, table["id"]) == rounds()


KEPT_FORM_NUMBER = """async (path) => {
    const name = (await caches.keys()).find((n) => n.startsWith('pages-'));
    const kept = name && await (await caches.open(name)).match(path);
    const found = kept && /name="number" value="(\\d+)"/.exec(await kept.text());
    return found ? Number(found[1]) : null;
}"""


def test_offline_the_round_form_is_the_one_the_last_scoreboard_showed(member, live_app):
    """Issue 25, 6: the phone opened round 2's form, then rounds 2 and 3 were
    saved from another phone and it saw the scoreboard say "Enter round 4".
    Offline, that opens round 4's form, empty; the round waits as round 4;
    sent after another phone saved a round 4 of another game, its form
    offers "Save as round 5" first."""
    page = member
    table = start(live_app)
    page.goto(table["board"])
    controlled(page)
    see(page, [table["form"], table["board"]])
    record_elsewhere(live_app, table["id"], HANDS[0])
    record_elsewhere(live_app, table["id"], HANDS[1])
    page.reload()
    expect(page.get_by_role("link", name="Enter round 4")).to_be_visible()
    until(page, f"async () => (await ({KEPT_FORM_NUMBER})({table['form']!r})) === 4")

    offline(page)
    page.get_by_role("link", name="Enter round 4").click()
    expect(page.locator(".offline-bar")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 4")
    for name in PLAYERS:
        expect(page.get_by_label(f"Cards left in {name}'s hand")).to_have_value("")
    type_round(page, HANDS[0])
    page.get_by_role("button", name="Save round 4").click()
    page.wait_for_url(re.compile(table["board"] + "$"))
    expect(page.get_by_role("region", name="Kept on this phone")).to_contain_text(
        "Round 4, waiting to be sent")
    record_elsewhere(live_app, table["id"], FIRST)  # round 4, another game

    back_online(page)
    page.wait_for_url(re.compile(table["form"] + "$"))
    choice = page.locator(".changes-drop button")
    expect(choice.first).to_have_text("Save as round 5")
    expect(choice.nth(1)).to_have_text("Same game: drop mine, see round 4")
    choice.first.click()
    page.wait_for_url(re.compile(table["board"] + "/rounds/5$"))
    assert saved(live_app, table["id"]) == rounds(HANDS[0], HANDS[1], FIRST, HANDS[0])


def test_with_background_sync_the_worker_sends_a_round_with_the_app_closed(
        member, live_app, base_url):
    """Issue 25, 7: where the browser has Background Sync (Chromium), the
    page says a round kept is sent even if the app is closed, and the worker
    sends it by itself: the page is closed, the network comes back, and the
    browser fires the sync event (here through DevTools, as it would)."""
    page = member
    table = start(live_app)
    saved_offline(page, table, told=True)
    expect(page.get_by_role("region", name="Kept on this phone")).to_contain_text(
        "Will be sent when the network is back, even if you close the app.")
    context = page.context
    other = context.new_page()  # no page of the app's: none to send it
    page.close()
    devtools = context.new_cdp_session(other)
    registrations = []
    devtools.on("ServiceWorker.workerRegistrationUpdated",
                lambda event: registrations.extend(event["registrations"]))
    devtools.send("ServiceWorker.enable")
    # DevTools tells of the registrations as it can; each call waits on the
    # browser, and takes in what it told meanwhile.
    for _ in range(1_000):
        if registrations:
            break
        other.evaluate("() => 0")
    (ours,) = [r for r in registrations if r["scopeURL"] == base_url + "/" and not r["isDeleted"]]
    with context.expect_event("response", lambda r: r.request.method == "POST"
                              and r.url.endswith(table["form"])) as sent:
        # The browser may fire the sync itself as the network comes back.
        context.set_offline(False)
        devtools.send("ServiceWorker.dispatchSyncEvent", {
            "origin": base_url, "registrationId": ours["registrationId"],
            "tag": "send-rounds", "lastChance": False})
    assert sent.value.status == 302 and sent.value.request.service_worker
    assert saved(live_app, table["id"]) == rounds(HANDS[0])
    # The next visit says so, as when a page sends it: the worker left the
    # news on the phone (looked for from a page of the app's that runs none
    # of its scripts, which would take it).
    other.goto("/healthz")
    until(other, NEWS_KEPT)
    other.goto(table["board"])
    expect(other.get_by_role("status").filter(
        has_text="Round 2, kept on this phone, is sent and saved")).to_be_visible()
    other.reload()  # said once
    expect(other.get_by_role("link", name="Enter round 3")).to_be_visible()
    expect(other.get_by_role("status").filter(has_text="kept on this phone")).to_have_count(0)


# Whether the service worker left news of rounds it sent (core/store.js).
NEWS_KEPT = """() => new Promise((resolve) => {
    const request = indexedDB.open("scorekeeper");
    request.onerror = () => resolve(false);
    request.onsuccess = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains("sent")) {
            db.close();
            resolve(false);
            return;
        }
        const count = db.transaction("sent").objectStore("sent").count();
        count.onsuccess = () => {
            db.close();
            resolve(count.result > 0);
        };
    };
})"""
