"""One CJK-capable font for every picture: Noto Sans CJK (OFL) from the ``noto-cjk-sans-otc`` wheel.

The collection holds the SC, TC, JP and KR faces; simplified Chinese and English use the SC face,
traditional Chinese the TC face (Hong Kong/Taiwan glyph shapes). Fonts are loaded once per size
with Pillow's BASIC layout: Chinese needs no shaping and BASIC is faster.
"""

from __future__ import annotations

from functools import cache

from noto_cjk_sans_otc import FONT_PATH
from PIL import Image, ImageDraw, ImageFont

FACE = {"zh-Hans": 2, "zh-Hant": 3, "en": 2}  # indices in the .ttc: 2 SC, 3 TC


@cache
def font(size: int, lang: str = "zh-Hans") -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_PATH, size, index=FACE.get(lang, 2), layout_engine=ImageFont.Layout.BASIC)


@cache
def _notdef(size: int, lang: str) -> bytes:
    return _glyph(size, lang, "\U0010fffd")


def _glyph(size: int, lang: str, ch: str) -> bytes:
    f = font(size, lang)
    box = f.getbbox(ch)
    img = Image.new("L", (max(1, box[2] - box[0] + 2), max(1, box[3] - box[1] + 2)))
    ImageDraw.Draw(img).text((-box[0] + 1, -box[1] + 1), ch, font=f, fill=255)
    return img.tobytes() + bytes(img.size)


def missing_glyphs(text: str, lang: str = "zh-Hans", size: int = 20) -> set[str]:
    """Characters of ``text`` the font would draw as its empty box (the .notdef glyph)."""
    empty = _notdef(size, lang)
    return {ch for ch in set(text) if not ch.isspace() and _glyph(size, lang, ch) == empty}
