"""Fixtures for tests that call services directly."""

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Group
from tests.web.examples import EXAMPLE_RULES


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
    """The table of RULES.md §12: seats A B C D clockwise, D deals first."""
    return services.start_session(services.Change(our_group),
                                  list("ABCD"), EXAMPLE_RULES, first_dealer="D")
