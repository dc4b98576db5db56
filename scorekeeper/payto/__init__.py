"""Paying by QR: EMVCo merchant-presented payloads for DuitNow (Malaysia) and
PayNow (Singapore) with the amount filled in, a player's own bank QR
re-issued with one, and their images. Pure: no Flask, no database.

tlv.py reads and writes the fields and the CRC; schemes.py builds codes from
a DuitNow ID or PayNow proxy (and says what its layouts are based on);
reissue.py takes a bank's own code; images.py draws a code (qrcode) and reads
one from a photo (zxing-cpp)."""

from .reissue import read_bank_qr, reissue
from .schemes import (
    Kind,
    Request,
    Scheme,
    amount_text,
    build,
    clean_id,
    merchant_name,
    reference,
    scheme_for,
)
from .tlv import PayloadError, checked, crc16, encode, parse, with_crc

__all__ = [
    "Kind",
    "PayloadError",
    "Request",
    "Scheme",
    "amount_text",
    "build",
    "checked",
    "clean_id",
    "crc16",
    "encode",
    "merchant_name",
    "parse",
    "payload_for",
    "read_bank_qr",
    "reference",
    "reissue",
    "scheme_for",
    "tidied",
    "with_crc",
]


def tidied(kind: Kind, value: str) -> str:
    """A player's details of ``kind`` as the app keeps them: an ID in the form
    a code carries it, a bank QR's text tidied; PayloadError if they are none
    the app takes as that kind."""
    return read_bank_qr(value)[0] if kind is Kind.BANK_QR else clean_id(kind, value)


def payload_for(kind: Kind, value: str, scheme: Scheme, request: Request) -> str:
    """The code paying ``request`` to a player whose details are ``kind`` and
    ``value`` (as stored), in a session of ``scheme``; PayloadError if the
    details are of another scheme (a DuitNow ID at a session in S$)."""
    if kind is Kind.BANK_QR:
        return reissue(value, scheme, request)
    if kind.scheme is not scheme:
        raise PayloadError("wrong_scheme", scheme.info.name)
    return build(kind, value, request)
