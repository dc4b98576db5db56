"""Issue 16, a phone's own player and the table's habits: "This is Ann's phone"
(kept in the phone's cookie, her rows marked, her own money first), the new
session "as last time", and the switch that keeps the screen on."""

import dataclasses
import re

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player
from scorekeeper.queries import Standing, own_standing
from scorekeeper.rules import HouseRules
from tests.conftest import signed_in_client
from tests.web.examples import HU, NO_HU, TABLE, TIE, make_session, player_id
from tests.web.helpers import (
    csrf_token,
    form_values,
    forms_on,
    make_link,
    statements,
    text,
    visible_text,
)

# Rummi, Dan deals first. After NO_HU, TIE and HU: Ann 60 points −6.50,
# Bob 42 +0.50, Cat 24 +11.00, Dan 52 −5.00; Ann pays Cat 6.50, Dan pays
# Bob 0.50 and Cat 4.50.
EVENING = [NO_HU, TIE, HU]
YOU = "you</span><span class=\"sessions-vh\"> (this phone's player)</span>"


def choose(client, sid, value):
    """Tap a name (or Nobody's) in the scoreboard's "Whose phone is this?"."""
    board = f"/sessions/{sid}"
    return client.post(f"{board}/phone",
                       data={"csrf_token": csrf_token(client, board), "player": value})


def cookie_player(client):
    """The player this phone said it is in its group (None: nobody's, or not said)."""
    with client.session_transaction() as cookie:
        return next((player for group_id, player in cookie.get("phones", [])
                     if group_id == cookie["group_id"]), None)


def said(response) -> str:
    """The page's visible text as it reads: visible_text puts a space for every
    tag, so "<strong>RM 6.50</strong>, 4th" comes out "RM 6.50 , 4th"."""
    return re.sub(r" ([,.:)])", r"\1", visible_text(response))


@pytest.fixture
def evening(app):
    return make_session(app, EVENING)


# Whose phone is this


def test_a_phone_that_says_whose_it_is_sees_her_money_first(app, client, evening):
    board = client.get(f"/sessions/{evening}").text
    assert "Whose phone is this?" in board and "this phone)" not in board
    (form,) = [f for f in forms_on(board) if f.action == f"/sessions/{evening}/phone"]
    ann = player_id(app, "Ann")
    assert form.buttons["player"] == {str(player_id(app, n)) for n in TABLE} | {""}

    answer = choose(client, evening, str(ann))
    assert answer.status_code == 302 and answer.location == f"/sessions/{evening}"
    assert cookie_player(client) == ann
    response = client.get(f"/sessions/{evening}")
    assert "Ann (this phone): −RM 6.50, 4th." in said(response)
    html = response.text
    # The first thing on the page, above the title.
    main = html[html.index('<main id="main"'):]
    assert re.match(r'<main id="main" tabindex="-1">\s*(<div id="live-page"[^>]*>\s*)?'
                    r'<section class="board-me"', main)
    assert "Whose phone is this?" not in html and "Not Ann’s phone?" in html
    totals = re.search(r'<table class="board-totals">.*?</table>', html, re.S)[0]
    assert re.search(r'<tr class="sessions-me">\s*<th scope="row"><span class="board-who">'
                     r'<span class="board-name" title="Ann">Ann</span> <span class="sessions-you" '
                     r'aria-hidden="true">' + re.escape(YOU), totals)
    assert totals.count("sessions-me") == 1
    # Her column of the rounds table: its head and a cell a round.
    rounds = re.search(r'<table class="board-rounds">.*?</table>', html, re.S)[0]
    assert rounds.count("sessions-me") == 1 + len(EVENING)
    assert "Ann</span><span class=\"sessions-vh\"> (this phone's player)</span></th>" in rounds


def test_the_place_is_shared_when_tied_and_points_count_in_a_points_only_session(app, client):
    points_only = dataclasses.replace(HouseRules.penang(), scheme="none")
    sid = make_session(app, [NO_HU], rules=points_only)
    choose(client, sid, str(player_id(app, "Dan")))
    # Round 1, Penang (dealer Dan, clockwise): Cat 7 points, Dan 24, Ann 27, Bob 32.
    assert "Dan (this phone): 24 points, 2nd." in said(client.get(f"/sessions/{sid}"))
    fresh = make_session(app, names=["Eve", "Fay"])
    choose(client, fresh, str(player_id(app, "Eve")))
    assert "Eve (this phone): no rounds yet." in said(client.get(f"/sessions/{fresh}"))


@pytest.mark.parametrize("cents, expected", [
    ([500, 300, 300, -1100], ["1st", "joint 2nd", "joint 2nd", "4th"]),
    ([0, 0], ["joint 1st", "joint 1st"]),
])
def test_places_count_as_competitions_do(cents, expected):
    players = [Player(id=i + 1, name=f"P{i}") for i in range(len(cents))]
    standings = [Standing(p, True, 0, c) for p, c in zip(players, cents, strict=True)]
    assert [own_standing(standings, p.id).ordinal for p in players] == expected
    assert own_standing(standings, 99) is None


def test_ordinals_past_ten():
    standing = own_standing([Standing(Player(id=1, name="A"), True, 0, 0)], 1)
    assert [dataclasses.replace(standing, place=n).ordinal for n in (11, 12, 13, 21, 22, 23)] \
        == ["11th", "12th", "13th", "21st", "22nd", "23rd"]


def test_nobodys_phone_forgets_the_player(app, client, evening):
    choose(client, evening, str(player_id(app, "Bob")))
    assert cookie_player(client) == player_id(app, "Bob")
    assert choose(client, evening, "").status_code == 302
    assert cookie_player(client) is None
    html = client.get(f"/sessions/{evening}").text
    assert "sessions-me" not in html and "this phone)" not in html
    assert 'value="" class="chip new-pick" aria-pressed="true">Nobody' in html


@pytest.mark.parametrize("who", ["stranger", "other group", "junk", "negative", "huge", "zero"])
def test_only_a_player_of_this_session_can_be_chosen(app, client, group, evening, who):
    choose(client, evening, str(player_id(app, "Cat")))
    make_session(app, names=["Zed", "Yan"])  # the group's, never at this table
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        services.start_session(services.Change(other),
                               ["Xia", "Wu"], HouseRules.penang(), first_dealer="Xia")
    value = {"stranger": player_id(app, "Zed"), "other group": player_id(app, "Xia"),
             "junk": "Ann", "negative": "-1", "huge": "9" * 40, "zero": "0"}[who]
    response = choose(client, evening, str(value))
    assert response.status_code == 422
    assert ("Only a player of this session can be this phone's: choose one of the names below."
            in text(response))
    assert "Xia" not in response.text and "Zed" not in response.text
    assert '<details class="board-phone" open>' in response.text
    assert cookie_player(client) == player_id(app, "Cat")  # unchanged


def test_choosing_needs_the_forms_token(app, client, evening):
    response = client.post(f"/sessions/{evening}/phone",
                           data={"player": str(player_id(app, "Ann"))})
    assert response.status_code == 400
    assert cookie_player(client) is None


def test_another_groups_session_is_404_for_the_choice(app, evening):
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        stranger = signed_in_client(app, other)
    token = csrf_token(stranger, "/sessions/new")
    response = stranger.post(f"/sessions/{evening}/phone",
                             data={"csrf_token": token, "player": str(player_id(app, "Ann"))})
    assert response.status_code == 404


def test_her_row_is_marked_on_the_round_settle_and_players_pages(app, client, evening):
    choose(client, evening, str(player_id(app, "Ann")))
    result = client.get(f"/sessions/{evening}/rounds/1").text
    line = re.search(r'<li class="round-line[^"]*sessions-me">.*?</li>', result, re.S)[0]
    assert '<strong class="round-name">Ann</strong> <span class="sessions-you"' in line
    assert result.count("sessions-me") == 1

    settle = client.get(f"/sessions/{evening}/settle")
    text = said(settle)
    assert text.index("Ann (this phone): You pay Cat RM 6.50") < text.index("Balances")
    # Her transfer first in the list, in her words; the others after it.
    lines = re.findall(r'<p class="settle-line"><span>(.*?)</span>', settle.text, re.S)
    assert [re.sub(r"<[^>]+>", "", line) for line in lines] == \
        ["You pay Cat", "Dan pays Bob", "Dan pays Cat"]
    assert re.search(r'<tr class="sessions-me"><th scope="row">Ann ', settle.text)
    # The chat message names everyone, and keeps the settlement's order.
    message = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', settle.text, re.S)[1]
    assert message.splitlines()[-3:] == ["Ann pays Cat RM 6.50", "Dan pays Bob RM 0.50",
                                         "Dan pays Cat RM 4.50"]

    choose(client, evening, str(player_id(app, "Cat")))
    settle = said(client.get(f"/sessions/{evening}/settle"))
    assert "Cat (this phone): Ann pays you RM 6.50 Dan pays you RM 4.50 Balances" in settle

    players = client.get(f"/sessions/{evening}/players").text
    assert re.search(r'<li class="sessions-me">\s*<form[^>]*>\s*(?:<input[^>]*>\s*)+'
                     r'<span class="board-seat"><span class="board-seat-name">Cat</span> '
                     r'<span class="sessions-you"', players)


def test_a_player_who_pays_nobody_is_told_so(app, client):
    sid = make_session(app, names=["Eve", "Fay"])
    choose(client, sid, str(player_id(app, "Fay")))
    assert "Fay (this phone): nothing to pay, nothing to get." in \
        said(client.get(f"/sessions/{sid}/settle"))


def test_a_player_who_left_is_still_this_phones(app, client, evening):
    with app.app_context():
        services.leave_session(services.Change.to(db.session.get(GameSession, evening)),
                               player_id(app, "Dan"))
    assert choose(client, evening, str(player_id(app, "Dan"))).status_code == 302
    html = client.get(f"/sessions/{evening}").text
    assert re.search(r'<tr class="board-left sessions-me">\s*<th scope="row">'
                     r'<span class="board-who"><span class="board-name" title="Dan">Dan</span> '
                     r'<span class="sessions-you"[^>]*>you</span>.*?'
                     r'<span class="sessions-tag">left',
                     html, re.S)
    assert "Dan (this phone): −RM 5.00, 3rd." in said(client.get(f"/sessions/{evening}"))


def test_the_phones_player_marks_nothing_at_a_table_she_is_not_at(app, client, evening):
    choose(client, evening, str(player_id(app, "Ann")))
    elsewhere = make_session(app, [], names=["Bob", "Cat"])
    for page in ("", "/settle", "/players"):
        html = client.get(f"/sessions/{elsewhere}{page}").text
        assert "sessions-me" not in html and "this phone)" not in html, page
    assert "Whose phone is this?" in client.get(f"/sessions/{elsewhere}").text
    # Back at her table (next week's too), she is still herself.
    assert "Ann (this phone)" in said(client.get(f"/sessions/{evening}"))


def test_shared_pages_have_no_phone_identity(app, client, anonymous, evening):
    choose(client, evening, str(player_id(app, "Ann")))
    url = make_link(client, evening)
    for viewer in (client, anonymous):  # the phone's own cookie changes nothing there
        for page in (url, url + "/settle"):
            html = viewer.get(page).text
            assert "Ann" in html
            for mark in ("sessions-me", "sessions-you", "this phone", "You pay", "wake.js",
                         "Whose phone"):
                assert mark not in html, (page, mark)


def test_the_board_runs_the_same_statements_with_a_phones_player(app, client, evening):
    def count():
        client.get(f"/sessions/{evening}")  # warm up
        with statements(app) as seen:
            assert client.get(f"/sessions/{evening}").status_code == 200
        return len(seen)

    before = count()
    choose(client, evening, str(player_id(app, "Ann")))
    assert count() == before


# As last time


def new_session_page(client):
    return client.get("/sessions/new").text


def test_a_groups_first_session_starts_from_penang(app, client):
    html = new_session_page(client)
    assert 'value="last"' not in html and "As last time" not in html
    assert '<option selected value="penang">Penang</option>' in html
    assert not re.search(r'id="seats-0"[^>]*value="\w', html)


def test_the_new_session_page_offers_last_times_rules_table_and_currency(app, client):
    own = dataclasses.replace(HouseRules.penang(), jokers=8, joker_points=25, passport="run",
                              direction="anticlockwise", dealer_rule="rotate",
                              no_passport_last=True, tiers=(0, 1, 2, 3), unit_cents=200,
                              hu_cents=500)
    make_session(app, names=["Old", "Timer"])
    sid = make_session(app, names=["Ann", "Bob", "Cat", "Dan", "Eve"], rules=own,
                       currency="SGD")
    with app.app_context():  # Eve went home early: the table ended with four
        services.leave_session(services.Change.to(db.session.get(GameSession, sid)),
                               player_id(app, "Eve"))
        services.end_session(services.Change.to(db.session.get(GameSession, sid)))
    html = new_session_page(client)
    # The choice comes first, is chosen, and says what it holds.
    options = re.search(r'<select[^>]*id="preset"[^>]*>(.*?)</select>', html, re.S)[1]
    assert re.findall(r'<option (?:selected )?value="(\w+)">', options) == \
        ["last", "penang", "rummi"]
    assert '<option selected value="last">As last time</option>' in options
    text = said(client.get("/sessions/new"))
    assert re.search(
        r"As last time \(\w{3} \d{1,2} \w{3} \d{4}\): own rules, money in SGD\. 8 jokers at 25 "
        r"points · run passport · anticlockwise · the deal goes round · no passport ranks last · "
        r"tiers 0·1·2·3 × SGD 2\.00 · Hu SGD 5\.00 · Tien Hu SGD 6\.00\.", text)
    assert "Filled in as the table was last time." in text
    fields = form_values(html, "/sessions/new")
    assert [fields[f"seats-{i}"] for i in range(6)] == ["Ann", "Bob", "Cat", "Dan", "", ""]
    assert (fields["currency"], fields["jokers"], fields["tiers"], fields["unit_cents"]) == \
        ("SGD", "8", "0 1 2 3", "2.00")

    # The same again next week: nothing changed, one tap.
    response = client.post("/sessions/new", data=fields)
    assert response.status_code == 302
    with app.app_context():
        again = db.session.scalars(db.select(GameSession).order_by(GameSession.id.desc())).first()
        assert (again.rules, again.currency) == (own, "SGD")
        assert [s.player.name for s in again.seats] == ["Ann", "Bob", "Cat", "Dan"]


def test_a_preset_as_it_comes_is_named_and_changing_the_rules_stays_possible(app, client):
    make_session(app, names=["Ann", "Bob"], rules=HouseRules.rummi(), currency="SGD", ended=True)
    html = new_session_page(client)
    assert "As last time (" in said(client.get("/sessions/new"))
    assert "Rummi rules as they come, money in SGD." in html
    fields = form_values(html, "/sessions/new")
    # Without JavaScript: Penang through "Use preset", then back to last time's.
    penang = client.post("/sessions/new", data={**fields, "preset": "penang", "use_preset": "1"})
    assert re.search(r'id="jokers"[^>]*value="6"', penang.text)
    assert '<p class="new-last" hidden>' in penang.text
    assert re.search(r'id="currency"[^>]*value="SGD"', penang.text)  # as typed
    changed = form_values(penang.text, "/sessions/new")
    back = client.post("/sessions/new", data={**changed, "currency": "MYR", "preset": "last",
                                              "use_preset": "1"})
    assert re.search(r'id="jokers"[^>]*value="8"', back.text)
    assert re.search(r'id="currency"[^>]*value="SGD"', back.text)
    # A changed rule is taken, whatever the preset chosen.
    response = client.post("/sessions/new", data={**fields, "jokers": "4"})
    assert response.status_code == 302
    with app.app_context():
        latest = db.session.scalars(db.select(GameSession).order_by(GameSession.id.desc())).first()
        assert latest.rules == dataclasses.replace(HouseRules.rummi(), jokers=4)


def test_as_last_time_before_any_session_is_refused_without_an_error(app, client):
    token = csrf_token(client, "/sessions/new")
    response = client.post("/sessions/new", data={"csrf_token": token, "preset": "last",
                                                  "use_preset": "1", "seats-0": "A"})
    assert response.status_code == 200
    assert '<option selected value="penang">Penang</option>' in response.text
    data = {**form_values(new_session_page(client), "/sessions/new"), "preset": "last",
            "seats-0": "A", "seats-1": "B"}
    response = client.post("/sessions/new", data=data)
    assert response.status_code == 200 and "Not a valid choice." in response.text
    with app.app_context():
        assert db.session.query(GameSession).count() == 0


# Keep screen on


@pytest.mark.parametrize("page", ["", "/settle", "/rounds/new", "/rounds/1", "/rounds/1/edit"])
def test_the_screen_is_kept_on_on_the_pages_of_an_open_session(app, client, evening, page):
    html = client.get(f"/sessions/{evening}{page}").text
    assert '<div class="wake" hidden>' in html  # in the footer, above the language switch
    assert re.search(r'<input type="checkbox" class="wake-input" role="switch" checked> '
                     r'Keep screen on</label>', html)
    assert re.search(r'<script type="module" src="/static/js/wake\.\w{8}\.js"></script>', html)


def test_not_on_other_pages_nor_once_the_session_has_ended(app, client, evening):
    ended = make_session(app, [NO_HU], ended=True)
    for url in ("/", "/sessions/new", f"/sessions/{evening}/players",
                f"/sessions/{evening}/rules", f"/sessions/{ended}", f"/sessions/{ended}/settle",
                f"/sessions/{ended}/rounds/1", "/history"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "wake" not in response.text, url
