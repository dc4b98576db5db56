"""Fixtures shared by the web tests: app, client, runner (as in Flask's tutorial)."""

import functools
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import jinja2
import pytest
import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.extensions import db


def pytest_configure(config):
    """Under pytest-xdist (``-n 2``), each worker has a PostgreSQL database of
    its own, named after DATABASE_URL's with the worker's name added, and made
    if missing: that needs the CREATEDB privilege. Set here, before any test
    module is imported, it reaches the gunicorn servers the tests start too."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("DATABASE_URL")
    if worker and url:
        os.environ["DATABASE_URL"] = url = worker_database(url, worker)
    if url:
        commit_without_waiting_for_the_disk(url)


def commit_without_waiting_for_the_disk(url):
    """A test database's commits return before its log reaches the disk
    (synchronous_commit off: a crash could lose the last ones, never corrupt
    them). The suite commits thousands of times; each waited for an fsync."""
    target = sa.make_url(url)
    engine = sa.create_engine(target, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            quote = engine.dialect.identifier_preparer.quote
            connection.execute(sa.text(
                f"ALTER DATABASE {quote(target.database)} SET synchronous_commit TO off"))
    finally:
        engine.dispose()


def worker_database(url, worker):
    shared = sa.make_url(url)
    own = shared.set(database=f"{shared.database}_{worker}")
    engine = sa.create_engine(shared, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            exists = connection.scalar(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": own.database})
            if not exists:
                quote = engine.dialect.identifier_preparer.quote
                connection.execute(sa.text(f"CREATE DATABASE {quote(own.database)}"))
    finally:
        engine.dispose()
    return own.render_as_string(hide_password=False)


def drop_everything():
    """Drop every table, including ones the models don't know (alembic_version)."""
    metadata = sa.MetaData()
    metadata.reflect(db.engine)
    metadata.drop_all(db.engine)


def empty_tables():
    """The models' tables, and only those, with no rows. On PostgreSQL, tables
    already there are emptied row by row and their id sequences restarted:
    dropping and creating them for every test took most of the suite's time
    there, and TRUNCATE still took eight times as long as this. SQLite numbers
    the rows of an empty table from 1 again by itself."""
    if set(sa.inspect(db.engine).get_table_names()) == set(db.metadata.tables):
        with db.engine.begin() as connection:
            for table in reversed(db.metadata.sorted_tables):
                connection.execute(table.delete())
            if db.engine.dialect.name != "postgresql":
                return
            for table in db.metadata.sorted_tables:
                key = table.primary_key.columns
                if len(key) == 1 and key[0].autoincrement in (True, "auto") \
                        and isinstance(key[0].type, sa.Integer):
                    connection.execute(
                        sa.text("SELECT setval(pg_get_serial_sequence(:table, :column), 1, false)"),
                        {"table": table.name, "column": key[0].name})
    else:
        drop_everything()
        db.create_all()


@functools.cache
def empty_sqlite_file() -> Path:
    """A SQLite file with the models' tables and no rows, made once a run:
    copying it is quicker than creating the tables for every test."""
    path = Path(tempfile.mkdtemp()) / "empty.sqlite3"
    engine = sa.create_engine(f"sqlite:///{path}")
    db.metadata.create_all(engine)
    engine.dispose()
    return path


@pytest.fixture(scope="session", autouse=True)
def no_tables_left():
    """A test run starts and ends with no table in DATABASE_URL's database, so
    that tables a test leaves for the next (see empty_tables) never outlive
    the models they were made from."""
    url = os.environ.get("DATABASE_URL")
    if url is None:
        yield
        return
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})

    def drop():
        with app.app_context():
            drop_everything()
            db.engine.dispose()

    drop()
    yield
    drop()


TEST_SECRET_KEY = "a secret key for tests, long enough to sign"


class CompiledTemplates(jinja2.BytecodeCache):
    """The templates compiled once for the test run, not once for each test's
    app (each has an environment of its own): that took a fifth of the suite's
    time. Jinja recompiles a template whose source changed."""

    def __init__(self):
        self.code = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


@contextmanager
def fresh_app(folder, **config):
    """An app on empty tables: in PostgreSQL when DATABASE_URL is set, else in
    a new SQLite file in ``folder``."""
    url = os.environ.get("DATABASE_URL")
    emptied = False
    if url is None:
        sqlite_file = folder / "test.sqlite3"
        if not sqlite_file.exists():
            shutil.copyfile(empty_sqlite_file(), sqlite_file)
            emptied = True
        url = f"sqlite:///{sqlite_file}"
    app = create_app({
        "SQLALCHEMY_DATABASE_URI": url,
        # A werkzeug hash far quicker than Argon2id: tests make hundreds.
        "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000",
        "SECRET_KEY": TEST_SECRET_KEY,
        **config,
    })
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    if not emptied:
        with app.app_context():
            empty_tables()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="module")
def module_app(tmp_path_factory):
    with fresh_app(tmp_path_factory.mktemp("app"), TESTING=True, WTF_CSRF_ENABLED=True) as app:
        yield app


@pytest.fixture
def app(request, tmp_path):
    """The test module's app, on empty tables, with the settings it was made
    with (a test's changes are undone after it). One app for a module, not one
    for each test: making it took a seventh of the suite's time, and each new
    one started with no statement compiled and no database connection. A test
    that adds a route or a hook to it has one of its own (``own_app``)."""
    if request.node.get_closest_marker("own_app"):
        with fresh_app(tmp_path, TESTING=True, WTF_CSRF_ENABLED=True) as app:
            yield app
        return
    module_app = request.getfixturevalue("module_app")
    settings = dict(module_app.config)
    with module_app.app_context():
        empty_tables()
    yield module_app
    module_app.config.clear()
    module_app.config.update(settings)


GROUP_NAME = "Friday table"
PASSPHRASE = "four of a kind"


def signed_in_client(app, group, device="Test phone"):
    """A test client whose cookie is signed in to ``group``, as after sign-in
    (but with no device cookie)."""
    from scorekeeper import services
    from scorekeeper.web.access import today

    with app.app_context():
        sign_in = services.sign_in_phone(group)
    client = app.test_client()
    with client.session_transaction() as cookie:
        cookie["group_id"] = group.id
        cookie["sign_in"] = sign_in
        cookie["device"] = device
        cookie["day"] = today()
    return client


def the_group():
    """The tests' group, in the current app context: made if not there yet."""
    from scorekeeper import services
    from scorekeeper.models import Group

    return db.session.scalar(sa.select(Group).where(Group.name_key == GROUP_NAME.casefold())) \
        or services.create_group(GROUP_NAME, PASSPHRASE)


@pytest.fixture
def group(app):
    """The group that the ``client`` fixture is signed in to."""
    with app.app_context():
        group = the_group()
        db.session.refresh(group)
        db.session.expunge(group)
    return group


@pytest.fixture
def client(app, group):
    return signed_in_client(app, group)


@pytest.fixture
def anonymous(app):
    """A client that is signed in to no group."""
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
