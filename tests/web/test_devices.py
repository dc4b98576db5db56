"""The device cookie (web/devices.py, OWASP's "slow brute-force protection
using device cookies"): a phone that has signed in to a group before counts
its own passphrase checks for it, so a stranger's wrong guesses never lock
the table's phones out, and the cookie's own wrong guesses lock only it."""

from http.cookies import SimpleCookie

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Attempt
from scorekeeper.web.devices import COOKIE, KEPT
from tests.conftest import GROUP_NAME, PASSPHRASE, fresh_app
from tests.web.helpers import csrf_token, text, token_in
from tests.web.probing import REDIRECTS

NEW_PASSPHRASE = "a brand new passphrase"
STRANGER = "10.66.0.1"


def try_sign_in(client, passphrase=PASSPHRASE, name=GROUP_NAME, address="127.0.0.1"):
    return client.post("/sign-in", environ_base={"REMOTE_ADDR": address}, data={
        "csrf_token": csrf_token(client), "name": name, "passphrase": passphrase,
        "device": "Test phone"})


def known_phone(app, name=GROUP_NAME, passphrase=PASSPHRASE):
    """A phone that signed in to the group, then signed out: it keeps its
    device cookie."""
    phone = app.test_client()
    assert try_sign_in(phone, passphrase, name).status_code in REDIRECTS
    sign_out(phone)
    assert phone.get_cookie(COOKIE) is not None
    return phone


def sign_out(phone):
    assert phone.post("/sign-out", data={
        "csrf_token": csrf_token(phone, "/group")}).status_code in REDIRECTS


def strangers_guess(app, count=10, address=STRANGER, name=GROUP_NAME):
    for i in range(count):
        answer = try_sign_in(app.test_client(), f"wrong guess {i}", name, address)
        assert answer.status_code == 200


def test_a_known_phone_signs_in_past_a_strangers_guesses(app, group):
    phone = known_phone(app)
    strangers_guess(app)  # the group's name is locked for strangers
    strangers_guess(app, 10, "127.0.0.1", "Some table")  # and the table's own address too
    for address in ("127.0.0.1", "10.66.0.2"):
        assert try_sign_in(app.test_client(), address=address).status_code == 429
    assert try_sign_in(phone).status_code in REDIRECTS
    assert phone.get("/group").status_code == 200


def test_a_device_cookies_wrong_guesses_lock_only_that_cookie(app, group):
    phone, other = known_phone(app), known_phone(app)
    for i in range(10):
        assert try_sign_in(phone, f"mistyped {i}").status_code == 200
    refused = try_sign_in(phone)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 15 * 60
    assert "from this phone" in text(refused)
    assert try_sign_in(other).status_code in REDIRECTS
    assert try_sign_in(app.test_client(), address=STRANGER).status_code in REDIRECTS
    with app.app_context():
        keys = set(db.session.scalars(db.select(Attempt.key)))
    assert len(keys) == 1 and keys.pop().startswith("device:")


def test_a_copy_of_a_device_cookie_shares_its_count(app, group):
    phone = known_phone(app)
    copy = app.test_client()
    copy.set_cookie(COOKIE, phone.get_cookie(COOKIE).value)
    for i in range(10):
        assert try_sign_in(copy, f"guess {i}", address=STRANGER).status_code == 200
    assert try_sign_in(phone).status_code == 429


def test_the_owner_changes_the_passphrase_past_a_strangers_guesses(app, group):
    owner = app.test_client()
    assert try_sign_in(owner).status_code in REDIRECTS
    strangers_guess(app, 10, "127.0.0.1")
    changed = owner.post("/group/passphrase", data={
        "csrf_token": csrf_token(owner, "/group"), "current": PASSPHRASE,
        "passphrase": NEW_PASSPHRASE, "confirm": NEW_PASSPHRASE})
    assert changed.status_code in REDIRECTS
    sign_out(owner)  # its device cookie names the new passphrase
    assert try_sign_in(owner, NEW_PASSPHRASE).status_code in REDIRECTS


def test_a_new_passphrase_voids_the_device_cookies_earned_before(app, group):
    """A cookie kept by someone no longer at the table counts for nothing: its
    phone is a stranger's until it signs in with the new passphrase."""
    former = known_phone(app)
    with app.app_context():
        services.set_passphrase(services.Change(services.find_group(GROUP_NAME)), NEW_PASSPHRASE)
    strangers_guess(app, 10, "127.0.0.1")
    assert try_sign_in(former, NEW_PASSPHRASE).status_code == 429
    assert try_sign_in(former, NEW_PASSPHRASE, address="10.66.0.3").status_code == 429


def test_a_device_cookie_counts_for_its_own_groups_only(app, group):
    with app.app_context():
        services.create_group("Other table", "another passphrase")
    phone = known_phone(app, "Other table", "another passphrase")
    strangers_guess(app)
    assert try_sign_in(phone, address="10.66.0.4").status_code == 429


def test_a_forged_device_cookie_counts_for_nothing(app, group):
    phone = known_phone(app)
    value = phone.get_cookie(COOKIE).value
    payload, signature = value.rsplit(".", 1)
    strangers_guess(app)
    for forged in (f"{payload}.{signature[:-2]}AA", "x" * 2000, "[1]", ""):
        phone.set_cookie(COOKIE, forged)
        assert try_sign_in(phone, address="10.66.0.5").status_code == 429


def test_the_device_cookie_outlives_sign_out_and_names_the_last_groups(app, group):
    phone = app.test_client()
    answer = try_sign_in(phone)
    (header,) = [h for h in answer.headers.getlist("Set-Cookie") if h.startswith(f"{COOKIE}=")]
    morsel = SimpleCookie(header)[COOKIE]
    assert morsel["httponly"] is True and morsel["samesite"] == "Lax"
    assert not morsel["secure"]
    assert int(morsel["max-age"]) == 400 * 24 * 3600
    assert morsel["path"] == "/"
    first = phone.get_cookie(COOKIE).value
    sign_out(phone)
    assert phone.get_cookie(COOKIE).value == first
    with app.app_context():
        for n in range(KEPT):
            services.create_group(f"Table {n}", "another passphrase")
    for n in range(KEPT):
        assert try_sign_in(phone, "another passphrase", f"Table {n}").status_code in REDIRECTS
    strangers_guess(app, 10, "127.0.0.1")
    assert try_sign_in(phone, "another passphrase", "Table 0").status_code in REDIRECTS
    assert try_sign_in(phone).status_code == 429  # the sixth group back is forgotten


def test_with_https_the_device_cookie_is_secure(tmp_path):
    with fresh_app(tmp_path, TESTING=True, HTTPS=True) as app:
        with app.app_context():
            services.create_group(GROUP_NAME, PASSPHRASE)
        phone = app.test_client()
        form = phone.get("/sign-in", base_url="https://localhost").text
        answer = phone.post("/sign-in", base_url="https://localhost",
                            headers={"Referer": "https://localhost/"}, data={
                                "csrf_token": token_in(form), "name": GROUP_NAME,
                                "passphrase": PASSPHRASE, "device": "Test phone"})
    assert answer.status_code in REDIRECTS
    (header,) = [h for h in answer.headers.getlist("Set-Cookie") if h.startswith(f"{COOKIE}=")]
    assert SimpleCookie(header)[COOKIE]["secure"] is True
