"""Fixtures shared by the web tests: app, client, runner (as in Flask's tutorial)."""

import os
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.extensions import db


def drop_everything():
    """Drop every table, including ones the models don't know (alembic_version)."""
    metadata = sa.MetaData()
    metadata.reflect(db.engine)
    metadata.drop_all(db.engine)


@contextmanager
def fresh_app(folder, **config):
    """An app on an empty schema: PostgreSQL when DATABASE_URL is set, else a new
    SQLite file in ``folder``; its tables are dropped afterwards."""
    app = create_app({
        "SQLALCHEMY_DATABASE_URI": os.environ.get("DATABASE_URL")
        or f"sqlite:///{folder / 'test.sqlite3'}",
        **config,
    })
    with app.app_context():
        drop_everything()
        db.create_all()
    yield app
    with app.app_context():
        drop_everything()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path):
    with fresh_app(tmp_path, TESTING=True, SECRET_KEY="test-secret-key",
                   WTF_CSRF_ENABLED=True) as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
