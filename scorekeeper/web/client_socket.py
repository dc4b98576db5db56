"""The socket a request came on, where the server hands it to the app, and
whether its client has closed it: for the slow-body deadline and the held
live streams, which must notice a client gone without waiting to write."""

from __future__ import annotations

import socket


def client_socket(environ: dict) -> socket.socket | None:
    """gunicorn's ``gunicorn.socket`` or werkzeug's ``werkzeug.socket``; none
    over HTTP/2, where the socket carries other requests too, nor under the
    test client."""
    if environ.get("SERVER_PROTOCOL", "").startswith("HTTP/2"):
        return None
    return environ.get("gunicorn.socket") or environ.get("werkzeug.socket")


def client_gone(sock: socket.socket) -> bool:
    """Whether the client has closed its end: the socket reads as ended. A
    client of a held stream sends nothing else, so the look is a peek that
    never waits (nor select(), which stops at descriptor 1,024)."""
    timeout = sock.gettimeout()
    try:
        sock.settimeout(0.0)
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False  # nothing to read: still there
    except OSError:  # reset, or closed on this side already
        return True
    finally:
        try:
            sock.settimeout(timeout)
        except OSError:
            pass
