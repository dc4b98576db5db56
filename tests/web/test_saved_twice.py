"""A round saved twice. Every phone of a round filled in together says
"Everyone is in: tap Save", so two players tap it at once: the round is
saved once; the phone too late with the same hands is shown that round and
who saved it; one with other hands gets its form back, its hands sent to no
round; "Same game: drop mine" takes away what that phone sent. A round whose
hands are the last round's asks first, entered together or on one phone."""

import re
from html import unescape

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, DraftEntry, GameSession, Player, Round, RoundEntry, Seat
from scorekeeper.rules import Entry
from tests.conftest import signed_in_client, the_group
from tests.web.examples import EXAMPLE_RULES, TYPED_1, TYPED_2, TYPED_3
from tests.web.helpers import (
    filled,
    form_values,
    player_ids,
    round_count,
    send_hand,
    text,
    token_in,
)
from tests.web.phones import SAVED, Gunicorn, Phone, released_together

# Several phones in each test (conftest.own_tokens).
pytestmark = pytest.mark.usefixtures("own_tokens")

SAME_AS_ROUND_1 = ("Every hand is the same as in round 1, card for card: if this is round 1 "
                   "entered again, don't save it, or it counts twice")


@pytest.fixture
def cat(app, group):
    return signed_in_client(app, group, device="Cat's phone")


@pytest.fixture
def ben(app, group):
    return signed_in_client(app, group, device="Ben's phone")


def send_all(phone, sid, hands: dict, number: int = 1) -> list:
    """Each hand sent from ``phone`` to round ``number``; the answers."""
    ids = player_ids()
    answers = [send_hand(phone, sid, ids[name], outcome, cards, number=number)
               for name, (outcome, cards) in hands.items()]
    assert all(answer.status_code == 200 for answer in answers)
    return answers


def drafts() -> list[tuple[str, str, str]]:
    """The hands saved of the coming round: (player, cards, phone)."""
    db.session.expire_all()
    return sorted(db.session.execute(
        sa.select(Player.name, DraftEntry.cards, DraftEntry.device)
        .join(Player, Player.id == DraftEntry.player_id)).all())


def money_moved() -> dict[str, int]:
    """Each player's money on the scoreboard (the seats' totals)."""
    db.session.expire_all()
    return dict(db.session.execute(sa.select(Player.name, Seat.net_cents).join(Seat.player)).all())


def round_money(number: int) -> dict[str, int]:
    return dict(db.session.execute(
        sa.select(Player.name, RoundEntry.net_cents).join(RoundEntry.player)
        .join(RoundEntry.round).where(Round.number == number)).all())


def both_on_the_form(cat, ben, sid) -> tuple[str, str]:
    """Cat and Ben on round 1 filled in together, every hand in: their pages."""
    send_all(cat, sid, {name: TYPED_1[name] for name in "CD"})
    send_all(ben, sid, {name: TYPED_1[name] for name in "AB"})
    pages = tuple(text(phone.get(f"/sessions/{sid}/rounds/new")) for phone in (cat, ben))
    for page in pages:
        assert 'value="AC AC 2S"' in page and page.count('class="together-done"') == 4
    return pages


def test_the_same_round_saved_too_late_shows_the_round_and_who_saved_it(cat, ben, sid):
    cat_page, ben_page = both_on_the_form(cat, ben, sid)
    form = f"/sessions/{sid}/rounds/new"
    assert cat.post(form, data=form_values(cat_page)).location == f"/sessions/{sid}/rounds/1"
    moved = money_moved()
    assert moved == round_money(1)

    late = ben.post(form, data=form_values(ben_page))
    assert late.status_code in SAVED
    assert re.fullmatch(rf"/sessions/{sid}/rounds/1\?saved=\d+", late.location)
    shown = text(ben.get(late.location))
    summary = shown.split('id="round-summary"')[1].split("</div>")[0]
    assert "<h2>Cat's phone saved this round</h2>" in summary
    assert "With the same hands that you sent" in summary
    assert "<h1>Round 1</h1>" in shown
    assert round_count() == 1 and money_moved() == moved  # counted once
    assert drafts() == []
    state = ben.get(f"/sessions/{sid}/draft").get_json()
    assert state["number"] == 2 and not any(p["hand"] for p in state["players"])
    round_2 = text(ben.get(form))
    assert "together-done" not in round_2 and 'value="AC AC 2S"' not in round_2


def test_a_round_page_names_only_the_change_that_added_it(cat, ben, sid):
    cat_page, _ = both_on_the_form(cat, ben, sid)
    cat.post(f"/sessions/{sid}/rounds/new", data=form_values(cat_page))
    added = db.session.scalar(sa.select(AuditEvent.id).where(AuditEvent.action == "round.add"))
    started = db.session.scalar(sa.select(AuditEvent.id).where(
        AuditEvent.action == "session.start"))
    named = text(ben.get(f"/sessions/{sid}/rounds/1?saved={added}"))
    assert "<h2>Cat's phone saved this round</h2>" in named
    for asked in (started, added + 1000, "x"):
        assert "saved this round" not in text(ben.get(f"/sessions/{sid}/rounds/1?saved={asked}"))
    assert "saved this round" not in text(ben.get(f"/sessions/{sid}/rounds/1"))


def test_other_hands_refused_come_back_held_and_sent_to_no_round(cat, ben, sid):
    cat_page, ben_page = both_on_the_form(cat, ben, sid)
    cat.post(f"/sessions/{sid}/rounds/new", data=form_values(cat_page))
    typed = filled(ben_page, {**TYPED_1, "D": ("dead", "AS 8H")})  # Ben's copy of D differs
    refused = ben.post(f"/sessions/{sid}/rounds/new", data=typed)
    html = text(refused)
    assert refused.status_code == 409 and "<h1>Round 2</h1>" in html
    assert "Round 1 was saved from Cat's phone." in html and 'value="AS 8H"' in html
    # Its rows hold round 1's hands: together.js sends none of them to round 2.
    assert re.search(r'<div class="together" id="together"[^>]*\bdata-held\b', html)
    assert drafts() == [] and round_count() == 1


def test_same_game_drop_mine_takes_away_what_this_phone_sent(cat, ben, sid):
    cat_page, ben_page = both_on_the_form(cat, ben, sid)
    cat.post(f"/sessions/{sid}/rounds/new", data=form_values(cat_page))
    mine = {**TYPED_1, "D": ("dead", "AS 8H")}
    html = text(ben.post(f"/sessions/{sid}/rounds/new", data=filled(ben_page, mine)))
    # As the page did before it held them: Ben's refused hands went to round 2,
    # but for A, where Ben has typed round 2's own; Cat entered C's of round 2.
    send_all(ben, sid, {name: mine[name] for name in "BD"}, number=2)
    send_all(ben, sid, {"A": ("dead", "3H 4H")}, number=2)
    send_all(cat, sid, {"C": ("dead", "3D 4D")}, number=2)  # the same as round 1's: Cat's
    dropping = form_values(html, f"/sessions/{sid}/rounds/drop")
    assert dropping["see"] == "1"
    dropped = ben.post(f"/sessions/{sid}/rounds/drop", data=dropping)
    assert dropped.location == f"/sessions/{sid}/rounds/1"
    assert "Your round is dropped: nothing of it was saved." in text(ben.get(dropped.location))
    assert drafts() == [("A", "3H 4H", "Ben's phone"), ("C", "3D 4D", "Cat's phone")]
    assert round_count() == 1


def test_drop_mine_without_its_csrf_token_is_refused(cat, ben, sid):
    cat_page, ben_page = both_on_the_form(cat, ben, sid)
    cat.post(f"/sessions/{sid}/rounds/new", data=form_values(cat_page))
    html = text(ben.post(f"/sessions/{sid}/rounds/new", data=filled(ben_page, TYPED_2)))
    send_all(ben, sid, TYPED_2, number=2)
    dropping = form_values(html, f"/sessions/{sid}/rounds/drop")
    del dropping["csrf_token"]
    assert ben.post(f"/sessions/{sid}/rounds/drop", data=dropping).status_code == 400
    assert len(drafts()) == 4


def test_a_round_with_the_last_rounds_hands_asks_first(client, sid):
    form = f"/sessions/{sid}/rounds/new"
    assert client.post(form, data=filled(text(client.get(form)), TYPED_1)).status_code == 302
    again = {**TYPED_1, "A": ("dead", "7h jk"), "B": ("dead", "2S AC AC")}  # in another order
    response = client.post(form, data=filled(text(client.get(form)), again))
    html = text(response)
    assert response.status_code == 200 and round_count() == 1
    summary = html.split('id="round-summary"')[1].split("</div>")[0]
    assert "Please check before saving" in summary and SAME_AS_ROUND_1 in summary
    digest = re.search(r'name="confirmed" value="([0-9a-f]{16})">Save anyway', summary)[1]
    confirmed = client.post(form, data={**filled(html, again), "confirmed": digest})
    assert confirmed.location == f"/sessions/{sid}/rounds/2" and round_count() == 2
    # Another game (one card differs) is saved at once.
    other = {**TYPED_1, "C": ("dead", "3D 5D")}
    saved = client.post(form, data=filled(text(client.get(form)), other))
    assert saved.location == f"/sessions/{sid}/rounds/3"


def test_hands_entered_together_as_the_last_rounds_warn_every_phone(cat, ben, sid):
    services.record_round(services.Change.to(db.session.get(GameSession, sid)),
                          {name: Entry(*hand) for name, hand in TYPED_1.items()})
    services.set_autosave_rounds(the_group(), True)  # the last hand in saves, unless warned
    answers = send_all(cat, sid, TYPED_1, number=2)
    assert "recorded" not in answers[-1].get_json() and round_count() == 1
    for phone in (cat, ben):
        state = phone.get(f"/sessions/{sid}/draft").get_json()
        assert state["complete"] and state["warnings"] == [SAME_AS_ROUND_1]
    page = text(ben.get(f"/sessions/{sid}/rounds/new"))
    warned = text(ben.post(f"/sessions/{sid}/rounds/new", data=form_values(page)))
    assert SAME_AS_ROUND_1 in warned and ">Save anyway</button>" in warned
    assert round_count() == 1


# At the same moment, over real HTTP, with several workers


def test_two_phones_tapping_save_together_save_one_round_and_show_it_to_the_other(
        app, group, tmp_path):
    with app.app_context():
        session_id = services.start_session(services.Change(the_group()),
                                            list("ABCD"), EXAMPLE_RULES,
                                            first_dealer="D").id
        ids = {p.name: p.id for p in db.session.scalars(sa.select(Player))}
    base = f"/sessions/{session_id}/rounds"
    with Gunicorn(app, tmp_path, workers=3) as server:
        phones = [Phone(server.port, "Cat's phone").sign_in(),
                  Phone(server.port, "Ben's phone").sign_in()]
        for number, typed in enumerate((TYPED_1, TYPED_2, TYPED_3), start=1):
            token = token_in(phones[0].request("GET", f"{base}/new")[2])
            for name, (outcome, cards) in typed.items():  # every hand in: "tap Save"
                status, _ = phones[0].send_json(
                    f"/sessions/{session_id}/draft/{ids[name]}", token,
                    {"outcome": outcome, "cards": cards, "base": 0, "number": number})
                assert status == 200
            forms = [form_values(phone.request("GET", f"{base}/new")[2]) for phone in phones]
            answers = released_together([
                lambda phone=phone, form=form: phone.request("POST", f"{base}/new", form)
                for phone, form in zip(phones, forms, strict=True)])
            assert all(status in SAVED for status, _, _ in answers), answers
            locations = [location for _, location, _ in answers]
            won = locations.index(f"{base}/{number}")
            late = locations[1 - won]
            assert re.fullmatch(rf"{base}/{number}\?saved=\d+", late), locations
            status, _, page = phones[1 - won].request("GET", late)
            assert status == 200
            assert f"<h2>{phones[won].label} saved this round</h2>" in unescape(page)
            with app.app_context():
                assert db.session.scalar(sa.select(sa.func.count(Round.id))) == number
                assert db.session.scalar(sa.select(sa.func.count(AuditEvent.id)).where(
                    AuditEvent.action == "round.add")) == number
                assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0
                seats = dict(db.session.execute(sa.select(Seat.player_id, Seat.net_cents)).all())
                rounds = db.session.execute(
                    sa.select(RoundEntry.player_id, sa.func.sum(RoundEntry.net_cents))
                    .group_by(RoundEntry.player_id))
                assert seats == dict(rounds.all())  # every round's money moved once
