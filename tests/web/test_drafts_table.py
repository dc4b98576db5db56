"""A round entered together as the table sees it (issue 25): the scoreboard
and home page say a round is being entered and who is in; a Tien Hu round
needs no other cards; the hands of a round left behind show their phone and
age, and can be cleared (audited, on every phone); one hand's problem is told
in full only where it is put right."""

from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper.audit import Action, HandsCleared
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, DraftEntry, GameSession, Group, utcnow
from tests.conftest import signed_in_client
from tests.web.examples import TIEN_HU
from tests.web.helpers import (
    forms_on,
    player_ids,
    round_count,
    section,
    sent_hand,
    text,
    visible_text,
)

pytestmark = pytest.mark.usefixtures("own_tokens")


def state(client, sid) -> dict:
    return client.get(f"/sessions/{sid}/draft").get_json()


def versions(sid) -> tuple[int, int]:
    db.session.expire_all()
    game = db.session.get(GameSession, sid)
    return game.version, game.draft_version


# 1. Every phone sees that a round is being entered, and who is in


def test_the_scoreboard_says_a_round_is_being_entered_and_who_is_in(client, ben_phone, sid):
    board = f"/sessions/{sid}"
    assert "being entered" not in visible_text(client.get(board))
    sent_hand(ben_phone, sid, "B", "dead", "4C 8D 2S")
    sent_hand(ben_phone, sid, "C", "dead", "4C X9")  # a hand to check
    words = visible_text(client.get(board))
    assert "Round 1 being entered: A … not yet B ✓ in C ! to check D … not yet" in words
    page = text(client.get(board))
    assert f'<a class="button board-entering-add" href="/sessions/{sid}/rounds/new">' \
        'Add your hand</a>' in page
    # The board follows the hands too (live.js: the draft version), not only the rounds.
    assert f'data-live-draft="{versions(sid)[1]}" data-live-hands' in page
    assert "data-live-hands" not in text(client.get(f"/sessions/{sid}/settle"))


def test_the_home_page_shows_the_round_being_entered(client, ben_phone, sid):
    assert "being entered" not in visible_text(client.get("/"))
    sent_hand(ben_phone, sid, "B", "dead", "4C 8D 2S")
    sent_hand(ben_phone, sid, "A", "hu")
    home = client.get("/")
    assert "Playing now" in visible_text(home)
    assert "Round 1 being entered (2 hands in) Add your hand" in visible_text(home)
    assert f'href="/sessions/{sid}/rounds/new">Add your hand</a>' in text(home)
    # A hand still being typed on a phone is not in yet.
    sent_hand(ben_phone, sid, "C", "dead", "5", typing=True)
    assert "Round 1 being entered (2 hands in)" in visible_text(client.get("/"))
    sent_hand(ben_phone, sid, "C", "dead", "5H", base=1)  # its field left
    assert "Round 1 being entered (3 hands in)" in visible_text(client.get("/"))


# 3. Tien Hu: the others need no cards


def test_a_tien_hu_round_is_complete_once_the_winners_hand_is_in(client, sid):
    body = sent_hand(client, sid, "C", "tien_hu", TIEN_HU)["state"]
    assert [p["done"] for p in body["players"]] == [True] * 4
    assert body["complete"] is True and body["problems"] == body["warnings"] == []
    html = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert html.count('<li class="together-done"') == 4  # "Everyone is in" on the strip
    assert "being entered: A ✓ in B ✓ in C ✓ in D ✓ in" in visible_text(
        client.get(f"/sessions/{sid}"))


def test_with_autosave_the_winners_tien_hu_saves_the_round(client, sid):
    db.session.scalar(sa.select(Group)).autosave_rounds = True
    db.session.commit()
    body = sent_hand(client, sid, "A", "tien_hu", TIEN_HU)
    assert body["recorded"]["number"] == 1 and round_count() == 1
    entries = {e.player.name: (e.outcome, e.cards, e.net_cents)
               for e in db.session.get(GameSession, sid).rounds[0].entries}
    assert entries["A"] == ("tien_hu", TIEN_HU, 1800)
    assert entries["B"] == entries["C"] == entries["D"] == ("dead", "", -600)


def test_a_tien_hu_hand_with_a_problem_holds_the_round(client, sid):
    body = sent_hand(client, sid, "A", "tien_hu", "AS 2S 3S")["state"]
    assert [p["done"] for p in body["players"]] == [False, True, True, True]
    assert body["complete"] is False


def test_the_cards_field_says_whole_hand_when_tien_hu_is_chosen(client, sid):
    sent_hand(client, sid, "A", "tien_hu", "AS 2S 3S")
    html = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert 'data-whole="Whole hand (20 cards)"' in html  # for cards.js, as the outcome changes
    assert '">Whole hand (20 cards)<span class="round-vh"> in A\'s hand' in section(html, "A")
    assert '">Cards left<span class="round-vh"> in B\'s hand' in section(html, "B")


# 8. A round left behind: its hands' phone and age, and "Clear this round's hands"


def test_a_kept_hand_shows_its_phone_and_age(client, ben_phone, sid):
    sent_hand(ben_phone, sid, "B", "dead", "4C 8D 2S")
    db.session.scalars(sa.select(DraftEntry)).one().at = utcnow() - timedelta(hours=2, minutes=5)
    db.session.commit()
    html = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert '<p class="together-from">Entered on Ben\'s phone, 2 h ago</p>' in section(html, "B")
    assert "together-from" not in section(html, "A")
    assert place(state(client, sid), "B")["hand"]["from"] == "Ben's phone, 2 h ago"


def place(body: dict, name: str) -> dict:
    return next(p for p in body["players"] if p["name"] == name)


def clear_form(client, sid) -> dict:
    page = f"/sessions/{sid}/rounds/new"
    (form,) = [f for f in forms_on(client.get(page).text, page)
               if f.action == f"/sessions/{sid}/draft/clear"]
    return {name: values[0] for name, values in form.values.items()}


def test_clear_this_rounds_hands_empties_every_phone_and_is_in_the_history(
        client, ben_phone, sid):
    assert '<details class="together-clear" id="together-clear" hidden>' in text(
        client.get(f"/sessions/{sid}/rounds/new"))  # no hands yet: for together.js to show
    sent_hand(ben_phone, sid, "B", "dead", "4C 8D 2S")
    assert '<details class="together-clear" id="together-clear">' in text(
        client.get(f"/sessions/{sid}/rounds/new"))
    sent_hand(client, sid, "A", "hu")
    before = versions(sid)
    data = clear_form(client, sid)
    assert data["number"] == "1" and data["key"] and data["csrf_token"]
    response = client.post(f"/sessions/{sid}/draft/clear", data=data)
    assert response.status_code == 302
    assert response.location == f"/sessions/{sid}/rounds/new"
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 0
    # Every phone's page follows: both versions moved on, and the state is empty.
    after = versions(sid)
    assert after[0] == before[0] + 1 and after[1] > before[1]
    for phone in (client, ben_phone):
        body = state(phone, sid)
        assert [p["hand"] for p in body["players"]] == [None] * 4
    assert "Round 1's hands are cleared: 2 hands, from every phone." in visible_text(
        client.get(f"/sessions/{sid}/rounds/new"))
    # Audited, with the phone that cleared them and the hands as they were.
    event = db.session.scalars(sa.select(AuditEvent).where(
        AuditEvent.action == Action.HANDS_CLEAR)).one()
    assert event.device == "Test phone" and event.version == after[0]
    payload = HandsCleared.from_json(event.before, event.after)
    assert [(h.player, h.outcome, h.cards, h.phone) for h in payload.hands] == [
        ("A", "hu", "", "Test phone"), ("B", "dead", "4C 8D 2S", "Ben's phone")]
    changes = visible_text(ben_phone.get(f"/sessions/{sid}/changes"))
    assert "Round 1's hands cleared" in changes and "Test phone" in changes
    assert "B: Dead, 4C 8D 2S, entered on Ben's phone." in changes
    # Sent again (a double tap): one change.
    assert client.post(f"/sessions/{sid}/draft/clear", data=data).status_code == 302
    assert db.session.scalar(sa.select(sa.func.count(AuditEvent.id)).where(
        AuditEvent.action == Action.HANDS_CLEAR)) == 1


def test_clearing_needs_the_forms_token_and_the_round_still_being_entered(
        client, ben_phone, sid):
    sent_hand(ben_phone, sid, "B", "dead", "4C 8D 2S")
    data = clear_form(client, sid)
    no_token = {k: v for k, v in data.items() if k != "csrf_token"}
    assert client.post(f"/sessions/{sid}/draft/clear", data=no_token).status_code == 400
    wrong = client.post(f"/sessions/{sid}/draft/clear", data={**data, "number": "2"})
    assert wrong.status_code == 302
    assert "Round 2 is no longer the round being entered: nothing was cleared." in \
        visible_text(client.get(wrong.location))
    assert client.post(f"/sessions/{sid}/draft/clear",
                       data={**data, "number": "x"}).status_code == 400
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 1
    assert db.session.scalar(sa.select(sa.func.count(AuditEvent.id)).where(
        AuditEvent.action == Action.HANDS_CLEAR)) == 0


# 10. A hand's problem: in full where it is put right, "to check" everywhere


def test_a_hands_problem_is_told_in_full_only_where_it_is_put_right(app, group, client,
                                                                     ben_phone, sid):
    cat_phone = signed_in_client(app, group, device="Cat's phone")
    with cat_phone.session_transaction() as cookie:
        cookie["player"] = player_ids()["B"]  # a phone of B's own, which did not enter it
    answer = sent_hand(ben_phone, sid, "B", "dead", "4C X9")
    detail = ('B: "X9" (card 2) is not a card: write rank then suit, like AS, 10H, QD, '
              'or JK for a joker')
    assert answer["problems"] == [detail]
    for phone in (ben_phone, cat_phone):
        assert place(state(phone, sid), "B")["problems"] == [detail]
    told = place(state(client, sid), "B")
    assert told["problems"] == ["B's hand is to be checked on Ben's phone."]
    assert told["done"] is False and told["hand"]["cards"] == "4C X9"
    # The strip says "to check" on every phone.
    for phone in (client, ben_phone, cat_phone):
        assert '<li class="together-check"' in text(phone.get(f"/sessions/{sid}/rounds/new"))
