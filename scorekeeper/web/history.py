"""The history pages."""

from flask import Blueprint

bp = Blueprint("history", __name__)
