"""The checks of issue 27 that CI runs with the other tests: every catalog
complete, the template (.pot) up to date with the sources, and nothing a
person reads left unmarked, in the pages and in the scripts.

Unmarked text is found with a pseudo-locale made here from the template:
every message wrapped in ⟦…⟧ with its letters accented (placeholders, tags
and character references kept), used as the app's English. A page rendered
in it shows, outside ⟦…⟧, only data: the test's names of groups, players and
phones, card notation, numbers, amounts and the day and month names of dates.
A script's text is read from its source (tests/js/literals.js): a string that
reads as words for a person, and is not a message of gettext or ngettext, is
unmarked.
"""

import functools
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.dates import get_timezone_location
from babel.messages.catalog import Catalog
from babel.messages.extract import extract as extract_messages
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from flask import render_template

from scorekeeper import catalogs, queries, services
from scorekeeper.charts.svg import short
from scorekeeper.extensions import db
from scorekeeper.limits import time_zones
from scorekeeper.models import GameSession, Group
from scorekeeper.web import modules, script_strings
from scorekeeper.web.locales import LANGUAGES, SOURCE
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_RULES
from tests.web.helpers import ROOT, csrf_token
from tests.web.probing import ALPHA, BETA, app_rules, rule_url, site_for_probing

pytestmark = pytest.mark.any_database

# The pages and scripts not marked yet for translation, by endpoint and by
# script. This set must shrink to empty: whoever marks a page or a script
# takes it out (a test fails while a page or script listed has nothing left
# unmarked, so the set never claims more than is true). Every page and
# script not listed here is checked.
NOT_YET_MARKED = {
    # Pages (endpoints)
    # Scripts (their path in static/)
}

POT = catalogs.FOLDER / "messages.pot"
TRANSLATED = [language.locale for language in LANGUAGES if language is not SOURCE]


# The catalogs


def extract(target: Path) -> Catalog:
    """The template as the README's `pybabel extract` makes it from the sources."""
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"),
                                "-o", str(target), str(ROOT)])
    with target.open("rb") as file:
        return read_po(file)


def ids(catalog: Catalog) -> dict:
    """Each message's id (a tuple for a plural), context and flags."""
    return {(message.id, message.context): sorted(message.flags - {"fuzzy"})
            for message in catalog if message.id}


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def test_the_template_holds_every_message_of_the_sources_and_no_other(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # babel.cfg's paths are the checkout's
    made, kept = ids(extract(tmp_path / "messages.pot")), ids(read(POT))
    assert made == kept, (
        "scorekeeper/translations/messages.pot is out of date: run pybabel extract and "
        f"update (README, Languages). New: {sorted(set(made) - set(kept), key=str)}; "
        f"gone: {sorted(set(kept) - set(made), key=str)}")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_catalog_translates_every_message_of_the_template(locale):
    template = read(POT)
    catalog = read(catalogs.FOLDER / locale / "LC_MESSAGES" / "messages.po", locale)
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        strings = found.string if found and isinstance(found.string, tuple) else (
            [found.string] if found else [])
        if found is None:
            problems.append(f"missing: {message.id!r}")
        elif found.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        elif not all(strings) or (
                message.pluralizable and len(strings) != catalog.num_plurals):
            problems.append(f"untranslated: {message.id!r}")
    # Babel's checks: the same placeholders as the msgid, forms for every plural.
    problems += [f"{message.id!r}: {error}" for message, errors in catalog.check()
                 for error in errors]
    assert not catalog.fuzzy, "the catalog's header is marked fuzzy"
    assert problems == []


# The pseudo-locale

ACCENTED = str.maketrans("aceinouyACEINOUY", "áçéíñóúýÁÇÉÍÑÓÚÝ")
# What a translation keeps as it is: placeholders, tags, character references.
KEPT = re.compile(r"(%\([^)]*\)[sdi]|%%|<[^>]*>|&#?\w+;)")


def pseudo(text: str) -> str:
    """ "Sign in to %(group)s" -> "⟦Sígñ íñ tó %(group)s⟧" """
    return "⟦" + "".join(part if KEPT.fullmatch(part) else part.translate(ACCENTED)
                         for part in KEPT.split(text)) + "⟧"


def test_the_pseudo_locale_keeps_placeholders_tags_and_references():
    assert pseudo("Try again in %(count)s minutes, <b>Ann</b> &amp; 100%%") == \
        "⟦Trý ágáíñ íñ %(count)s míñútés, <b>Áññ</b> &amp; 100%%⟧"


@functools.cache
def pseudo_catalog() -> Catalog:
    catalog = Catalog(locale=SOURCE.locale)
    for message in read(POT):
        if message.id:
            string = (tuple(pseudo(each) for each in message.id)
                      if isinstance(message.id, tuple) else pseudo(message.id))
            catalog.add(message.id, string, context=message.context, flags=message.flags)
    return catalog


# Names the test data gives (probing.py's two groups), the app's own, and the
# languages' names on the switch: data, not text.
NAMES = sorted({ALPHA[0], BETA[0], *ALPHA[2], *BETA[2], "Setup phone", f"{ALPHA[0]} phone",
                f"{BETA[0]} phone", "Scorekeeper", "Bahasa Melayu", "English", "中文",
                # The players' names cut short at the ends of a chart's lines.
                *map(short, [*ALPHA[2], *BETA[2]])},
               key=len, reverse=True)
# Words of data: card notation (K♥, JK, the suits' letters S H D C), the
# currency as typed, UTC's name, and Babel's English names of days and months in dates.
DATA_WORDS = re.compile(r"JK|[JQKASHDC]|RM|UTC|Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun"
                        r"|Jul|Aug|Sep|Oct|Nov|Dec")
SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-description"}


@functools.cache
def zone_names() -> frozenset[str]:
    """The time zones' names as Babel gives them in English (CLDR's city:
    "Abidjan"), which the group's page lists: data, as the days' names are."""
    return frozenset(get_timezone_location(zone, locale="en", return_city=True)
                     for zone in time_zones())


def unmarked_words(text: str) -> list[str]:
    """The words of ``text`` outside ⟦…⟧ that are not data. Messages may
    nest (a title inside a sentence), and a tag inside a message splits its
    text: a text's end before an unmatched ⟧, or its start from an unmatched
    ⟦, is a message's too."""
    if text.strip() in zone_names():
        return []
    rest, before = text, None
    while rest != before:  # the innermost messages first
        before, rest = rest, re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
    rest = re.sub(r"⟦[^⟧]*$", " ", re.sub(r"^[^⟦]*⟧", " ", rest))
    for name in NAMES:
        rest = rest.replace(name, " ")
    return [word for word in re.findall(r"[^\W\d_]+", rest) if not DATA_WORDS.fullmatch(word)]


class ShownText(HTMLParser):
    """The text a page shows or reads out: text outside <script> and
    <style> (``shown``, in the page's order), and (``texts``) the attributes
    read out or shown, a button input's value, and data- attributes that
    read as words for a person (a script shows them)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.shown: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skipping += 1
        values = dict(attrs)
        for name, value in attrs:
            if value and (name in SHOWN_ATTRIBUTES or (
                    name == "value" and tag == "input"
                    and values.get("type") in ("submit", "button", "reset"))):
                self.texts.append(value)
            elif value and name.startswith("data-"):
                self.texts += [each for each in strings_in(value) if reads_as_words(each)]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.shown.append(data)


def strings_in(value: str) -> list[str]:
    """An attribute's value, or the strings of the JSON it holds."""
    try:
        document = json.loads(value)
    except ValueError:
        return [value]
    found: list[str] = []

    def walk(node):
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            for each in node.values():
                walk(each)
        elif isinstance(node, list):
            for each in node:
                walk(each)
    walk(document)
    return found


# Strings that read as words of code, not for a person: an event's key, a
# method, a class of the platform, a directive.
CODE_WORDS = {"Enter", "Escape", "Backspace", "POST", "GET", "Accept", "AbortError",
              "ResizeObserver", "SyncManager", "JOKER", "SHDC", "JK", "use strict"}
# Elements' names: a string of them alone is a selector ("input, label, a").
ELEMENTS = {"a", "button", "details", "div", "form", "input", "label", "li", "output", "p",
            "section", "select", "span", "summary", "textarea", "ul"}
CODE_LIKE = re.compile(r"[-_/=#<>{}\[\]]|^\.|\w[.:]\w|[a-z][A-Z]|^[;:,]")


def reads_as_words(text: str) -> bool:
    """Whether a string reads as words for a person: a word that starts with
    a capital, or several words with a sentence's punctuation, and nothing of
    a selector, a class name, an address or an identifier. (A lone word in
    lower case reads as code: an event's, an element's, a value's name.)"""
    text = text.strip()
    words = re.findall(r"[^\W\d_]+", text)
    if (not words or text in CODE_WORDS or set(words) <= ELEMENTS
            or any(CODE_LIKE.search(each) for each in text.split())):
        return False
    return bool(re.match(r"[A-Z][a-z]", words[0]) or (
        len(words) >= 2 and re.search(r"[,:;.!?…·✓]", text)))


def test_reading_a_string_as_words_or_as_code():
    for words in ("Reload", "Use theirs", "Tien Hu", "same rank, next suit", "Hu · 0 pts",
                  "Entered on ", "Round 0 is kept on this phone. Keep this page open: "):
        assert reads_as_words(words), words
    for code in ("form.round-form", "input[type=hidden][name=key]", "pad:left", "keydown",
                 "Enter", "Content-Type", "text/html", "chip round-chip round-chip-bad",
                 "; secure", "./dom.js", "aria-current", "notice queue", "scorekeeper-hand:",
                 "input, label, a, button", "use strict", "0-status", "2-digit"):
        assert not reads_as_words(code), code


def test_unmarked_words_are_those_outside_the_pseudo_locale_that_are_not_data():
    assert unmarked_words("⟦Sígñ íñ⟧ · Scorekeeper") == []
    assert unmarked_words("Zorblax ⟦páys⟧ Quintessa RM 1.50, K♥ JK 10♦, Sat 21 Nov 2026") == []
    assert unmarked_words("Zorblax pays Quintessa") == ["pays"]
    assert unmarked_words("⟦Róúñd 2⟧ saved") == ["saved"]
    assert unmarked_words("Buenos Aires") == [] and unmarked_words("Buenos Aires saved") == [
        "Buenos", "Aires", "saved"]
    assert unmarked_words("⟦⟦Róúñd 2⟧ fróm Zorblax⟧; ⟦⟦Róúñd 3⟧ fróm Zorblax⟧") == []
    assert unmarked_words("whílé thís págé wás ópéñ⟧ then") == ["then"]
    assert unmarked_words("saved ⟦Théñ") == ["saved"]


# The pages in the pseudo-locale


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with site_for_probing(tmp_path_factory.mktemp("translations")) as site:
        catalogs.install(site.app, SOURCE.locale, pseudo_catalog())
        yield site


JOIN = re.compile(r'value="https?://[^"]+(/join/[A-Za-z0-9_-]+)"')


def rendered_pages(site) -> dict[str, list[tuple[str, str]]]:
    """Every GET page (200, HTML) by endpoint, as Alpha's phone and as a phone
    signed in to no group sees it: its path and its HTML. An invite link is
    made first, so that the page it opens and the one showing it are seen."""
    pages: dict[str, list[tuple[str, str]]] = {}
    member, stranger = site.member(site.alpha), site.app.test_client()

    def seen(endpoint, path, response):
        if response.status_code == 200 and response.mimetype == "text/html":
            pages.setdefault(endpoint, []).append((path, response.text))

    member.post("/group/invite", data={"csrf_token": csrf_token(member, "/group/invite")})
    shown = member.get("/group/invite")
    seen("invites.index", "/group/invite", shown)
    (join,) = JOIN.findall(shown.text)
    seen("invites.join", join, stranger.get(join))
    for client in (member, stranger):
        for rule in app_rules(site.app, "GET"):
            path = rule_url(rule, site.alpha)
            seen(rule.endpoint, path, client.get(path))
    return pages


@pytest.fixture(scope="module")
def pages(site):
    return rendered_pages(site)


def outside_messages(texts: list[str]) -> list[str]:
    """Each of a page's texts with the messages blanked out, a message being
    read across the tags inside it (a name in <strong>, a link: "⟦Néxt:
    <strong>Ann</strong> déáls⟧"), and a message inside another's too."""
    page = "\0".join(texts)
    innermost = re.compile(r"⟦[^⟦⟧]*⟧")
    while innermost.search(page):
        page = innermost.sub(lambda found: re.sub(r"[^\0]", " ", found.group()), page)
    return page.split("\0")


def unmarked_on(html: str) -> list[str]:
    reader = ShownText()
    reader.feed(html)
    return [text.strip() for text in reader.texts if unmarked_words(text)] + [
        text.strip() for text, rest in zip(reader.shown, outside_messages(reader.shown),
                                           strict=True) if unmarked_words(rest)]


def test_a_message_is_read_across_the_tags_inside_it():
    html = ("<p>⟦Ñéxt: <strong>Zorblax</strong> déáls <a href=/r/2>⟦róúñd 2⟧</a>.⟧</p>"
            "<p>⟦Pláý:⟧ Zorblax <b>then</b></p>")
    assert unmarked_on(html) == ["then"]


def test_every_page_marked_shows_only_marked_text_and_data(pages):
    assert len(pages) > 20
    unmarked = {f"{endpoint} {path}": found for endpoint, seen in pages.items()
                if endpoint not in NOT_YET_MARKED
                for path, html in seen if (found := unmarked_on(html))}
    assert unmarked == {}


@pytest.mark.parametrize("name", sorted(path.name for path in (ROOT / "templates" / "errors")
                                        .glob("*.html")))
def test_every_error_page_shows_only_marked_text(site, name):
    with site.app.test_request_context("/"):
        html = render_template(f"errors/{name}", minutes=3, days=30, back="/", csrf_failed=True)
    assert "⟦" in html and unmarked_on(html) == []


def test_the_sign_in_page_s_refusals_are_marked(site):
    phone = site.app.test_client()
    for typed in ({"name": ALPHA[0], "passphrase": "not it", "device": "Mei"},
                  {"name": "", "passphrase": "", "device": ""},
                  {"name": "x" * 500, "passphrase": "y" * 500, "device": "z" * 500}):
        answer = phone.post("/sign-in", data={"csrf_token": csrf_token(phone), **typed})
        assert answer.status_code == 200
        assert unmarked_on(answer.text) == [], typed



def refused_sessions_pages(site) -> dict[str, tuple[int, str]]:
    """The sessions pages in states no GET shows, by what was done: a new
    session's form refused field by field and for the table, a table whose
    players sit at a session still open, the house rules and the join form
    refused, and settle up on a player's own phone. Nothing is saved."""
    phone = site.member(site.alpha)
    session = f"/sessions/{site.alpha.ids['session']}"
    name = site.alpha.players[0]

    def post(path, data, page=None):
        answer = phone.post(path, data={"csrf_token": csrf_token(phone, page or path), **data})
        return answer.status_code, answer.text

    new, rules = site.form_data("/sessions/new"), site.form_data(f"{session}/rules")
    seated = {f"seats-{i}": player for i, player in enumerate(site.alpha.players)}
    pages = {
        "fields refused": post("/sessions/new", {
            **new, "seats-0": name, "seats-1": name.upper(), "seats-2": "", "seats-3": "",
            "first_dealer": "4", "currency": "", "packs": "99", "jokers": "", "tiers": "1 x",
            "hu_cents": "-1", "tien_hu_cents": "1.555", "unit_cents": "x",
            "point_cents": "99999999"}),
        "table refused": post("/sessions/new", {
            **new, "seats-0": "x" * 300, "seats-1": "", "seats-2": "", "seats-3": "",
            "tiers": " ".join(["1"] * 20), "joker_ace_cents": ""}),
        "tiers refused": post("/sessions/new", {**new, "tiers": "999"}),
        "already playing": post("/sessions/new", {**new, **seated}),
        "rules refused": post(f"{session}/rules", {**rules, "hu_cents": "x"}),
        "join refused": post(f"{session}/players", {"name": "", "position": "1"}),
        "join refused by the table": post(f"{session}/players", {"name": name, "position": "1"}),
    }
    post(f"{session}/phone", {"player": str(site.alpha.ids["player"])}, session)
    answer = phone.get(f"{session}/settle")
    pages["settle up on a player's phone"] = answer.status_code, answer.text
    return pages


def test_the_sessions_pages_refusals_and_their_other_states_are_marked(site):
    pages = refused_sessions_pages(site)
    assert {what: status for what, (status, _) in pages.items()} == {
        "fields refused": 200, "table refused": 200, "tiers refused": 200,
        "already playing": 200, "rules refused": 422, "join refused": 200,
        "join refused by the table": 200, "settle up on a player's phone": 200}
    shown = "".join(html for _, html in pages.values())
    for message in ("Type a number from %(low)s to %(high)s.", "Type an amount like 1.50.",
                    "Use at most two decimals: whole cents.", "That amount is too large.",
                    "Type whole numbers of units, e.g. 0 1 2 3 4 5.", "Seat %(seat)s is empty.",
                    "Type at most %(most)s numbers, one per place.", "Type an amount, e.g. 1.50.",
                    "A place pays at most %(most)s units.", "Use at most %(max)s characters.",
                    "Type the names of %(least)s to %(most)s players.",
                    "Already playing: nothing was started",
                    "Type a name of 1 to %(most)s characters.",
                    "Type 1 to %(most)s characters, e.g. RM.", "%(seat)s has this name already.",
                    "%(player)s is already at the table", "%(you)s pay %(payee)s"):
        # Each state was shown: the message's words around its values.
        assert all(part in shown for part in re.split(r"%\([^)]*\)s", pseudo(message))), message
    assert {what: unmarked_on(html) for what, (_, html) in pages.items()} == {
        what: [] for what in pages}


def played_on(site) -> dict[str, object]:
    """Beta's group, which the other checks here do not read, in the states
    the probe's data never reaches: its session ended (the night's summary
    on the scoreboard), more sessions ended than two pages of the history
    hold (the pager and its box to go to a page), and a session of more
    rounds than a page holds. The ended sessions' ids, by what they are."""
    players, device = site.beta.players, "Setup phone"
    letters = dict(zip("ABC", players, strict=True))
    with site.app.app_context():
        group = db.session.get(Group, site.beta.group_id)
        first = db.session.get(GameSession, site.beta.ids["session"])
        services.end_session(services.Change.to(first, device=device))
        for _ in range(2 * queries.PER_PAGE):
            game = services.start_session(services.Change(group, device=device), players,
                                          EXAMPLE_RULES, first_dealer=players[0])
            services.end_session(services.Change.to(game, device=device))
        long = services.start_session(services.Change(group, device=device), players,
                                      EXAMPLE_RULES, first_dealer=players[0])
        for number in range(queries.ROUNDS_PER_PAGE + 1):  # B wins one round in three by a Hu
            example = (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3)[number % 3]
            services.record_round(services.Change.to(long, device=device),
                                  {letters[k]: e for k, e in example.items() if k in letters})
        services.end_session(services.Change.to(long, device=device))
        return {"first": first.id, "long": long.id}


def test_the_history_pages_and_the_nights_summary_are_marked_in_every_state(site):
    ended, player = played_on(site), site.beta.ids["player"]
    phone = site.member(site.beta)
    paths = ["/history", "/history?page=3", f"/history?player={player}&page=2",
             f"/history/sessions/{ended['long']}", f"/history/sessions/{ended['long']}?page=2",
             f"/players/{player}", f"/players/{player}?page=3",
             f"/sessions/{ended['long']}", f"/sessions/{ended['first']}"]
    answers = {path: phone.get(path) for path in paths}
    assert {path: answer.status_code for path, answer in answers.items()} == dict.fromkeys(
        paths, 200)
    shown = "".join(answer.text for answer in answers.values())
    for message in ("← Newer", "Older →", "Page %(number)s of %(pages)s", "Go to page",
                    "← Earlier", "Later →", "Final places", "Biggest winner", "Biggest loser",
                    "%(players)s (%(total)s in all)", "Ended %(when)s, after %(rounds)s rounds."):
        # Each state was shown: the message's words around its values.
        assert all(part in shown for part in re.split(r"%\([^)]*\)s", pseudo(message))), message
    assert {path: unmarked_on(answer.text) for path, answer in answers.items()} == {
        path: [] for path in paths}


STRINGS = re.compile(r'<script type="application/json" id="strings">(.*?)</script>', re.S)
MODULE = re.compile(r'<script type="module" src="/static/(js/[^"]+?)\.[0-9a-f]{8}\.js"')


def test_every_page_hands_its_scripts_the_strings_of_their_modules_in_its_language(site, pages):
    """The scripts' strings in the pseudo-locale: the page's JSON holds a
    translation of exactly the msgids of its module graph, each changed."""
    checked = 0
    with site.app.test_request_context("/"):
        for seen in pages.values():
            for _, html in seen:
                entries = [f"{name}.js" for name in MODULE.findall(html)]
                graph = modules.graph(entries)
                wanted = {m if isinstance(m, str) else m[0]
                          for name in graph for m in script_strings.msgids(name)}
                found = STRINGS.findall(html)
                messages = json.loads(found[0])["messages"] if found else {}
                assert set(messages) == wanted
                for text in messages.values():
                    assert all(each.startswith("⟦") for each in (
                        text if isinstance(text, list) else [text]))
                checked += bool(messages)
    assert checked > 20


# The scripts


@functools.cache
def literals() -> dict[str, list[dict]]:
    """Every script's string literals (tests/js/literals.js), by path in static/."""
    node = shutil.which("node")
    assert node, "node is needed: it reads the scripts as ESLint does"
    files = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "static" / "js").rglob("*.js"))
    done = subprocess.run([node, "tests/js/literals.js", *files], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return {path.removeprefix("static/"): found for path, found in json.loads(done.stdout).items()}


def unmarked_in(script: str) -> list[str]:
    return [f"{each['line']}: {each['text']!r}" for each in literals()[script]
            if each["role"] == "other" and reads_as_words(each["text"])]


def test_every_script_marked_shows_only_marked_text():
    unmarked = {script: found for script in literals() if script not in NOT_YET_MARKED
                if (found := unmarked_in(script))}
    assert unmarked == {}


def test_every_message_a_script_passes_to_gettext_is_one_the_extractor_reads():
    """Babel's JavaScript extractor, which makes the catalogs and the strings
    a page is handed, skips a call inside a template literal's ${…}: its text
    would show in English in every language."""
    missed = []
    for script, found in literals().items():
        with (ROOT / "static" / script).open("rb") as source:
            read = {text for _, message, _, _ in extract_messages(
                "javascript", source, keywords=script_strings.KEYWORDS)
                for text in ((message,) if isinstance(message, str) else message)}
        missed += [f"{script} {each['line']}: {each['text']!r}" for each in found
                   if each["role"] == "gettext" and each["text"] not in read]
    assert missed == []


def test_the_set_of_what_is_not_marked_yet_names_only_what_still_is(pages):
    """Marked whole, a page or a script leaves NOT_YET_MARKED."""
    scripts = {name for name in NOT_YET_MARKED if name.startswith("js/")}
    assert scripts <= set(literals()), "a script listed is no script"
    assert set(NOT_YET_MARKED) - scripts <= set(pages), "a page listed is no page seen"
    marked = sorted(
        [script for script in scripts if not unmarked_in(script)]
        + [page for page in set(NOT_YET_MARKED) - scripts
           if not any(unmarked_on(html) for _, html in pages[page])])
    assert marked == [], "marked now: take them out of NOT_YET_MARKED"
