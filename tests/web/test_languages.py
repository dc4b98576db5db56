"""The phone's language (issue 27): how a request's language is chosen, the
switch in every footer, <html lang>, the pages converted so far in each
language, dates and money written in it, and the strings handed to a page's
scripts."""

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta
from http.cookies import SimpleCookie

import pytest
from flask import render_template

from scorekeeper.rules import PRESETS
from scorekeeper.web import filters
from scorekeeper.web.locales import BY_TAG, choose
from tests.web.helpers import csrf_token, forms_on, parsed, text, visible_text
from tests.web.probing import REDIRECTS

pytestmark = pytest.mark.any_database

MALAY, CHINESE = "ms", "zh-Hans"
TAGS = ("en", MALAY, CHINESE)


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def switch(client, tag, next_page="/", token=None):
    return client.post("/language", data={
        "csrf_token": token or csrf_token(client), "language": tag, "next": next_page})


def set_cookie(response) -> SimpleCookie:
    cookie = SimpleCookie()
    for header in response.headers.getlist("Set-Cookie"):
        cookie.load(header)
    return cookie


# Choosing


@pytest.mark.parametrize("cookie, accepted, chosen", [
    (None, [], "en"),
    (None, ["fr", "de"], "en"),
    (None, ["zh"], CHINESE), (None, ["zh-CN"], CHINESE), (None, ["zh-SG"], CHINESE),
    (None, ["zh-Hans"], CHINESE), (None, ["zh-Hans-MY"], CHINESE), (None, ["zh_CN"], CHINESE),
    (None, ["ms"], MALAY), (None, ["ms-MY"], MALAY), (None, ["MS-my"], MALAY),
    # Traditional characters are not ours: the next language asked for is.
    (None, ["zh-TW", "ms"], MALAY), (None, ["zh-Hant", "zh-HK"], "en"),
    # The first the app speaks, in the phone's order: English counts.
    (None, ["fr", "ms-MY", "zh-CN"], MALAY), (None, ["en-GB", "ms"], "en"),
    (None, ["*"], "en"),
    # The cookie wins; a cookie of no language of ours does not count.
    (MALAY, ["zh-CN"], MALAY), (CHINESE, [], CHINESE), ("en", ["ms"], "en"),
    ("zh_Hans", ["ms"], MALAY), ("klingon", [], "en"),
])
def test_a_phone_reads_its_cookie_s_language_else_the_first_of_accept_language(
        cookie, accepted, chosen):
    assert choose(cookie, accepted).tag == chosen


def test_accept_language_is_read_in_the_order_of_its_weights(anonymous):
    response = anonymous.get("/sign-in", headers={
        "Accept-Language": "fr;q=0.9, zh-CN;q=0.5, ms-MY;q=0.8"})
    assert response.headers["Content-Language"] == MALAY
    assert '<html lang="ms">' in response.text


# <html lang> and the footer's switch


@pytest.mark.parametrize("tag", TAGS)
def test_every_page_says_its_language_and_offers_the_others(client, sid, tag):
    for path in ("/sign-in", f"/sessions/{sid}", "/no-such-page"):
        response = in_language(client, tag).get(path)
        assert f'<html lang="{tag}">' in response.text, path
        assert response.headers["Content-Language"] == tag
        assert {"Cookie", "Accept-Language"} <= set(response.vary)
        (switch_form,) = [f for f in forms_on(response.text, path) if f.action == "/language"]
        assert switch_form.values["next"] == [path]
        assert switch_form.buttons == {"language": {"en", MALAY, CHINESE}}
        footer = parsed(response).select("footer form.language-switch")[0]
        buttons = {b.attrs["value"]: b for b in footer.select("button")}
        # Each in its own language, the one in use marked.
        assert {tag: (b.text, b.attrs["lang"]) for tag, b in buttons.items()} == {
            "en": ("English", "en"), MALAY: ("Bahasa Melayu", MALAY), CHINESE: ("中文", CHINESE)}
        assert [t for t, b in buttons.items() if "aria-current" in b.attrs] == [tag]


def test_the_switch_remembers_the_language_on_the_phone_for_a_year(anonymous):
    response = switch(anonymous, CHINESE, "/rules?preset=rummi")
    assert response.status_code == 303
    assert response.location == "/rules?preset=rummi"  # back to the page it was on
    morsel = set_cookie(response)["language"]
    assert morsel.value == CHINESE
    assert (morsel["max-age"], morsel["path"], morsel["samesite"]) == ("31536000", "/", "Lax")
    # Not HttpOnly: a page switches offline by setting it itself (language.js).
    assert not morsel["httponly"] and not morsel["secure"]
    page = anonymous.get("/rules?preset=rummi")
    assert '<html lang="zh-Hans">' in page.text
    assert page.headers["Content-Language"] == CHINESE


def test_with_https_the_cookie_is_secure(app, anonymous):
    app.config["HTTPS"] = True
    response = switch(anonymous, MALAY)
    assert set_cookie(response)["language"]["secure"]


@pytest.mark.parametrize("next_page", [
    "https://elsewhere.example/", "//elsewhere.example/x", "http:/x", "javascript:alert(1)",
    "sign-in", "/x\r\nLocation: https://elsewhere.example/", ""])
def test_the_switch_never_goes_to_another_site(anonymous, next_page):
    response = switch(anonymous, MALAY, next_page)
    assert response.status_code == 303
    assert response.location == "/"
    assert set_cookie(response)["language"].value == MALAY


def test_the_switch_needs_its_csrf_token_and_a_language_of_ours(anonymous):
    assert anonymous.post("/language", data={"language": MALAY}).status_code == 400
    for wrong in ("fr", "zh_Hans", ""):
        response = switch(anonymous, wrong)
        assert response.status_code == 400, wrong
        assert "language" not in set_cookie(response)
    assert anonymous.get("/language").status_code == 405


def test_an_answer_to_a_form_switches_back_to_a_page_not_to_the_form_s_address(app, client):
    """The group page answering a POST with an error: its address takes no GET."""
    answer = client.post("/group/device", data={"csrf_token": csrf_token(client), "device": ""})
    assert answer.status_code == 422
    (switch_form,) = [f for f in forms_on(answer.text) if f.action == "/language"]
    assert switch_form.values["next"] == ["/"]


def test_the_language_outlives_sign_out_and_sign_in(client):
    assert switch(client, MALAY, "/group").location == "/group"
    assert '<html lang="ms">' in client.get("/group").text
    assert client.post("/sign-out", data={"csrf_token": csrf_token(client)}).status_code \
        in REDIRECTS
    signed_out = client.get("/sign-in")
    assert "Log masuk ke kumpulan anda" in signed_out.text
    assert client.get_cookie("language").value == MALAY


# The pages converted so far, in each language


SIGN_IN = {
    "en": ["Sign in to your group", "Group name", "Passphrase", "This phone's name",
           "Shown in the history next to every change made from this phone.", "New here?",
           "Create a group", "Skip to content"],
    MALAY: ["Log masuk ke kumpulan anda", "Nama kumpulan", "Frasa laluan", "Nama telefon ini",
            "Baru di sini?", "Cipta kumpulan", "Langkau ke kandungan"],
    CHINESE: ["登录你的群组", "群组名称", "密码", "这部手机的名称", "第一次来？", "创建群组",
              "跳到正文"],
}
WRONG_PASSPHRASE = {"en": "That group name and passphrase don't match.",
                    MALAY: "Nama kumpulan dan frasa laluan itu tidak sepadan.",
                    CHINESE: "群组名称和密码不匹配。"}
NO_NAME = {"en": "Type the group's name.", MALAY: "Taip nama kumpulan.",
           CHINESE: "请输入群组名称。"}


# English words that a Chinese page may show: names, and the notation of files.
LATIN_ON_CHINESE_PAGES = {"Scorekeeper", "English", "Bahasa", "Melayu", "JSON", "Export",
                          "Friday", "table"}


def latin_words(page: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{2,}", page)) - LATIN_ON_CHINESE_PAGES


@pytest.mark.parametrize("tag", TAGS)
def test_the_sign_in_page_in_each_language(app, anonymous, group, tag):
    page = visible_text(in_language(anonymous, tag).get("/sign-in"))
    assert all(words in page for words in SIGN_IN[tag]), page
    if tag == CHINESE:
        assert latin_words(page) == set()
    wrong = anonymous.post("/sign-in", data={
        "csrf_token": csrf_token(anonymous), "name": "Friday table", "passphrase": "not it",
        "device": "Mei's phone"})
    assert WRONG_PASSPHRASE[tag] in text(wrong)
    empty = anonymous.post("/sign-in", data={"csrf_token": csrf_token(anonymous), "name": "",
                                             "passphrase": "x", "device": "Mei's phone"})
    assert NO_NAME[tag] in text(empty)


def test_one_group_s_sign_in_names_it_in_the_sentence_of_each_language(app, anonymous):
    app.config["SINGLE_GROUP"] = "Mak Cik's <table>"
    strong = "<strong>Mak Cik&#39;s &lt;table&gt;</strong>"
    assert f"This scorekeeper is for {strong}." in anonymous.get("/sign-in").text
    assert f"Pencatat skor ini untuk {strong}." in \
        in_language(anonymous, MALAY).get("/sign-in").text
    assert f"本记分应用专供 {strong} 使用。" in in_language(anonymous, CHINESE).get("/sign-in").text


ERRORS = {  # a template, what it is given, and its heading in each language
    "errors/400.html": ({}, ["Something was not right", "Ada yang tidak kena", "有些地方不对"]),
    "errors/404.html": ({}, ["Page not found", "Halaman tidak dijumpai", "找不到页面"]),
    "errors/413.html": ({}, ["File too large", "Fail terlalu besar", "文件太大"]),
    "errors/429.html": ({"minutes": 1},
                        ["Too many tries", "Terlalu banyak cubaan", "尝试次数太多"]),
    "errors/500.html": ({}, ["Something went wrong", "Berlaku masalah", "出错了"]),
    "errors/503.html": ({}, ["Back in a moment", "Kembali sebentar lagi", "马上回来"]),
    "errors/too_old.html": ({"days": 30, "back": "/"},
                            ["This page was too old", "Halaman ini sudah terlalu lama",
                             "这个页面太旧了"]),
}


@pytest.mark.parametrize("name", ERRORS)
def test_the_error_pages_in_each_language(app, name):
    given, headings = ERRORS[name]
    for tag, heading in zip(TAGS, headings, strict=True):
        with app.test_request_context("/", headers={"Cookie": f"language={tag}"}):
            html = render_template(name, **given)
        assert f'<html lang="{tag}">' in html
        assert f"<h1>{heading}</h1>" in html
        assert f"<title>{heading} · Scorekeeper</title>" in html
        if tag == CHINESE:
            assert latin_words(visible_text_of(html)) == set(), name


def visible_text_of(html: str) -> str:
    html = re.sub(r"<(script|style|title)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize("tag, minutes, words", [
    ("en", 1, "Try again in 1 minute."), ("en", 14, "Try again in 14 minutes."),
    (MALAY, 1, "Cuba lagi dalam 1 minit."), (CHINESE, 14, "请在 14 分钟后再试。")])
def test_the_429_page_counts_its_minutes_in_each_language(app, tag, minutes, words):
    with app.test_request_context("/", headers={"Cookie": f"language={tag}"}):
        assert words in render_template("errors/429.html", minutes=minutes)


def test_the_real_error_answers_are_in_the_phone_s_language(app, anonymous):
    in_language(anonymous, CHINESE)
    assert "找不到页面" in anonymous.get("/no-such-page").text
    assert "表单已过期" in anonymous.post("/sign-in", data={}).text  # no CSRF token
    assert "无法处理这个请求" in anonymous.get("/sign-in?next=%00").text


@pytest.mark.parametrize("tag, heading", [
    ("en", "No network"), (MALAY, "Tiada rangkaian"), (CHINESE, "没有网络")])
def test_the_offline_page_of_each_language(anonymous, tag, heading):
    for response in (anonymous.get(f"/offline/{tag}"),
                     in_language(anonymous, tag).get("/offline")):
        assert response.headers["Content-Language"] == tag
        assert f'<html lang="{tag}">' in response.text
        assert f"<h1>{heading}</h1>" in response.text
        # Its switch is the same for every phone: no token, no page to go back to.
        (form,) = forms_on(response.text)
        assert form.values == {} and form.buttons == {"language": {"en", MALAY, CHINESE}}
    assert anonymous.get("/offline/fr").status_code == 404


# Dates, times and money


MOMENT = datetime(2026, 11, 21, 13, 4)  # UTC: 21:04 in Kuala Lumpur


@pytest.mark.parametrize("tag, long_date, day_time, date_time", [
    ("en", "Sat 21 Nov 2026", "Sat 21 Nov, 21:04", "Sat 21 Nov 2026, 21:04"),
    (MALAY, "Sab, 21 Nov 2026", "Sab, 21 Nov, 21:04", "Sab, 21 Nov 2026, 21:04"),
    (CHINESE, "2026年11月21日周六", "11月21日周六 21:04", "2026年11月21日周六 21:04"),
])
def test_dates_are_the_phone_s_language_s_at_the_group_s_time(
        app, tag, long_date, day_time, date_time):
    with app.test_request_context("/", headers={"Cookie": f"language={tag}"}):
        assert filters.long_date(MOMENT, "Asia/Kuala_Lumpur") == long_date
        assert filters.day_time(MOMENT, "Asia/Kuala_Lumpur") == day_time
        assert filters.date_time(MOMENT, "Asia/Kuala_Lumpur") == date_time
        # The same moment is another day in London.
        assert filters.long_date(datetime(2026, 11, 21, 23, 30), "Asia/Kuala_Lumpur") != \
            filters.long_date(datetime(2026, 11, 21, 23, 30), "Europe/London")


@pytest.mark.parametrize("tag, tiered, per_point", [
    ("en", "tiers 0·1·2·3·4·5 × RM 1.00", "RM 0.10 a point"),
    (MALAY, "peringkat 0·1·2·3·4·5 × RM 1.00", "RM 0.10 satu mata"),
    (CHINESE, "按名次 0·1·2·3·4·5 × RM 1.00", "每分 RM 0.10"),
])
def test_money_keeps_its_currency_as_typed_in_every_language(app, tag, tiered, per_point):
    rules = PRESETS["penang"]()
    with app.test_request_context("/", headers={"Cookie": f"language={tag}"}):
        assert filters.priced(123456, "RM") == "RM 1,234.56"
        assert filters.signed_priced(-400, "RM") == "\u2212RM 4.00"
        assert filters.money(150_000, whole=True) == "1,500"
        assert filters.amount(-50) == '<span class="sessions-loss">\u22120.50</span>'
        assert filters.count(152100) == "152,100"
        assert filters.money_scheme(rules, "RM") == tiered
        assert filters.money_scheme(replace(rules, scheme="per_point"), "RM") == per_point


@pytest.mark.parametrize("tag, words", [
    ("en", ["just now", "5 min ago", "2 h ago", "3 days ago"]),
    (MALAY, ["baru sahaja", "5 min lalu", "2 jam lalu", "3 hari lalu"]),
    (CHINESE, ["刚刚", "5 分钟前", "2 小时前", "3 天前"]),
])
def test_how_long_ago_in_each_language(app, tag, words):
    now = datetime(2026, 11, 29, 21, 0)
    with app.test_request_context("/", headers={"Cookie": f"language={tag}"}):
        assert [filters.ago(now - before, now) for before in (
            timedelta(seconds=30), timedelta(minutes=5), timedelta(minutes=125),
            timedelta(days=3, hours=2))] == words


# The scripts' strings


STRINGS = re.compile(r'<script type="application/json" id="strings">(.*?)</script>', re.S)


def strings_of(response) -> dict:
    (data,) = STRINGS.findall(response.text)
    return json.loads(data)


@pytest.mark.parametrize("tag, offline, plural", [
    ("en", "Offline, as of %(time)s", {"one": 0, "other": 1}),
    (MALAY, "Luar talian, setakat %(time)s", {"other": 0}),
    (CHINESE, "离线，截至 %(time)s", {"other": 0})])
def test_a_page_hands_its_scripts_their_strings_in_its_language(client, sid, tag, offline, plural):
    """Every page loads offline.js, which loads offline-bar.js when the page is
    a copy, and queue.js when a round waits: their strings come with each
    page; the pad's (cards.js) only with the round form, which loads it."""
    for path in ("/", f"/sessions/{sid}", f"/sessions/{sid}/rounds/new"):
        data = strings_of(in_language(client, tag).get(path))
        assert (data["lang"], data["plural"]) == (tag, plural)
        if tag == "en":  # the source language: the msgids are the strings
            assert data["messages"] == {}
            continue
        assert {"Offline, as of %(time)s", "Back online, as of %(time)s", "Reload", "Try again",
                "Kept on this phone"} <= set(data["messages"])
        assert data["messages"]["Offline, as of %(time)s"] == offline
        assert ("queen" in data["messages"]) == path.endswith("/rounds/new")


def test_a_translation_written_in_chinese_is_sent_as_written(client):
    response = in_language(client, CHINESE).get("/")
    assert '"Reload":"重新加载"' in response.text  # not \u escapes, three times the bytes


def test_the_languages_are_the_three_of_issue_27():
    assert {tag: (language.locale, language.name) for tag, language in BY_TAG.items()} == {
        "en": ("en", "English"), MALAY: ("ms", "Bahasa Melayu"),
        CHINESE: ("zh_Hans", "中文")}

