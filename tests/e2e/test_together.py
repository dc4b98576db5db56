"""A round filled in together: three phones (each a browser of its own, each
its player's) enter their own hands at once; each sees the others' as they
come, and the round is saved; two phones on one hand choose; a hand half
entered on a phone put away is still there after a reload. The money, rows
and history of changes such rounds leave are checked through the test client
(tests/web/test_table_flows.py, test_drafts.py, test_saved_twice.py).

The phones are told of each other's hands by a "live:change" event, as
live.js tells them; the tests send it themselves, so that they show this
side on its own."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.once import KEY
from tests.conftest import the_group
from tests.e2e.conftest import phone_page_problems, signed_in
from tests.web.helpers import token_in

PLAYERS = ["Ann", "Ben", "Cat"]
HAND = re.compile(r"/draft/\d+$")  # where a hand is sent


@pytest.fixture
def table(live_app):
    """A Rummi session for Ann, Ben and Cat, Ann dealing; its URL and players' ids."""
    with live_app.app_context():
        game = services.start_session(services.Change(the_group()),
                                      PLAYERS, HouseRules.rummi(), "Ann")
        return f"/sessions/{game.id}", {s.player.name: s.player_id for s in game.seats}


@pytest.fixture
def phone(new_context, table, base_url):
    """phone(name, language="en"): a phone of its own, signed in as "<name>'s
    phone", that says it is <name>'s, on the round form, in ``language`` (the
    tag its language cookie holds, as the footer's switch sets it)."""
    url, ids = table

    def make(name, language="en"):
        context = new_context()
        context.add_cookies([{"name": "language", "value": language, "url": base_url}])
        signed_in(context, device=f"{name}'s phone")
        token = token_in(context.request.get(url).text())
        said = context.request.post(f"{url}/phone", form={"csrf_token": token,
                                                          "player": str(ids[name])})
        assert said.ok
        page = context.new_page()
        page.goto(f"{url}/rounds/new")
        expect(page.locator("#together[data-draft]")).to_have_count(1)  # together.js is ready
        expect(page.locator("html")).to_have_attribute("lang", language)
        return page

    return make


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


def test_three_phones_fill_in_a_round_together_and_it_saves(phone, table):
    url, _ = table
    ann, ben, cat = phone("Ann"), phone("Ben"), phone("Cat")
    for page, name in ((ann, "Ann"), (ben, "Ben"), (cat, "Cat")):
        first = page.locator("section.round-player").first
        expect(first.get_by_role("heading", level=2)).to_have_text(name)  # its own first
        expect(first.locator(".round-tag-own")).to_have_text("your hand")
        expect(page.locator(".together-strip li")).to_have_count(3)
        expect(page.locator(".together-waiting")).to_have_count(3)

    type_cards(ann, "Ann", "5S 9H")
    expect(strip(ann, "Ann")).to_have_class("together-done")
    with ben.expect_response(re.compile(r"/draft/\d+$")):  # Hu needs no cards: sent
        choose(ben, "Ben", "Hu")
    told(ann, cat)
    expect(strip(ann, "Ben")).to_have_class("together-done")
    expect(row(ann, "Ben").locator(".round-line")).to_have_text("✓ Hu")  # in: one line
    expect(row(ann, "Ben").locator(".together-from")).to_have_text(
        re.compile(r"^Entered on Ben's phone, (just now|1 min ago)$"))

    type_cards(cat, "Cat", "kd qd 3c")
    told(ann, ben)
    for page in (ann, ben):
        expect(strip(page, "Cat")).to_have_class("together-done")
        expect(row(page, "Cat").get_by_label("Cards left in Cat's hand")).to_have_value(
            "kd qd 3c")
        expect(page.locator(".together-ready")).to_have_text(
            "Everyone is in: tap Save round 1.")
    expect(row(ben, "Ann").get_by_label("Cards left in Ann's hand")).to_have_value("5S 9H")
    assert phone_page_problems(ann) == []

    ann.locator(".round-actions button[type=submit]").first.click()
    ann.wait_for_url(f"**{url}/rounds/1")
    told(ben)
    expect(ben.locator(".round-saved")).to_contain_text("Round 1 saved from Ann's phone")


def test_when_the_round_is_saved_every_phone_moves_on_keeping_what_it_typed(
        phone, table, live_app):
    """Issue 25, 5: Cat saves the round while Ben's pad is open and his hand
    half typed. Ben's phone closes the pad and says, in one card, which round
    was saved from which phone, with its result a tap away; his hand, which
    is not in it, stays typed. Another round saved after it: the same card
    says so, and no notice above the form piles the rounds up."""
    url, _ = table
    ben, cat = phone("Ben"), phone("Cat")
    expect(ben.locator("#card-pad")).to_be_visible()  # on Ben's own hand
    typing = ben.get_by_label("Cards left in Ben's hand")
    typing.fill("4C 8D 2")  # still in the field, and a word not a card yet: not sent
    for name, cards in {"Ann": "5S 9H", "Ben": "4C 8D", "Cat": "KD QD 3C"}.items():
        type_cards(cat, name, cards)
    cat.locator(".round-actions button[type=submit]").first.click()
    cat.wait_for_url(f"**{url}/rounds/1")

    told(ben)
    card = ben.get_by_role("alert").filter(has=ben.get_by_role(
        "heading", name="Round 1 saved from Cat's phone"))
    expect(card).to_contain_text("Typed here and not in round 1: Ben (Dead, 4C 8D 2). "
                                 "It stays on this form, below, and on the results, to copy.")
    expect(card.get_by_role("link", name="See the result")).to_have_attribute(
        "href", f"{url}/rounds/1")
    expect(ben.locator("#card-pad")).to_be_hidden()
    expect(typing).to_have_value("4C 8D 2")
    expect(ben.locator(".together-strip")).to_be_hidden()  # not round 2's "… not yet"
    assert phone_page_problems(ben) == []

    session_id = int(url.rsplit("/", 1)[1])
    with live_app.app_context():  # the table goes on without Ben
        game = db.session.get(GameSession, session_id)
        services.record_round(services.Change.to(game, device="Cat's phone"),
                              {"Ann": Entry("hu"), "Ben": Entry("dead", "2C"),
                               "Cat": Entry("dead", "3C")})
    told(ben)
    expect(ben.get_by_role("heading", name="Round 2 saved from Cat's phone")).to_be_visible()
    expect(ben.locator(".round-saved")).to_have_count(1)
    expect(ben.locator("#live-notice")).to_be_hidden()

    # See the result: what Ben typed is there still, to copy or to edit round 1 with.
    ben.get_by_role("link", name="See the result").click()
    ben.wait_for_url(f"**{url}/rounds/2")
    left = ben.get_by_role("region", name="Typed on this phone and not in round 1")
    expect(left.get_by_role("textbox")).to_have_value("Ben: Dead, 4C 8D 2")
    expect(left.get_by_role("link", name="Edit round 1")).to_have_attribute(
        "href", f"{url}/rounds/1/edit")
    assert phone_page_problems(ben) == []
    ben.goto(f"{url}/rounds/1")  # on the session's other results too, until forgotten
    left.get_by_role("button", name="Forget them").click()
    expect(left).to_be_hidden()
    ben.reload()
    expect(ben.locator("#round-left")).to_be_hidden()


def test_a_hand_being_typed_shows_where_on_the_other_phones_until_it_is_in(phone):
    """Ben types his hand, the field still focused: it goes as typed, and
    Ann's phone says it is being typed on Ben's phone (the strip, his row,
    the note), not that it is in, and offers no "Fill in for Ben"; "Clear
    this round's hands" comes with it. Ben leaves the field: in, on Ann's
    phone too."""
    ann, ben = phone("Ann"), phone("Ben")
    clear = ann.locator("#together-clear")
    expect(clear).to_be_hidden()  # no hands yet
    field = ben.get_by_label("Cards left in Ben's hand")
    with ben.expect_response(lambda r: HAND.search(r.url) and r.request.method == "POST"
                             and r.request.post_data_json["typing"]):
        field.fill("4C 8D")
    told(ann)
    expect(strip(ann, "Ben")).to_have_class("together-typing")
    expect(strip(ann, "Ben")).to_have_text("Ben✎ being typed")
    expect(row(ann, "Ben").locator(".together-typing")).to_have_text(
        "Being typed on Ben's phone… It counts as in if nothing more is typed there for "
        "2 minutes.")
    expect(ann.locator(".together-note .together-typing")).to_have_text(
        "Ben's hand is being typed on Ben's phone…")
    expect(row(ann, "Ben").get_by_label("Cards left in Ben's hand")).to_have_value("4C 8D")
    expect(clear).to_be_visible()  # the round has a hand now
    expect(strip(ben, "Ben")).to_have_class("together-typing")  # on his own phone too
    type_cards(ann, "Ann", "5S 9H")  # Ann's in: she may fill in for Cat, not for Ben
    expect(ann.locator(".together-waiting-for")).to_have_text(
        "Your hand is in: waiting for Cat and Ben")  # a list in the page's language
    expect(ann.locator(".together-fill")).to_have_text(["Fill in for Cat (no phone)"])
    assert phone_page_problems(ann) == []

    with ben.expect_response(lambda r: HAND.search(r.url) and r.request.method == "POST"
                             and not r.request.post_data_json["typing"]):
        field.blur()
    told(ann)
    expect(strip(ann, "Ben")).to_have_class("together-done")
    expect(ann.locator(".together-note .together-typing")).to_have_count(0)
    expect(row(ann, "Ben").locator(".round-line")).to_have_text("✓ 12 pts · 4♣ 8♦")


def test_two_phones_on_one_hand_the_later_sees_the_others_and_chooses(phone):
    ann, cat = phone("Ann"), phone("Cat")
    # Ann enters Cat's hand for her on her own phone while Cat is typing it
    # (her thumb in the field: a hand coming in does not fold the row away)
    field = row(cat, "Cat").get_by_label("Cards left in Cat's hand")
    field.focus()
    type_cards(ann, "Cat", "2C 3C")
    field.fill("2C 4C")
    told(cat)
    ask = row(cat, "Cat").locator(".together-ask")
    expect(ask).to_contain_text("Ann's phone entered: Dead, 2C 3C.")
    expect(field).to_have_value("2C 4C")  # nothing typed is lost
    assert phone_page_problems(cat) == []
    # Ann has a second thought about Cat's hand (half typed: a hand goes as it
    # is typed once it reads as cards) while Cat keeps hers
    row(ann, "Cat").get_by_role("button", name="Edit Cat's hand").tap()
    typing = row(ann, "Cat").get_by_label("Cards left in Cat's hand")
    typing.fill("2C 5")
    with cat.expect_response(re.compile(r"/draft/\d+$")) as answer:
        ask.get_by_role("button", name="Keep mine").tap()
    assert answer.value.status == 200
    expect(ask).to_have_count(0)
    told(ann)
    expect(row(ann, "Cat").locator(".together-ask")).to_contain_text(
        "Cat's phone entered: Dead, 2C 4C.")
    expect(typing).to_have_value("2C 5")
    row(ann, "Cat").get_by_role("button", name="Use theirs").tap()
    expect(typing).to_have_value("2C 4C")
    expect(row(ann, "Cat").locator(".together-ask")).to_have_count(0)
    expect(row(ann, "Cat").locator(".together-from")).to_have_text(
        re.compile(r"^Entered on Cat's phone, (just now|1 min ago)$"))


# What a page sends as it is put away with a field focused (a keepalive
# request): the hand as typed, still being typed. Sent here by hand, it lands
# once the page has come back.
SENT_AS_PUT_AWAY = """async ([name, cards]) => {
    const box = document.querySelector("#together");
    const state = await (await fetch(box.dataset.state)).json();
    const player = state.players.find((p) => p.name === name);
    const form = document.querySelector("form.round-form");
    const made = form.elements.key.value.split(".")[0];
    const answer = await fetch(`${box.dataset.state}/${player.id}`, {method: "POST", headers: {
        "Content-Type": "application/json", "X-CSRFToken": form.elements.csrf_token.value},
        body: JSON.stringify({outcome: "dead", cards, base: 0, number: state.number,
                              key: `${made}.${crypto.randomUUID().replaceAll("-", "")}`,
                              typing: true})});
    return answer.status;
}"""


def test_a_hand_typed_here_that_lands_after_a_reload_is_sent_again_as_left(phone):
    """The request sent as the page was put away may land after the page came
    back: the hand then reads as still being typed here, though no field has
    it; the page sends it again, as left, and it is in."""
    ben = phone("Ben")
    assert ben.evaluate(SENT_AS_PUT_AWAY, ["Ben", "AS 2S"]) == 200
    with ben.expect_request(lambda r: HAND.search(r.url) and r.method == "POST") as again:
        told(ben)
    assert again.value.post_data_json == {**again.value.post_data_json,
                                          "cards": "AS 2S", "typing": False}
    expect(strip(ben, "Ben")).to_have_class("together-done")
    expect(ben.get_by_label("Cards left in Ben's hand")).to_have_value("AS 2S")


def test_a_hand_typed_here_whose_field_has_the_thumb_goes_as_the_field_is_left(phone):
    """Back after a reload, the pad may put the thumb in the field of the hand
    that the server has as still being typed here: it is, until the field is
    left, even unchanged; then it goes as left, and it is in."""
    ben = phone("Ben")
    field = ben.get_by_label("Cards left in Ben's hand")
    field.evaluate("(el) => { el.value = 'AS 2S'; }")  # put back from the phone
    field.focus()
    assert ben.evaluate(SENT_AS_PUT_AWAY, ["Ben", "AS 2S"]) == 200
    told(ben)
    expect(strip(ben, "Ben")).to_have_class("together-typing")
    with ben.expect_request(lambda r: HAND.search(r.url) and r.method == "POST") as left:
        field.blur()
    assert left.value.post_data_json["typing"] is False
    expect(strip(ben, "Ben")).to_have_class("together-done")


def test_an_answer_older_than_one_taken_in_leaves_a_sent_hand_alone(phone):
    """Answers cross on the way: a state asked for before a hand was sent and
    come back after the send's own answer is older news. It used to read the
    hand as cleared and empty the field, so a Save tapped then lost it."""
    ann = phone("Ann")
    state = re.compile(r"/draft$")
    held = []  # the states asked for, held back (unanswered); the first as it was asked

    def hold(route):
        held.append((route, None if held else route.fetch()))

    ann.route(state, hold)
    with ann.expect_request(state):
        told(ann)
    type_cards(ann, "Ann", "5S")  # sent and answered before that state comes
    told(ann)  # asked again once that state is taken in (together.js asks one at a time)
    first, older = held[0]
    with ann.expect_request(state):
        first.fulfill(response=older)
    expect(ann.get_by_label("Cards left in Ann's hand")).to_have_value("5S")
    expect(strip(ann, "Ann")).to_have_class("together-done")


def test_a_half_entered_hand_is_still_there_after_a_reload(phone):
    ben = phone("Ben")
    choose(ben, "Ben", "Tien Hu")  # no cards yet: nothing to send
    type_cards(ben, "Ben", "AS 2S 3S")
    problem = row(ben, "Ben").locator(".together-row .error")
    expect(problem).to_have_text(
        "Ben has Tien Hu, so the whole hand of 20 cards is needed; 3 were entered")
    expect(strip(ben, "Ben")).to_have_class("together-check")
    # More cards typed, and the phone locked before leaving the field: sent as it hides
    ben.get_by_label("Whole hand (20 cards) in Ben's hand").fill("AS 2S 3S 4S")
    with ben.expect_response(re.compile(r"/draft/\d+$")):
        ben.evaluate("Object.defineProperty(document, 'visibilityState', {value: 'hidden'});"
                     "document.dispatchEvent(new Event('visibilitychange'))")
    ben.reload()
    expect(ben.get_by_label("Whole hand (20 cards) in Ben's hand")).to_have_value("AS 2S 3S 4S")
    expect(row(ben, "Ben").get_by_role("radio", name="Tien Hu", exact=True)).to_be_checked()
    expect(problem).to_have_text(
        "Ben has Tien Hu, so the whole hand of 20 cards is needed; 4 were entered")


def test_with_the_house_setting_the_last_hand_in_saves_the_round(phone, table, live_app):
    url, _ = table
    with live_app.app_context():
        services.set_autosave_rounds(the_group(), True)
    try:
        ann, ben = phone("Ann"), phone("Ben")
        type_cards(ann, "Ann", "5S 9H")
        type_cards(ann, "Cat", "KD QD 3C")  # Cat has no phone at hand
        with ben.expect_navigation(url=f"**{url}/rounds/1"):  # the last hand in
            row(ben, "Ben").locator("label.round-outcome").filter(
                has_text=re.compile(r"^\s*Hu\s*$")).tap()
        expect(ben.get_by_role("heading", level=1)).to_have_text("Round 1")
        told(ann)
        expect(ann.locator(".round-saved")).to_contain_text("Round 1 saved from Ben's phone")
    finally:
        with live_app.app_context():
            services.set_autosave_rounds(the_group(), False)


def test_a_hand_whose_answer_was_lost_is_sent_again_under_its_key(phone, table):
    """The hand reaches the server but its answer does not: sent again, it
    carries the same key and is saved once; another hand gets a key of its own."""
    url, _ = table
    ben = phone("Ben")
    sent = []

    def lose_the_first_answer(route):
        sent.append(route.request.post_data_json)
        response = route.fetch()
        if len(sent) == 1:
            route.abort()
        else:
            route.fulfill(response=response)

    ben.route(HAND, lambda route: lose_the_first_answer(route)
              if route.request.method == "POST" else route.continue_())
    # No news of the table until it is sent again: a state showing the hand
    # saved would rightly leave nothing to send. (The context's route: the
    # service worker fetches the state, out of the page's routes' sight.)
    ben.context.route(re.compile(r"/draft$"), lambda route: route.abort() if len(sent) == 1
                      else route.continue_())
    field = ben.get_by_label("Cards left in Ben's hand")

    def put(cards):
        """The hand in the field, as if typed and nothing sent yet (no input
        event: a typed hand also goes as it is typed, which is not this test)."""
        field.evaluate("(el, cards) => { el.value = cards; }", cards)

    def leave(until=ben.expect_request):
        """The field left: the hand is sent (after the one on its way, if any);
        waits for that hand's request (or answer), not an earlier one's."""
        cards = field.input_value()

        def this_hand(r):
            request = getattr(r, "request", r)
            return (HAND.search(r.url) and request.method == "POST"
                    and request.post_data_json["cards"] == cards)

        with until(this_hand):
            field.dispatch_event("change")

    put("AS 2S 3S")
    leave()
    leave()  # its answer lost: sent again
    expect(strip(ben, "Ben")).to_have_class("together-done")
    put("AS 2S 3S 4S")
    leave(until=ben.expect_response)  # and its answer back: it is saved
    assert [hand["cards"] for hand in sent] == ["AS 2S 3S", "AS 2S 3S", "AS 2S 3S 4S"]
    keys = [hand["key"] for hand in sent]
    # Each a key as the server makes and reads them (web/once.py), of the form's time.
    made = ben.locator("form.round-form [name=key]").input_value().split(".")[0]
    assert keys[0] == keys[1] != keys[2]
    assert all(KEY.fullmatch(k) and k.startswith(made + ".") for k in keys)
    state = ben.request.get(f"{url}/draft").json()
    hand = next(p["hand"] for p in state["players"] if p["name"] == "Ben")
    assert hand["cards"] == "AS 2S 3S 4S" and hand["version"] == 2  # two hands, not three


def test_two_phones_tapping_save_together_save_the_round_once(phone, table):
    """Both phones say "Everyone is in: tap Save round 1", and both players
    tap it: the round is saved once, the phone too late is shown it and who
    saved it, and round 2 starts with nothing in on any phone."""
    url, _ = table
    ann, ben = phone("Ann"), phone("Ben")
    hands = {"Ann": "5S 9H", "Ben": "4C 8D", "Cat": "KD QD 3C"}
    for name, cards in hands.items():
        type_cards(ann if name != "Ben" else ben, name, cards)
    told(ann, ben)
    for page in (ann, ben):
        expect(page.locator(".together-ready")).to_have_text(
            "Everyone is in: tap Save round 1.")
    for page in (ann, ben):  # at once: neither waits for its answer
        page.locator(".round-actions button[type=submit]").first.click(no_wait_after=True)
    for page in (ann, ben):
        page.wait_for_url(re.compile(rf"{url}/rounds/1(\?saved=\d+)?$"))
    late, first = (ann, ben) if "?saved=" in ann.url else (ben, ann)
    assert "?saved=" not in first.url
    saver = "Ann's phone" if first is ann else "Ben's phone"
    expect(late.locator("#round-summary h2")).to_have_text(f"{saver} saved this round")
    expect(late.get_by_role("heading", level=1)).to_have_text("Round 1")
    assert phone_page_problems(late) == []

    # Round 2: nothing carried over. The same hands entered again ask first.
    for page in (ann, ben):
        page.get_by_role("link", name="Enter round 2").click()
        expect(page.locator("#together[data-draft]")).to_have_count(1)
        expect(page.locator(".together-waiting")).to_have_count(3)
        expect(page.get_by_label("Cards left in Cat's hand")).to_have_value("")
    for name, cards in hands.items():
        type_cards(late, name, cards)
    expect(late.locator(".together-note .round-warning")).to_contain_text(
        "Every hand is the same as in round 1")
    late.locator(".round-actions button[type=submit]").first.click()
    summary = late.locator("#round-summary")
    expect(summary).to_contain_text("Every hand is the same as in round 1, card for card")
    expect(summary.get_by_role("button", name="Save anyway")).to_be_visible()
    expect(late.locator("#together[data-draft]")).to_have_count(1)
    expect(late.locator(".together-note")).to_be_empty()  # the summary says it, once
    assert phone_page_problems(late) == []


def test_a_save_refused_for_another_game_sends_its_hands_to_no_round(phone, table, live_app):
    """Another phone saved round 1 with other hands: this phone's form comes
    back for round 2 holding round 1's hands, and sends none of them; "Same
    game: drop mine" leaves nothing of them."""
    url, _ = table
    ben = phone("Ben")
    hands = {"Ann": "5S 9H", "Ben": "4C 8D", "Cat": "KD QD 3C"}
    for name, cards in hands.items():
        type_cards(ben, name, cards)
    session_id = int(url.rsplit("/", 1)[1])
    with live_app.app_context():  # meanwhile, from another phone, Cat's hand otherwise
        other = {**hands, "Cat": "KD QD 4C"}
        game = db.session.get(GameSession, session_id)
        services.record_round(services.Change.to(game, device="Ann's phone"),
                              {name: Entry("dead", cards) for name, cards in other.items()})
    sent = []
    ben.context.on("request", lambda request: sent.append(request.url)
                   if request.method == "POST" and "/draft/" in request.url else None)
    ben.locator(".round-actions button[type=submit]").first.click()
    expect(ben.get_by_text("Round 1 was saved from Ann's phone.")).to_be_visible()
    expect(ben.get_by_role("heading", level=1)).to_have_text("Round 2")
    expect(ben.get_by_label("Cards left in Cat's hand")).to_have_value("KD QD 3C")
    expect(ben.locator("#together[data-draft]")).to_have_count(1)  # a state taken in
    with ben.expect_response(re.compile(r"/draft$")):  # and another, after any send
        told(ben)
    expect(ben.locator(".together-waiting")).to_have_count(3)
    assert sent == []
    assert phone_page_problems(ben) == []
    ben.get_by_role("button", name="Same game: drop mine, see round 1").click()
    ben.wait_for_url(f"**{url}/rounds/1")
    expect(ben.get_by_role("status").filter(has_text="Your round is dropped")).to_be_visible()


def pad_keys(page, *keys: str) -> None:
    """Taps on the pad: a suit by its name, a rank, "Done"."""
    pad = page.locator("#card-pad")
    for key in keys:
        if key in ("Spades", "Hearts", "Diamonds", "Clubs", "Done"):
            pad.get_by_role("button", name=key, exact=True).tap()
        else:
            pad.locator(f"[data-rank='{key}']").tap()


def test_on_a_phone_that_says_whose_it_is_the_pad_keeps_to_its_hands(phone):
    """Issue 25: Done closes the pad and says who the table waits for, with a
    "Fill in for" each; the pad never goes to a hand in, from any phone, and
    a hand in folds to one line; Save stays in reach once everyone is in."""
    ann, ben = phone("Ann"), phone("Ben")
    pad, save = ann.locator("#card-pad"), ann.locator(".round-actions")
    expect(ann.locator("#card-pad-player")).to_have_text("Ann")
    expect(save).not_to_have_class(re.compile("round-actions-ready"))
    with ann.expect_response(HAND):
        pad_keys(ann, "Spades", "5", "Hearts", "9", "Done")
    expect(pad).to_be_hidden()
    expect(row(ann, "Ann")).to_have_class(re.compile(r"\bround-player-in\b"))
    expect(row(ann, "Ann").locator(".round-line")).to_have_text("✓ 14 pts · 5♠ 9♥")
    note = ann.locator(".together-note")
    expect(note.locator(".together-waiting-for")).to_have_text(
        "Your hand is in: waiting for Cat and Ben")  # in playing order
    expect(note.get_by_role("button")).to_have_text(
        ["Fill in for Cat (no phone)", "Fill in for Ben (no phone)"])

    # Ben's Hu on his own phone: his pad closes, and goes to nobody else's hand.
    expect(ben.locator("#card-pad-player")).to_have_text("Ben")
    with ben.expect_response(HAND):
        choose(ben, "Ben", "Hu")
    expect(ben.locator("#card-pad")).to_be_hidden()
    expect(row(ben, "Ben").locator(".round-line")).to_have_text("✓ Hu")  # in: folded
    told(ann)
    expect(row(ann, "Ben").locator(".round-line")).to_have_text("✓ Hu")
    expect(note.get_by_role("button")).to_have_text(["Fill in for Cat (no phone)"])
    assert phone_page_problems(ann) == []

    # Ann fills in for Cat: the pad is hers to use on Cat's hand, and on no other.
    note.get_by_role("button", name="Fill in for Cat (no phone)").tap()
    expect(ann.locator("#card-pad-player")).to_have_text("Cat")
    for step in ("Previous player", "Next player"):
        expect(pad.get_by_role("button", name=step)).to_be_disabled()
    expect(ann.locator("#card-pad-again")).to_be_disabled()  # not a card of Ann's hand
    # Meanwhile Cat's hand comes in from Ben's phone: Ann's pad lets it go.
    type_cards(ben, "Cat", "KD QD 3C")
    told(ann)
    expect(pad).to_be_hidden()
    expect(row(ann, "Cat").locator(".round-line")).to_have_text("✓ 23 pts · K♦ Q♦ 3♣")
    expect(ann.locator(".together-ready")).to_have_text("Everyone is in: tap Save round 1.")
    # Save at the bottom of the screen, whatever the scroll.
    expect(save).to_have_class(re.compile("round-actions-ready"))
    ann.evaluate("window.scrollTo(0, 0)")
    expect(save.get_by_role("button", name="Save round 1")).to_be_in_viewport()
    # A hand in opens again with "edit", and the pad goes to it only then.
    row(ann, "Cat").get_by_role("button", name="Edit Cat's hand").tap()
    expect(ann.locator("#card-pad-player")).to_have_text("Cat")
    expect(row(ann, "Cat").get_by_label("Cards left in Cat's hand")).to_be_visible()
    assert phone_page_problems(ann) == []


def test_a_typed_hand_goes_as_it_is_typed_and_is_kept_on_the_phone_until_sent(phone):
    """Issue 25: the field still focused, the hand goes once typing stops (as
    typed: it saves no round); the server gone, it is kept on the phone until
    it reaches the server. Enter sends a hand and never the round."""
    ben = phone("Ben")
    field = ben.get_by_label("Cards left in Ben's hand")
    ben.context.route(HAND, lambda route: route.abort())  # the server restarting
    with ben.expect_request(lambda r: HAND.search(r.url) and r.method == "POST") as sent:
        field.fill("AS 2S")  # no key more: it goes
    assert sent.value.post_data_json["cards"] == "AS 2S"
    assert sent.value.post_data_json["typing"] is True
    expect(field).to_be_focused()
    expect(ben.locator("#card-pad")).to_be_hidden()  # the keyboard has the screen
    kept = ("Object.entries(sessionStorage)"
            ".filter(([name]) => name.startsWith('scorekeeper-hand:'))"
            ".map(([, hand]) => JSON.parse(hand).cards)")
    assert ben.evaluate(kept) == ["AS 2S"]  # not sent: kept on the phone
    ben.context.unroute(HAND)
    # The hand reaches the server: sent as the page is put away (a keepalive
    # request, which Playwright's routes do not see), or after the reload by
    # the page that finds it kept; which comes first is the browser's affair.
    # Back, the hand is as typed; the pad may have put the thumb in its field
    # again (it is then rightly still being typed, here): leaving it sends it.
    ben.reload()
    expect(field).to_have_value("AS 2S")
    field.blur()
    expect(strip(ben, "Ben")).to_have_class("together-done")
    assert ben.evaluate("Object.keys(sessionStorage).filter("
                        "(name) => name.startsWith('scorekeeper-hand:'))") == []

    cat = ben.get_by_label("Cards left in Cat's hand")
    cat.fill("KD QD 3")
    with ben.expect_response(lambda r: HAND.search(r.url) and r.request.method == "POST") as left:
        cat.press("Enter")  # a word not a card yet: it goes all the same, as left
    assert left.value.request.post_data_json == {**left.value.request.post_data_json,
                                                 "cards": "KD QD 3", "typing": False}
    expect(cat).not_to_be_focused()
    expect(row(ben, "Cat").locator(".together-row .error")).to_contain_text('"3"')
    assert ben.url.endswith("/rounds/new")  # not sent as the round


def test_a_phone_in_malay_and_one_in_chinese_fill_in_a_round_together(phone, table):
    """Issue 27: each phone reads the other's hand, the notes of the round and
    the round saved in its own language; card notation is the same on both."""
    url, _ = table
    ann, ben = phone("Ann", "ms"), phone("Ben", "zh-Hans")
    ben_field = row(ben, "Ben").locator(".round-cards input")
    with ben.expect_response(HAND):  # the typing stops: it goes, as typed
        ben_field.fill("4C 8D")
    told(ann)
    expect(row(ann, "Ben").locator(".together-typing")).to_have_text(
        re.compile(r"^Sedang ditaip di .+…"))
    expect(ann.locator(".together-note .together-typing")).to_have_text(
        re.compile(r"^Tangan Ben sedang ditaip di .+…$"))
    expect(strip(ann, "Ben").locator(".round-vh")).to_have_text(re.compile(r"sedang ditaip$"))
    with ben.expect_response(HAND):
        ben_field.blur()
    told(ann)
    expect(row(ann, "Ben").locator(".round-line")).to_have_text("✓ 12 mata · 4♣ 8♦")
    expect(strip(ann, "Ben").locator(".round-vh")).to_have_text(re.compile(r"masuk$"))

    ann_field = row(ann, "Ann").locator(".round-cards input")
    ann_field.fill("5s 9h")
    with ann.expect_response(HAND):
        ann_field.blur()
    told(ben)
    expect(row(ben, "Ann").locator(".round-cards input")).to_have_value("5s 9h")
    expect(row(ben, "Ann").locator(".round-line")).to_have_text("✓ 14 分 · 5♠ 9♥")
    expect(row(ben, "Ann").locator(".together-from")).to_have_text(re.compile(r"^输入于 "))
    expect(ben.locator(".together-waiting-for")).to_have_text("你的手牌已输入：正在等 Cat")
    assert phone_page_problems(ben) == []

    # Ben fills in for Cat (no phone), on the pad in Chinese; its keys as everywhere.
    ben.get_by_role("button", name="替 Cat 输入（没有手机）").tap()
    pad = ben.locator("#card-pad")
    expect(ben.locator("#card-pad-player")).to_have_text("Cat")
    expect(pad.locator("[data-rank=K]")).to_have_attribute("aria-label", "加上黑桃K")
    pad.locator("[data-rank=K]").tap()
    expect(ben.locator("#card-pad-points")).to_have_text("1 张牌 · 10 分")
    assert phone_page_problems(ben) == []
    with ben.expect_response(HAND):
        ben.locator("#card-pad-done").tap()
    told(ann)
    expect(row(ann, "Cat").locator(".round-line")).to_have_text("✓ 10 mata · K♠")
    expect(ann.locator(".together-ready")).to_have_text(
        "Semua sudah masuk: ketik Simpan pusingan 1.")
    expect(ben.locator(".together-ready")).to_have_text("大家都输入了：请点“保存第 1 局”。")
    assert phone_page_problems(ann) == []

    ann.locator(".round-actions button[type=submit]").first.click()
    ann.wait_for_url(f"**{url}/rounds/1")
    told(ben)
    saved = ben.locator(".round-saved")
    expect(saved.get_by_role("heading")).to_have_text(re.compile(r"^第 1 局已由 .+ 保存$"))
    expect(saved.get_by_role("link")).to_have_text("查看结果")
    for page in (ann, ben):  # the scoreboard, in each language
        page.goto(url)
        expect(page.get_by_role("rowheader", name="Cat")).to_be_visible()
        assert phone_page_problems(page) == []
