"""The catalogs are read from their .po files and compiled in memory as the
app starts (scorekeeper/catalogs.py): no .mo file, no build step, nothing
written, a broken catalog refused at start, an edit seen at once in debug
mode (issue 27)."""

import os
import shutil
import stat
from types import SimpleNamespace

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, read_po, write_po

from scorekeeper import catalogs

pytestmark = pytest.mark.any_database

MALAY = "ms"


def write(folder, locale, messages, fuzzy=()) -> None:
    catalog = Catalog(locale=locale)
    for msgid, msgstr in messages.items():
        catalog.add(msgid, msgstr, flags=("fuzzy",) if msgid in fuzzy else ())
    path = folder / locale / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog)


def files_in(folder) -> list:
    return sorted((path.relative_to(folder), path.stat().st_mtime_ns)
                  for path in folder.rglob("*"))


def read_only(folder) -> None:
    for path in [folder, *folder.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def test_a_catalog_is_compiled_in_memory_without_writing_anything(tmp_path):
    write(tmp_path, MALAY, {"Try again": "Cuba lagi", "Reload": "Muat semula", "Back": ""},
          fuzzy={"Reload"})
    read_only(tmp_path)  # a checkout the server may not write to
    before = files_in(tmp_path)
    app = SimpleNamespace(extensions={})
    catalogs.load(app, tmp_path)
    translations = app.extensions["catalogs"][MALAY].translations
    assert translations.gettext("Try again") == "Cuba lagi"
    # A guess pybabel update made (fuzzy), and a message not translated: English.
    assert translations.gettext("Reload") == "Reload"
    assert translations.gettext("Back") == "Back"
    assert files_in(tmp_path) == before  # no .mo, nothing else


def test_a_catalog_is_read_once_per_version_of_its_file(tmp_path):
    write(tmp_path, MALAY, {"Try again": "Cuba lagi"})
    path = tmp_path / MALAY / "LC_MESSAGES" / "messages.po"
    first = catalogs.read(path, MALAY)
    assert catalogs.read(path, MALAY) is first  # each worker reads it once
    write(tmp_path, MALAY, {"Try again": "Cuba sekali lagi"})
    os.utime(path, ns=(first_mtime := path.stat().st_mtime_ns, first_mtime + 1_000_000))
    assert catalogs.read(path, MALAY).translations.gettext("Try again") == "Cuba sekali lagi"


def test_a_broken_catalog_stops_the_start(tmp_path):
    path = tmp_path / MALAY / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    path.write_text('msgid "Try again"\nmsgstr "Cuba lagi"\nCuba lagi\n')  # a line of no keyword
    with pytest.raises(PoFileError, match="misformatted keyword"):
        catalogs.load(SimpleNamespace(extensions={}), tmp_path)


def test_the_app_reads_the_catalogs_of_the_checkout_and_no_mo_file(app):
    assert set(app.extensions["catalogs"]) == {"ms", "zh_Hans"}
    assert list(catalogs.FOLDER.rglob("*.mo")) == []
    with app.test_request_context("/", headers={"Cookie": "language=ms"}):
        assert catalogs.current().translations.gettext("Sign in") == "Log masuk"


@pytest.mark.own_app
def test_in_debug_mode_a_catalog_edited_shows_on_the_next_request(app, tmp_path):
    folder = tmp_path / "translations"
    shutil.copytree(catalogs.FOLDER, folder)
    catalogs.load(app, folder)
    app.debug = True
    phone = app.test_client()
    phone.set_cookie("language", MALAY)
    assert "Log masuk ke kumpulan anda" in phone.get("/sign-in").text
    path = folder / MALAY / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale=MALAY)
    catalog["Sign in to your group"].string = "Masuk ke kumpulan anda"
    with path.open("wb") as file:
        write_po(file, catalog)
    os.utime(path, ns=(path.stat().st_mtime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert "Masuk ke kumpulan anda" in phone.get("/sign-in").text
