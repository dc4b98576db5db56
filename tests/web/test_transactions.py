"""Which requests hold a database transaction: pages read outside one (on
PostgreSQL, no BEGIN and no ROLLBACK round trip), saves write inside one."""

import pytest
import sqlalchemy as sa
from flask import has_request_context, request

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Group
from tests.conftest import fresh_app
from tests.web.examples import EXAMPLE_RULES, TYPED_1, TYPED_2
from tests.web.helpers import filled


@pytest.fixture
def app(tmp_path):
    # One pooled connection: the save reuses the connection the pages read on.
    with fresh_app(tmp_path, TESTING=True,
                   SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0}) as app:
        yield app


@pytest.fixture
def session_id(app, group):
    """The table of the ``table`` fixture, whose app context would stay pushed
    through the test: the requests would then share its database session."""
    with app.app_context():
        game = services.start_session(services.Change(db.session.get(Group, group.id)),
                                      list("ABCD"),
                                      EXAMPLE_RULES, first_dealer="D")
        session_id = game.id
        db.session.remove()
    return session_id


def in_transaction(dbapi_connection, dialect: str) -> bool:
    if dialect == "postgresql":
        from psycopg.pq import TransactionStatus
        return dbapi_connection.info.transaction_status != TransactionStatus.IDLE
    return dbapi_connection.in_transaction


@pytest.fixture
def executed(app):
    """(method, first word, inside a transaction?) of each statement a request runs."""
    with app.app_context():
        engine = db.engine
    seen = []

    def note(conn, cursor, statement, *args):
        if has_request_context():
            seen.append((request.method, statement.split(None, 1)[0].upper(),
                         in_transaction(conn.connection.driver_connection, engine.dialect.name)))

    sa.event.listen(engine, "after_cursor_execute", note)
    yield seen
    sa.event.remove(engine, "after_cursor_execute", note)


def test_pages_read_outside_a_transaction_and_a_save_writes_inside_one(
        app, client, session_id, executed):
    board = f"/sessions/{session_id}"
    for typed in (TYPED_1, TYPED_2):  # the second on the connection the first save used
        assert client.get(board).status_code == 200
        form = client.get(f"{board}/rounds/new").get_data(as_text=True)
        with app.app_context():
            fields = filled(form, typed)
            db.session.remove()  # the pool's one connection, back for the save
        assert client.post(f"{board}/rounds/new", data=fields).status_code == 302
        assert client.get(f"{board}/settle").status_code == 200
    reads = [inside for method, _, inside in executed if method == "GET"]
    writes = [inside for method, verb, inside in executed
              if method == "POST" and verb in ("INSERT", "UPDATE", "DELETE")]
    assert len(reads) >= 10 and len(writes) >= 4
    assert not any(reads)
    assert all(writes)
