"""The limit on passphrase guesses holds whatever serves the app: counted in
the database, it is shared by gunicorn's workers and outlives a restart, and
guesses racing in at once never get more than the limit checked."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import PassphraseGuess, utcnow
from scorekeeper.services import throttle
from tests.conftest import GROUP_NAME, PASSPHRASE, signed_in_client
from tests.web.helpers import csrf_token
from tests.web.phones import Gunicorn, Phone

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
    assert 1 <= len(checked) <= LIMIT.guesses
    with app.app_context():
        kept = db.session.scalar(sa.select(sa.func.count()).select_from(PassphraseGuess))
        assert kept == len(checked)  # the refused ones count for nothing


def test_a_right_passphrase_takes_its_guess_back_and_old_guesses_expire(app):
    with app.app_context():
        with throttle.guessing(LIMIT, "group:a") as guess:
            guess.was_right()
        old = utcnow() - LIMIT.window - timedelta(seconds=1)
        db.session.add_all(PassphraseGuess(key="group:a", at=old) for _ in range(20))
        db.session.commit()
        for _ in range(LIMIT.guesses):
            with throttle.guessing(LIMIT, "group:a"):
                pass
        with pytest.raises(throttle.TooManyGuesses) as refused, \
                throttle.guessing(LIMIT, "group:a"):
            pass
        assert 0 < refused.value.retry_after <= LIMIT.window.total_seconds() + 1
        assert db.session.scalar(sa.select(sa.func.count()).select_from(PassphraseGuess)) == 10


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
        assert answers.count(200) <= 10  # 200: checked, and wrong
        assert answers.count(429) >= 26
        assert set(answers) == {200, 429}
        assert Phone(server.port).try_sign_in()[0] == 429
    with Gunicorn(app, tmp_path) as restarted:  # the counts are still there
        assert Phone(restarted.port).try_sign_in()[0] == 429
