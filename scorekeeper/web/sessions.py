"""The sessions pages."""

from flask import Blueprint

bp = Blueprint("sessions", __name__)
