"""Phones talking to a served app over real HTTP (werkzeug in threads, or
gunicorn): each its own cookies and a new connection per request."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from werkzeug.serving import WSGIRequestHandler, make_server

from tests.conftest import GROUP_NAME, PASSPHRASE
from tests.web.helpers import ROOT, token_in

SAVED = (302, 303)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Handler(WSGIRequestHandler):
    timeout = 10  # seconds: a connection kept alive idle ends, so the server can stop


@contextmanager
def serving(app) -> Iterator[int]:
    """``app`` served by werkzeug in threads on a free port (yielded). The
    live pages' streams end, and every request still being answered (a hand a
    closed page sent as it went) is finished, before the server stops: one
    left running would hold a database connection past the app's end."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_Handler)
    server.daemon_threads = False  # werkzeug's are daemons, which server_close() leaves
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        app.extensions["live_watch"].close()
        server.shutdown()
        thread.join()
        server.server_close()  # joins the threads answering requests


def released_together(calls: list[Callable[[], object]]) -> list:
    """Run the calls in threads released at the same moment; their answers,
    in the same order."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        answers[i] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(answer is not None for answer in answers), "a request never came back"
    return answers


class Phone:
    """A browser of its own: its own connection per request and its own cookies."""

    def __init__(self, port: int, label: str = "Test phone"):
        self.port = port
        self.label = label
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict | None = None,
                files: dict[str, bytes] | None = None):
        """(status, Location header, body text). With ``files``, the fields and
        the files ({field: content}) go as multipart/form-data."""
        answer = self.answer(method, path, fields, files)
        return answer.status, answer.headers.get("Location", ""), answer.text

    def answer(self, method: str, path: str, fields: dict | None = None,
               files: dict[str, bytes] | None = None) -> "Answer":
        """The whole answer, headers included."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body: str | bytes | None = None
        if files is not None:
            body, headers["Content-Type"] = _multipart(fields or {}, files)
        elif fields is not None:
            body = urlencode(fields, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            text = response.read().decode()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return Answer(response.status, response.headers, text)
        finally:
            connection.close()

    def send_json(self, path: str, token: str, body: dict) -> tuple[int, dict]:
        """A JSON POST as a page's script sends it (a hand, as together.js
        does), with the CSRF token in X-CSRFToken: (status, the JSON answer)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("POST", path, json.dumps(body), {
                "Content-Type": "application/json", "X-CSRFToken": token,
                "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())})
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def try_sign_in(self, passphrase: str = PASSPHRASE) -> tuple[int, str]:
        """Through the real sign-in form: (status, Location header)."""
        _, _, page = self.request("GET", "/sign-in")
        status, location, _ = self.request("POST", "/sign-in", {
            "csrf_token": token_in(page), "name": GROUP_NAME, "passphrase": passphrase,
            "device": self.label, "next": ""})
        return status, location

    def sign_in(self) -> "Phone":
        """Signed in, as the phone's owner would."""
        status, location = self.try_sign_in()
        assert status in SAVED and location.endswith("/"), status
        return self

    def sign_out(self) -> "Phone":
        _, _, page = self.request("GET", "/group")
        status, _, _ = self.request("POST", "/sign-out", {"csrf_token": token_in(page)})
        assert status in SAVED, status
        return self

    def stream(self, path: str) -> "Stream":
        """A live page's stream of the session's state, opened as a browser would."""
        return Stream(self, path)


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    text: str


def _multipart(fields: dict, files: dict[str, bytes]) -> tuple[bytes, str]:
    """A multipart/form-data body and its Content-Type."""
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
             f"{value}\r\n".encode() for name, value in fields.items()]
    parts += [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
              f'filename="{name}.json"\r\nContent-Type: application/json\r\n\r\n'.encode()
              + content + b"\r\n" for name, content in files.items()]
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), (
        f"multipart/form-data; boundary={boundary}")


class Stream:
    """An open server-sent events stream: ``next_state()`` reads up to the next
    event and returns its data."""

    def __init__(self, phone: Phone, path: str, timeout: float = 15):
        self.connection = http.client.HTTPConnection("127.0.0.1", phone.port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if phone.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        self.connection.request("GET", path, headers=headers)
        self.socket = self.connection.sock  # the connection lets it go if the answer ends it
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def first(self) -> tuple[int, dict]:
        """The stream's opening: (its ``retry:`` in ms, the state)."""
        retry = self.response.readline()
        assert retry.startswith(b"retry: "), retry
        return int(retry[len(b"retry: "):]), self.next_state()

    def next_state(self) -> dict:
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            if line.startswith(b"data: "):
                return json.loads(line[len(b"data: "):])

    def close(self) -> None:
        """As a browser leaving the page: the connection closed (the response
        holds the socket too)."""
        self.response.close()
        self.connection.close()

    def leave(self) -> None:
        """As a browser leaving the page, but still reading: the server sees
        the client gone as it does a closed connection (it looks with a
        peek), and its end of the stream arrives once it has given the
        stream's place back."""
        self.socket.shutdown(socket.SHUT_WR)
        while self.response.readline():
            pass
        self.close()


class Gunicorn:
    """gunicorn.conf.py as deployed, on the test's database; ``config`` is
    passed to create_app (literals only) and ``options`` to gunicorn's
    command line (which wins over the file). Its streams look for their
    client's end often, so that a stream closed ends (and the server with
    it) at once, not in 5 s."""

    LOOK_SECONDS = 0.1

    def __init__(self, app, tmp_path, workers=3, config: dict | None = None,
                 options: tuple[str, ...] = ()):
        tmp_path.mkdir(parents=True, exist_ok=True)  # for gunicorn's control socket
        self.port = free_port()
        config_with_look = {"LIVE_LOOK_SECONDS": self.LOOK_SECONDS, **(config or {})}
        self.command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", *options,
                        f"scorekeeper:create_app({config_with_look!r})"]
        self.environ = {**os.environ, "PORT": str(self.port), "WEB_CONCURRENCY": str(workers),
                        "SECRET_KEY": app.config["SECRET_KEY"],
                        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
                        "XDG_RUNTIME_DIR": str(tmp_path)}

    def __enter__(self):
        self.server = subprocess.Popen(self.command, cwd=ROOT, env=self.environ,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                if Phone(self.port).request("GET", "/healthz")[0] == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.2)

    def __exit__(self, *exc):
        # gunicorn's quick shutdown: a graceful one waits a second or more
        # for connections the test has done with.
        self.server.send_signal(signal.SIGQUIT)
        self.server.wait(timeout=20)


