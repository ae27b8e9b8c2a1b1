"""Small drawing helpers shared by the pictures: a pen that remembers what it wrote, text fitting.

Every string a picture shows goes through ``Pen.text`` (or arrives inside a cached ``Sprite``
that carries its own strings), so a test can ask a renderer for the exact texts it drew and check
that the font has a glyph for each character (no empty boxes in Chinese or in player names).

The pen also keeps each string's font size and its layer (``Pen.sizes``), so that a test can check
the pictures are readable on a phone (issue 45). A table picture is read at two sizes: in the chat
bubble (~330 px wide) a player takes in the *glance* layer (whose turn, the money, what just
happened), opened full screen (~390 px wide) the *details* (names, prices, owners, rents).
``glance_size`` and ``detail_size`` give the smallest font size, in the picture's own pixels, that
shows as 11 px in the bubble and as 9 px full screen.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.fonts import font, missing_glyphs

RGB = tuple[int, int, int]
ELLIPSIS = "…"
BLACK: RGB = (25, 25, 25)
WHITE: RGB = (255, 255, 255)
GLANCE, DETAIL = "glance", "detail"  # the two layers a picture is read in (see the module's note)
BUBBLE_W, FULL_W = 330, 390  # how wide a picture shows in the chat bubble and full screen (px)
GLANCE_PX, DETAIL_PX = 11, 9  # the smallest type read there


def glance_size(width: int) -> int:
    """The smallest font size (px of a picture ``width`` wide) that shows as 11 px in the bubble."""
    return math.ceil(GLANCE_PX * width / BUBBLE_W - 1e-9)


def detail_size(width: int) -> int:
    """The smallest font size (px of a picture ``width`` wide) that shows as 9 px full screen."""
    return math.ceil(DETAIL_PX * width / FULL_W - 1e-9)


Drawn = tuple[str, int, str]  # a string, its font size, its layer


class Sprite(NamedTuple):
    """A pre-drawn piece (a card face, a card strip) and the strings drawn on it (with their
    sizes and layers)."""

    image: Image.Image
    texts: tuple[str, ...]
    sizes: tuple[Drawn, ...] = ()


class Pen:
    """``ImageDraw`` plus a record of every string written or pasted in with a sprite: ``texts``
    (the strings) and ``sizes`` (each with its font size and layer)."""

    def __init__(self, image: Image.Image, lang: str) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.lang = lang
        self.texts: list[str] = []
        self.sizes: list[Drawn] = []

    def text(self, xy: tuple[float, float], s: str, size: int, fill: RGB = BLACK, anchor: str = "lm",
             bold: bool = False, layer: str = DETAIL) -> tuple[int, int, int, int]:
        """Write ``s`` with its ``anchor`` (Pillow's two-letter anchors) at ``xy``; returns the
        box its ink may cover (what layout tests check against the space it was given).
        ``layer``: ``GLANCE`` for what the chat bubble must show, else ``DETAIL``."""
        if not s:
            return (round(xy[0]), round(xy[1]), round(xy[0]), round(xy[1]))
        self.note(s, size, layer)
        mask, dx, dy = text_mask(s, size, self.lang, anchor, bold)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        self.image.paste(fill, (x, y), mask)
        return x, y, x + mask.width, y + mask.height

    def note(self, s: str, size: int, layer: str = DETAIL) -> None:
        """Record a string drawn some other way (a token's mark, drawn large and scaled down)."""
        self.texts.append(s)
        self.sizes.append((s, size, layer))

    def paste(self, sprite: Sprite, xy: tuple[int, int]) -> None:
        im = sprite.image
        self.image.paste(im, xy, im if im.mode == "RGBA" else None)
        self.texts.extend(sprite.texts)
        self.sizes.extend(sprite.sizes)

    def take(self, sprite: Sprite) -> None:
        """Record the strings of ``sprite`` (a layer this pen's image was copied from)."""
        self.texts.extend(sprite.texts)
        self.sizes.extend(sprite.sizes)

    def sprite(self) -> Sprite:
        return Sprite(self.image, tuple(self.texts), tuple(self.sizes))


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


# Text edges keep three coverage levels instead of 256 (none, half, full): they look the same at
# these sizes (the board's smallest type is 24 px), and the pictures' 8-bit palettes and PNG
# compression do much better (the board is ~7% fewer bytes than with five levels).
_COVERAGE = [0 if v < 64 else 128 if v < 192 else 255 for v in range(256)]


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


def wrap(s: str, size: int, lang: str, width: float, max_lines: int, hyphen: bool = False) -> list[str]:
    """``s`` broken into at most ``max_lines`` lines of at most ``width`` pixels (CJK anywhere,
    Latin at spaces, an over-long word by characters, with a hyphen where ``hyphen``); the last
    line ends with "…" if cut."""
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
        if hyphen and line.strip() and tok.strip().isalpha() and width_of(tok.strip(), size, lang) > width:
            head = _hyphen_cut(tok.strip(), size, lang, width - width_of(line, size, lang))
            if head:  # the start of the word on this line ("Mediter-"), the rest on the next
                lines.append(line + tok.strip()[:head] + "-")
                line = tok[head:]
                continue
        if line.strip():
            lines.append(line.rstrip())
        line = tok.lstrip()
        while width_of(line.rstrip(), size, lang) > width and len(line) > 1:  # a word longer than a line
            head = _hyphen_cut(line.rstrip(), size, lang, width) if hyphen else 0
            if head:
                lines.append(line[:head] + "-")
                line = line[head:]
                continue
            cut = len(line) - 1
            while cut > 1 and width_of(line[:cut], size, lang) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1].removesuffix("-"), size, lang, width, cut=True)
    return lines


_VOWELS = set("aeiouyAEIOUY")
_DIGRAPHS = ("ch", "sh", "th", "ph", "ck", "gh", "wh", "qu", "zh", "ng")  # never cut in two


def _hyphen_cut(word: str, size: int, lang: str, width: float) -> int:
    """How many letters of ``word`` go before a hyphen in ``width`` px (0: none), at least two
    before it and three after, between syllables as far as letters tell: between two consonants
    ("Ken-tucky", "Board-walk") or after a vowel before a consonant and a vowel ("Caro-lina")."""
    if not word.isalpha():
        return 0
    for head in range(len(word) - 3, 1, -1):
        a, b, c = word[head - 1], word[head], word[head + 1]
        between = a not in _VOWELS and b not in _VOWELS and (a + b).lower() not in _DIGRAPHS
        syllable = a in _VOWELS and b not in _VOWELS and c in _VOWELS
        if (between or syllable) and width_of(word[:head] + "-", size, lang) <= width:
            return head
    return 0


def unwrapped(lines: list[str]) -> str:
    """The text ``wrap`` broke into ``lines`` (hyphens at line ends taken out again)."""
    out = ""
    for line in lines:
        if out.endswith("-") and out[-2:-1].isalpha() and line[:1].isalpha():
            out = out[:-1] + line
        elif out and not (_is_wide(out[-1]) or _is_wide(line[:1])):
            out += " " + line
        else:
            out += line
    return out


_LOOK_ALIKE = str.maketrans({"I": "1", "|": "1", "O": "0", "Q": "0"})  # (marks are upper case: no "l")


def initials(names: dict[int, str], lang: str) -> dict[int, str]:
    """The mark each seat's token and owner band carry: one character where it can be, and no two
    seats alike, not even at a glance ("I" and "1", "O" and "0" count as the same).

    A name ending in a number is marked by that number ("AI 1" → "1", "电脑2" → "2"), any other
    by its first letter ("Alice" → "A", "张伟" → "张"). Where two seats would share a mark, the
    first keeps it and the next takes the next letter of its own name that is still free ("Al"
    → "A", "Alan" → "L"), else its seat number. Colour is never the only cue."""
    clean = {s: "".join(ch for ch in printable(str(n or ""), lang) if ch.isalnum()) for s, n in names.items()}

    def choices(seat: int) -> list[str]:
        c = clean[seat]
        number = re.search(r"[0-9]+$", c)
        out = [number.group()] if number and number.start() > 0 else []
        out += [ch.upper() for ch in c]
        return out + [str(seat + 1)] + [str(k) for k in range(1, 100)]

    def same(mark: str) -> str:
        return mark.upper().translate(_LOOK_ALIKE)

    wanted = {seat: choices(seat)[0] for seat in clean}
    out: dict[int, str] = {}
    for seat, mark in wanted.items():  # a first choice nobody else wants is kept
        if sum(1 for m in wanted.values() if same(m) == same(mark)) == 1:
            out[seat] = mark
    for seat in sorted(clean):
        if seat in out:
            continue
        taken = {same(m) for m in out.values()}
        out[seat] = next(m for m in choices(seat) if same(m) not in taken)
    return {seat: out[seat] for seat in names}


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
