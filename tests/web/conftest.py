"""Fixtures for tests that call services directly, or play several phones."""

import pytest
from flask import g

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Group
from tests.conftest import fresh_app, signed_in_client, the_group
from tests.web.examples import EXAMPLE_RULES, build_evenings


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
