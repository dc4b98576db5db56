"""A group's data out (JSON, CSV) and back in (JSON, into a new group)."""

from flask import Blueprint

bp = Blueprint("backup", __name__)
