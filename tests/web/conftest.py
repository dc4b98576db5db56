"""Fixtures for tests that call services directly."""

import pytest

from scorekeeper import services
from tests.web.examples import EXAMPLE_RULES


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


@pytest.fixture
def table(ctx):
    """The table of RULES.md §12: seats A B C D clockwise, D deals first."""
    return services.start_session(list("ABCD"), EXAMPLE_RULES, first_dealer="D")
