"""The scoreboard: the next deal, totals and rounds, a table of up to six with
no name broken, cents shown where any are, the latest rounds with a link
to the rest, in a fixed number of SQL statements."""

import re

from scorekeeper.rules import Entry, HouseRules
from tests.web.examples import HU, NO_HU, TABLE, TIE, make_session, player_id
from tests.web.helpers import parsed, statements


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
    assert len(re.findall(rf'href="/sessions/{sid}/rounds/\d+" aria-label', html)) == 3
    # The chart's columns open the rounds too (a pointer's; the table's are for everyone).
    chart = re.findall(rf'href="/sessions/{sid}/rounds/(\d+)" tabindex="-1"', html)
    assert chart == ["1", "2", "3"]
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
