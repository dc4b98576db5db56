"""The JavaScript modules' imports, read from their source, so that a page
gets a module and all it imports in one round trip, under fingerprinted names.

Three template globals, used by base.html:

- ``module_script(filename, attrs)`` writes a module's ``<script>`` and notes it
  for the page;
- ``module_preloads()`` then writes a ``<link rel="modulepreload">`` for every
  module those import, directly or not: the browser fetches them beside the
  page's own scripts instead of one import level after another (bench/README.md,
  "A cold load over a slow link");
- ``import_map()`` writes the page's ``<script type="importmap">``. A relative
  import (``import {newKey} from "./core/keys.js"``) resolves to the plain
  name, /static/js/core/keys.js; the map sends it to the fingerprinted name,
  which is the copy preloaded and cached for a year. The Content-Security-Policy
  allows this one inline script by its hash (``g.script_hashes``, app.py).

Imports are found in the source: ``import … from "./x.js"``, ``import "./x.js"``
and ``export … from "./x.js"`` at the start of a line, where a module's static
imports stand (a block comment that starts a line is passed over), and
``import("./x.js")`` with a literal name, which is neither mapped nor
preloaded (it is loaded when needed, see import_map). Only relative names
count: without a build step there is no ``import "some-package"``. Each file's
imports are read once per process, and again after an edit in debug mode, as
its hash is.
"""

import base64
import hashlib
import os
import posixpath
import re
from pathlib import Path

from flask import current_app, g, url_for
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.security import safe_join

from . import static_files

_NAME = r"""(?P<quote>["'])(?P<name>\.\.?/[^"'\n]+)(?P=quote)"""
STATIC_IMPORT = re.compile(
    r"^[ \t]*(?:import\b\s*(?:[\w$*{},\s]+?\bfrom\s*)?"
    r"|export\s*(?:\*(?:\s+as\s+[\w$]+)?|\{[\w$,\s]*\})\s*from\s*)" + _NAME, re.M)
DYNAMIC_IMPORT = re.compile(r"\bimport\(\s*" + _NAME + r"\s*\)")
# A comment that starts a line (where nothing else can start with "/*"), to its end.
BLOCK_COMMENT = re.compile(r"^[ \t]*/\*.*?\*/", re.M | re.S)


def init_app(app):
    app.add_template_global(module_script)
    app.add_template_global(module_preloads)
    app.add_template_global(import_map)


def imports(filename: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The static imports of the module ``filename`` (its path in static/),
    then its dynamic ones, as paths in static/, in the order written."""
    static = current_app.extensions["static_files"]
    known = static.setdefault("imports", {}).get(filename)
    if known and not current_app.debug:
        return known[1]
    path = safe_join(static["folder"], filename)
    if path is None or not os.path.isfile(path):
        return (), ()
    mtime = os.stat(path).st_mtime_ns
    if known and known[0] == mtime:
        return known[1]
    source = BLOCK_COMMENT.sub("", Path(path).read_text(encoding="utf-8"))
    found = (_resolved(filename, STATIC_IMPORT.finditer(source)),
             _resolved(filename, DYNAMIC_IMPORT.finditer(source)))
    static["imports"][filename] = (mtime, found)
    return found


def _resolved(importer: str, matches) -> tuple[str, ...]:
    folder = posixpath.dirname(importer)
    paths = (posixpath.normpath(posixpath.join(folder, match["name"])) for match in matches)
    return tuple(dict.fromkeys(path for path in paths if not path.startswith("../")))


def imported_by(entry: str) -> list[str]:
    """Every module that ``entry`` imports statically, directly or not."""
    found = {entry: None}
    waiting = [entry]
    while waiting:
        for name in imports(waiting.pop())[0]:
            if name not in found:
                found[name] = None
                waiting.append(name)
    return list(found)[1:]


def graph(entries) -> list[str]:
    """``entries`` and every module they import, statically or when needed,
    directly or not: all the code a page may run (its strings, web/script_strings.py)."""
    found = dict.fromkeys(entries)
    waiting = list(found)
    while waiting:
        static, dynamic = imports(waiting.pop())
        for name in static + dynamic:
            if name not in found:
                found[name] = None
                waiting.append(name)
    return list(found)


def module_script(filename: str, attrs: dict[str, str] | None = None) -> Markup:
    """``<script type="module">`` for static/``filename``, with ``attrs``."""
    g.setdefault("modules", []).append(filename)
    extra = Markup("").join(Markup(' {}="{}"').format(name, value)
                            for name, value in (attrs or {}).items())
    return Markup('<script type="module" src="{}"{}></script>').format(
        url_for("static", filename=filename), extra)


def module_preloads() -> Markup:
    """A modulepreload link for each module imported by the page's module
    scripts (those written by module_script so far) and not one of them."""
    entries = g.pop("modules", [])
    imported = dict.fromkeys(name for entry in entries for name in imported_by(entry)
                             if name not in entries and static_files.digest(name))
    return Markup("\n").join(Markup('<link rel="modulepreload" href="{}">').format(
        url_for("static", filename=name)) for name in imported)


def import_map() -> Markup:
    """The ``<script type="importmap">`` sending the plain name of every
    module the page's module scripts (those written by module_script so far)
    import, directly or not, to its fingerprinted name; its hash goes to the
    response's Content-Security-Policy. A page maps only what it loads: each
    name costs its bytes on every page that carries it. A module imported
    only when needed (``import("./queue.js")``), and what it imports, load
    under their plain names: they are needed offline, where the service
    worker answers plain names from its copies, or rarely."""
    entries = tuple(g.get("modules", ()))
    static = current_app.extensions["static_files"]
    key = (url_for("static", filename=""), entries)
    made = static.setdefault("import_maps", {}).get(key)
    if made is None or current_app.debug:
        made = static["import_maps"][key] = _import_map(entries)
    text, digest = made
    g.setdefault("script_hashes", set()).add(digest)
    return Markup('<script type="importmap">{}</script>').format(Markup(text))


def _import_map(entries: tuple[str, ...]) -> tuple[str, str]:
    imported = {name for entry in entries for name in imported_by(entry)}
    urls = {static_files.plain_url(name): url_for("static", filename=name)
            for name in sorted(imported) if static_files.digest(name)}
    # JSON with <, >, & and ' written as \u escapes: no "</script>" in it.
    text = str(htmlsafe_json_dumps({"imports": urls}, separators=(",", ":")))
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return text, f"sha256-{digest}"
