"""A hand of a round filled in together still being typed on one phone (sent
as typed, its field not yet left: together.js) is not in: every phone says
where it is being typed, a Save from another phone asks first (naming the
hand and the phone, with the form as typed shown back), and a phone gone
quiet holds the round up for TYPING_LAPSE at most."""

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.limits import TYPING_LAPSE
from scorekeeper.models import DraftEntry, GameSession
from tests.web.examples import TYPED_1
from tests.web.helpers import (
    csrf_token,
    form_values,
    player_ids,
    round_count,
    section,
    send_hand,
    sent_hand,
    text,
    visible_text,
)

pytestmark = pytest.mark.usefixtures("own_tokens")

LAPSE = TYPING_LAPSE.total_seconds()
TYPING = ("D's hand is being typed on Ben's phone…")


def state(client, sid) -> dict:
    return client.get(f"/sessions/{sid}/draft").get_json()


def place(body: dict, name: str) -> dict:
    return next(p for p in body["players"] if p["name"] == name)


def three_in_and_d_typed(client, ben_phone, sid) -> None:
    """A, B and C in from this phone; D's hand half typed on Ben's."""
    for name in "ABC":
        sent_hand(client, sid, name, *TYPED_1[name])
    sent_hand(ben_phone, sid, "D", "dead", "AS", typing=True)


def quiet_since(delay: timedelta) -> None:
    """Ben's phone typed nothing more for ``delay``."""
    for row in db.session.scalars(sa.select(DraftEntry)):
        row.at -= delay
    db.session.commit()


def test_a_hand_being_typed_is_not_in_and_every_phone_says_where(client, ben_phone, sid):
    three_in_and_d_typed(client, ben_phone, sid)
    seen = state(client, sid)
    d = place(seen, "D")
    assert d["done"] is False and seen["complete"] is False
    assert d["hand"]["cards"] == "AS" and d["hand"]["typing"]["here"] is False
    assert LAPSE - 5 <= d["hand"]["typing"]["left"] <= LAPSE  # then it asks again
    assert d["problems"] == []  # half typed is not yet wrong
    assert seen["lapse"] == "It counts as in if nothing more is typed there for 2 minutes."
    assert place(state(ben_phone, sid), "D")["hand"]["typing"]["here"] is True

    board = client.get(f"/sessions/{sid}")
    assert "Round 1 being entered: A ✓ in B ✓ in C ✓ in D ✎ being typed" in visible_text(board)
    assert TYPING in visible_text(board)
    until = int(re.search(r'class="board-entering" data-live-until="(\d+)"', text(board))[1])
    assert LAPSE - 5 <= until <= LAPSE
    form = text(client.get(f"/sessions/{sid}/rounds/new"))  # as a phone without JavaScript sees it
    assert re.search(r'<li class="together-typing" data-player="\d+">D<span class="together-mark" '
                     r'aria-hidden="true">✎</span><span class="round-vh"> being typed</span>', form)
    assert f'<p class="together-typing">{TYPING}</p>' in form
    assert (f"{TYPING} It counts as in if nothing more is typed there for 2 minutes."
            in section(form, "D"))

    # The field left: in, on every phone.
    sent_hand(ben_phone, sid, "D", "dead", "AS", base=1)
    seen = state(client, sid)
    assert place(seen, "D")["done"] is True and place(seen, "D")["hand"]["typing"] is None
    assert place(seen, "D")["hand"]["version"] == 2 and seen["complete"] is True
    assert TYPING not in visible_text(client.get(f"/sessions/{sid}"))


def test_a_save_from_another_phone_while_a_hand_is_typed_asks_first(client, ben_phone, sid):
    """A phone without JavaScript (or with: the same POST) taps Save while D's
    hand is half typed on Ben's phone: nothing is saved, the form comes back
    as posted, saying whose hand is typed where and what it holds so far;
    "Save anyway" saves it as the form has it."""
    three_in_and_d_typed(client, ben_phone, sid)
    page = text(client.get(f"/sessions/{sid}/rounds/new"))
    data = form_values(page)
    response = client.post(f"/sessions/{sid}/rounds/new", data=data)
    html = text(response)
    assert response.status_code == 200 and round_count() == 0
    assert db.session.scalar(sa.select(sa.func.count(DraftEntry.id))) == 4  # all still there
    assert "Please check before saving" in html
    warning = (f"{TYPING} So far: Dead, AS. Wait for it to come in, or save anyway with D's "
               "hand as this form has it.")
    assert warning in html and warning in section(html, "D")
    assert section(html, "D").count(TYPING) == 1  # the warning says it; the row no more
    assert 'value="AS"' in section(html, "D") and 'value="3D 4D"' in section(html, "C")
    digest = re.search(r'name="confirmed" value="([0-9a-f]{16})">Save anyway', html)[1]

    # Ben typed on meanwhile: the form is given his hand as it is now, and
    # the confirmation was for "AS": it asks again.
    sent_hand(ben_phone, sid, "D", "dead", "AS 9H", base=1, typing=True)
    news = text(client.post(f"/sessions/{sid}/rounds/new", data={**form_values(html),
                                                                "confirmed": digest}))
    assert round_count() == 0 and 'value="AS 9H"' in section(news, "D")
    again = text(client.post(f"/sessions/{sid}/rounds/new", data=form_values(news)))
    assert round_count() == 0 and "So far: Dead, AS 9H." in again
    response = client.post(f"/sessions/{sid}/rounds/new", data={
        **form_values(again),
        "confirmed": re.search(r'name="confirmed" value="([0-9a-f]{16})">Save anyway', again)[1]})
    assert response.status_code == 302 and round_count() == 1
    entries = {e.player.name: e.cards for e in db.session.get(GameSession, sid).rounds[0].entries}
    assert entries["D"] == "AS 9H"  # as the form had it


def test_the_phone_typing_a_hand_saves_without_being_asked(client, ben_phone, sid):
    three_in_and_d_typed(client, ben_phone, sid)
    page = text(ben_phone.get(f"/sessions/{sid}/rounds/new"))
    response = ben_phone.post(f"/sessions/{sid}/rounds/new",
                              data={**form_values(page), "entries-3-cards": "AS 9H"})
    assert response.status_code == 302 and round_count() == 1


def test_a_hand_left_typed_on_a_phone_gone_quiet_counts_as_in_after_the_lapse(
        client, ben_phone, sid):
    three_in_and_d_typed(client, ben_phone, sid)
    quiet_since(TYPING_LAPSE - timedelta(seconds=10))
    assert state(client, sid)["complete"] is False  # not yet
    quiet_since(timedelta(seconds=11))
    seen = state(client, sid)
    assert place(seen, "D")["done"] is True and seen["complete"] is True
    assert place(seen, "D")["hand"]["typing"] is None
    board = visible_text(client.get(f"/sessions/{sid}"))
    assert "D ✓ in" in board and TYPING not in board
    page = text(client.get(f"/sessions/{sid}/rounds/new"))
    response = client.post(f"/sessions/{sid}/rounds/new", data=form_values(page))
    assert response.status_code == 302 and round_count() == 1


def test_the_same_hand_sent_as_left_by_a_page_that_had_not_seen_it_goes_in(
        client, ben_phone, sid):
    """Ben's phone sent D's hand as typed as its page was put away, and the
    request landed late: the page back (a reload) had not seen it and sends
    the same hand as left, from base 0. It was refused as a conflict with
    itself ("Ben's phone entered: Dead, AS. Yours: Dead, AS."); now it is in.
    A different hand from that base is still refused."""
    sent_hand(ben_phone, sid, "D", "dead", "AS", typing=True)
    hand = sent_hand(ben_phone, sid, "D", "dead", "AS", base=0)["hand"]
    assert hand["version"] == 2 and hand["typing"] is None
    assert place(state(client, sid), "D")["done"] is True
    other = send_hand(client, sid, player_ids()["D"], "dead", "AS 2S", base=0)
    assert other.status_code == 409 and other.get_json()["hand"]["cards"] == "AS"


def test_with_autosave_a_hand_typed_elsewhere_keeps_the_round_waiting(client, ben_phone, sid):
    """The last hand in saves the round by itself (the house setting): not
    while another is still being typed, which it would take half typed."""
    autosave = {"csrf_token": csrf_token(client, "/group"), "autosave": "y"}
    assert client.post("/group/autosave", data=autosave).status_code == 302
    sent_hand(ben_phone, sid, "D", "dead", "AS", typing=True)
    for name in "ABC":
        assert "recorded" not in sent_hand(client, sid, name, *TYPED_1[name])
    assert round_count() == 0
    assert sent_hand(ben_phone, sid, "D", "dead", "AS 9H", base=1)["recorded"]["number"] == 1
