"""Failing well: an unreachable database answers 503 with a page that needs
none, a Host header that is no host name answers 400, and a failed statement
logs no values."""

import io
import json
import logging

import pytest
import sqlalchemy as sa
from werkzeug.test import EnvironBuilder, run_wsgi_app

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.logs import JsonFormatter
from scorekeeper.models import Group
from tests.web.helpers import assert_safe_headers

KEY = "failing-well-secret-key-of-some-length"


# The database is unreachable


UNREACHABLE = {
    "sqlite": "sqlite:///{tmp}/no/such/folder/scorekeeper.sqlite3",
    "postgresql": "postgresql://nobody:secret@127.0.0.1:1/nothing?connect_timeout=1",
}


@pytest.fixture(params=list(UNREACHABLE))
def down(request, tmp_path):
    """An app whose database cannot be reached."""
    app = create_app({"TESTING": True, "SECRET_KEY": KEY,
                      "SQLALCHEMY_DATABASE_URI": UNREACHABLE[request.param].format(tmp=tmp_path)})
    yield app
    with app.app_context():
        db.engine.dispose()


def member(app):
    """A phone whose cookie names a group (which only the database could confirm)."""
    phone = app.test_client()
    with phone.session_transaction() as cookie:
        cookie.update(group_id=1, sign_in="a sign-in's token of 43 characters ........",
                      device="Test phone")
    return phone


def errors(caplog):
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("what, who, method, url", [
    ("home of a group", "member", "GET", "/"),
    ("a group's page", "member", "GET", "/sessions/1"),
    ("history", "member", "GET", "/history"),
    ("sign in", "anonymous", "POST", "/sign-in"),
    ("a group's form", "member", "POST", "/sessions/1/end"),
])
def test_every_kind_of_page_answers_503_without_the_database(down, caplog, what, who,
                                                             method, url):
    down.config["WTF_CSRF_ENABLED"] = False  # so that a POST reaches the database
    phone = member(down) if who == "member" else down.test_client()
    caplog.clear()
    response = phone.open(url, method=method, data={
        "name": "Friday table", "passphrase": "four of a kind", "device": "Phone"})
    assert response.status_code == 503, what
    assert response.headers["Retry-After"] == "30"
    assert response.cache_control.no_store
    assert "Back in a moment" in response.text and "<title>Back in a moment · " in response.text
    assert "Sign in</a>" not in response.text and "History</a>" not in response.text
    assert "secret" not in response.text and "Error" not in response.text
    assert_safe_headers(response)
    (record,) = errors(caplog)  # one line, with the reason and no traceback
    assert record.getMessage().startswith("The database is unavailable: OperationalError: ")
    assert record.exc_info is None
    assert "secret" not in record.getMessage()


def test_the_503_line_is_one_json_line_with_the_reason(down):
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    handler.setFormatter(JsonFormatter())
    down.logger.addHandler(handler)
    try:
        assert member(down).get("/history").status_code == 503
    finally:
        down.logger.removeHandler(handler)
    (line,) = lines.getvalue().splitlines()
    entry = json.loads(line)
    assert entry["level"] == "ERROR" and entry["path"] == "/history"
    assert entry["error"] == "OperationalError" and "traceback" not in entry


def test_pages_that_need_no_data_answer_or_say_503(down):
    """On PostgreSQL every GET begins by taking a connection."""
    for url in ("/", "/sign-in"):
        assert down.test_client().get(url).status_code == (
            503 if "postgresql" in down.config["SQLALCHEMY_DATABASE_URI"] else 200)


def test_error_pages_of_a_signed_in_phone_need_no_database(down):
    """A 404 or a refused form keeps its status when base.html cannot ask
    which group is signed in."""
    phone = member(down)
    missing = phone.get("/no/such/page")
    assert missing.status_code == 404 and "Page not found" in missing.text
    refused = phone.post("/sign-out")  # no CSRF token
    assert refused.status_code == 400 and "The form had expired" in refused.text
    for response in (missing, refused):
        assert "History</a>" not in response.text
        assert_safe_headers(response)


def test_healthz_stays_json(down):
    response = member(down).get("/healthz")
    assert response.status_code == 503
    assert response.json == {"status": "error", "database": "unreachable"}


# A Host header that is no host name


BAD_HOSTS = ["a" * 64 + ".example", "a" * 64, "a..b", ".", "a" * 300]
ODD_HOSTS = ["ex ample.com", "ex<ample>.com", "例え.jp", "xn--zz.example", "host:notaport",
             "[::1]:80", "ex%61mple", "-.-", "x" * 63 + ".example:8000", ""]
ROUTES = ["/", "/healthz", "/sign-in", "/history", "/no/such/page", "/static/css/app.css",
          "/share/nothing"]


def request(app, host, path, method="GET"):
    """A request with this Host header, as a server hands it over (the test
    client itself cannot read some of them)."""
    environ = EnvironBuilder(path=path, method=method, headers={"Host": host}).get_environ()
    body, status, headers = run_wsgi_app(app, environ, buffered=True)
    return int(status.split()[0]), b"".join(body).decode(), headers


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_a_host_that_is_no_host_name_answers_400(app, host):
    for path in ROUTES:
        status, html, headers = request(app, host, path)
        assert status == 400, path
        assert "That request could not be used" in html
        assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    status, html, _ = request(app, host, "/sign-in", method="POST")
    assert status == 400


@pytest.mark.parametrize("host", ODD_HOSTS)
def test_no_host_header_makes_a_500(app, host):
    for path in ROUTES:
        status, _, _ = request(app, host, path)
        assert status in (200, 302, 400, 404), path


def test_a_signed_in_phone_sending_a_bad_host_gets_the_400_page(client):
    response = client.get("/history", headers={"Host": "a" * 64 + ".example"})
    assert response.status_code == 400
    assert "That request could not be used" in response.text


@pytest.mark.own_app
def test_a_failed_statement_shows_the_500_page_without_asking_the_database_again(app, client,
                                                                              caplog):
    """After a failed INSERT the session must be rolled back before its next
    statement: base.html does not ask it which group is signed in."""
    app.testing = False  # let the 500 handler answer instead of re-raising
    app.config["WTF_CSRF_ENABLED"] = False
    with app.app_context():
        add_group("Secretive table", "$argon2id$first")
    app.add_url_rule("/_broken", "broken", lambda: add_group("Secretive table"),
                     methods=["POST"])
    caplog.clear()
    response = client.post("/_broken")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert len(errors(caplog)) == 1  # Flask's line with the traceback, and no second one


# Failed statements log no values


SECRET_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHlzYWx0$SECRETHASHVALUEHERE"


def add_group(name, hash_=SECRET_HASH):
    named = {"name": name} if name is not None else {}  # no name: a NOT NULL refusal
    db.session.add(Group(passphrase_hash=hash_, **named))
    db.session.commit()


def test_an_integrity_error_names_no_values(app):
    with app.app_context():
        add_group("Secretive table", "$argon2id$first")
        with pytest.raises(sa.exc.IntegrityError) as caught:
            add_group("Secretive table")
        db.session.rollback()
    message = str(caught.value)
    assert "[SQL parameters hidden due to hide_parameters=True]" in message
    assert SECRET_HASH not in message and "SECRETHASH" not in message
    assert "Secretive table" not in message  # the name (PostgreSQL shows its folded key)


def test_engine_options_given_elsewhere_keep_parameters_hidden(tmp_path):
    app = create_app({"SECRET_KEY": KEY, "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 1},
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'options.sqlite3'}"})
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {
        "pool_pre_ping": True, "hide_parameters": True, "pool_size": 1}
    with app.app_context():
        assert db.engine.hide_parameters


@pytest.mark.own_app
@pytest.mark.parametrize("name", ["Secretive table", None], ids=["name taken", "no name"])
def test_a_failed_insert_logs_no_values(app, name):
    """Neither SQLAlchemy's parameters nor PostgreSQL's DETAIL ("Failing row
    contains (…)", "Key (name_key)=(…)") reach the error line."""
    app.testing = False  # let the 500 handler answer instead of re-raising
    with app.app_context():
        add_group("Secretive table", "$argon2id$first")
    app.add_url_rule("/_insert", "insert", lambda: add_group(name))
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    handler.setFormatter(JsonFormatter())
    app.logger.addHandler(handler)
    try:
        response = app.test_client().get("/_insert")
    finally:
        app.logger.removeHandler(handler)
    assert response.status_code == 500 and "Something went wrong" in response.text
    (line,) = lines.getvalue().splitlines()
    entry = json.loads(line)
    assert entry["error"] == "IntegrityError" and "INSERT INTO player_group" in entry["traceback"]
    for value in ("SECRETHASH", "$argon2id$", "ecretive table", "Asia/"):
        assert value not in line, value
