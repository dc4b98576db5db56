"""A hand on its way in (issue 25): while it is typed, on the keyboard or on
the pad, it goes as typed, and the other phones say where it is being typed;
left, it is in. Typed and not yet sent, it is kept on the phone, and is still
there after a reload; sent as the page was put away, it is sent again as
left once the page is back."""

import re

import sqlalchemy as sa
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.limits import TYPING_LAPSE
from scorekeeper.models import DraftEntry
from tests.e2e.conftest import phone_page_problems
from tests.e2e.together.steps import HAND, choose, pad_keys, row, strip, told, type_cards


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


def test_a_hand_typed_on_a_phone_gone_quiet_shows_in_when_its_time_is_up(phone, live_app):
    """Ben's phone goes quiet with his hand half typed: once the 2 minutes
    are up it counts as in, and Ann's page asks again by itself then and
    shows it in (its live stream held off: this is the page's own timer)."""
    # Ben's page hears nothing after its hand and is put away: left open and
    # live, it would hear its own hand typed with no field on it and send it
    # again as left (together.js), before the test sees it typed on Ann's.
    ann, ben = phone("Ann", live=False, clock=True), phone("Ben", live=False)
    assert ben.evaluate(SENT_AS_PUT_AWAY, ["Ben", "AS 2S"]) == 200
    ben.close()
    told(ann)
    expect(strip(ann, "Ben")).to_have_class("together-typing")
    with live_app.app_context():  # on the server, the 2 minutes are up
        for hand in db.session.scalars(sa.select(DraftEntry)):
            hand.at -= TYPING_LAPSE
        db.session.commit()
    with ann.expect_request(re.compile(r"/draft$")):
        ann.clock.fast_forward(int(TYPING_LAPSE.total_seconds() + 1) * 1000)
    expect(strip(ann, "Ben")).to_have_class("together-done")


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
        "Your hand is in: waiting for Cat and Ben")  # in playing order, as a list of the language
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
    # Back, the hand is as typed, and the pad is not on it (it needs no cards):
    # it goes as left. Had the browser put the focus back in its field, it
    # would rightly still be being typed here, until the field is left.
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
