"""The main pages run a fixed number of SQL statements, whatever the size of
the group: the same with 10,000 sessions as with two (no N+1). On
PostgreSQL, where writing them takes a minute, with 1,000: the statements
are the app's, the same on both databases.

One module-scoped app holds both groups, so the big one is seeded once. It
uses no function-scoped app: on PostgreSQL every app shares one database and
those fixtures drop every table.
"""

import dataclasses
import os
import random
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa

from scorekeeper import demo, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Round, Seat
from scorekeeper.rules import HouseRules
from tests.conftest import fresh_app, signed_in_client
from tests.web.helpers import form_values, statements

SESSIONS = 1_000 if os.environ.get("DATABASE_URL") else 10_000
LONG_ROUNDS = 400  # the scoreboard's stress case
SHAPES = 100  # distinct short sessions, repeated to make up SESSIONS
NOW = datetime(2026, 11, 20, 12)

# The statements of each page, warmed up. A session's pages read the session
# with its group, seats and players in one, then the phone's sign-in (other
# pages read the group with it); a saved round is the load, the sign-in, the
# last round, the version claimed, the group's new ledger stamp, the hands of
# the round filled in together taken away (none here), the round, its
# entries, the seat totals, the audit, the change's key (applied at most
# once: web/once.py) and the deletion of a few keys too old to be taken
# (services.protocol). Settling up, and an ended session's scoreboard (the
# night's summary), read what is owed across the group's sessions as this
# app server kept it for the group's ledger stamp (queries/debts.py: the
# players, to name them; an ended session settled by its own payments, as
# here, reads its own); the home page and the scoreboard what is still owed,
# kept so too; and the home page follows the group's payments live (their
# count). A session's chart (the scoreboard, the night, its record in
# history, its picture to share) reads its rounds' money in one, whatever the
# rounds (400 here); a player's charts their months, best and worst evening
# and points left, one each, whatever the sessions. The leaderboard sums the
# seats in the dates in one (queries/records.py); head to head reads the
# players, the sums of both seats, the seats of the sessions one of them lost
# and the other won (their settle-ups), the payments between them and a page
# of their sessions. What if reads the session's rounds and their hands in
# two, whatever the rounds; How we play reads nothing more than the session.
EXPECTED = {"scoreboard": 4, "players": 3, "settlement": 3, "round form": 3, "latest round": 3,
            "earlier round": 3, "history": 3, "player": 7, "home": 5, "night": 5,
            "session record": 8, "picture": 4, "what if": 4, "how we play": 2,
            "leaderboard": 2, "leaderboard by dates": 2, "head to head": 6,
            "save a round": 12}


def tiny_group(rng: random.Random) -> demo.DemoGroup:
    """A finished session and an open one, a few rounds each."""
    plan = demo.play_group(rng, 2, 3, NOW)
    return dataclasses.replace(plan, sessions=list(plan.sessions))


def big_group(rng: random.Random) -> demo.DemoGroup:
    """SESSIONS finished sessions of one or two rounds, then an open one of 400."""
    players = demo.choose_players(rng)
    since = NOW - timedelta(days=3650)
    gap = timedelta(days=3650) / SESSIONS
    shapes = [demo.play_session(rng, players, rules, since, rng.randint(1, 2))
              for rules in [HouseRules.penang(), HouseRules.rummi()] * (SHAPES // 2)]
    sessions = [demo.moved(shapes[i % SHAPES], i * gap) for i in range(SESSIONS - 1)]
    sessions.append(demo.play_session(rng, players, HouseRules.penang(),
                                      since + SESSIONS * gap, LONG_ROUNDS, finished=False))
    return demo.DemoGroup(players, since, sessions)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with fresh_app(tmp_path_factory.mktemp("scale"), TESTING=True) as app:
        yield app


def seed(app, plan: demo.DemoGroup, name: str) -> dict[str, str]:
    """The group written; the URLs of its pages, its open session's and its
    most seated player's, and a client signed in to it."""
    with app.app_context():
        group, _, _ = services.seed_demo_group(name, demo.DEMO_PASSPHRASE, plan)
        open_id = db.session.scalar(sa.select(GameSession.id).where(
            GameSession.group_id == group.id, GameSession.ended_at.is_(None)))
        player_id, other_id = db.session.scalars(
            sa.select(Seat.player_id).join(GameSession).where(GameSession.group_id == group.id)
            .group_by(Seat.player_id).order_by(sa.func.count().desc(), Seat.player_id).limit(2))
        ended_id = db.session.scalar(sa.select(sa.func.max(GameSession.id)).where(
            GameSession.group_id == group.id, GameSession.ended_at.is_not(None)))
        rounds = db.session.scalar(sa.select(sa.func.count(Round.id))
                                   .where(Round.session_id == open_id))
        urls = {
            "scoreboard": f"/sessions/{open_id}",
            "players": f"/sessions/{open_id}/players",
            "settlement": f"/sessions/{open_id}/settle",
            "round form": f"/sessions/{open_id}/rounds/new",
            "latest round": f"/sessions/{open_id}/rounds/{rounds}",
            "earlier round": f"/sessions/{open_id}/rounds/1",
            "history": "/history",
            "player": f"/players/{player_id}",
            "home": "/",
            "night": f"/sessions/{ended_id}",
            "leaderboard": "/records",
            "leaderboard by dates": "/records?from=2020-01-01&to=2026-06-30&sort=points",
            "head to head": f"/records/head-to-head?a={player_id}&b={other_id}",
            "session record": f"/history/sessions/{ended_id}",
            "picture": f"/sessions/{open_id}/result.png",
            "what if": f"/sessions/{open_id}/what-if?preset=penang&use_preset=1",
            "how we play": f"/sessions/{open_id}/how-we-play",
        }
        client = signed_in_client(app, group)
        with client.session_transaction() as cookie:  # it said whose phone it is: the home
            cookie["phones"] = [[group.id, player_id]]  # page asks no more (once, one more)
        return {"urls": urls, "client": client, "rounds": rounds}


def statements_per_page(app, site) -> dict[str, int]:
    counts = {}
    for page, url in site["urls"].items():
        assert site["client"].get(url).status_code == 200, url  # warm up
        with statements(app) as seen:
            assert site["client"].get(url).status_code == 200, url
        counts[page] = len(seen)
    client, form_url = site["client"], site["urls"]["round form"]
    fields = form_values(client.get(form_url).get_data(as_text=True), form_url)
    held = iter(["2C", "3D", "4H", "5S", "6C", "7D"])  # one card each: a valid round
    for name in fields:
        if name.endswith("-cards"):
            fields[name] = next(held)
    with statements(app) as seen:
        assert client.post(form_url, data=fields).status_code == 302
    counts["save a round"] = len(seen)
    return counts


@pytest.fixture(scope="module")
def tiny(app):
    """Counted while the database holds only the tiny group."""
    site = seed(app, tiny_group(random.Random(1)), "Tiny table")
    return statements_per_page(app, site)


@pytest.fixture(scope="module")
def big(app, tiny):
    site = seed(app, big_group(random.Random(2)), "Big table")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(GameSession.id))) == SESSIONS + 2
    assert site["rounds"] == LONG_ROUNDS
    return statements_per_page(app, site)


def test_statements_per_page_with_a_tiny_group(tiny):
    assert tiny == EXPECTED


def test_statements_per_page_with_years_of_sessions(big, tiny):
    assert big == tiny
