"""The rounds pages: enter a round through the form, its result, edit, delete."""

import re

import pytest
import sqlalchemy as sa

from scorekeeper import limits, services
from scorekeeper.extensions import db
from scorekeeper.forms.rounds import RoundForm
from scorekeeper.models import GameSession, Player, Round, RoundEntry
from scorekeeper.rules import Entry
from scorekeeper.web.locales import LANGUAGES
from scorekeeper.web.once import new_key
from tests.web.examples import TYPED_1, TYPED_2, TYPED_3
from tests.web.helpers import (
    ROUND_FORM_WEIGHT_LIMIT,
    WEIGHT_LIMIT,
    count_statements,
    enter,
    filled,
    form_values,
    page_weight,
    player_ids,
    round_count,
    section,
    text,
)

# Twenty cards with no way to meld them all.
LOOSE_HAND = "AS 3H 5D 7C 9S JH KD 2C 4S 6H 8D 10C QS AH 3D 5C 7S 9H JD KC"


def net_by_name(number=1):
    rows = db.session.execute(
        sa.select(Player.name, RoundEntry.net_cents).join(RoundEntry.player).join(RoundEntry.round)
        .where(Round.number == number)).all()
    return dict(rows)


@pytest.fixture
def base(table):
    return f"/sessions/{table.id}/rounds"


def record(table, *examples):
    for example in examples:
        services.record_round(services.Change.to(table), {n: Entry(*e) for n, e in example.items()})


# Entering a round


def test_new_round_page_shows_dealer_order_and_an_entry_per_player(client, base):
    response = client.get(f"{base}/new")
    html = text(response)
    assert response.status_code == 200
    assert "<h1>Round 1</h1>" in html
    assert re.search(r"<strong>D</strong> deals\.\s+Play: A → B → C → D", html)
    for name in "ABCD":
        part = section(html, name)
        assert f"<h2 id=\"player-{player_ids()[name]}-name\">{name}</h2>" in part
        for label in ("Dead", "Hu", "Tien Hu", "No passport"):
            assert re.search(rf'<input[^>]*type="radio"[^>]*> {label}</label>', part)
        assert re.search(r'value="dead"[^>]*checked|checked[^>]*value="dead"', part)
    assert "deals</span>" in section(html, "D") and "deals</span>" not in section(html, "A")
    for attribute in ('data-packs="2"', 'data-jokers="8"', 'data-joker-points="20"',
                      'data-dealt="20"', "data-autostart"):
        assert attribute in html
    assert re.search(r"js/cards\.[0-9a-f]{8}\.js", html)  # fingerprinted
    assert 'id="card-pad"' in html and 'data-suit="H"' in html and 'id="card-pad-undo"' in html


@pytest.mark.parametrize("examples, expected", [
    ([TYPED_1], {"A": -100, "B": -800, "C": 900, "D": 0}),
    ([TYPED_1, TYPED_2], {"A": -150, "B": -150, "C": 600, "D": -300}),
    ([TYPED_1, TYPED_2, TYPED_3], {"A": -400, "B": 1000, "C": -400, "D": -200}),
])
def test_worked_examples_entered_through_the_form(client, base, examples, expected):
    for number, example in enumerate(examples, start=1):
        response = enter(client, base, example)
        assert response.status_code == 302
        assert response.headers["Location"] == f"{base}/{number}"
    assert net_by_name(len(examples)) == expected


def test_cards_typed_loosely_are_stored_canonically(client, base):
    response = enter(client, base, {**TYPED_1, "A": ("dead", "jk, 7♥")})
    assert response.status_code == 302
    stored = db.session.scalar(sa.select(RoundEntry.cards).join(RoundEntry.player)
                               .where(Player.name == "A"))
    assert stored == "JK 7H"


def test_a_hu_player_whose_cards_are_not_posted_has_none(client, base):
    """With JavaScript the cards input of a Hu player is disabled, so not posted."""
    page = client.get(f"{base}/new").get_data(as_text=True)
    data = filled(page, TYPED_3)
    hu_index = next(k for k, v in data.items() if v == "hu").split("-")[1]
    del data[f"entries-{hu_index}-cards"]
    assert client.post(f"{base}/new", data=data).status_code == 302
    assert net_by_name() == {"A": -400, "B": 1000, "C": -400, "D": -200}


@pytest.mark.parametrize("changes, blamed, message", [
    ({"B": ("dead", "AC X9 2S")}, ["B"], '"X9" (card 2) is not a card'),
    ({"A": ("dead", "AC 7H"), "B": ("dead", "AC AC 2S")}, ["A", "B"],
     "3 copies of AC entered (A, B), but the deck has only 2"),
    ({"A": ("hu", ""), "C": ("hu", "")}, ["A", "C"], "Only one player can win a round"),
    ({"C": ("tien_hu", LOOSE_HAND)}, ["C"], "C's hand does not meld completely"),
])
def test_a_bad_round_is_refused_with_the_message_next_to_the_player(
        client, base, changes, blamed, message):
    entries = {**TYPED_1, **changes}
    response = enter(client, base, entries)
    html = text(response)
    assert response.status_code == 200
    assert round_count() == 0
    summary = html.split('id="round-summary"')[1].split("</div>")[0]
    assert message in summary
    for name in blamed:
        assert f'href="#player-{player_ids()[name]}"' in summary
    for name in "ABCD":
        part = section(html, name)
        assert (message in part) == (name in blamed)
        outcome, cards = entries[name]
        assert f'value="{cards}"' in part
        assert re.search(rf'checked[^>]*value="{outcome}"|value="{outcome}"[^>]*checked', part)
    assert 'data-autostart' not in html


def test_an_unknown_outcome_is_refused_next_to_the_player(client, base):
    response = enter(client, base, {**TYPED_1, "B": ("won", "2S")})
    html = text(response)
    assert response.status_code == 200
    assert round_count() == 0
    assert "Not a valid choice" in section(html, "B")
    assert f'href="#player-{player_ids()["B"]}"' in html.split('id="round-summary"')[1]


def test_warnings_need_confirming_before_the_round_is_saved(client, base):
    entries = {**TYPED_1, "C": ("dead", "")}
    response = enter(client, base, entries)
    html = text(response)
    assert response.status_code == 200
    assert round_count() == 0
    warning = "C is dead with no cards left: if C went out, choose Hu"
    assert "Please check before saving" in html
    assert warning in section(html, "C") and warning not in section(html, "A")
    digest = re.search(r'name="confirmed" value="([0-9a-f]{16})">Save anyway', html)[1]

    again = client.post(f"{base}/new", data=filled(html, entries))
    assert again.status_code == 200 and round_count() == 0  # "Check again": still warned

    data = {**filled(html, entries), "confirmed": "0" * 16}
    assert client.post(f"{base}/new", data=data).status_code == 200
    assert round_count() == 0

    data["confirmed"] = digest
    response = client.post(f"{base}/new", data=data)
    assert response.status_code == 302
    assert round_count() == 1


def test_a_round_saved_meanwhile_is_noticed_and_the_typing_kept(client, base, table):
    page = client.get(f"{base}/new").get_data(as_text=True)
    record(table, TYPED_1)  # from another phone
    response = client.post(f"{base}/new", data=filled(page, TYPED_2))
    html = text(response)
    assert response.status_code == 409
    assert round_count() == 1
    assert "Saved from another phone while you were typing" in html
    assert "Round 1 was saved from an unnamed phone." in html
    assert "Save as round 2" in html
    assert "<h1>Round 2</h1>" in html
    assert 'value="KS QS"' in section(html, "D")
    response = client.post(f"{base}/new", data=filled(html, TYPED_2))
    assert response.headers["Location"] == f"{base}/2"


def test_a_finished_session_takes_no_new_round(client, base, table):
    record(table, TYPED_1)
    page = client.get(f"{base}/new").get_data(as_text=True)
    services.end_session(services.Change.to(table))
    response = client.get(f"{base}/new")
    assert response.status_code == 409
    assert "This session has ended" in text(response)
    assert f'href="/sessions/{table.id}"' in text(response)
    assert client.post(f"{base}/new", data=filled(page, TYPED_2)).status_code == 409
    assert client.get(f"{base}/1/edit").status_code == 409
    assert client.post(f"{base}/1/delete", data=form_values(page)).status_code == 409
    assert round_count() == 1
    html = text(client.get(f"{base}/1"))
    assert "Enter round" not in html and "/edit" not in html and "/delete" not in html
    assert "This was the last round of the session." in html


# The result of a round


def test_result_page_shows_places_money_parts_cards_and_next_dealer(client, base):
    enter(client, base, TYPED_1)
    response = client.get(f"{base}/1")
    html = text(response)
    assert response.status_code == 200
    lines = re.findall(r'<li class="round-line.*?</li>', html, re.S)
    names = [re.search(r'round-name">(\w)<', line)[1] for line in lines]
    assert names == ["C", "D", "A", "B"]
    places = [re.search(r'Place </span>(\d)', line)[1] for line in lines]
    assert places == ["1", "2", "3", "4"]
    winner, _, _, loser = lines
    assert "round-line-win" in winner and "Winner" in winner
    assert "Winner" not in loser and "the fewest" not in loser
    assert ">+9.00<" in winner and "<dt>Tiers</dt> <dd>+6.00</dd>" in winner
    assert "<dt>Jokers & aces</dt> <dd>+3.00</dd>" in winner
    assert "Dead · 7 points, the fewest" in winner  # won without going out
    assert '<span class="chip chip-red">3♦</span>' in winner
    assert ">−8.00<" in loser and '<span class="chip chip-black">A♣</span>' in loser
    assert "<dd>−5.00</dd>" in loser
    assert "Next: <strong>C</strong> deals round 2." in html
    actions = html[html.index('<div class="sessions-actions">'):]
    assert f'<a class="button" href="{base}/new">Enter round 2</a>' in actions
    assert f'href="{base}/1/edit"' in html
    assert re.search(rf'action="{base}/1/delete">\s*<input type="hidden" name="csrf_token"', html)
    assert f'href="/sessions/{base.split("/")[2]}"' in html


def test_earlier_round_names_the_dealer_of_the_round_after_it(client, base, table):
    record(table, TYPED_1, TYPED_3)
    html = text(client.get(f"{base}/1"))
    assert f'<strong>C</strong> dealt <a href="{base}/2">round 2</a>.' in html
    html = text(client.get(f"{base}/2"))
    assert "<dt>Hu</dt> <dd>+9.00</dd>" in html and "Tiers" not in html
    assert "Next: <strong>B</strong> deals round 3." in html
    assert "Hu · 0 points" in html


def test_a_tiers_only_round_names_the_single_part(client, base, table):
    record(table, TYPED_2)
    html = text(client.get(f"{base}/1"))
    assert "Money in RM. All of it paid by place (the 1-2-3 tiers)." in html and "<dl" not in html


# Editing and deleting


def test_edit_page_is_prefilled_in_that_rounds_playing_order(client, base, table):
    record(table, TYPED_1, TYPED_2)  # round 2: C deals, play D A B C
    html = text(client.get(f"{base}/2/edit"))
    assert "<h1>Edit round 2</h1>" in html
    assert re.search(r"<strong>C</strong> dealt\.\s+Play: D → A → B → C", html)
    assert 'value="KS QS"' in section(html, "D")
    order = re.findall(r'<section class="round-player[^"]*" id="player-(\d+)"', html)
    ids = player_ids()
    assert order == [str(ids[n]) for n in "DABC"]
    assert "Save changes" in html


def test_editing_changes_money_and_later_dealers(client, base, table):
    record(table, TYPED_1, TYPED_2)
    page = client.get(f"{base}/1/edit").get_data(as_text=True)
    response = client.post(f"{base}/1/edit", data=filled(page, {"D": ("dead", "2H")}))
    assert response.status_code == 302
    assert response.headers["Location"] == f"{base}/1"
    assert net_by_name(1) == {"A": -150, "B": -850, "C": 150, "D": 850}
    dealers = db.session.execute(sa.select(Round.number, Player.name).join(Round.dealer)
                                 .order_by(Round.number)).all()
    assert [tuple(d) for d in dealers] == [(1, "D"), (2, "D")]
    notice = '<p class="notice" role="status">Round 1 is saved with your changes.</p>'
    assert notice in client.get(f"{base}/1").text
    assert notice not in client.get(f"{base}/1").text  # said once


def test_a_bad_edit_changes_nothing_and_keeps_the_typing(client, base, table):
    record(table, TYPED_1)
    page = client.get(f"{base}/1/edit").get_data(as_text=True)
    response = client.post(f"{base}/1/edit", data=filled(page, {"D": ("dead", "AS 9H ZZ")}))
    html = text(response)
    assert response.status_code == 200
    assert '"ZZ" (card 3) is not a card' in section(html, "D")
    assert 'value="AS 9H ZZ"' in section(html, "D")
    assert net_by_name(1) == {"A": -100, "B": -800, "C": 900, "D": 0}


def test_edit_warnings_need_confirming(client, base, table):
    record(table, TYPED_1)
    page = client.get(f"{base}/1/edit").get_data(as_text=True)
    entries = {"A": ("dead", "5H 6H 7H"), "D": ("dead", "9S 9H 9C")}
    html = text(client.post(f"{base}/1/edit", data=filled(page, entries)))
    assert "could have been played: 5H 6H 7H" in section(html, "A")
    assert "could have been played: 9S 9H 9C" in section(html, "D")
    digest = re.search(r'name="confirmed" value="(\w+)"', html)[1]
    response = client.post(f"{base}/1/edit", data={**filled(html, entries), "confirmed": digest})
    assert response.status_code == 302
    assert db.session.scalar(sa.select(RoundEntry.points).join(RoundEntry.player)
                             .where(Player.name == "A")) == 18


def test_delete_asks_first_then_renumbers(client, base, table):
    record(table, TYPED_1, TYPED_3, TYPED_2)
    page = client.get(f"{base}/1").get_data(as_text=True)
    assert re.search(r'<details class="danger-confirm">\s*<summary>Delete round 1…</summary>', page)
    response = client.post(f"{base}/1/delete", data=form_values(page))
    assert response.status_code == 302
    assert response.headers["Location"] == f"/sessions/{table.id}"
    assert db.session.scalars(sa.select(Round.number).order_by(Round.number)).all() == [1, 2]
    assert net_by_name(1) == {"A": -400, "B": 1000, "C": -400, "D": -200}
    assert ("Round 1 is deleted. The history of changes can restore it."
            in client.get(f"/sessions/{table.id}").text)
    assert client.get(f"{base}/3").status_code == 404


# Unknown ids, CSRF, page weight, queries


@pytest.mark.parametrize("method, path", [
    ("get", "/new"), ("post", "/new"), ("get", "/1"), ("get", "/1/edit"),
    ("post", "/1/edit"), ("post", "/1/delete"),
])
def test_an_unknown_session_is_404(client, base, table, method, path):
    record(table, TYPED_1)
    response = getattr(client, method)(f"/sessions/{table.id + 1}/rounds{path}")
    assert response.status_code == 404


@pytest.mark.parametrize("method, path", [
    ("get", "/2"), ("get", "/2/edit"), ("post", "/2/edit"), ("post", "/2/delete"),
    ("get", "/0"),
])
def test_an_unknown_round_is_404(client, base, table, method, path):
    record(table, TYPED_1)
    page = client.get(f"{base}/1").get_data(as_text=True)
    response = getattr(client, method)(f"{base}{path}", data=form_values(page))
    assert response.status_code == 404
    assert "Page not found" in text(response)


def test_posts_without_a_csrf_token_are_refused(client, base, table):
    record(table, TYPED_1)
    page = client.get(f"{base}/new").get_data(as_text=True)
    data = filled(page, TYPED_2)
    del data["csrf_token"]
    assert client.post(f"{base}/new", data=data).status_code == 400
    edit_page = client.get(f"{base}/1/edit").get_data(as_text=True)
    edit_data = filled(edit_page, {"D": ("dead", "2H")})
    del edit_data["csrf_token"]
    assert client.post(f"{base}/1/edit", data=edit_data).status_code == 400
    assert client.post(f"{base}/1/delete").status_code == 400
    assert round_count() == 1
    assert net_by_name(1)["D"] == 0


@pytest.mark.parametrize("language", [language.tag for language in LANGUAGES])
def test_round_pages_stay_light_with_css_and_js_in_every_language(client, base, table, language):
    """As the browser's check of every page counts it (tests/e2e/test_pages.py):
    a round's result and its edit form under 60 KB, the new round's form under 72."""
    record(table, TYPED_1)
    client.set_cookie("language", language)
    for path, limit in (("/new", ROUND_FORM_WEIGHT_LIMIT), ("/1", WEIGHT_LIMIT),
                        ("/1/edit", WEIGHT_LIMIT)):
        page = client.get(f"{base}{path}")
        assert page.status_code == 200 and list(page.content_language) == [language]
        assert page_weight(page.data) < limit, path


def test_pages_use_a_fixed_number_of_statements(app, client, base, table):
    def statements(rounds: int) -> dict[str, int]:
        pages = {"new": "/new", "first": "/1", "latest": f"/{rounds}", "edit": "/1/edit"}
        return {name: count_statements(app, client, f"{base}{path}")
                for name, path in pages.items()}

    record(table, TYPED_1, TYPED_2)
    table_id = table.id
    few = statements(2)
    record(db.session.get(GameSession, table_id), TYPED_3, TYPED_1, TYPED_2)
    assert statements(5) == few


def test_a_post_with_more_entries_than_seats_is_laid_out_again(app, client, base):
    page = client.get(f"{base}/new").get_data(as_text=True)
    data = filled(page, TYPED_1)
    for i in range(4, 5000):
        data |= {f"entries-{i}-player": "1", f"entries-{i}-outcome": "dead",
                 f"entries-{i}-cards": "2S"}
    with app.test_request_context(f"{base}/new", method="POST", data=data):
        assert len(RoundForm().entries) == limits.MAX_PLAYERS  # the rest never read
    html = text(client.post(f"{base}/new", data=data))
    assert round_count() == 0
    assert "The table changed while this page was open" in html
    assert html.count('name="entries-') == html.count('name="entries-0-') * 4


def test_a_round_kept_offline_behind_another_is_saved_from_that_ones_form(client, base):
    """A phone offline enters rounds 1 and 2 on the form of round 1, and
    queue.js sends the second with the next number and version: it is saved
    for its players, though the form's rows are in round 1's playing order."""
    page = client.get(f"{base}/new").get_data(as_text=True)
    first = filled(page, TYPED_1)
    second = filled(page, TYPED_2) | {"number": "2", "version": str(int(first["version"]) + 1),
                                      "key": new_key()}
    assert client.post(f"{base}/new", data=first).status_code == 302

    def seats(html):
        values = form_values(html)
        return [values[f"entries-{i}-player"] for i in range(4)]

    assert seats(client.get(f"{base}/new").get_data(as_text=True)) != seats(page)
    response = client.post(f"{base}/new", data=second)
    assert response.headers["Location"] == f"{base}/2"
    assert net_by_name(2) == {"A": -150, "B": -150, "C": 600, "D": -300}
    # With a player missing, it is not taken for the round's form.
    third = filled(page, TYPED_3) | {"number": "3", "version": str(int(first["version"]) + 2),
                                     "key": new_key()}
    del third["entries-3-player"]
    assert "The table changed while this page was open" in text(
        client.post(f"{base}/new", data=third))
    assert round_count() == 2


def test_no_session_is_created_or_changed_by_a_refused_round(client, base):
    enter(client, base, {**TYPED_1, "A": ("hu", "JK")})
    assert db.session.scalar(sa.select(sa.func.count(GameSession.id))) == 1
    assert db.session.scalar(sa.select(sa.func.count(RoundEntry.id))) == 0
