"""How we play (web/how_we_play.py): a session's house rules in plain words
with examples the engine works out from them, for the group's phones and,
read only, from the session's share link."""

import dataclasses

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import ShareLink
from tests.conftest import signed_in_client
from tests.web.examples import EXAMPLE_RULES
from tests.web.helpers import csrf_token, make_link, visible_text

pytestmark = pytest.mark.any_database


def page(client, session_id) -> str:
    response = client.get(f"/sessions/{session_id}/how-we-play")
    assert response.status_code == 200
    return visible_text(response)


def test_the_page_says_the_sessions_rules_with_worked_examples(client, table):
    text = page(client, table.id)
    # Rummi's deck and points, a joker at 20
    assert "2 packs of 52 cards, shuffled together with the jokers: 8." in text
    assert "Each of the 4 players is dealt 20 cards." in text
    assert "If A is left holding 7♥ 8♥ JK , that is 7 + 8 + 20 = 35 points." in text
    # A run passport, and no passport ranks last
    assert "8♥ 8♣ 8♠ is no passport here." in text and "7♥ 8♥ 9♥ is a passport here." in text
    assert "places last, whatever the points" in text
    # Tiers 0 1 2 3 and the example round, joker/ace money in
    assert "1st gets RM 6.00, 2nd pays RM 1.00, 3rd pays RM 2.00, 4th pays RM 3.00" in text
    assert "A, left with 3♦ 4♦ : 7 points, 1st, +RM 7.00." in text
    assert "B, left with JK 7♥ : 27 points, 4th, −RM 4.00." in text
    assert "A pays RM 3.00 for them in all" in text
    # Dealing: clockwise, the winner deals
    assert "the player on the dealer's left starts" in text
    assert "If D deals, the order of play is A, B, C, and D." in text
    assert "After the game in the example of places and money, A deals." in text


def test_the_words_and_numbers_follow_the_house_rules(client, table):
    version = table.version
    services.change_house_rules(services.Change.to(table, seen=version), dataclasses.replace(
        EXAMPLE_RULES, joker_points=25, passport="any", no_passport_last=False,
        direction="anticlockwise", dealer_rule="loser", joker_ace_cents=0,
        tiers=(0, 2, 4, 6), unit_cents=50), "SGD")
    text = page(client, table.id)
    assert "7 + 8 + 25 = 40 points" in text
    assert "8♥ 8♣ 8♠ is a passport here." in text
    assert "whose points count like anyone's" in text
    assert "1st gets SGD 6, 2nd pays SGD 1, 3rd pays SGD 2, 4th pays SGD 3" in text
    assert "cost no money of their own here; a joker still counts 25 points" in text
    assert "the player on the dealer's right starts" in text
    assert "If D deals, the order of play is C, B, A, and D." in text
    # The most points deals: B's joker 25 + 7.
    assert "B, left with JK 7♥ : 32 points" in text
    assert "After the game in the example of places and money, B deals." in text


def test_a_table_without_jokers_shows_examples_without_one(client, table):
    services.change_house_rules(services.Change.to(table, seen=table.version),
                                dataclasses.replace(EXAMPLE_RULES, jokers=0), "RM")
    text = page(client, table.id)
    assert "If A is left holding 7♥ 8♥ 2♥ , that is 7 + 8 + 2 = 17 points." in text
    assert "If A is left holding A♠ and the 3 others none, A pays RM 1.50" in text


def test_a_share_link_opens_it_read_only_for_a_guest(app, client, table):
    link = make_link(client, table.id)
    guest = app.test_client()
    response = guest.get(f"{link}/how-we-play")
    assert response.status_code == 200
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in response.headers["Cache-Control"]
    text = visible_text(response)
    assert "7 + 8 + 20 = 35 points" in text
    assert "<form" not in response.get_data(as_text=True).split("<main")[1].split("</main>")[0]
    assert f"{link.removeprefix('http://localhost')}\"" in response.get_data(as_text=True)
    # The link's token opens this page and the share pages, not the members' ones.
    assert guest.get(f"/sessions/{table.id}/how-we-play").status_code == 302
    assert guest.get(f"{link}/what-if").status_code == 404
    assert f"{link.removeprefix('http://localhost')}/how-we-play" in guest.get(link).text


def test_a_revoked_or_forged_link_opens_nothing(app, client, table):
    link = make_link(client, table.id)
    assert app.test_client().get(f"{link}x/how-we-play").status_code == 404
    with app.app_context():
        link_id = db.session.scalar(db.select(ShareLink.id))
    client.post(f"/sessions/{table.id}/share/{link_id}/revoke",
                data={"csrf_token": csrf_token(client, f"/sessions/{table.id}/share")})
    assert app.test_client().get(f"{link}/how-we-play").status_code == 404


def test_linked_from_the_scoreboard_and_the_finished_session(client, table):
    assert f"/sessions/{table.id}/how-we-play" in client.get(f"/sessions/{table.id}").text
    services.end_session(services.Change.to(table))
    assert f"/sessions/{table.id}/how-we-play" in client.get(f"/sessions/{table.id}").text
    assert f"/sessions/{table.id}/how-we-play" in client.get(
        f"/history/sessions/{table.id}").text


def test_another_groups_session_is_not_found(app, table):
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        db.session.refresh(other)
        db.session.expunge(other)
    phone = signed_in_client(app, other, device="Their phone")
    assert phone.get(f"/sessions/{table.id}/how-we-play").status_code == 404


def test_a_currency_or_name_with_markup_is_shown_as_text(client, table):
    services.change_house_rules(services.Change.to(table, seen=table.version), EXAMPLE_RULES,
                                "<b>")
    services.rename_player(services.Change.to(table), table.seats[0].player, "<i>Ann")
    html = client.get(f"/sessions/{table.id}/how-we-play").get_data(as_text=True)
    assert "<b>" not in html and "<i>Ann" not in html
    assert "&lt;b&gt; 6.00" in html and "&lt;i&gt;Ann" in html
