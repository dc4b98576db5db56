"""Who may open what, for every URL rule the app has: a signed-out phone is sent
to sign in, a phone of another group gets a 404, a POST without its own CSRF
token is refused, and sign-in never sends a phone to another site.

The rules come from app.url_map, their ids filled with real rows of group
Alpha, so a page added later is checked without touching this file."""

import re
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from scorekeeper.web.access import safe_next
from tests.web.helpers import csrf_token
from tests.web.probing import (
    REDIRECTS,
    is_public,
    listed_rules,
    redirect_path,
    rule_id,
    rule_url,
    shows_any,
    site_for_probing,
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with site_for_probing(tmp_path_factory.mktemp("access")) as site:
        assert site.alpha.tokens, "Alpha's share page shows no share link"
        yield site


def by_method(method, keep):
    return [pytest.param(rule, id=rule_id(rule))
            for rule in listed_rules() if method in rule.methods and keep(rule)]


def requests(keep):
    """(rule, method) for every GET and POST of the rules that ``keep`` keeps."""
    return [pytest.param(rule, method, id=f"{method} {rule_id(rule)}")
            for rule in listed_rules() if keep(rule)
            for method in ("GET", "POST") if method in rule.methods]


def members_only(rule):
    return not is_public(rule)


def of_one_group(rule):
    """Rules whose URL names a group's row (a session, a player, a link ...)."""
    return members_only(rule) and bool(rule.arguments)


def call(client, method, path, data=None):
    return client.get(path) if method == "GET" else client.post(path, data=data or {})


def assert_sent_to_sign_in(response, path):
    """A redirect to the sign-in page that comes back to ``path``, or a 404."""
    if response.status_code == 404:
        return
    assert response.status_code in REDIRECTS, response.status_code
    location = response.headers["Location"]
    assert redirect_path(response) == "/sign-in", location
    (back,) = parse_qs(urlsplit(location).query)["next"]
    assert back == path
    assert safe_next(back) == back


# (a) A phone signed in to no group


@pytest.mark.parametrize(("rule", "method"), requests(members_only))
def test_a_signed_out_phone_is_sent_to_sign_in(site, rule, method):
    phone = site.app.test_client()
    data = {"csrf_token": csrf_token(phone), **site.form_data(rule_url(rule, site.alpha))}
    before = site.rows()
    path = rule_url(rule, site.alpha)
    response = call(phone, method, path, data)
    if rule.endpoint.startswith("live."):
        # A live page's stream can't follow a sign-in page: a 403 ends it.
        assert response.status_code in (403, 405), response.status_code
    else:
        assert_sent_to_sign_in(response, path)
    assert shows_any(response, site.alpha.players) == []
    assert site.rows() == before


@pytest.mark.parametrize("rule", by_method("GET", lambda r: is_public(r)
                                                 and not r.rule.startswith("/share/")))
def test_public_pages_show_nothing_of_a_group(site, rule):
    response = site.app.test_client().get(rule_url(rule, site.alpha))
    assert response.status_code == 200
    assert shows_any(response, [*site.alpha.players, site.alpha.name]) == []


@pytest.mark.parametrize("rule", by_method("GET", lambda r: r.rule.startswith("/share/")))
def test_share_pages_open_with_a_valid_token_only(site, rule):
    phone = site.app.test_client()
    response = phone.get(rule_url(rule, site.alpha))
    assert response.status_code == 200
    if rule.endpoint == "share.result":  # the session's picture: its names are pixels
        assert response.mimetype == "image/png"
    elif rule.endpoint != "live.shared_state":  # the state a shared page follows: no names
        assert shows_any(response, site.alpha.players) == site.alpha.players
    token = site.alpha.tokens[0]
    for forged in ("no-such-token", token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
                   token.split(".")[0], token + "x", "." + token):
        response = phone.get(rule.build({"token": forged})[1])
        assert response.status_code == 404, forged
        assert shows_any(response, site.alpha.players) == []


def test_signed_out_phones_are_sent_back_where_they_were_going(site):
    """The sign-in page's form carries the `next` of the redirect, and signing
    in goes there."""
    path = f"/sessions/{site.alpha.ids['session']}"
    phone = site.app.test_client()
    response = phone.get(path)
    html = phone.get(response.headers["Location"]).get_data(as_text=True)
    assert re.search(rf'name="next"[^>]*value="{re.escape(path)}"', html)
    response = phone.post("/sign-in", data={
        "csrf_token": csrf_token(phone), "name": site.alpha.name,
        "passphrase": site.alpha.passphrase, "device": "Back phone", "next": path})
    assert response.status_code in REDIRECTS
    assert response.headers["Location"] == path
    assert phone.get(path).status_code == 200


# (b) A phone signed in to another group


@pytest.mark.parametrize(("rule", "method"), requests(of_one_group))
def test_another_group_gets_404_for_our_rows(site, rule, method):
    phone = site.member(site.beta)
    path = rule_url(rule, site.alpha)
    data = {"csrf_token": csrf_token(phone), **site.form_data(path)}
    before = site.rows()
    response = call(phone, method, path, data)
    assert response.status_code in (404, *REDIRECTS), response.status_code
    assert shows_any(response, site.alpha.players) == []
    assert site.rows() == before


@pytest.mark.parametrize("rule", by_method("GET", lambda r: members_only(r) and not r.arguments))
def test_another_groups_own_pages_show_nothing_of_ours(site, rule):
    """Pages of the signed-in group as a whole (lists, exports ...) are Beta's own."""
    response = site.member(site.beta).get(rule_url(rule, site.beta))
    assert response.status_code < 500
    assert shows_any(response, [*site.alpha.players, site.alpha.name]) == []


def test_our_own_phone_opens_our_pages(site):
    """The probes above are meaningful: Alpha's phone sees Alpha's rows at these URLs."""
    phone = site.member(site.alpha)
    for path in (f"/sessions/{site.alpha.ids['session']}",
                 f"/sessions/{site.alpha.ids['session']}/rounds/1"):
        response = phone.get(path)
        assert response.status_code == 200
        assert shows_any(response, site.alpha.players) == site.alpha.players


# (c) CSRF on every POST


@pytest.mark.parametrize("rule", by_method("POST", lambda r: True))
def test_every_post_needs_its_own_csrf_token(site, rule):
    phone = site.member(site.alpha)
    csrf_token(phone)  # the phone has a token of its own in its cookie
    stranger = csrf_token(site.app.test_client())
    path = rule_url(rule, site.alpha)
    data = site.form_data(path)
    before = site.rows()
    for token in ({}, {"csrf_token": stranger}, {"csrf_token": "forged"}):
        response = phone.post(path, data={**data, **token})
        assert response.status_code == 400, (token, response.status_code)
        assert "nothing was saved" in response.get_data(as_text=True)
    assert site.rows() == before


# (d) Sign-in stays on this site


def where_a_browser_goes(location: str) -> str:
    """The host a browser goes to for a Location header, read as browsers read it
    (tabs and newlines dropped, backslashes taken for slashes)."""
    cleaned = re.sub(r"[\t\n\r]", "", location.strip("\x00 ")).replace("\\", "/")
    return urlsplit(urljoin("http://localhost/sign-in", cleaned)).hostname


@pytest.mark.parametrize("target", [
    "//evil.example", "https://evil.example", "http://evil.example/x", "http:evil.example",
    "///evil.example", "\\\\evil.example", "evil.example", "javascript:alert(1)",
    "/\\evil.example", "/\t/evil.example", "/\r\n/evil.example",
    "/x\r\nSet-Cookie: a=b",
])
def test_sign_in_never_redirects_off_site(site, target):
    phone = site.app.test_client()
    response = phone.post("/sign-in", data={
        "csrf_token": csrf_token(phone), "name": site.alpha.name,
        "passphrase": site.alpha.passphrase, "device": "Next phone", "next": target})
    assert response.status_code in REDIRECTS
    assert where_a_browser_goes(response.headers["Location"]) == "localhost"
