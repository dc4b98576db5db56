"""Security headers on every kind of response, templates without inline script
or style (which the Content-Security-Policy forbids), and the session cookie."""

import json
import re
from http.cookies import SimpleCookie

import pytest

from tests.conftest import GROUP_NAME, PASSPHRASE, fresh_app, the_group
from tests.web.helpers import (
    IMPORT_MAP,
    ROOT,
    assert_safe_headers,
    csrf_token,
    hash_source,
    import_maps,
    policy,
    token_in,
)
from tests.web.probing import listed_rules, rule_id, rule_url, site_for_probing

pytestmark = pytest.mark.any_database

TEMPLATES = ROOT / "templates"
STRINGS = re.compile(r'<script type="application/json" id="strings">(.*?)</script>', re.S)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc\s*=)[^>]*>", re.I)
STYLE = re.compile(r"<style\b|\sstyle\s*=", re.I)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
JAVASCRIPT_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", re.I)


# On PostgreSQL every app shares one database, and an app fixture of a test
# drops the tables: the tests with their own app come after those on ``site``.
@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with site_for_probing(tmp_path_factory.mktemp("security")) as site:
        yield site


def responses_of_every_kind(site):
    """(what, response): a page, a redirect, errors 400, 404, 405 and 429, a
    file, JSON, a public share page."""
    app = site.app
    anonymous, member = app.test_client(), site.member(site.alpha)
    session_id = site.alpha.ids["session"]
    yield "home", anonymous.get("/")
    yield "group page", member.get(f"/sessions/{session_id}")
    yield "redirect to sign in", anonymous.get(f"/sessions/{session_id}")
    yield "404", member.get("/no-such-page")
    yield "400 (CSRF)", member.post("/sign-out")
    yield "405", member.get("/sign-out")
    yield "static file", anonymous.get("/static/css/app.css")
    yield "share page", anonymous.get(f"/share/{site.alpha.tokens[0]}")
    yield "JSON", member.get("/group/export.json")
    for i in range(11):  # an address and a name no other test here uses
        answer = anonymous.post("/sign-in", environ_base={"REMOTE_ADDR": "10.9.9.9"}, data={
            "csrf_token": csrf_token(anonymous), "name": "Nobody's table",
            "passphrase": f"guess {i}", "device": "Phone"})
    assert answer.status_code == 429
    yield "429", answer


def test_every_kind_of_response_has_the_security_headers(site):
    kinds = []
    for what, response in responses_of_every_kind(site):
        kinds.append((what, response.status_code))
        assert_safe_headers(response)
        response.close()
    assert {code for _, code in kinds} >= {200, 302, 400, 404, 405, 429}


@pytest.mark.parametrize("rule", [pytest.param(r, id=rule_id(r))
                                  for r in listed_rules() if "GET" in r.methods])
def test_every_page_has_the_headers_and_no_inline_script_or_style(site, rule):
    """Each GET page as a member of the group sees it, and as a signed-out phone."""
    for client in (site.member(site.alpha), site.app.test_client()):
        response = client.get(rule_url(rule, site.alpha))
        assert_safe_headers(response)
        if response.mimetype == "text/html":
            # But the import map, which the policy allows by its hash alone.
            maps = import_maps(response)
            assert len(maps) <= 1
            if maps:
                assert policy(response)["script-src"] == ["'self'", hash_source(maps[0])]
            html = IMPORT_MAP.sub("", response.get_data(as_text=True))
            # And the scripts' strings: JSON, which no browser runs.
            for data in STRINGS.findall(html):
                assert isinstance(json.loads(data), dict)
            html = STRINGS.sub("", html)
            assert INLINE_SCRIPT.findall(html) == []
            assert STYLE.findall(html) == []
            assert HANDLER.findall(html) == []
            assert JAVASCRIPT_URL.findall(html) == []
        response.close()


# Caching


def private(response) -> bool:
    return bool(response.cache_control.no_store and response.cache_control.private)


def test_pages_of_a_signed_in_phone_or_a_share_link_are_never_stored(site):
    """Not by a shared cache, nor by the browser, whose back button would show
    them to the next person holding the phone after sign-out."""
    member, anonymous = site.member(site.alpha), site.app.test_client()
    session_id = site.alpha.ids["session"]
    for url in ("/", f"/sessions/{session_id}", f"/sessions/{session_id}/settle", "/history",
                "/group", "/group/export.json", "/no-such-page", "/sign-in"):
        with member.get(url) as response:
            assert private(response), url
    with anonymous.get(f"/share/{site.alpha.tokens[0]}") as shared:
        assert shared.status_code == 200 and private(shared)
    with anonymous.get("/share/no-such-token") as not_found:
        assert private(not_found)


@pytest.mark.parametrize("url", ["/sign-in", "/groups/new"])
def test_pages_holding_a_csrf_token_are_never_stored(site, url):
    with site.app.test_client().get(url) as response:
        assert 'name="csrf_token"' in response.text
        assert private(response)


def test_static_files_and_healthz_keep_their_own_caching(site):
    member = site.member(site.alpha)
    with member.get("/") as page:
        stylesheet = re.search(r'href="(/static/css/app\.[0-9a-f]{8}\.css)"', page.text)[1]
    with member.get(stylesheet) as response:
        assert set(response.headers["Cache-Control"].split(", ")) == {
            "public", "max-age=31536000", "immutable"}
    with site.app.test_client().get("/healthz") as response:
        assert response.headers["Cache-Control"] == "no-store"


def templates():
    return sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_has_inline_script_style_or_handlers(path):
    source = path.read_text()
    assert INLINE_SCRIPT.findall(source) == [], "only <script src=...> files"
    assert STYLE.findall(source) == [], "no style attributes or elements"
    assert HANDLER.findall(source) == [], "no on...= handlers"
    assert JAVASCRIPT_URL.findall(source) == []


def test_the_template_scan_sees_what_it_looks_for():
    assert INLINE_SCRIPT.search('<script>alert(1)</script>')
    assert INLINE_SCRIPT.search('<script type="module">x()</script>')
    assert not INLINE_SCRIPT.search('<script src="/static/js/cards.js" defer></script>')
    assert STYLE.search('<p style="color:red">') and STYLE.search("<style>p{}</style>")
    assert not STYLE.search('<link rel="stylesheet" href="/static/css/app.css">')
    assert HANDLER.search('<button onclick="go()">') and HANDLER.search("<body onload=x>")
    assert not HANDLER.search('<p class="round-one">') and not HANDLER.search("data-on=1")
    assert JAVASCRIPT_URL.search('<a href="javascript:void(0)">')


# The session cookie


def session_cookie(response):
    headers = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")]
    assert len(headers) == 1, headers
    cookie = SimpleCookie()
    cookie.load(headers[0])
    return headers[0], cookie["session"]


def sign_in(app, base_url="http://localhost"):
    """Sign in through the form, as a browser at ``base_url`` would."""
    with app.app_context():
        the_group()
    phone = app.test_client()
    form = phone.get("/sign-in", base_url=base_url).get_data(as_text=True)
    response = phone.post("/sign-in", base_url=base_url, headers={"Referer": base_url + "/"},
                          data={"csrf_token": token_in(form), "name": GROUP_NAME,
                                "passphrase": PASSPHRASE, "device": "Cookie phone"})
    assert response.status_code == 302
    return response


def test_the_session_cookie_is_httponly_and_samesite_lax(app):
    header, morsel = session_cookie(sign_in(app))
    assert morsel["httponly"] is True
    assert morsel["samesite"] == "Lax"
    assert not morsel["secure"]
    assert morsel["expires"], "a phone stays signed in after the browser closes"
    assert morsel["path"] == "/"
    assert "Domain=" not in header


def session_cookies(response) -> list[str]:
    return [h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")]


def test_the_sign_in_is_renewed_once_a_day(app, monkeypatch):
    """The cookie's 400 days start again on the first page of each day, and
    the other responses of the day carry no new cookie."""
    from scorekeeper.web import access

    phone = app.test_client()
    sign_in_answer = sign_in(app)
    phone.set_cookie("session", session_cookie(sign_in_answer)[1].value)
    assert phone.get("/history").status_code == 200
    assert session_cookies(phone.get("/history")) == []
    day = access.today()
    monkeypatch.setattr(access, "today", lambda: day + 1)
    renewed = phone.get("/history")
    assert renewed.status_code == 200
    _, morsel = session_cookie(renewed)
    assert morsel["expires"]
    assert session_cookies(phone.get("/history")) == []


def test_with_https_the_session_cookie_is_secure(tmp_path):
    with fresh_app(tmp_path, TESTING=True, SECRET_KEY="https-secret-key-long-enough-to-sign",
                   HTTPS=True) as app:
        _, morsel = session_cookie(sign_in(app, "https://localhost"))
    assert morsel["secure"] is True
    assert morsel["httponly"] is True
    assert morsel["samesite"] == "Lax"


@pytest.mark.own_app
def test_error_pages_413_and_500_have_the_security_headers(app):
    app.testing = False  # let the 500 handler answer instead of re-raising
    app.add_url_rule("/_boom", "boom", lambda: 1 / 0)
    phone = app.test_client()
    too_large = phone.post("/sign-in", data={"name": "x" * app.config["MAX_CONTENT_LENGTH"]})
    failed = phone.get("/_boom")
    assert (too_large.status_code, failed.status_code) == (413, 500)
    for response in (too_large, failed):
        assert_safe_headers(response)
