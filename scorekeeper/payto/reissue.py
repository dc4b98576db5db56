"""A player's own bank "receive money" QR, re-issued with an amount: the
bank's payload is kept field for field, byte for byte and in order, but for
the point of initiation (set to "12", dynamic), the amount (54) and the
reference (62's bill number, 01), and its CRC made again."""

from __future__ import annotations

from .schemes import REFERENCE_MAX, Request, Scheme, amount_text, ascii_text
from .tlv import PayloadError, checked, encode, parse, put, value_of, with_crc

ACCOUNT_IDS = frozenset(f"{n:02d}" for n in range(2, 52))  # merchant account information


def read_bank_qr(text: str) -> tuple[str, Scheme]:
    """A pasted (or photographed) QR's text, tidied, with the scheme its
    country and currency say; PayloadError if it is no EMVCo payment code,
    its CRC is wrong, or it pays in neither Malaysia nor Singapore."""
    text = text.strip()
    if not text:
        raise PayloadError("empty")
    fields = checked(text)
    if fields[0] != ("00", "01") and fields[0] != ("00", "02"):
        raise PayloadError("not_emvco")
    if not any(tag in ACCOUNT_IDS for tag, _ in fields):
        raise PayloadError("no_account")
    country, currency = value_of(fields, "58"), value_of(fields, "53")
    for scheme in Scheme:
        if (country, currency) == (scheme.info.country, scheme.info.currency):
            return text, scheme
    raise PayloadError("other_country", f"{country}/{currency}")


def reissue(text: str, scheme: Scheme, request: Request) -> str:
    """The bank's payload ``text`` asking for ``request``'s amount, with its
    reference; PayloadError if it is not a code of ``scheme`` (the session's).
    The name stays the bank's: the bank app shows the account holder's."""
    text, its_scheme = read_bank_qr(text)
    if its_scheme is not scheme:
        raise PayloadError("wrong_scheme", its_scheme.info.name)
    fields = checked(text)
    fields = put(fields, "01", "12")
    fields = put(fields, "54", amount_text(request.cents))
    extra = value_of(fields, "62")
    try:
        data = parse(extra) if extra is not None else []
    except PayloadError:
        data = None  # a 62 that is no template: kept as it is
    if data is not None:
        ref = ascii_text(request.reference, REFERENCE_MAX)
        value = encode(put(data, "01", ref)) if ref else None
        if value is not None and len(value) <= 99:
            fields = put(fields, "62", value)
    return with_crc(fields)
