from flask import Blueprint, render_template, request

from ..forms import CheckHandForm

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    form = CheckHandForm(request.args)
    if "cards" in request.args:
        form.validate()
    return render_template("home/index.html", form=form)
