"""A payment code's picture, and a code read from a photo.

qrcode (already the app's, for share and invite links) draws the code: SVG
for the page, PNG (through Pillow) for the picture a payer saves to their
gallery, which bank apps scan from. zxing-cpp reads a photo of a bank's QR:
it finds a code in a real photo (at an angle, small in the frame, on a
screen) where pure-Python decoders need a clean scan, and ships wheels."""

from __future__ import annotations

import io
import warnings

import qrcode
import qrcode.image.svg
import zxingcpp
from PIL import Image, UnidentifiedImageError

from .tlv import PayloadError

PHOTO_PIXELS = 40_000_000  # a phone's photo is 12 to 50 MP; past this, refused unread
PHOTO_SIDE = 2000  # a photo is read scaled down to this side: a QR needs far fewer pixels


def _code(payload: str, box: int = 10) -> qrcode.QRCode:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4,
                         box_size=box)
    code.add_data(payload)
    code.make(fit=True)
    return code


def qr_svg(payload: str) -> bytes:
    """The code as an SVG (a path, no inline style), scaling to its box."""
    return _code(payload).make_image(image_factory=qrcode.image.svg.SvgPathFillImage).to_string()


def qr_png(payload: str, box: int = 12) -> bytes:
    """The code as a PNG, ``box`` pixels a module, white around it."""
    image = _code(payload, box).make_image()
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def read_photo(data: bytes) -> str:
    """The text of the first QR code in a photo (JPEG, PNG, or any image
    Pillow reads); PayloadError "not_image" or "no_qr" if there is none."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            photo = Image.open(io.BytesIO(data))
            if photo.width * photo.height > PHOTO_PIXELS:
                raise PayloadError("not_image")
            photo.draft("L", (PHOTO_SIDE, PHOTO_SIDE))  # JPEG: decoded at a fraction
            image = photo.convert("L")
            image.thumbnail((PHOTO_SIDE, PHOTO_SIDE))
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning, SyntaxError) as error:
        if isinstance(error, PayloadError):
            raise
        raise PayloadError("not_image") from None
    for found in zxingcpp.read_barcodes(image):  # any kind: the text is checked after
        if found.valid and found.text:
            return found.text
    raise PayloadError("no_qr")
