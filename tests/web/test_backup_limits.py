"""Importing a backup, hardened: what one file may hold is bounded, so that the
largest one is checked and written in seconds (bench/imports.py measures it);
every time and every number is bounded, so that nothing imported breaks a page
or overflows a column; the write is a few bulk statements, all or nothing; and
the answer always says what was written."""

import copy
import io
import json
import re
import threading

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from bench import imports as bench
from scorekeeper import backup, services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Group, Round, RoundEntry
from tests.conftest import fresh_app, signed_in_client, the_group
from tests.web.backups import NEW_PASSPHRASE, post_import
from tests.web.examples import build_evenings
from tests.web.helpers import csrf_token, text
from tests.web.probing import row_counts

GROUP_TABLES = ("player_group", "player", "game_session", "seat", "round", "round_entry",
                "payment", "audit_event")


@pytest.fixture(scope="module")
def evenings(tmp_path_factory) -> dict:
    """The backup of build_evenings' evenings, made once: three sessions, their
    rounds (a deleted one restored), payments and history."""
    with fresh_app(tmp_path_factory.mktemp("limits"), TESTING=True) as app:
        build_evenings(app)
        with app.app_context():
            client = signed_in_client(app, the_group())
        return client.get("/group/export.json").get_json()


def group_rows(app) -> dict[str, int]:
    """The rows of the tables that hold groups' data."""
    return {name: count for name, count in row_counts(app).items() if name in GROUP_TABLES}


def error_of(response) -> str:
    """What the import page says is wrong with the file, or with the import."""
    page = text(response)
    found = re.search(r'<p class="error" id="backup-error">(.*?)</p>', page, re.DOTALL) or \
        re.search(r'<p class="sessions-alert" role="alert">(.*?)</p>', page, re.DOTALL)
    return found.group(1)


def body_of(document) -> bytes:
    return json.dumps(document).encode()


def post_large(client, body: bytes, name: str):
    """post_import for a file of megabytes, its request encoded in memory
    (werkzeug's test client would put it in a temporary file it never closes)."""
    boundary, data = encode_multipart({
        "csrf_token": csrf_token(client, "/groups/import"), "name": name,
        "passphrase": NEW_PASSPHRASE, "confirm": NEW_PASSPHRASE, "device": "Phone B",
        "backup": FileStorage(io.BytesIO(body), "backup.json", content_type="application/json")})
    return client.post("/groups/import", data=data,
                       content_type=f"multipart/form-data; boundary={boundary}")


# How large a file may be


def test_a_file_of_the_most_bytes_is_imported_and_one_byte_more_is_refused(
        app, anonymous, evenings):
    body = body_of(evenings)
    largest = body + b" " * (backup.MAX_BYTES - len(body))  # JSON may end in spaces
    assert app.config["MAX_CONTENT_LENGTH"] >= backup.MAX_BYTES + 10_000  # and the form
    assert post_large(anonymous, largest, name="Largest").status_code == 302

    phone = app.test_client()
    rows = group_rows(app)
    response = post_large(phone, largest + b" ", name="Too large")
    assert response.status_code == 422
    assert error_of(response) == ("The file is 8.01 MB, larger than a backup may be: an "
                                  "import takes files of up to 8 MB.")
    assert 'value="Too large"' in text(response)
    assert group_rows(app) == rows


def test_an_upload_over_the_request_limit_gets_the_import_page_saying_the_limit(app, anonymous):
    rows = group_rows(app)
    body = b" " * app.config["MAX_CONTENT_LENGTH"]
    response = post_large(anonymous, body, name="Far too large")
    assert response.status_code == 413
    page = text(response)
    assert "Nothing was imported: the file is larger than 8 MB, the most a backup may be." in page
    assert 'type="file"' in page and "of at most 8 MB and 4,000 rounds" in page
    assert group_rows(app) == rows


TOGETHER = "The backup has {n} {key} in all sessions together; an import takes at most {most}."
COUNTS = {
    "rounds": ("MAX_ALL_ROUNDS", TOGETHER),
    "seats": ("MAX_ALL_SEATS", TOGETHER),
    "payments": ("MAX_ALL_PAYMENTS", TOGETHER),
    "audit": ("MAX_EVENTS", 'The backup: "audit" has {n} items; a backup allows 0 to {most}.'),
}


@pytest.mark.parametrize("key", COUNTS)
def test_a_count_over_its_limit_is_refused_before_any_round_is_scored(
        app, anonymous, evenings, monkeypatch, key):
    limit, message = COUNTS[key]
    n = len(evenings["audit"]) if key == "audit" else sum(len(s[key]) for s in evenings["sessions"])
    monkeypatch.setattr(backup.check, limit, n - 1)

    def no_scoring(*args):
        raise AssertionError("a round was scored")

    monkeypatch.setattr(backup.check, "score_round", no_scoring)
    rows = group_rows(app)
    response = post_import(anonymous, body_of(evenings))
    assert response.status_code == 422
    assert error_of(response) == message.format(n=n, key=key, most=n - 1)
    assert group_rows(app) == rows


# The bench's largest backups, at limits made small


@pytest.fixture
def small_limits(monkeypatch):
    for name, value in {"MAX_BYTES": 150_000, "MAX_GROUP_PLAYERS": 12, "MAX_SESSIONS": 4,
                        "MAX_ALL_ROUNDS": 60, "MAX_ALL_SEATS": 28, "MAX_ALL_PAYMENTS": 20,
                        "MAX_EVENTS": 120}.items():
        monkeypatch.setattr(backup.check, name, value)


def imported_group(app, name: str) -> Group:
    return db.session.scalar(sa.select(Group).where(Group.name == name))


def test_the_benchs_real_backup_is_one_the_export_writes_again(app, anonymous, small_limits):
    body = bench.real_backup(rounds_per_session=12)
    document = json.loads(body)
    assert len(document["sessions"]) == 4 and len(body) <= 150_000
    assert sum(len(s["rounds"]) for s in document["sessions"]) > 30
    assert post_import(anonymous, body, name="Bench table").status_code == 302
    again = anonymous.get("/group/export.json").get_json()
    again["audit"] = [e for e in again["audit"] if e["action"] != "group.import"]
    for doc in (document, again):
        del doc["exported_at"]
    assert again == document


def test_the_benchs_dense_backup_holds_every_count_at_its_limit(app, anonymous, small_limits):
    body = bench.dense_backup()
    assert 145_000 < len(body) <= 150_000
    assert post_import(anonymous, body, name="Dense").status_code == 302
    with app.app_context():
        group = imported_group(app, "Dense")
        sessions = db.session.scalars(
            sa.select(GameSession).where(GameSession.group_id == group.id)).all()
        assert len(sessions) == 4
        assert sum(len(s.seats) for s in sessions) == 28
        assert sum(len(s.payments) for s in sessions) == 20
        assert sum(len(s.rounds) for s in sessions) == 60
        assert db.session.scalar(sa.select(sa.func.count()).select_from(RoundEntry).join(Round)
                                 .join(GameSession).where(GameSession.group_id == group.id)) \
            == 360
        assert db.session.scalar(sa.select(sa.func.count()).select_from(AuditEvent).where(
            AuditEvent.group_id == group.id)) == 120 + 1  # and group.import


# Times


FAR_TIMES = ["0001-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "2100-01-01T00:00:00Z",
             "9999-12-31T23:59:59Z"]
TIMES = {
    "exported": (["exported_at"], 'The backup: "exported_at"'),
    "player added": (["players", 1, "created_at"], 'Player 2: "created_at"'),
    "session started": (["sessions", 1, "started_at"], 'Session 2: "started_at"'),
    "session ended": (["sessions", 0, "ended_at"], 'Session 1: "ended_at"'),
    "round": (["sessions", 2, "rounds", 1, "created_at"], 'Session 3, round 2: "created_at"'),
    "payment": (["sessions", 0, "payments", 0, "paid_at"], 'Session 1, payment 1: "paid_at"'),
    "audit event": (["audit", 3, "at"], 'Audit event 4: "at"'),
}


def changed(document: dict, path: list, value) -> dict:
    document = copy.deepcopy(document)
    *parents, last = path
    target = document
    for key in parents:
        target = target[key]
    target[last] = value
    return document


@pytest.mark.parametrize("moment", FAR_TIMES)
@pytest.mark.parametrize("what", TIMES)
def test_a_time_outside_2000_to_2099_is_refused_saying_where(
        app, anonymous, evenings, what, moment):
    """0001-01-01 in New York, or 9999-12-31 in Kiritimati, is no date there:
    imported, it made the group's home, history and CSV answer 500."""
    path, where = TIMES[what]
    zone = "America/New_York" if moment < "2000" else "Pacific/Kiritimati"
    document = changed(changed(evenings, path, moment), ["group", "timezone"], zone)
    rows = group_rows(app)
    response = post_import(anonymous, body_of(document))
    assert response.status_code == 422
    assert error_of(response) == (f"{where} is '{moment}', which is not in the years 2000 to "
                                  "2099 (UTC), as every time of a Scorekeeper backup is.")
    assert group_rows(app) == rows


@pytest.mark.parametrize("zone, moment", [("Etc/GMT+12", "2000-01-01T00:00:00Z"),
                                          ("Pacific/Kiritimati", "2099-12-31T23:59:59Z")])
def test_times_at_the_ends_of_the_range_show_in_the_farthest_time_zones(
        app, anonymous, evenings, zone, moment):
    document = changed(evenings, ["group", "timezone"], zone)
    session = document["sessions"][0]
    session["started_at"] = session["ended_at"] = moment
    for round_ in session["rounds"]:
        round_["created_at"] = moment
    for payment in session["payments"]:
        payment["paid_at"] = moment
    document["exported_at"] = document["players"][0]["created_at"] = moment
    assert post_import(anonymous, body_of(document)).status_code == 302
    with app.app_context():
        session_id = db.session.scalar(sa.select(sa.func.min(GameSession.id)).join(Group).where(
            Group.name == "Back again"))
    for url in ("/", "/history", "/group/export.csv", "/group/export.json",
                f"/sessions/{session_id}", f"/sessions/{session_id}/changes",
                f"/sessions/{session_id}/export.csv"):
        assert anonymous.get(url).status_code == 200, url


# Numbers


HUGE = 2 ** 63  # one more than a 64-bit column holds
NUMBERS = {
    "a session's version": (["sessions", 0, "version"], '"sessions" item 1, "version"'),
    "a seat's position": (["sessions", 1, "seats", 2, "position"],
                          '"sessions" item 2, "seats" item 3, "position"'),
    "a round's number": (["sessions", 0, "rounds", 0, "number"],
                         '"sessions" item 1, "rounds" item 1, "number"'),
    "an entry's turn": (["sessions", 0, "rounds", 0, "entries", 1, "turn"],
                        '"sessions" item 1, "rounds" item 1, "entries" item 2, "turn"'),
    "a payment": (["sessions", 0, "payments", 0, "cents"],
                  '"sessions" item 1, "payments" item 1, "cents"'),
    "a house rule": (["sessions", 1, "house_rules", "unit_cents"],
                     '"sessions" item 2, "house_rules", "unit_cents"'),
    "a tier": (["sessions", 1, "house_rules", "tiers", 1],
               '"sessions" item 2, "house_rules", "tiers" item 2'),
    "an event's version": (["audit", 5, "version"], '"audit" item 6, "version"'),
    "an event's free object": (["audit", 5, "after"], '"audit" item 6, "after", "x"'),
    "a snapshot's money": (["audit", -1, "after", "entries", 0, "net_cents"], None),
}


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("what", NUMBERS)
def test_a_number_too_large_for_a_column_is_refused_saying_where(
        app, anonymous, evenings, what, sign):
    path, where = NUMBERS[what]
    value = {"x": sign * HUGE} if what == "an event's free object" else sign * HUGE
    document = copy.deepcopy(evenings)
    if what == "a snapshot's money":
        index = max(i for i, e in enumerate(document["audit"]) if e["action"] == "round.add")
        path = ["audit", index, "after", "entries", 0, "net_cents"]
        where = f'"audit" item {index + 1}, "after", "entries" item 1, "net_cents"'
    document = changed(document, path, value)
    rows = group_rows(app)
    response = post_import(anonymous, body_of(document))
    assert response.status_code == 422
    assert error_of(response) == (
        f"The file holds the number {sign * HUGE} at {where}, larger than any in a Scorekeeper "
        "backup: its numbers are at most 9,007,199,254,740,991 in size.")
    assert group_rows(app) == rows


@pytest.mark.parametrize("sign", [1, -1])
def test_an_amount_in_a_payload_over_what_a_column_takes_is_refused_with_its_range(
        app, anonymous, evenings, sign):
    """Within INT_MAX, so the reader takes it, but not within CENTS_MAX."""
    index = next(i for i, e in enumerate(evenings["audit"]) if e["action"] == "payment.paid")
    document = changed(evenings, ["audit", index, "after", "cents"], sign * 2_000_000_000)
    rows = group_rows(app)
    response = post_import(anonymous, body_of(document))
    assert response.status_code == 422
    assert error_of(response) == (
        f'Audit event {index + 1}\'s "after": "cents" must be a whole number from '
        f"-1,000,000,000 to 1,000,000,000, not {sign * 2_000_000_000}.")
    assert group_rows(app) == rows


@pytest.mark.parametrize("number", ["1.5", "1e400", "-0.0", "3E2"])
def test_a_number_with_a_fraction_is_refused_wherever_it_is(
        app, anonymous, evenings, number):
    """A float in the history's free objects was stored; 1e400 there became
    "Infinity", which PostgreSQL's json refuses: a 500."""
    document = changed(evenings, ["audit", 2, "after"], {"odds": "PLACEHOLDER"})
    body = body_of(document).replace(b'"PLACEHOLDER"', number.encode())
    rows = group_rows(app)
    response = post_import(anonymous, body)
    assert response.status_code == 422
    assert error_of(response) == (
        f'The file holds the number {number} at "audit" item 3, "after", "odds", but every '
        "number in a Scorekeeper backup is whole (money is in cents).")
    assert group_rows(app) == rows


# The write: few statements, all or nothing


@pytest.fixture
def writes(app):
    """The statements of each write transaction: from the first INSERT or
    UPDATE of a connection to its COMMIT."""
    transactions: list[list[str]] = []
    open_ = {}

    def before(conn, cursor, statement, parameters, context, executemany):
        verb = statement.lstrip()[:6].upper()
        if id(conn) not in open_ and verb in ("INSERT", "UPDATE", "DELETE"):
            open_[id(conn)] = []
        if id(conn) in open_:
            open_[id(conn)].append(statement)

    def commit(conn):
        if id(conn) in open_:
            transactions.append(open_.pop(id(conn)))

    def rollback(conn):
        open_.pop(id(conn), None)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "commit", commit)
    event.listen(engine, "rollback", rollback)
    yield transactions
    event.remove(engine, "before_cursor_execute", before)
    event.remove(engine, "commit", commit)
    event.remove(engine, "rollback", rollback)


def import_transaction(transactions: list[list[str]]) -> list[str]:
    return next(t for t in transactions if any("INSERT INTO player_group" in s for s in t))


def test_an_import_writes_in_a_few_statements_whatever_its_size(
        app, anonymous, evenings, writes):
    """Row by row, a large import held SQLite's write lock for tens of
    seconds, and another group's rounds could not be saved meanwhile."""
    assert post_import(anonymous, body_of(evenings), name="Small").status_code == 302
    small = import_transaction(writes)
    writes.clear()
    larger = copy.deepcopy(evenings)
    larger["sessions"] *= 6  # 18 sessions, 54 rounds
    larger["players"] += [{"name": f"Extra {n}", "created_at": larger["exported_at"]}
                          for n in range(30)]
    larger["audit"] += [{"at": larger["exported_at"], "device": "Old phone", "action": "x.y",
                         "subject": f"{n}"} for n in range(200)]
    assert post_import(app.test_client(), body_of(larger), name="Larger").status_code == 302
    large = import_transaction(writes)
    assert len(large) == len(small) <= 20


def test_an_import_that_fails_while_writing_writes_nothing_and_says_so(
        app, anonymous, evenings, monkeypatch):
    def locked(*where):
        raise sa.exc.OperationalError("UPDATE seat …", {}, Exception("database is locked"))

    monkeypatch.setattr(services.bulk, "total_seats_in_bulk", locked)
    rows = group_rows(app)
    response = post_import(anonymous, body_of(evenings))
    assert response.status_code == 503
    assert "nothing was shown or saved" in text(response)
    assert group_rows(app) == rows


def test_an_import_whose_phone_cannot_be_signed_in_says_the_group_is_there(
        app, anonymous, evenings, monkeypatch):
    def busy(group, device):
        raise sa.exc.OperationalError("INSERT INTO sign_in …", {},
                                      Exception("database is locked"))

    monkeypatch.setattr("scorekeeper.web.backup.sign_in", busy)
    response = post_import(anonymous, body_of(evenings), name="Imported anyway")
    assert response.status_code == 503
    page = text(response)
    assert "The backup is imported: Imported anyway holds everything it had." in page
    assert 'href="/sign-in"' in page
    with app.app_context():
        assert services.find_group("Imported anyway") is not None


def test_three_imports_at_once_each_make_a_whole_group(app, evenings):
    body = body_of(evenings)
    phones = [app.test_client() for _ in range(3)]
    forms = []
    for n, phone in enumerate(phones):
        forms.append({"csrf_token": csrf_token(phone, "/groups/import"), "name": f"Table {n}",
                      "passphrase": NEW_PASSPHRASE, "confirm": NEW_PASSPHRASE,
                      "device": f"Phone {n}"})
    answers = [None] * 3
    start = threading.Barrier(3)

    def run(n):
        start.wait()
        answers[n] = phones[n].post("/groups/import", data={
            **forms[n], "backup": (io.BytesIO(body), "backup.json")},
            content_type="multipart/form-data").status_code

    threads = [threading.Thread(target=run, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [302, 302, 302]
    rounds = sum(len(s["rounds"]) for s in evenings["sessions"])
    with app.app_context():
        for n in range(3):
            group = imported_group(app, f"Table {n}")
            assert db.session.scalar(sa.select(sa.func.count()).select_from(Round).join(
                GameSession).where(GameSession.group_id == group.id)) == rounds
