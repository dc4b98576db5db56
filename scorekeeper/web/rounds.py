"""The rounds pages."""

from flask import Blueprint

bp = Blueprint("rounds", __name__)
