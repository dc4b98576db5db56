"""Request bodies that come too slowly are cut: 408, and the connection closed.

gunicorn reads a request's head under its keepalive timeout, but leaves the
body to the app, which would wait for it for ever: a client sending a byte now
and then kept a connection, and a place in its worker's pool, as long as it
liked. This WSGI middleware reads the body whole before the app runs, and the
body must keep pace: its n-th byte within ``grace + n / rate`` seconds of the
start (Apache's mod_reqtimeout counts the same way, "body=20,MinRate=500").
A body that falls behind is answered 408 and its connection closed: werkzeug
closes every connection, and gunicorn, which keeps the app's Connection
header to itself, finds the read side shut and closes it after the answer.

A watchdog (a thread; a greenlet under gevent's workers) shuts the socket's
read side when the body falls behind, which ends the read blocked on it: a
socket timeout would start again with every byte that trickles in. It needs
the server to hand over the socket (gunicorn's ``gunicorn.socket``,
werkzeug's ``werkzeug.socket``); without one (the test client) the body is in
memory already and the app reads it as it is. Over HTTP/2 the socket carries
other requests too, and is left alone.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Callable, Iterable

from .client_socket import client_socket

# The body is read this much at a time, and the watchdog expects each piece by
# the time its last byte is due: at 5 KB/s, within a second more. (The servers
# still receive a body in large reads: gunicorn reads ahead, werkzeug buffers.)
PIECE = 4096

TOO_SLOW = b"The request's body came too slowly: please try again.\n"


class BodyDeadline:
    def __init__(self, app: Callable, *, grace: float, rate: float, max_bytes: int):
        self.app = app
        self.grace = grace
        self.rate = rate
        self.max_bytes = max_bytes

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        sock = client_socket(environ)
        length = _content_length(environ)
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if sock is None or not (length or chunked) or (length or 0) > self.max_bytes:
            # No body, or one refused unread (413), or one in memory already.
            return self.app(environ, start_response)
        # A chunked body is read to one byte past the limit, so the app still
        # refuses one that is too large.
        wanted = length or self.max_bytes + 1
        body, cut = self._read(environ["wsgi.input"], wanted, sock)
        if cut:
            start_response("408 Request Timeout", [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(TOO_SLOW))), ("Connection", "close")])
            return [TOO_SLOW]
        environ["wsgi.input"] = io.BytesIO(body)
        return self.app(environ, start_response)

    def _read(self, stream, wanted: int, sock: socket.socket) -> tuple[bytes, bool]:
        """The body, and whether the watchdog cut it off."""
        watchdog = _Watchdog(sock, time.monotonic() + self.grace, self.rate)
        pieces: list[bytes] = []
        received = 0
        try:
            while received < wanted:
                piece = min(PIECE, wanted - received)
                watchdog.expect(received + piece)
                try:
                    data = stream.read(piece)
                except OSError:  # the read side shut, or the client gone
                    data = b""
                if not data:
                    break
                pieces.append(data)
                received += len(data)
        finally:
            watchdog.stop()
        return b"".join(pieces), watchdog.cut and received < wanted


class _Watchdog:
    """Shuts the socket's read side once the body is behind: ``expect(n)``
    says n bytes are being waited for, due ``n / rate`` seconds after
    ``start`` (which includes the grace)."""

    def __init__(self, sock: socket.socket, start: float, rate: float):
        self.sock = sock
        self.start = start
        self.rate = rate
        self.due_bytes = 0
        self.cut = False
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def expect(self, total: int) -> None:
        self.due_bytes = total
        if self._thread is None:
            self._thread = threading.Thread(target=self._watch, name="body-deadline",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._done.set()

    def _watch(self) -> None:
        # Woken early when more bytes became due meanwhile: the deadline moved on.
        while (left := self.start + self.due_bytes / self.rate - time.monotonic()) > 0:
            if self._done.wait(left):
                return
        if self._done.is_set():
            return  # the last byte came just in time
        self.cut = True
        try:
            self.sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass  # closed already


def _content_length(environ: dict) -> int | None:
    value = environ.get("CONTENT_LENGTH", "")
    return int(value) if value.isdigit() else None
