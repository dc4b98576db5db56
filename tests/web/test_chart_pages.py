"""The pages' charts with their text alternatives, and "Share the result":
the session's picture for members, on its share link, in the phone's language."""

import dataclasses
import io
import random
import re
from datetime import datetime

import brotli
import pytest
import sqlalchemy as sa
from PIL import Image

from scorekeeper import demo, services
from scorekeeper.charts.picture import WIDTH
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Group, Player
from scorekeeper.rules import HouseRules
from tests.conftest import signed_in_client, the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3
from tests.web.examples import EXAMPLE_RULES as RULES
from tests.web.helpers import csrf_token, make_link, parsed

NAMES = {"A": "Ann", "B": "陈美玲", "C": "Cat", "D": "Dan <b>"}


@pytest.fixture
def played(app):
    """A session of the three worked examples: Ann −6.50, 陈美玲 +0.50, Cat
    +11.00, Dan −5.00; ended if ``ended``."""
    def play(ended: bool) -> dict[str, int]:
        with app.app_context():
            game = services.start_session(services.Change(the_group()), list(NAMES.values()),
                                          RULES, first_dealer=NAMES["D"])
            for example in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3):
                services.record_round(services.Change.to(game),
                                      {NAMES[k]: entry for k, entry in example.items()})
            if ended:
                services.end_session(services.Change.to(game))
            ids = {name: db.session.scalar(db.select(Player.id).where(Player.name == name))
                   for name in NAMES.values()}
            return {"session": game.id, **ids}
    return play


def chart_of(page, ident="money-chart"):
    (svg,) = page.select(f"svg#{ident}")
    return svg


def test_the_scoreboard_draws_each_players_money_marking_this_phones(client, played):
    ids = played(ended=False)
    sid = ids["session"]
    client.post(f"/sessions/{sid}/phone",
                data={"player": ids["Cat"], "csrf_token": csrf_token(client, f"/sessions/{sid}")})
    html = client.get(f"/sessions/{sid}").text
    page = parsed(html)
    svg = chart_of(page)
    assert svg.attrs["role"] == "img" and svg.attrs["viewbox"] == "0 0 360 220"
    # The chart is inside the page's live region, brought up to date with it.
    assert html.index('id="live-page" data-live') < html.index('<svg class="chart"')
    desc = svg.select("desc")[0].text
    assert "Cat: +RM 11.00 after round 3" in desc and "陈美玲: +RM 0.50 after round 3" in desc
    assert "Dan <b>: −RM 5.00" in desc and "<b>" not in html.replace("&lt;b&gt;", "")
    assert [t.text.strip("\u2068\u2069") for t in svg.select("text.chart-label")] == \
        ["Ann", "陈美玲", "Cat", "Dan <b>"]
    assert [t.text for t in svg.select("text.chart-me")] == ["\u2068Cat\u2069"]
    assert len(svg.select("path.chart-line")) == 4
    # The same figures as a table under it.
    rows = [row.texts("th") + row.texts("td")
            for row in page.select("details.chart-figures tbody tr")]
    assert rows[2][:2] == ["Cat (this phone's player)", "+11.00"]
    # A tap on a round's column opens it.
    assert re.findall(rf'<a href="/sessions/{sid}/rounds/(\d)" tabindex="-1">', html) == list("123")
    share = page.select("a[data-share-picture]")[0]
    assert share.attrs["href"] == f"/sessions/{sid}/result.png"
    assert share.attrs["download"].startswith("rummy-") and share.text == "Share the result"


def test_a_session_without_rounds_has_no_chart(client, app):
    with app.app_context():
        sid = services.start_session(services.Change(the_group()), ["Ann", "Ben"], RULES,
                                     first_dealer="Ann").id
    html = client.get(f"/sessions/{sid}").text
    assert "<svg" not in html and "data-share-picture" not in html


def test_a_finished_session_in_history_has_its_chart(client, played):
    ids = played(ended=True)
    page = parsed(client.get(f"/history/sessions/{ids['session']}"))
    svg = chart_of(page)
    assert len(page.select("svg.chart-hits a")) == 3
    assert "Ann: −RM 6.50 after round 3" in svg.select("desc")[0].text
    assert page.select("a[data-share-picture]")[0].attrs["href"] == (
        f"/sessions/{ids['session']}/result.png")


def test_a_players_page_charts_their_months_and_points(client, played):
    ids = played(ended=True)
    page = parsed(client.get(f"/players/{ids['Cat']}"))
    months = chart_of(page, "months-chart")
    assert months.select("desc")[0].text.startswith("1 month played from ")
    assert months.select("desc")[0].text.endswith(": 1 ended up, 0 down, +RM 11.00 in all.")
    (best,) = page.select(".chart-evenings li")  # one evening: best and worst are the same
    assert best.text.startswith("Best evening:") and best.text.endswith("+11.00")
    assert best.select("a")[0].attrs["href"] == f"/history/sessions/{ids['session']}"
    points = chart_of(page, "points-chart")
    assert points.select("desc")[0].text.startswith("3 rounds: most often ")
    tables = page.select("details.chart-figures table")
    assert len(tables) == 2
    assert [row.texts("td")[1] for row in tables[0].select("tbody tr")] == ["+11.00"]
    assert sum(int(row.texts("td")[0]) for row in tables[1].select("tbody tr")) == 3
    assert "Their last" not in page.text


def test_a_players_spread_of_points_counts_their_latest_rounds(client, played, monkeypatch):
    ids = played(ended=True)
    monkeypatch.setattr("scorekeeper.queries.SPREAD_ROUNDS", 2)
    page = parsed(client.get(f"/players/{ids['Cat']}"))
    assert "Their last 2 rounds." in page.text
    (table,) = page.select("#points-figures table")
    assert sum(int(row.texts("td")[0]) for row in table.select("tbody tr")) == 2


@pytest.mark.parametrize("page", ["/sessions/{sid}", "/history/sessions/{sid}"])
def test_a_session_for_money_shows_its_points_round_by_round_when_asked(
        app, client, played, page):
    ids = played(ended=True)
    url = page.format(sid=ids["session"])
    money = parsed(client.get(url).text)
    assert money.texts("#chart-title") == ["Money round by round"]
    (switch,) = money.select(".chart-switch a")
    assert switch.text == "Show the points instead"
    assert switch.attrs["href"] == f"{url}?chart=points#chart-title"
    points = parsed(client.get(f"{url}?chart=points").text)
    assert points.texts("#chart-title") == ["Points round by round"]
    # The figures after the last round: each player's points, as their seat has them.
    with app.app_context():
        seats = {seat.player.name: seat.points for seat in
                 db.session.get(GameSession, ids["session"]).seats}
    rows = {row.texts("th")[0].removesuffix(" (this phone's player)"): row.texts("td")[0]
            for row in points.select(".chart-figures tbody tr")}
    assert rows == {name: str(held) for name, held in seats.items()}
    (back,) = points.select(".chart-switch a")
    assert back.text == "Show the money instead"
    assert back.attrs["href"] == f"{url}?chart=money#chart-title"


def test_a_session_for_points_has_no_money_chart_to_switch_to(app, client):
    with app.app_context():
        game = services.start_session(services.Change(the_group()), list(NAMES.values()),
                                      dataclasses.replace(RULES, scheme="none"),
                                      first_dealer=NAMES["D"])
        services.record_round(services.Change.to(game),
                              {NAMES[k]: entry for k, entry in EXAMPLE_1.items()})
        sid = game.id
    page = parsed(client.get(f"/sessions/{sid}").text)
    assert page.texts("#chart-title") == ["Points round by round"]
    assert not page.select(".chart-switch")


def picture(response) -> Image.Image:
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG" and image.width == WIDTH
    return image


def test_the_picture_follows_the_phones_language(client, played):
    sid = played(ended=True)["session"]
    response = client.get(f"/sessions/{sid}/result.png")
    english = picture(response)
    assert re.fullmatch(r'inline; filename="rummy-\d{4}-\d\d-\d\d\.png"',
                        response.headers["Content-Disposition"])
    assert "no-store" in response.headers["Cache-Control"]
    client.set_cookie("language", "zh-Hans")
    chinese = picture(client.get(f"/sessions/{sid}/result.png"))
    assert english.tobytes() != chinese.tobytes()


def test_the_picture_is_for_members_and_share_links(client, anonymous, played):
    sid = played(ended=False)["session"]
    assert anonymous.get(f"/sessions/{sid}/result.png").status_code in (302, 403)
    link = make_link(client, sid)
    token = link.rsplit("/", 1)[1]
    shared = anonymous.get(f"/share/{token}")
    assert shared.status_code == 200
    page = parsed(shared)
    chart_of(page)
    assert page.select("svg.chart-hits") == []  # a shared page links no round
    assert page.select("a[data-share-picture]")[0].attrs["href"] == f"/share/{token}/result.png"
    answer = anonymous.get(f"/share/{token}/result.png")
    picture(answer)
    assert answer.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert anonymous.get(f"/share/{token}x/result.png").status_code == 404
    manage = f"/sessions/{sid}/share"
    link_id = re.search(r'/share/(\d+)/revoke', client.get(manage).text)[1]
    client.post(f"{manage}/{link_id}/revoke", data={"csrf_token": csrf_token(client, manage)})
    assert anonymous.get(f"/share/{token}/result.png").status_code == 404


def test_a_400_round_sessions_chart_adds_a_few_kb(app, client):
    """Six players, 400 rounds: the chart, its links, its summary and its table
    of figures, as the page sends them and as brotli sends them."""
    with app.app_context():
        rng = random.Random(8)
        players = demo.choose_players(rng)[:6]
        game = demo.play_session(rng, players, HouseRules.penang(), datetime(2026, 11, 1, 20),
                                 400, finished=False)
        group = the_group()
        services.seed_demo_group("Long table", demo.DEMO_PASSPHRASE, demo.DemoGroup(
            players, datetime(2026, 1, 1), [game]))
        sid = db.session.scalar(sa.select(sa.func.max(GameSession.id)))
        long = db.session.scalar(sa.select(Group).where(Group.id != group.id))
    html = signed_in_client(client.application, long).get(f"/sessions/{sid}").text
    (section,) = re.findall(r'<section class="chart-box".*?</section>', html, re.S)
    assert section.count('class="chart-line') == len({*re.findall(
        r'class="chart-line (chart-s\d)', section)}) >= 4
    assert len(section.encode()) <= 10_000
    assert len(brotli.compress(section.encode())) <= 2_500
