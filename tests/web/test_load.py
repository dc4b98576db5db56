"""The load benchmark's driver, run for a few seconds against a live gunicorn:
20 phones each playing their own session meet no error and every round they
saw saved is in the database once. Not timed: speed is bench/load.py's report."""

import os

import pytest

from bench import load
from scorekeeper import create_app, services
from scorekeeper.extensions import db
from tests.conftest import TEST_SECRET_KEY, drop_everything


@pytest.fixture
def database(tmp_path):
    """PostgreSQL when DATABASE_URL is set, else a new SQLite file, with no table
    before the test and none after (the benchmark migrates it); its URL, and an
    app on it hashing passphrases quickly."""
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path / 'load.sqlite3'}"
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                      "SQLALCHEMY_DATABASE_URI": url,
                      "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000"})
    with app.app_context():
        drop_everything()
    yield url, app
    with app.app_context():
        drop_everything()
        db.engine.dispose()


def test_the_phones_meet_no_error_and_every_round_they_saved_is_saved_once(database,
                                                                           tmp_path):
    url, app = database
    load.prepare_database(url, groups=1, sessions=20, rounds=5, seed=3, echo=False)
    with load.database(app):
        # Quicker sign-ins than with the seeded Argon2id hash.
        services.set_passphrase(services.Change(services.find_group("Demo table 1")),
                                load.PASSPHRASE)

    outcome = load.benchmark(url, tmp_path, phones=20, seconds=3)

    assert outcome.errors == []
    phones = outcome.run.phones
    assert all(phone.saved > 0 for phone in phones)
    assert {phone.table.session_id: phone.saved for phone in phones} == outcome.rounds
    assert outcome.rounds_after - outcome.rounds_before == outcome.submits
    assert outcome.rounds_exact
    for page in load.PAGES:
        assert len(outcome.seconds(page)) >= len(phones), f"a phone missed the {page}"
        assert outcome.server_ms[page], f"gunicorn logged no {page}"
