"""The home page: sessions being played, a new session, the latest finished ones,
and the hand check."""

import re

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.rules import Entry, HouseRules
from tests.conftest import the_group
from tests.web.helpers import hand_check, statements


def make_session(app, names=("Ann", "Bob"), rounds=0, ended=False):
    with app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         list(names), HouseRules.penang(),
                                         first_dealer=names[0])
        for i in range(rounds):  # each another game: the same twice asks first
            services.record_round(services.Change.to(session),
                                  {names[0]: Entry("dead", "5S 5H"),
                                   names[1]: Entry("dead", f"{10 - i}C")})
        if ended:
            services.end_session(services.Change.to(session))
        return session.id


def test_an_empty_home_page_offers_a_new_session(client):
    html = client.get("/").text
    assert '<a class="button home-new" href="/sessions/new">New session</a>' in html
    assert "Playing now" not in html
    assert "Finished" not in html
    assert '<details class="panel home-check" id="check">' in html  # the hand check stays, folded


def test_the_session_being_played_is_the_main_button_and_a_new_one_comes_second(app, client):
    sid = make_session(app, rounds=2)
    make_session(app, names=("Cat", "Dan"), ended=True)
    html = client.get("/").text
    playing = html[html.index("Playing now"):html.index("New session")]
    assert f'<a class="button home-open" href="/sessions/{sid}">' in playing
    assert "Open the scoreboard" in playing
    assert '<span class="home-open-players">Ann, Bob</span>' in playing
    assert re.search(r'<span class="home-open-meta">Started \w{3} \d{1,2} \w{3}, \d\d:\d\d · '
                     r'2 rounds</span>', playing)
    assert "Cat" not in playing
    # One main button: "New session" is the outlined, secondary one now.
    assert '<a class="button home-new sessions-quiet" href="/sessions/new">New session</a>' in html
    assert html.count('class="button home') == 2


def test_several_sessions_being_played_are_listed_the_latest_first(app, client):
    first = make_session(app, rounds=2)
    second = make_session(app, names=("Cat", "Dan"))
    html = client.get("/").text
    playing = html[html.index("Playing now"):html.index("New session")]
    assert re.findall(r'<a class="home-link" href="/sessions/(\d+)">', playing) == [
        str(second), str(first)]
    assert '<span class="home-players">Ann, Bob</span>' in playing
    assert "home-open" not in html
    assert '<a class="button home-new sessions-quiet" href="/sessions/new">New session</a>' in html


def test_the_latest_finished_sessions_link_to_history(app, client):
    old = [make_session(app, names=(f"P{i}", f"Q{i}"), rounds=1, ended=True) for i in range(5)]
    make_session(app, names=("Cat", "Dan"))
    html = client.get("/").text
    finished = html[html.index("Finished"):html.index("Check a hand")]
    links = re.findall(r'<a class="home-link" href="/history/sessions/(\d+)">', finished)
    assert links == [str(sid) for sid in reversed(old[2:])]
    assert "· 1 round</span>" in finished
    assert '<a href="/history">All past sessions</a>' in finished
    assert "Cat" not in finished


def test_a_left_player_is_listed_only_once_the_session_ends(app, client):
    sid = make_session(app, names=("Ann", "Bob", "Cat"))
    with app.app_context():
        session = db.session.get(GameSession, sid)
        services.leave_session(services.Change.to(session), session.seats[1].player_id)
    assert '<span class="home-open-players">Ann, Cat</span>' in client.get("/").text
    with app.app_context():
        services.end_session(services.Change.to(db.session.get(GameSession, sid)))
    assert '<span class="home-players">Ann, Bob, Cat</span>' in client.get("/").text


def test_the_hand_check_opens_when_used(client):
    html = client.get("/", query_string={"cards": "8H 8H 8C"}).text
    assert '<details class="panel home-check" id="check" open>' in html
    assert '<form method="get" action="/#check">' in html


def test_home_page_loads_in_a_fixed_number_of_statements(app, client):
    make_session(app, rounds=1)
    make_session(app, rounds=1, names=("Cat", "Dan"), ended=True)
    counts = []
    for size in range(2):
        # The first view after a change works out what the group owes; the
        # next reads it as this app server kept it (queries/debts.py).
        for _ in ("first", "again"):
            with statements(app) as seen:
                client.get("/")
            counts.append(len(seen))
        for i in range(4):
            make_session(app, names=(f"X{size}{i}", f"Y{size}{i}"), rounds=2, ended=i % 2 == 0)
    assert counts[:2] == counts[2:]
    assert counts[1] < counts[0]


def test_a_few_of_many_open_sessions_show_with_a_link_to_all(app, client):
    opened = [make_session(app, names=(f"P{i}", f"Q{i}")) for i in range(7)]
    html = client.get("/").text
    playing = html[html.index("Playing now"):html.index("New session")]
    links = re.findall(r'<a class="home-link" href="/sessions/(\d+)">', playing)
    assert links == [str(sid) for sid in reversed(opened[2:])]
    assert '<a href="/sessions/open">All 7 sessions still open</a>' in playing


def test_all_open_sessions_page_by_page(app, client):
    opened = [make_session(app, names=(f"P{i}", f"Q{i}"), rounds=i % 2) for i in range(12)]
    make_session(app, names=("Cat", "Dan"), ended=True)
    first, second = client.get("/sessions/open").text, client.get("/sessions/open?page=2").text
    assert "12 sessions not ended yet" in first
    listed = [re.findall(r'<a class="home-link" href="/sessions/(\d+)">', html)
              for html in (first, second)]
    assert listed == [[str(sid) for sid in reversed(opened[2:])],
                      [str(sid) for sid in reversed(opened[:2])]]
    assert '<span class="home-players">P11, Q11</span>' in first
    assert "Page 2 of 2" in second and 'rel="prev" href="/sessions/open?page=1"' in second
    assert "Cat" not in first + second
    assert client.get("/sessions/open?page=3").status_code == 404


def test_the_open_sessions_page_says_when_none_are_open(app, client):
    make_session(app, ended=True)
    html = client.get("/sessions/open").text
    assert "Every session has ended." in html
    assert "still open" not in client.get("/").text


def test_the_open_sessions_page_is_for_the_signed_in_group(app):
    response = app.test_client().get("/sessions/open")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/sign-in?next=/sessions/open")


# Check a hand (no sign-in): a hand no deck of the chosen rules can hold is refused


@pytest.mark.parametrize("cards, preset, message", [
    ("AH AH AH 2S 3S", "rummi", "3 copies of AH entered, but the deck has only 2."),
    ("JK JK JK JK JK JK JK", "penang", "7 jokers entered, but the deck has only 6."),
    ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8H 9H 10H", "rummi",
     "21 cards entered, but a hand holds at most 20 (the most these rules deal)."),
])
def test_a_hand_no_deck_can_hold_is_refused_next_to_the_cards(anonymous, cards, preset, message):
    part = hand_check(anonymous, cards, preset)
    assert f'<p class="error" id="cards-error">{message}</p>' in part
    assert f'aria-invalid="true" autocapitalize="characters" autocomplete="off" id="cards" ' \
           f'maxlength="200" name="cards" spellcheck="false" type="text" value="{cards}">' in part
    assert 'class="result"' not in part


def test_a_hand_that_some_deal_gives_is_checked(anonymous):
    # With five or more players Penang plays three packs (docs/RULES.md §3).
    part = hand_check(anonymous, "AH AH AH 2S 3S", "penang")
    assert "<strong>5</strong> points left" in part
    assert 'class="error"' not in part
    # As many jokers as Rummi's deck has, and two natural cards: all meld.
    part = hand_check(anonymous, "JK JK JK JK JK JK JK JK QC KC", "rummi")
    assert "<strong>0</strong> points left" in part
    assert "nothing: the hand melds completely" in part
