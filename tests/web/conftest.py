"""Fixtures for tests that call services directly, or play several phones."""

import pytest
from flask import g

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Group, Player
from scorekeeper.rules import Entry
from tests.conftest import fresh_app, signed_in_client, the_group
from tests.web.examples import (
    EXAMPLE_1,
    EXAMPLE_2,
    EXAMPLE_3,
    EXAMPLE_RULES,
    TIEN_HU,
    build_evenings,
)


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


@pytest.fixture
def our_group(ctx, group):
    """The ``group`` fixture, in this test's database session."""
    return db.session.get(Group, group.id)


@pytest.fixture
def table(our_group):
    """The table of docs/RULES.md §12: seats A B C D clockwise, D deals first."""
    return services.start_session(services.Change(our_group),
                                  list("ABCD"), EXAMPLE_RULES, first_dealer="D")


@pytest.fixture
def sid(table):
    return table.id


@pytest.fixture
def own_tokens(app):
    """For a test of several phones: their requests share the app context the
    test keeps pushed, and so its ``g``, where Flask-WTF keeps the CSRF token
    of the phone that asked first. Each request starts without it (until the
    test ends: the app is the module's)."""
    def forget_token():
        g.pop("csrf_token", None)

    hooks = app.before_request_funcs.setdefault(None, [])
    hooks.append(forget_token)
    yield
    hooks.remove(forget_token)


@pytest.fixture
def ben_phone(app, group):
    """A second phone at the table."""
    return signed_in_client(app, group, device="Ben's phone")


# Backups (test_backup.py, test_backup_import.py)


@pytest.fixture
def evenings(app):
    build_evenings(app)


@pytest.fixture
def exported(client, evenings) -> dict:
    return client.get("/group/export.json").get_json()


@pytest.fixture(scope="module")
def backup_document(tmp_path_factory) -> dict:
    """The evenings' backup, made once for the many tests that only spoil it."""
    with fresh_app(tmp_path_factory.mktemp("backup"), TESTING=True) as app:
        build_evenings(app)
        with app.app_context():
            client = signed_in_client(app, the_group())
        return client.get("/group/export.json").get_json()


@pytest.fixture
def nights(app):
    """Two finished sessions and one in play (history, records); ids by name.

    one:   A B C D, the three worked examples: A −6.50, B +0.50, C +11.00, D −5.00
    two:   A B Eve, A's Tien Hu then Eve wins: A +10.00, B −7.00, Eve −3.00
    three: A Zed, in play, no rounds
    """
    with app.app_context():
        one = services.start_session(services.Change(the_group()),
                                     list("ABCD"), EXAMPLE_RULES, first_dealer="D")
        for entries in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3):
            services.record_round(services.Change.to(one), entries)
        services.end_session(services.Change.to(one))
        two = services.start_session(services.Change(the_group()),
                                     ["A", "B", "Eve"], EXAMPLE_RULES, first_dealer="A")
        services.record_round(services.Change.to(two), {"A": Entry("tien_hu", TIEN_HU),
                                                        "B": Entry("dead"), "Eve": Entry("dead")})
        services.record_round(services.Change.to(two),
                              {"A": Entry("dead", "KS QS"), "B": Entry("dead", "5S"),
                               "Eve": Entry("dead", "2H")})
        services.end_session(services.Change.to(two))
        three = services.start_session(services.Change(the_group()),
                                       ["A", "Zed"], EXAMPLE_RULES, first_dealer="A")
        ids = {name: _player_id(name) for name in ["A", "B", "C", "D", "Eve", "Zed"]}
        ids.update(one=one.id, two=two.id, three=three.id)
        return ids


def _player_id(name: str) -> int:
    return db.session.scalar(db.select(Player.id).where(Player.name == name))
