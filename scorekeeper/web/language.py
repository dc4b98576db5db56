"""The language switch, in every page's footer: a POST with its CSRF token
that sets the phone's language cookie (web/locales.py) and goes back to the
page it was on. Offline, static/js/language.js switches without it."""

from flask import Blueprint, abort, redirect, request, url_for

from ..forms.language import LanguageForm
from . import locales
from .access import safe_next

bp = Blueprint("language", __name__)


@bp.post("/language")
def switch():
    form = LanguageForm()
    form.language.choices = [language.tag for language in locales.LANGUAGES]
    if not form.validate():
        abort(400)
    response = redirect(safe_next(form.next.data) or url_for("home.index"), 303)
    locales.set_cookie(response, locales.BY_TAG[form.language.data])
    return response


@bp.app_template_global()
def language_next() -> str:
    """Where the switch goes back to: the page shown, if it is a page a GET
    opens (the answer to a form sent goes to the home page instead)."""
    rule = request.url_rule
    if request.method == "GET" or rule is None or "GET" in (rule.methods or ()):
        return request.full_path.rstrip("?")
    return url_for("home.index")
