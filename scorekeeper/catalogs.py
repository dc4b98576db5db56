"""The translations, read from their .po files: no .mo files, no build step.

Each catalog, ``translations/<locale>/LC_MESSAGES/messages.po``, is read as
the app starts and compiled in memory (Babel's ``read_po``, then ``write_mo``
into a buffer), once per process and file version; a broken catalog stops the
start, saying which. Nothing is written to disk, so a checkout that the server
cannot write to, and several gunicorn workers starting at once, need nothing
more; a catalog edited while the development server runs (debug mode) is read
again on the next request. ``pybabel compile`` is not needed (README,
"Languages").

Flask-Babel's own domain reads .mo files from disk; CatalogBabel's domain hands
it the catalogs read here instead, kept on the app (``install`` puts another,
as the pseudo-locale test does).
"""

import io
import os
from dataclasses import dataclass
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import current_app, has_app_context
from flask_babel import Babel, Domain, get_locale

FOLDER = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"
NO_TRANSLATIONS = NullTranslations()


@dataclass(frozen=True)
class Read:
    """A catalog as read (fuzzy and untranslated messages in it too) and the
    translations compiled from it (translated messages only, fuzzy ones out)."""

    catalog: Catalog
    translations: Translations


_read: dict[tuple[str, int, int], Read] = {}


def read(path: Path, locale: str) -> Read:
    """The catalog at ``path``, read once per process and version of the file."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _read:
        with path.open("rb") as file:
            catalog = read_po(file, locale=locale, domain=DOMAIN, abort_invalid=True)
        _read[key] = compiled(catalog)
    return _read[key]


def compiled(catalog: Catalog) -> Read:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Read(catalog, Translations(buffer, domain=DOMAIN))


def paths(folder: Path = FOLDER) -> dict[str, Path]:
    """The catalogs in ``folder``, by locale (``zh_Hans``)."""
    found = {}
    for locale in sorted(os.listdir(folder)) if folder.is_dir() else ():
        path = folder / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.is_file():
            found[locale] = path
    return found


def load(app, folder: Path = FOLDER) -> None:
    """Read every catalog in ``folder`` for ``app``: at start, so a broken one
    stops it."""
    app.extensions["catalogs"] = {locale: read(path, locale)
                                  for locale, path in paths(folder).items()}
    app.extensions["catalog_paths"] = paths(folder)


def install(app, locale: str, catalog: Catalog) -> None:
    """Use ``catalog`` for ``locale`` in ``app`` (the tests' pseudo-locale)."""
    app.extensions["catalogs"][locale] = compiled(catalog)
    app.extensions["catalog_paths"].pop(locale, None)


def current(locale: Locale | str | None = None) -> Read | None:
    """The catalog of ``locale`` (by default the request's), None for the
    source language (English) or outside a request. In debug mode a catalog
    edited since it was read is read again."""
    if not has_app_context():
        return None
    locale = str(locale or get_locale() or "")
    known = current_app.extensions["catalogs"]
    if current_app.debug and locale in current_app.extensions["catalog_paths"]:
        known[locale] = read(current_app.extensions["catalog_paths"][locale], locale)
    return known.get(locale)


class CatalogDomain(Domain):
    def get_translations(self):
        found = current()
        return found.translations if found else NO_TRANSLATIONS


class CatalogBabel(Babel):
    """Flask-Babel, its messages from the catalogs read here."""

    _domain = CatalogDomain()

    @property
    def domain_instance(self):
        return self._domain
