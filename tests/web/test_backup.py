"""Backup: a group exported as JSON and CSV, and a JSON backup imported into a
new group, with every balance, standing and settlement kept, and hostile files
refused with nothing written."""

import copy
import csv
import dataclasses
import io
import json
import re
from decimal import Decimal

import pytest
import sqlalchemy as sa

from scorekeeper import queries, services
from scorekeeper.backup import (
    MAX_SESSIONS,
    BackupError,
    csv_cell,
    decimal_text,
    read_backup,
)
from scorekeeper.extensions import db
from scorekeeper.limits import DEFAULT_TIMEZONE
from scorekeeper.models import (
    AuditEvent,
    GameSession,
    Group,
    Player,
    utcnow,
    wall_clock,
)
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.backup import slug
from tests.conftest import (
    PASSPHRASE,
    fresh_app,
    signed_in_client,
    the_group,
)
from tests.web.examples import CUSTOM, build_evenings
from tests.web.helpers import NEW_PASSPHRASE, post_import, statements, text
from tests.web.probing import finished_count_problems, row_counts, seat_total_problems


def picture(app, group_name: str) -> list[dict]:
    """Everything a table sees of each session, players by name."""
    with app.app_context():
        group = services.find_group(group_name)
        sessions = db.session.scalars(sa.select(GameSession).where(
            GameSession.group_id == group.id).order_by(GameSession.started_at, GameSession.id))
        result = []
        for s in sessions:
            names = {seat.player_id: seat.player.name for seat in s.seats}
            coming = None if s.is_finished else queries.upcoming(s)
            result.append({
                "ended": s.is_finished, "currency": s.currency, "rules": s.rules,
                "seats": [(seat.player.name, seat.position, seat.active) for seat in s.seats],
                "balances": {names[pid]: cents for pid, cents in services.balances(s).items()},
                "rounds": [(r.number, r.dealer.name, [
                    (e.player.name, e.seat, e.turn, e.outcome, e.cards, e.points, e.position,
                     e.tier_cents, e.hu_cents, e.joker_ace_cents, e.net_cents)
                    for e in r.entries]) for r in s.rounds],
                "settlement": [(x.transfer.payer.name, x.transfer.payee.name, x.transfer.cents,
                                x.paid) for x in services.settlement(s)],
                "next": coming and (coming.number, coming.dealer.name,
                                    [p.name for p in coming.order]),
                "restored": len(services.restored_deletions(s)),
            })
        return result


@pytest.fixture
def evenings(app):
    build_evenings(app)


@pytest.fixture
def exported(client, evenings) -> dict:
    return client.get("/group/export.json").get_json()


@pytest.fixture(scope="module")
def backup_document(tmp_path_factory) -> dict:
    """The evenings' backup, made once for the many tests that only spoil it."""
    with fresh_app(tmp_path_factory.mktemp("backup"), TESTING=True) as app:
        build_evenings(app)
        with app.app_context():
            client = signed_in_client(app, the_group())
        return client.get("/group/export.json").get_json()


# Export


def test_the_json_export_is_a_download_of_everything(client, evenings):
    response = client.get("/group/export.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    today = wall_clock(utcnow(), DEFAULT_TIMEZONE).date().isoformat()
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="friday-table-{today}.json"'
    assert "no-store" in response.headers["Cache-Control"]
    document = response.get_json()
    assert (document["format"], document["version"]) == ("scorekeeper-group", 1)
    assert document["group"] == {"name": "Friday table", "timezone": "Asia/Kuala_Lumpur"}
    assert "passphrase_hash" not in response.text and "pbkdf2:" not in response.text \
        and "scrypt:" not in response.text and "$argon2" not in response.text
    assert [p["name"] for p in document["players"]] == \
        ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    one, two, three = document["sessions"]
    assert one["ended_at"] and two["ended_at"] is None
    assert HouseRules(**one["house_rules"]) == HouseRules.rummi()
    assert two["house_rules"] == dataclasses.asdict(CUSTOM) | {"tiers": [0, 2, 5]}
    assert two["currency"] == "S$" and two["first_dealer"] == "Eve"
    assert {"player": "Fay", "position": 3, "active": False} in two["seats"]
    assert [r["number"] for r in one["rounds"]] == [1, 2, 3]
    assert one["payments"][0]["cents"] > 0 and len(three["payments"]) == 1
    entry = one["rounds"][0]["entries"][0]
    assert set(entry) == {"player", "seat", "turn", "outcome", "cards", "points", "position",
                          "tier_cents", "hu_cents", "joker_ace_cents", "net_cents"}
    actions = [e["action"] for e in document["audit"]]
    assert actions.count("round.delete") == 2 and "round.restore" in actions
    restore = next(e for e in document["audit"] if e["action"] == "round.restore")
    deleted = document["audit"][restore["after"]["restores"]]
    assert deleted["action"] == "round.delete" and deleted["session"] == restore["session"] == 1
    assert {e["device"] for e in document["audit"]} >= {"Phone A"}


def test_the_json_export_reads_a_fixed_number_of_statements(app, client):
    with app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         ["Ann", "Bob"], HouseRules.penang())
        services.record_round(services.Change.to(session),
                              {"Ann": Entry("hu"), "Bob": Entry("dead", "9D")})
    with statements(app) as few:
        client.get("/group/export.json")
    build_evenings(app)
    with statements(app) as many:
        client.get("/group/export.json")
    assert len(many) == len(few) <= 10


def test_another_groups_export_holds_none_of_ours(app, evenings):
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        services.start_session(services.Change(other), ["Zed", "Yan"], HouseRules.penang())
        stranger = signed_in_client(app, other)
    text = stranger.get("/group/export.json").text
    document = json.loads(text)
    assert [p["name"] for p in document["players"]] == ["Zed", "Yan"]
    assert len(document["sessions"]) == 1
    assert "Ann" not in text and "Friday" not in text


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))


def test_the_csv_has_a_row_per_round_and_player_with_exact_money(client, evenings):
    response = client.get("/group/export.csv")
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="friday-table-')
    header, *rows = csv_rows(response)
    assert header == ["session_id", "session_date", "currency", "round", "dealer", "player",
                      "seat", "turn", "outcome", "cards", "points", "position", "tier", "hu",
                      "joker_ace", "net"]
    assert len(rows) == 3 * 4 + 4 * 4 + 2 * 2
    for row in rows:
        assert re.fullmatch(r"-?\d+\.\d\d", row[-1])
        parts = [Decimal(x) for x in row[12:15]]
        assert sum(parts) == Decimal(row[15])
    by_round = {}
    for row in rows:
        by_round.setdefault((row[0], row[3]), []).append(Decimal(row[15]))
    assert all(sum(nets) == 0 for nets in by_round.values())
    tien_hu = next(r for r in rows if r[8] == "tien_hu")
    assert tien_hu[2] == "S$" and tien_hu[9] == "AS 2S 3S 4H 4D 4C JK"


def test_a_sessions_csv_holds_that_session_only(app, client, evenings):
    with app.app_context():
        ids = [s.id for s in db.session.scalars(sa.select(GameSession).order_by(GameSession.id))]
    response = client.get(f"/sessions/{ids[2]}/export.csv")
    assert response.status_code == 200
    assert f"-session-{ids[2]}-" in response.headers["Content-Disposition"]
    _header, *rows = csv_rows(response)
    assert len(rows) == 4 and {r[0] for r in rows} == {str(ids[2])}
    # per point at 0.05: Ann left 10 points, Bob 5; then Ann's Hu at 3.00
    nets = {(r[3], r[5]): r[15] for r in rows}
    assert nets == {("1", "Ann"): "-0.25", ("1", "Bob"): "0.25",
                    ("2", "Ann"): "3.00", ("2", "Bob"): "-3.00"}


def test_csv_text_that_a_spreadsheet_would_run_is_escaped(app, client):
    with app.app_context():
        session = services.start_session(services.Change(the_group()), ["=1+2", "@x", "Bo"],
                                         HouseRules.penang(), first_dealer="Bo",
                                         currency="-RM")
        services.record_round(services.Change.to(session),
                              {"=1+2": Entry("dead", "KS QH"), "@x": Entry("hu"),
                               "Bo": Entry("dead", "2C")})
    _header, *rows = csv_rows(client.get("/group/export.csv"))
    players = {row[5]: row for row in rows}
    assert set(players) == {"'=1+2", "'@x", "Bo"}
    assert {row[2] for row in rows} == {"'-RM"}
    assert players["'=1+2"][15] == "-3.00"  # our own numbers: not escaped
    assert players["'@x"][15] == "6.00"
    assert csv_cell("\tx") == "'\tx" and csv_cell("\rx") == "'\rx" and csv_cell("+1") == "'+1"
    assert csv_cell("Ann") == "Ann" and csv_cell("") == ""


def test_a_file_name_is_the_group_name_in_plain_letters():
    assert slug("Friday table") == "friday-table"
    assert slug("Café Öl — No. 2!") == "cafe-ol-no-2"
    assert slug("麻将") == "group"


def test_money_is_written_exactly_from_cents():
    assert [decimal_text(c) for c in (-150, -5, 0, 7, 123456)] == \
        ["-1.50", "-0.05", "0.00", "0.07", "1234.56"]


# Import: the round trip


def test_an_imported_backup_has_identical_balances_standings_and_settlements(
        app, anonymous, exported):
    before = picture(app, "Friday table")
    assert any(paid for s in before for *_, paid in s["settlement"])
    assert before[1]["restored"] == 1 and before[1]["next"] is not None

    response = post_import(anonymous, json.dumps(exported).encode(), name="Back again")
    assert response.status_code == 302 and response.location == "/"

    assert picture(app, "Back again") == before
    with app.app_context():
        group = services.group_for_sign_in("Back again", NEW_PASSPHRASE)
        assert group is not None
        imported = db.session.scalars(sa.select(AuditEvent).where(
            AuditEvent.group_id == group.id, AuditEvent.action == "group.import")).one()
        assert imported.device == "Phone B" and imported.after["from"] == "Friday table"
        assert seat_total_problems() == []
        assert finished_count_problems() == []
        session_ids = db.session.scalars(sa.select(GameSession.id).where(
            GameSession.group_id == group.id)).all()
    # the phone is signed in to the new group, and its export is the same backup
    again = anonymous.get("/group/export.json").get_json()
    assert again["group"] == {"name": "Back again", "timezone": "Asia/Kuala_Lumpur"}
    again["audit"] = [e for e in again["audit"] if e["action"] != "group.import"]
    for document in (exported, again):
        del document["group"], document["exported_at"]
    assert again == exported
    for session_id in session_ids:
        for page in ("", "/settle", "/changes"):
            assert anonymous.get(f"/sessions/{session_id}{page}").status_code == 200


def test_money_in_the_file_is_never_trusted(app, anonymous, exported):
    before = picture(app, "Friday table")
    tampered = copy.deepcopy(exported)
    for entry in tampered["sessions"][0]["rounds"][0]["entries"]:
        entry.update(points=0, position=1, tier_cents=99_999, hu_cents=0, net_cents=99_999)
    assert post_import(anonymous, json.dumps(tampered).encode()).status_code == 302
    assert picture(app, "Back again") == before


def test_a_restored_round_of_an_import_points_at_the_imported_deletion(app, anonymous, exported):
    post_import(anonymous, json.dumps(exported).encode())
    with app.app_context():
        group = services.find_group("Back again")
        restore = db.session.scalars(sa.select(AuditEvent).where(
            AuditEvent.group_id == group.id, AuditEvent.action == "round.restore")).one()
        deletion = db.session.get(AuditEvent, restore.after["restores"])
        assert deletion.action == "round.delete" and deletion.group_id == group.id
        assert deletion.session_id == restore.session_id


def test_a_round_can_be_added_to_an_imported_open_session(app, anonymous, exported):
    post_import(anonymous, json.dumps(exported).encode())
    with app.app_context():
        group = services.find_group("Back again")
        session = db.session.scalars(sa.select(GameSession).where(
            GameSession.group_id == group.id, GameSession.ended_at.is_(None))).one()
        assert services.record_round(services.Change.to(session, seen=session.version), {
            "Ann": Entry("dead", "3C"), "Eve": Entry("dead", "8H"), "Gus": Entry("hu"),
            "Hal": Entry("dead", "QD")}) == 5


# Import: refused


def _set(path, value):
    def change(document):
        *parents, last = path
        target = document
        for key in parents:
            target = target[key]
        target[last] = value
        return json.dumps(document).encode()
    return change


def _entry_of(document, name):
    entries = document["sessions"][0]["rounds"][0]["entries"]
    return next(e for e in entries if e["player"] == name)


def _bad_cards(document):
    _entry_of(document, "Ann")["cards"] = "ZZ"
    return json.dumps(document).encode()


def _two_winners(document):
    for name in ("Ann", "Bob"):
        _entry_of(document, name).update(outcome="hu", cards="")
    return json.dumps(document).encode()


def _unknown_rule(document):
    document["sessions"][0]["house_rules"]["bonus"] = 5
    return json.dumps(document).encode()


def _huge_money(document):
    document["sessions"][0]["house_rules"].update(unit_cents=10_000_000, tiers=[0, 100, 100, 100])
    return json.dumps(document).encode()


def _missing(document):
    del document["sessions"][1]["currency"]
    return json.dumps(document).encode()


def _twin_names(document):
    document["players"][1]["name"] = "ann"
    return json.dumps(document).encode()


def _deep_audit(document):
    document["audit"][0]["after"] = {"x": json.loads("[" * 50 + "]" * 50)}
    return json.dumps(document).encode()


def _bad_restore(document):
    restore = next(e for e in document["audit"] if e["action"] == "round.restore")
    restore["after"]["restores"] = 0
    return json.dumps(document).encode()


def _text_version(document):
    return json.dumps(document).replace('"version": 1,', '"version": 1e400,', 1).encode()


def _raw(body):
    return lambda document: body


HOSTILE = {
    "not JSON": (_raw(b"name,score\nAnn,3\n"), "The file is not JSON"),
    "binary junk": (_raw(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8), "not UTF-8 text"),
    "empty": (_raw(b"   "), "The file is empty."),
    "a list": (_raw(b"[1, 2, 3]"), "This is not a Scorekeeper group backup"),
    "wrong version": (_set(["version"], 2), "This backup is of version 2"),
    "version not a number": (_text_version, 'The file holds the number 1e400 at "version", '
                             "but every number in a Scorekeeper backup is whole"),
    "invalid cards": (_bad_cards, "Session 1, round 1: Ann's cards: 'ZZ' is not a card."),
    "rules refuse": (_two_winners, "Session 1, round 1: Only one player can win a round"),
    "unknown house rule": (_unknown_rule, "Session 1's house rules: 'bonus' is not a house rule."),
    "house rule refused": (_set(["sessions", 0, "house_rules", "passport"], "both"),
                           "Session 1's house rules: passport must be one of"),
    "house rule out of range": (_set(["sessions", 0, "house_rules", "packs"], 99),
                                '"packs" must be a whole number from 1 to 4, not 99.'),
    "money out of range": (_huge_money, "Session 1, round 1: Cat's money is out of range."),
    "deep nesting": (_raw(b"[" * 10_000 + b"]" * 10_000), "nests lists or objects far too"),
    "nesting past the limit": (_deep_audit, "nests lists or objects more than 20 deep"),
    "long name": (_set(["players", 0, "name"], "A" * 5000),
                  "Player 1's name has 5000 characters; a name has at most 30."),
    "twin names": (_twin_names, "Player 2's name, ann, is already the name of player 1."),
    "unknown player": (_set(["sessions", 0, "seats", 0, "player"], "Zed"),
                       "Session 1, seat 1: \"player\" is 'Zed', who is not one of the group's"),
    "missing field": (_missing, 'Session 2: "currency" is missing.'),
    "wrong type": (_set(["sessions", 0, "rounds"], {}), '"rounds" must be a list, not an object'),
    "wrong-typed money": (_set(["sessions", 0, "payments", 0, "cents"], "1.50"),
                          "Session 1, payment 1: \"cents\" must be a whole number"),
    "misnumbered round": (_set(["sessions", 0, "rounds", 1, "number"], 7),
                          "Session 1, round 2 is numbered 7"),
    "too many sessions": (_set(["sessions"], [{}] * (MAX_SESSIONS + 1)),
                          f'"sessions" has {MAX_SESSIONS + 1} items; a backup allows 0 to '
                          f'{MAX_SESSIONS}.'),
    "bad restore": (_bad_restore, "which is not a round deleted from the same session"),
    "NaN": (_raw(b'{"format": "scorekeeper-group", "version": NaN}'), "NaN is not a number"),
    "twin keys": (_raw(b'{"format": "scorekeeper-group", "format": 1}'), "appears twice"),
    "long number": (_raw(b'{"version": 1' + b"0" * 40 + b"}"),
                    "The file holds the number 10000000000000000000000…, larger than any"),
    "NUL": (_set(["players", 0, "name"], "Ann\x00"), "NUL character"),
    "lone surrogate": (_set(["players", 0, "name"], "\ud800"), "surrogate"),
}


@pytest.mark.parametrize("make, message", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_or_malformed_file_is_refused_and_nothing_is_written(
        app, group, anonymous, backup_document, make, message):
    counts = row_counts(app)
    response = post_import(anonymous, make(copy.deepcopy(backup_document)), name="Kept name")
    assert response.status_code == 422
    page = text(response)
    error = re.search(r'<p class="error" id="backup-error">(.*?)</p>', page, re.S).group(1)
    assert message in error
    assert 'value="Kept name"' in page and 'value="Phone B"' in page
    assert "Nothing was imported" in page
    assert row_counts(app) == counts
    assert anonymous.get("/group/export.json").status_code == 302  # not signed in


def test_a_name_typed_as_half_a_surrogate_pair_is_never_stored_as_one(
        app, group, anonymous, backup_document):
    """The import form's name as the bytes of U+D800 in UTF-8, which no text
    holds (PostgreSQL refuses it): read as U+FFFD, as every form field is."""
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"',
                      anonymous.get("/groups/import").text).group(1)
    fields = {"csrf_token": token.encode(), "name": b"Back \xed\xa0\x80 again",
              "passphrase": NEW_PASSPHRASE.encode(), "confirm": NEW_PASSPHRASE.encode(),
              "device": b"Phone \xed\xa0\x80"}
    body = b"".join(b'--X\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n'
                    % (name.encode(), value) for name, value in fields.items())
    body += (b'--X\r\nContent-Disposition: form-data; name="backup"; filename="b.json"\r\n'
             b"Content-Type: application/json\r\n\r\n"
             + json.dumps(backup_document).encode() + b"\r\n--X--\r\n")
    response = anonymous.post("/groups/import", data=body,
                              content_type="multipart/form-data; boundary=X")
    assert response.status_code == 302
    with app.app_context():
        names = set(db.session.scalars(sa.select(Group.name)))
    assert any(name.startswith("Back \ufffd") for name in names)


def test_a_file_that_takes_too_long_to_check_is_refused(app, exported):
    with pytest.raises(BackupError, match="takes too long"):
        read_backup(json.dumps(exported).encode(), seconds=-1)


@pytest.mark.parametrize("passphrase", [PASSPHRASE, NEW_PASSPHRASE])
def test_a_taken_name_is_refused_whatever_the_passphrase(app, anonymous, exported, passphrase):
    counts = row_counts(app)
    response = post_import(anonymous, json.dumps(exported).encode(), name="friday TABLE",
                           passphrase=passphrase, confirm=passphrase)
    assert response.status_code == 422
    alert = re.search(r'<p class="sessions-alert" role="alert">(.*?)</p>',
                      text(response)).group(1)
    assert "Nothing was imported: There is a group called friday TABLE already" in alert
    assert row_counts(app) == counts


def test_the_form_is_checked_before_the_file(app, anonymous, exported):
    counts = row_counts(app)
    response = post_import(anonymous, b"junk", confirm="something else", device="",
                           backup=(io.BytesIO(b""), ""))
    assert response.status_code == 422
    page = text(response)
    assert "The two passphrases differ." in page and "Name this phone" in page
    assert "Choose the backup file" in page
    assert row_counts(app) == counts


def test_an_import_without_csrf_token_is_refused(app, anonymous, exported):
    counts = row_counts(app)
    response = anonymous.post("/groups/import", data={
        "name": "Sneaky", "passphrase": NEW_PASSPHRASE, "confirm": NEW_PASSPHRASE,
        "device": "x", "backup": (io.BytesIO(json.dumps(exported).encode()), "b.json")},
        content_type="multipart/form-data")
    assert response.status_code == 400
    assert row_counts(app) == counts


def test_a_file_over_the_size_limit_gets_the_413_page(app, anonymous, exported):
    app.config["MAX_CONTENT_LENGTH"] = 10_000
    body = json.dumps(exported).encode()
    assert len(body) > 10_000
    assert post_import(anonymous, body).status_code == 413


def test_the_import_page(anonymous):
    response = anonymous.get("/groups/import")
    assert response.status_code == 200
    page = text(response)
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page
    for label in ("Backup file", "Group name", "Passphrase", "Passphrase again",
                  "This phone's name"):
        assert f">{label}</label>" in page


def test_one_group_mode_imports_into_its_group_once(tmp_path, backup_document):
    with fresh_app(tmp_path, TESTING=True, SINGLE_GROUP="Our table") as app:
        phone = app.test_client()
        page = phone.get("/groups/import").text
        assert "<strong>Our table</strong>" in page and 'name="name"' not in page
        response = post_import(phone, json.dumps(backup_document).encode(), name="Ignored")
        assert response.status_code == 302
        assert len(picture(app, "Our table")) == 3
        assert phone.get("/groups/import").status_code == 404


def test_no_import_where_the_instance_takes_no_new_groups(tmp_path):
    with fresh_app(tmp_path, TESTING=True, NEW_GROUPS=False) as app:
        assert app.test_client().get("/groups/import").status_code == 404


# Access


@pytest.mark.parametrize("url", ["/group/export.json", "/group/export.csv",
                                 "/sessions/1/export.csv"])
def test_a_signed_out_phone_is_sent_to_sign_in(anonymous, url):
    response = anonymous.get(url)
    assert response.status_code == 302
    assert response.location.startswith("/sign-in?next=")


def test_another_groups_session_csv_is_not_found(app, client, evenings):
    with app.app_context():
        session_id = db.session.scalar(sa.select(sa.func.min(GameSession.id)))
        stranger = signed_in_client(
            app, services.create_group("Other table", "another passphrase"))
    assert client.get(f"/sessions/{session_id}/export.csv").status_code == 200
    assert stranger.get(f"/sessions/{session_id}/export.csv").status_code == 404
    assert client.get("/sessions/99999/export.csv").status_code == 404


def test_players_of_a_backup_become_the_new_groups_own(app, anonymous, exported):
    post_import(anonymous, json.dumps(exported).encode())
    with app.app_context():
        new = services.find_group("Back again")
        old = services.find_group("Friday table")
        for group in (new, old):
            names = db.session.scalars(sa.select(Player.name).where(
                Player.group_id == group.id).order_by(Player.id)).all()
            assert names == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
        assert db.session.scalar(sa.select(sa.func.count(Group.id))) == 2
