"""The history pages and the night's summary in Malay and Chinese (issue 27):
counts by the language's plural rules, lists of names by its own pattern."""

import pytest

from scorekeeper.rules import Entry
from tests.web.examples import EXAMPLE_RULES, HU, NO_HU, TIE, TIEN_HU, make_session
from tests.web.helpers import visible_text

pytestmark = pytest.mark.any_database


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def test_the_nights_summary_reads_in_chinese_and_malay(app, client):
    # A's Tien Hu: B and Eve, out with nothing in hand, lose alike.
    sid = make_session(app, rounds=[
        {"A": Entry("tien_hu", TIEN_HU), "B": Entry("dead"), "Eve": Entry("dead")}],
        names=["A", "B", "Eve"], rules=EXAMPLE_RULES, dealer="A", ended=True)
    chinese = visible_text(in_language(client, "zh-Hans").get(f"/sessions/{sid}"))
    assert "最终名次" in chinese and "结束，共 1 局。" in chinese
    # CLDR's list for Chinese (the spaces are visible_text's, between tags).
    assert "输得最多 B 和 Eve −RM" in chinese
    assert "胡 无" in chinese and "天胡 A 1 次（共 1 次）" in chinese
    malay = visible_text(in_language(client, "ms").get(f"/sessions/{sid}"))
    assert "Kedudukan akhir" in malay and "selepas 1 pusingan." in malay
    assert "Paling banyak kalah B dan Eve −RM" in malay
    assert "Hu tiada" in malay and "Tien Hu A 1 kali (1 kesemuanya)" in malay


def test_the_history_reads_in_malay_and_chinese(app, client):
    sid = make_session(app, rounds=[NO_HU, TIE, HU], ended=True)
    for _ in range(10):
        make_session(app, ended=True)
    malay = in_language(client, "ms")
    listed = visible_text(malay.get("/history"))
    assert "11 sesi selesai" in listed and "Halaman 1 daripada 2" in listed
    assert "Lama →" in listed
    record = visible_text(malay.get(f"/history/sessions/{sid}"))
    assert "3 pusingan, sudah tamat." in record
    assert "Pusingan 1 pembahagi Dan" in record and "Siapa bayar siapa" in record
    chinese = visible_text(in_language(client, "zh-Hans").get(f"/history/sessions/{sid}"))
    assert "3 局，已结束。" in chinese and "第 1 局 庄家 Dan" in chinese
    assert "No passport" not in chinese and "Round" not in chinese
