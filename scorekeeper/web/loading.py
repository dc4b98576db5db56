"""Loading what a URL names, with the access and 404 checks in one place."""

import functools

import sqlalchemy as sa
from flask import Blueprint, Response, abort, g, request
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..models import GameSession, Seat
from .access import require_group, signed_in_group


@functools.cache
def _session_page_load() -> sa.Select:
    """A session page's session, its group, seats and players: one round trip,
    and a statement built once (every session page runs it)."""
    return (sa.select(GameSession).where(GameSession.id == sa.bindparam("session_id"))
            .options(joinedload(GameSession.group),
                     joinedload(GameSession.seats).joinedload(Seat.player)))


def load_game_session(endpoint, values):
    """A url_value_preprocessor for a group's pages: puts the session named by
    ``session_id`` on ``g.game``, so views and templates never pass it around.

    The session is read before the access check, with its group: the check
    then finds the signed-in group already loaded (a session of another group
    is a 404 either way)."""
    if not values or "session_id" not in values:
        require_group(endpoint, values)
        return
    game = db.session.scalars(_session_page_load(), {"session_id": values.pop("session_id")}
                              ).unique().one_or_none()
    require_group(endpoint, values)
    g.game = _own_or_404(game)


def group_row_or_404(model, row_id: int, *options):
    """The signed-in group's row of ``model`` (a session, a player) with that id,
    loaded with ``options``; another group's is a 404, as if it did not exist."""
    return _own_or_404(db.session.get(model, row_id, options=options))


def _own_or_404(row):
    if row is None or row.group_id != signed_in_group().id:
        abort(404)
    return row


def add_session_id(endpoint, values):
    """A url_defaults hook: url_for inside a session's pages needs no session_id."""
    if "session_id" not in values and "game" in g and g.game is not None:
        # Its identity, which a commit doesn't expire: no reload for a redirect.
        values["session_id"] = sa.inspect(g.game).identity[0]


def session_pages(bp: Blueprint, shared: frozenset[str] = frozenset()) -> None:
    """Make ``bp``'s pages a session's (load_game_session, add_session_id),
    but for its endpoints in ``shared``: those a share link's token opens
    (web/share_links.py), with no signed-in phone, and that no search engine
    is to list."""
    @bp.after_request
    def unlisted(response: Response) -> Response:
        if request.endpoint in shared:
            response.headers["X-Robots-Tag"] = "noindex, nofollow"
        return response

    @bp.url_value_preprocessor
    def load_for_members(endpoint, values):
        if endpoint not in shared:
            load_game_session(endpoint, values)

    @bp.url_defaults
    def session_id_for_members(endpoint, values):
        if endpoint not in shared:
            add_session_id(endpoint, values)
