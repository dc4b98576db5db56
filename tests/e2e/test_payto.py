"""The QR on settle up in a phone browser: on the payee's phone "Collect …"
opens the code full screen (its :target, no script), on the payer's "Pay …"
downloads it as a PNG that decodes to the payload the page shows. What the
server writes (the payload, the amounts, who sees what) is checked by
tests/web/test_payto.py."""

import io
import re

import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from scorekeeper import services
from tests.conftest import the_group
from tests.e2e.conftest import a_session_with_a_round, phone_of, phone_page_problems

BANK_QR = ("00020201021126410014A000000615000101065016640209123456789"
           "5204000053034585802MY5909AUSERNAME6005BANGI6304")


def test_collect_shows_the_code_full_screen_and_pay_saves_it(new_context, live_app, tmp_path):
    from scorekeeper.payto import with_crc
    from scorekeeper.payto.tlv import parse

    with live_app.app_context():
        game = a_session_with_a_round()  # Dan went out: Ann, Ben and Cat pay Dan
        seats = {s.player.name: s.player for s in game.seats}
        services.set_payto(services.Change(the_group()), seats["Dan"], "bank_qr",
                           with_crc(parse(BANK_QR[:-4])))
        sid, ann, dan = game.id, seats["Ann"].id, seats["Dan"].id
    settle = f"/sessions/{sid}/settle"

    payee = phone_of(new_context, sid, dan, "Dan's phone")
    payee.goto(f"/players/{dan}/payment")
    assert phone_page_problems(payee) == []
    payee.goto(settle)
    assert phone_page_problems(payee) == []
    collect = payee.get_by_role("link", name=re.compile(r"^Collect RM [\d.]+ from Ann$"))
    full = payee.locator(f"section#qr-{ann}-{dan}")
    expect(full).to_be_hidden()
    collect.tap()
    expect(full).to_be_visible()
    image = full.get_by_role("img")
    payee.wait_for_function("img => img.complete && img.naturalWidth > 0",
                            arg=image.element_handle())
    box = image.bounding_box()
    assert box is not None and box["width"] >= 0.9 * 390 - 2  # nearly the screen's width
    assert payee.evaluate("getComputedStyle(document.querySelector(':target'))"
                          ".backgroundColor") == "rgb(255, 255, 255)"
    assert phone_page_problems(payee) == []
    payee.screenshot(path=str(tmp_path / "payto-collect.png"))
    full.get_by_role("link", name="Close").tap()
    expect(full).to_be_hidden()

    payer = phone_of(new_context, sid, ann, "Ann's phone")
    payer.goto(settle)
    mine = payer.locator("li.settle-transfer").first
    shown = mine.locator("textarea.payto-payload").input_value()
    with payer.expect_download() as waiting:
        mine.get_by_role("link", name="Pay Dan").tap()
    download = waiting.value
    assert re.fullmatch(r"Pay Dan RM [\d.]+\.png", download.suggested_filename)
    picture = Image.open(io.BytesIO(download.path().read_bytes()))
    assert [found.text for found in zxingcpp.read_barcodes(picture)] == [shown]
