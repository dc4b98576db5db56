"""The README's pictures of languages, the dark theme, the table screen,
paying by QR, and records and pictures (docs/screenshots.py takes them)."""

from __future__ import annotations

import sqlalchemy as sa
from camera import Camera, hands
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import HouseRules
from scorekeeper.web.share_links import share_url
from tests.conftest import the_group
from tests.e2e.conftest import (
    a_session_with_a_round,
    signed_in,
)
from tests.web.evening import FIRST_DEALER, ROUNDS, SEATS


def languages(camera: Camera) -> None:
    """The sign-in page switched to Bahasa Melayu, then to 中文, by its footer."""
    page = camera.phone().new_page()
    page.goto("/sign-in")
    for name, tag, picture in (("Bahasa Melayu", "ms", "languages-ms"),
                               ("中文", "zh-Hans", "languages-zh")):
        page.locator("footer").get_by_role("button", name=name).tap()
        expect(page.locator("html")).to_have_attribute("lang", tag)
        camera.take(page, picture)
    page.context.close()


def main_pages_in(camera: Camera, tag: str, prefix: str, **options) -> None:
    """A phone in language ``tag`` (its cookie, as the footer's switch sets
    it; Playwright's context ``options`` besides) at a table two rounds in: the
    home page, the scoreboard, the round form with the pad open and cards
    tapped, and the settle-up."""
    with camera.app.app_context():
        game = services.start_session(services.Change(the_group()), SEATS,
                                      HouseRules.rummi(), FIRST_DEALER)
        for typed in ROUNDS[:2]:
            services.record_round(services.Change.to(game), hands(typed))
        board = f"/sessions/{game.id}"
    context = camera.phone(**options)
    context.add_cookies([{"name": "language", "value": tag, "url": camera.base_url}])
    signed_in(context, device="Ann's phone")
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", tag)
    camera.take(page, f"{prefix}-home")
    page.goto(board)
    camera.take(page, f"{prefix}-scoreboard")
    page.goto(f"{board}/rounds/new")
    pad = page.locator("#card-pad")
    expect(pad).to_be_visible()
    for suit, rank in (("H", "Q"), ("H", "K"), ("C", "4")):  # the keys: the same in every language
        pad.locator(f"[data-suit={suit}]").tap()
        pad.locator(f"[data-rank='{rank}']").tap()
    page.locator("#card-pad-player").tap()  # ends the last key's tap highlight
    camera.take(page, f"{prefix}-round-entry")
    page.goto(f"{board}/settle")
    camera.take(page, f"{prefix}-settle")
    context.close()


def in_malay(camera: Camera) -> None:
    main_pages_in(camera, "ms", "ms")


def in_chinese(camera: Camera) -> None:
    main_pages_in(camera, "zh-Hans", "zh")


def in_the_dark(camera: Camera) -> None:
    """A phone set to dark (prefers-color-scheme), the app following it."""
    main_pages_in(camera, "en", "dark", color_scheme="dark")


def the_table_screen(camera: Camera) -> None:
    """The table screen of a share link on a tablet in landscape, two rounds
    in, as the tablet is set: light, then dark."""
    with camera.app.app_context():
        game = services.start_session(services.Change(the_group()), SEATS,
                                      HouseRules.rummi(), FIRST_DEALER)
        for typed in ROUNDS[:2]:
            services.record_round(services.Change.to(game), hands(typed))
        link = services.create_share_link(services.Change.to(game, device="Ann's phone"))
        with camera.app.test_request_context():
            url = share_url(link, the_group(), "share.table")
    for scheme, name in (("light", "table-screen"), ("dark", "table-screen-dark")):
        context = camera.phone(viewport={"width": 1024, "height": 768}, is_mobile=False,
                               color_scheme=scheme)
        page = context.new_page()
        page.goto("/share/" + url.split("/share/", 1)[1])
        expect(page.locator(".table-deal")).to_be_visible()
        camera.take(page, name)
        context.close()


def records_and_pictures(camera: Camera) -> None:
    """A year of Thursdays (demo play): the leaderboard, two players head to
    head, a player's months and points left, a session's money round by
    round, and the result as the picture shared to the group's chat."""
    import random
    from datetime import datetime

    from scorekeeper import demo

    year = ("A year of Thursdays", "teh tarik kurang manis")
    plan = demo.play_group(random.Random(7), 48, 14, datetime(2026, 11, 26, 22))
    with camera.app.app_context():
        group, _, _ = services.seed_demo_group(*year, plan)
        players = dict(db.session.execute(
            sa.select(Player.name, Player.id).where(Player.group_id == group.id)).all())
        latest = db.session.scalar(sa.select(sa.func.max(GameSession.id)).where(
            GameSession.group_id == group.id, GameSession.ended_at.is_not(None)))
    first, second = sorted(players)[:2]
    context = camera.phone()
    signed_in(context, "Ann's phone", *year)
    page = context.new_page()
    page.goto("/records?from=2026-01-01&to=2026-12-31")
    camera.take(page, "leaderboard")
    page.goto(f"/records/head-to-head?a={players[first]}&b={players[second]}")
    camera.take(page, "head-to-head")
    page.goto(f"/players/{players[first]}")
    page.locator(".chart-box").first.scroll_into_view_if_needed()
    camera.take(page, "player-charts")
    page.goto(f"/history/sessions/{latest}")
    page.locator(".chart-box").first.scroll_into_view_if_needed()
    camera.take(page, "session-chart")
    picture = page.request.get(f"/sessions/{latest}/result.png")
    assert picture.ok, picture.status
    camera.keep("result-picture", picture.body())
    context.close()


def paying_by_qr(camera: Camera) -> None:
    """Dan keeps his bank's QR (PayNet's worked example) as his payment
    details: his page, Ann's settle up ("Pay Dan") and Dan's ("Collect …",
    the code full screen)."""
    from scorekeeper.payto import with_crc
    from scorekeeper.payto.tlv import parse

    bank_qr = with_crc(parse("00020201021126410014A000000615000101065016640209123456789"
                             "5204000053034585802MY5909AUSERNAME6005BANGI"))
    with camera.app.app_context():
        game = a_session_with_a_round()
        seats = {s.player.name: s.player for s in game.seats}
        services.set_payto(services.Change(the_group()), seats["Dan"], "bank_qr", bank_qr)
        sid, ann, dan = game.id, seats["Ann"].id, seats["Dan"].id
    for name in ("Ann", "Dan"):
        page = camera.member(f"{name}'s phone")
        page.goto(f"/sessions/{sid}")
        page.get_by_text("Whose phone is this?").tap()
        page.get_by_role("button", name=name, exact=True).tap()
        expect(page.locator(".board-me-line")).to_contain_text(f"{name} (this phone)")
        if name == "Ann":
            page.goto(f"/sessions/{sid}/settle")
            page.evaluate("document.querySelector('li.settle-transfer').scrollIntoView()")
            camera.take(page, "settle-qr-pay")
        else:
            page.goto(f"/sessions/{sid}/settle#qr-{ann}-{dan}")
            page.wait_for_function("document.querySelector(':target img').naturalWidth > 0")
            camera.take(page, "settle-qr-collect")
            page.goto(f"/players/{dan}/payment")
            camera.take(page, "payment-details")
        page.context.close()
