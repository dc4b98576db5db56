"""The dark theme (issue 29): the phone's choice kept in a cookie the server
reads, so the first paint is right on every page; the switch in the footer
of the pages a phone comes in by, a form with its CSRF token; the colours
all tokens, dark values for them, and the text and highlights readable
(WCAG AA) in both themes."""

import re
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

from tests.web.helpers import csrf_token, forms_on, make_link, parsed

pytestmark = pytest.mark.any_database

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
AS_THE_PHONE = "(prefers-color-scheme: dark)"


def switch(client, choice, next_page="/rules", token=None):
    return client.post("/theme", data={
        "csrf_token": token or csrf_token(client), "theme": choice, "next": next_page})


def set_cookie(response) -> SimpleCookie:
    cookie = SimpleCookie()
    for header in response.headers.getlist("Set-Cookie"):
        cookie.load(header)
    return cookie


def shown(response) -> tuple[str, list[str]]:
    """The page's dark sheet's media and the switch's button marked, if it has the switch."""
    page = parsed(response)
    (sheet,) = page.select("link#theme-dark")
    marked = [b.attrs["value"] for b in page.select("footer form.theme-switch button")
              if "aria-current" in b.attrs]
    return sheet.attrs["media"], marked


# Where the footer holds the switch; every page follows the cookie.
SWITCH_PAGES = ("/", "/sign-in")


# The cookie and the switch


@pytest.mark.parametrize("choice, media, kept", [
    ("dark", "all", "dark"),
    ("light", "not all", "light"),
    ("auto", AS_THE_PHONE, ""),
])
def test_each_choice_is_kept_on_the_phone_and_shown_from_the_first_paint(
        anonymous, choice, media, kept):
    anonymous.set_cookie("theme", "dark" if choice == "auto" else "light")
    response = switch(anonymous, choice, "/sign-in?next=/history")
    assert response.status_code == 303
    assert response.location == "/sign-in?next=/history"  # back to the page it was on
    morsel = set_cookie(response)["theme"]
    assert morsel.value == kept
    assert (morsel["path"], morsel["samesite"]) == ("/", "Lax")
    assert morsel["max-age"] == ("0" if choice == "auto" else "31536000")  # as the phone: none
    # Not HttpOnly: theme-switch.js switches on the page (offline too) by setting it.
    assert not morsel["httponly"]
    assert shown(anonymous.get("/sign-in?next=/history")) == (media, [choice])
    assert shown(anonymous.get("/rules")) == (media, [])  # no switch here, the theme all the same


def test_with_no_choice_or_a_bad_one_the_page_follows_the_phone(app, client, sid):
    for cookie in (None, "purple", "auto", "", "dark; x", "DARK"):
        if cookie is None:
            client.delete_cookie("theme")
        else:
            client.set_cookie("theme", cookie)
        for path in ("/", f"/sessions/{sid}", "/sign-in", "/no-such-page"):
            response = client.get(path)
            assert response.status_code in (200, 404)
            assert shown(response) == (
                AS_THE_PHONE, ["auto"] if path in SWITCH_PAGES else []), (cookie, path)
            assert "Cookie" in response.vary


def test_the_pages_a_phone_comes_in_by_offer_the_switch_going_back_to_themselves(
        app, client, anonymous, sid):
    client.set_cookie("theme", "dark")
    anonymous.set_cookie("theme", "dark")
    token = make_link(client, sid).rsplit("/", 1)[1]
    pages = [(client, "/"), (anonymous, "/sign-in"), *((anonymous, f"/share/{token}{end}")
                                                       for end in ("", "/settle", "/table"))]
    for viewer, path in pages:
        response = viewer.get(path)
        (form,) = [f for f in forms_on(response.text, path) if f.action == "/theme"]
        assert form.values["next"] == [path]
        assert form.buttons == {"theme": {"light", "dark", "auto"}}
        assert parsed(response).texts("footer form.theme-switch button") == [
            "Light", "Dark", "As the phone"]
        assert shown(response) == ("all", ["dark"])
        # theme.js, a classic script before the page shows (no defer, no module).
        head = response.text[:response.text.index("</head>")]
        assert re.search(r'<script src="/static/js/theme\.\w+\.js"></script>', head)
        assert "/static/js/theme-switch." in response.text
    # Elsewhere the theme, with no switch (nor its script): the weight budgets.
    for path in (f"/sessions/{sid}", f"/sessions/{sid}/rounds/new", "/group", "/history"):
        response = client.get(path)
        assert shown(response) == ("all", []), path
        assert re.search(r'<script src="/static/js/theme\.\w+\.js"></script>', response.text)
        assert "theme-switch" not in response.text


@pytest.mark.parametrize("choice", ["purple", "", "Dark"])
def test_a_choice_not_offered_is_refused_and_nothing_kept(anonymous, choice):
    response = switch(anonymous, choice)
    assert response.status_code == 400
    assert "theme" not in set_cookie(response)


def test_the_switch_needs_its_csrf_token(anonymous):
    anonymous.get("/sign-in")
    for token in ("", "forged"):
        response = anonymous.post("/theme", data={"csrf_token": token, "theme": "dark"})
        assert response.status_code == 400
        assert "theme" not in set_cookie(response)
    assert switch(anonymous, "dark").status_code == 303


@pytest.mark.parametrize("next_page", [
    "https://elsewhere.example/", "//elsewhere.example/x", "javascript:alert(1)", ""])
def test_the_switch_goes_back_only_to_a_page_of_ours(anonymous, next_page):
    response = switch(anonymous, "dark", next_page)
    assert response.status_code == 303 and response.location == "/"


def test_with_https_the_cookie_is_secure(app, anonymous):
    app.config["HTTPS"] = True
    assert set_cookie(switch(anonymous, "dark"))["theme"]["secure"]


def test_the_offline_page_follows_the_phone_until_theme_js_reads_the_cookie(anonymous):
    anonymous.set_cookie("theme", "dark")
    response = anonymous.get("/offline/en")  # the same for every phone
    assert parsed(response).select("link#theme-dark")[0].attrs["media"] == AS_THE_PHONE
    assert re.search(r'<script src="/static/js/theme\.\w+\.js"></script>', response.text)


def test_the_worker_keeps_the_dark_sheet_and_theme_js_for_offline(anonymous):
    files = anonymous.get("/sw.json").json["files"]
    assert {"/static/css/dark.css", "/static/js/theme.js", "/static/js/theme-switch.js"} <= set(
        files)


# The colours


def tokens(sheet: str) -> dict[str, str]:
    """The six-digit colours a sheet's :root gives its tokens."""
    root = re.search(r":root\s*{(.*?)}", (CSS / sheet).read_text(), re.S)[1]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-f]{6})\b", root))


LIGHT = tokens("app.css")
DARK = {**LIGHT, **tokens("dark.css")}


def luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# Text on the backgrounds it is set on (4.5:1, WCAG AA for text); the
# highlights (felt, red, amber, this phone's row) included.
TEXT_ON = {
    "paper": ["ink", "muted", "felt", "felt-dark", "red", "amber-ink", "black", "focus"],
    "panel": ["ink", "muted", "felt", "red", "amber-ink"],
    "mine": ["ink", "muted", "felt", "red"],
    "felt-light": ["ink", "felt", "felt-dark"],
    "felt-faint": ["ink", "felt", "red", "muted"],
    "red-light": ["ink", "red"],
    "amber-light": ["ink", "muted", "felt"],
    "flash": ["ink", "muted"],  # the pad's line, as it flashes to say it moved on
    "felt-bg": ["on-fill"], "felt-bg-hover": ["on-fill"], "red-bg": ["on-fill"],
    "red-bg-hover": ["on-fill"], "gold-bg": ["on-fill"], "own-bg": ["on-fill"],
    "qr-light": ["qr-dark"],
}
# Parts that are not text, against what is around them (3:1, WCAG 1.4.11).
PARTS_ON = {"paper": ["line", "focus", "amber", "felt"], "panel": ["line"]}


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_text_and_highlights_are_readable_in_both_themes(theme):
    low = [f"{text} on {background}: {contrast(theme[text], theme[background]):.2f}"
           for background, texts in TEXT_ON.items() for text in texts
           if contrast(theme[text], theme[background]) < 4.5]
    low += [f"{part} on {background}: {contrast(theme[part], theme[background]):.2f}"
            for background, parts in PARTS_ON.items() for part in parts
            if contrast(theme[part], theme[background]) < 3]
    assert low == []


def test_a_qr_code_keeps_dark_modules_on_a_light_quiet_zone_in_the_dark():
    assert (DARK["qr-light"], DARK["qr-dark"]) == ("#ffffff", "#000000")
    # The code full screen stays light whatever the theme.
    full = re.search(r"\.payto-full:target\s*{(.*?)}", (CSS / "payto.css").read_text(), re.S)[1]
    assert "var(--qr-light)" in full and "color-scheme: light" in full


def test_every_colour_is_a_token_with_a_dark_value():
    """No colour written outside a :root's tokens; every token the dark sheet
    leaves alone is a fill that carries white text, or a QR code's."""
    found = []
    for sheet in sorted(CSS.glob("*.css")):
        css = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
        outside = re.sub(r":root\s*{.*?}", "", css, flags=re.S)
        found += [f"{sheet.name}: {c}" for c in re.findall(
            r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(|(?<![\w-])(?:white|black)(?![\w-])", outside)]
    assert found == []
    kept = {name for name in LIGHT if name not in tokens("dark.css")}
    assert kept == {"on-fill", "felt-bg", "red-bg", "gold-bg", "own-bg", "qr-light", "qr-dark"}
