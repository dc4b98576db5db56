"""What keeps a session's pages current on every phone: a stream of the
session's state (server-sent events) that the pages' live.js follows, and the
words for a change made on another phone; and the home page's stream, of the
group's sessions in play.

Under gunicorn's gevent workers (gunicorn.conf.py) and the development server,
a stream stays open for up to LIVE_STREAM_SECONDS and carries each change as
the process's watch (watch.py) sees it; each time it wakes it checks that its
sign-in or share link still opens the session, and ends if not. Where a held
stream would take a whole worker (a sync worker), it answers the state and
closes, asking the browser to come back in a second: polling, at its cost
(bench/README.md). Past the caps on open streams (stream_caps.py) it answers
the same way, asking the browser to come back in 30 s.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import time
from collections.abc import Callable, Hashable, Iterator

from flask import Blueprint, Flask, Response, abort, current_app, g, render_template, request
from sqlalchemy import exc as sa_exc

from .. import queries
from ..models import GameSession
from . import access, stream_caps
from .client_socket import client_gone, client_socket
from .loading import group_row_or_404
from .presenters.changes import describe_all
from .share_links import link_still_open, shared_link
from .watch import GONE, Watch

log = logging.getLogger(__name__)
bp = Blueprint("live", __name__)
# Opened with a share link's token instead of a signed-in phone.
PUBLIC = frozenset({"live.shared_state"})

# How long a browser waits before it opens a closed stream again (ms).
RETRY_MS = 2000
POLL_RETRY_MS = 1000
# Past a cap on open streams (stream_caps.py): one event, and the next ask in
# 30 s. A real table never meets the caps; a client that asks again at once
# each time is a flood of requests, for the proxy's rate limit.
CAPPED_RETRY_MS = 30_000
# A comment line this often: a stream to a phone that vanished without closing
# (off the network) ends when writing to it fails.
HEARTBEAT_SECONDS = 20
# What a stream watches (watch.py's keys): ("session", id) or ("group", id).
SESSION, GROUP = "session", "group"


@bp.before_request
def members_only():
    """A phone signed out (or whose sign-in ended) gets a 403, which ends a
    browser's stream for good instead of a redirect to follow again and again."""
    if request.endpoint not in PUBLIC and access.current_group() is None:
        abort(403)


def init_app(app: Flask) -> None:
    def read_states(keys: list) -> dict[Hashable, object]:
        sessions = [id_ for kind, id_ in keys if kind == SESSION]
        groups = [id_ for kind, id_ in keys if kind == GROUP]
        states: dict[Hashable, object] = {}
        with app.app_context():
            if sessions:
                states.update({(SESSION, id_): state
                               for id_, state in queries.live_states(sessions).items()})
            if groups:
                states.update({(GROUP, id_): state
                               for id_, state in queries.group_states(groups).items()})
        return states

    stream_caps.init_app(app)
    app.extensions["live_watch"] = Watch(
        read_states, app.config["LIVE_POLL_SECONDS"],
        renew=lambda: stream_caps.renew(app), renew_every=stream_caps.renew_every(app))
    app.register_blueprint(bp)


@bp.get("/sessions/<int:session_id>/live")
def session_state(session_id: int):
    game = group_row_or_404(GameSession, session_id)
    held = access.held_sign_in()
    phone = access.sign_in_public_id()
    return _state_response((SESSION, game.id), _state_of(game), lambda s: _said(s, phone),
                           access.sign_in_key(held), "LIVE_STREAMS_PER_SIGN_IN",
                           lambda: access.still_signed_in(held))


@bp.get("/share/<token>/live")
def shared_state(token: str):
    link = shared_link(token)
    return _state_response((SESSION, link.session.id), _state_of(link.session),
                           lambda s: _said(s, ""), f"link:{link.id}", "LIVE_STREAMS_PER_LINK",
                           lambda: link_still_open(token))


@bp.get("/live")
def group_state():
    """The signed-in group's sessions in play, for its home page: another
    state as one starts or ends, a round is saved, a player joins or a hand
    is saved. Held against the sign-in's cap, as its session pages' streams."""
    group = access.signed_in_group()
    held = access.held_sign_in()
    return _state_response((GROUP, group.id), queries.group_states([group.id])[group.id],
                           _said_playing,
                           access.sign_in_key(held), "LIVE_STREAMS_PER_SIGN_IN",
                           lambda: access.still_signed_in(held))


@bp.get("/sessions/<int:session_id>/live/since/<int:version>")
def changed_since(session_id: int, version: int):
    """The changes made since a form's version, in words, for the notice that
    live.js puts above an open form."""
    game = g.game = group_row_or_404(GameSession, session_id)
    changes = describe_all(queries.changes_since(game, version), game.currency)
    return render_template("changes/_live.html", changes=changes)


Said = Callable[[object], dict]


def _state_response(key: Hashable, state: object, said: Said, holder: str, cap: str,
                    still_open: Callable[[], bool]) -> Response:
    """The state of what ``key`` names: as JSON, as one event (polling), or
    as a stream held by ``holder`` (counted against the setting ``cap``) for
    as long as ``still_open()`` says it may; each state as ``said`` tells it."""
    if "text/event-stream" not in request.headers.get("Accept", ""):
        return _state_json(said(state))
    if not _can_hold_streams():
        return _polling(said(state), POLL_RETRY_MS)
    release = stream_caps.admit(holder, current_app.config[cap])
    if release is None:
        return _polling(said(state), CAPPED_RETRY_MS)
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    watch: Watch = app.extensions["live_watch"]
    response = _stream_response(_released(_events(
        watch, key, state, app.config["LIVE_STREAM_SECONDS"],
        app.config["LIVE_LOOK_SECONDS"], _checked_in(app, still_open),
        client_socket(request.environ), said), release))
    response.call_on_close(release)  # a stream never read
    return response


def _released(events: Iterator[str], release: Callable[[], None]) -> Iterator[str]:
    """The stream's events; its place is given back as they end, before the
    response does: a client that sees the stream end may open another."""
    try:
        yield from events
    finally:
        release()


def _polling(said: dict, retry_ms: int) -> Response:
    return _stream_response([f"retry: {retry_ms}\n" + _event(said)])


def _checked_in(app: Flask, still_open: Callable[[], bool]) -> Callable[[], bool]:
    """``still_open`` asked in an app context of its own, as a stream runs
    after its request; with the database away, the stream goes on."""
    def check() -> bool:
        try:
            with app.app_context():
                return still_open()
        except sa_exc.SQLAlchemyError:
            log.warning("could not check a live stream's sign-in or link", exc_info=True)
            return True
    return check


def _state_json(said: dict) -> Response:
    """For a client that asks without a stream: the state, with an ETag so that
    asking again unchanged costs a 304."""
    response = Response(json.dumps(said), mimetype="application/json")
    response.add_etag()
    response.cache_control.no_cache = True
    response.make_conditional(request)
    return response


def _events(watch: Watch, key: Hashable, state: object, lifetime: float, look: float,
            still_open: Callable[[], bool], client: socket.socket | None,
            said: Said) -> Iterator[str]:
    """The state at once, then each change, until the lifetime is over, the
    session is gone, the client closed the stream (looked at every ``look``
    seconds), or its sign-in or link no longer opens the session (asked at
    each change and heartbeat: the browser opens the stream again, and is
    refused). ``lifetime`` and ``look`` are in seconds."""
    yield f"retry: {RETRY_MS}\n" + _event(said(state))
    deadline = time.monotonic() + lifetime
    beat = time.monotonic() + HEARTBEAT_SECONDS
    with watch.watching(key, state) as wait:
        known = state
        while (left := deadline - time.monotonic()) > 0:
            now = wait(known, min(look, left))
            if now == GONE or (client is not None and client_gone(client)):
                return
            if now == known and time.monotonic() < beat:
                continue
            if not still_open():
                return
            beat = time.monotonic() + HEARTBEAT_SECONDS
            if now == known:
                yield ": still here\n\n"
            else:
                known = now
                yield _event(said(now))


def _state_of(game: GameSession) -> queries.State:
    return game.version, game.draft_version, game.changed_by


def _said(state, phone: str) -> dict:
    """What a page is told of a session's state: its versions, and whether the
    change that took the version was this ``phone``'s own (a sign-in's public
    id; empty for a share link's reader), never which phone it was."""
    version, draft, changed_by = state
    return {"version": version, "draft": draft, "own": bool(phone) and changed_by == phone}


def _said_playing(state) -> dict:
    """A group's state (queries.group_states) as its home page is told it.
    Not whose change it was: the sessions' latest phones say nothing of
    which of them changed, and the home page makes no change of its own."""
    return {"playing": state, "own": False}


def _event(said: dict) -> str:
    return f"data: {json.dumps(said)}\n\n"


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
