"""The QR payloads (scorekeeper.payto), no app: the CRC, the TLV fields, the
PayNow and DuitNow builders against worked examples field by field, a bank's
own QR re-issued with its other fields kept byte for byte, round trips
through a QR decoder, and hypothesis round trips of build → parse."""

import io
from datetime import date

import pytest
import zxingcpp
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from scorekeeper import payto
from scorekeeper.payto import Kind, PayloadError, Request, Scheme
from scorekeeper.payto.images import qr_png, qr_svg, read_photo

# PayNet's DuitNow QR specification v1.5, "Example 2" (person to person), CRC included.
PAYNET_P2P = ("000202" "010211" "2641" "0014A0000006150001" "0106501664" "0209123456789"
              "52040000" "5303458" "540510.00" "5802MY" "5909AUSERNAME" "6005BANGI" "63043A23")
# A bank's static "receive money" code: no amount, a 62 of its own, and a
# template above 62 that the app does not know.
BANK = payto.with_crc([
    ("00", "01"), ("01", "11"),
    ("26", payto.encode([("00", "A0000006150001"), ("01", "890087"), ("02", "X" * 28)])),
    ("52", "0000"), ("53", "458"), ("58", "MY"), ("59", "MEI LING"), ("60", "PENANG"),
    ("62", payto.encode([("05", "REF9"), ("07", "T1")])), ("80", "0004ABCD")])


def test_crc16_ccitt_false_check_value():
    assert payto.crc16(b"123456789") == 0x29B1
    assert payto.crc16(b"") == 0xFFFF


def test_paynet_worked_example_checks_and_rebuilds():
    fields = payto.checked(PAYNET_P2P)
    assert fields[0] == ("00", "02") and ("59", "AUSERNAME") in fields
    assert payto.parse(dict(fields)["26"]) == [
        ("00", "A0000006150001"), ("01", "501664"), ("02", "123456789")]
    assert payto.with_crc(fields) == PAYNET_P2P


@pytest.mark.parametrize("text, code", [
    ("", "no_crc"), ("00020", "not_tlv"), ("0002010x", "not_tlv"),
    (PAYNET_P2P[:-1] + "0", "bad_crc"), (PAYNET_P2P[:-8], "no_crc"),
    (PAYNET_P2P.replace("BANGI", "BANGİ"), "not_text")])
def test_what_is_no_payload_says_why(text, code):
    with pytest.raises(PayloadError) as refused:
        payto.checked(text)
    assert refused.value.code == code


def test_paynow_mobile_field_by_field():
    proxy = payto.clean_id(Kind.PAYNOW_MOBILE, "9123 4567")
    assert proxy == "+6591234567"
    text = payto.build(Kind.PAYNOW_MOBILE, proxy, Request(550, "Rummy 23 Nov", "Ann"))
    assert payto.parse(text) == [
        ("00", "01"), ("01", "12"),
        ("26", "0009SG.PAYNOW" "01010" "0211+6591234567" "03010"),
        ("52", "0000"), ("53", "702"), ("54", "5.50"), ("58", "SG"), ("59", "Ann"),
        ("60", "Singapore"), ("62", "0112Rummy 23 Nov"),
        ("63", f"{payto.crc16(text[:-4].encode()):04X}")]
    assert text.endswith("6304FBA0")


def test_paynow_uen():
    uen = payto.clean_id(Kind.PAYNOW_UEN, "201403121w")
    text = payto.build(Kind.PAYNOW_UEN, uen, Request(1, "Rummy 1 Jan", "Ben"))
    assert payto.parse(dict(payto.checked(text))["26"])[1:3] == [("01", "2"), ("02", "201403121W")]
    assert dict(payto.checked(text))["54"] == "0.01"


def test_duitnow_mobile_field_by_field():
    proxy = payto.clean_id(Kind.DUITNOW_MOBILE, "012-345 6789")
    assert proxy == "+60123456789"
    text = payto.build(Kind.DUITNOW_MOBILE, proxy, Request(123456, "Rummy 23 Nov", "Mei Lìng"))
    assert payto.checked(text) == [
        ("00", "02"), ("01", "12"), ("26", "0014A0000006150001" "0212+60123456789"),
        ("52", "0000"), ("53", "458"), ("54", "1234.56"), ("58", "MY"), ("59", "Mei Ling"),
        ("60", "Kuala Lumpur"), ("62", "0112Rummy 23 Nov")]


@pytest.mark.parametrize("kind, typed, stored", [
    (Kind.DUITNOW_MOBILE, "+60 11-2345 6789", "+601123456789"),
    (Kind.DUITNOW_MYKAD, "900101-07-1234", "900101071234"),
    (Kind.DUITNOW_BUSINESS, "201901000005", "201901000005"),
    (Kind.DUITNOW_BUSINESS, "1234567-x", "1234567X"),
    (Kind.PAYNOW_MOBILE, "+65 8123 4567", "+6581234567")])
def test_ids_are_tidied(kind, typed, stored):
    assert payto.clean_id(kind, typed) == stored


@pytest.mark.parametrize("kind, typed", [
    (Kind.DUITNOW_MOBILE, "0223456789"), (Kind.DUITNOW_MOBILE, "+65 9123 4567"),
    (Kind.DUITNOW_MYKAD, "90010107123"), (Kind.PAYNOW_MOBILE, "61234567"),
    (Kind.PAYNOW_UEN, "12345"), (Kind.DUITNOW_BUSINESS, "abc")])
def test_ids_of_the_wrong_shape_are_refused(kind, typed):
    with pytest.raises(PayloadError):
        payto.clean_id(kind, typed)


def test_names_amounts_and_references_as_the_format_takes_them():
    assert payto.merchant_name("Zoë  Ng") == "Zoe Ng"
    assert payto.merchant_name("李美玲") == "NA"
    assert payto.merchant_name("A" * 40) == "A" * 25
    assert [payto.amount_text(c) for c in (1, 100, 550, 123456)] == [
        "0.01", "1.00", "5.50", "1234.56"]
    for bad in (0, -5, 10 ** 13):
        with pytest.raises(PayloadError):
            payto.amount_text(bad)
    assert payto.reference(date(2026, 11, 23)) == "Rummy 23 Nov"


def test_currencies_choose_the_scheme():
    assert [payto.scheme_for(c) for c in ("RM", "myr", " S$", "SGD", "$", "€", "")] == [
        Scheme.DUITNOW, Scheme.DUITNOW, Scheme.PAYNOW, Scheme.PAYNOW, None, None, None]


def test_a_bank_qr_is_reissued_keeping_every_other_field_byte_for_byte():
    text = payto.reissue(BANK, Scheme.DUITNOW, Request(550, "Rummy 23 Nov", "Whoever"))
    before, after = payto.checked(BANK), payto.checked(text)
    assert [tag for tag, _ in after] == ["00", "01", "26", "52", "53", "54", "58", "59", "60",
                                         "62", "80"]
    changed = {"01": "12", "54": "5.50", "62": "0112Rummy 23 Nov" "0504REF9" "0702T1"}
    assert {tag: value for tag, value in after if dict(before).get(tag) != value} == changed
    assert [f for f in after if f[0] not in changed] == [f for f in before if f[0] not in changed]
    # The raw text too: everything from 26 to 53, and 58 to 60, is the bank's, byte for byte.
    assert BANK[BANK.index("0014A0") - 4:BANK.index("5802")] in text
    assert BANK[BANK.index("5802"):BANK.index("62")] in text
    assert text[-8:-4] == "6304"


def test_a_dynamic_bank_qr_gets_its_amount_replaced_and_a_62_added():
    text = payto.reissue(PAYNET_P2P, Scheme.DUITNOW, Request(99, "Rummy 2 Jan", "X"))
    assert payto.checked(text) == [
        ("00", "02"), ("01", "12"), ("26", dict(payto.checked(PAYNET_P2P))["26"]),
        ("52", "0000"), ("53", "458"), ("54", "0.99"), ("58", "MY"), ("59", "AUSERNAME"),
        ("60", "BANGI"), ("62", "0111Rummy 2 Jan")]


@pytest.mark.parametrize("text, scheme, code", [
    (BANK, Scheme.PAYNOW, "wrong_scheme"),
    (BANK.replace("5802MY", "5802TH")[:-8], Scheme.DUITNOW, "no_crc"),
    (payto.with_crc([("00", "01"), ("53", "764"), ("58", "TH"), ("26", "0002AB")]),
     Scheme.DUITNOW, "other_country"),
    (payto.with_crc([("00", "01"), ("53", "458"), ("58", "MY")]), Scheme.DUITNOW, "no_account"),
    (payto.with_crc([("01", "11"), ("26", "0002AB")]), Scheme.DUITNOW, "not_emvco"),
    ("   ", Scheme.DUITNOW, "empty")])
def test_what_cannot_be_reissued_says_why(text, scheme, code):
    with pytest.raises(PayloadError) as refused:
        payto.reissue(text, scheme, Request(100, "Rummy", "X"))
    assert refused.value.code == code


def test_details_of_the_other_scheme_give_no_code():
    with pytest.raises(PayloadError):
        payto.payload_for(Kind.DUITNOW_MOBILE, "+60123456789", Scheme.PAYNOW,
                          Request(100, "Rummy", "X"))


def test_images_decode_to_the_payload():
    text = payto.build(Kind.PAYNOW_MOBILE, "+6591234567", Request(550, "Rummy 23 Nov", "Ann"))
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr_png(text))))
    assert [f.text for f in found] == [text]
    assert read_photo(qr_png(text)) == text
    assert qr_svg(text).startswith(b"<svg")
    for bad in (b"", b"GIF89a", qr_svg(text)):
        with pytest.raises(PayloadError) as refused:
            read_photo(bad)
        assert refused.value.code == "not_image"


names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
references = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30)


@given(kind=st.sampled_from([k for k in Kind if k is not Kind.BANK_QR]),
       cents=st.integers(1, 10 ** 11), name=names, ref=references,
       digits=st.integers(10 ** 7, 10 ** 8 - 1))
def test_built_codes_parse_back(kind, cents, name, ref, digits):
    proxy = {Kind.DUITNOW_MOBILE: f"+6012{digits}", Kind.DUITNOW_MYKAD: f"9001{digits}",
             Kind.DUITNOW_BUSINESS: f"2019{digits}", Kind.PAYNOW_MOBILE: f"+659{str(digits)[1:]}",
             Kind.PAYNOW_UEN: f"2014{digits}"[:9] + "W"}[kind]
    text = payto.build(kind, proxy, Request(cents, ref, name))
    fields = dict(payto.checked(text))
    assert fields["54"] == f"{cents // 100}.{cents % 100:02d}"
    assert fields["01"] == "12"
    assert proxy in payto.parse(fields["26"])[-2 if kind.scheme is Scheme.PAYNOW else -1]
    assert fields["59"] == payto.merchant_name(name) and fields["59"].isascii()
    assert len(fields["59"]) <= 25
    assert payto.with_crc(payto.checked(text)) == text
    # Re-issued as if it were a bank's, with the same amount and reference, it is the same text.
    assert payto.reissue(text, kind.scheme, Request(cents, ref, "other")) == text


@given(st.lists(st.tuples(st.integers(0, 99).map("{:02d}".format),
                          st.text(st.characters(min_codepoint=32, max_codepoint=126),
                                  max_size=99)), max_size=12))
def test_tlv_round_trips(fields):
    assert payto.parse(payto.encode(fields)) == fields
    assert payto.checked(payto.with_crc(fields)) == fields
