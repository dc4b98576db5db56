"""What the web tests share: a page's forms as a browser would post them and
the errors they show, its text (whole, or of the elements a simple selector
picks), a client's CSRF token, the SQL statements a request runs, a round
entered through its form, the hand check, the headers every response
carries, share links made through the pages, and the hands of a round
filled in together. Example data is in examples.py, backups made through the
pages in backups.py, phones over real HTTP in phones.py; probing.py probes
every URL rule."""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import sqlalchemy as sa
from flask import g, has_app_context

from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player, Round
from scorekeeper.web.static_files import MINIFIERS

ROOT = Path(__file__).resolve().parents[2]  # the project's folder


# The forms on a page


@dataclass
class PageForm:
    """A POST form as a browser would send it: its fields' values, the values
    its radios and selects offer, its named submit buttons and its file inputs."""

    action: str
    page: str = ""  # the path of the page it was found on
    values: dict[str, list[str]] = field(default_factory=dict)
    options: dict[str, set[str]] = field(default_factory=dict)
    buttons: dict[str, set[str]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)


class FormsReader(HTMLParser):
    """The POST forms of a page, in the order they come; a disabled field is
    left out, as a browser leaves it out."""

    def __init__(self, page_path: str):
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.forms: list[PageForm] = []
        self.form: PageForm | None = None
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        name = attrs.get("name")
        if tag == "form":
            if attrs.get("method", "get").lower() == "post":
                action = urlsplit(attrs.get("action") or self.page_path).path
                self.form = PageForm(action, self.page_path)
                self.forms.append(self.form)
            return
        if self.form is None or "disabled" in attrs:
            return
        if tag == "input" and name:
            kind = attrs.get("type", "text").lower()
            if kind == "file":
                self.form.files.add(name)
            elif kind in ("radio", "checkbox"):
                self.form.options.setdefault(name, set()).add(attrs.get("value", "on"))
                if "checked" in attrs:
                    self.form.values.setdefault(name, []).append(attrs.get("value", "on"))
            elif kind not in ("submit", "button", "reset", "image"):
                self.form.values.setdefault(name, []).append(attrs.get("value", ""))
        elif tag == "button" and name:
            self.form.buttons.setdefault(name, set()).add(attrs.get("value", ""))
        elif tag == "select" and name:
            self.select = name
            self.form.options.setdefault(name, set())
        elif tag == "option" and self.select:
            self.form.options[self.select].add(attrs.get("value", ""))
            if "selected" in attrs:
                self.form.values.setdefault(self.select, []).append(attrs.get("value", ""))
        elif tag == "textarea" and name:
            self.textarea = name
            self.form.values.setdefault(name, []).append("")

    def handle_data(self, data):
        if self.form is not None and self.textarea:
            self.form.values[self.textarea][-1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def forms_on(html: str, page_path: str = "") -> list[PageForm]:
    """The page's POST forms; one without an action posts to ``page_path``."""
    reader = FormsReader(page_path)
    reader.feed(html)
    return reader.forms


def form_values(html: str, action: str | None = None) -> dict[str, str]:
    """What a browser would post from the page's one POST form to ``action``,
    or from its first POST form if no action is given: one value a field."""
    forms = forms_on(html)
    if action is None:
        form = forms[0]
    else:
        (form,) = [f for f in forms if f.action == action]
    return {name: values[0] for name, values in form.values.items()}


def token_in(html: str) -> str:
    """The CSRF token of the page's forms."""
    tag = re.search(r'<input[^>]*name="csrf_token"[^>]*>', html)
    assert tag, "no CSRF token on the page"
    return unescape(re.search(r'value="([^"]*)"', tag[0])[1])


def csrf_token(client, url="/sign-in") -> str:
    """The CSRF token of the client's cookie, read from a page's form."""
    return token_in(client.get(url).text)


def error_of(html, field_id):
    """The error a form shows under field ``field_id``, or None."""
    match = re.search(rf'<p class="error" id="{field_id}-error">([^<]*)</p>', html)
    return match and match.group(1)


# The text of a page


def text(response) -> str:
    """The page's HTML with its character references turned into characters."""
    return unescape(response.get_data(as_text=True))


def visible_text(response) -> str:
    """The page's visible text, tags dropped and spaces squeezed."""
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


# A module's static imports (`import {x} from "./core/cards.js"`, `import "./a.js"`,
# `export {x} from "./b.js"`); an import() loads on demand, not with the page.
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;"'()]*?["'](\.{1,2}/[^"']+)["']""", re.M)


class Element:
    """An element of a page: its tag, attributes and children (elements and text)."""

    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element | str] = []

    @property
    def text(self) -> str:
        """Its text, spaces squeezed, as ``inner_text`` reads it on one line."""
        return " ".join("".join(self._texts()).split())

    def _texts(self):
        for child in self.children:
            if isinstance(child, str):
                yield child
            else:
                yield " " if child.tag == "br" else ""
                yield from child._texts()

    def matches(self, simple: str) -> bool:
        """Whether it matches a simple selector: tag, .class, #id, [attr] or
        [attr=value], joined (``li.round-line``, ``section[aria-labelledby=x]``)."""
        for kind, name, value in re.findall(r"([.#\[]?)([\w-]+)(?:=([^\]]*))?\]?", simple):
            if kind == "" and self.tag != name:
                return False
            if kind == "." and name not in self.attrs.get("class", "").split():
                return False
            if kind == "#" and self.attrs.get("id") != name:
                return False
            if kind == "[" and (name not in self.attrs
                                or (value and self.attrs[name] != value.strip("'\""))):
                return False
        return True

    def select(self, selector: str) -> list[Element]:
        """The elements under this one that ``selector`` picks: simple
        selectors, each inside the one before it (``table.board-totals tbody tr``)."""
        found: list[Element] = [self]
        for simple in selector.split():
            found = list(dict.fromkeys(
                e for each in found for e in each._under() if e.matches(simple)))
        return found

    def texts(self, selector: str) -> list[str]:
        return [element.text for element in self.select(selector)]

    def _under(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child._under()


# Elements that have no end tag.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _TreeReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.open = Element("", {}, None)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v or "" for k, v in attrs}, self.open)
        self.open.children.append(element)
        if tag not in VOID:
            self.open = element

    def handle_endtag(self, tag):
        at = self.open
        while at.parent is not None and at.tag != tag:
            at = at.parent
        if at.parent is not None:
            self.open = at.parent

    def handle_data(self, data):
        if self.open.tag not in ("script", "style"):
            self.open.children.append(data)


def parsed(response_or_html) -> Element:
    """A page as a tree of elements, to read with ``select`` and ``texts``."""
    html = response_or_html if isinstance(response_or_html, str) else response_or_html.text
    reader = _TreeReader()
    reader.feed(html)
    reader.close()
    return reader.root


# What a page may weigh (page_weight), in any language: issue 3 allows 60 KB.
# The new round's form, 72 KB: the pad and the round filled in together, the
# app's two largest scripts, with their strings in the phone's language
# (README.md, "Compression").
WEIGHT_LIMIT = 60 * 1024
ROUND_FORM_WEIGHT_LIMIT = 72 * 1024


def page_weight(html: bytes | str) -> int:
    """What a page weighs, uncompressed: its HTML, every stylesheet and script
    it links from static/ and every module those scripts import, each once,
    as they are sent (minified)."""
    if isinstance(html, str):
        html = html.encode()
    static = ROOT / "static"
    names = re.findall(rb'(?:href|src)="/static/([^"?]+\.(?:css|js))"', html)
    files = [static / re.sub(r"\.[0-9a-f]{8}\.", ".", n.decode()) for n in names]
    seen: set[Path] = set()
    while files:
        path = files.pop().resolve()
        if path in seen:
            continue
        seen.add(path)
        if path.suffix == ".js":
            files += [path.parent / name for name in STATIC_IMPORT.findall(path.read_text())]
    return len(html) + sum(len(MINIFIERS[path.suffix](path.read_text()).encode())
                           for path in seen)


# The SQL statements a request runs


@contextmanager
def statements(app):
    """The SQL statements the app's engine runs inside the block, as a list."""
    with app.app_context():
        engine = db.engine
    seen = []

    def record(conn, cursor, statement, *args):
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def count_statements(app, client, url) -> int:
    """How many SQL statements a GET of ``url`` runs; it must answer 200. In a
    test that keeps an app context pushed (the ``ctx`` fixture) the request
    would share it: it starts afresh, as a server's requests do."""
    if has_app_context():
        db.session.close()
        g.pop("signed_in", None)
    with statements(app) as seen:
        assert client.get(url).status_code == 200
    return len(seen)


# A round through its form (the players' ids are read in an app context)


def player_ids() -> dict[str, int]:
    return {p.name: p.id for p in db.session.scalars(sa.select(Player))}


def filled(html: str, entries: dict, names: dict[int, str] | None = None) -> dict[str, str]:
    """The page's round form with ``entries`` ({player name: (outcome, cards)})
    typed in for the players they name; ``names`` ({player id: name}) tells
    who is who, by default as the database says."""
    data = form_values(html)
    assert "version" in data, "the round form carries the session's version"
    if names is None:
        names = {i: n for n, i in player_ids().items()}
    for key, value in list(data.items()):
        match = re.fullmatch(r"entries-(\d+)-player", key)
        if match and names[int(value)] in entries:
            outcome, cards = entries[names[int(value)]]
            data[f"entries-{match[1]}-outcome"] = outcome
            data[f"entries-{match[1]}-cards"] = cards
    return data


def section(html: str, name: str) -> str:
    """The HTML of the named player's part of the round form."""
    pid = player_ids()[name]
    match = re.search(rf'<section[^>]*id="player-{pid}".*?</section>', html, re.S)
    assert match, f"no section for {name}"
    return unescape(match[0])


def round_count() -> int:
    return db.session.scalar(sa.select(sa.func.count(Round.id)))


def enter(client, base: str, entries: dict):
    """Post the new-round form of the rounds at ``base`` with ``entries`` typed in."""
    page = client.get(f"{base}/new")
    return client.post(f"{base}/new", data=filled(page.get_data(as_text=True), entries))


# The hand check on the home page


def hand_check(client, cards: str, preset: str) -> str:
    """The hand check's part of the home page, checking ``cards``."""
    response = client.get("/", query_string={"cards": cards, "preset": preset})
    assert response.status_code == 200
    html = response.text
    return html[html.index('<details class="panel home-check"'):html.index("</details>")]


# The headers of every response


# Where a policy may load from: our own origin, nothing, or (images) data: URLs.
ALLOWED_SOURCES = {"'self'", "'none'", "data:"}
# A page's one inline script: its import map (web/modules.py), allowed by its hash.
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)


def import_maps(response) -> list[str]:
    """The import maps of an HTML page, as written."""
    if response.mimetype != "text/html":
        return []
    data = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "gzip":
        data = gzip.decompress(data)
    else:
        assert encoding is None, encoding
    return IMPORT_MAP.findall(data.decode())


def hash_source(script: str) -> str:
    """How a Content-Security-Policy allows this inline script."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"


def policy(response) -> dict[str, list[str]]:
    """The Content-Security-Policy header as {directive: sources}."""
    header = response.headers.get("Content-Security-Policy")
    assert header, "no Content-Security-Policy"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def assert_safe_headers(response):
    """The headers every response carries: a strict Content-Security-Policy,
    no content sniffing, no framing, referrers for our own pages only."""
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    maps = {hash_source(each) for each in import_maps(response)}
    for name, sources in directives.items():
        assert set(sources) <= ALLOWED_SOURCES | (maps if name == "script-src" else set()), (
            name, sources)
        assert "data:" not in sources or name == "img-src", name
    assert "unsafe" not in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"


# Share links


def make_link(client, session_id) -> str:
    """Make a link through the page, as a member does; its URL (the newest link's)."""
    manage = f"/sessions/{session_id}/share"
    answer = client.post(manage, data={"csrf_token": csrf_token(client, manage)})
    assert answer.status_code == 302 and answer.location == manage
    return link_urls(client, session_id)[0]


def link_urls(client, session_id) -> list[str]:
    """The addresses of the session's working links, as its share page shows them."""
    html = client.get(f"/sessions/{session_id}/share").text
    return re.findall(r'class="share-url" value="([^"]+)" readonly', html)


# A round filled in together


def send_hand(client, session_id: int, player_id: int, outcome: str, cards: str = "", *,
              base: int = 0, number: int = 1, token: str | None = None,
              key: object = None, typing: bool = False):
    """A player's hand sent as together.js sends it: JSON, with the CSRF token
    (of ``token``, else read from the round form) in the X-CSRFToken header;
    with the change's ``key`` if one is given, and ``typing`` if its field is
    still being typed in."""
    token = token or csrf_token(client, f"/sessions/{session_id}/rounds/new")
    document = {"outcome": outcome, "cards": cards, "base": base, "number": number}
    if typing:
        document["typing"] = True
    if key is not None:
        document["key"] = key
    return client.post(f"/sessions/{session_id}/draft/{player_id}", headers={"X-CSRFToken": token},
                       json=document)


def send(client, session_id: int, name: str, outcome: str, cards: str = "", **kwargs):
    """Player ``name``'s hand sent (send_hand): the answer, whatever it is."""
    return send_hand(client, session_id, player_ids()[name], outcome, cards, **kwargs)


def sent_hand(client, session_id: int, name: str, outcome: str, cards: str = "", **kwargs):
    """Player ``name``'s hand sent (send_hand) and taken: the answer's JSON."""
    answer = send(client, session_id, name, outcome, cards, **kwargs)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def send_all(client, session_id: int, hands: dict) -> None:
    """Each player's hand of ``hands`` ({name: (outcome, cards)}) sent and taken."""
    for name, (outcome, cards) in hands.items():
        assert send(client, session_id, name, outcome, cards).status_code == 200


def state(client, session_id: int) -> dict:
    """The round being filled in, as a phone asks for it (GET .../draft)."""
    response = client.get(f"/sessions/{session_id}/draft")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def game(session_id: int) -> GameSession:
    """The session as the database has it now."""
    db.session.expire_all()
    return db.session.get(GameSession, session_id)

