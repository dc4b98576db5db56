"""What keeps a session's pages current on every phone: a stream of the
session's state (server-sent events) that the pages' live.js follows, and the
words for a change made on another phone.

Under gunicorn's gevent workers (gunicorn.conf.py) and the development server,
a stream stays open for up to LIVE_STREAM_SECONDS and carries each change as
the process's watch (watch.py) sees it. Where a held stream would take a whole
worker (a sync worker), it answers the state and closes, asking the browser to
come back in a second: polling, at its cost (bench/README.md).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator

from flask import Blueprint, Flask, Response, abort, current_app, g, render_template, request

from .. import queries
from ..models import GameSession
from .access import current_group
from .loading import group_row_or_404
from .presenters.changes import describe_all
from .share_links import shared_session
from .watch import GONE, Watch

bp = Blueprint("live", __name__)
# Opened with a share link's token instead of a signed-in phone.
PUBLIC = frozenset({"live.shared_state"})

# How long a browser waits before it opens a closed stream again (ms).
RETRY_MS = 2000
POLL_RETRY_MS = 1000
# A comment line this often: a stream to a phone that is gone ends at the next.
HEARTBEAT_SECONDS = 20


@bp.before_request
def members_only():
    """A phone signed out (or whose sign-in ended) gets a 403, which ends a
    browser's stream for good instead of a redirect to follow again and again."""
    if request.endpoint not in PUBLIC and current_group() is None:
        abort(403)


def init_app(app: Flask) -> None:
    def read_states(ids: list[int]) -> dict[int, queries.State]:
        with app.app_context():
            return queries.live_states(ids)

    app.extensions["live_watch"] = Watch(read_states, app.config["LIVE_POLL_SECONDS"])
    app.register_blueprint(bp)


@bp.get("/sessions/<int:session_id>/live")
def session_state(session_id: int):
    game = group_row_or_404(GameSession, session_id)
    return _state_response(game.id, (game.version, game.draft_version))


@bp.get("/share/<token>/live")
def shared_state(token: str):
    game = shared_session(token)
    return _state_response(game.id, (game.version, game.draft_version))


@bp.get("/sessions/<int:session_id>/live/since/<int:version>")
def changed_since(session_id: int, version: int):
    """The changes made since a form's version, in words, for the notice that
    live.js puts above an open form."""
    game = g.game = group_row_or_404(GameSession, session_id)
    changes = describe_all(queries.changes_since(game, version), game.currency)
    return render_template("changes/_live.html", changes=changes)


def _state_response(session_id: int, state: queries.State) -> Response:
    if "text/event-stream" not in request.headers.get("Accept", ""):
        return _state_json(state)
    if not _can_hold_streams():
        body = f"retry: {POLL_RETRY_MS}\n" + _event(state)
        return _stream_response([body])
    watch: Watch = current_app.extensions["live_watch"]
    lifetime = current_app.config["LIVE_STREAM_SECONDS"]
    return _stream_response(_events(watch, session_id, state, lifetime))


def _state_json(state: queries.State) -> Response:
    """For a client that asks without a stream: the state, with an ETag so that
    asking again unchanged costs a 304."""
    response = Response(json.dumps({"version": state[0], "draft": state[1]}),
                        mimetype="application/json")
    response.set_etag(f"{state[0]}-{state[1]}")
    response.cache_control.no_cache = True
    response.make_conditional(request)
    return response


def _events(watch: Watch, session_id: int, state: queries.State,
            lifetime: float) -> Iterator[str]:
    yield f"retry: {RETRY_MS}\n" + _event(state)
    deadline = time.monotonic() + lifetime
    with watch.watching(session_id, state) as wait:
        known = state
        while (left := deadline - time.monotonic()) > 0:
            now = wait(known, min(HEARTBEAT_SECONDS, left))
            if now == known:
                yield ": still here\n\n"
            elif now == GONE:
                return
            else:
                known = now
                yield _event(now)


def _event(state: queries.State) -> str:
    return f"data: {json.dumps({'version': state[0], 'draft': state[1]})}\n\n"


def _stream_response(body) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.cache_control.no_store = True
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _can_hold_streams() -> bool:
    """Whether this server can keep many requests open at once: gevent's
    workers and the development server can; gunicorn's sync workers serve one
    request each, and gthread's one a thread."""
    if "gevent.monkey" in sys.modules:
        from gevent import monkey

        if monkey.is_module_patched("socket"):
            return True
    return request.environ.get("SERVER_SOFTWARE", "").startswith("Werkzeug/")
