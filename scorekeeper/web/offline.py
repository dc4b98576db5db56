"""Installable, and readable offline: the web app manifest, the service worker
(templates/offline/sw.js), the page it shows for a page never seen, and the
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
  answered 200, not a share link's page), ``scoreboard`` on a scoreboard (the
  shortcut's target when offline).
"""

import hashlib
import posixpath
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    jsonify,
    redirect,
    request,
    url_for,
)

from .. import queries
from . import static_files
from .access import current_group, sign_in_public_id, signed_in, signed_in_group
from .share_links import PUBLIC as SHARED_PAGES

bp = Blueprint("offline", __name__)

SIGN_IN_HEADER = "Scorekeeper-Sign-In"
KEEP_HEADER = "Scorekeeper-Offline"

# app.css's --felt and --paper: the bar above the app and the splash screen.
THEME_COLOUR = "#0b5d3b"
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


@bp.get("/sw.js")
def worker():
    """The service worker, at the root so that it sees every page. It lists
    the static files under their current fingerprinted names, so a deploy that
    changes one makes a new worker, which caches the new files."""
    files = _static_files()
    offline_page = _offline_html()
    version = hashlib.sha256("\n".join([*files.values(), offline_page]).encode()).hexdigest()
    script = _render("offline/sw.js", version=version[:12], files=files,
                     offline_url=url_for("offline.page"),
                     shortcut_url=url_for("offline.scoreboard"),
                     sign_out_url=url_for("groups.sign_out"),
                     sign_in_header=SIGN_IN_HEADER, keep_header=KEEP_HEADER)
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


def _static_files() -> dict[str, str]:
    """Every file in static/ (hidden ones aside): its plain URL and its
    fingerprinted one. The worker answers either with the cached file, as
    the server answers an old fingerprint with the current file."""
    folder = Path(current_app.extensions["static_files"]["folder"])
    files = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if not path.is_file() or any(part.startswith(".") for part in name.split("/")):
            continue
        current = url_for("static", filename=name)
        root, ext = posixpath.splitext(current)
        files[root.removesuffix(f".{static_files.digest(name)}") + ext] = current
    return files


@bp.get("/offline")
def page():
    """What the worker shows, offline, for a page this phone has not kept."""
    response = Response(_offline_html(), mimetype="text/html")
    response.cache_control.no_cache = True
    return response


def _offline_html() -> str:
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
            and request.endpoint not in SHARED_PAGES):
        kind = "scoreboard" if request.endpoint == "sessions.board" else "page"
        response.headers[KEEP_HEADER] = kind
    return response

