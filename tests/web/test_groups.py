"""Groups: creating one, signing in and out, the passphrase, this phone's name,
the throttle on wrong passphrases, the one-group and no-new-groups modes, and
the command that sets a passphrase from the server."""

import io
import re

import pytest
import sqlalchemy as sa
from werkzeug.security import check_password_hash

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Attempt, AuditEvent, Group
from tests.conftest import GROUP_NAME, PASSPHRASE, fresh_app, signed_in_client
from tests.web.helpers import csrf_token, form_values, forms_on, text, token_in
from tests.web.probing import REDIRECTS, database_rows, redirect_path

NEW_NAME = "Tuesday crew"
NEW_PASSPHRASE = "seven card stud"


def post(client, path, data, **kwargs):
    """Post ``data`` with the client's CSRF token, as its browser would."""
    return client.post(path, data={"csrf_token": csrf_token(client), **data}, **kwargs)


def create(client, name=NEW_NAME, passphrase=NEW_PASSPHRASE, confirm=None, device="Mia's phone",
           **kwargs):
    return post(client, "/groups/new", {
        "name": name, "passphrase": passphrase,
        "confirm": passphrase if confirm is None else confirm, "device": device}, **kwargs)


def sign_in(client, name=GROUP_NAME, passphrase=PASSPHRASE, device="Test phone", **kwargs):
    return post(client, "/sign-in", {"name": name, "passphrase": passphrase, "device": device},
                **kwargs)


def signed_in(client) -> bool:
    """Whether the client's cookie opens the group's own page."""
    return client.get("/group").status_code == 200


def groups() -> list[Group]:
    return list(db.session.scalars(sa.select(Group)))


# Creating a group


def test_creating_a_group_signs_the_phone_in(app, anonymous):
    response = create(anonymous)
    assert response.status_code in REDIRECTS
    assert redirect_path(response) == "/group/invite"  # to get the others in
    assert signed_in(anonymous)
    assert NEW_NAME in text(anonymous.get("/group"))
    with app.app_context():
        (group,) = groups()
        assert group.name == NEW_NAME
        assert group.passphrase_hash != NEW_PASSPHRASE
        assert group.passphrase_hash.startswith(("scrypt:", "pbkdf2:"))
        assert check_password_hash(group.passphrase_hash, NEW_PASSPHRASE)
        assert NEW_PASSPHRASE not in repr(database_rows())


@pytest.mark.parametrize("passphrase", [PASSPHRASE, NEW_PASSPHRASE])
@pytest.mark.parametrize("name", [GROUP_NAME.upper(), f"  {GROUP_NAME.lower()}  ",
                                  GROUP_NAME.replace(" ", "   ")])
def test_a_taken_name_makes_no_other_group(app, group, anonymous, name, passphrase):
    """A group's name is its own whatever the letter case and passphrase: a
    second group of that name would make every sign-in to it check one more
    hash, and creating one with a guessed passphrase would test the guess."""
    with app.app_context():
        before = database_rows()
    response = create(anonymous, name=name, passphrase=passphrase)
    assert response.status_code == 200
    html = text(response)
    assert f"There is a group called {' '.join(name.split())} already" in html
    assert 'value="Mia&#39;s phone"' in response.get_data(as_text=True)  # what was typed is kept
    assert not signed_in(anonymous)
    with app.app_context():
        assert database_rows() == before
        guesses = db.session.scalars(sa.select(Attempt.key)).all()
        assert guesses == ["address:127.0.0.1"]  # the refusal counts for the address


def test_two_phones_creating_one_name_at_once_make_one_group(app, monkeypatch):
    """The database holds the rule: a name checked free by two phones at the
    same moment is written once, and the second phone is told it is taken."""
    with app.app_context():
        services.create_group(NEW_NAME, NEW_PASSPHRASE)
        with pytest.raises(sa.exc.IntegrityError):
            db.session.add(Group(name=NEW_NAME.upper(), passphrase_hash="!"))
            db.session.commit()
        db.session.rollback()
        # The second phone checked the name just before the first one's commit.
        answers = iter([None])
        real_find = services.find_group
        monkeypatch.setattr(services.groups, "find_group",
                            lambda name: next(answers, None) or real_find(name))
        with pytest.raises(services.ServiceError, match="There is a group called"):
            services.create_group(NEW_NAME.lower(), "another passphrase")
        assert [g.name for g in groups()] == [NEW_NAME]


@pytest.mark.parametrize(("passphrase", "confirm", "message"), [
    ("short", "short", "A passphrase has 8 to 200 characters."),
    ("", "", "Type the passphrase."),
    ("long enough one", "long enough two", "The two passphrases differ."),
])
def test_a_weak_or_mistyped_passphrase_is_refused(app, anonymous, passphrase, confirm, message):
    response = create(anonymous, passphrase=passphrase, confirm=confirm)
    assert response.status_code == 200
    html = text(response)
    assert message in html
    assert f'value="{NEW_NAME}"' in html  # what was typed is kept
    assert not signed_in(anonymous)
    with app.app_context():
        assert groups() == []


# Signing in and out


@pytest.mark.parametrize("name", [GROUP_NAME, GROUP_NAME.upper(), "  friday   TABLE "])
def test_sign_in_by_name_in_any_letter_case(group, anonymous, name):
    response = sign_in(anonymous, name=name)
    assert response.status_code in REDIRECTS
    assert redirect_path(response) == "/"
    assert signed_in(anonymous)


def test_wrong_passphrase_and_unknown_group_answer_the_same(app, group):
    """Nobody learns from the answer which group names exist."""
    answers = []
    for name, passphrase in ((GROUP_NAME, "not the passphrase"), ("Nobody's table", PASSPHRASE)):
        phone = app.test_client()
        response = sign_in(phone, name=name, passphrase=passphrase)
        page = text(response).replace(f'value="{name}"', 'value="NAME"')
        page = page.replace(token_in(page), "TOKEN")
        answers.append((response.status_code, page))
        assert not signed_in(phone)
    assert answers[0] == answers[1]
    assert answers[0][0] == 200
    assert "That group name and passphrase don't match." in answers[0][1]


def test_sign_out_is_a_post_with_its_csrf_token(client):
    assert client.get("/sign-out").status_code == 405
    assert client.post("/sign-out").status_code == 400
    assert signed_in(client)
    response = post(client, "/sign-out", {})
    assert response.status_code in REDIRECTS
    for path in ("/group", "/sessions/new", "/history"):
        response = client.get(path)
        assert response.status_code in REDIRECTS
        assert redirect_path(response) == "/sign-in"


def test_signing_out_ends_a_copy_of_the_cookie_too(app, group):
    """Whoever copied a phone's cookie before it signed out holds nothing."""
    phone = app.test_client()
    assert sign_in(phone).status_code in REDIRECTS
    copy = app.test_client()
    copy.set_cookie("session", phone.get_cookie("session").value)
    assert signed_in(copy)
    other = signed_in_client(app, group, device="Other")
    assert post(phone, "/sign-out", {}).status_code in REDIRECTS
    assert not signed_in(phone)
    assert not signed_in(copy)
    assert signed_in(other)  # the other phones stay signed in


def test_a_cookie_for_a_group_that_is_gone_signs_nobody_in(app, group):
    phone = signed_in_client(app, group)
    with phone.session_transaction() as cookie:
        cookie["group_id"] = group.id + 1000
    assert not signed_in(phone)
    with phone.session_transaction() as cookie:
        cookie["group_id"] = str(group.id)
    assert not signed_in(phone)


# The passphrase and this phone's name


def change_passphrase(client, current=PASSPHRASE, new=NEW_PASSPHRASE, confirm=None):
    return post(client, "/group/passphrase", {
        "current": current, "passphrase": new, "confirm": new if confirm is None else confirm})


def test_a_new_passphrase_signs_out_every_other_phone_but_this_one(app, group):
    this, other = signed_in_client(app, group), signed_in_client(app, group, device="Other")
    response = change_passphrase(this)
    assert response.status_code in REDIRECTS
    assert "The passphrase is changed" in text(this.get(response.location))
    assert signed_in(this)
    assert not signed_in(other)
    assert redirect_path(other.get("/group")) == "/sign-in"
    assert sign_in(app.test_client()).status_code == 200  # the old one is refused
    assert sign_in(app.test_client(), passphrase=NEW_PASSPHRASE).status_code in REDIRECTS


@pytest.mark.parametrize(("current", "new", "confirm", "message"), [
    ("not the passphrase", NEW_PASSPHRASE, None, "The current passphrase is not right"),
    (PASSPHRASE, "short", None, "A passphrase has 8 to 200 characters."),
    (PASSPHRASE, NEW_PASSPHRASE, "something else", "The two passphrases differ."),
])
def test_a_refused_passphrase_change_changes_nothing(app, group, current, new, confirm, message):
    this, other = signed_in_client(app, group), signed_in_client(app, group, device="Other")
    response = change_passphrase(this, current, new, confirm)
    assert response.status_code == 422
    assert message in text(response)
    assert signed_in(this) and signed_in(other)
    with app.app_context():
        assert db.session.get(Group, group.id).passphrase_hash == group.passphrase_hash


def device_field(client) -> str:
    return form_values(client.get("/group").text, "/group/device")["device"]


def test_the_phones_name_is_kept_in_its_cookie_and_can_be_changed(app, group, anonymous):
    sign_in(anonymous, device="Kitchen iPad")
    assert device_field(anonymous) == "Kitchen iPad"
    response = post(anonymous, "/group/device", {"device": "  Lounge tablet "})
    assert response.status_code in REDIRECTS
    assert device_field(anonymous) == "Lounge tablet"
    with anonymous.session_transaction() as cookie:
        assert cookie["device"] == "Lounge tablet"
    post(anonymous, "/sign-out", {})
    form = anonymous.get("/sign-in").text
    assert re.search(r'name="device"[^>]*value="Lounge tablet"', form)


def test_the_phones_name_goes_into_the_history_of_changes(app, group, client):
    """What this phone changes is written down under its name."""
    post(client, "/group/device", {"device": "Green phone"})
    page = client.get("/sessions/new").text
    (form,) = [f for f in forms_on(page, "/sessions/new") if f.action == "/sessions/new"]
    data = {**form.values, "seats-0": "Ana", "seats-1": "Ben", "first_dealer": "0"}
    response = client.post("/sessions/new", data=data)
    assert response.status_code in REDIRECTS
    with app.app_context():
        devices = set(db.session.scalars(sa.select(AuditEvent.device)))
    assert devices == {"Green phone"}


@pytest.mark.parametrize(("device", "message"), [
    ("", "Name this phone"), ("x" * 31, "Use at most 30 characters.")])
def test_a_phone_needs_a_short_name(client, device, message):
    response = post(client, "/group/device", {"device": device})
    assert response.status_code == 422
    assert message in text(response)


# Throttling wrong passphrases


def from_address(address):
    return {"environ_base": {"REMOTE_ADDR": address}}


def assert_throttled(response):
    assert response.status_code == 429
    page = text(response)
    assert "Too many tries" in page
    assert "in the last quarter of an hour" in page
    assert re.search(r"Try again in (1[0-5]|[1-9]) minutes?\.", page)
    assert 0 < int(response.headers["Retry-After"]) <= 15 * 60


def test_ten_wrong_passphrases_for_a_group_pause_its_sign_in(app, group):
    """Counted per group name (in any letter case), whatever address they come from."""
    for i in range(10):
        name = GROUP_NAME.upper() if i % 2 else GROUP_NAME
        response = sign_in(app.test_client(), name=name, passphrase=f"guess {i}",
                           **from_address(f"10.0.0.{i}"))
        assert response.status_code == 200
    phone = app.test_client()
    assert_throttled(sign_in(phone, **from_address("10.0.1.1")))  # even the right passphrase
    assert not signed_in(phone)
    assert phone.get("/sign-in", **from_address("10.0.1.1")).status_code == 200
    with app.app_context():
        services.create_group(NEW_NAME, NEW_PASSPHRASE)
    other = sign_in(app.test_client(), name=NEW_NAME, passphrase=NEW_PASSPHRASE,
                    **from_address("10.0.1.2"))
    assert other.status_code in REDIRECTS  # another group signs in as usual


def test_ten_wrong_passphrases_from_an_address_pause_its_sign_in(app, group):
    """Counted per address too, whatever group names they try."""
    for i in range(10):
        response = sign_in(app.test_client(), name=f"Table {i}", **from_address("10.0.0.9"))
        assert response.status_code == 200
    assert_throttled(sign_in(app.test_client(), **from_address("10.0.0.9")))
    assert sign_in(app.test_client(), **from_address("10.0.0.10")).status_code in REDIRECTS


def test_taken_names_pause_creating_groups_from_that_address(app, group):
    """Asking for taken names tells a stranger which exist: ten refusals
    from one address pause its sign-in and group creation like wrong
    passphrases, and none of them writes a group."""
    for i in range(10):
        response = create(app.test_client(), name=GROUP_NAME, passphrase=f"guess number {i}",
                          **from_address("10.0.2.1"))
        assert response.status_code == 200
    assert_throttled(create(app.test_client(), **from_address("10.0.2.1")))
    assert_throttled(sign_in(app.test_client(), **from_address("10.0.2.1")))
    assert sign_in(app.test_client(), **from_address("10.0.2.2")).status_code in REDIRECTS
    with app.app_context():
        assert [g.name for g in groups()] == [GROUP_NAME]


def test_wrong_sign_ins_pause_creating_groups_from_that_address(app, group):
    for i in range(10):
        sign_in(app.test_client(), name=f"Table {i}", **from_address("10.0.4.1"))
    assert_throttled(create(app.test_client(), **from_address("10.0.4.1")))
    importer = app.test_client()
    with app.app_context():
        document = signed_in_client(app, group).get("/group/export.json").data
    assert_throttled(importer.post("/groups/import", **from_address("10.0.4.1"), data={
        "csrf_token": csrf_token(importer, "/groups/import"), "name": NEW_NAME,
        "passphrase": NEW_PASSPHRASE, "confirm": NEW_PASSPHRASE, "device": "Mia's phone",
        "backup": (io.BytesIO(document), "backup.json")}, content_type="multipart/form-data"))
    assert create(app.test_client(), **from_address("10.0.4.2")).status_code in REDIRECTS


def test_successful_sign_ins_are_not_counted(app, group):
    for _ in range(12):
        assert sign_in(app.test_client()).status_code in REDIRECTS
    for i in range(10):
        assert sign_in(app.test_client(), passphrase=f"guess {i}").status_code == 200
    assert_throttled(sign_in(app.test_client()))


# One group only; no new groups


@pytest.fixture
def one_group_app(tmp_path):
    with fresh_app(tmp_path, TESTING=True, SINGLE_GROUP="Our table") as app:
        yield app


def as_the_page_posts(client, path, **typed):
    """Post the page's own form, as a browser would, with ``typed`` filled in."""
    (form,) = [f for f in forms_on(client.get(path).text, path) if f.action == path]
    return client.post(path, data={**form.values, **typed})


def test_one_group_mode_names_the_group_on_its_pages(one_group_app):
    phone = one_group_app.test_client()
    for path in ("/groups/new", "/sign-in"):
        page = phone.get(path).text
        assert "This scorekeeper is for <strong>Our table</strong>" in page
        assert 'name="name"' not in page
        assert 'name="passphrase"' in page


def test_one_group_mode_makes_its_group_from_the_page(one_group_app):
    phone = one_group_app.test_client()
    response = as_the_page_posts(phone, "/groups/new", passphrase=NEW_PASSPHRASE,
                                 confirm=NEW_PASSPHRASE)
    assert response.status_code in REDIRECTS
    with one_group_app.app_context():
        assert [g.name for g in groups()] == ["Our table"]


def test_one_group_mode_makes_its_group_once(one_group_app):
    phone = one_group_app.test_client()
    response = create(phone, name="Another name")
    assert response.status_code in REDIRECTS
    with one_group_app.app_context():
        assert [g.name for g in groups()] == ["Our table"]
    later = one_group_app.test_client()
    assert later.get("/groups/new").status_code == 404
    assert create(later).status_code == 404
    assert "Create a group" not in text(later.get("/"))
    assert "Create a group" not in text(later.get("/sign-in"))


def test_one_group_mode_asks_only_the_passphrase(one_group_app):
    with one_group_app.app_context():
        services.create_group("Our table", NEW_PASSPHRASE)
    phone = one_group_app.test_client()
    response = as_the_page_posts(phone, "/sign-in", passphrase="not it at all")
    assert response.status_code == 200
    assert "That passphrase is not right." in text(response)
    response = as_the_page_posts(phone, "/sign-in", passphrase=NEW_PASSPHRASE)
    assert response.status_code in REDIRECTS
    assert signed_in(phone)


def test_without_new_groups_nobody_can_make_one(tmp_path):
    with fresh_app(tmp_path, TESTING=True, NEW_GROUPS=False) as app:
        phone = app.test_client()
        assert phone.get("/groups/new").status_code == 404
        assert create(phone).status_code == 404
        assert "Create a group" not in text(phone.get("/"))
        assert "Create a group" not in text(phone.get("/sign-in"))
        with app.app_context():
            assert groups() == []


# The server's command


def test_the_set_passphrase_command_changes_it(app, group, runner):
    phone = signed_in_client(app, group)
    result = runner.invoke(args=["group", "set-passphrase", GROUP_NAME.upper(),
                                 "--passphrase", NEW_PASSPHRASE])
    assert result.exit_code == 0, result.output
    assert f"{GROUP_NAME} (id {group.id}) has a new passphrase." in result.output
    with app.app_context():
        assert services.group_for_sign_in(GROUP_NAME, NEW_PASSPHRASE).id == group.id
        assert services.group_for_sign_in(GROUP_NAME, PASSPHRASE) is None
    assert not signed_in(phone)


@pytest.mark.parametrize(("name", "passphrase", "message"), [
    ("Nobody's table", NEW_PASSPHRASE, "No group is named"),
    (GROUP_NAME, "short", "A passphrase needs at least 8 characters"),
])
def test_the_set_passphrase_command_refuses(app, group, runner, name, passphrase, message):
    result = runner.invoke(args=["group", "set-passphrase", name, "--passphrase", passphrase])
    assert result.exit_code == 1
    assert message in result.output
    with app.app_context():
        assert services.group_for_sign_in(GROUP_NAME, PASSPHRASE).id == group.id
