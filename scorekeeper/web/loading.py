"""Loading what a URL names, with the 404 checks in one place."""

from flask import abort, g

from ..extensions import db
from ..models import GameSession, Round


def load_game_session(endpoint, values):
    """A url_value_preprocessor: puts the session named by ``session_id`` on
    ``g.game`` so views and templates never pass it around."""
    if values and "session_id" in values:
        g.game = db.get_or_404(GameSession, values.pop("session_id"))


def round_or_404(number: int) -> Round:
    """Round ``number`` of ``g.game``."""
    round_ = db.session.scalar(
        db.select(Round).where(Round.session_id == g.game.id, Round.number == number))
    if round_ is None:
        abort(404)
    return round_


def add_session_id(endpoint, values):
    """A url_defaults hook: url_for inside a session's pages needs no session_id."""
    if "session_id" not in values and "game" in g and g.game is not None:
        values["session_id"] = g.game.id
