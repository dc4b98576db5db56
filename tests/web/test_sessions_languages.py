"""The sessions pages in Bahasa Melayu and 中文 (issue 27): a new session
and why its form is refused, what the rules pay and last time's rules in a
line, the sessions still open, where a newcomer sits, and settling up with
the group chat's message, each in the phone's own language."""

import re
from html import unescape

import pytest

from scorekeeper import services
from tests.web.examples import EXAMPLE_1
from tests.web.helpers import csrf_token, form_values, forms_on, visible_text

pytestmark = pytest.mark.any_database

MALAY, CHINESE = "ms", "zh-Hans"
SHARE_TEXT = re.compile(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', re.S)


@pytest.fixture
def played(table):
    """The examples' table (docs/RULES.md §12) one round in: A and B owe C."""
    services.record_round(services.Change.to(table), EXAMPLE_1)
    return table.id


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def missing(said: list[str], response) -> list[str]:
    shown = visible_text(response)
    return [words for words in said if words not in shown]


@pytest.mark.parametrize("tag, said", [
    (MALAY, ["Tiada apa-apa disimpan: semak ruangan yang ditanda di bawah.",
             "Tempat duduk 1 sudah ada nama ini.", "Taip amaun seperti 1.50.",
             "Taip nombor dari 1 hingga 4.", "Tempat duduk 3 kosong."]),
    (CHINESE, ["什么都没有保存：请检查下面标出的栏位。", "1 号座位已经用了这个名字。",
               "请输入像 1.50 这样的金额。", "请输入 1 到 4 之间的数字。", "3 号座位是空的。"]),
])
def test_a_new_session_refused_says_what_is_wrong_in_the_phone_s_language(client, tag, said):
    page = in_language(client, tag).get("/sessions/new").text
    answer = client.post("/sessions/new", data={
        **form_values(page, "/sessions/new"), "csrf_token": csrf_token(client, "/sessions/new"),
        "seats-0": "Ann", "seats-1": "ann", "first_dealer": "2", "hu_cents": "x", "packs": "9"})
    assert answer.status_code == 200
    assert missing(said, answer) == []


@pytest.mark.parametrize("tag, said", [
    (MALAY, ["Seperti kali lepas (Isn, ", "): peraturan sendiri, wang dalam RM. 8 joker bernilai "
             "20 mata · pasport run · ikut arah jam · pemenang membahagi · tiada pasport di "
             "tempat terakhir · peringkat 0·1·2·3 × RM 1.00 · Hu RM 3.00 · Tien Hu RM 6.00 · "
             "joker/ace RM 0.50.",
             "Dengan 4 pemain, pusingan yang tiada siapa keluar: Tempat ke-1 dapat RM 6.00, "
             "Tempat ke-2 bayar RM 1.00, Tempat ke-3 bayar RM 2.00, Tempat ke-4 bayar RM 3.00.",
             "Hu: setiap pemain lain membayar pemenang RM 3.00 (RM 9.00 semuanya). Tien Hu: "
             "RM 6.00 seorang (RM 18.00).",
             "Tempat duduk 1: A", "Pek tambahan mulai"]),
    (CHINESE, ["和上次一样 （", "）：自定规则，金额单位：RM。8 张鬼牌，每张 20 分 · 顺子护照 · "
               "顺时针 · 赢家做庄 · 没有护照排最后 · 按名次 0·1·2·3 × RM 1.00 · 胡 RM 3.00 · "
               "天胡 RM 6.00 · 鬼牌/A 牌 RM 0.50。",
               "4 人玩时，没人胡的一局：第 1 名得 RM 6.00，第 2 名付 RM 1.00，第 3 名付 RM 2.00，"
               "第 4 名付 RM 3.00。",
               "胡：其他每位玩家付给赢家 RM 3.00（共 RM 9.00）。"
               "天胡：每人 RM 6.00（共 RM 18.00）。",
               "1 号座位：A", "多加一副牌的人数"]),
])
def test_what_the_rules_pay_and_last_time_s_rules_read_in_the_phone_s_language(
        client, played, tag, said):
    assert missing(said, in_language(client, tag).get("/sessions/new")) == []


@pytest.mark.parametrize("tag, paid, said", [
    (MALAY, "(sudah bayar)", ["Siapa bayar siapa A bayar C RM 1.00 Belum bayar",
                              "Friday table: rummy pada Isn, ", " (setakat ini) 1. C +RM 9.00"]),
    (CHINESE, "（已付）", ["谁付给谁 A 付给 C RM 1.00 尚未付", "的牌局（目前） 1. C +RM 9.00"]),
])
def test_settle_up_and_its_message_for_the_chat_in_the_phone_s_language(
        client, played, tag, paid, said):
    settle = f"/sessions/{played}/settle"
    page = in_language(client, tag).get(settle)
    assert missing(said, page) == []
    first = next(form for form in forms_on(page.text) if form.action == f"{settle}/paid")
    client.post(f"{settle}/paid", data={name: values[0] for name, values in first.values.items()})
    message = unescape(SHARE_TEXT.search(client.get(settle).text)[1])
    assert message.splitlines()[-2:] == (
        [f"A bayar C RM 1.00 {paid}", "B bayar C RM 8.00"] if tag == MALAY
        else [f"A 付给 C RM 1.00{paid}", "B 付给 C RM 8.00"])


@pytest.mark.parametrize("tag, said", [
    (MALAY, ["1 sesi belum tamat, yang terkini bermula dahulu.", "· 1 pusingan",
             "Duduk di Antara A dan B Antara B dan C"]),
    (CHINESE, ["1 场尚未结束，最近开始的排在前面。", "开始 · 1 局",
               "坐在 A 和 B 之间 B 和 C 之间"]),
])
def test_the_sessions_still_open_and_the_seats_offered_in_the_phone_s_language(
        client, played, tag, said):
    in_language(client, tag)
    shown = visible_text(client.get("/sessions/open")) + visible_text(
        client.get(f"/sessions/{played}/players"))
    assert [words for words in said if words not in shown] == []
