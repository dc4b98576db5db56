"""The phone's language: English (the source), Bahasa Melayu or Simplified
Chinese, chosen by the phone and remembered on it.

A request's language is its ``language`` cookie's (set by the switch,
web/language.py, or by the page's script offline), else the first of its
``Accept-Language`` that the app speaks, else English. The cookie is the
phone's, not its sign-in's: signing out keeps it. It is not HttpOnly, so that
a page can switch language offline (static/js/language.js); it holds nothing
but the language's tag.

Every HTML answer says its language in ``<html lang>`` and in
``Content-Language``, which the service worker reads to keep pages per
language (static/js/sw.js).
"""

from collections.abc import Iterable
from dataclasses import dataclass

from babel import Locale
from flask import current_app, g, has_request_context, request
from flask_babel import get_locale, refresh

from .. import catalogs
from ..extensions import babel


@dataclass(frozen=True)
class Language:
    locale: str  # Babel's name, and the catalog's folder: zh_Hans
    tag: str  # BCP 47, for <html lang>, Content-Language and the cookie: zh-Hans
    name: str  # in its own language, as the switch shows it


SOURCE = Language("en", "en", "English")
LANGUAGES = (SOURCE, Language("ms", "ms", "Bahasa Melayu"), Language("zh_Hans", "zh-Hans", "中文"))
BY_TAG = {language.tag: language for language in LANGUAGES}
BY_LOCALE = {language.locale: language for language in LANGUAGES}

COOKIE = "language"
COOKIE_DAYS = 365

# Accept-Language's tags (lower case) read as a language of ours, by their
# start: Chinese written in Traditional characters (zh-TW, zh-HK, zh-Hant) is
# not ours, and reads on.
TRADITIONAL = ("zh-hant", "zh-tw", "zh-hk", "zh-mo")


def _accepted(tag: str) -> Language | None:
    tag = tag.strip().lower().replace("_", "-")
    primary = tag.split("-", 1)[0]
    if primary == "zh":
        return None if tag.startswith(TRADITIONAL) else BY_TAG["zh-Hans"]
    return {"en": SOURCE, "ms": BY_TAG["ms"]}.get(primary)


def choose(cookie: str | None, accepted: Iterable[str]) -> Language:
    """The language of a request with this ``cookie`` and these
    ``Accept-Language`` tags (in the order preferred)."""
    if cookie in BY_TAG:
        return BY_TAG[cookie]
    for tag in accepted:
        if (language := _accepted(tag)) is not None:
            return language
    return SOURCE


def requested() -> Language:
    """The request's language (cookie, then Accept-Language), once a request."""
    if "language" not in g:
        g.language = choose(request.cookies.get(COOKIE),
                            (tag for tag, _ in request.accept_languages))
    return g.language


def current() -> Language:
    """The language being written: the request's, or the one forced
    (flask_babel.force_locale, as the offline pages are made)."""
    return BY_LOCALE.get(str(get_locale()), SOURCE)


ENGLISH = Locale.parse(SOURCE.locale)


def formatting() -> Locale:
    """The Babel locale that dates and numbers are written in."""
    return get_locale() or ENGLISH


def cookie_path() -> str:
    return request.script_root or "/"


def set_cookie(response, language: Language) -> None:
    """Remembered a year; static/js/language.js sets the same cookie offline."""
    remember(response, COOKIE, language.tag)


def remember(response, name: str, value: str | None) -> None:
    """A phone's choice kept in a cookie its scripts read too (a language, a
    theme), for COOKIE_DAYS; ``None`` forgets it."""
    where = {"path": cookie_path(), "samesite": "Lax", "secure": current_app.config["HTTPS"],
             "httponly": False}
    if value is None:
        response.delete_cookie(name, **where)
    else:
        response.set_cookie(name, value, max_age=COOKIE_DAYS * 24 * 3600, **where)


def language_cookie() -> dict:
    """What the switch's script needs to set the cookie itself."""
    return {"name": COOKIE, "path": cookie_path(), "days": COOKIE_DAYS}


def _select() -> str | None:
    """Flask-Babel's choice: the request's language; outside a request (a
    command, a test calling a filter) English."""
    return requested().locale if has_request_context() else None


def init_app(app) -> None:
    catalogs.load(app)
    missing = [language.tag for language in LANGUAGES
               if language is not SOURCE and language.locale not in app.extensions["catalogs"]]
    if missing:
        raise RuntimeError(f"No catalog for {', '.join(missing)} in {catalogs.FOLDER}")
    babel.init_app(app, default_locale=SOURCE.locale, locale_selector=_select)
    # {% trans %} blocks are read with their whitespace trimmed (babel.cfg too).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.add_template_global(LANGUAGES, "languages")
    app.add_template_global(current, "language")
    app.add_template_global(language_cookie)

    @app.before_request
    def afresh():
        """A request's language is its own: an app context kept across
        requests (as the tests keep one) would carry the last one's on."""
        g.pop("language", None)
        refresh()

    @app.after_request
    def say_the_language(response):
        if response.mimetype == "text/html":
            response.headers.setdefault("Content-Language", current().tag)
            response.vary.update(("Cookie", "Accept-Language"))
        return response
