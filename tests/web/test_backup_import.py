"""Backup import refused: hostile or malformed files, a taken name, a form
without its token, a file over the limit, and where imports are off; nothing
is written. The round trip that works is in test_backup.py."""

import copy
import io
import json
import re

import pytest
import sqlalchemy as sa

from scorekeeper.backup import MAX_SESSIONS, BackupError, read_backup
from scorekeeper.extensions import db
from scorekeeper.models import Group
from tests.conftest import PASSPHRASE, fresh_app
from tests.web.backups import NEW_PASSPHRASE, picture, post_import
from tests.web.helpers import text
from tests.web.probing import row_counts


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
                  "Player 1's name has 5,000 characters; a name has at most 30."),
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
                          f'"sessions" has {MAX_SESSIONS + 1:,} items; a backup allows 0 to '
                          f'{MAX_SESSIONS:,}.'),
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
