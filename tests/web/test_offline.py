"""Installable, and readable offline (issue 17), as the server serves it: the
manifest, the service worker, the offline page, the scoreboard shortcut, and
the headers that tell the worker which pages it may keep, for which sign-in."""

import re
import shutil
import struct
from pathlib import Path

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.web.offline import FORM_HEADER, KEEP_HEADER, SIGN_IN_HEADER
from tests.conftest import signed_in_client, the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_RULES
from tests.web.helpers import count_statements, csrf_token, make_link

pytestmark = pytest.mark.any_database

ROOT = Path(__file__).resolve().parents[2]


def start(app, *rounds) -> int:
    with app.app_context():
        game = services.start_session(services.Change(the_group()), list("ABCD"), EXAMPLE_RULES,
                                      first_dealer="D")
        for entries in rounds:
            services.record_round(services.Change.to(game), entries)
        return game.id


def sign_in_of(client) -> str:
    """The token of the client's sign-in."""
    with client.session_transaction() as cookie:
        return cookie["sign_in"]


def public_id(client) -> str:
    """What names the client's sign-in to its service worker."""
    return services.token_hash(sign_in_of(client))[:32]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def css_token(name: str) -> str:
    css = (ROOT / "static" / "css" / "app.css").read_text()
    return re.search(rf"--{name}:\s*(#[0-9a-f]{{6}})", css)[1]


def worker_data(client) -> dict:
    response = client.get("/sw.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.json


def worker_files(client) -> dict[str, str]:
    return worker_data(client)["files"]


WORKER = re.compile(r'<script type="module" src="/static/js/offline\.\w{8}\.js" '
                    r'data-worker="(/sw\.js\?v=(\w+))" '
                    r'data-sync-worker="(/static/js/sw-sync\.js\?v=(\w+))" '
                    r'data-scope="/"></script>')


def registered_worker(client) -> str:
    """The worker's address as the pages register it."""
    return WORKER.search(client.get("/").text)[1]


# The manifest


def test_the_manifest_makes_the_app_installable(anonymous):
    response = anonymous.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.json
    assert manifest["name"].startswith("Scorekeeper") and manifest["short_name"] == "Scorekeeper"
    assert len(manifest["short_name"]) <= 12  # what a home screen shows in full
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_each_icon_is_a_png_of_its_size(anonymous):
    manifest = anonymous.get("/manifest.webmanifest").json
    icons = manifest["icons"] + manifest["shortcuts"][0]["icons"]
    for icon in icons:
        assert re.fullmatch(r"/static/icons/[a-z0-9-]+\.[0-9a-f]{8}\.png", icon["src"])
        with anonymous.get(icon["src"]) as response:
            assert response.status_code == 200 and response.mimetype == "image/png"
            width, height = png_size(response.data)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"


def test_the_manifest_has_the_apps_colours(anonymous):
    manifest = anonymous.get("/manifest.webmanifest").json
    assert manifest["theme_color"] == css_token("felt")
    assert manifest["background_color"] == css_token("paper")
    page = anonymous.get("/sign-in").text
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page


def test_the_manifest_is_the_same_for_every_phone(client, anonymous):
    # Browsers fetch it without the cookie: nothing in it may depend on one.
    assert client.get("/manifest.webmanifest").json == anonymous.get(
        "/manifest.webmanifest").json


def test_every_page_links_the_manifest_and_the_worker(client):
    html = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert WORKER.search(html)


# The scoreboard shortcut


def test_the_shortcut_opens_the_scoreboard_being_played(app, client, anonymous):
    shortcut = anonymous.get("/manifest.webmanifest").json["shortcuts"][0]
    assert shortcut["url"] == "/scoreboard" and shortcut["name"] == "Scoreboard"
    assert client.get("/scoreboard").location == "/"  # nothing being played
    first = start(app, EXAMPLE_1)
    assert client.get("/scoreboard").location == f"/sessions/{first}"
    start(app)
    assert client.get("/scoreboard").location == "/sessions/open"  # which one? the list
    with app.app_context():
        services.end_session(services.Change.to(db.session.get(GameSession, first)))
    assert client.get("/scoreboard").location == f"/sessions/{first + 1}"


def test_the_shortcut_of_a_signed_out_phone_goes_by_sign_in(anonymous):
    response = anonymous.get("/scoreboard")
    assert response.status_code == 302
    assert response.location == "/sign-in?next=/scoreboard"


# The service worker


def test_the_worker_is_served_at_the_root_as_javascript(anonymous):
    response = anonymous.get(registered_worker(anonymous))
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"  # checked at every update
    assert "Service-Worker-Allowed" not in response.headers  # / is its own folder
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
    # A static script, the same whatever the version asked for: nothing rendered in.
    assert response.data == (ROOT / "static" / "js" / "sw.js").read_bytes()
    assert anonymous.get("/sw.js?v=0").data == response.data


def test_the_worker_with_background_sync_is_served_beside_its_modules_for_the_whole_app(
        anonymous):
    """Issue 25, 7: where the browser has Background Sync, offline.js registers
    sw-sync.js (a module that runs sw.js and sends the rounds kept): served
    where it stands, so that its imports are the core's files, under the same
    version, and allowed the app's root as its scope."""
    html = anonymous.get("/").text
    _, version, module, same = WORKER.search(html).groups()
    assert (module, same) == (f"/static/js/sw-sync.js?v={version}", version)
    response = anonymous.get(module)
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.data == (ROOT / "static" / "js" / "sw-sync.js").read_bytes()
    for imported in re.findall(r'^import .*"\./([^"]+)";$', response.text, re.M):
        assert anonymous.get(f"/static/js/{imported}").status_code == 200, imported


def test_the_worker_is_registered_under_the_version_of_its_data(anonymous):
    data = worker_data(anonymous)
    assert registered_worker(anonymous) == f"/sw.js?v={data['version']}"
    assert re.fullmatch(r"[0-9a-f]{12}", data["version"])
    response = anonymous.get(f"/sw.json?v={data['version']}")
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.json == data
    assert {key: data[key] for key in ("shortcut", "signOut")} == {
        "shortcut": "/scoreboard", "signOut": "/sign-out"}
    assert (data["signInHeader"], data["keepHeader"], data["formHeader"],
            data["languageHeader"]) == (SIGN_IN_HEADER, KEEP_HEADER, FORM_HEADER,
                                        "Content-Language")
    # The offline page and the bar's words in each language, the bar's as offline-bar.js says them.
    assert data["languages"] == {
        "en": {"offline": "/offline/en", "asOf": "Offline, as of %(time)s",
               "tryAgain": "Try again", "clock": "en-GB"},
        "ms": {"offline": "/offline/ms", "asOf": "Luar talian, setakat %(time)s",
               "tryAgain": "Cuba lagi", "clock": "ms"},
        "zh-Hans": {"offline": "/offline/zh-Hans", "asOf": "离线，截至 %(time)s",
                    "tryAgain": "重试", "clock": "zh-Hans"}}


def test_the_worker_caches_every_static_file_by_its_current_name(anonymous):
    files = worker_files(anonymous)
    folder = ROOT / "static"
    on_disk = {f"/static/{p.relative_to(folder).as_posix()}"
               for p in folder.rglob("*") if p.is_file() and p.suffix != ".md"}
    # The workers are not a page's files.
    assert set(files) == on_disk - {"/static/js/sw.js", "/static/js/sw-sync.js"}
    for plain, current in files.items():
        root, ext = plain.rsplit(".", 1)
        assert re.fullmatch(rf"{re.escape(root)}\.[0-9a-f]{{8}}\.{ext}", current)
        with anonymous.get(current) as response:
            assert response.status_code == 200, current


def test_a_kept_page_finds_its_stylesheets_and_scripts_in_the_worker(app, client):
    """Each page links app.css and its area's stylesheet: all cached ahead, by
    the names the pages link them by, with the modules they preload."""
    game = start(app, EXAMPLE_1)
    cached = set(worker_files(client).values())
    for page in ("", "/rounds/new", "/rounds/1", "/rounds/1/edit", "/settle", "/changes"):
        html = client.get(f"/sessions/{game}{page}").text
        linked = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
        assert len([url for url in linked if url.endswith(".css")]) >= 2, page
        assert re.search(r'<link rel="modulepreload" href="/static/', html), page
        assert set(linked) <= cached, page


@pytest.fixture
def own_static(app, tmp_path, monkeypatch):
    """The app serving a copy of static/, to edit, with hashes read afresh."""
    shutil.copytree(ROOT / "static", tmp_path / "static")
    monkeypatch.setitem(app.extensions, "static_files",
                        {"folder": str(tmp_path / "static"), "digests": {}})
    app.debug = True
    return tmp_path / "static"


def test_a_deploy_that_changes_a_file_makes_a_new_worker(anonymous, own_static):
    before, files = registered_worker(anonymous), worker_files(anonymous)
    assert registered_worker(anonymous) == before  # the same files, the same worker
    css = own_static / "css" / "app.css"
    css.write_text(css.read_text() + "\n/* changed */\n")
    after = registered_worker(anonymous)
    assert after != before
    assert worker_files(anonymous)["/static/css/app.css"] != files["/static/css/app.css"]
    assert worker_files(anonymous)["/static/js/cards.js"] == files["/static/js/cards.js"]
    # A change to the worker alone makes a new one too.
    script = own_static / "js" / "sw.js"
    script.write_text(script.read_text() + "\n// changed\n")
    assert registered_worker(anonymous) not in (before, after)
    assert anonymous.get("/sw.js").data == script.read_bytes()
    again = registered_worker(anonymous)
    module = own_static / "js" / "sw-sync.js"
    module.write_text(module.read_text() + "\n// changed\n")
    assert registered_worker(anonymous) not in (before, after, again)


# The offline page


def test_the_offline_page_shows_nothing_of_the_group(client):
    response = client.get("/offline")
    assert response.status_code == 200
    html = response.text
    assert "No network" in html and "Friday table" not in html
    assert "History</a>" not in html and "Sign in</a>" not in html
    assert SIGN_IN_HEADER not in response.headers


@pytest.mark.parametrize("url", ["/offline", "/offline/zh-Hans", "/sw.js", "/sw.json",
                                 "/manifest.webmanifest"])
def test_what_the_worker_fetches_asks_no_database(app, client, url):
    assert count_statements(app, client, url) == 0


# What the worker is told of each page


def test_group_pages_are_kept_for_their_sign_in(app, client):
    game = start(app, EXAMPLE_1)
    sign_in = public_id(client)
    board = f"/sessions/{game}"
    kinds = {board: "scoreboard", f"{board}/rounds/1": "page", f"{board}/settle": "page",
             f"{board}/rounds/new?blank=1": "page", "/": "page", "/history": "page"}
    for url, kind in kinds.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers[SIGN_IN_HEADER] == sign_in, url
        assert response.headers[KEEP_HEADER] == kind, url
        assert set(response.headers["Cache-Control"].split(", ")) == {"no-store", "private"}


def test_a_share_page_is_never_kept_not_even_for_a_member(app, client, anonymous):
    game = start(app, EXAMPLE_1)
    link = make_link(client, game)
    for phone in (client, anonymous):
        for url in (link, link + "/settle"):
            response = phone.get(url)
            assert response.status_code == 200
            assert KEEP_HEADER not in response.headers


def test_another_groups_page_and_a_refused_form_are_not_kept(app, client):
    game = start(app, EXAMPLE_1)
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        db.session.refresh(other)
        db.session.expunge(other)
    theirs = signed_in_client(app, other, device="Their phone")
    missing = theirs.get(f"/sessions/{game}")
    assert missing.status_code == 404
    assert missing.headers[SIGN_IN_HEADER] == public_id(theirs)
    assert KEEP_HEADER not in missing.headers
    form = f"/sessions/{game}/rounds/new"
    refused = client.post(form, data={"csrf_token": csrf_token(client, form)})
    assert refused.status_code in (200, 400, 422)
    assert KEEP_HEADER not in refused.headers


def test_a_phone_signed_in_to_no_group_is_told_so(app, client, anonymous, group):
    for url in ("/", "/sign-in"):
        response = anonymous.get(url)
        assert response.headers[SIGN_IN_HEADER] == "none", url
        assert KEEP_HEADER not in response.headers
    # Signed out: the page after it says so, and the worker forgets.
    client.post("/sign-out", data={"csrf_token": csrf_token(client, "/group")})
    assert client.get("/").headers[SIGN_IN_HEADER] == "none"


def test_a_sign_in_ended_elsewhere_is_told_so(app, client, group):
    with app.app_context():
        services.sign_out_phone(sign_in_of(client))  # as a new passphrase does
    response = client.get("/", follow_redirects=True)
    assert response.headers[SIGN_IN_HEADER] == "none"
    assert KEEP_HEADER not in response.headers


def test_json_and_static_answers_carry_no_mark(app, client):
    game = start(app)
    for url in (f"/sessions/{game}/draft", "/static/css/app.css", "/healthz"):
        response = client.get(url)
        assert SIGN_IN_HEADER not in response.headers, url
        response.close()
