"""The strings a page's scripts show, handed to them in the page's language.

A page's module scripts (module_script, web/modules.py) and every module they
import, statically or when needed, are its module graph. The msgids their
source passes to ``gettext`` and ``ngettext`` are read with Babel's JavaScript
extractor (the keywords of babel.cfg's JavaScript section), once per process
and file (again after an edit in debug mode). ``script_strings()``, in
base.html's <head>, writes the translations of exactly those msgids, with the
language's plural rule, as JSON in ``<script type="application/json"
id="strings">``: static/js/strings.js hands it to static/js/core/i18n.js. One
catalog serves the server and the scripts; there is no copy kept in JS.

The plural rule goes as data: which of a message's forms each of CLDR's
plural categories takes (``{"one": 0, "other": 1}`` in English), the
category being the browser's ``Intl.PluralRules`` for the page's language.
"""

import gettext
import os

from babel import Locale
from babel.messages.extract import extract
from babel.messages.plurals import get_plural
from flask import current_app, g
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.security import safe_join

from .. import catalogs
from . import locales, modules

# As babel.cfg's [javascript] section says.
KEYWORDS = {"gettext": None, "ngettext": (1, 2)}
ELEMENT_ID = "strings"


def init_app(app) -> None:
    app.add_template_global(script_strings)


def msgids(filename: str) -> tuple[str | tuple[str, ...], ...]:
    """The msgids that the module ``filename`` (its path in static/) passes to
    gettext (a string) and ngettext (singular and plural), in the order written."""
    static = current_app.extensions["static_files"]
    known = static.setdefault("msgids", {}).get(filename)
    if known and not current_app.debug:
        return known[1]
    path = safe_join(static["folder"], filename)
    if path is None or not os.path.isfile(path):
        return ()
    mtime = os.stat(path).st_mtime_ns
    if known and known[0] == mtime:
        return known[1]
    with open(path, "rb") as source:
        found = tuple(dict.fromkeys(
            message for _, message, _, _ in extract("javascript", source, keywords=KEYWORDS)))
    static["msgids"][filename] = (mtime, found)
    return found


def plural_rule(locale: Locale, expression: str) -> dict[str, int]:
    """Which form of a message (gettext's ``Plural-Forms`` ``expression``)
    each of the locale's CLDR plural categories takes, for whole numbers."""
    form_of = gettext.c2py(expression)
    rule: dict[str, int] = {}
    for number in range(1000):
        category = locale.plural_form(number)
        if rule.setdefault(category, form_of(number)) != form_of(number):
            raise ValueError(f"{locale}: the plural category {category!r} takes two forms of "
                             f"{expression!r}")
    return rule


def data(names) -> dict:
    """What the scripts of the modules ``names`` need: the language, its
    plural rule, and the translation of each of their msgids (a list of forms
    for a plural) that the language's catalog has, translated and not fuzzy."""
    language = locales.current()
    locale = Locale.parse(language.locale)
    read = catalogs.current(locale)
    catalog = read.catalog if read else None
    expression = catalog.plural_expr if catalog else get_plural(locale).plural_expr
    messages: dict[str, str | list[str]] = {}
    for name in names:
        for msgid in msgids(name):
            key = msgid if isinstance(msgid, str) else msgid[0]
            message = catalog.get(key) if catalog else None
            if message is None or message.fuzzy or not all(
                    message.string if isinstance(message.string, tuple) else [message.string]):
                continue
            string = message.string
            messages[key] = list(string) if isinstance(string, tuple) else str(string)
    return {"lang": language.tag, "plural": plural_rule(locale, expression),
            "messages": messages}


def script_strings() -> Markup:
    """The JSON of ``data`` for the page's module graph (its module scripts
    written so far), or nothing when its scripts show no strings."""
    entries = tuple(g.get("modules", ()))
    cache = current_app.extensions["static_files"].setdefault("strings", {})
    # A catalog installed anew (the tests' pseudo-locale) is another catalog.
    key = (entries, locales.current().locale, id(catalogs.current()))
    text = cache.get(key)
    if text is None or current_app.debug:
        names = modules.graph(entries)
        if not any(msgids(name) for name in names):
            text = ""
        else:
            text = str(htmlsafe_json_dumps(data(names), separators=(",", ":"), ensure_ascii=False))
        cache[key] = text
    if not text:
        return Markup("")
    return Markup('<script type="application/json" id="{}">{}</script>').format(
        ELEMENT_ID, Markup(text))
