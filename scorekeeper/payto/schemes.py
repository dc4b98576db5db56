"""PayNow (Singapore) and DuitNow (Malaysia) QR payloads with an amount, built
from a player's payment details, and the details themselves checked.

What the layouts follow:

- EMVCo's merchant-presented QR (EMV QRCPS MPM): the top-level fields 00
  payload format, 01 point of initiation ("11" static, "12" dynamic: with an
  amount), 26-51 merchant account templates, 52 merchant category, 53
  currency (ISO 4217 numeric), 54 amount, 58 country, 59 name, 60 city, 62
  additional data (01: bill number, our reference), 63 CRC.
- PayNow: template 26 holds 00 "SG.PAYNOW", 01 the proxy type ("0" mobile,
  "2" UEN), 02 the proxy, 03 whether the amount may be edited ("0": not),
  as SGQR's PayNow codes carry it (public decoders of them agree on it).
- DuitNow: PayNet's DuitNow QR specification (merchant-presented mode, v1.5,
  docs.developer.paynet.my): payload format "02", template 26 with 00 the
  application id A0000006150001, 01 the acquirer's id and 02 the QR id, and
  merchant category "0000" for person-to-person codes. UNCERTAIN: PayNet
  documents no layout for a code made from a DuitNow ID (mobile, MyKad,
  business number) rather than issued by a bank, whose acquirer id and QR
  id it assigns. We put the DuitNow ID as the QR id and leave the acquirer
  id out: a bank app may refuse such a code, which is why the page says to
  check the name and amount, and why a player's own bank QR (reissue.py) is
  the surer way in Malaysia. Where the reference goes (62, sub-field 01)
  is EMVCo's bill number; which field a DuitNow bank app shows is not known.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from .tlv import Field, PayloadError, encode, with_crc

NAME_MAX = 25  # EMVCo: the merchant name, 59, up to 25 characters
REFERENCE_MAX = 25  # 62's bill number
AMOUNT_MAX = 13  # characters of 54
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class SchemeInfo:
    name: str
    country: str  # ISO 3166 alpha-2, field 58
    currency: str  # ISO 4217 numeric, field 53
    city: str  # field 60


class Scheme(enum.Enum):
    """The QR payment schemes this app makes codes for."""

    DUITNOW = SchemeInfo("DuitNow", "MY", "458", "Kuala Lumpur")
    PAYNOW = SchemeInfo("PayNow", "SG", "702", "Singapore")

    @property
    def info(self) -> SchemeInfo:
        return self.value


# A session's currency as typed, folded (upper case, no spaces), to its scheme.
CURRENCIES = {"RM": Scheme.DUITNOW, "MYR": Scheme.DUITNOW,
              "S$": Scheme.PAYNOW, "SGD": Scheme.PAYNOW, "SG$": Scheme.PAYNOW}


def scheme_for(currency: str) -> Scheme | None:
    """The scheme that pays in a session's currency ("RM", "S$"…); None for
    a currency neither takes."""
    return CURRENCIES.get("".join(currency.split()).upper())


class Kind(enum.StrEnum):
    """What a player's payment details are, as stored."""

    DUITNOW_MOBILE = "duitnow_mobile"
    DUITNOW_MYKAD = "duitnow_mykad"
    DUITNOW_BUSINESS = "duitnow_business"
    PAYNOW_MOBILE = "paynow_mobile"
    PAYNOW_UEN = "paynow_uen"
    BANK_QR = "bank_qr"  # the text of the player's own bank's "receive money" QR

    @property
    def scheme(self) -> Scheme | None:
        """The scheme of a DuitNow ID or PayNow proxy; None for a bank's QR,
        whose country says it."""
        if self is Kind.BANK_QR:
            return None
        return Scheme.DUITNOW if self.value.startswith("duitnow") else Scheme.PAYNOW


def clean_id(kind: Kind, text: str) -> str:
    """A DuitNow ID or PayNow proxy as typed, in the form the code carries it
    (a mobile number with its country code: "+60123456789"); PayloadError
    with a code saying what is wrong."""
    squeezed = re.sub(r"[\s\-().]", "", text).upper()
    if kind in (Kind.DUITNOW_MOBILE, Kind.PAYNOW_MOBILE):
        country, local = (("60", r"1\d{8,9}") if kind is Kind.DUITNOW_MOBILE
                          else ("65", r"[89]\d{7}"))
        digits = squeezed.removeprefix("+")
        if digits.startswith(country) and re.fullmatch(local, digits[len(country):]):
            return "+" + digits
        if kind is Kind.DUITNOW_MOBILE and re.fullmatch("0" + local, digits):
            return "+6" + digits
        if kind is Kind.PAYNOW_MOBILE and re.fullmatch(local, digits):
            return "+65" + digits
        raise PayloadError("bad_mobile_my" if kind is Kind.DUITNOW_MOBILE else "bad_mobile_sg")
    if kind is Kind.DUITNOW_MYKAD:
        if not re.fullmatch(r"\d{12}", squeezed):
            raise PayloadError("bad_mykad")
        return squeezed
    if kind is Kind.DUITNOW_BUSINESS:
        # SSM's numbers: 12 digits now, "1234567-X" before 2019 (kept without its dash).
        if not re.fullmatch(r"\d{12}|\d{1,7}[A-Z]", squeezed):
            raise PayloadError("bad_business")
        return squeezed
    if kind is Kind.PAYNOW_UEN:
        if not re.fullmatch(r"[0-9A-Z]{9,10}", squeezed):
            raise PayloadError("bad_uen")
        return squeezed
    raise PayloadError("not_an_id")


@dataclass(frozen=True)
class Request:
    """What a code asks for: an amount (integer cents, over 0), a short
    reference and the name of who is paid, as the player's record has it."""

    cents: int
    reference: str
    name: str


def amount_text(cents: int) -> str:
    """550 -> "5.50": field 54's text, exact from integer cents."""
    if cents <= 0:
        raise PayloadError("bad_amount")
    text = f"{cents // 100}.{cents % 100:02d}"
    if len(text) > AMOUNT_MAX:
        raise PayloadError("bad_amount")
    return text


def ascii_text(text: str, most: int) -> str:
    """``text`` as a code's name or reference takes it: accents dropped,
    other letters left out, spaces single, at most ``most`` characters."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    folded = "".join(ch for ch in folded if ch.isprintable())
    return " ".join(folded.split())[:most].strip()


def merchant_name(name: str) -> str:
    """A player's name as field 59: ASCII, up to 25 characters; a name with
    no Latin letters (李美玲) gives "NA", the bank app shows the account's own."""
    return ascii_text(name, NAME_MAX) or "NA"


def reference(day: date, game: str = "Rummy") -> str:
    """The code's reference: "Rummy 23 Nov", in English whatever the phone's
    language (it goes to the bank's records, which take ASCII)."""
    return ascii_text(f"{game} {day.day} {MONTHS[day.month - 1]}", REFERENCE_MAX)


def build(kind: Kind, proxy: str, request: Request) -> str:
    """The payload for paying ``request`` to the DuitNow ID or PayNow proxy
    ``proxy`` (as clean_id gives it)."""
    scheme = kind.scheme
    if scheme is None:
        raise PayloadError("not_an_id")
    info = scheme.info
    if scheme is Scheme.PAYNOW:
        account: list[Field] = [("00", "SG.PAYNOW"), ("01", "0" if kind is Kind.PAYNOW_MOBILE
                                                     else "2"),
                                ("02", proxy), ("03", "0")]
        fmt = "01"
    else:
        account = [("00", "A0000006150001"), ("02", proxy)]
        fmt = "02"
    return with_crc([
        ("00", fmt), ("01", "12"), ("26", encode(account)), ("52", "0000"),
        ("53", info.currency), ("54", amount_text(request.cents)), ("58", info.country),
        ("59", merchant_name(request.name)), ("60", info.city),
        ("62", encode([("01", ascii_text(request.reference, REFERENCE_MAX) or "NA")]))])
