"""A session's history of changes (the audit trail), and restoring a deleted round."""

from flask import Blueprint

from .loading import add_session_id, load_game_session

bp = Blueprint("changes", __name__, url_prefix="/sessions/<int:session_id>/changes")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)
