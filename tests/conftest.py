"""Fixtures shared by the web tests: app, client, runner (as in Flask's tutorial)."""

import os

import pytest
import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.extensions import db


def drop_everything():
    """Drop every table, including ones the models don't know (alembic_version)."""
    metadata = sa.MetaData()
    metadata.reflect(db.engine)
    metadata.drop_all(db.engine)


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key",
            "WTF_CSRF_ENABLED": True,
            # PostgreSQL when DATABASE_URL is set, else a new SQLite file.
            "SQLALCHEMY_DATABASE_URI": os.environ.get("DATABASE_URL")
            or f"sqlite:///{tmp_path / 'test.sqlite3'}",
        }
    )
    with app.app_context():
        drop_everything()
        db.create_all()
    yield app
    with app.app_context():
        drop_everything()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
