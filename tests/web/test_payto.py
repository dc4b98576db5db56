"""Paying by QR through the test client: a player's payment details set on
their page (checked, shown back, audited), the codes on settle up for the
right phone, the pictures behind the sign-in, and the details kept out of
share pages, the CSV and the logs."""

import io
import json
import logging
import re

import pytest
import zxingcpp
from PIL import Image
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import payto
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, Group, Player
from scorekeeper.payto.images import qr_png
from tests.web.backups import post_import
from tests.web.examples import NO_HU, make_session, player_id
from tests.web.helpers import csrf_token, make_link, parsed, text, visible_text

# PayNet's own worked example of a person-to-person DuitNow QR (docs v1.5,
# "Example 2"): a bank's "receive money" code, static, with no amount.
BANK_QR = ("00020201021126410014A000000615000101065016640209123456789"
           "52040000530345854051 0.005802MY5909AUSERNAME6005BANGI63043A23").replace(" ", "")


def set_details(client, player, kind, number="", qr_text="", photo=None):
    page = f"/players/{player}/payment"
    data = {"csrf_token": csrf_token(client, page), "kind": kind, "number": number,
            "qr_text": qr_text}
    if photo is not None:
        data["photo"] = (io.BytesIO(photo), "qr.jpg")
    return client.post(page, data=data, content_type="multipart/form-data")


def say_whose(client, sid, player):
    board = f"/sessions/{sid}"
    client.post(f"{board}/phone", data={"csrf_token": csrf_token(client, board),
                                        "player": str(player)})


def decoded(png: bytes) -> str:
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(found) == 1
    return found[0].text


def test_details_are_set_checked_shown_back_and_audited(app, client):
    make_session(app, rounds=[NO_HU])
    cat = player_id(app, "Cat")
    response = set_details(client, cat, "duitnow_mobile", number="012-3456 78x")
    assert response.status_code == 422
    page = parsed(response)
    assert "A Malaysian mobile number is 01 and 8 or 9 more digits" in text(response)
    assert page.select("input#number")[0].attrs["value"] == "012-3456 78x"
    assert set_details(client, cat, "duitnow_mobile").status_code == 422  # no number
    assert set_details(client, cat, "nonsense", number="1").status_code == 422
    response = set_details(client, cat, "duitnow_mobile", number="012-345 6789")
    assert response.status_code == 302
    assert "Saved." in client.get(response.location).text
    with app.app_context():
        row = db.session.get(Player, cat)
        assert (row.payto_kind, row.payto_value) == ("duitnow_mobile", "+60123456789")
        event = db.session.scalars(db.select(AuditEvent).where(
            AuditEvent.action == "player.payto")).one()
        assert (event.before, event.after) == ({"name": "Cat", "kind": ""},
                                               {"name": "Cat", "kind": "duitnow_mobile"})
        assert "+60123456789" not in str(event.before) + str(event.after) + event.subject
    group = client.get("/group").text
    assert "Cat&#39;s payment details set: DuitNow: mobile number (Malaysia)" in group
    # Saving the same again changes nothing, and writes no event.
    assert set_details(client, cat, "duitnow_mobile", number="+60 12 345 6789").status_code == 302
    with app.app_context():
        assert db.session.query(AuditEvent).filter_by(action="player.payto").count() == 1


@pytest.mark.parametrize("garbage", [
    "hello", "0002010102", BANK_QR[:-1] + "0", "00020101☃", BANK_QR.replace("5802MY", "5802TH"),
    "000201" + "9" * 600])
def test_garbage_for_a_bank_qr_is_refused_in_words(app, client, garbage):
    make_session(app)
    cat = player_id(app, "Cat")
    response = set_details(client, cat, "bank_qr", qr_text=garbage)
    assert response.status_code == 422
    assert parsed(response).select("#qr_text-error")
    with app.app_context():
        assert db.session.get(Player, cat).payto_kind == ""


@pytest.mark.parametrize("photo", [b"", b"not a photo", b"\xff\xd8\xff\xe0" + b"\x00" * 50])
def test_bad_photos_are_refused_in_words(app, client, photo):
    make_session(app)
    response = set_details(client, player_id(app, "Cat"), "bank_qr", photo=photo)
    assert response.status_code == 422
    assert parsed(response).select("#qr_text-error")


def test_a_photo_of_a_bank_qr_is_read(app, client):
    make_session(app)
    cat = player_id(app, "Cat")
    blank = io.BytesIO()
    Image.new("RGB", (300, 300), "white").save(blank, "JPEG")
    response = set_details(client, cat, "bank_qr", photo=blank.getvalue())
    assert "No QR code was found in that photo" in text(response)
    photo = io.BytesIO()
    framed = Image.new("RGB", (900, 700), (90, 120, 150))
    framed.paste(Image.open(io.BytesIO(qr_png(BANK_QR, box=8))).convert("RGB"), (200, 120))
    framed.save(photo, "JPEG", quality=85)
    assert set_details(client, cat, "bank_qr", photo=photo.getvalue()).status_code == 302
    with app.app_context():
        assert db.session.get(Player, cat).payto_value == BANK_QR


def test_settle_up_gives_each_phone_its_part(app, client, ben_phone):
    sid = make_session(app, rounds=[NO_HU])  # Ann pays Cat 1.00, Bob pays Cat 8.00
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    set_details(client, cat, "duitnow_mobile", number="0123456789")
    settle = f"/sessions/{sid}/settle"
    say_whose(client, sid, cat)
    page = parsed(client.get(settle))
    assert page.texts(".payto-actions a") == ["Collect RM 1.00 from Ann",
                                              "Collect RM 8.00 from Bob"]
    assert page.select(".payto-actions a")[0].attrs["href"] == f"#qr-{ann}-{cat}"
    full = page.select(f"section#qr-{ann}-{cat}")[0]
    assert full.select("img")[0].attrs["src"] == f"{settle}/qr/{ann}-{cat}.svg"
    assert page.texts(".payto-check")[0] == ("Check the name and amount in your bank app before "
                                            "you pay: not every bank takes every code.")
    payloads = page.texts("textarea.payto-payload")
    assert payloads[0] == payto.build(payto.Kind.DUITNOW_MOBILE, "+60123456789", payto.Request(
        100, payloads[0].split("0112")[1][:12], "Cat"))
    say_whose(ben_phone, sid, ann)
    page = parsed(ben_phone.get(settle))
    pay = page.select(".payto-actions a")[0]
    assert pay.text == "Pay Cat"
    assert pay.attrs["href"] == f"{settle}/qr/{ann}-{cat}.png"
    assert pay.attrs["download"] == "Pay Cat RM 1.00.png"
    assert page.texts(".payto-actions a")[2] == "QR code to pay Cat"  # Bob's, seen by Ann
    # The picture served is the code shown, and private.
    png = ben_phone.get(f"{settle}/qr/{ann}-{cat}.png")
    assert png.mimetype == "image/png"
    assert "no-store" in png.headers["Cache-Control"]
    assert "private" in png.headers["Cache-Control"]
    assert decoded(png.data) == payloads[0]
    svg = ben_phone.get(f"{settle}/qr/{ann}-{cat}.svg")
    assert svg.mimetype == "image/svg+xml" and "no-store" in svg.headers["Cache-Control"]
    # No code for a transfer that is not in the settlement, nor once it is paid.
    assert ben_phone.get(f"{settle}/qr/{cat}-{ann}.png").status_code == 404
    with app.app_context():
        from scorekeeper import services
        from scorekeeper.models import GameSession
        services.pay(services.Change.to(db.session.get(GameSession, sid)), ann, cat, 40)
    # Paid in part: the code asks for what is left.
    assert "54040.60" in ben_phone.get(settle).text
    with app.app_context():
        services.pay(services.Change.to(db.session.get(GameSession, sid)), ann, cat, 60)
    assert ben_phone.get(f"{settle}/qr/{ann}-{cat}.png").status_code == 404
    assert len(parsed(ben_phone.get(settle)).select(".payto-full")) == 1


def test_no_code_in_a_currency_neither_scheme_takes(app, client):
    sid = make_session(app, rounds=[NO_HU], currency="$")
    cat = player_id(app, "Cat")
    set_details(client, cat, "duitnow_mobile", number="0123456789")
    say_whose(client, sid, cat)
    html = client.get(f"/sessions/{sid}/settle").text
    assert "payto" not in html.split("<main", 1)[1].split("</main>")[0].replace(
        "css/payto", "")
    ann = player_id(app, "Ann")
    assert client.get(f"/sessions/{sid}/settle/qr/{ann}-{cat}.png").status_code == 404


def test_a_player_without_details_is_offered_to_add_them(app, client):
    sid = make_session(app, rounds=[NO_HU])
    cat = player_id(app, "Cat")
    say_whose(client, sid, cat)
    page = parsed(client.get(f"/sessions/{sid}/settle"))
    assert page.select(".payto-add a")[0].attrs["href"] == f"/players/{cat}/payment"


def test_a_bank_qr_is_reissued_on_settle_up(app, client):
    sid = make_session(app, rounds=[NO_HU])
    cat = player_id(app, "Cat")
    assert set_details(client, cat, "bank_qr", qr_text=f"  {BANK_QR}\n").status_code == 302
    payloads = parsed(client.get(f"/sessions/{sid}/settle")).texts("textarea.payto-payload")
    assert len(payloads) == 2
    fields = payto.checked(payloads[1])
    assert dict(fields)["54"] == "8.00" and dict(fields)["01"] == "12"
    assert dict(fields)["26"] == dict(payto.checked(BANK_QR))["26"]


def test_details_need_the_group_sign_in(app, client, anonymous):
    sid = make_session(app, rounds=[NO_HU])
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    set_details(client, cat, "duitnow_mobile", number="0123456789")
    for url in (f"/players/{cat}/payment", f"/sessions/{sid}/settle/qr/{ann}-{cat}.png",
                f"/sessions/{sid}/settle/qr/{ann}-{cat}.svg"):
        response = anonymous.get(url)
        assert response.status_code == 302 and "/sign-in" in response.location


def test_details_never_reach_share_pages_the_csv_or_the_logs(app, client, caplog):
    sid = make_session(app, rounds=[NO_HU])
    cat = player_id(app, "Cat")
    caplog.set_level(logging.DEBUG)
    set_details(client, cat, "duitnow_mobile", number="0123456789")
    say_whose(client, sid, cat)
    assert "+60123456789" in client.get(f"/sessions/{sid}/settle").text  # the group sees them
    link = make_link(client, sid)
    shared = [client.application.test_client().get(url) for url in (link, f"{link}/settle")]
    assert all(page.status_code == 200 for page in shared)
    csv = client.get("/group/export.csv")
    assert csv.status_code == 200
    for body in [*(page.text for page in shared), csv.text, caplog.text]:
        assert "6012345678" not in body
        assert not re.search(r"qr-\d+-\d+|payto", body.replace("css/payto", "x"))


def test_the_backup_carries_payment_details_there_and_back(app, client, anonymous):
    sid = make_session(app, rounds=[NO_HU])
    set_details(client, player_id(app, "Cat"), "bank_qr", qr_text=BANK_QR)
    set_details(client, player_id(app, "Ann"), "paynow_uen", number="201403121w")
    exported = client.get("/group/export.json").get_json()
    assert [p.get("payto") for p in exported["players"]] == [
        {"kind": "paynow_uen", "value": "201403121W"}, None,
        {"kind": "bank_qr", "value": BANK_QR}, None]
    response = post_import(anonymous, json.dumps(exported).encode())
    assert response.status_code == 302
    again = anonymous.get("/group/export.json").get_json()
    again["audit"] = [e for e in again["audit"] if e["action"] != "group.import"]
    for document in (exported, again):
        del document["group"], document["exported_at"]
    assert again == exported
    # The imported group's settle up shows the bank's code re-issued.
    imported_sid = sid + 1
    say_whose(anonymous, imported_sid, player_id_in(app, "Back again", "Cat"))
    page = parsed(anonymous.get(f"/sessions/{imported_sid}/settle"))
    assert page.texts(".payto-actions a") == ["Collect RM 1.00 from Ann",
                                              "Collect RM 8.00 from Bob"]


def player_id_in(app, group_name, name):
    with app.app_context():
        return db.session.scalar(db.select(Player.id).join(Group).where(
            Group.name == group_name, Player.name == name))


@pytest.mark.parametrize("payto_value, problem", [
    ({"kind": "venmo", "value": "x"}, 'none of "duitnow_mobile", "duitnow_mykad"'),
    ({"kind": "duitnow_mobile", "value": "12"},
     '"value" is not one the app takes as "duitnow_mobile"'),
    ({"kind": "duitnow_mobile", "value": "0123456789"}, "not written as the app writes it"),
    ({"kind": "bank_qr", "value": BANK_QR[:-1] + "0"}, 'is not one the app takes as "bank_qr"'),
    ("DuitNow", "must be an object")])
def test_a_backups_payment_details_are_checked(app, client, anonymous, payto_value, problem):
    make_session(app)
    exported = client.get("/group/export.json").get_json()
    exported["players"][0]["payto"] = payto_value
    response = post_import(anonymous, json.dumps(exported).encode())
    assert response.status_code == 422
    assert problem in visible_text(response)


def test_a_photo_larger_than_an_upload_may_be_is_refused_in_words(app, client):
    make_session(app)
    cat = player_id(app, "Cat")
    page = f"/players/{cat}/payment"
    # Encoded in memory: werkzeug's test client would put it in a file it never closes.
    boundary, data = encode_multipart({
        "csrf_token": csrf_token(client, page), "kind": "bank_qr",
        "photo": FileStorage(io.BytesIO(b"\xff" * app.config["MAX_CONTENT_LENGTH"]), "qr.jpg",
                             content_type="image/jpeg")})
    response = client.post(page, data=data,
                           content_type=f"multipart/form-data; boundary={boundary}")
    assert response.status_code == 413
    assert parsed(response).texts("#photo-error") == [
        "That photo is larger than 8 MB, the most an upload may be: send a screenshot of "
        "the QR code instead."]
    with app.app_context():
        assert db.session.get(Player, cat).payto_kind == ""


def test_who_owes_whom_gives_settle_everythings_transfers_their_codes(app, client, anonymous):
    make_session(app, rounds=[NO_HU])  # Ann pays Cat 1.00, Bob pays Cat 8.00
    make_session(app, rounds=[NO_HU], ended=True)  # the same again: 2.00 and 16.00 in all
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    set_details(client, cat, "duitnow_mobile", number="0123456789")
    page = parsed(client.get("/money"))
    payloads = page.texts("textarea.payto-payload")
    assert len(payloads) == 2 and all("5405" in p or "5404" in p for p in payloads)
    first = f"/money/qr/RM/{ann}-{cat}"
    assert page.select(f"section#qr-{ann}-{cat} img")[0].attrs["src"] == f"{first}.svg"
    png = client.get(f"{first}.png")
    assert "no-store" in png.headers["Cache-Control"]
    assert decoded(png.data) == payloads[0] and "54042.00" in payloads[0]
    assert client.get(f"/money/qr/RM/{cat}-{ann}.png").status_code == 404
    assert client.get(f"/money/qr/XYZ/{ann}-{cat}.png").status_code == 404
    assert anonymous.get(f"{first}.png").status_code == 302  # to sign in
