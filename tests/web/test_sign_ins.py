"""Sign-ins (services/sign_ins.py): the cookie names its sign-in by a random
token that is never issued twice, so a copy of a signed-out phone's cookie
stays dead whatever ids the database hands out again; the service worker is
told a name of the sign-in that is not its token and never repeats; and old
sign-ins are deleted, so the table does not only grow."""

import hashlib
from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import SignIn, utcnow
from scorekeeper.services.sign_ins import STALE_DELETED
from scorekeeper.web.access import today
from scorekeeper.web.offline import SIGN_IN_HEADER
from tests.conftest import GROUP_NAME, PASSPHRASE
from tests.web.helpers import csrf_token
from tests.web.probing import REDIRECTS, redirect_path

NEW_PASSPHRASE = "a brand new passphrase"


def sign_in(app, client=None, name=GROUP_NAME, passphrase=PASSPHRASE):
    """A phone signed in through the sign-in form."""
    phone = client or app.test_client()
    answer = phone.post("/sign-in", data={
        "csrf_token": csrf_token(phone), "name": name, "passphrase": passphrase,
        "device": "Test phone"})
    assert answer.status_code in REDIRECTS, answer.status_code
    return phone


def copy_of(app, phone):
    """Another browser holding a copy of ``phone``'s session cookie."""
    copy = app.test_client()
    copy.set_cookie("session", phone.get_cookie("session").value)
    return copy


def signed_in(client) -> bool:
    answer = client.get("/group")
    if answer.status_code == 200:
        return True
    assert redirect_path(answer) == "/sign-in"
    return False


def sign_out(phone) -> None:
    answer = phone.post("/sign-out", data={"csrf_token": csrf_token(phone, "/group")})
    assert answer.status_code in REDIRECTS


def token_of(client) -> str:
    with client.session_transaction() as cookie:
        return cookie["sign_in"]


def rows() -> list[SignIn]:
    return list(db.session.scalars(sa.select(SignIn).order_by(SignIn.id)))


def worker_name(client) -> str:
    """What the group's page tells the service worker of the client's sign-in."""
    return client.get("/group").headers[SIGN_IN_HEADER]


# A signed-out cookie stays dead


def test_a_copy_of_a_signed_out_cookie_stays_dead_when_another_phone_signs_in(app, group):
    """SQLite gives a new row the id of the last one deleted: a cookie naming
    its sign-in by id came back to life with the next phone's sign-in."""
    phone = sign_in(app)
    copy = copy_of(app, phone)
    with app.app_context():
        (gone,) = rows()
    sign_out(phone)
    assert not signed_in(copy)
    other = sign_in(app)
    with app.app_context():
        (taken,) = rows()
        if db.engine.dialect.name == "sqlite":
            assert taken.id == gone.id  # the id is handed out again
    assert signed_in(other)
    assert not signed_in(copy)
    assert not signed_in(phone)


def test_a_lost_phones_cookie_stays_dead_after_a_new_passphrase_and_new_sign_ins(app, group):
    lost, owner = sign_in(app), sign_in(app)
    copy = copy_of(app, lost)
    answer = owner.post("/group/passphrase", data={
        "csrf_token": csrf_token(owner, "/group"), "current": PASSPHRASE,
        "passphrase": NEW_PASSPHRASE, "confirm": NEW_PASSPHRASE})
    assert answer.status_code in REDIRECTS
    phones = []
    for _ in range(4):
        assert not signed_in(copy) and not signed_in(lost)
        phones.append(sign_in(app, passphrase=NEW_PASSPHRASE))
    assert not signed_in(copy) and not signed_in(lost)
    assert all(signed_in(phone) for phone in [owner, *phones])


def test_the_cookie_holds_a_random_token_and_the_database_its_hash_only(app, group):
    phones = [sign_in(app) for _ in range(3)]
    tokens = [token_of(phone) for phone in phones]
    assert len(set(tokens)) == 3
    assert all(len(token) >= 43 for token in tokens)  # 256 bits in base64: 43 characters
    with app.app_context():
        assert sorted(row.token_hash for row in rows()) == sorted(
            hashlib.sha256(token.encode()).hexdigest() for token in tokens)
        with db.engine.connect() as connection:
            stored = repr(connection.execute(sa.select(SignIn.__table__)).all())
    assert not any(token in stored for token in tokens)


@pytest.mark.parametrize("cookie", [1, "1", None, True, ["x"], "x" * 65])
def test_a_cookie_that_names_no_token_opens_nothing(app, group, cookie):
    """Cookies from before migration 0012 named their sign-in by its id."""
    phone = sign_in(app)
    with phone.session_transaction() as session:
        session["sign_in"] = cookie
    assert not signed_in(phone)


def test_the_worker_is_told_a_new_name_for_every_sign_in(app, group):
    """The worker keeps one sign-in's pages under the name the pages tell it:
    a name seen before would show an earlier sign-in's pages to a later one."""
    phone = sign_in(app)
    seen = [worker_name(phone)]
    tokens = [token_of(phone)]
    sign_out(phone)
    for _ in range(3):
        sign_in(app, phone)
        seen.append(worker_name(phone))
        tokens.append(token_of(phone))
    sign_out(phone)
    seen.append(worker_name(sign_in(app)))
    assert len(set(seen)) == len(seen)
    assert not {name for name in seen if any(name in token for token in tokens)}
    assert all(len(name) == 32 for name in seen)


# Old sign-ins go


def test_signing_in_again_ends_the_phones_sign_in_before_for_any_group(app, group):
    with app.app_context():
        services.create_group("Other table", "another passphrase")
    phone = sign_in(app)
    first = copy_of(app, phone)
    sign_in(app, phone)
    second = copy_of(app, phone)
    sign_in(app, phone, name="Other table", passphrase="another passphrase")
    assert not signed_in(first) and not signed_in(second)
    assert signed_in(phone)
    with app.app_context():
        (row,) = rows()
        assert row.token_hash == services.token_hash(token_of(phone))


def test_sign_ins_unused_longer_than_a_cookie_lives_go_a_few_at_each_sign_in(app, group):
    """A cookie lasts 400 days from its last renewal, which may come later on
    the day its row was marked used: rows older than that and a day go."""
    lifetime = app.config["PERMANENT_SESSION_LIFETIME"]
    assert lifetime == timedelta(days=400)
    now = utcnow()
    with app.app_context():
        old = [SignIn(group_id=group.id, token_hash=f"{n:064x}",
                      used_at=now - lifetime - timedelta(days=1, minutes=n + 1))
               for n in range(STALE_DELETED + 20)]
        kept = SignIn(group_id=group.id, token_hash="f" * 64,
                      used_at=now - lifetime + timedelta(minutes=1))
        db.session.add_all([*old, kept])
        db.session.commit()
    first = sign_in(app)
    with app.app_context():
        left = {row.token_hash for row in rows()}
        assert len(left) == 20 + 2  # the oldest went first
        assert {f"{n:064x}" for n in range(20)} | {"f" * 64} < left
    second = sign_in(app)
    with app.app_context():
        assert {row.token_hash for row in rows()} == {
            "f" * 64, services.token_hash(token_of(first)), services.token_hash(token_of(second))}
    assert signed_in(first)


def test_a_phones_first_group_page_of_a_day_renews_its_sign_in(app, group):
    phone = sign_in(app)
    long_ago = utcnow() - timedelta(days=300)

    def used_at():
        with app.app_context():
            (row,) = rows()
            return row.used_at

    def make_old():
        with app.app_context():
            db.session.execute(sa.update(SignIn).values(used_at=long_ago))
            db.session.commit()

    make_old()
    assert signed_in(phone)
    assert used_at() == long_ago  # the same day as its sign-in: nothing to renew
    with phone.session_transaction() as session:
        session["day"] = today() - 1
    before = utcnow()
    assert signed_in(phone)
    assert used_at() >= before
    with phone.session_transaction() as session:
        assert session["day"] == today()
    make_old()
    assert signed_in(phone)
    assert used_at() == long_ago  # once a day
