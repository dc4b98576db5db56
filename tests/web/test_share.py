"""Share links: members make and revoke them; anyone with one sees the
scoreboard and the settlement, and can change nothing."""

import hashlib
import re

import pytest
import qrcode
import qrcode.image.svg
import sqlalchemy as sa
from itsdangerous import URLSafeSerializer

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Group, Player, ShareLink
from tests.conftest import GROUP_NAME, signed_in_client, the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_RULES, set_paid
from tests.web.helpers import (
    count_statements,
    csrf_token,
    forms_on,
    link_urls,
    make_link,
    parsed,
    visible_text,
)


def make_session(app, *rounds, ended=False) -> int:
    with app.app_context():
        session = services.start_session(services.Change(the_group()), list("ABCD"), EXAMPLE_RULES,
                                         first_dealer="D")
        for entries in rounds:
            services.record_round(services.Change.to(session), entries)
        if ended:
            services.end_session(services.Change.to(session))
        return session.id


def add_rounds(app, session_id, *rounds):
    with app.app_context():
        session = db.session.get(GameSession, session_id)
        for entries in rounds:
            services.record_round(services.Change.to(session), entries)


def the_group_id(app) -> int:
    with app.app_context():
        return the_group().id


def player_named(app, name) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Player.id).where(Player.name == name))


def link_ids(app, session_id) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(sa.select(ShareLink.id).where(
            ShareLink.session_id == session_id).order_by(ShareLink.id)))


def table_of(html, css_class):
    return re.search(rf'<table class="{css_class}">.*?</table>', html, re.S).group(0)


def settle_lines(html):
    return re.findall(r'<p class="settle-line">.*?</p>', html, re.S)


@pytest.fixture
def session_id(app):
    return make_session(app, EXAMPLE_1, EXAMPLE_2)


@pytest.fixture
def other_group_client(app):
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        db.session.refresh(other)
        db.session.expunge(other)
    return signed_in_client(app, other, device="Their phone")


# The public pages


def test_a_link_shows_the_scoreboard_to_anyone(app, client, anonymous, session_id):
    url = make_link(client, session_id)
    assert url.startswith("http://localhost/share/")
    page = anonymous.get(url)
    assert page.status_code == 200
    assert "noindex" in page.headers["X-Robots-Tag"]
    html = page.text
    members = client.get(f"/sessions/{session_id}").text
    assert table_of(html, "board-totals") == table_of(members, "board-totals")
    # It names the group, and says what it does: it follows the game by itself.
    assert parsed(html).texts(".share-readonly") == [
        f"{GROUP_NAME}: a read-only copy, kept up to date as the table plays."]
    assert "reload the page" not in visible_text(page)
    # docs/RULES.md §12: after examples 1 and 2, C is up RM 15.00 with 9 points.
    assert ["C leads", "9", "+15.00"] in [
        row.texts("th") + row.texts("td") for row in parsed(html).select(".board-totals tbody tr")]
    assert "Round 3" in html and "deals" in html and "plays first" in html
    rounds = table_of(html, "board-rounds")
    assert rounds.count("<tr>") == 3  # the heading and two rounds
    assert re.sub(r"<a [^>]*>(\d+)</a>", r"\1", table_of(members, "board-rounds")).replace(
        ' class="share-round"', "") == rounds.replace(' class="share-round"', "")


def test_a_link_shows_the_settlement_with_paid_marks(app, client, anonymous, session_id):
    url = make_link(client, session_id)
    with app.app_context():
        session = db.session.get(GameSession, session_id)
        first = services.settlement(session)[0].transfer
        set_paid(services.Change.to(session),
                          first.payer.id, first.payee.id, first.cents, True)
    page = anonymous.get(url + "/settle")
    assert page.status_code == 200
    assert "noindex" in page.headers["X-Robots-Tag"]
    html = page.text
    members = client.get(f"/sessions/{session_id}/settle").text
    assert settle_lines(html) == settle_lines(members) and len(settle_lines(html)) == 3
    assert html.count("✓</span> Paid") == 1 and html.count("Not paid yet") == 2
    assert parsed(html).texts(".share-readonly")[0].startswith(f"{GROUP_NAME}: a read-only copy.")
    assert table_of(html, "board-totals") == table_of(members, "board-totals")


def test_an_ended_session_shows_the_nights_summary_as_the_group_sees_it(app, client,
                                                                       anonymous):
    session_id = make_session(app, EXAMPLE_1, EXAMPLE_2, ended=True)
    url = make_link(client, session_id)
    with client.session_transaction() as cookie:  # the member's phone is A's: marked there
        cookie["phones"] = [[the_group_id(app), player_named(app, "A")]]
    response = anonymous.get(url)
    html, shared = response.text, parsed(response)
    members = parsed(client.get(f"/sessions/{session_id}"))
    assert shared.texts("h1")[0].startswith("The night ")
    for part in (".night-ended", "table.night-places tbody tr", ".night-facts div",
                 "#transfers li", "textarea#share-text"):
        assert shared.texts(part) and shared.texts(part) == [
            said.replace(" you (this phone's player)", "").replace("You pay", "A pays")
            .replace("pays you", "pays A") for said in members.texts(part)], part
    assert "This session ended on" not in html and "deals" not in html
    assert "Totals" not in shared.texts("h2")  # the places say them
    assert shared.select("button#copy-share") and "/static/js/copy." in html
    # Nothing only a member sees: no form (Reopen), no phone's marks, no link in.
    main = html[html.index("<main"):html.index("</main>")]
    assert "<form" not in main and "csrf" not in main and "Reopen" not in html
    assert [form.action for form in forms_on(html)] == ["/theme", "/language"]  # the footer's
    assert "sessions-you" not in html and "sessions-me" not in html
    assert "/sessions/" not in html and "/history" not in main and "/rounds" not in html
    assert "This session has ended." in anonymous.get(url + "/settle").text


def test_the_public_pages_change_nothing_and_lead_nowhere_private(app, client, anonymous,
                                                                  session_id):
    url = make_link(client, session_id)
    for page in (url, url + "/settle"):
        for viewer in (anonymous, client):
            html = viewer.get(page).text
            main = html[html.index("<main"):html.index("</main>")]
            # The forms are the footer's theme and language switches, the viewer's own.
            assert "<form" not in main
            assert [form.action for form in forms_on(html)] == ["/theme", "/language"]
            assert "/sessions/" not in html and "/history" not in main
            assert "/rounds" not in html
    assert anonymous.post(url).status_code in (400, 405)


def test_a_session_with_no_rounds_shows_who_deals_first(app, client, anonymous):
    url = make_link(client, make_session(app))
    html = anonymous.get(url).text
    assert "No rounds yet." in html and "<strong>D</strong> deals" in html
    assert "Nobody owes anything." in anonymous.get(url + "/settle").text


# Tokens that open nothing


def test_a_tampered_or_made_up_token_is_not_found(app, client, anonymous, session_id):
    url = make_link(client, session_id)
    token = url.rsplit("/", 1)[1]
    payload, signature = token.split(".")
    # The first character: changing the last may leave the decoded bytes the same.
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    (link_id,) = link_ids(app, session_id)
    other_id = URLSafeSerializer("x").dumps(link_id + 1).split(".")[0]
    as_text = URLSafeSerializer("x").dumps(str(link_id)).split(".")[0]
    # Ids no database column holds, which SQLite's driver cannot even send.
    huge, negative = (URLSafeSerializer("x").dumps(n).split(".")[0] for n in (2**63, -2**70))
    for bad in (f"{payload}.{flipped}", f"{other_id}.{signature}", f"{as_text}.{signature}",
                f"{huge}.{signature}", f"{negative}.{signature}",
                payload, "nothing", "." + token, token + "x" * 100, "e30.abc", "W10.abc"):
        for page in (f"/share/{bad}", f"/share/{bad}/settle"):
            answer = anonymous.get(page)
            assert answer.status_code == 404, bad
            assert "Page not found" in answer.text
    assert anonymous.get(url).status_code == 200


def sign(link_id, secret_key, passphrase_hash):
    return URLSafeSerializer(secret_key + passphrase_hash, salt="share-link",
                             signer_kwargs={"digest_method": hashlib.sha256}).dumps(link_id)


def test_a_token_signed_with_another_secret_key_is_not_found(app, client, anonymous, group,
                                                             session_id):
    url = make_link(client, session_id)
    (link_id,) = link_ids(app, session_id)
    with app.app_context():
        passphrase_hash = db.session.get(Group, group.id).passphrase_hash
    # The check itself: signed with this app's key, the same token is the page's.
    assert url.endswith("/" + sign(link_id, app.secret_key, passphrase_hash))
    forged = sign(link_id, "another-secret-key", passphrase_hash)
    assert anonymous.get(f"/share/{forged}").status_code == 404
    assert anonymous.get(f"/share/{forged}/settle").status_code == 404


def test_a_revoked_link_is_not_found_and_the_others_still_work(app, client, anonymous,
                                                               session_id):
    first = make_link(client, session_id)
    second = make_link(client, session_id)
    old_id, _new_id = link_ids(app, session_id)
    manage = f"/sessions/{session_id}/share"
    answer = client.post(f"{manage}/{old_id}/revoke",
                         data={"csrf_token": csrf_token(client, manage)})
    assert answer.status_code == 302 and answer.location == manage
    assert anonymous.get(first).status_code == 404
    assert anonymous.get(first + "/settle").status_code == 404
    assert anonymous.get(second).status_code == 200
    assert link_urls(client, session_id) == [second]
    assert client.get(f"{manage}/{old_id}/qr.svg").status_code == 404
    # Revoking it again (from another phone's older page) changes nothing.
    answer = client.post(f"{manage}/{old_id}/revoke",
                         data={"csrf_token": csrf_token(client, manage)})
    assert answer.status_code == 302
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(AuditEvent.id)).where(
            AuditEvent.action == "share.revoke")) == 1


def test_a_new_passphrase_revokes_every_link(app, client, anonymous, group, session_id):
    urls = [make_link(client, session_id), make_link(client, make_session(app, EXAMPLE_3))]
    assert all(anonymous.get(url).status_code == 200 for url in urls)
    with app.app_context():
        services.change_passphrase(services.Change(db.session.get(Group, group.id)),
                                   "four of a kind",
                                   "a brand new passphrase")
    for url in urls:
        assert anonymous.get(url).status_code == 404
        assert anonymous.get(url + "/settle").status_code == 404
    with app.app_context():  # this phone signs in again with the new passphrase
        member = signed_in_client(app, db.session.get(Group, group.id))
    fresh = make_link(member, session_id)
    assert fresh not in urls and anonymous.get(fresh).status_code == 200


# The members' page


def test_the_share_page_lists_links_working_first(app, client, session_id):
    manage = f"/sessions/{session_id}/share"
    html = client.get(manage).text
    assert "No link is open now." in html and ">Make a link</button>" in html
    assert "can see this session's scores" in html and "change nothing" in html
    assert "passphrase revokes every link" in html
    first, _second, third = (make_link(client, session_id) for _ in range(3))
    ids = link_ids(app, session_id)
    client.post(f"{manage}/{ids[1]}/revoke", data={"csrf_token": csrf_token(client, manage)})
    html = client.get(manage).text
    assert link_urls(client, session_id) == [third, first]
    assert re.findall(r"Link (\d+)", html) == [str(ids[2]), str(ids[0]), str(ids[1])]
    assert html.count('<span class="sessions-tag">revoked</span>') == 1
    assert html.count("data-copy=") == 2 and re.search(r"<button [^>]*data-copy=[^>]*hidden>", html)
    for link_id in (ids[2], ids[0]):
        assert f'src="{manage}/{link_id}/qr.svg"' in html
    assert ">Make a new link</button>" in html
    assert f'href="/sessions/{session_id}"' in html


def test_the_qr_code_is_an_svg_of_the_link(app, client, session_id):
    url = make_link(client, session_id)
    (link_id,) = link_ids(app, session_id)
    answer = client.get(f"/sessions/{session_id}/share/{link_id}/qr.svg")
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml"
    assert answer.data.startswith(b"<svg") and b"style=" not in answer.data
    expected = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathFillImage).to_string()
    assert answer.data == expected


def test_share_events_are_in_the_audit_trail_with_the_phone(app, client, session_id):
    make_link(client, session_id)
    (link_id,) = link_ids(app, session_id)
    manage = f"/sessions/{session_id}/share"
    client.post(f"{manage}/{link_id}/revoke", data={"csrf_token": csrf_token(client, manage)})
    with app.app_context():
        events = db.session.scalars(sa.select(AuditEvent).where(
            AuditEvent.action.like("share.%")).order_by(AuditEvent.id)).all()
        assert [(e.action, e.subject, e.device, e.session_id) for e in events] == [
            ("share.create", f"Share link {link_id}", "Test phone", session_id),
            ("share.revoke", f"Share link {link_id}", "Test phone", session_id)]
        # Links change nothing in the session: its version stays.
        assert db.session.get(GameSession, session_id).version == 3


# Who may do what


def members_requests(session_id, link_id):
    base = f"/sessions/{session_id}/share"
    return [("get", base), ("get", f"{base}/{link_id}/qr.svg"), ("post", base),
            ("post", f"{base}/{link_id}/revoke")]


def test_another_groups_members_find_nothing(app, client, other_group_client, session_id):
    make_link(client, session_id)
    (link_id,) = link_ids(app, session_id)
    token = csrf_token(other_group_client, "/group")
    for method, url in members_requests(session_id, link_id):
        answer = getattr(other_group_client, method)(url, data={"csrf_token": token})
        assert answer.status_code == 404, url
    assert link_ids(app, session_id) == [link_id]
    assert len(link_urls(client, session_id)) == 1


def test_a_link_of_another_session_is_not_found_here(app, client, session_id):
    make_link(client, session_id)
    (link_id,) = link_ids(app, session_id)
    elsewhere = make_session(app)
    manage = f"/sessions/{elsewhere}/share"
    assert client.get(f"{manage}/{link_id}/qr.svg").status_code == 404
    answer = client.post(f"{manage}/{link_id}/revoke",
                         data={"csrf_token": csrf_token(client, manage)})
    assert answer.status_code == 404
    assert client.get(f"{manage}/9999/qr.svg").status_code == 404
    assert len(link_urls(client, session_id)) == 1


def test_signed_out_phones_are_sent_to_sign_in(app, client, anonymous, session_id):
    make_link(client, session_id)
    (link_id,) = link_ids(app, session_id)
    for method, url in members_requests(session_id, link_id):
        answer = getattr(anonymous, method)(url)
        assert answer.status_code == 302, url
        assert answer.location.startswith("/sign-in?next=")
    assert link_ids(app, session_id) == [link_id]


def test_a_post_without_csrf_token_is_refused(app, client, session_id):
    make_link(client, session_id)
    (link_id,) = link_ids(app, session_id)
    base = f"/sessions/{session_id}/share"
    assert client.post(base).status_code == 400
    assert client.post(f"{base}/{link_id}/revoke").status_code == 400
    assert client.post(base, data={"csrf_token": "forged"}).status_code == 400
    assert len(link_urls(client, session_id)) == 1


# A fixed number of SQL statements


def test_the_public_pages_take_a_fixed_number_of_statements(app, client, anonymous):
    session_id = make_session(app, EXAMPLE_1)
    url = make_link(client, session_id)
    few = [count_statements(app, anonymous, page) for page in (url, url + "/settle")]
    add_rounds(app, session_id, EXAMPLE_2, EXAMPLE_3, EXAMPLE_1, EXAMPLE_2)
    many = [count_statements(app, anonymous, page) for page in (url, url + "/settle")]
    assert few == many
    assert all(count <= 12 for count in many)
