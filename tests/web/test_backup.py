"""Backup: a group exported as JSON and CSV, and a JSON backup imported into a
new group, with every balance, standing and settlement kept (files refused:
test_backup_import.py)."""

import copy
import csv
import dataclasses
import io
import json
import re
from decimal import Decimal

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.backup import (
    csv_cell,
    decimal_text,
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
    signed_in_client,
    the_group,
)
from tests.web.backups import NEW_PASSPHRASE, picture, post_import
from tests.web.examples import CUSTOM, build_evenings
from tests.web.helpers import statements
from tests.web.probing import finished_count_problems, seat_total_problems

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
