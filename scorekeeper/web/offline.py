"""Installable, and readable offline: the web app manifest, the service worker
(static/js/sw.js) and what it needs to know, the page it shows for a page
never seen (one a language, as the bar it puts on a page kept), and the
manifest's shortcut to the scoreboard.

The worker keeps a copy of the group pages a phone opens and shows it when the
network is gone. What it may keep, and for which sign-in, the server says in
two headers on every HTML page:

- ``Scorekeeper-Sign-In``: the sign-in the page was made for (the start of
  its token's hash: never the token, and never the same for two sign-ins,
  access.sign_in_public_id), or ``none`` for a phone signed in to no group.
  The worker keeps the pages of one sign-in at a time and deletes them all
  when this changes: signing out, a sign-in ended by a new passphrase, a new
  sign-in (to another group, or the same one again).
- ``Scorekeeper-Offline``: ``page`` on a group page worth keeping (a GET
  answered 200, not a share link's page, nor an invite link's pages: one
  shows its token), ``scoreboard`` on a scoreboard (the shortcut's target
  when offline).
- ``Scorekeeper-Round-Form``, on the scoreboard of a session being played:
  where to fetch the form of the round it shows next, as that scoreboard
  stands (its number, dealer and order of play, the hands empty, the session's
  version), which the worker keeps in place of the form's own address. The
  form as opened online is not kept: offline, "Enter round 4" opens round 4's
  form, never an older copy with the hands some phone had sent to it.

The worker also reads every page's ``Content-Language`` (web/locales.py): it
keeps pages per language, and shows offline those of the phone's language.
"""

import hashlib
import json
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    redirect,
    request,
    url_for,
)
from flask_babel import force_locale
from flask_babel import gettext as _

from .. import queries
from . import locales, static_files
from .access import current_group, sign_in_public_id, signed_in, signed_in_group
from .round_form import BLANK_FORM
from .share_links import PUBLIC as SHARED_PAGES

bp = Blueprint("offline", __name__)

SIGN_IN_HEADER = "Scorekeeper-Sign-In"
KEEP_HEADER = "Scorekeeper-Offline"
FORM_HEADER = "Scorekeeper-Round-Form"

# app.css's --felt and --paper: the bar above the app and the splash screen.
THEME_COLOUR = "#0b5d3b"

# Pages never kept: an invite link just made (its token, shown once) and
# the page an invite link opens.
NEVER_KEPT = SHARED_PAGES | {"invites.index", "invites.join"}
BACKGROUND_COLOUR = "#ffffff"


@bp.get("/manifest.webmanifest")
def manifest():
    """The same for every phone: browsers fetch it without the cookie."""
    home = url_for("home.index")
    body = {
        "id": home,
        "name": "Scorekeeper for Penang rummy",
        "short_name": "Scorekeeper",
        "description": "Points and money for Penang rummy and Rummi at the card table.",
        "lang": "en",
        "dir": "ltr",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [_icon("icon-192", "any"), _icon("icon-512", "any"),
                  _icon("maskable-192", "maskable"), _icon("maskable-512", "maskable")],
        "shortcuts": [{
            "name": "Scoreboard",
            "description": "The scoreboard of the session being played",
            "url": url_for("offline.scoreboard"),
            "icons": [_icon("icon-192", "any")],
        }],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    response.cache_control.no_cache = True
    return response


def _icon(name: str, purpose: str) -> dict:
    size = name.rsplit("-", 1)[1]
    return {"src": url_for("static", filename=f"icons/{name}.png"),
            "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}


WORKER_SCRIPT = "js/sw.js"
# sw.js as a module worker with Background Sync, where the browser has it.
SYNC_WORKER_SCRIPT = "js/sw-sync.js"


@bp.get("/sw.js")
def worker():
    """The service worker, a static script, served at the root so that it
    sees every page (its scope is its folder: no Service-Worker-Allowed) and
    asked again at every update check (no-cache). Pages register it as
    /sw.js?v=<version> (worker_url): a deploy that changes any static file
    changes the address, so the browser installs a new worker, which caches
    the new files and drops the old."""
    return _script(WORKER_SCRIPT)


@bp.get("/static/js/sw-sync.js")
def sync_worker():
    """The worker where the browser has Background Sync (offline.js registers
    it there, as a module): sw-sync.js, which runs sw.js and sends the rounds
    kept on the phone by itself. Served where it stands, beside the modules it
    imports (static/js/core), with the whole app allowed as its scope."""
    response = _script(SYNC_WORKER_SCRIPT)
    response.headers["Service-Worker-Allowed"] = url_for("home.index")
    return response


def _script(name: str):
    """A worker's script, asked again at every update check."""
    folder = Path(current_app.extensions["static_files"]["folder"])
    response = Response((folder / name).read_bytes(), mimetype="text/javascript")
    response.cache_control.no_cache = True
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/sw.json")
def worker_data():
    """What the worker needs from the server, fetched as it installs (the
    ``v`` it asks with only keeps caches out of the way)."""
    response = jsonify(_worker_data())
    response.cache_control.no_cache = True
    return response


@bp.app_template_global()
def worker_url() -> str:
    return url_for("offline.worker", v=_worker_data()["version"])


@bp.app_template_global()
def sync_worker_url() -> str:
    return url_for("offline.sync_worker", v=_worker_data()["version"])


def _worker_data() -> dict:
    """Read once per process (per URL prefix), and afresh in debug mode."""
    known = current_app.extensions.setdefault("offline_worker", {})
    key = url_for("home.index")
    if key not in known or current_app.debug:
        data = {"files": _static_files(), "languages": _languages(),
                "shortcut": url_for("offline.scoreboard"),
                "signOut": url_for("groups.sign_out"),
                "signInHeader": SIGN_IN_HEADER, "keepHeader": KEEP_HEADER,
                "formHeader": FORM_HEADER, "languageHeader": "Content-Language"}
        # The worker itself counts: a new worker for a change to it too.
        content = [json.dumps(data, sort_keys=True),
                   *(_offline_html(language) for language in locales.LANGUAGES),
                   static_files.digest(WORKER_SCRIPT) or "",
                   static_files.digest(SYNC_WORKER_SCRIPT) or ""]
        version = hashlib.sha256("\n".join(content).encode()).hexdigest()[:12]
        known[key] = {"version": version, **data}
    return known[key]


def _static_files() -> dict[str, str]:
    """Every file in static/ (hidden ones, the workers and READMEs aside): its plain
    URL and its fingerprinted one. The worker answers either with the cached
    file, as the server answers an old fingerprint with the current file."""
    folder = Path(current_app.extensions["static_files"]["folder"])
    files = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if (not path.is_file() or name in (WORKER_SCRIPT, SYNC_WORKER_SCRIPT)
                or path.suffix == ".md"
                or any(part.startswith(".") for part in name.split("/"))):
            continue
        files[static_files.plain_url(name)] = url_for("static", filename=name)
    return files


# Intl.DateTimeFormat's locale for the time in the worker's bar, where it is
# not the language's own tag: the app's English writes "Tue 3 Mar, 21:04".
CLOCKS = {"en": "en-GB"}


def _languages() -> dict[str, dict[str, str]]:
    """By language: the offline page, the words of the bar the worker puts
    on a page kept (offline-bar.js says them with the same msgids), and the
    locale of its time."""
    languages = {}
    for language in locales.LANGUAGES:
        with force_locale(language.locale):
            languages[language.tag] = {
                "offline": url_for("offline.page", tag=language.tag),
                # Translators: the bar on a page the phone kept, shown offline:
                # "Offline, as of 21:04" (or "Tue 3 Mar, 21:04").
                "asOf": _("Offline, as of %(time)s"), "tryAgain": _("Try again"),
                "clock": CLOCKS.get(language.tag, language.tag)}
    return languages


@bp.get("/offline", defaults={"tag": None})
@bp.get("/offline/<tag>")
def page(tag):
    """What the worker shows, offline, for a page this phone has not kept in
    its language: one page a language, which the worker keeps as it installs
    (plain /offline is in the phone's language)."""
    language = locales.BY_TAG.get(tag) if tag else locales.requested()
    if language is None:
        abort(404)
    response = Response(_offline_html(language), mimetype="text/html")
    response.headers["Content-Language"] = language.tag
    response.cache_control.no_cache = True
    return response


def _offline_html(language: locales.Language) -> str:
    with force_locale(language.locale):
        return _render("offline/page.html")


def _render(name: str, **context) -> str:
    """A template rendered without the app's context processors: the same for
    every phone (nothing of its group), and with no database to ask."""
    return current_app.jinja_env.get_template(name).render(**context)


@bp.get("/scoreboard")
@signed_in
def scoreboard():
    """The manifest's shortcut: the scoreboard of the session being played;
    with several being played, the list of them; with none, the home page.
    Offline, the worker opens the last scoreboard the phone kept instead."""
    playing = queries.open_sessions(signed_in_group(), 1, per_page=2).items
    if len(playing) == 1:
        return redirect(url_for("sessions.board", session_id=playing[0].session.id))
    return redirect(url_for("sessions.still_open" if playing else "home.index"))


@bp.after_app_request
def tell_the_worker(response):
    """The two headers the worker reads (the module's docstring), on HTML
    answers but redirects. The pages have asked current_group() already;
    this blueprint's own show nothing of a group and ask no database, nor
    does a page about a failed database."""
    if (response.mimetype != "text/html" or 300 <= response.status_code < 400
            or request.blueprint == bp.name or g.get("database_failed")):
        return response
    if current_group() is None:
        response.headers[SIGN_IN_HEADER] = "none"
        return response
    response.headers[SIGN_IN_HEADER] = sign_in_public_id()
    if (request.method == "GET" and response.status_code == 200
            and request.endpoint not in NEVER_KEPT
            and (request.endpoint != "rounds.new" or BLANK_FORM in request.args)):
        kind = "scoreboard" if request.endpoint == "sessions.board" else "page"
        response.headers[KEEP_HEADER] = kind
        game = g.get("game")
        if kind == "scoreboard" and game is not None and not game.is_finished:
            response.headers[FORM_HEADER] = url_for(
                "rounds.new", session_id=game.id, **{BLANK_FORM: game.version})
    return response

