"""The font the session's picture is drawn in: one that covers Latin, Malay
and Chinese names (Debian's fonts-wqy-microhei, which the README's set-up and
CI install, or Noto CJK), found where Debian puts it."""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from PIL import ImageFont

CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # fonts-wqy-microhei
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # fonts-noto-cjk
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
)

log = logging.getLogger(__name__)


@functools.cache
def font_path() -> str | None:
    """The first of CANDIDATES on this machine; None (said once in the log)
    if there is none: Latin names still draw, Chinese ones as boxes."""
    found = next((path for path in CANDIDATES if Path(path).is_file()), None)
    if found is None:
        log.warning("No font for Chinese names: the shared picture draws them as boxes. "
                    "Install fonts-wqy-microhei (README, Production).")
    return found


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The picture's font at ``size`` pixels; Pillow's own where none is found."""
    path = font_path()
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size)
