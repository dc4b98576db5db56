"""A round filled in together: three phones enter their own hands at once;
each sees the others' as they come, and the round is saved, once, however
many phones tap Save; two phones on one hand choose. The money, rows and
history of changes such rounds leave are checked through the test client
(tests/web/test_table_flows.py, test_drafts.py, test_saved_twice.py)."""

import re

from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import Entry
from scorekeeper.web.once import KEY
from tests.conftest import the_group
from tests.e2e.conftest import phone_page_problems
from tests.e2e.together.steps import HAND, choose, row, strip, told, type_cards


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
    ben = phone("Ben", live=False)  # it has not heard of Ann's phone's round when it saves
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
