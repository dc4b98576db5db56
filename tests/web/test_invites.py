"""Issue 26, point 1: "Get the others in". An invite link (and its QR code)
signs a phone in to the group without the passphrase, for INVITE_HOURS, on
INVITE_PHONES phones at most, unless revoked (from the group page, or by a
new passphrase); opening one counts against the sign-in limit; each is in
the group's history. The phone that opens it answers "Which player are
you?", which names it and says whose it is, kept through later sign-ins;
nobody's phone (said so) is not "not chosen yet"."""

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.audit import Action
from scorekeeper.extensions import db
from scorekeeper.limits import INVITE_PHONES
from scorekeeper.logs import loggable_path
from scorekeeper.models import AuditEvent, Invite, Player, SignIn, utcnow
from scorekeeper.rules import HouseRules
from scorekeeper.services.invites import invite_limit
from scorekeeper.services.sign_ins import token_hash
from tests.conftest import GROUP_NAME, PASSPHRASE, signed_in_client
from tests.web.helpers import (
    csrf_token,
    form_values,
    forms_on,
    text,
    token_in,
    visible_text,
)
from tests.web.phones import Gunicorn, Phone, released_together

JOIN = re.compile(r'value="(https?://[^"]+/join/([A-Za-z0-9_-]+))"')


def make_invite(client):
    """Tap "Show an invite QR code": (the link's path, the page shown)."""
    response = client.post("/group/invite",
                           data={"csrf_token": csrf_token(client, "/group/invite")})
    assert response.status_code == 302 and response.location.endswith("/group/invite")
    page = client.get("/group/invite")
    _, token = JOIN.search(page.text).groups()
    return f"/join/{token}", page


def join(phone, path, **answer):
    """Open the link and answer "Which player are you?" (``player``: an id
    or "nobody"; ``name``: someone new; neither: "Join" as before)."""
    page = phone.get(path)
    assert page.status_code == 200, text(page)
    return phone.post(path, data={"csrf_token": csrf_token(phone, path), **answer})


def players(app) -> dict[str, int]:
    with app.app_context():
        return {p.name: p.id for p in db.session.scalars(sa.select(Player))}


def signed_in_to_group(phone) -> bool:
    return phone.get("/group").status_code == 200


def phones_cookie(phone):
    with phone.session_transaction() as cookie:
        return cookie.get("phones"), cookie.get("device")


@pytest.fixture
def known(app, group):
    """The group knows Ann, Ben and Cat (a session of theirs is open)."""
    with app.app_context():
        services.start_session(services.Change(group), ["Ann", "Ben", "Cat"],
                               HouseRules.rummi(), first_dealer="Ann")
    return players(app)


def events(app) -> list[tuple[str, str, str]]:
    with app.app_context():
        return [(e.action, e.device, e.subject) for e in db.session.scalars(
            sa.select(AuditEvent).where(AuditEvent.action.like("group.invite%"))
            .order_by(AuditEvent.id))]


def invite_row(app) -> Invite:
    with app.app_context():
        row = db.session.scalars(sa.select(Invite).order_by(Invite.id.desc())).first()
        db.session.expunge(row)
        return row


def set_invite(app, **values):
    with app.app_context():
        db.session.execute(sa.update(Invite).values(**values))
        db.session.commit()


# Making one, and the phone that opens it


def test_the_group_page_gets_the_others_in_and_a_phone_joins_as_ben(app, client, anonymous,
                                                                     known):
    assert 'href="/group/invite"' in client.get("/group").text
    path, page = make_invite(client)
    assert 'src="data:image/svg+xml;base64,' in page.text
    assert "QR code of the invite link" in page.text
    assert "2 hours" in visible_text(page) and "8 phones" in visible_text(page)

    question = anonymous.get(path)
    assert question.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in question.headers["Cache-Control"]
    said = visible_text(question)
    assert "Join Friday table" in said and "Which player are you?" in said
    names = [f for f in forms_on(question.text) if "player" in f.buttons]
    assert names[0].buttons["player"] == {str(known[n]) for n in ("Ann", "Ben", "Cat")} | {
        "nobody"}
    assert any("name" in f.values for f in forms_on(question.text))  # someone new

    joined = anonymous.post(path, data={"csrf_token": csrf_token(anonymous, path),
                                        "player": str(known["Ben"])})
    assert joined.status_code == 302 and joined.location.endswith("/")
    assert signed_in_to_group(anonymous)
    assert phones_cookie(anonymous)[1] == "Ben's phone"
    assert anonymous.get_cookie("device") is not None  # as a sign-in with the passphrase
    home = visible_text(anonymous.get("/"))
    assert "Which player are you?" not in home  # answered
    board = anonymous.get(f"/sessions/{1}").text
    assert "Ben</bdi></strong> (this phone)" in board or "Ben</strong> (this phone)" in board
    assert events(app) == [("group.invite", "Test phone", "Invite link 1"),
                           ("group.invite_use", "Ben's phone", "Invite link 1")]
    group_page = visible_text(client.get("/group"))
    assert "Invite link 1: 1 of 8 phones signed in" in group_page
    assert "Signed in with invite link 1" in group_page and "from Ben's phone" in group_page
    assert "Invite link 1 made, for 8 phones over 2 hours" in group_page


def test_the_link_is_shown_once_and_the_server_keeps_only_its_hash(app, client):
    path, _ = make_invite(client)
    token = path.rsplit("/", 1)[1]
    assert len(token) >= 43
    again = client.get("/group/invite")
    assert token not in again.text and "data:image/svg" not in again.text
    assert "Invite link 1: 0 of 8 phones signed in" in visible_text(again)
    row = invite_row(app)
    assert row.token_hash == token_hash(token)
    assert token not in repr([getattr(row, c.key) for c in sa.inspect(Invite).columns])
    first = client.post("/group/invite", data={"csrf_token": csrf_token(client, "/group")})
    shown = client.get(first.location)
    assert "Scorekeeper-Offline" not in shown.headers  # the service worker keeps no copy
    assert "no-store" in shown.headers["Cache-Control"]


def test_a_double_tap_makes_one_link_which_the_second_answer_shows(app, client):
    """The second tap's request carries the first's key: no second link, and
    the phone is shown the link made, though the first answer (whose cookie
    carried the link) never reached it, as when a browser drops the first
    request's answer for the second's."""
    fields = form_values(client.get("/group/invite").text, "/group/invite")
    assert fields["key"]
    first = client.post("/group/invite", data=fields)
    assert first.status_code == 302
    with client.session_transaction() as cookie:
        del cookie["invite_made"]  # the first answer, lost
    again = client.post("/group/invite", data=fields)
    assert (again.status_code, again.location) == (first.status_code, first.location)
    (shown,) = {token for _, token in JOIN.findall(client.get(again.location).text)}
    assert [invite_row(app).token_hash] == [token_hash(shown)]
    assert [e[0] for e in events(app)] == ["group.invite"]
    # "Make another link", a form of its own with a key of its own: another link.
    page = client.get("/group/invite")
    assert "data:image/svg" not in page.text  # shown once
    another = client.post("/group/invite", data=form_values(page.text, "/group/invite"))
    (other,) = {token for _, token in JOIN.findall(client.get(another.location).text)}
    assert other != shown and [e[0] for e in events(app)] == ["group.invite"] * 2


def test_opening_the_link_takes_no_place_until_a_name_is_tapped(app, client, anonymous, known):
    path, _ = make_invite(client)
    for _ in range(INVITE_PHONES + 2):  # a chat app's preview, a reload
        assert anonymous.get(path).status_code == 200
    assert invite_row(app).used == 0 and not signed_in_to_group(anonymous)


def test_someone_new_is_added_to_the_group_and_a_known_name_is_not_added_again(
        app, client, known):
    path, _ = make_invite(client)
    dan = app.test_client()
    assert join(dan, path, name="  Dan  ").status_code == 302
    assert "Dan" in players(app) and phones_cookie(dan)[1] == "Dan's phone"
    with app.app_context():
        added = db.session.scalars(sa.select(AuditEvent).where(
            AuditEvent.action == Action.PLAYER_ADD)).all()
        assert [(e.subject, e.device) for e in added][-1] == ("Dan", "Dan's phone")
    ben = app.test_client()
    assert join(ben, path, name="ben").status_code == 302
    assert sorted(players(app)) == ["Ann", "Ben", "Cat", "Dan"]
    assert phones_cookie(ben) == ([[invite_row(app).group_id, known["Ben"]]], "Ben's phone")


@pytest.mark.parametrize("answer, error", [
    ({"player": "999999"}, "Choose one of the names below"),
    ({"player": "junk"}, "Choose one of the names below"),
    ({"player": ""}, "Choose one of the names below"),
    ({"name": "   "}, "Type your name."),
    ({"name": "x" * 31}, "Use at most 30 characters."),
])
def test_a_wrong_answer_is_asked_again_and_takes_no_place(app, client, anonymous, known,
                                                           answer, error):
    path, _ = make_invite(client)
    refused = join(anonymous, path, **answer)
    assert refused.status_code == 422 and error in visible_text(refused)
    assert "Which player are you?" in visible_text(refused)
    assert invite_row(app).used == 0 and not signed_in_to_group(anonymous)


def test_another_groups_player_cannot_be_chosen(app, client, anonymous, known):
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        services.start_session(services.Change(other), ["Zed", "Yan"], HouseRules.rummi(),
                               first_dealer="Zed")
    path, _ = make_invite(client)
    refused = join(anonymous, path, player=str(players(app)["Zed"]))
    assert refused.status_code == 422 and not signed_in_to_group(anonymous)


# Its lifetime, its phones, revoking it


def closed_page(phone, path, status, *words):
    """The page a link that no longer works opens: why, and the way forward."""
    answer = phone.get(path)
    assert answer.status_code == status
    said = visible_text(answer)
    for word in words:
        assert word in said
    assert "Ask someone already in the group for a new link" in said
    assert 'href="/sign-in"' in answer.text
    assert answer.headers["X-Robots-Tag"] == "noindex, nofollow"
    return answer


def test_the_link_stops_after_its_hours(app, client, anonymous):
    path, _ = make_invite(client)
    row = invite_row(app)
    assert row.expires_at - row.created_at == timedelta(hours=2)
    set_invite(app, expires_at=utcnow() - timedelta(seconds=1))
    closed_page(anonymous, path, 410, "It has expired", "works for 2 hours")
    refused = anonymous.post(path, data={"csrf_token": csrf_token(anonymous, "/sign-in"),
                                         "player": "nobody"})
    assert refused.status_code == 410 and not signed_in_to_group(anonymous)
    assert "phones signed in" not in visible_text(client.get("/group"))  # no longer listed


def test_the_link_signs_in_its_phones_and_no_more(app, client, known):
    path, _ = make_invite(client)
    phones = [app.test_client() for _ in range(INVITE_PHONES + 1)]
    for phone in phones[:INVITE_PHONES]:
        assert join(phone, path, player="nobody").status_code == 302
    closed_page(phones[-1], path, 410, "As many phones as it allows have joined")
    assert invite_row(app).used == INVITE_PHONES
    assert all(signed_in_to_group(phone) for phone in phones[:INVITE_PHONES])
    assert not signed_in_to_group(phones[-1])


def test_a_link_revoked_from_the_group_page_signs_no_more_phones_in(app, client, known):
    path, _ = make_invite(client)
    early, late, opened = app.test_client(), app.test_client(), app.test_client()
    assert join(early, path, player=str(known["Ann"])).status_code == 302
    assert opened.get(path).status_code == 200  # its page is open as the link is revoked
    (revoke,) = [f for f in forms_on(client.get("/group").text, "/group")
                 if f.action.endswith("/revoke")]
    assert client.post(revoke.action, data=revoke.values).status_code == 302
    closed_page(late, path, 410, "It was revoked")
    answer = opened.post(path, data={"csrf_token": csrf_token(opened, "/sign-in"),
                                     "player": str(known["Cat"])})
    assert answer.status_code == 410 and not signed_in_to_group(opened)
    assert signed_in_to_group(early)  # signed in before: a new passphrase ends that
    assert events(app)[-1] == ("group.invite_revoke", "Test phone", "Invite link 1")
    assert client.post(revoke.action, data=revoke.values).status_code == 302  # twice: no error
    assert "Invite link 1 revoked" in visible_text(client.get("/group"))


def other_group(app):
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        db.session.refresh(other)
        db.session.expunge(other)
    return other


def test_another_groups_invite_cannot_be_revoked(app, client):
    make_invite(client)
    stranger = signed_in_client(app, other_group(app))
    answer = stranger.post("/group/invite/1/revoke",
                           data={"csrf_token": csrf_token(stranger, "/group")})
    assert answer.status_code == 404 and invite_row(app).revoked_at is None


def test_a_new_passphrase_revokes_every_link(app, client, known):
    path, _ = make_invite(client)
    joined = app.test_client()
    assert join(joined, path, player="nobody").status_code == 302
    form = {"csrf_token": csrf_token(client, "/group"), "current": PASSPHRASE,
            "passphrase": "a newer passphrase", "confirm": "a newer passphrase"}
    assert client.post("/group/passphrase", data=form).status_code == 302
    closed_page(app.test_client(), path, 410, "It was revoked")
    assert not signed_in_to_group(joined)


def test_links_expired_a_week_ago_go_as_new_ones_are_made(app, client, anonymous):
    old, _ = make_invite(client)
    set_invite(app, expires_at=utcnow() - timedelta(days=7, seconds=1))
    closed_page(anonymous, old, 410, "It has expired")
    make_invite(client)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Invite)) == 1
    closed_page(anonymous, old, 404, "This invite link doesn’t work")


def test_a_link_that_never_was_says_so_without_a_500(anonymous):
    for token in ("x" * 43, "a", "y" * 500, "..", "%00"):
        closed_page(anonymous, f"/join/{token}", 404, "This invite link doesn’t work")


def test_a_phone_in_the_group_already_is_told_so_and_takes_no_place(app, client):
    path, _ = make_invite(client)
    page = client.get(path)
    assert "This phone is signed in to Friday table already" in visible_text(page)
    assert "Scorekeeper-Offline" not in page.headers  # never kept by the service worker
    assert invite_row(app).used == 0


def test_a_phone_in_another_group_joins_this_one_instead(app, client, known):
    phone = signed_in_client(app, other_group(app))
    path, _ = make_invite(client)
    assert join(phone, path, player=str(known["Cat"])).status_code == 302
    assert "Friday table" in visible_text(phone.get("/group"))


# Counted per address, under a limit of their own


def test_opening_links_counts_per_address_under_a_limit_of_its_own(app, client):
    path, _ = make_invite(client)
    here = app.test_client()
    with app.app_context():
        most = invite_limit().attempts
    assert most == 10 + 2 * INVITE_PHONES  # the sign-in limit, and a table's phones at once
    for _ in range(most + 5):  # a link that works takes its try back
        assert here.get(path, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 200
    # Passphrases guessed from the address spend none of the links' tries.
    wrong = [here.post("/sign-in", data={
        "csrf_token": csrf_token(here, "/sign-in"), "name": GROUP_NAME, "passphrase": "not it",
        "device": "Phone"}, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code
        for _ in range(11)]
    assert wrong == [200] * 10 + [429]
    assert here.get(path, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 200
    for n in range(most):
        assert here.get(f"/join/wrong{n}", environ_base={"REMOTE_ADDR": "10.0.0.1"}
                        ).status_code == 404
    refused = here.get(path, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "invite links that don’t work" in visible_text(refused)
    assert app.test_client().get(path, environ_base={"REMOTE_ADDR": "10.0.0.2"}
                                 ).status_code == 200  # another address


# Under gunicorn, with three workers


def test_a_whole_table_racing_in_on_one_address_is_let_in_and_never_past_the_places(
        app, client, known, tmp_path):
    """A table's phones on a café's one address open the link and answer at
    once, on several workers: none is refused for now (429), and no more
    than the link's places get in. Wrong links are still refused past the
    limit, and the address's passphrase guesses are its own."""
    path, _ = make_invite(client)
    with app.app_context():
        most = invite_limit().attempts

    def join_over_http() -> int:
        """The status of the phone's answer: its page's, if the places had
        gone before it loaded, else its choice's."""
        phone = Phone(server.port)
        status, _, page = phone.request("GET", path)
        if "Which player are you?" not in page:
            return status
        return phone.answer("POST", path, {"csrf_token": token_in(page), "player": "nobody"}).status

    with Gunicorn(app, tmp_path) as server:
        statuses = released_together([join_over_http for _ in range(INVITE_PHONES + 4)])
        assert sorted(statuses) == [302] * INVITE_PHONES + [410] * 4
        assert Phone(server.port).request("GET", path)[0] == 410

        def wrong_link(n):
            return Phone(server.port).request("GET", f"/join/not-a-link-{n}")[0]

        wrong = released_together([lambda n=n: wrong_link(n) for n in range(most + 6)])
        assert set(wrong) == {404, 429} and wrong.count(404) <= most
        assert Phone(server.port).try_sign_in()[0] == 302  # the passphrase's tries are whole
    assert invite_row(app).used == INVITE_PHONES
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(SignIn)) == (
            2 + INVITE_PHONES)  # the client's own, one per phone let in, and the last


# Whose phone: asked once, kept through sign-ins, nobody's is an answer


def sign_in(phone, device="Test phone"):
    answer = phone.post("/sign-in", data={"csrf_token": csrf_token(phone, "/sign-in"),
                                          "name": GROUP_NAME, "passphrase": PASSPHRASE,
                                          "device": device})
    assert answer.status_code == 302


def sign_out(phone):
    assert phone.post("/sign-out", data={"csrf_token": csrf_token(phone, "/group")}
                      ).status_code == 302


def asks(phone) -> bool:
    return "Which player are you?" in visible_text(phone.get("/"))


def test_the_home_page_asks_a_phone_that_has_not_said_whose_it_is(app, anonymous, known):
    sign_in(anonymous)
    assert asks(anonymous)
    form = {"csrf_token": csrf_token(anonymous, "/"), "player": str(known["Cat"])}
    assert anonymous.post("/group/phone", data=form).status_code == 302
    assert not asks(anonymous) and phones_cookie(anonymous)[1] == "Cat's phone"
    sign_out(anonymous)
    sign_in(anonymous, device="Android phone")
    assert not asks(anonymous)  # still Cat's phone
    assert phones_cookie(anonymous)[0][0][1] == known["Cat"]
    assert "Cat</bdi></strong> (this phone)" in anonymous.get("/sessions/1").text \
        or "Cat</strong> (this phone)" in anonymous.get("/sessions/1").text


def test_nobodys_phone_is_an_answer_kept_apart_from_not_chosen(app, anonymous, known):
    sign_in(anonymous)
    assert asks(anonymous) and phones_cookie(anonymous)[0] is None  # not chosen yet
    form = {"csrf_token": csrf_token(anonymous, "/"), "player": "nobody"}
    assert anonymous.post("/group/phone", data=form).status_code == 302
    group_id = invite_or_group_id(app)
    assert phones_cookie(anonymous) == ([[group_id, None]], "Shared phone")
    assert not asks(anonymous)
    sign_out(anonymous)
    sign_in(anonymous)
    assert not asks(anonymous) and phones_cookie(anonymous)[0] == [[group_id, None]]
    board = anonymous.get("/sessions/1").text
    assert "(this phone)" not in board and "Whose phone is this?" in board


def invite_or_group_id(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(SignIn.group_id))


def test_someone_new_from_the_home_page_joins_the_group(app, anonymous, known):
    sign_in(anonymous)
    form = {"csrf_token": csrf_token(anonymous, "/"), "name": "Eve"}
    assert anonymous.post("/group/phone", data=form).status_code == 302
    assert phones_cookie(anonymous) == ([[invite_or_group_id(app), players(app)["Eve"]]],
                                        "Eve's phone")
    refused = anonymous.post("/group/phone", data={"csrf_token": form["csrf_token"],
                                                   "player": "12345"})
    assert refused.status_code == 422 and "Choose one of the names" in visible_text(refused)


def test_a_phone_joining_again_by_invite_keeps_its_player(app, client, known):
    path, _ = make_invite(client)
    phone = app.test_client()
    assert join(phone, path, player=str(known["Ben"])).status_code == 302
    rename = {"csrf_token": csrf_token(phone, "/group"), "device": "Ben's tablet"}
    assert phone.post("/group/device", data=rename).status_code == 302
    sign_out(phone)
    page = visible_text(phone.get(path))
    assert "This phone is Ben’s, as it said before." in page
    assert join(phone, path).status_code == 302  # "Join": no name to tap again
    assert phones_cookie(phone) == ([[invite_row(app).group_id, known["Ben"]]], "Ben's tablet")
    assert not asks(phone) and invite_row(app).used == 2


def test_a_new_group_goes_on_to_get_the_others_in(app, anonymous):
    form = {"csrf_token": csrf_token(anonymous, "/groups/new"), "name": "Tuesday table",
            "passphrase": "a good passphrase", "confirm": "a good passphrase",
            "device": "Mia's phone"}
    created = anonymous.post("/groups/new", data=form)
    assert created.status_code == 302 and created.location.endswith("/group/invite")
    said = visible_text(anonymous.get(created.location))
    assert "Get the others in" in said and "Show an invite QR code" in said
    assert asks(anonymous)  # the group's first player: "Someone new"


def test_an_invite_links_token_stays_out_of_the_logs():
    assert loggable_path("/join/abcDEF_-123") == "/join/…"
    assert loggable_path("/share/abc") == "/share/abc"
