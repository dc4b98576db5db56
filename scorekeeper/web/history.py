"""The history pages."""

from flask import Blueprint, render_template

bp = Blueprint("history", __name__)


@bp.get("/history")
def index():
    return render_template("history/index.html")
