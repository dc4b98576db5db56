"""Serving in production: /healthz, fingerprinted static files, compression, the
proxy setting, JSON logs, and gunicorn.conf.py run for real."""

import gc
import gzip
import hashlib
import io
import json
import logging
import os
import re
import resource
import runpy
import socket
import subprocess
import sys
import time
import types
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urljoin

import brotli
import pytest
from flask import Flask, request, url_for

from scorekeeper import create_app
from scorekeeper.config import from_env
from scorekeeper.logs import JsonFormatter
from scorekeeper.web import static_files
from scorekeeper.web.static_files import MINIFIERS
from tests.conftest import fresh_app
from tests.web.helpers import ROOT, assert_safe_headers
from tests.web.phones import Gunicorn, free_port, released_together, serving

pytestmark = pytest.mark.any_database

STATIC = ROOT / "static"
GUNICORN_CONF = ROOT / "gunicorn.conf.py"
KEY = "serving-secret-key-long-enough-to-sign"
STYLESHEET = re.compile(r'href="(/static/css/app\.([0-9a-f]{8})\.css)"')
MODULE = re.compile(r'<script type="module" src="(/static/js/[^"]+)"')


def short_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


def sent(path) -> bytes:
    """A script or stylesheet as it is sent: minified (web/static_files.py)."""
    return MINIFIERS[path.suffix](path.read_text()).encode()


def body(response) -> bytes:
    with response:  # closes the file of a static response
        return response.get_data()


# /healthz


def test_healthz_says_ok_when_the_database_answers(anonymous):
    response = anonymous.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok", "database": "ok"}
    assert response.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response.headers
    assert_safe_headers(response)


@pytest.mark.parametrize("url", [
    "sqlite:///{tmp}/no/such/folder/scorekeeper.sqlite3",
    "postgresql://nobody:secret@127.0.0.1:9/nothing?connect_timeout=2",  # a closed port
], ids=["sqlite", "postgresql"])
def test_healthz_answers_503_when_the_database_is_unreachable(tmp_path, caplog, url):
    app = create_app({"TESTING": True, "SECRET_KEY": KEY,
                      "SQLALCHEMY_DATABASE_URI": url.format(tmp=tmp_path)})
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.json == {"status": "error", "database": "unreachable"}
    assert response.headers["Cache-Control"] == "no-store"
    assert b"secret" not in response.data and b"Error" not in response.data
    assert_safe_headers(response)
    (record,) = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert record.levelno == logging.WARNING and record.exc_info


@pytest.mark.parametrize("url", [
    "sqlite:///{tmp}/no/such/folder/scorekeeper.sqlite3",
    "postgresql://nobody:secret@127.0.0.1:9/nothing?connect_timeout=2",  # a closed port
], ids=["sqlite", "postgresql"])
def test_a_missing_page_and_the_stylesheet_need_no_database(tmp_path, url):
    app = create_app({"TESTING": True, "SECRET_KEY": KEY,
                      "SQLALCHEMY_DATABASE_URI": url.format(tmp=tmp_path)})
    client = app.test_client()
    assert client.get("/no/such/page").status_code == 404
    stylesheet = client.get("/static/css/app.css")
    assert stylesheet.status_code == 200
    assert body(stylesheet) == sent(STATIC / "css" / "app.css")


# Fingerprinted static files


def test_pages_link_the_stylesheet_by_a_name_with_its_hash(anonymous):
    html = anonymous.get("/").text
    digest = STYLESHEET.search(html).group(2)
    assert digest == short_hash(STATIC / "css" / "app.css")


def test_a_fingerprinted_file_is_cached_for_a_year(anonymous):
    url = STYLESHEET.search(anonymous.get("/").text).group(1)
    fingerprinted = anonymous.get(url)
    assert fingerprinted.status_code == 200
    assert fingerprinted.mimetype == "text/css"
    assert set(fingerprinted.headers["Cache-Control"].split(", ")) == {
        "public", "max-age=31536000", "immutable"}
    assert body(fingerprinted) == sent(STATIC / "css" / "app.css")


def test_the_plain_name_still_answers_for_a_short_while(anonymous):
    plain = anonymous.get("/static/css/app.css")
    assert plain.status_code == 200
    assert "immutable" not in plain.headers["Cache-Control"]
    assert plain.cache_control.max_age == static_files.PLAIN_MAX_AGE
    assert body(plain) == sent(STATIC / "css" / "app.css")


def test_a_cached_copy_is_revalidated_by_its_etag(anonymous):
    headers = {"Accept-Encoding": "gzip"}
    with anonymous.get("/static/css/app.css", headers=headers) as first:
        etag = first.headers["ETag"]
    with anonymous.get("/static/css/app.css", headers={**headers, "If-None-Match": etag}) as again:
        assert (again.status_code, again.data) == (304, b"")


def test_an_old_hash_redirects_to_the_current_file(anonymous):
    response = anonymous.get("/static/css/app.0123abcd.css")
    assert response.status_code == 302
    fingerprint = short_hash(STATIC / "css" / "app.css")
    assert response.headers["Location"] == f"/static/css/app.{fingerprint}.css"
    assert "immutable" not in response.headers.get("Cache-Control", "")


@pytest.mark.parametrize("path", ["css/nothing.0123abcd.css", "css/nothing.css",
                                  "../pyproject.toml", "css/../../pyproject.toml",
                                  "%2e%2e/pyproject.toml", "css", "css/app"])
def test_no_other_name_is_served(anonymous, path):
    assert anonymous.get(f"/static/{path}").status_code == 404


def test_module_scripts_are_fingerprinted_and_their_relative_imports_resolve(client):
    html = client.get("/sessions/new").text
    (script,) = [src for src in MODULE.findall(html) if "/sessions." in src]
    assert re.fullmatch(r"/static/js/sessions\.[0-9a-f]{8}\.js", script)
    loaded = client.get(script)
    assert loaded.status_code == 200 and loaded.mimetype == "text/javascript"
    assert body(loaded) == sent(STATIC / "js" / "sessions.js")
    # `import ... from './cards.js'` in a fingerprinted module asks for the plain
    # name, which answers, so modules may import each other.
    imported = client.get(urljoin(script, "./cards.js"))
    assert imported.status_code == 200 and imported.mimetype == "text/javascript"
    imported.close()


@pytest.fixture
def little_site(tmp_path):
    """A bare app whose static folder is a temporary one, to edit files in."""
    app = Flask(__name__, static_folder=None)
    static_files.init_app(app, tmp_path)
    (tmp_path / "site.css").write_text("p { color: black }")
    return app, tmp_path / "site.css"


def edit(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns
    path.write_text(text)
    os.utime(path, ns=(before + 10**9, before + 10**9))  # a visibly later mtime


def fingerprinted_url(app):
    with app.test_request_context():
        return url_for("static", filename="site.css")


def test_in_debug_mode_the_hash_follows_edits(little_site):
    app, css = little_site
    app.debug = True
    first = fingerprinted_url(app)
    edit(css, "p { color: red }")
    second = fingerprinted_url(app)
    assert first != second
    assert second == f"/static/site.{short_hash(css)}.css"
    with app.test_client().get(second) as response:
        assert response.data == b"p{color:red}"  # minified


def test_otherwise_the_hash_is_read_once(little_site):
    app, css = little_site
    first = fingerprinted_url(app)
    edit(css, "p { color: red }")
    assert fingerprinted_url(app) == first


# Compression


def test_pages_are_gzipped_when_the_browser_accepts_it(client):
    response = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    html = gzip.decompress(response.data).decode()
    assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
    assert len(response.data) < len(html) / 2
    assert_safe_headers(response)


def test_brotli_is_preferred_to_gzip(client):
    response = client.get("/", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.headers["Content-Encoding"] == "br"
    assert brotli.decompress(response.data).decode().startswith("<!doctype html>")


def test_nothing_is_compressed_for_a_client_that_does_not_ask(client):
    response = client.get("/")
    assert "Content-Encoding" not in response.headers
    assert response.text.startswith("<!doctype html>")
    assert "Accept-Encoding" in response.headers["Vary"]


def test_static_files_are_compressed_too(anonymous):
    url = STYLESHEET.search(anonymous.get("/").text).group(1)
    response = anonymous.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "immutable" in response.headers["Cache-Control"]
    assert gzip.decompress(body(response)) == sent(STATIC / "css" / "app.css")
    assert_safe_headers(response)


def test_a_fingerprinted_file_goes_in_brotli_at_its_best(anonymous):
    url = MODULE.search(anonymous.get("/").text).group(1)
    source = (STATIC / "js" / url.rsplit("/", 1)[1].split(".")[0]).with_suffix(".js")
    phone = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium sends
    with anonymous.get(url, headers=phone) as response:
        assert response.headers["Content-Encoding"] == "br"
        assert "immutable" in response.headers["Cache-Control"]
        assert "Accept-Encoding" in response.headers["Vary"]
        assert brotli.decompress(response.data) == sent(source)
        # Smaller than brotli at Flask-Compress's level for pages, made anew each time.
        assert len(response.data) < len(brotli.compress(sent(source), quality=4))
        etag = response.headers["ETag"]
    with anonymous.get(url, headers={**phone, "If-None-Match": etag}) as again:
        assert (again.status_code, again.data) == (304, b"")
    assert_safe_headers(response)


# Behind a reverse proxy


def where_am_i(app):
    app.add_url_rule("/_where", "where", lambda: {
        "url": url_for("home.index", _external=True), "client": request.remote_addr})
    return app.test_client().get("/_where", headers={
        "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"},
        environ_base={"REMOTE_ADDR": "127.0.0.1"}).json


def test_with_proxy_fix_the_forwarded_scheme_and_address_count(tmp_path):
    with fresh_app(tmp_path, TESTING=True, SECRET_KEY=KEY, PROXY_FIX=1) as app:
        assert where_am_i(app) == {"url": "https://localhost/", "client": "203.0.113.7"}


def test_without_proxy_fix_forwarded_headers_are_ignored(tmp_path):
    with fresh_app(tmp_path, TESTING=True, SECRET_KEY=KEY) as app:
        assert where_am_i(app) == {"url": "http://localhost/", "client": "127.0.0.1"}


def test_proxy_fix_comes_from_the_environment():
    assert from_env({"PROXY_FIX": "2"}) == {"PROXY_FIX": 2}
    assert from_env({}) == {}


# JSON logs


@pytest.mark.own_app
def test_an_error_is_logged_as_one_json_line_with_its_traceback(app):
    app.testing = False  # let the 500 handler answer instead of re-raising
    app.add_url_rule("/_boom", "boom", lambda: 1 / 0)
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    handler.setFormatter(JsonFormatter())
    app.logger.addHandler(handler)
    try:
        response = app.test_client().get("/_boom", headers={"X-Request-ID": "req-42"})
    finally:
        app.logger.removeHandler(handler)
    assert response.status_code == 500
    assert response.headers["X-Request-ID"] == "req-42"
    (line,) = lines.getvalue().splitlines()
    entry = json.loads(line)
    assert entry["level"] == "ERROR"
    assert (entry["method"], entry["path"], entry["request_id"]) == ("GET", "/_boom", "req-42")
    assert entry["remote_addr"] == "127.0.0.1"
    assert entry["error"] == "ZeroDivisionError"
    assert "Traceback" in entry["traceback"] and "1 / 0" in entry["traceback"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", entry["time"])


def test_each_response_has_a_request_id_of_its_own(anonymous):
    ids = {anonymous.get("/healthz").headers["X-Request-ID"] for _ in range(3)}
    assert len(ids) == 3 and all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    given = anonymous.get("/healthz", headers={"X-Request-ID": "bad id\x7f"})
    assert given.headers["X-Request-ID"] != "bad id\x7f"


# gunicorn.conf.py


def gunicorn_settings(monkeypatch, **environ) -> dict:
    for name in ("PORT", "WEB_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(GUNICORN_CONF))


def test_gunicorn_listens_on_loopback_unless_given_a_port(monkeypatch):
    settings = gunicorn_settings(monkeypatch)
    assert settings["bind"] == "127.0.0.1:8000"
    assert 3 <= settings["workers"] <= 8
    settings = gunicorn_settings(monkeypatch, PORT="5001", WEB_CONCURRENCY="3")
    assert (settings["bind"], settings["workers"]) == ("0.0.0.0:5001", 3)


def test_a_gunicorn_worker_keeps_room_for_pages_beside_its_streams(monkeypatch):
    settings = gunicorn_settings(monkeypatch)
    app_settings = runpy.run_path(str(ROOT / "scorekeeper" / "config.py"))
    assert settings["worker_connections"] >= 2 * app_settings["LIVE_STREAMS_PER_PROCESS"]


def test_gunicorn_raises_the_limit_on_open_files_to_what_its_workers_take(monkeypatch):
    settings = gunicorn_settings(monkeypatch)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    server = types.SimpleNamespace(cfg=types.SimpleNamespace(worker_connections=2000))
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
        settings["on_starting"](server)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == min(
            2000 + settings["SPARE_FILES"], hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_gunicorn_worker_keeps_the_loaded_app_out_of_the_collectors_way(monkeypatch):
    settings = gunicorn_settings(monkeypatch)
    threshold = gc.get_threshold()
    try:
        settings["post_worker_init"](None)
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == settings["GC_YOUNG_THRESHOLD"] > threshold[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def fetch(url, **headers):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_for(base, seconds=15):
    """Until the server accepts connections."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_gunicorn_logs_each_request_as_one_json_line(tmp_path):
    port = free_port()
    environ = {**os.environ, "PORT": str(port), "WEB_CONCURRENCY": "1", "SECRET_KEY": KEY,
               "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}",
               "XDG_RUNTIME_DIR": str(tmp_path)}  # gunicorn's control socket goes there
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "scorekeeper:create_app()"],
        cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base)
        assert fetch(f"{base}/healthz", **{"X-Request-ID": "probe-1"})[0] == 200
        assert fetch(f"{base}/no-such-page")[0] == 404
    finally:
        server.terminate()
        out, err = server.communicate(timeout=10)
    access = [json.loads(line) for line in out.splitlines()]
    assert [(a["method"], a["path"], a["status"]) for a in access] == [
        ("GET", "/healthz", 200), ("GET", "/no-such-page", 404)]
    assert access[0]["request_id"] == "probe-1"
    assert re.fullmatch(r"[0-9a-f]{32}", access[1]["request_id"])
    for entry in access:
        assert entry["remote_addr"] == "127.0.0.1"
        assert entry["level"] == "INFO" and entry["logger"] == "gunicorn.access"
        assert isinstance(entry["duration_ms"], float) and entry["duration_ms"] >= 0
    errors = [json.loads(line) for line in err.splitlines()]
    assert any(f"Listening at: http://0.0.0.0:{port}" in e["message"] for e in errors)


def test_an_editable_install_serves_from_any_directory(tmp_path):
    """The package finds templates/, static/ and migrations/ in its checkout
    wherever the command is started from."""
    environ = {**os.environ, "SECRET_KEY": "k" * 40,
               "DATABASE_URL": f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"}
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    page = subprocess.run(
        [sys.executable, "-c", "from scorekeeper import create_app; "
         "print(create_app().test_client().get('/').status_code)"],
        cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=60)
    assert page.stdout.strip() == "200", page.stderr


def test_without_its_checkout_the_app_says_how_to_install_it(monkeypatch, tmp_path):
    from scorekeeper import app as factory

    monkeypatch.setattr(factory, "ROOT", tmp_path)
    with pytest.raises(factory.NotInCheckout, match="pip install -e"):
        factory.create_app({"SECRET_KEY": "k" * 40})


# Slow request bodies


SLOW_BODIES = {  # a head, and the first bytes of a body that then stops coming
    "length": b"Content-Length: 100\r\n\r\nname=Fri",
    "chunked": b"Transfer-Encoding: chunked\r\n\r\n8\r\nname=Fri\r\n",
}


def slow_sign_in(port: int, body: bytes) -> bytes:
    """What the server answers a sign-in whose body stops coming, read until
    it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(b"POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           b"Content-Type: application/x-www-form-urlencoded\r\n" + body)
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
    return answer


def test_gunicorn_answers_a_body_that_stops_coming_408_and_closes(app, tmp_path):
    with Gunicorn(app, tmp_path, workers=2, config={"BODY_GRACE_SECONDS": 1}) as server:
        answers = released_together(
            [lambda body=body: slow_sign_in(server.port, body) for body in SLOW_BODIES.values()])
    for answer in answers:  # with a length, and chunked
        assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
        assert answer.endswith(b"came too slowly: please try again.\n")


@pytest.mark.parametrize("body", SLOW_BODIES.values(), ids=SLOW_BODIES.keys())
def test_the_development_server_cuts_a_slow_body_too(tmp_path, body):
    with fresh_app(tmp_path, TESTING=True, BODY_GRACE_SECONDS=0.5) as app, serving(app) as port:
        assert slow_sign_in(port, body).startswith(b"HTTP/1.1 408 Request Timeout\r\n")
