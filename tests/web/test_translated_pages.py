"""The round form, the scoreboard and the session's pages in Bahasa Melayu
and in Chinese (issue 27): a few key words of each page as a phone in that
language reads them, the engine's problems worded in it with the players'
names and the cards' notation as typed, plurals in the language's one form."""

import pytest

from scorekeeper import services
from scorekeeper.rules import Entry
from tests.web.examples import TYPED_1
from tests.web.helpers import filled, visible_text

MALAY, CHINESE = "ms", "zh-Hans"


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def record(table, typed):
    services.record_round(services.Change.to(table),
                          {name: Entry(*hand) for name, hand in typed.items()})


# Each language's words: the form's heading and button, a problem with a card
# and a player inside, one with a count (one plural form), the result page's.
ROUND_WORDS = {
    MALAY: {
        "heading": "Pusingan 1", "save": "Simpan pusingan 1", "dealer": "D membahagi.",
        "refused": "Belum disimpan: sila betulkan ini",
        "hu_with_cards": "A sudah keluar (Hu) tetapi ada kad dimasukkan: AS 10H",
        "copies": "AC dimasukkan 3 kali (B, C), tetapi dek hanya ada 2",
        "fewest": "Mati · 7 mata, paling sedikit", "points": "Mati · 24 mata",
        "next": "Seterusnya: C membahagi pusingan 2.",
    },
    CHINESE: {
        "heading": "第 1 局", "save": "保存第 1 局", "dealer": "D 做庄。",
        "refused": "未保存：请更正",
        "hu_with_cards": "A 已胡，但输入了牌：AS 10H",
        "copies": "输入了 3 张 AC（B, C），但整副牌只有 2 张",
        "fewest": "死牌 · 7 分，最少", "points": "死牌 · 24 分",
        "next": "下一局： C 做第 2 局的庄。",  # C in <strong>
    },
}


@pytest.mark.parametrize("tag", [MALAY, CHINESE])
def test_the_round_form_and_its_problems_read_in_the_phone_s_language(client, sid, tag):
    words = ROUND_WORDS[tag]
    page = in_language(client, tag).get(f"/sessions/{sid}/rounds/new")
    text = visible_text(page)
    assert f"<h1>{words['heading']}</h1>" in page.text and words["dealer"] in text
    assert f'<button type="submit" class="button">{words["save"]}</button>' in page.text
    refused = client.post(f"/sessions/{sid}/rounds/new", data=filled(page.text, {
        "A": ("hu", "AS 10H"), "B": ("dead", "AC AC 2S"), "C": ("dead", "AC 3S"),
        "D": ("dead", "4S")}))
    text = visible_text(refused)
    assert words["refused"] in text
    assert words["hu_with_cards"] in text and words["copies"] in text


@pytest.mark.parametrize("tag", [MALAY, CHINESE])
def test_a_round_s_result_reads_in_the_phone_s_language(client, table, tag):
    record(table, TYPED_1)
    words = ROUND_WORDS[tag]
    text = visible_text(in_language(client, tag).get(f"/sessions/{table.id}/rounds/1"))
    assert words["fewest"] in text and words["points"] in text and words["next"] in text


BOARD_WORDS = {
    MALAY: ("Papan skor", "Masukkan pusingan 2", "Selesaikan hutang", "C membahagi",
            "Mata, kemudian wang dalam RM."),
    CHINESE: ("记分板", "输入第 2 局", "结算", "C 做庄", "先是分数，然后是金额（RM）。"),
}


@pytest.mark.parametrize("tag", [MALAY, CHINESE])
def test_the_scoreboard_reads_in_the_phone_s_language(client, table, tag):
    record(table, TYPED_1)
    heading, enter, settle, deals, hint = BOARD_WORDS[tag]
    page = in_language(client, tag).get(f"/sessions/{table.id}")
    text = visible_text(page)
    assert f'<h1 class="board-title">{heading} ' in page.text
    assert enter in text and settle in text and deals in text and hint in text
