"""The limits on passphrase guesses, new groups and imports hold whatever
serves the app: counted in the database, they are shared by gunicorn's
workers and outlive a restart, and attempts racing in at once never get more
than the limit made. A phone with a device cookie counts on its own."""

import io
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Attempt, Group, utcnow
from scorekeeper.services import throttle
from tests.conftest import GROUP_NAME, PASSPHRASE, fresh_app, signed_in_client
from tests.web.helpers import csrf_token, text, token_in
from tests.web.phones import SAVED, Gunicorn, Phone, released_together

LIMIT = throttle.Limit(10, timedelta(minutes=15))


def test_the_limit_is_read_as_written():
    assert throttle.Limit.parse("10 per 15 minutes") == LIMIT
    assert throttle.Limit.parse("3/hour") == throttle.Limit(3, timedelta(hours=1))
    with pytest.raises(ValueError, match="SIGN_IN_LIMIT"):
        throttle.Limit.parse("ten a quarter hour")


def test_guesses_racing_in_at_once_never_pass_the_limit(app):
    """Twelve threads at a time, each with its own connection, as workers are."""
    checked = []

    def guess(n):
        with app.app_context():
            try:
                with throttle.guessing(LIMIT, "group:racing"):
                    checked.append(n)
                    time.sleep(0.01)  # a passphrase being hashed
            except throttle.TooManyGuesses:
                pass

    with ThreadPoolExecutor(12) as pool:
        list(pool.map(guess, range(48)))
    assert 1 <= len(checked) <= LIMIT.attempts
    with app.app_context():
        kept = db.session.scalar(sa.select(sa.func.count()).select_from(Attempt))
        assert kept == len(checked)  # the refused ones count for nothing


def test_a_right_passphrase_takes_its_guess_back_and_old_guesses_expire(app):
    with app.app_context():
        with throttle.guessing(LIMIT, "group:a") as guess:
            guess.take_back()
        ended = utcnow() - timedelta(seconds=1)
        db.session.add_all(Attempt(key="group:a", until=ended) for _ in range(20))
        db.session.commit()
        for _ in range(LIMIT.attempts):
            with throttle.guessing(LIMIT, "group:a"):
                pass
        with pytest.raises(throttle.TooManyGuesses) as refused, \
                throttle.guessing(LIMIT, "group:a"):
            pass
        assert 0 < refused.value.retry_after <= LIMIT.window.total_seconds() + 1
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Attempt)) == 10


def change_passphrase(phone, current):
    return phone.post("/group/passphrase", data={
        "csrf_token": csrf_token(phone, "/group"), "current": current,
        "passphrase": "a brand new one", "confirm": "a brand new one"})


def test_the_current_passphrase_check_counts_for_the_group(app, group):
    """A signed-in phone can't test passphrases on the group page without limit:
    its checks count with the sign-in's, for the group, from any address."""
    phone = signed_in_client(app, group)
    for i in range(5):
        assert change_passphrase(phone, f"guess {i}").status_code == 422
    for i in range(5):
        answer = phone.post("/sign-in", environ_base={"REMOTE_ADDR": f"10.9.0.{i}"}, data={
            "csrf_token": csrf_token(phone), "name": GROUP_NAME, "passphrase": f"other {i}",
            "device": "x"})
        assert answer.status_code == 200
    refused = change_passphrase(phone, PASSPHRASE)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    with app.app_context():
        assert services.find_group(GROUP_NAME).passphrase_hash == group.passphrase_hash


# Under gunicorn, with the default settings and three workers


def test_three_workers_check_at_most_ten_wrong_passphrases(app, group, tmp_path):
    with Gunicorn(app, tmp_path) as server:
        answers = []
        lock = threading.Lock()

        def guess(n):
            status, _ = Phone(server.port).try_sign_in(f"wrong guess {n}")
            with lock:
                answers.append(status)

        with ThreadPoolExecutor(9) as pool:
            list(pool.map(guess, range(36)))
        assert set(answers) == {200, 429}  # 200: checked, and wrong
        assert answers.count(200) + guesses_left(server.port, {}) == 10
        assert Phone(server.port).try_sign_in()[0] == 429
    with Gunicorn(app, tmp_path) as restarted:  # the counts are still there
        assert Phone(restarted.port).try_sign_in()[0] == 429


def test_each_limit_keeps_its_counts_for_its_own_window(app):
    """Every limit's attempts share one table: a sign-in's 15 minutes never
    clear an hour-long limit's counts early, and ended ones go."""
    hourly = throttle.Limit(2, timedelta(hours=1))
    with app.app_context():
        now = utcnow()
        db.session.add_all([Attempt(key="import:site", until=now + timedelta(minutes=30)),
                            Attempt(key="import:site", until=now + timedelta(minutes=40)),
                            Attempt(key="group:a", until=now - timedelta(seconds=1))])
        db.session.commit()
        with throttle.guessing(LIMIT, "group:b"):
            pass
        with pytest.raises(throttle.LimitReached) as refused:
            throttle.count(("import:site", hourly))
        assert 29 * 60 < refused.value.retry_after <= 30 * 60 + 1
        keys = sorted(db.session.scalars(sa.select(Attempt.key)))
        assert keys == ["group:b", "import:site", "import:site"]


# Groups created and backups imported, per address and on the whole site


def create(client, name, address="127.0.0.1", passphrase="a good passphrase"):
    return client.post("/groups/new", environ_base={"REMOTE_ADDR": address}, data={
        "csrf_token": csrf_token(client, "/groups/new"), "name": name,
        "passphrase": passphrase, "confirm": passphrase, "device": "Mia's phone"})


def send_backup(client, name, document, address="127.0.0.1"):
    return client.post("/groups/import", environ_base={"REMOTE_ADDR": address}, data={
        "csrf_token": csrf_token(client, "/groups/import"), "name": name,
        "passphrase": "a good passphrase", "confirm": "a good passphrase",
        "device": "Mia's phone", "backup": (io.BytesIO(document), "backup.json")},
        content_type="multipart/form-data")


def assert_refused_for_now(answer, what):
    assert answer.status_code == 429
    assert 0 < int(answer.headers["Retry-After"]) <= 3600
    page = text(answer)
    assert f"there have been too many {what} from here, or on this whole site, in the last hour" \
        in page
    assert re.search(r"try again in ([1-9]|[1-5]\d|60) minutes?", page)
    assert 'value="Mia\'s phone"' in page  # what was typed is kept


@pytest.fixture
def small_limits(tmp_path):
    with fresh_app(tmp_path, TESTING=True, NEW_GROUP_LIMIT="2 per hour",
                   NEW_GROUP_SITE_LIMIT="3 per hour", IMPORT_LIMIT="2 per hour",
                   IMPORT_SITE_LIMIT="3 per hour") as app:
        yield app


def test_new_groups_stop_at_the_limits_per_address_and_for_the_site(small_limits):
    app = small_limits
    for n in range(2):
        assert create(app.test_client(), f"Table {n}").status_code == 302
    refused = create(app.test_client(), "Table 2")
    assert_refused_for_now(refused, "new groups")
    assert 'value="Table 2"' in text(refused)
    assert "The group was not created" in text(refused)
    # Refused for what the group is: these count for nothing.
    assert create(app.test_client(), "Table 0", "10.1.0.1").status_code == 200
    assert create(app.test_client(), "Table 9", "10.1.0.1", "short").status_code == 200
    assert create(app.test_client(), "Table 3", "10.1.0.1").status_code == 302
    assert_refused_for_now(create(app.test_client(), "Table 4", "10.1.0.2"), "new groups")
    with app.app_context():
        names = set(db.session.scalars(sa.select(Group.name)))
    assert names == {"Table 0", "Table 1", "Table 3"}


def test_imports_stop_at_the_limits_counting_every_file_read(small_limits):
    app = small_limits
    with app.app_context():
        group = services.create_group("Source", "a good passphrase")
        db.session.refresh(group)
        db.session.expunge(group)
    document = signed_in_client(app, group).get("/group/export.json").data
    assert send_backup(app.test_client(), "Copy 1", b"{not json").status_code == 422
    assert send_backup(app.test_client(), "Copy 2", document).status_code == 302
    assert_refused_for_now(send_backup(app.test_client(), "Copy 3", document), "imports")
    assert send_backup(app.test_client(), "Copy 3", document, "10.1.0.1").status_code == 302
    refused = send_backup(app.test_client(), "Copy 4", document, "10.1.0.2")
    assert_refused_for_now(refused, "imports")
    assert "Nothing was imported" in text(refused)
    with app.app_context():
        names = set(db.session.scalars(sa.select(Group.name)))
    assert names == {"Source", "Copy 2", "Copy 3"}


# Under gunicorn, with the default settings and three workers: device cookies,
# new groups and imports


def test_across_workers_a_known_phone_counts_its_own_guesses(app, group, tmp_path):
    with Gunicorn(app, tmp_path) as server:
        known = Phone(server.port).sign_in().sign_out()
        other = Phone(server.port).sign_in().sign_out()
        strangers = racing_guesses(server.port, {})
        assert strangers.count(200) + guesses_left(server.port, {}) == 10
        assert Phone(server.port).try_sign_in()[0] == 429
        assert known.try_sign_in()[0] in SAVED
        known.sign_out()
        cookie = {"device": known.cookies["device"]}
        copies = racing_guesses(server.port, cookie)
        assert copies.count(200) + guesses_left(server.port, cookie) == 10
        assert known.try_sign_in()[0] == 429
        assert other.try_sign_in()[0] in SAVED


def racing_guesses(port, cookies) -> list[int]:
    """24 wrong passphrases, nine at a time, from phones holding ``cookies``."""
    def guess(n):
        phone = Phone(port)
        phone.cookies.update(cookies)
        return phone.try_sign_in(f"wrong guess {n}")[0]

    with ThreadPoolExecutor(9) as pool:
        answers = list(pool.map(guess, range(24)))
    assert set(answers) <= {200, 429}
    return answers


def guesses_left(port, cookies) -> int:
    """Wrong passphrases, one at a time, until refused: how many were let in.
    (Racing guesses may be refused where one at a time would not, never the
    other way: each is counted before its count is read.)"""
    for made in range(11):
        phone = Phone(port)
        phone.cookies.update(cookies)
        if phone.try_sign_in(f"wrong guess, alone {made}")[0] == 429:
            return made
    raise AssertionError("more than the limit let in")


NEW_GROUP_LIMIT = 5  # the default, per address and hour


def test_across_workers_new_groups_and_imports_stop_at_their_limit(app, group, tmp_path):
    document = signed_in_client(app, group).get("/group/export.json").data

    def create_group(name):
        phone = Phone(server.port)
        _, _, page = phone.request("GET", "/groups/new")
        return phone.answer("POST", "/groups/new", {
            "csrf_token": token_in(page), "name": name, "passphrase": "a good passphrase",
            "confirm": "a good passphrase", "device": "Mia's phone"})

    def import_group(name):
        phone = Phone(server.port)
        _, _, page = phone.request("GET", "/groups/import")
        return phone.answer("POST", "/groups/import", {
            "csrf_token": token_in(page), "name": name, "passphrase": "a good passphrase",
            "confirm": "a good passphrase", "device": "Mia's phone"}, {"backup": document})

    with Gunicorn(app, tmp_path) as server:
        for make in (create_group, import_group):
            raced = released_together([
                lambda n=n, make=make: make(f"{make.__name__} {n}") for n in range(9)])
            statuses = [answer.status for answer in raced]
            assert set(statuses) <= {302, 429}
            assert 1 <= statuses.count(302) <= NEW_GROUP_LIMIT
            refused = next(answer for answer in raced if answer.status == 429)
            assert int(refused.headers["Retry-After"]) > 0
            made = statuses.count(302)
            while made < NEW_GROUP_LIMIT:  # the refused ones were not counted
                assert make(f"{make.__name__} then {made}").status == 302
                made += 1
            assert make(f"{make.__name__} at last").status == 429
    with app.app_context():
        names = list(db.session.scalars(sa.select(Group.name)))
    assert sum(name.startswith("create_group") for name in names) == NEW_GROUP_LIMIT
    assert sum(name.startswith("import_group") for name in names) == NEW_GROUP_LIMIT
