"""Read-only share links to a session: making and revoking them, and the
pages they open for people who are not signed in."""

from flask import Blueprint

bp = Blueprint("share", __name__)
