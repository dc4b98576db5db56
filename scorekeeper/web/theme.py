"""The phone's theme: light, dark, or as the phone says (its
``prefers-color-scheme``), chosen with the switch in the footer of the pages
a phone comes in by (SWITCH_PAGES) and remembered on the phone in the
``theme`` cookie (a year; none: as the phone), for every page.

The server reads the cookie so that the first paint is right: base.html links
static/css/dark.css (app.css's tokens with their dark values, and
``color-scheme: dark``) with the media the choice gives. The switch is a POST
with its CSRF token that goes back to the page it was on; with JavaScript,
static/js/theme-switch.js switches on the page itself (offline too), setting
the same cookie, and static/js/theme.js, in <head>, sets the sheet's media
again from the cookie on a page the service worker kept as it was then. Not
HttpOnly, for those scripts: the cookie holds nothing but the choice.
"""

from dataclasses import dataclass

from flask import Blueprint, abort, redirect, request, url_for

from ..forms.theme import ThemeForm
from .access import safe_next
from .locales import cookie_path, remember

bp = Blueprint("theme", __name__)

# Kept as the language is (locales.remember); static/js/theme.js and
# theme-switch.js have its name and life (locales.COOKIE_DAYS) too.
COOKIE = "theme"
AUTO = "auto"  # as the phone: no cookie
CHOICES = (AUTO, "light", "dark")
# The pages whose footer holds the switch: where a phone comes in (the home
# page, signing in) and a share link's, a tablet's only pages. Not every
# page: the group page and the round form have no room in their weight
# budgets (tests/web/helpers.py) for its form.
SWITCH_PAGES = frozenset({"home.index", "groups.sign_in", "share.board", "share.settle",
                          "share.table"})
# dark.css's media for each choice (static/js/theme.js has them too).
MEDIA = {AUTO: "(prefers-color-scheme: dark)", "light": "not all", "dark": "all"}


@dataclass(frozen=True)
class Theme:
    chosen: str  # one of CHOICES
    media: str  # dark.css's


@bp.app_template_global("theme_of")
def of(choice: str | None) -> Theme:
    """The theme a cookie's value gives: anything but light or dark is as the phone."""
    chosen = choice if choice in CHOICES else AUTO
    return Theme(chosen, MEDIA[chosen])


@bp.post("/theme")
def switch():
    form = ThemeForm()
    form.theme.choices = list(CHOICES)
    if not form.validate():
        abort(400)
    response = redirect(safe_next(form.next.data) or url_for("home.index"), 303)
    remember(response, COOKIE, None if form.theme.data == AUTO else form.theme.data)
    return response


@bp.app_template_global()
def theme() -> Theme:
    """The request's theme, from its cookie."""
    return of(request.cookies.get(COOKIE))


@bp.app_template_global()
def theme_switch_here() -> bool:
    """Whether this page's footer holds the switch (SWITCH_PAGES)."""
    return request.endpoint in SWITCH_PAGES


@bp.app_template_global()
def theme_cookie_path() -> str:
    """The cookie's path, for theme-switch.js (which has its name and life too)."""
    return cookie_path()
