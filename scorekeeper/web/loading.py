"""Loading what a URL names, with the access and 404 checks in one place."""

from flask import abort, g
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..models import GameSession, Seat
from .access import current_group, require_group


def load_game_session(endpoint, values):
    """A url_value_preprocessor for a group's pages: puts the session named by
    ``session_id`` on ``g.game``, with its seats and players (in the same
    statement: one round trip), so views and templates never pass it around."""
    require_group(endpoint, values)
    if values and "session_id" in values:
        g.game = group_row_or_404(GameSession, values.pop("session_id"),
                                  joinedload(GameSession.seats).joinedload(Seat.player))


def group_row_or_404(model, row_id: int, *options):
    """The signed-in group's row of ``model`` (a session, a player) with that id,
    loaded with ``options``; another group's is a 404, as if it did not exist."""
    row = db.session.get(model, row_id, options=options)
    if row is None or row.group_id != current_group().id:
        abort(404)
    return row


def add_session_id(endpoint, values):
    """A url_defaults hook: url_for inside a session's pages needs no session_id."""
    if "session_id" not in values and "game" in g and g.game is not None:
        values["session_id"] = g.game.id
