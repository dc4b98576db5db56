"""The pages that get a table started and keep it going (home, the rules, a
new group, the group's page, invites, share links, a backup's import) and the
settle-up message, in the phone's language (issue 27): words, plurals and
the backup check's refusals, each in Malay and in Chinese."""

import re

import pytest

from tests.web.backups import post_import
from tests.web.examples import NO_HU, make_session
from tests.web.helpers import csrf_token, parsed, visible_text
from tests.web.test_home import make_session as home_session

pytestmark = pytest.mark.any_database


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def copied_message(client, sid) -> list[str]:
    html = client.get(f"/sessions/{sid}/settle").text
    return parsed(html).select("textarea#share-text")[0].children[0].split("\n")


@pytest.mark.parametrize("tag, first, net, said, heading", [
    ("zh-Hans", r"：\d{4}年\d{1,2}月\d{1,2}日周.的牌局（目前）", "1. Cat +RM 9.00",
     ["Ann 付给 Cat RM 1.00", "Bob 付给 Cat RM 8.00"], "谁付给谁："),
    ("ms", r": rummy pada .+ \(setakat ini\)", "1. Cat +RM 9.00",
     ["Ann bayar Cat RM 1.00", "Bob bayar Cat RM 8.00"], "Siapa bayar siapa:"),
])
def test_the_settle_up_message_is_in_the_language_of_the_phone_that_copies_it(
        app, client, tag, first, net, said, heading):
    sid = make_session(app, rounds=[NO_HU])
    lines = copied_message(in_language(client, tag), sid)
    assert re.search(first, lines[0]), lines[0]
    assert lines[1] == net and lines[5:] == [heading, *said]
    # the same session, read on an English phone, in English
    assert copied_message(in_language(client, "en"), sid)[5] == "Who pays whom:"


def test_the_home_page_counts_in_the_phone_s_language(app, client):
    home_session(app, rounds=2)
    chinese = visible_text(in_language(client, "zh-Hans").get("/"))
    assert "正在打牌" in chinese and "打开记分板" in chinese and "2 局" in chinese
    malay = visible_text(in_language(client, "ms").get("/"))
    assert "Sedang bermain" in malay and "2 pusingan" in malay and "Sesi baharu" in malay
    checked = visible_text(in_language(client, "ms").get("/?cards=5S+5H+9C&preset=penang"))
    assert "19 mata berbaki" in checked


def test_the_rules_page_lists_the_presets_as_the_language_joins_a_list(client):
    assert "槟城和Rummi" in visible_text(in_language(client, "zh-Hans").get("/rules"))
    assert "Penang dan Rummi" in visible_text(in_language(client, "ms").get("/rules"))
    assert "Penang and Rummi;" in visible_text(in_language(client, "en").get("/rules"))


def test_an_invite_says_its_hours_and_phones_in_the_phone_s_language(client):
    in_language(client, "zh-Hans").post("/group/invite",
                                        data={"csrf_token": csrf_token(client, "/group/invite")})
    page = visible_text(client.get("/group/invite"))
    assert "拉其他人进来" in page and "邀请链接 1：8 部手机中已有 0 部登录" in page
    malay = visible_text(in_language(client, "ms").get("/group"))
    assert "Pautan jemputan 1: 0 daripada 8 telefon sudah log masuk" in malay


@pytest.mark.parametrize("tag, body, said", [
    ("zh-Hans", b"  \n", "文件是空的。"),
    ("zh-Hans", b"{not json", "文件不是 JSON（第 1 行第 2 列"),
    ("ms", b'{"format": "something"}', "Ini bukan sandaran kumpulan Scorekeeper: ia tiada tanda "
                                       '"format": "scorekeeper-group".'),
    ("ms", b"\xff\xfe{}", "Fail ini bukan teks UTF-8 (bait 1 bukan)"),
])
def test_a_backup_s_refusal_reads_in_the_phone_s_language(client, tag, body, said):
    answer = post_import(in_language(client, tag), body)
    assert answer.status_code == 422 and said in visible_text(answer)
