"""The sessions pages: new session, scoreboard, join and leave, settle up."""

import re

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.forms.sessions import cents_from_text, rule_texts
from scorekeeper.models import AuditEvent, GameSession, Payment, Player
from scorekeeper.rules import Entry, HouseRules
from tests.conftest import GROUP_NAME, the_group
from tests.web.examples import HU, NO_HU, TABLE, TIE
from tests.web.helpers import WEIGHT_LIMIT, csrf_token, form_values, page_weight, parsed, statements


def make_session(app, rounds=(), names=TABLE, rules=None, dealer="Dan", ended=False):
    with app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         list(names), rules or HouseRules.rummi(),
                                         first_dealer=dealer)
        for entries in rounds:
            services.record_round(services.Change.to(session), entries)
        if ended:
            services.end_session(services.Change.to(session))
        return session.id


def player_id(app, name):
    with app.app_context():
        return db.session.scalar(db.select(Player.id).where(Player.name == name))


def new_form(client, seats=(), preset="penang", **changes):
    """What the new-session page posts: its preset's rules, the seats, any changes."""
    data = {"csrf_token": csrf_token(client, "/sessions/new"), "preset": preset,
            "currency": "RM", "first_dealer": "random"}
    for name, value in rule_texts(getattr(HouseRules, preset)()).items():
        if value is True:
            data[name] = "y"
        elif value is not False:
            data[name] = value
    for i, name in enumerate(seats):
        data[f"seats-{i}"] = name
    data.update(changes)
    return data


def error_of(html, field_id):
    match = re.search(rf'<p class="error" id="{field_id}-error">([^<]*)</p>', html)
    return match and match.group(1)


# New session


def test_new_session_page_has_six_seats_known_players_and_the_preset(app, client):
    make_session(app, names=["Old", "Timer"], rules=HouseRules.penang(), dealer="Old")
    make_session(app, names=["Newer", "Timer"], rules=HouseRules.penang(), dealer="Newer")
    html = client.get("/sessions/new").text
    for i in range(6):
        assert f'<label for="seats-{i}">Seat {i + 1}</label>' in html
        assert re.search(rf'<input [^>]*id="seats-{i}"[^>]*list="known-players"', html)
    datalist = re.search(r'<datalist id="known-players">(.*?)</datalist>', html).group(1)
    assert re.findall(r'value="([^"]+)"', datalist) == ["Newer", "Timer", "Old"]
    assert '<option selected value="random">Draw at random</option>' in html
    assert '<option value="5">Seat 6</option>' in html
    assert '<details class="panel new-rules">' in html
    assert re.search(r'id="jokers"[^>]*value="6"', html)
    assert re.search(r'id="hu_cents"[^>]*value="3.00"', html)
    assert re.search(r'id="tiers"[^>]*value="0 1 2 3 4 5"', html)
    assert '<option selected value="5">5 players</option>' in html
    assert 'name="use_preset"' in html
    assert 'data-presets="{&#34;penang&#34;' in html


def test_starting_a_session_seats_players_clockwise_and_keeps_the_rules(app, client):
    data = new_form(client, ["Ann", "", " Bob  Lee ", "", "cat", ""], preset="rummi",
                    first_dealer="2", currency="SGD", hu_cents="1.5", unit_cents="0.25",
                    tiers="0, 1, 3", dealer_rule="rotate", extra_pack_players="never")
    data.pop("no_passport_last")  # an unticked box is not posted
    response = client.post("/sessions/new", data=data)
    assert response.status_code == 302
    with app.app_context():
        session = db.session.scalars(db.select(GameSession)).one()
        assert response.location == f"/sessions/{session.id}"
        assert [p.name for p in services.active_players(session)] == ["Ann", "Bob Lee", "cat"]
        assert session.first_dealer.name == "Bob Lee"
        assert session.currency == "SGD"
        rules = session.rules
    assert (rules.hu_cents, rules.unit_cents, rules.tiers) == (150, 25, (0, 1, 3))
    assert (rules.dealer_rule, rules.extra_pack_players, rules.no_passport_last) == \
        ("rotate", None, False)
    assert (rules.jokers, rules.passport, rules.direction) == (8, "run", "anticlockwise")


def test_the_first_dealer_can_be_drawn_at_random(app, client):
    assert client.post("/sessions/new", data=new_form(client, ["X", "Y"])).status_code == 302
    with app.app_context():
        assert db.session.scalars(db.select(GameSession)).one().first_dealer.name in {"X", "Y"}


def test_a_name_typed_twice_alone_is_announced_too(app, client):
    response = client.post("/sessions/new", data=new_form(client, ["Ann", "ann", "Bob"]))
    html = response.text
    assert error_of(html, "seats-1") == "Seat 1 has this name already."
    assert '<p class="sessions-alert" role="alert">Nothing was saved' in html


def test_bad_seats_are_marked_one_by_one_and_everything_typed_stays(app, client):
    data = new_form(client, ["Ann", "", "ANN", "x" * 31, "Zed"], first_dealer="1",
                    currency="MYR", jokers="7")
    response = client.post("/sessions/new", data=data)
    assert response.status_code == 200
    html = response.text
    assert error_of(html, "seats-2") == "Seat 1 has this name already."
    assert error_of(html, "seats-3") == "Use at most 30 characters."
    assert error_of(html, "seats-0") is None and error_of(html, "seats-4") is None
    assert error_of(html, "first_dealer") == "Seat 2 is empty."
    assert "Nothing was saved" in html
    for value in ("Ann", "ANN", "x" * 31, "Zed", "MYR"):
        assert f'value="{value}"' in html
    assert re.search(r'id="jokers"[^>]*value="7"', html)
    assert '<option value="0">Seat 1: Ann</option>' in html
    with app.app_context():
        assert db.session.query(GameSession).count() == 0
        assert db.session.query(Player).count() == 0


@pytest.mark.parametrize("seats", [[], ["Solo"], ["", "", "", "", "", "Solo"]])
def test_a_table_needs_two_names(client, seats):
    html = client.post("/sessions/new", data=new_form(client, seats)).text
    assert '<p class="error" id="seats-error">Type the names of 2 to 6 players.</p>' in html


@pytest.mark.parametrize("field, typed, message", [
    ("hu_cents", "1.505", "Use at most two decimals: whole cents."),
    ("hu_cents", "-3", "The amount can&#39;t be negative."),
    ("unit_cents", "1,50", "Type an amount like 1.50."),
    ("point_cents", "", "Type an amount, e.g. 1.50."),
    ("unit_cents", "  ", "Type an amount, e.g. 1.50."),
    ("tiers", " ", "Type the units, e.g. 0 1 2 3."),
    ("tien_hu_cents", "100000.01", "That amount is too large."),
    ("tiers", "0 1 two", "Type whole numbers of units, e.g. 0 1 2 3 4 5."),
    ("tiers", "0 1 2 3 4 5 6", "Type at most 6 numbers, one per place."),
    ("jokers", "lots", "Type a number from 0 to 16."),
    ("packs", "0", "Type a number from 1 to 4."),
    ("currency", "", "Type 1 to 8 characters, e.g. RM."),
    ("currency", "RINGGIT!!", "Type 1 to 8 characters, e.g. RM."),
])
def test_bad_house_rules_are_marked_and_kept(app, client, field, typed, message):
    response = client.post("/sessions/new", data=new_form(client, TABLE, **{field: typed}))
    html = response.text
    assert error_of(html, field) == message
    assert re.search(rf'id="{field}"[^>]*value="{re.escape(typed)}"', html)
    if field != "currency":
        assert '<details class="panel new-rules" open>' in html
    with app.app_context():
        assert db.session.query(GameSession).count() == 0


def test_use_preset_fills_its_rules_and_keeps_the_names(app, client):
    data = new_form(client, ["Ann", "Bob"], preset="rummi", jokers="3", hu_cents="bad",
                    first_dealer="1", currency="SGD", use_preset="1")
    html = client.post("/sessions/new", data=data).text
    assert re.search(r'id="jokers"[^>]*value="8"', html)
    assert re.search(r'id="hu_cents"[^>]*value="3.00"', html)
    assert re.search(r'id="joker_ace_cents"[^>]*value="0.50"', html)
    assert '<option selected value="never">Never</option>' in html
    assert '<option selected value="anticlockwise">' in html
    assert re.search(r'<input [^>]*checked[^>]*id="no_passport_last"', html)
    assert 'value="Ann"' in html and 'value="Bob"' in html and 'value="SGD"' in html
    assert '<option selected value="1">Seat 2: Bob</option>' in html
    assert 'class="error"' not in html
    with app.app_context():
        assert db.session.query(GameSession).count() == 0


def test_a_table_the_deck_cannot_deal_is_refused_with_the_reason(app, client):
    data = new_form(client, list("ABCDEF"), preset="rummi")
    html = client.post("/sessions/new", data=data).text
    assert "6 players need 120 cards, but the deck has only 112" in html
    assert 'class="sessions-alert" role="alert"' in html
    assert '<option value="A">' not in html  # not added to the known players
    with app.app_context():
        assert db.session.query(GameSession).count() == 0
        assert db.session.query(Player).count() == 0


@pytest.mark.parametrize("text, cents", [
    ("1.50", 150), ("1.5", 150), ("3", 300), (" 0.05 ", 5), (".5", 50), ("0", 0),
    ("19.99", 1999), ("100000", 10_000_000),
])
def test_money_is_read_as_exact_cents(text, cents):
    assert cents_from_text(text) == cents


@pytest.mark.parametrize("text", ["1.999", "-1", "−1", "abc", "1e2", "NaN", "1,5", "0.001"])
def test_money_that_is_not_whole_cents_is_refused(text):
    with pytest.raises(ValueError):
        cents_from_text(text)


# Scoreboard


def test_board_shows_the_next_deal_totals_and_rounds(app, client):
    sid = make_session(app, rounds=[NO_HU, TIE, HU])
    html = client.get(f"/sessions/{sid}").text
    # Bob went out in round 3, so Bob deals round 4; Rummi plays anticlockwise.
    assert '<h2 id="next-title">Round 4</h2>' in html
    assert "<strong>Bob</strong> deals" in html
    assert "<strong>Ann</strong> plays first" in html
    order = re.search(r'<p class="board-order">(.*?)</p>', html, re.S).group(1)
    assert re.findall(r'board-order-name">(\w+)<', order) == ["Ann", "Dan", "Cat", "Bob"]
    rows = [(row.texts("th")[0], *row.texts("td"), row.select("td span")[0].attrs["class"])
            for row in parsed(html).select("table.board-totals tbody tr")]
    assert rows == [("Ann", "60", "−6.50", "sessions-loss"),
                    ("Bob", "42", "+0.50", "sessions-gain"),
                    ("Cat leads", "24", "+11.00", "sessions-gain"),
                    ("Dan", "52", "−5.00", "sessions-loss")]
    assert '<th scope="col" class="sessions-num">RM</th>' in html
    assert "money in RM" in html
    assert len(re.findall(rf'href="/sessions/{sid}/rounds/\d+"', html)) == 3
    assert f'<a href="/sessions/{sid}/rounds/3" aria-label="Round 3">3</a>' in html
    assert re.search(r'★</span><span class="sessions-vh">winner:</span>\s*Hu</span>', html)
    assert html.count("★</span>") == 3
    assert f'<a class="button" href="/sessions/{sid}/rounds/new">Enter round 4</a>' in html
    assert f'href="/sessions/{sid}/settle">Settle up</a>' in html


SIX = ["Jasmine", "Bartholomew", "Cat", "Dan", "Evangeline", "Fay"]
SIX_ROUNDS = [
    dict(zip(SIX, [Entry("dead", "5S 9H"), Entry("hu"), Entry("dead", "KC"),
                   Entry("dead", "2C 3C"), Entry("dead", "QH QD"), Entry("dead", "7S")],
             strict=True)),
    dict(zip(SIX, [Entry("dead", "AS"), Entry("dead", "4H"), Entry("hu"), Entry("dead", "9C"),
                   Entry("dead", "JH 8D"), Entry("dead", "7S 6S")], strict=True))]


def test_a_board_of_six_has_a_row_a_player_and_never_breaks_a_name(app, client):
    sid = make_session(app, rounds=SIX_ROUNDS, names=SIX, rules=HouseRules.penang(),
                       dealer="Jasmine")
    page = parsed(client.get(f"/sessions/{sid}"))
    (table,) = page.select("table.board-rounds")
    assert table.attrs["class"] == "board-rounds board-turned"
    # The latest round first, a row a player in seat order, each name whole in its title.
    assert table.texts("thead th") == ["Player", "2", "1"]
    assert [row.texts("th")[0] for row in table.select("tbody tr")] == SIX
    assert [n.attrs["title"] for n in table.select("tbody th span.board-name")] == SIX
    bart = table.select("tbody tr")[1]
    assert bart.texts("td .board-points") == ["4", "★winner: Hu"]
    # Penang's money is in whole ringgit here: no ".00" in the table or the totals.
    assert bart.texts("td .board-money") == ["−3", "+15"]
    assert [row.texts("td")[1] for row in page.select("table.board-totals tbody tr")] == \
        ["−6", "+12", "+12", "−6", "−6", "−6"]
    assert page.texts("table.board-totals .board-lead") == ["leads", "leads"]
    # Four players keep a column a player, their names whole in the titles too.
    four = parsed(client.get(f"/sessions/{make_session(app, rounds=[NO_HU])}"))
    (table,) = four.select("table.board-rounds")
    assert table.attrs["class"] == "board-rounds"
    assert [n.attrs["title"] for n in table.select("thead th span.board-name")] == TABLE


def test_a_name_that_may_be_cut_opens_whole_with_a_tap(app, client):
    """A name longer than its cell always shows is a disclosure: its summary
    (the name, cut short where it must be) opens it whole, with no script. A
    short one is plain text. Ids unique, so a live update keeps one open."""
    long = ["Jasmine", "Bartholomew", "Evangeline"]
    sid = make_session(app, rounds=SIX_ROUNDS, names=SIX, rules=HouseRules.penang(),
                       dealer="Jasmine")
    page = parsed(client.get(f"/sessions/{sid}"))
    (rows,) = page.select("table.board-turned")
    # A row a player: 6.25rem of bold at 0.9375rem shows six letters of any width.
    assert rows.texts("tbody th details.board-full summary .board-name") == long
    assert [d.attrs["id"] for d in rows.select("details.board-full")] == [
        f"name-rows-{player_id(app, name)}" for name in long]
    assert rows.texts("tbody th span.board-name") == SIX  # the short ones as they were
    # The totals' cells show nine.
    (totals,) = page.select("table.board-totals")
    assert totals.texts("details.board-full summary") == ["Bartholomew", "Evangeline"]
    # A column a player shows four; the names below a long table too, ids apart.
    names = ["Ann", "Bartholomew", "Cat", "Dan"]
    rounds = [{("Bartholomew" if name == "Bob" else name): entry for name, entry in hands.items()}
              for hands in [NO_HU, TIE, HU] * 3]
    four = parsed(client.get(f"/sessions/{make_session(app, rounds=rounds, names=names)}"))
    assert four.texts("table.board-rounds thead details.board-full summary") == ["Bartholomew"]
    ids = [d.attrs["id"] for d in four.select("details.board-full")]
    assert len(ids) == len(set(ids)) == 3  # the head, the foot, the totals
    # The night's places, as the totals.
    ended = make_session(app, rounds=SIX_ROUNDS, names=SIX, rules=HouseRules.penang(),
                         dealer="Jasmine", ended=True)
    night = parsed(client.get(f"/sessions/{ended}"))
    assert night.texts("table.night-places details.board-full summary") == [
        "Bartholomew", "Evangeline"]


def test_a_board_with_any_cents_shows_them_everywhere(app, client):
    sid = make_session(app, rounds=[NO_HU, TIE])  # a round with 0.50s
    page = parsed(client.get(f"/sessions/{sid}"))
    amounts = page.texts(".board-money") + [
        row.texts("td")[1] for row in page.select("table.board-totals tbody tr")]
    assert len(amounts) == 12 and all(re.search(r"\d\.\d\d$", a) for a in amounts), amounts


def test_a_long_board_links_to_the_latest_rounds_in_history(app, client):
    sid = make_session(app, rounds=[NO_HU, TIE, HU] * 7 + [NO_HU])  # 22 rounds
    html = client.get(f"/sessions/{sid}").text
    link = f'<a href="/history/sessions/{sid}?page=2#rounds-title">all rounds</a>'
    assert f"The last 20 of 22 rounds: {link}." in html
    history = client.get(f"/history/sessions/{sid}?page=2").text
    assert re.findall(r'<tbody id="round-(\d+)">', history) == ["21", "22"]
    assert f'rel="prev" href="/history/sessions/{sid}?page=1#rounds-title"' in history


def test_board_of_a_new_session_has_no_rounds_yet(app, client):
    sid = make_session(app)
    html = client.get(f"/sessions/{sid}").text
    assert "No rounds yet." in html
    assert "<strong>Dan</strong> deals" in html
    assert "Enter round 1" in html


def test_unknown_sessions_are_404(app, client):
    for url in ("/sessions/99", "/sessions/99/settle"):
        assert client.get(url).status_code == 404
    sid = make_session(app)
    token = csrf_token(client, f"/sessions/{sid}/players")
    for url in ("/sessions/99/players", "/sessions/99/players/1/leave",
                "/sessions/99/settle/paid", "/sessions/99/end"):
        assert client.post(url, data={"csrf_token": token}).status_code == 404


def test_posts_without_csrf_token_are_refused(app, client):
    sid = make_session(app, rounds=[NO_HU])
    ann = player_id(app, "Ann")
    for url, data in [
        ("/sessions/new", {"seats-0": "X", "seats-1": "Y"}),
        (f"/sessions/{sid}/players", {"name": "Eve", "position": "1"}),
        (f"/sessions/{sid}/players/{ann}/leave", {}),
        (f"/sessions/{sid}/settle/paid", {"payer_id": ann, "payee_id": ann, "cents": 1}),
        (f"/sessions/{sid}/end", {}),
    ]:
        response = client.post(url, data=data)
        assert response.status_code == 400, url
        assert "The form had expired" in response.text
    with app.app_context():
        session = db.session.get(GameSession, sid)
        assert len(session.seats) == 4 and not session.is_finished
        assert db.session.query(GameSession).count() == 1


def test_board_loads_in_a_fixed_number_of_statements(app, client):
    short = make_session(app, rounds=[NO_HU])
    long = make_session(app, rounds=[NO_HU, TIE, HU] * 4)

    client.get(f"/sessions/{short}")  # warm up
    counts = []
    for sid in (short, long):
        with statements(app) as seen:
            html = client.get(f"/sessions/{sid}").text
        counts.append(len(seen))
    assert "Enter round 13" in html
    assert counts[0] == counts[1]
    assert counts[0] <= 12


# Players joining and leaving


def test_the_scoreboard_links_to_the_players_page(app, client):
    sid = make_session(app, rounds=[NO_HU])
    assert f'<a href="/sessions/{sid}/players">Players join or leave</a>' in \
        client.get(f"/sessions/{sid}").text
    html = client.get(f"/sessions/{sid}/players").text
    assert list(re.findall(r'<span class="board-seat-name">(\w+)</span>', html)) == \
        ["Ann", "Bob", "Cat", "Dan"]
    assert html.count('class="board-leave"') == 4


def test_a_player_joins_between_two_players(app, client):
    sid = make_session(app, rounds=[NO_HU])
    html = client.get(f"/sessions/{sid}/players").text
    assert '<option value="1">Between Ann and Bob</option>' in html
    assert '<option selected value="4">Between Dan and Ann</option>' in html
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players",
                           data={"csrf_token": token, "name": " Eve ", "position": "2"})
    assert response.status_code == 302
    assert response.location == f"/sessions/{sid}"
    with app.app_context():
        session = db.session.get(GameSession, sid)
        assert [p.name for p in services.active_players(session)] == \
            ["Ann", "Bob", "Eve", "Cat", "Dan"]


@pytest.mark.parametrize("name, position, field, message", [
    ("ann", "1", "name", "Ann is already at the table"),
    ("", "1", "name", "Type a name of 1 to 30 characters."),
    ("y" * 31, "1", "name", "Type a name of 1 to 30 characters."),
    ("Eve", "9", "position", "Not a valid choice."),
])
def test_join_errors_are_shown_by_the_field(app, client, name, position, field, message):
    sid = make_session(app)
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players",
                           data={"csrf_token": token, "name": name, "position": position})
    assert response.status_code == 200
    html = response.text
    assert error_of(html, field) == message
    assert "<h1>Players join or leave</h1>" in html
    assert re.search(rf'<input [^>]*id="name" list="known-players"[^>]*value="{name}"', html)
    with app.app_context():
        assert len(db.session.get(GameSession, sid).seats) == 4


def test_a_full_table_refuses_another_player(app, client):
    sid = make_session(app, names=list("ABCDEF"), rules=HouseRules.penang(), dealer="A")
    token = csrf_token(client, f"/sessions/{sid}/players")
    html = client.post(f"/sessions/{sid}/players",
                       data={"csrf_token": token, "name": "G", "position": "1"}).text
    assert error_of(html, "name") == "A table has 2 to 6 players"
    assert '<option value="G">' not in html
    with app.app_context():
        assert db.session.query(Player).count() == 6


def test_a_player_leaves_and_keeps_their_money(app, client):
    sid = make_session(app, rounds=[NO_HU])
    cat = player_id(app, "Cat")
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players/{cat}/leave", data={"csrf_token": token})
    assert response.status_code == 302
    html = client.get(f"/sessions/{sid}").text
    totals = parsed(html).select("table.board-totals tbody tr")
    assert [row.text for row in totals] == ["Ann 27 −1", "Bob 32 −8", "Dan 24 0",
                                            "Cat leads left 7 +9"]
    assert totals[3].attrs["class"] == "board-left"
    assert f"/players/{cat}/leave" not in html
    # Cat won and would deal, but has left: the deal passes anticlockwise to Bob.
    assert "<strong>Bob</strong> deals" in html
    assert "Ann → Dan → Bob" in re.sub(r"<[^>]+>", "", html)


def test_a_first_dealer_who_leaves_passes_the_deal_on(app, client):
    sid = make_session(app, rules=HouseRules.penang(), dealer="Bob")
    bob = player_id(app, "Bob")
    token = csrf_token(client, f"/sessions/{sid}/players")
    client.post(f"/sessions/{sid}/players/{bob}/leave", data={"csrf_token": token})
    html = client.get(f"/sessions/{sid}").text
    assert "<strong>Cat</strong> deals" in html  # Penang deals on clockwise
    # Bob comes back, now between Cat and Dan.
    client.post(f"/sessions/{sid}/players", data={"csrf_token": token, "name": "bob",
                                                  "position": "2"})
    assert '<option value="2">Between Cat and Bob</option>' in \
        client.get(f"/sessions/{sid}/players").text
    html = client.get(f"/sessions/{sid}").text
    assert "<strong>Bob</strong> deals" in html  # seated again, so the first deal is his


def test_the_last_two_players_cannot_leave(app, client):
    sid = make_session(app, names=["Ann", "Bob"], rules=HouseRules.penang(), dealer="Ann")
    bob = player_id(app, "Bob")
    token = csrf_token(client, f"/sessions/{sid}/players")
    response = client.post(f"/sessions/{sid}/players/{bob}/leave", data={"csrf_token": token})
    assert response.status_code == 200
    html = response.text
    leave_form = html[html.index(f"/players/{bob}/leave"):]
    assert leave_form.index("A table needs at least 2 players") < leave_form.index("</li>")


def test_someone_not_at_the_table_cannot_leave(app, client):
    sid = make_session(app)
    other = make_session(app, names=["Zoe", "Yan"], rules=HouseRules.penang(), dealer="Zoe")
    zoe = player_id(app, "Zoe")
    assert other
    token = csrf_token(client, f"/sessions/{sid}/players")
    html = client.post(f"/sessions/{sid}/players/{zoe}/leave", data={"csrf_token": token}).text
    assert '<p class="error" role="alert">That player is not at the table</p>' in html


# Settling up


def test_settle_shows_balances_transfers_and_the_message(app, client):
    sid = make_session(app, rounds=[NO_HU])
    html = client.get(f"/sessions/{sid}/settle").text
    assert re.findall(r"<strong>(\w+)</strong> pays <strong>(\w+)</strong></span>\s*"
                      r'<span class="settle-amount">([^<]+)</span>', html) == \
        [("Ann", "Cat", "RM 1.00"), ("Bob", "Cat", "RM 8.00")]
    assert '<span class="sessions-loss">−8.00</span>' in html
    assert '<label class="settle-label" for="share-text">' in html
    lines = parsed(html).select("textarea#share-text")[0].children[0].split("\n")
    day = r"[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}"
    assert re.fullmatch(rf"{GROUP_NAME}: rummy on {day} \(so far\)", lines[0])
    assert lines[1:] == ["1. Cat +RM 9.00", "2. Dan RM 0.00", "3. Ann −RM 1.00", "4. Bob −RM 8.00",
                         "Who pays whom:", "Ann pays Cat RM 1.00", "Bob pays Cat RM 8.00"]
    buttons = parsed(html).select("section[aria-labelledby=share-title] button")
    assert [(b.text, b.attrs) for b in buttons] == [
        ("Copy as text", {"type": "button", "class": "button settle-copy",
                          "data-copy": "share-text", "id": "copy-share", "hidden": ""}),
        ("Share…", {"type": "button", "class": "button sessions-quiet",
                    "data-share": "share-text", "id": "share-sheet", "hidden": ""})]
    assert 'id="share-text-status" role="status"' in html
    assert 'role="status"' in html
    assert "End the session now" in html


def test_settle_with_even_balances(app, client):
    sid = make_session(app)
    html = client.get(f"/sessions/{sid}/settle").text
    assert '<p class="settle-none">Nobody owes anything.</p>' in html
    assert "Who pays whom:\nNobody owes anything." in html


def test_a_transfer_is_marked_paid_and_back(app, client):
    sid = make_session(app, rounds=[NO_HU])
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    token = csrf_token(client, f"/sessions/{sid}/settle")
    paid = {"csrf_token": token, "payer_id": ann, "payee_id": cat, "cents": 100, "paid": "y"}
    response = client.post(f"/sessions/{sid}/settle/paid", data=paid)
    assert response.status_code == 302
    assert response.location == f"/sessions/{sid}/settle#transfers"
    html = client.get(f"/sessions/{sid}/settle").text
    assert html.count("settle-transfer settle-paid") == 1
    assert '<span aria-hidden="true">✓</span> Paid</p>' in html
    assert "Ann pays Cat RM 1.00 (paid)" in html
    unpaid = {k: v for k, v in paid.items() if k != "paid"}
    assert client.post(f"/sessions/{sid}/settle/paid", data=unpaid).status_code == 302
    assert "settle-paid" not in client.get(f"/sessions/{sid}/settle").text
    with app.app_context():
        assert db.session.query(Payment).count() == 0


def test_a_transfer_not_in_the_settlement_is_refused(app, client):
    sid = make_session(app, rounds=[NO_HU])
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    token = csrf_token(client, f"/sessions/{sid}/settle")
    response = client.post(f"/sessions/{sid}/settle/paid", data={
        "csrf_token": token, "payer_id": ann, "payee_id": cat, "cents": 99, "paid": "y"})
    assert response.status_code == 200
    assert "That transfer is not part of the settlement any more" in response.text
    for bad in ({"payer_id": "x", "payee_id": cat, "cents": 100}, {"payee_id": cat, "cents": 100},
                {"payer_id": ann, "payee_id": cat, "cents": -5}):
        response = client.post(f"/sessions/{sid}/settle/paid", data={"csrf_token": token, **bad})
        assert response.status_code == 400
    with app.app_context():
        assert db.session.query(Payment).count() == 0


def test_ending_a_session_leaves_it_read_only(app, client):
    sid = make_session(app, rounds=[NO_HU])
    token = csrf_token(client, f"/sessions/{sid}/settle")
    response = client.post(f"/sessions/{sid}/end", data={"csrf_token": token})
    assert response.status_code == 302
    assert response.location == f"/sessions/{sid}"
    html = client.get(f"/sessions/{sid}").text
    assert "<h2 id=\"night-title\">Final places</h2>" in html
    for gone in ("Enter round", "/rounds/new", "/leave", f'action="/sessions/{sid}/players"',
                 "plays first"):
        assert gone not in html
    assert f'href="/sessions/{sid}/settle">Settle up</a>' in html
    assert f'href="/history/sessions/{sid}">In history</a>' in html
    settle = client.get(f"/sessions/{sid}/settle").text
    assert "End the session now" not in settle
    assert "Mark as paid" in settle  # money can still change hands


def test_a_finished_session_refuses_changes(app, client):
    sid = make_session(app, rounds=[NO_HU], ended=True)
    ann = player_id(app, "Ann")
    token = csrf_token(client, f"/sessions/{sid}/settle")
    html = client.post(f"/sessions/{sid}/end", data={"csrf_token": token}).text
    assert "This session has ended" in html
    html = client.post(f"/sessions/{sid}/players/{ann}/leave", data={"csrf_token": token}).text
    assert '<p class="sessions-alert" role="alert">This session has ended</p>' in html
    html = client.post(f"/sessions/{sid}/players",
                       data={"csrf_token": token, "name": "Eve", "position": "1"}).text
    assert "This session has ended" in html
    players = client.get(f"/sessions/{sid}/players").text
    assert "This session has ended: players can no longer join or leave." in players
    assert "<form" not in players.split("<main", 1)[1].split("</main>", 1)[0]
    with app.app_context():
        assert len(db.session.get(GameSession, sid).seats) == 4


def test_an_ended_session_can_be_reopened_to_correct_a_round(app, client):
    sid = make_session(app, rounds=[NO_HU], ended=True)
    board = client.get(f"/sessions/{sid}").text
    assert "Reopen the session" in board
    token = csrf_token(client, f"/sessions/{sid}")  # the reopen form's
    assert client.post(f"/sessions/{sid}/rounds/1/delete",
                       data={"csrf_token": token}).status_code == 409
    response = client.post(f"/sessions/{sid}/reopen", data={"csrf_token": token})
    assert (response.status_code, response.location) == (302, f"/sessions/{sid}")
    assert "Enter round 2" in client.get(f"/sessions/{sid}").text
    page = client.get(f"/sessions/{sid}/rounds/1").text
    version = form_values(page, f"/sessions/{sid}/rounds/1/delete")["version"]
    assert client.post(f"/sessions/{sid}/rounds/1/delete",
                       data={"csrf_token": token, "version": version}).status_code == 302
    with app.app_context():
        session = db.session.get(GameSession, sid)
        assert (session.ended_at, session.rounds) == (None, [])
    # Reopening an open session changes nothing.
    assert client.post(f"/sessions/{sid}/reopen", data={"csrf_token": token}).status_code == 302
    assert client.post(f"/sessions/{sid}/reopen").status_code == 400


def test_pages_stay_small(app, client):
    sid = make_session(app, rounds=[NO_HU, TIE, HU] * 4)
    for url in ["/sessions/new", f"/sessions/{sid}", f"/sessions/{sid}/settle"]:
        assert page_weight(client.get(url).data) < WEIGHT_LIMIT, url


def test_a_bare_post_is_answered_with_messages_not_an_error(app, client):
    token = csrf_token(client, "/sessions/new")
    response = client.post("/sessions/new", data={"csrf_token": token, "first_dealer": "9",
                                                  "preset": "chess", "seats-0": "A"})
    assert response.status_code == 200
    html = response.text
    assert error_of(html, "first_dealer") == "Not a valid choice."
    assert error_of(html, "jokers") == "Type a number from 0 to 16."
    assert error_of(html, "hu_cents") == "Type an amount, e.g. 1.50."
    assert error_of(html, "direction") == "Not a valid choice."
    with app.app_context():
        assert db.session.query(GameSession).count() == 0


def test_every_change_made_here_is_audited_with_this_phones_name(app, client):
    client.post("/sessions/new", data=new_form(client, seats=TABLE, first_dealer="3"))
    with app.app_context():
        sid = db.session.scalar(db.select(GameSession.id))
        game = db.session.get(GameSession, sid)
        services.record_round(services.Change.to(game, device="Other phone"), NO_HU)
        due = services.settlement(db.session.get(GameSession, sid))[0].transfer
        transfer = {"payer_id": due.payer.id, "payee_id": due.payee.id, "cents": due.cents}
    token = csrf_token(client, f"/sessions/{sid}/players")
    for url, data in [
        (f"/sessions/{sid}/players", {"name": "Eve", "position": "1"}),
        (f"/sessions/{sid}/players/{player_id(app, 'Bob')}/leave", {}),
        (f"/sessions/{sid}/settle/paid", {**transfer, "paid": "y"}),
        (f"/sessions/{sid}/settle/paid", transfer),
        (f"/sessions/{sid}/end", {}),
        (f"/sessions/{sid}/reopen", {}),
    ]:
        assert client.post(url, data={"csrf_token": token, **data}).status_code == 302, url
    with app.app_context():
        trail = db.session.execute(
            db.select(AuditEvent.action, AuditEvent.device, AuditEvent.version)
            .where(AuditEvent.session_id == sid).order_by(AuditEvent.id)).all()
    assert [tuple(row) for row in trail] == [
        ("session.start", "Test phone", 1), ("round.add", "Other phone", 2),
        ("seat.join", "Test phone", 3), ("seat.leave", "Test phone", 4),
        ("payment.paid", "Test phone", 5), ("payment.unpaid", "Test phone", 6),
        ("session.end", "Test phone", 7), ("session.reopen", "Test phone", 8)]
