"""Where everything on the board picture lies, and the empty board under it (layer 1).

The board's sizes, type sizes and colours; the geometry of its squares and of the lane inside the
ring where the tokens stand; the squares' names shortened to fit them (``fit_name``); the empty
board, drawn once per rule set and language, with the layout of every square (``layout``: where
its name, price, owner, buildings and tokens go); and the few pieces drawn on more than one layer
(a house, a hotel, a mortgaged strip's hatching).

It is a module of its own so that the tokens and the centre panel (``render.board_centre``) and
the frame that draws them over the layers (``render.board``) both build on it without importing
each other. ``render/board.py``'s docstring describes the picture as a whole.
"""

from __future__ import annotations

import re
from functools import cache

from PIL import Image, ImageDraw

from engine.board.data import board
from render.common import Pen, Sprite, detail_size, first_fitting, fit, glance_size, unwrapped, width_of, wrap
from words import board_text
from words.i18n import normalise_lang, t

SIZE = 1040
CORNER = 133
EDGE = (SIZE - 2 * CORNER) // 9  # 86
BAND = 12  # the street's colour band, on the inner edge
STRIP = 31  # the price, or the owner's mark and the buildings: on the outer edge (top and bottom rows) or
# along the bottom of the square (left and right columns)
LANE = EDGE  # the lane inside the ring where tokens stand, in front of their square
PAD = 4
VISIT = 45  # the jail corner's "just visiting" strips (left and bottom), around the cell
JAIL_CELL = (VISIT, SIZE - CORNER, CORNER, SIZE - VISIT)
DETAIL = detail_size(SIZE)  # 24: the smallest type of the details (names, prices, marks)
TITLE = glance_size(SIZE)  # 35: the smallest type of the glance layer
TOKEN_R = 16  # a token in a lane cell: a 43 px cell holds it with its halo
TOKEN_MAX = 21  # largest token radius (on a corner)
HALO_W = 4  # the gold ring around the token of the player whose turn it is
BAND_VEIL = 100  # how much grey covers a mortgaged street's colour band (the rest of it: 170 of 255)
BG = (246, 241, 226)
CENTRE = (250, 247, 238)
LANE_FILL = (236, 229, 208)
LANE_LINE = (222, 212, 186)
LINE = (60, 60, 60)
INK = (30, 30, 30)
GREY = (100, 100, 100)
WHITE = (255, 255, 255)
DIM = (205, 205, 205)
TURN_FILL = (255, 243, 196)
TURN_EDGE = (222, 160, 0)
HALO = (255, 196, 0)
HOUSE = (40, 140, 70)
HOTEL = (190, 30, 40)
RED = (170, 0, 0)
JAIL_FILL = (225, 215, 195)
BARS = (196, 182, 152)
INNER = (CORNER, CORNER, SIZE - CORNER, SIZE - CORNER)  # the centre: the lane and the panel
PANEL = (CORNER + LANE, CORNER + LANE, SIZE - CORNER - LANE, SIZE - CORNER - LANE)  # the glance panel


def square_box(i: int) -> tuple[int, int, int, int]:
    """Where square ``i`` lies: GO bottom right, then clockwise to the left, up, right and down."""
    far = SIZE - CORNER
    if i == 0:
        return far, far, SIZE, SIZE
    if i < 10:
        x = far - i * EDGE
        return x, far, x + EDGE, SIZE
    if i == 10:
        return 0, far, CORNER, SIZE
    if i < 20:
        y = far - (i - 10) * EDGE
        return 0, y, CORNER, y + EDGE
    if i == 20:
        return 0, 0, CORNER, CORNER
    if i < 30:
        x = CORNER + (i - 21) * EDGE
        return x, 0, x + EDGE, CORNER
    if i == 30:
        return far, 0, SIZE, CORNER
    y = CORNER + (i - 31) * EDGE
    return far, y, SIZE, y + EDGE


def _side(i: int) -> str:
    return "bottom" if i < 10 else "left" if i < 20 else "top" if i < 30 else "right"


def _across(i: int) -> bool:
    """A square of the left or right column: wide and low."""
    return _side(i) in ("left", "right")


def _depth_box(i: int, a: int, b: int) -> tuple[int, int, int, int]:
    """The part of side square ``i`` from ``a`` to ``b`` px away from its inner edge (the edge
    that faces the centre), across its whole width; negative: inside the centre, in its lane."""
    x0, y0, x1, y1 = square_box(i)
    side = _side(i)
    if side == "bottom":
        return x0, y0 + a, x1, y0 + b
    if side == "top":
        return x0, y1 - b, x1, y1 - a
    if side == "left":
        return x1 - b, y0, x1 - a, y1
    return x0 + a, y0, x0 + b, y1


def band_box(i: int) -> tuple[int, int, int, int]:
    return _depth_box(i, 0, BAND)


def strip_box(i: int) -> tuple[int, int, int, int]:
    """The strip of side square ``i`` that shows its price or its owner and buildings."""
    if _across(i):
        x0, _, x1, _ = _depth_box(i, BAND, CORNER)
        y1 = square_box(i)[3]
        return x0, y1 - STRIP, x1, y1
    return _depth_box(i, CORNER - STRIP, CORNER)


def lane_box(i: int) -> tuple[int, int, int, int]:
    """The lane in front of side square ``i``: where its tokens stand."""
    return _depth_box(i, -LANE, 0)


def _hex(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))  # type: ignore[return-value]


def _shrink(box, d: int = PAD):
    x0, y0, x1, y1 = box
    return x0 + d, y0 + d, x1 - d, y1 - d


# -- names short enough for a square -------------------------------------------------------------

_EN_WORDS = (("Railway Station", "Stn"), ("Avenue", "Ave"), ("Railroad", "RR"), ("Station", "Stn"), ("Place", "Pl"),
             ("Gardens", "Gdns"), ("Company", "Co."), ("Community", "Comm."), ("Industrial", "Ind."),
             ("District", "Dist."), ("Mediterranean", "Medit."), ("Pennsylvania", "Penn."),
             ("Connecticut", "Conn."), ("North Carolina", "N. Carolina"), ("Just Visiting", "Visiting"))
_EN_DROP = (" Ave", " Pl")
_ZH_WORDS = (("宾夕法尼亚", "宾州"), ("賓夕法尼亞", "賓州"), ("北卡罗来纳", "北卡"), ("北卡羅來納", "北卡"),
             ("中央商务区", ""), ("中央商務區", ""))
_ZH_DROP = ("大道", "广场", "廣場")


def short_names(name: str, lang: str) -> list[str]:
    """``name``, then shorter forms of it for a narrow square: common abbreviations ("Ave", "RR",
    "Penn.", "宾州"), then without the street word ("Kentucky", "纽约")."""
    options = [name]
    table = _EN_WORDS if name.isascii() else _ZH_WORDS
    short = name
    for long, abbr in table:
        short = re.sub(rf"\b{re.escape(long)}\b" if name.isascii() else re.escape(long), abbr, short).strip()
    if short and short not in options:
        options.append(short)
    for suffix in _EN_DROP if name.isascii() else _ZH_DROP:
        if short.endswith(suffix) and len(short) >= len(suffix) + 2:
            options.append(short[: -len(suffix)].strip())
    return options


def fit_name(name: str, lang: str, width: float, height: float, sizes: tuple[int, ...] = (DETAIL + 2, DETAIL)
             ) -> tuple[int, list[str]]:
    """A size of ``sizes`` (never below the detail size) and the lines at which ``name`` or a
    shorter form of it fits ``width`` × ``height``, the best of them: in English the fewest words
    hyphenated ("Board-walk"), then the least shortened, the largest; in Chinese no more than two
    lines if a shorter form allows ("北卡大道", not "北卡罗/来纳大/道"), then the least shortened,
    the largest. Cut with "…" only when nothing fits. Lines are balanced ("社会/基金", not
    "社会基/金")."""
    options = short_names(name, lang)
    latin = name.isascii()
    best: tuple | None = None
    for k, option in enumerate(options):
        for size in sizes:
            most = max(1, int(height // (size + 2)))
            for hyphen in ((False, True) if latin else (False,)):
                lines = _fitting(option, size, lang, width, most, hyphen)
                if not lines:
                    continue
                hyphens = sum(line.endswith("-") for line in lines)
                score = (hyphens, k, -size) if latin else (max(0, len(lines) - 2), k, -size)
                if best is None or score < best[0]:
                    best = (score, size, lines, option, hyphen)
    if best is None:
        size = sizes[-1]
        return size, wrap(options[-1], size, lang, width, max(1, int(height // (size + 2))), hyphen=True)
    _, size, lines, option, hyphen = best
    lo, hi = width / 2, width  # the narrowest width that needs no more lines
    for _ in range(6):
        mid = (lo + hi) / 2
        narrower = _fitting(option, size, lang, mid, len(lines), hyphen)
        if narrower and len(narrower) == len(lines) and (sum(s.endswith("-") for s in narrower)
                                                         <= sum(s.endswith("-") for s in lines)):
            hi, lines = mid, narrower
        else:
            lo = mid
    return size, lines


def _fitting(text: str, size: int, lang: str, width: float, most: int, hyphen: bool) -> list[str] | None:
    """``text`` in at most ``most`` lines of ``width``, no word cut but at a hyphen; or None."""
    lines = wrap(text, size, lang, width, most, hyphen=hyphen)
    if not lines or lines[-1].endswith("…") or any(width_of(s, size, lang) > width for s in lines):
        return None
    if text.isascii() and unwrapped(lines) != " ".join(text.split()):
        return None
    return lines


# -- the empty board (layer 1) -------------------------------------------------------------------


def _price(b, i: int, sq: dict) -> int:
    return b.price[i] or (b.money["income_tax"] if sq.get("tax") == "income" else
                          b.money["luxury_tax"] if sq.get("tax") == "luxury" else 0)


def price_text(ruleset: str, amount: int, lang: str, width: float) -> str:
    """The price as the text shows it ("2,000元"), without its thousands separator if that
    is what fits a square ("2000元")."""
    text = board_text.money(ruleset, amount, lang)
    return first_fitting([text, text.replace(",", "")], DETAIL, lang, width)


def lane_cells(i: int) -> list[tuple[float, float]]:
    """Where the tokens of side square ``i`` stand, in order: the centres of the 43 px cells of
    its lane, those touching the square first. The lane in front of a square beside a corner is
    also in front of the corner's other neighbour: the square of the left or right column takes
    the column of cells along its edge (the cell away from the other square first), the square
    of the top or bottom row the other column."""
    x0, y0, _, _ = lane_box(i)
    h = LANE / 2
    side, k = _side(i), i % 10

    def cell(col: int, row: int) -> tuple[float, float]:
        return x0 + h * col + h / 2, y0 + h * row + h / 2

    if side in ("bottom", "top"):
        near = 1 if side == "bottom" else 0
        if k in (1, 9):
            partner_right = (side == "bottom") == (k == 1)
            col = 0 if partner_right else 1
            return [cell(col, near), cell(col, 1 - near)]
        return [cell(0, near), cell(1, near), cell(0, 1 - near), cell(1, 1 - near)]
    near = 0 if side == "left" else 1
    if k in (1, 9):
        partner_below = (side == "left") == (k == 1)
        return [cell(near, r) for r in ((0, 1) if partner_below else (1, 0))]
    return [cell(near, 0), cell(near, 1), cell(1 - near, 0), cell(1 - near, 1)]


@cache
def _base(ruleset: str, lang: str) -> tuple[Sprite, tuple[dict, ...]]:
    """The empty board for a rule set and language, and the layout of every square."""
    b = board(ruleset)
    img = Image.new("RGB", (SIZE, SIZE), BG)
    pen = Pen(img, lang)
    d = pen.draw
    _lane(d)
    layout = []
    for i, sq in enumerate(b.squares):
        box = square_box(i)
        d.rectangle(box, outline=LINE, width=1)
        street = sq["kind"] == "street"
        ownable = sq["kind"] in ("street", "station", "utility")
        price = _price(b, i, sq)
        part = {"index": i, "box": box, "band": None, "build": None, "owner": None, "strip": None, "labels": [],
                "price": None, "lane": None, "cells": []}
        name = board_text.square_name(ruleset, i, lang)
        if i % 10 == 0:
            layout.append(_corner(pen, part, i, name, lang))
            continue
        part["lane"] = lane_box(i)
        part["cells"] = lane_cells(i)
        part["tokens"] = part["lane"]
        if street:
            part["band"] = band_box(i)
            d.rectangle(part["band"], fill=_hex(b.group_colours[sq["group"]]), outline=LINE)
        if ownable or price:
            part["strip"] = strip_box(i)
        if ownable:
            part["owner"] = part["strip"]
            part["build"] = _build_box(part["strip"])
        inner = BAND if street else 0
        if _across(i):
            x0, y0, x1, y1 = _depth_box(i, inner, CORNER)
            content = (x0 + 2, y0 + 1, x1 - 2, (part["strip"][1] if part["strip"] else y1) - 1)
        else:  # the whole width: a name's side bearings keep its ink off the lines
            x0, y0, x1, y1 = _depth_box(i, inner, CORNER - (STRIP if part["strip"] else 0))
            content = (x0 + 1, y0 + 3, x1 - 1, y1 - 3)
        part["content"] = content
        cx0, cy0, cx1, cy1 = content
        size, lines = fit_name(name, lang, cx1 - cx0, cy1 - cy0)
        step = size + 2
        top = round((cy0 + cy1) / 2 - (step * len(lines) - 2) / 2)
        for k, line in enumerate(lines):
            part["labels"].append((line, pen.text(((cx0 + cx1) / 2, top + k * step), line, size, INK, anchor="mt")))
        if price:
            sx0, sy0, sx1, sy1 = part["strip"]
            text = price_text(ruleset, price, lang, sx1 - sx0 - 2 * PAD)
            box = pen.text(((sx0 + sx1) / 2, (sy0 + sy1) / 2 - 1), text, DETAIL, GREY, anchor="mm")
            part["labels"].append((text, box))
            part["price"] = box
        layout.append(part)
    return pen.sprite(), tuple(layout)


def _lane(d: ImageDraw.ImageDraw) -> None:
    """The lane inside the ring, the line between the two columns of its corners (each in front
    of one of the corner's neighbours), and the panel."""
    d.rectangle(INNER, fill=LANE_FILL)
    for cx, cy in ((CORNER, CORNER), (SIZE - CORNER, CORNER), (CORNER, SIZE - CORNER), (SIZE - CORNER, SIZE - CORNER)):
        mx = cx + (LANE / 2 if cx == CORNER else -LANE / 2)
        y0, y1 = sorted((cy, cy + (LANE if cy == CORNER else -LANE)))
        d.line((mx, y0 + 4, mx, y1 - 4), fill=LANE_LINE, width=2)
    d.rounded_rectangle(PANEL, radius=18, fill=CENTRE, outline=LANE_LINE, width=2)


def _corner(pen: Pen, part: dict, i: int, name: str, lang: str) -> dict:
    """A corner: its name on its outer side and room for tokens; the jail corner has its cell."""
    box = part["box"]
    x0, y0, x1, y1 = _shrink(box)
    bottom = i in (0, 10)
    if i == 10:  # in jail is apart from just visiting (B-09)
        part["cell"] = JAIL_CELL
        pen.draw.rectangle(JAIL_CELL, fill=JAIL_FILL, outline=LINE, width=2)
        cx0, cy0, cx1, cy1 = _shrink(JAIL_CELL)
        label = fit(t(lang, "render.board.jail"), DETAIL, lang, cx1 - cx0)
        part["labels"].append((label, pen.text(((cx0 + cx1) / 2, cy0), label, DETAIL, INK, anchor="mt")))
        part["tokens"] = (cx0, cy0 + DETAIL + 4, cx1, cy1)
        visiting = t(lang, "render.board.visiting")
        visiting = first_fitting([visiting, visiting.split()[-1].capitalize()], DETAIL, lang, CORNER - 2 * PAD)
        vy = (JAIL_CELL[3] + SIZE) / 2
        part["labels"].append((visiting, pen.text((CORNER / 2, vy), visiting, DETAIL, GREY, anchor="mm")))
        part["visiting"] = (box[0] + 2, box[1] + 2, VISIT - 2, JAIL_CELL[3] - 2)
        for k in range(1, 4):  # the cell's bars, behind the tokens
            bx = JAIL_CELL[0] + k * (JAIL_CELL[2] - JAIL_CELL[0]) / 4
            pen.draw.line((bx, cy0 + DETAIL + 6, bx, JAIL_CELL[3] - 3), fill=BARS, width=3)
        part["content"] = JAIL_CELL
        return part
    size, lines = fit_name(name, lang, x1 - x0, 2 * 32, sizes=(30, 28, 26, DETAIL))
    step = size + 2
    top = y1 - step * len(lines) if bottom else y0
    for k, line in enumerate(lines):
        part["labels"].append((line, pen.text(((x0 + x1) / 2, top + k * step), line, size, INK, anchor="mt")))
    part["tokens"] = (x0, y0, x1, top - 2) if bottom else (x0, top + step * len(lines) + 2, x1, y1)
    part["content"] = (x0, y0, x1, y1)
    return part


def layout(ruleset: str, lang: str) -> tuple[dict, ...]:
    """Every square's parts: ``box``; ``band``, ``strip`` (price or owner), ``owner`` (the strip of
    an ownable square), ``build`` (where its houses show) — None where absent; ``tokens`` (where its
    tokens stand: the lane in front of a side square, the corner itself), ``cells`` (the token
    spots of a side square) and ``labels`` (each text drawn with the box its ink covers)."""
    return _base(ruleset, normalise_lang(lang))[1]


# -- pieces drawn on more than one layer ---------------------------------------------------------
# (the ownership layer's plates and hatched strips, the panel's bank line and key)


def _build_box(strip: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Where an owned square's houses or hotel show: the right part of its strip."""
    x0, y0, x1, y1 = strip
    return x1 - 50, y0 + 3, x1 - 4, y1 - 3


def _house(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float = 1.0) -> None:
    """A house: green, pointed roof, 12 px wide (× ``s``)."""
    d.polygon([(cx - 6 * s, cy + 6 * s), (cx - 6 * s, cy - 1 * s), (cx, cy - 7 * s), (cx + 6 * s, cy - 1 * s),
               (cx + 6 * s, cy + 6 * s)], fill=HOUSE, outline=WHITE if s < 1.5 else INK)


def _hotel(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float = 1.0) -> None:
    """A hotel: red, wide, flat roof, white windows."""
    w, h = 14 * s, 7 * s
    d.rectangle((cx - w, cy - h, cx + w, cy + h), fill=HOTEL, outline=INK)
    for k in (-1, 0, 1):
        wx = cx + 8 * s * k
        d.rectangle((wx - 2, cy - 2, wx + 2, cy + 2), fill=WHITE)


@cache
def _hatch(size: tuple[int, int]) -> Image.Image:
    """The mask of a mortgaged strip's diagonal stripes."""
    w, h = size
    mask = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(mask)
    for x in range(-h, w, 10):
        d.line((x, h, x + h, 0), fill=255, width=3)
    return mask
