"""EMVCo merchant-presented QR payloads: fields of a two-digit id, a
two-digit length and a value (a template's value being fields itself), and
the CRC that ends every payload (id "63", four upper-case hex digits).

Fields are kept as a list of (id, value) in the order read, so that a payload
parsed and encoded again is the same text, byte for byte."""

from __future__ import annotations

from collections.abc import Iterable

Field = tuple[str, str]

CRC_ID = "63"
# The CRC field as it stands before its value: its id and length ("6304").
CRC_HEAD = CRC_ID + "04"


class PayloadError(ValueError):
    """Text that is not an EMVCo payload, or one this app cannot use; ``code``
    names the problem for the web layer, which words it."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no
    reflection, no final XOR (EMVCo's choice)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def encode(fields: Iterable[Field]) -> str:
    """Fields as TLV text (no CRC added)."""
    out = []
    for tag, value in fields:
        if len(tag) != 2 or not tag.isdigit():
            raise PayloadError("bad_id", tag)
        if len(value) > 99:
            raise PayloadError("too_long", tag)
        out.append(f"{tag}{len(value):02d}{value}")
    return "".join(out)


def parse(text: str) -> list[Field]:
    """TLV text as its fields, in order; PayloadError if it does not split
    into whole fields."""
    fields: list[Field] = []
    at = 0
    while at < len(text):
        head = text[at:at + 4]
        if len(head) < 4 or not head.isdigit():
            raise PayloadError("not_tlv", str(at))
        length = int(head[2:])
        value = text[at + 4:at + 4 + length]
        if len(value) != length:
            raise PayloadError("not_tlv", str(at))
        fields.append((head[:2], value))
        at += 4 + length
    return fields


def with_crc(fields: Iterable[Field]) -> str:
    """The payload of ``fields`` (which hold no CRC) ended by its CRC, computed
    over everything before it, "6304" included."""
    body = encode(fields) + CRC_HEAD
    return body + f"{crc16(body.encode()):04X}"


def checked(text: str) -> list[Field]:
    """The fields of a whole payload, its CRC last and right (PayloadError
    if not); the CRC field is not among them."""
    if not text.isascii() or not text.isprintable():
        raise PayloadError("not_text")
    fields = parse(text)
    if not fields or fields[-1][0] != CRC_ID or len(fields[-1][1]) != 4:
        raise PayloadError("no_crc")
    if fields[-1][1].upper() != f"{crc16(text[:-4].encode()):04X}":
        raise PayloadError("bad_crc")
    return fields[:-1]


def value_of(fields: list[Field], tag: str) -> str | None:
    """The value of the first field ``tag``, if there is one."""
    return next((value for t, value in fields if t == tag), None)


def put(fields: list[Field], tag: str, value: str) -> list[Field]:
    """``fields`` with ``tag`` set to ``value``: in place of the first field
    of that id if there is one, else before the first field of a higher id
    (EMVCo lists fields in ascending order); every other field kept as it was."""
    for i, (t, _) in enumerate(fields):
        if t == tag:
            return [*fields[:i], (tag, value), *fields[i + 1:]]
    at = next((i for i, (t, _) in enumerate(fields) if t > tag), len(fields))
    return [*fields[:at], (tag, value), *fields[at:]]
