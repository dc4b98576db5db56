"""The card pad as a table uses it for a whole evening (issue 16): it moves on
from player to player in playing order, keeps everything reachable above it,
switches only on a tap, and takes a full Tien Hu hand in a few taps; the
warnings' Save anyway is where the warnings are.

Taps are counted as a thumb makes them (``Thumb``): a tap on something off the
screen or under the pad costs a scroll first. The same rounds on the pad
before issue 16 took: the 4-player round 21 taps and 3 scrolls, the Tien Hu
hand 31 taps and 2 scrolls, the no-passport hand 25 taps and 1 scroll.
"""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules import HouseRules
from tests.conftest import the_group
from tests.e2e.conftest import phone_page_problems, sign_in

# Rummi, Ann deals: play goes anticlockwise from her right.
ORDER = ["Dan", "Cat", "Ben", "Ann"]
SUIT_KEYS = {"♠": "Spades", "♥": "Hearts", "♦": "Diamonds", "♣": "Clubs"}

# A Tien Hu hand of the 20 dealt: three runs, two sets, two jokers.
TIEN_HU = "AS 2S 3S 4S 5S 7H 8H 9H 10D JD QD KD 5H 5D 5C 9D 9C 9S JK JK"
TIEN_HU_KEYS = ("A Run 5 ♥ 7 Run 9 ♦ 10 Run K "  # runs: first card, Run, last
                "♥ 5 = = ♦ 9 = = "               # sets: one card, then = for each next suit
                "JK JK")
# 20 cards with no meld at all: one tap a card, a tap a change of suit.
NO_PASSPORT = "AS 3S 5S 7S 9S JS KS 2H 4H 6H 8H 10H QH AD 5D 9D KD 2C 4C 6C"


@pytest.fixture
def new_round(live_app, member) -> str:
    """A new session of four: its first round's form."""
    with live_app.app_context():
        session = services.start_session(services.Change(the_group()), ["Ann", "Ben", "Cat", "Dan"],
                                         HouseRules.rummi(), "Ann")
        return f"/sessions/{session.id}/rounds/new"


@pytest.fixture
def round_page(member, new_round):
    """The page, on the new session's first round's form."""
    member.goto(new_round)
    return member


class Thumb:
    """Taps and the scrolls they need, counted."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.scrolls = 0

    def tap(self, locator) -> None:
        if not reachable(locator):
            self.scrolls += 1
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")
            assert reachable(locator)
        locator.tap()
        self.taps += 1

    def keys(self, keys: str) -> None:
        """Taps on the pad: a rank, ♠ ♥ ♦ ♣, JK, Run, = (same rank, next suit), ⌫."""
        pad = self.page.locator("#card-pad")
        for key in keys.split():
            if key in SUIT_KEYS:
                self.tap(pad.get_by_role("button", name=SUIT_KEYS[key], exact=True))
            elif key == "JK":
                self.tap(pad.get_by_role("button", name="Add a joker"))
            else:
                ids = {"Run": "#card-pad-run", "=": "#card-pad-again", "⌫": "#card-pad-undo"}
                self.tap(pad.locator(ids.get(key, f"[data-rank='{key}']")))

    def outcome(self, name: str, label: str) -> None:
        self.tap(panel(self.page, name).locator("label.round-outcome").filter(
            has_text=re.compile(rf"^\s*{label}\s*$")))


def reachable(locator) -> bool:
    """Whether a tap at the element's centre lands on it: on the screen, not under the pad."""
    return locator.evaluate("""el => {
        const box = el.getBoundingClientRect();
        if (box.top < 0 || box.bottom > innerHeight || box.height === 0) return false;
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit !== null && (el.contains(hit) || el.control === hit);
    }""")


def panel(page, name: str):
    return page.get_by_role("region", name=name, exact=True)


def cards_of(page, name: str):
    """A player's cards field: "Cards left", or "Whole hand (20 cards)"."""
    return page.get_by_label(re.compile(rf" in {name}'s hand$"))


def pad_player(page):
    return page.locator("#card-pad-player")


def above_the_pad(page, locator) -> bool:
    """Whether the element is wholly on the screen and above the open pad."""
    return page.evaluate("""el => {
        const box = el.getBoundingClientRect();
        const pad = document.getElementById('card-pad').getBoundingClientRect();
        return box.top >= 0 && box.bottom <= pad.top;
    }""", locator.element_handle())


def save_button(page):
    return page.locator(".round-actions button[type=submit]").first


def test_the_pad_moves_on_in_playing_order(round_page):
    page, thumb = round_page, Thumb(round_page)
    expect(pad_player(page)).to_have_text("Dan")
    assert above_the_pad(page, panel(page, "Dan"))

    thumb.keys("Q =")  # QS, then the queen of the next suit
    thumb.keys("♣ 3")
    thumb.tap(page.get_by_role("button", name="Done", exact=True))
    # On to Cat, and the pad says so.
    expect(pad_player(page)).to_have_text("Cat")
    expect(page.locator("#card-pad-note")).to_have_text("✓ Dan done · now Cat")
    expect(panel(page, "Cat")).to_have_class(re.compile(r"\bround-player-active\b"))
    assert above_the_pad(page, panel(page, "Cat"))

    thumb.outcome("Cat", "Hu")  # Cat went out: the pad goes on to Ben
    expect(pad_player(page)).to_have_text("Ben")
    thumb.keys("JK ♦ 7 ♣ 8")
    expect(page.locator("#card-pad-note")).to_be_empty()
    thumb.tap(page.get_by_role("button", name="Done", exact=True))
    expect(pad_player(page)).to_have_text("Ann")
    thumb.keys("♠ 5 ♥ 9 =")
    thumb.tap(page.get_by_role("button", name="Done", exact=True))

    # After the last player, the pad closes with Save in view.
    expect(page.locator("#card-pad")).to_be_hidden()
    save = save_button(page)
    expect(save).to_be_focused()
    assert reachable(save)
    entered = {name: cards_of(page, name).input_value() for name in ("Dan", "Ben", "Ann")}
    assert entered == {"Dan": "QS QH 3C", "Ben": "JK 7D 8C", "Ann": "5S 9H 9D"}
    thumb.tap(save)
    page.wait_for_url(re.compile(r"/rounds/1$"))
    # Before issue 16: 21 taps and 3 scrolls.
    assert (thumb.taps, thumb.scrolls) == (19, 0)


def test_cards_tapped_before_the_page_hears_of_the_round_stay_on_the_pad(member, new_round):
    """The pad is on Dan's hand before the page has the round filled in
    together from the server: the first answer sends his cards as being
    typed, not as in, and the pad stays on his hand (it moved on under the
    thumb). Done sends them as in."""
    page, thumb = member, Thumb(member)
    state, hand = re.compile(r"/draft$"), re.compile(r"/draft/\d+$")
    held = []  # the page's first ask for the round's hands; the others go
    page.route(state, lambda route: route.continue_() if held else held.append(route))
    with page.expect_request(state):
        page.goto(new_round)
    thumb.keys("Q ♣ 3")
    with page.expect_request(lambda r: hand.search(r.url) and r.method == "POST") as sent:
        held[0].continue_()
    assert sent.value.post_data_json == {**sent.value.post_data_json,
                                         "cards": "QS 3C", "typing": True}
    expect(page.locator(".together-strip li").filter(has_text="Dan")).to_have_class(
        "together-typing")
    expect(pad_player(page)).to_have_text("Dan")
    with page.expect_request(lambda r: hand.search(r.url) and r.method == "POST") as sent:
        thumb.tap(page.get_by_role("button", name="Done", exact=True))
    assert sent.value.post_data_json["typing"] is False
    expect(pad_player(page)).to_have_text("Cat")


def test_a_player_is_picked_from_the_pad(round_page):
    page = round_page
    pad = page.locator("#card-pad")
    previous = pad.get_by_role("button", name="Previous player: Ann")
    following = pad.get_by_role("button", name="Next player: Cat")
    expect(previous).to_be_visible()
    following.tap()
    expect(pad_player(page)).to_have_text("Cat")
    expect(page.locator("#card-pad-title")).to_have_class(re.compile(r"\bround-pad-switched\b"))
    expect(page.locator(".round-add[aria-pressed=true]")).to_have_text("Add cards for Cat")
    assert above_the_pad(page, panel(page, "Cat"))
    pad.get_by_role("button", name="Previous player: Dan").tap()
    expect(pad_player(page)).to_have_text("Dan")
    # Going round: before the first player comes the last; a Hu player is passed by.
    page.get_by_role("button", name="Previous player: Ann").tap()
    expect(pad_player(page)).to_have_text("Ann")
    assert above_the_pad(page, panel(page, "Ann"))
    Thumb(page).outcome("Dan", "Hu")
    expect(pad_player(page)).to_have_text("Ann")  # another row's Hu leaves the pad where it is
    expect(pad.get_by_role("button", name="Next player: Cat")).to_be_visible()
    assert phone_page_problems(page) == []


def test_the_pad_never_follows_the_scroll(round_page):
    """Cards go to the player the pad names, whatever is in view; a switch takes a tap."""
    page = round_page
    expect(pad_player(page)).to_have_text("Dan")
    page.evaluate("window.scrollBy(0, 900)")
    expect(panel(page, "Dan")).not_to_be_in_viewport()
    expect(pad_player(page)).to_have_text("Dan")
    page.locator("#card-pad").get_by_role("button", name="Add a joker").tap()
    expect(cards_of(page, "Dan")).to_have_value("JK")
    expect(cards_of(page, "Ann")).to_have_value("")
    # The card is seen going in: Dan's row comes back into view above the pad.
    expect(panel(page, "Dan")).to_be_in_viewport()
    assert above_the_pad(page, panel(page, "Dan"))
    # A deliberate tap switches, and the switch shows.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    panel(page, "Ann").get_by_role("button", name="Add cards for Ann").tap()
    expect(pad_player(page)).to_have_text("Ann")
    expect(page.locator("#card-pad-title")).to_have_class(re.compile(r"\bround-pad-switched\b"))
    expect(panel(page, "Ann")).to_have_class(re.compile(r"\bround-player-switched\b"))
    expect(panel(page, "Dan")).not_to_have_class(re.compile(r"\bround-player-active\b"))


def test_everything_scrolls_above_the_open_pad(round_page):
    page = round_page
    pad = page.locator("#card-pad")
    for _ in ORDER[:-1]:
        pad.get_by_role("button", name="Next player", exact=False).first.tap()
    expect(pad_player(page)).to_have_text("Ann")  # the last player, at the bottom
    height = pad.evaluate("el => el.offsetHeight")
    assert height > 150
    assert page.evaluate("getComputedStyle(document.body).paddingBottom") == f"{height}px"
    assert above_the_pad(page, panel(page, "Ann"))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    # Save, and whatever follows the form, can be brought above the pad.
    assert above_the_pad(page, save_button(page))
    bottom = page.evaluate("""Math.max(...[...document.body.children]
        .filter(el => el.tagName !== 'SCRIPT').map(el => el.getBoundingClientRect().bottom))""")
    assert bottom <= pad.bounding_box()["y"] + 1
    assert phone_page_problems(page) == []


def test_a_tien_hu_hand_in_few_taps(round_page):
    page, thumb = round_page, Thumb(round_page)
    hints = page.locator(".round-optional:visible")
    expect(hints).to_have_count(0)
    thumb.outcome("Ben", "Tien Hu")
    # The pad opens for Ben at once; the others' cards may be left empty, and say so.
    expect(pad_player(page)).to_have_text("Ben")
    expect(page.get_by_label("Whole hand (20 cards) in Ben's hand")).to_be_visible()
    expect(page.get_by_label("Cards left in Dan's hand")).to_be_visible()
    expect(hints).to_have_count(3)
    for name in ("Dan", "Cat", "Ann"):
        hint = panel(page, name).locator(".round-optional")
        expect(hint).to_have_text("Another player has Tien Hu: these cards may be left empty.")
        expect(cards_of(page, name)).to_have_attribute("aria-describedby", hint.get_attribute("id"))
    expect(cards_of(page, "Ben")).not_to_have_attribute("aria-describedby", re.compile("."))

    thumb.keys("A Run")
    expect(page.locator("#card-pad-note")).to_have_text("Run from A♠ to…")
    expect(page.locator("#card-pad-run")).to_have_attribute("aria-pressed", "true")
    pad = page.locator("#card-pad")
    expect(pad.get_by_role("button", name="Run to 5 of spades")).to_be_enabled()
    expect(pad.get_by_role("button", name="Run to ace of spades")).to_be_disabled()
    thumb.keys(TIEN_HU_KEYS.split(" ", 2)[2])
    # The 20th card finishes the hand: nobody else needs cards, so Save comes up.
    expect(page.locator("#card-pad")).to_be_hidden()
    assert sorted(cards_of(page, "Ben").input_value().split()) == sorted(TIEN_HU.split())
    expect(panel(page, "Ben").locator("output.round-points")).to_have_text("20 of 20 cards")
    save = save_button(page)
    assert reachable(save)
    thumb.tap(save)
    page.wait_for_url(re.compile(r"/rounds/1$"))
    # Before issue 16: 31 taps and 2 scrolls.
    assert (thumb.taps, thumb.scrolls) == (23, 1)


def test_a_no_passport_hand_and_slips(round_page):
    page, thumb = round_page, Thumb(round_page)
    thumb.outcome("Cat", "No passport")
    expect(pad_player(page)).to_have_text("Cat")
    thumb.keys("A 3 5 7 9 J K ♥ 2 4 6 8 10 Q ♦ A 5 9 K ♣ 2 4 6")
    # Full: on to the next player who needs cards, Ben (Dan, who plays before Cat, comes last).
    expect(pad_player(page)).to_have_text("Ben")
    expect(page.locator("#card-pad-note")).to_have_text("✓ Cat done · now Ben")
    expect(cards_of(page, "Cat")).to_have_value(NO_PASSPORT)
    # Before issue 16: 25 taps and 1 scroll (its Done included).
    assert (thumb.taps, thumb.scrolls) == (24, 1)
    # The last card was a slip: ⌫ goes back to Cat's hand and takes it off.
    page.get_by_role("button", name="Remove the last card").tap()
    expect(pad_player(page)).to_have_text("Cat")
    expect(cards_of(page, "Cat")).to_have_value(NO_PASSPORT.removesuffix(" 6C"))
    thumb.keys("♣ 8")
    expect(pad_player(page)).to_have_text("Ben")
    # Run and = only offer what the deck and the hand can take.
    expect(page.locator("#card-pad-run")).to_be_disabled()  # Ben holds nothing yet
    expect(page.locator("#card-pad-again")).to_be_disabled()
    thumb.keys("♥ 2 ♠ 2")
    again = page.locator("#card-pad-again")
    expect(again).to_have_text("2♦")  # both 2♥ are held (Cat's, Ben's): on to 2♦
    expect(again).to_have_attribute("aria-label", "2 of diamonds, same rank, next suit")
    thumb.keys("= 5 3 Run")
    expect(page.locator("#card-pad-run")).to_have_attribute("aria-pressed", "true")
    # Both 5♦ are held too: no run from 3♦ goes through it.
    expect(page.get_by_role("button", name="Run to 7 of diamonds")).to_be_disabled()
    expect(page.get_by_role("button", name="Run to 3 of diamonds")).to_be_disabled()
    thumb.keys("A")
    expect(cards_of(page, "Ben")).to_have_value("2H 2S 2D 5D 3D 2D AD")
    expect(page.locator("#card-pad-run")).to_have_attribute("aria-pressed", "false")
    assert phone_page_problems(page) == []


def test_enter_in_a_cards_field_moves_on_and_never_sends_the_round(round_page):
    """Issue 25: the pad hides while a cards field has the keyboard; Enter
    ends that hand and goes on to the next that needs cards, then to Save."""
    page = round_page
    expect(pad_player(page)).to_have_text("Dan")
    hands = {"Dan": "5S 9H", "Cat": "KD", "Ben": "4C", "Ann": "7H 2D"}
    for name, following in (("Dan", "Cat"), ("Cat", "Ben"), ("Ben", "Ann"), ("Ann", None)):
        field = cards_of(page, name)
        field.tap()
        expect(page.locator("#card-pad")).to_be_hidden()  # the keyboard has the screen
        field.fill(hands[name])
        field.press("Enter")
        if following:
            expect(cards_of(page, following)).to_be_focused()
            expect(pad_player(page)).to_have_text(following)  # when the keyboard goes
    expect(save_button(page)).to_be_focused()
    expect(page.locator(".round-actions")).to_have_class(re.compile(r"\bround-actions-ready\b"))
    assert reachable(save_button(page))
    assert page.url.endswith("/rounds/new")  # nothing sent as a round
    assert cards_of(page, "Ann").input_value() == "7H 2D"


def test_warnings_and_tien_hu_without_javascript(new_context, live_app):
    with live_app.app_context():
        session = services.start_session(services.Change(the_group()), ["Ann", "Ben", "Cat", "Dan"],
                                         HouseRules.rummi(), "Ann")
        url = f"/sessions/{session.id}/rounds/new"
    page = new_context(java_script_enabled=False).new_page()
    sign_in(page)
    # A Tien Hu hand one card short: the form comes back, saying the others may be empty.
    page.goto(url)
    panel(page, "Ben").get_by_label("Tien Hu").check()
    cards_of(page, "Ben").fill(TIEN_HU.removesuffix(" JK"))
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#round-summary")).to_be_visible()
    for name in ("Dan", "Cat", "Ann"):
        expect(panel(page, name).locator(".round-optional")).to_be_visible()
    expect(panel(page, "Ben").locator(".round-optional")).to_be_hidden()

    # A dead hand holding a run: a warning, and Save anyway right under it.
    page.goto(url)
    for name, cards in {"Dan": "5S 6S 7S", "Cat": "8H 8D 8C", "Ben": "3D", "Ann": "4C"}.items():
        cards_of(page, name).fill(cards)
    page.get_by_role("button", name="Save round 1").tap()
    top = page.locator("#round-summary").get_by_role("button", name="Save anyway")
    expect(top).to_be_visible()
    expect(page.locator(".round-actions").get_by_role("button", name="Save anyway")).to_be_visible()
    top.tap()
    page.wait_for_url(re.compile(r"/rounds/1$"))
