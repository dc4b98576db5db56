"""Loading what a URL names, with the 404 checks in one place."""

from flask import g

from ..extensions import db
from ..models import GameSession


def load_game_session(endpoint, values):
    """A url_value_preprocessor: puts the session named by ``session_id`` on
    ``g.game`` so views and templates never pass it around."""
    if values and "session_id" in values:
        g.game = db.get_or_404(GameSession, values.pop("session_id"))


def add_session_id(endpoint, values):
    """A url_defaults hook: url_for inside a session's pages needs no session_id."""
    if "session_id" not in values and "game" in g and g.game is not None:
        values["session_id"] = g.game.id
