"""The records pages: the leaderboard over any dates, and two players head to head."""

import re
from datetime import datetime
from html import unescape

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Group, Player
from tests.conftest import signed_in_client, the_group
from tests.web.examples import EXAMPLE_RULES as RULES
from tests.web.helpers import visible_text


def plain(html: str) -> str:
    """HTML's text, tags dropped and spaces squeezed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def player_id(name: str) -> int:
    return db.session.scalar(db.select(Player.id).where(Player.name == name))


def started(session_id: int, when: datetime) -> None:
    """The session as if started at ``when`` (UTC)."""
    db.session.get(GameSession, session_id).started_at = when
    db.session.commit()


def board_rows(html: str) -> list[list[str]]:
    """The leaderboard's body rows, each as its cells' text."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[plain(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_the_leaderboard_sums_each_players_sessions(client, nights):
    html = client.get("/records").get_data(as_text=True)
    rows = board_rows(html)
    # By money, the most first; A has +3.50 over three sessions, one in play.
    assert [r[0] for r in rows] == ["C", "A", "Zed", "Eve", "D", "B"]
    by_name = {r[0]: r[1:] for r in rows}
    assert by_name["A"][:3] == ["3", "+3.50", "+1.17"]
    assert by_name["C"][:3] == ["1", "+11.00", "+11.00"]
    assert by_name["B"][:3] == ["2", "−6.50", "−3.25"]
    assert by_name["Zed"][:2] == ["1", "0.00"]
    # A's Tien Hu: a win and a Tien Hu, scoring 0 points in that round.
    assert by_name["A"][5:7] == ["0", "1"]


def test_the_leaderboard_sorts_by_each_column_both_ways(client, nights):
    least = [r[0] for r in board_rows(
        client.get("/records?sort=money&order=asc").get_data(as_text=True))]
    assert least == ["B", "D", "Eve", "Zed", "A", "C"]
    names = [r[0] for r in board_rows(
        client.get("/records?sort=name").get_data(as_text=True))]
    assert names == ["A", "B", "C", "D", "Eve", "Zed"]
    html = client.get("/records?sort=sessions").get_data(as_text=True)
    assert board_rows(html)[0][0] == "A"
    assert 'aria-sort="descending"' in html
    # The current column's link turns it round; others keep the dates.
    assert 'href="/records?sort=sessions&amp;order=asc"' in html
    # A column the board does not have: the money, as by default.
    assert board_rows(client.get("/records?sort=nope&order=up").get_data(as_text=True)) \
        == board_rows(client.get("/records").get_data(as_text=True))


def test_this_phones_player_is_marked(app, client, nights):
    with client.session_transaction() as cookie, app.app_context():
        cookie["phones"] = [[the_group().id, nights["B"]]]
    html = client.get("/records").get_data(as_text=True)
    marked = re.findall(r'<tr class="sessions-me">\s*<th scope="row"><a[^>]*>([^<]*)</a>', html)
    assert marked == ["B"]
    assert f'/records/head-to-head?a={nights["B"]}' in html


def dated(app, nights) -> None:
    """Session one started at 23:30 on 31 Oct 2026 in Penang (15:30 UTC),
    two at 00:10 on 1 Nov (16:10 UTC on 31 Oct), three on 1 Dec."""
    with app.app_context():
        started(nights["one"], datetime(2026, 10, 31, 15, 30))
        started(nights["two"], datetime(2026, 10, 31, 16, 10))
        started(nights["three"], datetime(2026, 12, 1, 4))


def test_a_session_counts_on_the_day_it_started_on_the_groups_clock(app, client, nights):
    dated(app, nights)
    october = board_rows(client.get("/records?from=2026-10-01&to=2026-10-31")
                         .get_data(as_text=True))
    assert sorted(r[0] for r in october) == ["A", "B", "C", "D"]
    november = board_rows(client.get("/records?from=2026-11-01&to=2026-11-30")
                          .get_data(as_text=True))
    assert sorted(r[0] for r in november) == ["A", "B", "Eve"]
    # One day, both ends on it; an open end.
    assert len(board_rows(client.get("/records?from=2026-11-01&to=2026-11-01")
                          .get_data(as_text=True))) == 3
    since = board_rows(client.get("/records?from=2026-11-02").get_data(as_text=True))
    assert sorted(r[0] for r in since) == ["A", "Zed"]
    until = board_rows(client.get("/records?to=2026-10-31").get_data(as_text=True))
    assert sorted(r[0] for r in until) == ["A", "B", "C", "D"]


def test_players_with_no_session_in_the_dates_are_not_on_the_board(app, client, nights):
    dated(app, nights)
    html = client.get("/records?from=2026-12-01&to=2026-12-31").get_data(as_text=True)
    assert sorted(r[0] for r in board_rows(html)) == ["A", "Zed"]
    html = client.get("/records?from=2027-01-01").get_data(as_text=True)
    assert "<tbody>" not in html and "No sessions in these dates." in html


def test_the_usual_dates_are_links_on_the_groups_calendar(client, nights, monkeypatch):
    monkeypatch.setattr("scorekeeper.web.records.utcnow", lambda: datetime(2026, 12, 31, 17))
    html = client.get("/records").get_data(as_text=True)  # 1 Jan 2027 01:00 in Penang
    assert 'href="/records?from=2027-01-01&amp;to=2027-01-31"' in html
    assert 'href="/records?from=2027-01-01&amp;to=2027-12-31"' in html
    assert re.search(r'href="/records" aria-current="page">All time<', html)


@pytest.mark.parametrize("query, where, message", [
    ("from=2026-02-30", "from", "Type a date as year-month-day, such as 2026-01-31."),
    ("to=31/12/2026", "to", "Type a date as year-month-day, such as 2026-01-31."),
    ("from=0001-01-01", "from", "Use a year from 1900 to 2999."),
    ("from=2026-12-01&to=2026-11-01", "to", "The last day comes before the first."),
])
def test_a_bad_date_says_what_is_wrong_and_shows_it_back(client, nights, query, where,
                                                          message):
    response = client.get(f"/records?{query}")
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(rf'<p class="error" id="{where}-error">{re.escape(message)}</p>', html)
    typed = dict(part.split("=") for part in query.split("&"))
    for name, value in typed.items():
        assert re.search(rf'name="{name}"[^>]*value="{re.escape(value)}"|'
                         rf'value="{re.escape(value)}"[^>]*name="{name}"', html)
    assert "<tbody>" not in html


def test_an_empty_group_has_an_empty_board(client):
    html = client.get("/records").get_data(as_text=True)
    assert "No sessions in these dates." in html
    assert client.get("/records/head-to-head").status_code == 200


def test_head_to_head_counts_the_sessions_together(client, nights):
    a, b = nights["A"], nights["B"]
    response = client.get(f"/records/head-to-head?a={a}&b={b}")
    html, text = response.get_data(as_text=True), visible_text(response)
    assert "A and B sat at 2 sessions together." in text
    # One: A −6.50, B +0.50 (B ahead); two: A +10.00, B −7.00 (A ahead).
    assert re.search(r"<dt>A</dt><dd>1</dd></div>\s*<div><dt>B</dt><dd>1</dd>", html)
    assert "<dt>Level</dt><dd>0</dd>" in html
    assert html.count('href="/history/sessions/') == 2


def test_two_players_who_never_met(client, nights):
    html = client.get(f"/records/head-to-head?a={nights['C']}&b={nights['Eve']}")
    assert "C and Eve have not sat at a session together." in visible_text(html)


def test_the_same_player_twice_is_refused_with_a_message(client, nights):
    response = client.get(f"/records/head-to-head?a={nights['A']}&b={nights['A']}")
    assert response.status_code == 422
    assert '<p class="error" id="b-error">Choose two different players.</p>' \
        in response.get_data(as_text=True)


def test_a_player_of_another_group_is_not_found(app, client, nights):
    with app.app_context():
        other = services.create_group("Other table", "correct horse battery")
        session = services.start_session(services.Change(db.session.get(Group, other.id)),
                                         ["Xan", "Yoo"], RULES, first_dealer="Xan")
        stranger = next(s.player_id for s in session.seats)
    assert client.get(f"/records/head-to-head?a={nights['A']}&b={stranger}").status_code \
        == 404
    assert client.get(f"/records/head-to-head?a={stranger}").status_code == 404
    junk = client.get("/records/head-to-head?a=ann&b=")
    assert junk.status_code == 422
    assert "Choose a player from the list." in junk.get_data(as_text=True)


def test_head_to_head_starts_from_this_phones_player(app, client, nights):
    with client.session_transaction() as cookie, app.app_context():
        cookie["phones"] = [[the_group().id, nights["Eve"]]]
    html = client.get("/records/head-to-head").get_data(as_text=True)
    assert re.search(rf'<select id="a" name="a">.*?<option selected value="{nights["Eve"]}">',
                     html, re.S)


def test_the_records_are_linked_from_the_menu_and_the_player_page(client, nights):
    assert 'href="/records"' in client.get("/history").get_data(as_text=True)
    html = client.get(f"/players/{nights['B']}").get_data(as_text=True)
    assert f'href="/records/head-to-head?a={nights["B"]}"' in html


def test_the_records_need_a_sign_in(app, anonymous):
    assert anonymous.get("/records").status_code == 302
    assert anonymous.get("/records/head-to-head").status_code == 302


def test_another_groups_phone_sees_its_own_board(app, nights):
    with app.app_context():
        other = services.create_group("Other table", "correct horse battery")
        client = signed_in_client(app, other)
    assert "No sessions in these dates." in client.get("/records").get_data(as_text=True)


def test_sorting_keeps_the_dates_and_the_currency(app, client, nights):
    with app.app_context():
        db.session.get(GameSession, nights["two"]).currency = "SGD"
        db.session.commit()
    html = client.get("/records?from=2020-01-01&to=2030-12-31").get_data(as_text=True)
    # Most seats were in RM (one and three): its board first, SGD a link away.
    assert sorted(r[0] for r in board_rows(html)) == ["A", "B", "C", "D", "Zed"]
    assert re.search(r'href="/records\?from=2020-01-01&amp;to=2030-12-31&amp;currency=RM"'
                     r' aria-current="page">RM<', html)
    assert 'href="/records?sort=wins&amp;order=desc&amp;from=2020-01-01&amp;to=2030-12-31' \
        '&amp;currency=RM"' in html
    sgd = client.get("/records?from=2020-01-01&currency=SGD&sort=name").get_data(as_text=True)
    assert [r[:3] for r in board_rows(sgd)] == [["A", "1", "+10.00"], ["B", "1", "−7.00"],
                                                 ["Eve", "1", "−3.00"]]
    # A currency not played in the dates: the one played most.
    assert board_rows(client.get("/records?currency=EUR").get_data(as_text=True)) \
        == board_rows(client.get("/records").get_data(as_text=True))


def test_head_to_head_shows_each_ones_money(client, nights):
    html = client.get(f"/records/head-to-head?a={nights['A']}&b={nights['B']}")
    rows = dict(board_rows(html.get_data(as_text=True))[:2])  # the money table's first rows
    assert rows == {"A's money": "+3.50", "B's money": "−6.50"}


def test_a_long_head_to_head_goes_by_pages(app, client):
    with app.app_context():
        ids = []
        for _ in range(12):
            session = services.start_session(services.Change(the_group()), ["P", "Q"], RULES,
                                             first_dealer="P")
            services.end_session(services.Change.to(session))
            ids.append(session.id)
        p, q = player_id("P"), player_id("Q")
    first = client.get(f"/records/head-to-head?a={p}&b={q}").get_data(as_text=True)
    second = client.get(f"/records/head-to-head?a={p}&b={q}&page=2").get_data(as_text=True)
    listed = [[int(n) for n in re.findall(r'href="/history/sessions/(\d+)"', html)]
              for html in (first, second)]
    assert listed == [ids[::-1][:10], ids[::-1][10:]]
    assert f'href="/records/head-to-head?page=2&amp;a={p}&amp;b={q}"' in first
    assert "<dt>Level</dt><dd>12</dd>" in first
    assert client.get(f"/records/head-to-head?a={p}&b={q}&page=3").status_code == 404
