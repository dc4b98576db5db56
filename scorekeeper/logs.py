"""Logs as one JSON object per line, and a request id shared by a request's lines.

gunicorn.conf.py sends gunicorn's access and error logs and the app's own log
through JsonFormatter; the development server keeps Flask's plain lines.
"""

import json
import logging
import re
import uuid
from datetime import UTC, datetime

from flask import g, has_request_context, request

# An id given by the proxy in front (nginx: proxy_set_header X-Request-ID $request_id).
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def init_app(app):
    app.after_request(send_request_id)


def request_id():
    """This request's id: the one the proxy gave, else a new one."""
    if "request_id" not in g:
        given = request.headers.get("X-Request-ID", "")
        g.request_id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
    return g.request_id


def send_request_id(response):
    # Read back by the access log line, and shown to whoever reports a problem.
    response.headers["X-Request-ID"] = request_id()
    return response


# An invite link's token signs a phone in to a group: a log line names the
# page, not the token (share links' tokens only show a session, and stay).
_INVITE_TOKEN = re.compile(r"^/join/[^/]+")


def loggable_path(path: str | None) -> str | None:
    """``path`` as a log line shows it: "/join/…" for an invite link's."""
    return _INVITE_TOKEN.sub("/join/…", path) if path else path


class JsonFormatter(logging.Formatter):
    """time, level, logger and message; the fields a record carries in ``extra=
    {"fields": {...}}``; the request's method, path and id when there is one;
    the exception's type and traceback when there is one."""

    def format(self, record):
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(getattr(record, "fields", {}))
        if has_request_context():
            entry.setdefault("method", request.method)
            entry.setdefault("path", loggable_path(request.path))
            entry.setdefault("remote_addr", request.remote_addr)
            entry.setdefault("request_id", request_id())
        if record.exc_info:
            entry["error"] = record.exc_info[0].__name__
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)

    def formatException(self, exc_info):
        """The traceback, without the details PostgreSQL adds to an error
        about a row: SQLAlchemy leaves out a statement's parameters
        (hide_parameters), but "Failing row contains (…)" lists every value
        of the row, a passphrase hash among them."""
        text = super().formatException(exc_info)
        for detail in _server_details(exc_info[1]):
            text = text.replace(detail, "(details hidden)")
        return text


def _server_details(error):
    """The DETAIL texts of a PostgreSQL error (psycopg's ``diag``) and of the
    errors it was raised from or during."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        for cause in (error, getattr(error, "orig", None)):
            detail = getattr(getattr(cause, "diag", None), "message_detail", None)
            if detail:
                yield detail
        error = error.__cause__ or error.__context__
