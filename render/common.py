"""Small drawing helpers shared by the pictures: a pen that remembers what it wrote, text fitting.

Every string a picture shows goes through ``Pen.text`` (or arrives inside a cached ``Sprite``
that carries its own strings), so a test can ask a renderer for the exact texts it drew and check
that the font has a glyph for each character (no empty boxes in Chinese or in player names).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.fonts import font, missing_glyphs

RGB = tuple[int, int, int]
ELLIPSIS = "…"
BLACK: RGB = (25, 25, 25)
WHITE: RGB = (255, 255, 255)


class Sprite(NamedTuple):
    """A pre-drawn piece (a card face, a card strip) and the strings drawn on it."""

    image: Image.Image
    texts: tuple[str, ...]


class Pen:
    """``ImageDraw`` plus a record of every string written or pasted in with a sprite."""

    def __init__(self, image: Image.Image, lang: str) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.lang = lang
        self.texts: list[str] = []

    def text(self, xy: tuple[float, float], s: str, size: int, fill: RGB = BLACK, anchor: str = "lm",
             bold: bool = False) -> tuple[int, int, int, int]:
        """Write ``s`` with its ``anchor`` (Pillow's two-letter anchors) at ``xy``; returns the
        box its ink may cover (what layout tests check against the space it was given)."""
        if not s:
            return (round(xy[0]), round(xy[1]), round(xy[0]), round(xy[1]))
        self.texts.append(s)
        mask, dx, dy = text_mask(s, size, self.lang, anchor, bold)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        self.image.paste(fill, (x, y), mask)
        return x, y, x + mask.width, y + mask.height

    def paste(self, sprite: Sprite, xy: tuple[int, int]) -> None:
        im = sprite.image
        self.image.paste(im, xy, im if im.mode == "RGBA" else None)
        self.texts.extend(sprite.texts)


@lru_cache(maxsize=2048)
def text_mask(s: str, size: int, lang: str, anchor: str, bold: bool) -> tuple[Image.Image, int, int]:
    """``s`` drawn once as a coverage mask, and where its corner sits relative to the anchor point.

    Labels repeat from one picture to the next (names, "rent 2M", "1/3"): drawing a string is the
    costly part of a picture, pasting a cached mask in a colour is cheap."""
    f = font(size, lang)
    stroke = 1 if bold else 0
    left, top, right, bottom = f.getbbox(s, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255)
    return mask.point(_COVERAGE), left, top


# Text edges keep five coverage levels instead of 256: they look the same at these sizes, and the
# pictures' 8-bit palettes and PNG compression do much better (the board is ~10% fewer bytes).
_COVERAGE = [round(v / 63.75) * 64 if v < 224 else 255 for v in range(256)]


@lru_cache(maxsize=8192)
def width_of(s: str, size: int, lang: str) -> float:
    """How wide ``s`` is, in pixels. Remembered: the same names, labels and their cut-short tries
    are measured again in every picture, and measuring was a quarter of a Deal table's drawing."""
    return font(size, lang).getlength(s)


def fit(s: str, size: int, lang: str, width: float, cut: bool = False) -> str:
    """``s`` cut short with an ellipsis so that it is at most ``width`` pixels wide (``cut``: it was
    already shortened elsewhere, so it gets the ellipsis even if it fits)."""
    if not cut and width_of(s, size, lang) <= width:
        return s
    lo, hi = 0, len(s) if cut else len(s) - 1
    while lo < hi:  # the longest prefix that still fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if width_of(s[:mid].rstrip() + ELLIPSIS, size, lang) <= width:
            lo = mid
        else:
            hi = mid - 1
    return (s[:lo].rstrip() + ELLIPSIS) if lo else ELLIPSIS


def first_fitting(options: list[str], size: int, lang: str, width: float) -> str:
    """The first of ``options`` that fits ``width``; else the last one cut short."""
    for s in options:
        if width_of(s, size, lang) <= width:
            return s
    return fit(options[-1], size, lang, width)


def _is_wide(ch: str) -> bool:
    return ord(ch) >= 0x2E80  # CJK and full-width forms: a line may break before any of them


def wrap(s: str, size: int, lang: str, width: float, max_lines: int) -> list[str]:
    """``s`` broken into at most ``max_lines`` lines of at most ``width`` pixels (CJK anywhere,
    Latin at spaces, an over-long word by characters); the last line ends with "…" if cut."""
    tokens: list[str] = []  # words with their trailing space, or single wide characters
    word = ""
    for ch in s:
        if _is_wide(ch):
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        else:
            word += ch
            if ch == " ":
                tokens.append(word)
                word = ""
    if word:
        tokens.append(word)
    lines: list[str] = []
    line = ""
    for tok in tokens:
        if width_of((line + tok).rstrip(), size, lang) <= width:
            line += tok
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = tok.lstrip()
        while width_of(line.rstrip(), size, lang) > width and len(line) > 1:  # a word longer than a line
            cut = len(line) - 1
            while cut > 1 and width_of(line[:cut], size, lang) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1], size, lang, width, cut=True)
    return lines


def initials(names: dict[int, str], lang: str) -> dict[int, str]:
    """The mark each seat's token and owner band carry: the first letter of the name, unless
    another player's name starts the same way (chat tables are often "Ann", "AI 1", "AI 2"…):
    then a name ending in a number keeps its letter and number ("A1", "A2"), any other its first
    two characters ("An", "张伟"), and if even that is shared, the letter and the seat ("A3").
    Colour is never the only cue, so no two players may share a mark."""
    clean = {s: "".join(printable(str(n or ""), lang).split()) for s, n in names.items()}
    first = {s: (c[:1].upper() or "?") for s, c in clean.items()}
    out = {}
    for seat, c in clean.items():
        if sum(1 for f in first.values() if f == first[seat]) == 1:
            out[seat] = first[seat]
            continue
        digits = re.search(r"[0-9]+$", c)
        out[seat] = first[seat] + digits.group() if digits and digits.start() > 0 else first[seat] + c[1:2]
    for seat in out:
        if sum(1 for m in out.values() if m == out[seat]) > 1:
            out[seat] = first[seat] + str(seat + 1)
    return out


def ink_for(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return BLACK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


def draw_check(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB, width: int = 3) -> None:
    """A check mark drawn with two strokes inside ``box`` (no emoji, no font needed)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw.line([(x0 + 0.08 * w, y0 + 0.55 * h), (x0 + 0.38 * w, y0 + 0.85 * h), (x0 + 0.92 * w, y0 + 0.15 * h)],
              fill=fill, width=width, joint="curve")


@lru_cache(maxsize=1024)
def printable(name: str, lang: str) -> str:
    """``name`` without the characters the font cannot draw (emoji in chat names, for example)."""
    missing = missing_glyphs(name, lang)
    if not missing:
        return name
    return " ".join("".join(ch for ch in name if ch not in missing).split())
