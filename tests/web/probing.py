"""Probing every URL rule of the app: a group with one of everything to fill the
rules' ids with, the forms its pages carry, and the whole database as rows, to
show that a refused request wrote nothing."""

from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urlsplit

import sqlalchemy as sa
from werkzeug.routing.converters import NumberConverter

from scorekeeper import create_app, limits, services
from scorekeeper.extensions import db
from scorekeeper.models import (
    AuditEvent,
    GameSession,
    Group,
    Payment,
    Round,
    RoundEntry,
    Seat,
)
from tests.conftest import fresh_app, signed_in_client
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_RULES, set_paid
from tests.web.helpers import PageForm, forms_on

# Two groups whose names appear nowhere else, so a page that shows one of them
# shows that group's data.
ALPHA = ("Alpha table", "alpha passphrase", ["Zorblax", "Quintessa", "Mirabeau", "Felwinter"])
BETA = ("Beta table", "beta passphrase", ["Bobbington", "Cressida", "Dunstable"])

# A share link's address in a page: /share/<token>, alone or after the host.
SHARE_LINK = re.compile(r"""(?<=["'\s>])(?:https?://[^/"'\s<]+)?/share/([A-Za-z0-9_\-.]+)""")
REDIRECTS = (301, 302, 303, 307, 308)
# Pages for phones that are signed in to no group: the start, making a group
# (from nothing or from a backup), signing in and out.
PUBLIC_ENDPOINTS = frozenset({"static", "health.healthz", "home.index", "groups.new",
                              "backup.import_group", "groups.sign_in", "groups.sign_out",
                              "offline.manifest", "offline.worker", "offline.sync_worker",
                              "offline.worker_data", "offline.page", "home.rules",
                              "language.switch", "theme.switch"})


@dataclass
class World:
    """A group's rows, by what a URL rule's arguments call them."""

    group_id: int
    name: str
    passphrase: str
    players: list[str]
    ids: dict[str, int] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)  # share tokens, found on its pages


def build_world(name: str, passphrase: str, players: list[str]) -> World:
    """A group with a session of two rounds, the second deleted (so there is a
    deletion to restore), a paid transfer and a share link. Needs an app context."""
    group = services.create_group(name, passphrase)
    letters = dict(zip("ABCD", players, strict=False))  # Beta has no D
    game = services.start_session(services.Change(group, device="Setup phone"),
                                  players, EXAMPLE_RULES, first_dealer=players[-1])
    for example in (EXAMPLE_1, EXAMPLE_2):
        services.record_round(services.Change.to(game, device="Setup phone"),
                              {letters[k]: e for k, e in example.items() if k in letters})
    services.delete_round(services.Change.to(game, device="Setup phone"), game.rounds[-1])
    transfer = services.settlement(game)[0].transfer
    set_paid(services.Change.to(game, device="Setup phone"),
                      transfer.payer.id, transfer.payee.id, transfer.cents, True)
    link = services.create_share_link(services.Change.to(game, device="Setup phone"))
    round_ = game.rounds[0]

    def first(model, *where) -> int:
        return db.session.scalar(sa.select(model.id).where(*where).order_by(model.id))

    ids = {
        "session": game.id, "number": round_.number, "round": round_.id,
        "player": game.seats[0].player_id, "seat": game.seats[0].id,
        "entry": first(RoundEntry, RoundEntry.round_id == round_.id),
        "payment": first(Payment, Payment.session_id == game.id),
        "link": link.id, "share": link.id,
        "event": first(AuditEvent, AuditEvent.session_id == game.id,
                       AuditEvent.action == "round.delete"),
    }
    for alias in ("change", "audit", "deletion"):
        ids[alias] = ids["event"]
    return World(group.id, group.name, passphrase, players, ids)


def value_for(argument: str, converter, world: World):
    """What to put in a URL for a rule's argument: the world's own row of that
    kind, else (for ids the world has no row of) its session."""
    if "token" in argument:
        return world.tokens[0] if world.tokens else "no-such-token"
    if argument == "tag":  # a language's (the offline page of each)
        return "en"
    for kind, value in world.ids.items():
        if argument.startswith(kind):
            return value
    if isinstance(converter, NumberConverter):
        return world.ids["session"]
    return "x"


def rule_url(rule, world: World) -> str:
    values = {arg: value_for(arg, conv, world)
              for arg, conv in rule._converters.items()}
    return rule.build(values)[1]


def app_rules(app, method: str | None = None) -> list:
    """Every URL rule but static files, sorted; only those that take ``method`` if given."""
    rules = [r for r in app.url_map.iter_rules() if r.endpoint != "static"]
    if method:
        rules = [r for r in rules if method in r.methods]
    return sorted(rules, key=lambda r: (r.rule, r.endpoint))


def is_public(rule) -> bool:
    """Pages that need no sign-in: PUBLIC_ENDPOINTS, and what a share link opens
    (whose URL is /share/<token>...)."""
    return rule.endpoint in PUBLIC_ENDPOINTS or rule.rule.startswith("/share/")


def rule_id(rule) -> str:
    return f"{rule.endpoint}:{rule.rule}"


def shows_any(response, names) -> list[str]:
    """Which of ``names`` the response shows (HTML, JSON, CSV or any text)."""
    body = unescape(response.get_data().decode("utf-8", "replace"))
    return [n for n in names if n in body or n.casefold() in body.casefold()]


def redirect_path(response) -> str:
    return urlsplit(response.headers["Location"]).path


# The database as rows


@functools.cache
def _tables(engine) -> sa.MetaData:
    """The engine's tables, found by reflection (not from the models) once."""
    metadata = sa.MetaData()
    metadata.reflect(engine)
    return metadata


# A phone's sign-in and the counted attempts (throttle): written by signing
# in and by refused guesses, they hold none of a group's data.
BOOKKEEPING = frozenset({"sign_in", "attempt"})


def database_rows() -> dict[str, list]:
    """Every row of every table but BOOKKEEPING's, sorted, by table. Needs an
    app context."""
    with db.engine.connect() as connection:
        return {name: sorted((tuple(row) for row in connection.execute(sa.select(table))),
                             key=repr)
                for name, table in _tables(db.engine).tables.items()
                if name not in BOOKKEEPING}


def row_counts(app) -> dict[str, int]:
    """Rows by table, but for BOOKKEEPING's (a refused import counts as a try)."""
    with app.app_context():
        return {table.name: db.session.scalar(sa.select(sa.func.count()).select_from(table))
                for table in db.metadata.sorted_tables if table.name not in BOOKKEEPING}


def put_back(rows: dict[str, list]) -> None:
    """Make the database hold exactly ``rows`` (from database_rows) again.
    Needs an app context."""
    tables = [t for t in _tables(db.engine).sorted_tables if t.name in rows]
    db.session.remove()
    with db.engine.begin() as connection:
        for table in reversed(tables):
            connection.execute(table.delete())
        for table in tables:
            if rows[table.name]:
                columns = table.columns.keys()
                connection.execute(table.insert(), [dict(zip(columns, row, strict=True))
                                                    for row in rows[table.name]])


def invariant_problems() -> list[str]:
    """What is wrong with the stored rounds: money of a round that does not sum
    to zero, a player twice in a round, round numbers not 1..n in a session.
    Needs an app context."""
    problems = []
    sums = db.session.execute(
        sa.select(RoundEntry.round_id, sa.func.sum(RoundEntry.net_cents),
                  sa.func.count(RoundEntry.id), sa.func.count(sa.distinct(RoundEntry.player_id)))
        .group_by(RoundEntry.round_id)).all()
    for round_id, total, entries, players in sums:
        if total != 0:
            problems.append(f"round {round_id}: money sums to {total}")
        if entries != players:
            problems.append(f"round {round_id}: {entries} entries for {players} players")
        if entries < limits.MIN_PLAYERS:
            problems.append(f"round {round_id}: only {entries} entries")
    empty = db.session.scalars(sa.select(Round.id).where(
        ~sa.select(RoundEntry.id).where(RoundEntry.round_id == Round.id).exists())).all()
    problems += [f"round {round_id}: no entries" for round_id in empty]
    numbers: dict[int, list[int]] = {}
    for session_id, number in db.session.execute(
            sa.select(Round.session_id, Round.number).order_by(Round.number)):
        numbers.setdefault(session_id, []).append(number)
    for session_id, got in numbers.items():
        if got != list(range(1, len(got) + 1)):
            problems.append(f"session {session_id}: round numbers {got}")
    strangers = db.session.scalars(
        sa.select(RoundEntry.id).join(Round).where(~sa.select(Seat.id).where(
            Seat.session_id == Round.session_id, Seat.player_id == RoundEntry.player_id).exists()))
    problems += [f"entry {entry_id}: player not seated in the session" for entry_id in strangers]
    return problems + seat_total_problems() + finished_count_problems()


def finished_count_problems() -> list[str]:
    """Groups whose stored count of finished sessions is not their number of
    sessions that have ended."""
    ended = [session.group_id for session in db.session.scalars(sa.select(GameSession))
             if session.ended_at is not None]
    return [f"group {group.id}: {group.finished_sessions} finished sessions stored, "
            f"{ended.count(group.id)} ended"
            for group in db.session.scalars(sa.select(Group))
            if group.finished_sessions != ended.count(group.id)]


def seat_total_problems() -> list[str]:
    """Seats whose stored totals differ from their round entries, counted here
    in Python, independently of the services' SQL."""
    rows = db.session.execute(
        sa.select(Round.id, Round.session_id, RoundEntry.player_id, RoundEntry.outcome,
                  RoundEntry.points, RoundEntry.position, RoundEntry.net_cents)
        .join(RoundEntry.round)).all()
    tien_hu_by = {row.id: row.player_id for row in rows if row.outcome == "tien_hu"}
    expected: dict[tuple[int, int], dict[str, int]] = {}
    for row in rows:
        counted = tien_hu_by.get(row.id, row.player_id) == row.player_id
        totals = expected.setdefault((row.session_id, row.player_id), dict.fromkeys(
            services.SEAT_TOTALS, 0))
        totals["rounds_played"] += 1
        totals["points"] += row.points
        totals["net_cents"] += row.net_cents
        totals["wins"] += row.position == 1
        totals["hu"] += row.outcome == "hu"
        totals["tien_hu"] += row.outcome == "tien_hu"
        totals["counted_rounds"] += counted
        totals["counted_points"] += row.points if counted else 0
    problems = []
    for seat in db.session.scalars(sa.select(Seat)):
        want = expected.get((seat.session_id, seat.player_id),
                            dict.fromkeys(services.SEAT_TOTALS, 0))
        stored = {name: getattr(seat, name) for name in services.SEAT_TOTALS}
        if stored != want:
            problems.append(f"seat {seat.id}: totals {stored}, rounds say {want}")
    return problems


# The forms on the pages


def crawl(client, app, world: World) -> tuple[dict[str, PageForm], dict[str, bytes]]:
    """Every GET page of the world's group, as its signed-in ``client`` sees it:
    the POST forms found on them by action path (the fields of forms posting to
    the same path merged), and the JSON the pages answered, by path. Also puts the
    share tokens found on them in ``world.tokens``."""
    forms: dict[str, PageForm] = {}
    json_bodies: dict[str, bytes] = {}
    for rule in app_rules(app, "GET"):
        if rule.rule.startswith("/share/"):
            continue
        path = rule_url(rule, world)
        response = client.get(path)
        if response.status_code != 200:
            continue
        if response.mimetype == "application/json":
            json_bodies[path] = response.get_data()
        if response.mimetype != "text/html":
            continue
        html = response.get_data(as_text=True)
        for token in re.findall(SHARE_LINK, html):
            if token not in world.tokens:
                world.tokens.append(token)
        for form in forms_on(html, path):
            known = forms.setdefault(form.action, PageForm(form.action, path))
            for name, values in form.values.items():
                known.values.setdefault(name, values)
            for name, options in form.options.items():
                known.options.setdefault(name, set()).update(options)
            for name, buttons in form.buttons.items():
                known.buttons.setdefault(name, set()).update(buttons)
            known.files |= form.files
    return forms, json_bodies


@functools.cache
def listed_rules() -> tuple:
    """The app's URL rules, for parametrizing tests when they are collected."""
    app = create_app({"TESTING": True, "SECRET_KEY": "listing only, and long enough to sign",
                      "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return tuple(app_rules(app))


@dataclass
class Site:
    """An app with the worlds of two groups, Alpha and Beta."""

    app: object
    alpha: World
    beta: World
    forms: dict[str, PageForm] = field(default_factory=dict)  # on Alpha's pages, by action
    json_bodies: dict[str, bytes] = field(default_factory=dict)  # Alpha's JSON, by path

    def member(self, world: World, device: str | None = None):
        """A client signed in to ``world``'s group."""
        with self.app.app_context():
            return signed_in_client(self.app, db.session.get(Group, world.group_id),
                                    device=device or f"{world.name} phone")

    def rows(self) -> dict[str, list]:
        with self.app.app_context():
            return database_rows()

    def form_data(self, path: str) -> dict[str, list[str]]:
        """What the page's form would post to ``path``, without its CSRF token."""
        form = self.forms.get(path)
        data = dict(form.values) if form else {}
        data.pop("csrf_token", None)
        return data


@contextmanager
def site_for_probing(folder, **config):
    """A Site on a fresh app (CSRF on unless ``config`` says otherwise), with
    the forms and share tokens on Alpha's pages already found."""
    settings = {"TESTING": True, "WTF_CSRF_ENABLED": True, **config}
    with fresh_app(folder, **settings) as app:
        with app.app_context():
            alpha, beta = build_world(*ALPHA), build_world(*BETA)
        site = Site(app, alpha, beta)
        site.forms, site.json_bodies = crawl(site.member(alpha), app, alpha)
        yield site
