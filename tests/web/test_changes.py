"""The history of changes, restoring a deleted round, and two phones saving at once."""

import re

import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Player, Round, RoundEntry
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.once import new_key
from tests.conftest import signed_in_client
from tests.web import examples
from tests.web.examples import TYPED_1, TYPED_2, TYPED_3, set_paid
from tests.web.helpers import (
    WEIGHT_LIMIT,
    count_statements,
    filled,
    form_values,
    page_weight,
    section,
    text,
)

ROUND_1 = examples.EXAMPLE_1  # as Entry values, for services


def game(session_id):
    db.session.expire_all()
    return db.session.get(GameSession, session_id)


def record(session_id, *rounds, device="Mei's phone"):
    for entries in rounds:
        services.record_round(services.Change.to(game(session_id), device=device),
                              {n: Entry(*e) for n, e in entries.items()})


def state(session_id):
    """Every round's number, dealer and money: what a restore must bring back."""
    db.session.expire_all()
    return [(r.number, r.dealer.name, {e.player.name: e.net_cents for e in r.entries})
            for r in game(session_id).rounds]


def written():
    """What a refused save must leave as it was: the rows, every entry's cards,
    the sessions' versions."""
    return (db.session.scalar(sa.select(sa.func.count(Round.id))),
            db.session.scalar(sa.select(sa.func.count(RoundEntry.id))),
            db.session.scalar(sa.select(sa.func.count(AuditEvent.id))),
            sorted(db.session.scalars(sa.select(RoundEntry.cards))),
            sorted(db.session.scalars(sa.select(GameSession.version))))


def restore_forms(html):
    """{round number: (action, posted data)} of the page's Restore buttons."""
    forms = {}
    for match in re.finditer(r'<form method="post" action="([^"]+/restore)".*?</form>', html,
                             re.DOTALL):
        number = int(re.search(r"Restore round (\d+)", match[0])[1])
        forms[number] = (match[1], form_values(match[0], match[1]))
    return forms


def changes_page(client, session_id, page=None):
    response = client.get(f"/sessions/{session_id}/changes"
                          + (f"?page={page}" if page is not None else ""))
    return response.status_code, text(response)


# The page


def test_the_page_lists_each_kind_of_change_with_its_phone(client, sid):
    record(sid, TYPED_1, TYPED_2)
    table = game(sid)
    services.edit_round(services.Change.to(table, device="Raj"),
                        table.rounds[0], {**ROUND_1, "D": Entry("dead", "2H")})
    services.delete_round(services.Change.to(game(sid), device=""), game(sid).rounds[1])
    services.join_session(services.Change.to(game(sid), device="Kitchen tablet"), "Eve", 2)
    services.leave_session(services.Change.to(game(sid), device="Ann's"), db.session.scalar(
        sa.select(Player.id).where(Player.name == "Eve")))
    transfer = services.settlement(game(sid))[0].transfer
    set_paid(services.Change.to(game(sid), device="Raj"),
                      transfer.payer.id, transfer.payee.id, transfer.cents, True)
    set_paid(services.Change.to(game(sid), device="Raj"),
                      transfer.payer.id, transfer.payee.id, transfer.cents, False)
    services.end_session(services.Change.to(game(sid), device="Raj"))
    services.reopen_session(services.Change.to(game(sid), device="Raj"))

    status, html = changes_page(client, sid)
    assert status == 200
    items = re.findall(r'<li class="changes-item".*?<h2>(.*?)</h2>', html, re.DOTALL)
    titles = [re.sub(r"\s+", " ", t) for t in items]
    payer, payee = transfer.payer.name, transfer.payee.name
    assert titles == [
        "Session reopened", "Session ended",
        f"{payer} → {payee} RM {transfer.cents // 100}.{transfer.cents % 100:02d} marked not paid",
        f"{payer} → {payee} RM {transfer.cents // 100}.{transfer.cents % 100:02d} marked paid",
        "Eve left the table", "Eve joined the table",
        "Round 2 deleted", "Round 1 edited", "Round 2 added", "Round 1 added", "Session started",
    ]
    phones = re.findall(r"</time> · from ([^<]+)</p>", html)
    assert phones == ["Raj's phone"] * 4 + ["Ann's phone", "Kitchen tablet", "an unnamed phone",
                                            "Raj's phone", "Mei's phone", "Mei's phone",
                                            "an unnamed phone"]
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d[+-]\d\d:\d\d">'
                     r'\w{3} \d{1,2} \w{3}, \d\d:\d\d</time>', html)
    assert "At the table: A, B, C, D." in html and "D deals first." in html
    assert "Own rules, money in RM: tiers 0·1·2·3 × RM 1.00." in html
    assert "Seats, in order: A, B, Eve, C, D." in html


def test_house_rules_and_share_links_are_listed_too(client, sid):
    record(sid, TYPED_1)
    services.change_house_rules(services.Change.to(game(sid), device="Raj"),
                                HouseRules.penang(), "SGD")
    link = services.create_share_link(services.Change.to(game(sid), device="Mei"))
    services.revoke_share_link(services.Change.to(link.session, device=""), link)
    html = changes_page(client, sid)[1]
    titles = re.findall(r"<h2>(.*?)</h2>", html)
    assert titles[:3] == ["Share link revoked", "Share link made", "House rules changed"]
    assert "Was: Own rules, money in RM: tiers 0·1·2·3 × RM 1.00." in html
    assert "Now: Penang rules, money in SGD: tiers 0·1·2·3·4·5 × SGD 1.00." in html
    phones = re.findall(r"</time> · from ([^<]+)</p>", html)
    assert phones[:3] == ["an unnamed phone", "Mei's phone", "Raj's phone"]


def test_a_round_shows_each_players_outcome_cards_points_and_money(client, sid):
    record(sid, TYPED_1, TYPED_3)
    html = changes_page(client, sid)[1]
    added_2 = html.split("<h2>Round 2 added</h2>")[1].split('<li class="changes-item"')[0]
    lines = re.findall(r'<li><strong>(\w)</strong> <span>([^<]+)</span> '
                       r'<span class="sessions-\w+">([^<]+)</span>', added_2)
    assert lines == [("D", "8 points", "−2.00"), ("A", "23 points", "−4.00"),
                     ("B", "Hu · 0 points", "+10.00"), ("C", "15 points", "−4.00")]
    assert "C dealt." in added_2
    assert '<b class="j">JK</b> <b>3♣</b>' in added_2 and '<b class="r">A♥</b>' in added_2


def test_an_edit_shows_who_changed_before_and_after(client, sid):
    record(sid, TYPED_1)
    services.edit_round(services.Change.to(game(sid), device="Raj"),
                        game(sid).rounds[0], {**ROUND_1, "D": Entry("dead", "2H")})
    html = changes_page(client, sid)[1]
    edit = html.split("<h2>Round 1 edited</h2>")[1].split("</ul>")[0]
    d = edit.split("<strong>D</strong>")[1].split("</li>")[0]
    assert "changed</span>" in d
    assert re.search(r'Was</span> 24 points · <span class="sessions-even">0.00</span> '
                     r'<span class="changes-cards"><b>A♠</b> <b class="r">9♥</b>', d)
    assert re.search(r'Now</span> 2 points · <span class="sessions-gain">\+8.50</span> '
                     r'<span class="changes-cards"><b class="r">2♥</b>', d)
    assert "<strong>C</strong> same entry, money +9.00 → <strong>+1.50</strong>" in edit
    assert edit.count("changed</span>") == 1


def test_the_scoreboard_and_the_round_page_link_to_the_changes(client, sid):
    record(sid, TYPED_1)
    href = f'href="/sessions/{sid}/changes"'
    assert href in text(client.get(f"/sessions/{sid}"))
    assert href in text(client.get(f"/sessions/{sid}/rounds/1"))


def test_the_changes_are_paged_fifteen_at_a_time(client, sid):
    record(sid, TYPED_1)
    transfer = services.settlement(game(sid))[0].transfer
    for paid in [True, False] * 8:  # 16 more changes: 18 in all
        set_paid(services.Change.to(game(sid)),
                          transfer.payer.id, transfer.payee.id, transfer.cents, paid)
    status, first = changes_page(client, sid)
    assert status == 200 and first.count('class="changes-item"') == 15
    assert "Page 1 of 2" in first and f'href="/sessions/{sid}/changes?page=2"' in first
    status, second = changes_page(client, sid, 2)
    assert status == 200 and second.count('class="changes-item"') == 3
    assert "<h2>Session started</h2>" in second
    assert changes_page(client, sid, 3)[0] == 404
    assert changes_page(client, sid, 0)[0] == 404


def test_the_page_takes_a_fixed_number_of_statements(app, client, sid):
    record(sid, TYPED_1)
    few = count_statements(app, client, f"/sessions/{sid}/changes")
    record(sid, TYPED_2, TYPED_3, TYPED_1)
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[0])
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[0])
    services.restore_round(services.Change.to(game(sid)), db.session.scalar(
        sa.select(AuditEvent).where(AuditEvent.action == "round.delete")))
    many = count_statements(app, client, f"/sessions/{sid}/changes")
    assert few == many <= 8


def test_a_page_of_six_players_rounds_stays_under_60_kb_with_its_css_and_js(client, our_group):
    names = ["Annabel", "Bartholomew", "Catherine", "Dan", "Eve", "Fong"]
    hands = ["AS 3H 5D 7C 9S JH KD 2C", "4S 6H 8D 10C QS AH 3D", "5C 7S 9H JD KC 2S",
             "4H 6D 8C 10S", "QH AD 3C 5S 7H 9D JC", "KH 2D 4C 6S 8H 10D QC"]
    session = services.start_session(services.Change(our_group),
                                     names, HouseRules.penang(), first_dealer="Dan")
    for winner in names * 3:
        entries = {n: Entry("hu") if n == winner else Entry("dead", h)
                   for n, h in zip(names, hands, strict=True)}
        services.record_round(services.Change.to(session), entries)
    page = client.get(f"/sessions/{session.id}/changes")
    assert page.data.count(b'class="changes-item"') == 15
    assert page_weight(page.data) < WEIGHT_LIMIT


# Restoring a deleted round


def test_restore_puts_the_round_back_at_its_number_and_rescores(client, sid):
    record(sid, TYPED_1, TYPED_3, TYPED_2)
    before = state(sid)
    page = text(client.get(f"/sessions/{sid}/rounds/1"))
    response = client.post(f"/sessions/{sid}/rounds/1/delete", data=form_values(page))
    assert response.status_code == 302
    assert state(sid) != before

    forms = restore_forms(changes_page(client, sid)[1])
    assert forms.keys() == {1}
    action, data = forms[1]
    response = client.post(action, data=data)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/sessions/{sid}/rounds/1"
    assert state(sid) == before
    restored = db.session.scalars(sa.select(AuditEvent).order_by(AuditEvent.id.desc())).first()
    assert (restored.action, restored.device) == ("round.restore", "Test phone")

    html = changes_page(client, sid)[1]
    assert restore_forms(html) == {}
    assert "Restored since." in html and "<h2>Round 1 restored</h2>" in html


def test_restoring_twice_is_refused(client, sid):
    record(sid, TYPED_1, TYPED_2)
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[1])
    action, data = restore_forms(changes_page(client, sid)[1])[2]
    assert client.post(action, data=data).status_code == 302
    # Another form (a new key), on a page that was current: the same POST is test_once's.
    again = {**data, "version": str(game(sid).version), "key": new_key()}
    before = written()
    response = client.post(action, data=again)
    assert response.status_code == 409
    assert "That round has been restored already" in text(response)
    assert written() == before


def test_a_stale_restore_shows_why_on_the_changes_page(client, sid):
    record(sid, TYPED_1, TYPED_2)
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[1])
    action, data = restore_forms(changes_page(client, sid)[1])[2]
    record(sid, TYPED_3)  # meanwhile, from another phone
    before = written()
    response = client.post(action, data=data)
    assert response.status_code == 409
    html = text(response)
    assert "changed from another phone" in html and "<h2>Round 2 added</h2>" in html
    assert written() == before
    assert client.post(action, data={**data, "version": "x"}).status_code == 400
    assert written() == before


def test_a_finished_session_must_be_reopened_to_restore(client, sid):
    record(sid, TYPED_1, TYPED_2)
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[0])
    action, data = restore_forms(changes_page(client, sid)[1])[1]
    services.end_session(services.Change.to(game(sid)))
    html = changes_page(client, sid)[1]
    assert restore_forms(html) == {}
    assert "To restore this round, reopen the session from its scoreboard first." in html
    before = written()
    response = client.post(action, data={**data, "version": str(game(sid).version)})
    assert response.status_code == 409
    assert "reopen it from the scoreboard first" in text(response)
    assert written() == before


def test_another_groups_or_sessions_event_is_404(app, client, sid, our_group):
    record(sid, TYPED_1, TYPED_2)
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[0])
    ours = db.session.scalar(sa.select(AuditEvent.id).where(AuditEvent.action == "round.delete"))
    other_group = services.create_group("Other table", "another passphrase")
    theirs = services.start_session(services.Change(other_group),
                                    list("WXYZ"), examples.EXAMPLE_RULES,
                                    first_dealer="Z")
    services.record_round(services.Change.to(theirs),
                          dict(zip("WXYZ", ROUND_1.values(), strict=True)))
    services.delete_round(services.Change.to(theirs), theirs.rounds[0])
    their_deletion = db.session.scalar(sa.select(AuditEvent.id).where(
        AuditEvent.action == "round.delete", AuditEvent.session_id == theirs.id))
    sibling = services.start_session(services.Change(our_group),
                                     list("ABC"), examples.EXAMPLE_RULES,
                                     first_dealer="A")
    their_id, sibling_id = theirs.id, sibling.id
    data = dict(restore_forms(changes_page(client, sid)[1])[1][1])
    before = written()
    not_a_deletion = db.session.scalar(sa.select(AuditEvent.id).where(
        AuditEvent.action == "round.add", AuditEvent.session_id == sid))
    for path in (f"/sessions/{sid}/changes/{their_deletion}/restore",
                 f"/sessions/{sibling_id}/changes/{ours}/restore",
                 f"/sessions/{their_id}/changes/{their_deletion}/restore",
                 f"/sessions/{sid}/changes/{not_a_deletion}/restore",
                 f"/sessions/{sid}/changes/999999/restore"):
        assert client.post(path, data=data).status_code == 404, path
    assert client.get(f"/sessions/{their_id}/changes").status_code == 404
    stranger = signed_in_client(app, other_group)
    assert stranger.get(f"/sessions/{sid}/changes").status_code == 404
    assert written() == before


def test_signed_out_phones_are_sent_to_sign_in(anonymous, sid):
    response = anonymous.get(f"/sessions/{sid}/changes")
    assert response.status_code == 302 and "/sign-in" in response.headers["Location"]


# Two phones at once


def main_choice(notice: str) -> tuple[str, str]:
    """The first button of a refused form's notice, the one offered first: its
    class and its words."""
    found = re.search(r'<p class="changes-drop"[^>]*>\s*<button[^>]*class="([^"]*)"[^>]*>([^<]*)<',
                      notice)
    assert found, "the notice offers no choice"
    return found[1], found[2]


def test_a_stale_round_form_holding_a_hand_of_the_round_saved_offers_to_drop_it_first(
        client, sid):
    """Issue 25, 6: the server says which choice is likelier. One hand the same,
    card for card, as in the round another phone saved: the same game, entered
    on two phones with a hand put right on one of them."""
    base = f"/sessions/{sid}/rounds"
    page = text(client.get(f"{base}/new"))
    record(sid, TYPED_1)
    typed = {**TYPED_2, "D": TYPED_1["D"]}
    notice = text(client.post(f"{base}/new", data=filled(page, typed))).split(
        'id="round-summary"')[1].split("</div>")[0]
    assert "It holds a hand of yours: the same game, it seems." in notice
    assert main_choice(notice) == ("button", "Same game: drop mine, see round 1")
    assert "Save as round 2" not in notice


def test_a_stale_round_form_is_refused_with_the_changes_and_the_typing_kept(client, sid):
    base = f"/sessions/{sid}/rounds"
    page = text(client.get(f"{base}/new"))
    record(sid, TYPED_1)  # Mei saves round 1 first
    typed = {**TYPED_2, "A": ("dead", "5s, 5h")}
    before = written()
    response = client.post(f"{base}/new", data=filled(page, typed))
    html = text(response)
    assert response.status_code == 409
    assert written() == before
    notice = html.split('id="round-summary"')[1].split("</div>")[0]
    assert "Saved from another phone while you were typing" in notice
    assert re.search(r"<strong>Round 1 added</strong> from Mei's phone: A 27 points −1.00, "
                     r"B 32 points −8.00, C 7 points \+9.00, D 24 points 0.00", notice)
    assert "<strong>Round 1 was saved from Mei's phone.</strong>" in notice
    # No hand of round 1 in it: another game, likely, so saving it comes first.
    assert "None of your hands is in it: another game, it seems." in notice
    assert main_choice(notice) == ("button", "Save as round 2")
    assert 'form="round-drop" class="button round-secondary">Same game: drop mine, see round 1<' \
        in notice
    assert '>Save as round 2</button>' in html.split('class="round-actions"')[1]
    assert 'value="5s, 5h"' in section(html, "A") and 'value="KS QS"' in section(html, "D")
    assert f'name="version" value="{game(sid).version}"' in html
    assert "data-autostart" not in html

    response = client.post(f"{base}/new", data=filled(html, typed))
    assert response.status_code == 302 and response.headers["Location"] == f"{base}/2"
    saved = db.session.scalars(sa.select(AuditEvent).order_by(AuditEvent.id.desc())).first()
    assert (saved.action, saved.device) == ("round.add", "Test phone")


def test_a_change_that_added_no_round_keeps_the_number(client, sid):
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1)
    page = text(client.get(f"{base}/new"))
    services.join_session(services.Change.to(game(sid), device="Raj"), "Eve", 4)
    response = client.post(f"{base}/new", data=filled(page, TYPED_2))
    html = text(response)
    assert response.status_code == 409
    assert "<strong>Eve joined the table</strong> from Raj's phone" in html
    assert "Your entries are kept below" in html and "Save round 2</button>" in html
    assert 'value="KS QS"' in section(html, "D") and 'value=""' in section(html, "Eve")
    response = client.post(f"{base}/new", data=filled(html, {**TYPED_2, "Eve": ("dead", "3C")}))
    assert response.status_code == 302


def test_a_save_that_loses_the_race_in_the_service_is_refused_the_same_way(
        client, sid, monkeypatch):
    """The version can change between the page's check and the service's own."""
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1)
    new_page, edit_page = text(client.get(f"{base}/new")), text(client.get(f"{base}/1/edit"))
    transfer = services.settlement(game(sid))[0].transfer
    set_paid(services.Change.to(game(sid), device="Raj"),
                      transfer.payer.id, transfer.payee.id, transfer.cents, True)
    # The pages' checks (services.check_version) see no change; record_round's
    # and edit_round's own do.
    monkeypatch.setattr(services, "check_version", lambda *args, **kwargs: None)
    before = written()
    for url, data in ((f"{base}/new", filled(new_page, TYPED_2)),
                      (f"{base}/1/edit", filled(edit_page, {"D": ("dead", "2H")}))):
        response = client.post(url, data=data)
        assert response.status_code == 409, url
        assert "marked paid</strong> from Raj's phone" in text(response)
        assert written() == before


def test_a_stale_edit_lists_the_other_edit_and_keeps_the_typing(client, sid):
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1)
    page = text(client.get(f"{base}/1/edit"))
    services.edit_round(services.Change.to(game(sid), device="Raj"),
                        game(sid).rounds[0], {**ROUND_1, "C": Entry("dead", "3D 4D 9C")})
    before = written()
    response = client.post(f"{base}/1/edit", data=filled(page, {"D": ("dead", "2H")}))
    html = text(response)
    assert response.status_code == 409
    assert written() == before
    assert re.search(r"<strong>Round 1 edited</strong> from Raj's phone: "
                     r"C 9C added, 7 points \+9.00 → 16 points", html)
    assert "Your changes to round 1 are kept below" in html
    assert 'value="2H"' in section(html, "D")
    assert 'value="3D 4D"' in section(html, "C")  # as the page had it
    assert "Saved now: Dead, 3D 4D 9C. Saving replaces it" in section(html, "C")
    assert "Saved now: Dead, AS 9H. Saving replaces it" in section(html, "D")
    assert "Saved now" not in section(html, "A")
    assert f'action="{base}/1/edit"' in html
    response = client.post(f"{base}/1/edit", data=filled(
        html, {"D": ("dead", "2H"), "C": ("dead", "3D 4D 9C")}))
    assert response.status_code == 302
    cards = dict(db.session.execute(
        sa.select(Player.name, RoundEntry.cards).join(RoundEntry.player)).all())
    assert cards["D"] == "2H" and cards["C"] == "3D 4D 9C"


def test_an_edit_follows_its_round_when_an_earlier_one_is_deleted(client, sid):
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1, TYPED_2, TYPED_3)
    page = text(client.get(f"{base}/2/edit"))
    services.delete_round(services.Change.to(game(sid), device="Raj"), game(sid).rounds[0])
    response = client.post(f"{base}/2/edit", data=filled(page, {"D": ("dead", "KS")}))
    html = text(response)
    assert response.status_code == 409
    assert "The round you were editing, round 2, is now round 1" in html
    assert "<h1>Edit round 1</h1>" in html and f'action="{base}/1/edit"' in html
    assert 'value="KS"' in section(html, "D")
    response = client.post(f"{base}/1/edit", data=filled(html, {"D": ("dead", "KS")}))
    assert response.headers["Location"] == f"{base}/1"
    first = game(sid).rounds[0]
    assert {e.player.name: e.cards for e in first.entries}["D"] == "KS"
    assert {e.player.name: e.cards for e in first.entries}["B"] == "10C"  # round 2 of before


def test_an_edit_of_a_round_deleted_meanwhile_is_refused_with_a_way_back(client, sid):
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1, TYPED_2)
    page = text(client.get(f"{base}/2/edit"))
    services.delete_round(services.Change.to(game(sid), device="Raj"), game(sid).rounds[1])
    before = written()
    response = client.post(f"{base}/2/edit", data=filled(page, {"D": ("dead", "KS")}))
    html = text(response)
    assert response.status_code == 409
    assert written() == before
    assert "<strong>Round 2 deleted</strong> from Raj's phone" in html
    assert "Round 2 is no longer there" in html
    assert f'href="/sessions/{sid}">Back to the scoreboard</a>' in html
    assert f'href="/sessions/{sid}/changes">history of changes</a>' in html


def test_a_stale_delete_is_refused_and_deletes_nothing(client, sid):
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1, TYPED_2)
    page = text(client.get(f"{base}/2"))
    services.delete_round(services.Change.to(game(sid), device="Raj"), game(sid).rounds[0])
    before = written()
    response = client.post(f"{base}/2/delete", data=form_values(page))
    html = text(response)
    assert response.status_code == 409
    assert written() == before
    assert "<h1>Round 2 was not deleted</h1>" in html
    assert "<strong>Round 1 deleted</strong> from Raj's phone" in html
    assert "Round 2 is now round 1" in html and f'href="{base}/1">See round 1</a>' in html

    page = text(client.get(f"{base}/1"))
    record(sid, TYPED_3)
    response = client.post(f"{base}/1/delete", data=form_values(page))
    assert response.status_code == 409 and "Look at round 1 again" in text(response)


def test_a_round_form_with_a_junk_version_saves_nothing(client, sid):
    base = f"/sessions/{sid}/rounds"
    page = text(client.get(f"{base}/new"))
    before = written()
    for junk in ("", "x", "-1", "1.0", "9" * 30, "１"):
        response = client.post(f"{base}/new", data={**filled(page, TYPED_1), "version": junk})
        assert response.status_code == 200, junk
        html = text(response)
        assert "This page was out of date" in html
        assert written() == before
    assert client.post(f"{base}/new", data=filled(html, TYPED_1)).status_code == 302
    page = text(client.get(f"{base}/1"))
    for junk in ("", "x", "1e3"):
        data = {**form_values(page), "version": junk}
        assert client.post(f"{base}/1/delete", data=data).status_code == 400
    assert client.post(f"{base}/1/delete", data=form_values(page)).status_code == 302


def test_a_session_ended_meanwhile_says_so_with_the_change(client, sid):
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1)
    page = text(client.get(f"{base}/1/edit"))
    services.end_session(services.Change.to(game(sid), device="Raj"))
    response = client.post(f"{base}/1/edit", data=filled(page, {"D": ("dead", "KS")}))
    html = text(response)
    assert response.status_code == 409
    assert "This session has ended" in html
    assert "<strong>Session ended</strong> from Raj's phone" in html


def test_a_restore_without_its_csrf_token_is_refused(client, sid):
    record(sid, TYPED_1)
    services.delete_round(services.Change.to(game(sid)), game(sid).rounds[0])
    action, data = restore_forms(changes_page(client, sid)[1])[1]
    before = written()
    response = client.post(action, data={"version": data["version"]})
    assert response.status_code == 400 and "The form had expired" in text(response)
    assert written() == before


def test_a_stale_edit_of_a_hands_cards_that_scores_the_same_says_which_cards(client, sid):
    base = f"/sessions/{sid}/rounds"
    record(sid, TYPED_1)
    page = text(client.get(f"{base}/1/edit"))
    # Another phone corrects C's 3D to 3C: the same points, the same money.
    services.edit_round(services.Change.to(game(sid), device="Raj"),
                        game(sid).rounds[0], {**ROUND_1, "C": Entry("dead", "3C 4D")})
    response = client.post(f"{base}/1/edit", data=filled(page, {"D": ("dead", "2H")}))
    assert response.status_code == 409
    assert "<strong>Round 1 edited</strong> from Raj's phone: " \
        "C cards 3D → 3C, still 7 points +9.00</li>" in text(response)
