"""A round filled in together by phones reading different languages
(issue 27): each reads the other's hand, the notes of the round and the
round saved in its own; card notation is the same on all."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import phone_page_problems
from tests.e2e.together.steps import HAND, row, strip, told


def test_a_phone_in_malay_and_one_in_chinese_fill_in_a_round_together(phone, table):
    """Issue 27: each phone reads the other's hand, the notes of the round and
    the round saved in its own language; card notation is the same on both."""
    url, _ = table
    ann, ben = phone("Ann", "ms"), phone("Ben", "zh-Hans")
    ben_field = row(ben, "Ben").locator(".round-cards input")
    with ben.expect_response(HAND):  # the typing stops: it goes, as typed
        ben_field.fill("4C 8D")
    told(ann)
    expect(row(ann, "Ben").locator(".together-typing")).to_have_text(
        re.compile(r"^Sedang ditaip di .+…"))
    expect(ann.locator(".together-note .together-typing")).to_have_text(
        re.compile(r"^Tangan Ben sedang ditaip di .+…$"))
    expect(strip(ann, "Ben").locator(".round-vh")).to_have_text(re.compile(r"sedang ditaip$"))
    with ben.expect_response(HAND):
        ben_field.blur()
    told(ann)
    expect(row(ann, "Ben").locator(".round-line")).to_have_text("✓ 12 mata · 4♣ 8♦")
    expect(strip(ann, "Ben").locator(".round-vh")).to_have_text(re.compile(r"masuk$"))

    ann_field = row(ann, "Ann").locator(".round-cards input")
    ann_field.fill("5s 9h")
    with ann.expect_response(HAND):
        ann_field.blur()
    told(ben)
    expect(row(ben, "Ann").locator(".round-cards input")).to_have_value("5s 9h")
    expect(row(ben, "Ann").locator(".round-line")).to_have_text("✓ 14 分 · 5♠ 9♥")
    expect(row(ben, "Ann").locator(".together-from")).to_have_text(re.compile(r"^输入于 "))
    expect(ben.locator(".together-waiting-for")).to_have_text("你的手牌已输入：正在等 Cat")
    assert phone_page_problems(ben) == []

    # Ben fills in for Cat (no phone), on the pad in Chinese; its keys as everywhere.
    ben.get_by_role("button", name="替 Cat 输入（没有手机）").tap()
    pad = ben.locator("#card-pad")
    expect(ben.locator("#card-pad-player")).to_have_text("Cat")
    expect(pad.locator("[data-rank=K]")).to_have_attribute("aria-label", "加上黑桃K")
    pad.locator("[data-rank=K]").tap()
    expect(ben.locator("#card-pad-points")).to_have_text("1 张牌 · 10 分")
    assert phone_page_problems(ben) == []
    with ben.expect_response(HAND):
        ben.locator("#card-pad-done").tap()
    told(ann)
    expect(row(ann, "Cat").locator(".round-line")).to_have_text("✓ 10 mata · K♠")
    expect(ann.locator(".together-ready")).to_have_text(
        "Semua sudah masuk: ketik Simpan pusingan 1.")
    expect(ben.locator(".together-ready")).to_have_text("大家都输入了：请点“保存第 1 局”。")
    assert phone_page_problems(ann) == []

    ann.locator(".round-actions button[type=submit]").first.click()
    ann.wait_for_url(f"**{url}/rounds/1")
    told(ben)
    saved = ben.locator(".round-saved")
    expect(saved.get_by_role("heading")).to_have_text(re.compile(r"^第 1 局已由 .+ 保存$"))
    expect(saved.get_by_role("link")).to_have_text("查看结果")
    for page in (ann, ben):  # the scoreboard and the money, in each language
        page.goto(url)
        expect(page.get_by_role("rowheader", name="Cat")).to_be_visible()
        assert phone_page_problems(page) == []
        for money in (f"{url}/settle", "/money"):
            page.goto(money)
            expect(page.locator("li.settle-transfer").first).to_be_visible()
            assert phone_page_problems(page) == [], money
