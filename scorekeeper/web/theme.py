"""The phone's theme: light, dark, or as the phone says (its
``prefers-color-scheme``), chosen with the switch in every page's footer and
remembered on the phone in the ``theme`` cookie (a year; none: as the phone).

The server reads the cookie so that the first paint is right: base.html links
static/css/dark.css (app.css's tokens with their dark values) with the media
the choice gives, and says the page's ``color-scheme``. The switch is a POST
with its CSRF token that goes back to the page it was on; with JavaScript,
static/js/theme.js switches on the page itself (offline too), setting the
same cookie, and sets the sheet's media again from the cookie on a page the
service worker kept as it was then. Not HttpOnly, for that script: the
cookie holds nothing but the choice.
"""

from dataclasses import dataclass

from flask import Blueprint, abort, current_app, redirect, request, url_for

from ..forms.theme import ThemeForm
from .access import safe_next
from .locales import cookie_path

bp = Blueprint("theme", __name__)

COOKIE = "theme"
COOKIE_DAYS = 365
AUTO = "auto"  # as the phone: no cookie
CHOICES = (AUTO, "light", "dark")
# dark.css's media for each choice.
MEDIA = {AUTO: "(prefers-color-scheme: dark)", "light": "not all", "dark": "all"}
# The page's <meta name="color-scheme">: the canvas before the CSS comes.
SCHEMES = {AUTO: "light dark", "light": "light", "dark": "dark"}


@dataclass(frozen=True)
class Theme:
    chosen: str  # one of CHOICES
    media: str
    scheme: str


@bp.app_template_global("theme_of")
def of(choice: str | None) -> Theme:
    """The theme a cookie's value gives: anything but light or dark is as the phone."""
    chosen = choice if choice in CHOICES else AUTO
    return Theme(chosen, MEDIA[chosen], SCHEMES[chosen])


@bp.post("/theme")
def switch():
    form = ThemeForm()
    form.theme.choices = list(CHOICES)
    if not form.validate():
        abort(400)
    response = redirect(safe_next(form.next.data) or url_for("home.index"), 303)
    if form.theme.data == AUTO:
        response.delete_cookie(COOKIE, path=cookie_path(), samesite="Lax",
                               secure=current_app.config["HTTPS"], httponly=False)
    else:
        response.set_cookie(COOKIE, form.theme.data, max_age=COOKIE_DAYS * 24 * 3600,
                            path=cookie_path(), samesite="Lax",
                            secure=current_app.config["HTTPS"], httponly=False)
    return response


@bp.app_template_global()
def theme() -> Theme:
    """The request's theme, from its cookie."""
    return of(request.cookies.get(COOKIE))


@bp.app_template_global()
def theme_data() -> dict:
    """What theme.js needs: the cookie's name, path and life, and the media
    and color-scheme of each choice."""
    return {"cookie": COOKIE, "path": cookie_path(), "days": COOKIE_DAYS,
            "media": MEDIA, "schemes": SCHEMES}
