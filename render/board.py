"""The 地产大亨 board as a picture, drawn from a view (never from the raw state).

Read on a phone at two sizes (issues 18 and 46). In the chat bubble (~330 px wide) a player takes
in the *glance* layer, in large type in the middle of the board: whose turn it is and the dice,
every player's cash, and what just happened. Opened full screen (~390 px wide) the *details* are
legible: every square's name and price, who owns it and what stands on it. Every string is drawn
at a size that shows as at least 11 px in the bubble (glance) or 9 px full screen (details), see
``render.common.glance_size``/``detail_size``: long names are shortened ("Ave", "RR", "宾州") or
hyphenated over up to three lines, never set smaller.

The 1040 px square holds the ring of squares (corners 133 px, sides 86 px wide and 133 deep),
a lane inside the ring where the tokens stand, in front of their square, and the glance panel in
the middle. Each side square is cut into fixed parts (``layout``): the colour band on its inner
edge, the name, and a strip that shows the price until someone owns the square, then the owner's
mark on their colour and the houses or hotel (an icon and a count). A mortgaged square is
greyed out and its strip hatched (a key under the panel says so). Colours are colour-blind safe
(``render.colours``) and always come with a mark (``render.common.initials``: one character,
distinct for every seat: "A" for Alice, "1" for AI 1). Tokens are discs in the player's colour
with that mark (the player whose turn it is has a gold halo); two to four share a square's lane
in a grid, the squares beside a corner share theirs with the corner's other neighbour (a column
each, and only the one beside the lane's corner line when alone). A crowd too large for the
mark's size (three on a square beside a corner, five elsewhere, seven on a corner: the start of a
game of seven or eight) gets smaller discs without the mark rather than a mark too small to read;
the panel's rows show every player's disc with its mark and colour.

Speed and size (budget ≤ 10 ms and ≤ 60 KB a turn): three layers. The empty board (squares,
bands, names, prices, the lane, the empty panel) is drawn once per rule set and language; the
ownership layer (owners, buildings, mortgages) once per distinct ownership, since most turns change
none of it. A frame draws only the panel and the tokens, on a canvas of its thread's own, and maps
just those boxes onto the fixed palette (``render.png``) over the ownership layer's mapping (made
once). The PNG writer deflates the rows of the top and bottom squares once per ownership (they do
not change while no token stands on a corner) and the rows between at level 4: larger type is
more bytes, the rows it keeps buy the harder compression back (~45 KB a turn, 60 at most).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import OrderedDict
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.board.data import board
from render.colours import PLAYER_COLOURS, player_colour
from render.common import (
    GLANCE,
    Pen,
    Sprite,
    detail_size,
    first_fitting,
    fit,
    glance_size,
    ink_for,
    printable,
    text_mask,
    unwrapped,
    width_of,
    wrap,
)
from render.common import initials as player_initials
from render.png import fixed_palette, to_palette
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
BANNER = 42  # whose turn it is
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
EVENT_LINES = 4  # the last few moves the centre shows
INNER = (CORNER, CORNER, SIZE - CORNER, SIZE - CORNER)  # the centre: the lane and the panel
PANEL = (CORNER + LANE, CORNER + LANE, SIZE - CORNER - LANE, SIZE - CORNER - LANE)  # the glance panel
C0, C1 = PANEL[0] + 18, PANEL[2] - 18  # the panel's text, left and right


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


# -- owners, buildings, mortgages (layer 2) ------------------------------------------------------


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


def buildings_boxes(i: int, houses: int) -> list[tuple[int, int, int, int]]:
    """Where the houses (or the hotel) of square ``i`` show: one plate inside its strip, with a
    house and their number, or the hotel."""
    if not houses:
        return []
    return [_build_box(strip_box(i))]


def _buildings(pen: Pen, plate: tuple[int, int, int, int], houses: int) -> None:
    d = pen.draw
    x0, y0, x1, y1 = plate
    d.rounded_rectangle(plate, radius=5, fill=WHITE, outline=LINE)
    cy = (y0 + y1) / 2
    if houses == 5:
        _hotel(d, (x0 + x1) / 2, cy, 1.3)
        return
    _house(d, x0 + 12, cy, 1.5)
    pen.text((x1 - 5, cy), str(houses), DETAIL, INK, anchor="rm", bold=True)


@cache
def _hatch(size: tuple[int, int]) -> Image.Image:
    """The mask of a mortgaged strip's diagonal stripes."""
    w, h = size
    mask = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(mask)
    for x in range(-h, w, 10):
        d.line((x, h, x + h, 0), fill=255, width=3)
    return mask


_LAYER2: OrderedDict = OrderedDict()
LAYER2_KEPT = 4  # each is a 1040² RGB image (~3.2 MB); a turn that changes no ownership reuses one


def _ownership(ruleset: str, lang: str, squares: tuple) -> Sprite:
    """The empty board with owners, buildings and mortgages: kept for the last few ownerships."""
    key = (ruleset, lang, squares)
    found = _kept(_LAYER2, key)
    if found is not None:
        return found
    base, parts = _base(ruleset, lang)
    img = base.image.copy()
    pen = Pen(img, lang)
    d = pen.draw
    for i, owner, initial, houses, mortgaged in squares:
        part = parts[i]
        if part["owner"] is None:
            continue
        colour = player_colour(owner)
        ob = part["owner"]
        if mortgaged:  # greyed out: the whole square but its strip; its colour band less so,
            x0, y0, x1, y1 = part["box"]  # so that the street's group can still be told
            img.paste(DIM, (x0 + 1, y0 + 1, x1, y1), _veil(x1 - x0 - 1, y1 - y0 - 1))
            if part["band"]:
                bx0, by0, bx1, by1 = part["band"]
                img.paste(base.image.crop((bx0 + 1, by0 + 1, bx1, by1)), (bx0 + 1, by0 + 1))
                img.paste(DIM, (bx0 + 1, by0 + 1, bx1, by1), _veil(bx1 - bx0 - 1, by1 - by0 - 1, BAND_VEIL))
        d.rectangle(ob, fill=colour, outline=LINE)
        if mortgaged:  # the strip hatched white over the owner's colour, the mark on a plain chip
            w, h = ob[2] - ob[0] - 1, ob[3] - ob[1] - 1
            img.paste(WHITE, (ob[0] + 1, ob[1] + 1, ob[0] + 1 + w, ob[1] + 1 + h), _hatch((w, h)))
        mark_box = _mark_box(ob, initial)
        d.rounded_rectangle(mark_box, radius=5, fill=colour, outline=LINE if mortgaged else colour)
        pen.text(((mark_box[0] + mark_box[2]) / 2, (mark_box[1] + mark_box[3]) / 2), initial, DETAIL,
                 ink_for(colour), anchor="mm", bold=True)
        if houses:
            _buildings(pen, _build_box(ob), houses)
    sprite = pen.sprite()
    _LAYER2[key] = sprite
    if len(_LAYER2) > LAYER2_KEPT:
        _LAYER2.popitem(last=False)
    return sprite


def _mark_box(strip: tuple[int, int, int, int], initial: str) -> tuple[int, int, int, int]:
    """The chip of the owner's mark, at the left of the strip."""
    x0, y0, x1, y1 = strip
    w = max(26, round(width_of(initial, DETAIL, "zh-Hans")) + 8)
    return x0 + 3, y0 + 3, x0 + 3 + w, y1 - 3


@cache
def _veil(w: int, h: int, strength: int = 170) -> Image.Image:
    return Image.new("L", (w, h), strength)


def veiled(colour: tuple[int, int, int], strength: int) -> tuple[int, int, int]:
    """``colour`` under the mortgage veil, exactly as ``paste`` blends it."""
    img = Image.new("RGB", (1, 1), colour)
    img.paste(DIM, (0, 0, 1, 1), _veil(1, 1, strength))
    return img.getpixel((0, 0))


# -- tokens and the centre (layer 3) -------------------------------------------------------------


def mark_size(initial: str, r: int) -> int:
    """The size a token of radius ``r`` writes ``initial`` at: the detail size or more, or 0 when
    even the detail size does not fit inside the disc (a crowd of small tokens: colour alone
    would then tell them apart, so they are never made that small unless they must)."""
    size = max(DETAIL, round(r * 1.15))
    for s in (size, DETAIL):
        mask, _, _ = text_mask(initial, s * 4, "zh-Hans", "mm", True)
        if ((mask.width / 8) ** 2 + (mask.height / 8) ** 2) ** 0.5 <= r + 1:
            return s
    return 0


@lru_cache(maxsize=256)
def pawn(seat: int, initial: str, r: int, current: bool, size: int | None = None) -> Image.Image:
    """A token: a disc in the player's colour with their mark, white ring, dark edge; the
    player whose turn it is wears a gold halo. Drawn at 4× and scaled down (smooth edges).
    ``size``: the mark's size (0: no mark); by default about the disc's, smaller for two
    characters."""
    k = 4
    halo = HALO_W if current else 0
    side = 2 * (r + halo + 2)
    big = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = side * k / 2
    if current:
        rr = (r + halo + 1) * k
        d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=HALO, outline=INK, width=k)
    rr = (r + 1) * k
    d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=INK)
    rr = r * k
    d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=WHITE)
    rr = (r - 2) * k
    colour = player_colour(seat)
    d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=colour)
    if size is None:
        size = round(r * 1.15) * k
        mask, dx, dy = text_mask(initial, size, "zh-Hans", "mm", True)
        room = 1.6 * (r - 2) * k  # a mark of two characters ("A2", "张伟") is set smaller to stay inside
        while mask.width > room and size > 6 * k:
            size = max(6 * k, int(size * room / mask.width))
            mask, dx, dy = text_mask(initial, size, "zh-Hans", "mm", True)
    elif size:
        mask, dx, dy = text_mask(initial, size * k, "zh-Hans", "mm", True)
    if size:
        big.paste(ink_for(colour) + (255,), (round(c + dx), round(c + dy)), mask)
    return big.resize((side, side), Image.Resampling.LANCZOS)


def token_spots(zone: tuple[float, float, float, float], count: int, column: bool = False, halo: bool = False):
    """``count`` token centres and their radius inside ``zone``, as large as fits (≤ TOKEN_MAX):
    the best of a grid of rows and columns."""
    x0, y0, x1, y1 = zone
    if halo:  # the halo stays inside the zone; between tokens it may lie under a neighbour
        x0, y0, x1, y1 = x0 + HALO_W, y0 + HALO_W, x1 - HALO_W, y1 - HALO_W
    w, h = x1 - x0, y1 - y0
    best: tuple[float, list[tuple[float, float]]] = (0.0, [])
    for rows in ([count] if column else range(1, count + 1)):
        cols = -(-count // rows)
        r = min(w / cols, h / rows) / 2
        spots = []
        for k in range(count):
            row, col = divmod(k, cols)
            in_row = min(cols, count - row * cols)
            spots.append(((x0 + x1) / 2 + (col - (in_row - 1) / 2) * w / cols,
                          (y0 + y1) / 2 + (row - (rows - 1) / 2) * h / rows))
        if r > best[0]:
            best = (r, spots)
    r_fit, spots = best
    return spots, max(6, min(TOKEN_MAX, int(r_fit) - 2))  # room for the dark edge and a pixel of air


def _lane_spots(part: dict, count: int, halo: bool) -> tuple[list[tuple[float, float]], int]:
    """Where ``count`` tokens stand in the lane of a side square: one token a cell (a lone one
    in the middle of the row nearest the square), or a finer grid for a crowd (``halo``: one of
    them wears the halo)."""
    cells = part["cells"]
    if count <= len(cells):
        if len(cells) == 4 and count in (1, 3):  # a lone token (or the third) in the middle of its row
            (ax, ay), (bx, by) = cells[0], cells[1]
            mid = ((ax + bx) / 2, (ay + by) / 2)
            spots = [mid] if count == 1 else cells[:2] + [((cells[2][0] + cells[3][0]) / 2,
                                                            (cells[2][1] + cells[3][1]) / 2)]
            return spots, TOKEN_R
        return cells[:count], TOKEN_R
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    h = LANE / 4
    zone = (min(xs) - h, min(ys) - h, max(xs) + h, max(ys) + h)
    return token_spots(zone, count, halo=halo)


def token_places(view: dict, ruleset: str, lang: str) -> dict[int, tuple[float, float, int]]:
    """Where each player still in the game stands: seat → (x, y, radius)."""
    parts = layout(ruleset, lang)
    at: dict[tuple[int, bool], list[int]] = {}
    for p in view["players"]:
        if not p["bankrupt"]:
            at.setdefault((p["position"], p["in_jail"] and p["position"] == 10), []).append(p["seat"])
    out = {}
    current = view["current"] if view["stage"] != "over" else -1
    for (square, jailed), seats in sorted(at.items()):
        part = parts[square]
        seats = sorted(seats, key=lambda s: s != current)  # the halo in the first spot
        if square % 10:
            spots, r = _lane_spots(part, len(seats), current in seats)
        else:
            visiting = square == 10 and not jailed
            zone = part["visiting"] if visiting else part["tokens"]
            spots, r = token_spots(zone, len(seats), column=visiting, halo=current in seats)
        for seat, (x, y) in zip(seats, spots, strict=True):
            out[seat] = (x, y, r)
    return out


def _paste_pawn(pen: Pen, seat: int, initial: str, x: float, y: float, r: int,
                current: bool) -> tuple[int, int, int, int]:
    """Paste the token (its mark recorded on ``pen``); returns the box it covers."""
    size = mark_size(initial, r)
    sprite = pawn(seat, initial, r, current, size)
    if size:
        pen.note(initial, size)
    img = pen.image
    left, top = round(x - sprite.width / 2), round(y - sprite.height / 2)
    img.paste(sprite, (left, top), sprite)
    return max(0, left), max(0, top), min(img.width, left + sprite.width), min(img.height, top + sprite.height)


def _dice(d: ImageDraw.ImageDraw, dice: list[int], x: float, y: float, s: int = 46) -> None:
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    for k, value in enumerate(dice[:2]):
        x0 = x + k * (s + 8)
        d.rounded_rectangle((x0, y, x0 + s, y + s), radius=9, fill=WHITE, outline=LINE, width=2)
        step = s * 0.29
        for r, c in pips.get(value, []):
            cx, cy = x0 + s * 0.21 + c * step, y + s * 0.21 + r * step
            d.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=INK)


def _fit_glance(text: str, lang: str, width: float, sizes: tuple[int, ...]) -> tuple[str, int]:
    """``text`` at the largest of ``sizes`` at which it fits ``width``, else cut at the smallest."""
    for size in sizes:
        if width_of(text, size, lang) <= width:
            return text, size
    return fit(text, sizes[-1], lang, width), sizes[-1]


def _centre(pen: Pen, view: dict, lang: str, names: dict[int, str], ruleset: str, initials: dict[int, str],
            clock: str | None, worth: dict[int, int] | None, events: list[str], mortgaged: bool) -> None:
    """The glance panel: the clock, whose turn and the dice, every player's cash (their net worth
    beside it, smaller), the last moves; under them the bank's buildings and the key."""
    d = pen.draw
    px0, py0, px1, py1 = PANEL
    y = py0 + 14
    if clock:
        pen.text((C1, y), t(lang, "render.board.clock", clock=clock), TITLE, RED, anchor="rt", bold=True,
                 layer=GLANCE)
        y += TITLE + 10
    # the turn banner
    over = view["stage"] == "over"
    banner_h = 80
    d.rounded_rectangle((C0 - 6, y, C1 + 6, y + banner_h), radius=12, fill=TURN_FILL, outline=TURN_EDGE, width=3)
    mid = y + banner_h / 2
    dice = view.get("last_dice") or []
    dice_w = 2 * 46 + 8 + 8 if dice and not over else 0
    cur = view["current"]
    if over:
        winners = [names.get(s, str(s)) for s in view.get("winners") or []]
        text = t(lang, "render.board.over") + ("  ★ " + t(lang, "ui.list_sep").join(winners) if winners else "")
        text, size = _fit_glance(text, lang, C1 - C0 - 24, (BANNER, TITLE))
        pen.text((C0 + 12, mid), text, size, INK, anchor="lm", bold=True, layer=GLANCE)
    else:
        _paste_pawn(pen, cur, initials[cur], C0 + 28, mid, 24, True)
        text = t(lang, "render.board.turn", name=names.get(cur, str(cur)))
        text, size = _fit_glance(text, lang, C1 - C0 - 70 - dice_w, (BANNER, 38, TITLE))
        pen.text((C0 + 64, mid), text, size, INK, anchor="lm", bold=True, layer=GLANCE)
        if dice:
            _dice(d, dice, C1 - dice_w + 6, mid - 23)
    y += banner_h + 10
    # the players: cash in large type, net worth beside it
    order = [p for s in (view.get("order") or []) for p in view["players"] if p["seat"] == s] or view["players"]
    worth_x, cash_x = C1, C1 - (128 if worth else 0)
    if worth:
        pen.text((cash_x, y + DETAIL / 2), t(lang, "render.board.cash"), DETAIL, GREY, anchor="rm")
        pen.text((worth_x, y + DETAIL / 2), t(lang, "render.board.worth"), DETAIL, GREY, anchor="rm")
        y += DETAIL + 4
    row = 44 if len(order) <= 6 else 38
    for p in order:
        seat = p["seat"]
        mid = y + row / 2
        gone = p["bankrupt"]
        if seat == cur and not over:
            d.rounded_rectangle((C0 - 6, y + 2, C1 + 6, y + row - 2), radius=10, fill=TURN_FILL)
        if not gone:
            _paste_pawn(pen, seat, initials[seat], C0 + 17, mid, TOKEN_R, False)
        ink = GREY if gone else INK
        cash = "—" if gone else board_text.money(ruleset, p["cash"], lang)
        cash_w = width_of(cash, TITLE, lang)
        jail = t(lang, "render.board.jail") if p["in_jail"] and not gone else ""
        jail_w = width_of(jail, DETAIL, lang) + 10 if jail else 0
        name = fit(names.get(seat, str(seat)), TITLE, lang, cash_x - cash_w - 20 - (C0 + 42) - jail_w)
        box = pen.text((C0 + 42, mid), name, TITLE, ink, anchor="lm", bold=seat == cur and not over, layer=GLANCE)
        if jail:
            pen.text((box[2] + 8, mid), jail, DETAIL, RED, anchor="lm", bold=True)
        pen.text((cash_x, mid), cash, TITLE, GREY if gone else INK, anchor="rm", layer=GLANCE)
        if worth and seat in worth and not gone:
            pen.text((worth_x, mid), board_text.money(ruleset, worth[seat], lang), DETAIL, GREY, anchor="rm")
        y += row
    # the last moves, as many as there is room for
    bank_y = py1 - 30
    lines = [printable(line, lang) for e in events for line in str(e).splitlines() if line.strip()]
    step = TITLE + 7
    room = min(EVENT_LINES, int((bank_y - 22 - (y + 12)) // step))
    shown = lines[-room:] if room > 0 else []
    if shown:
        y += 8
        d.line((C0, y, C1, y), fill=DIM, width=2)
        y += 4
        for line in shown:
            pen.text((C0, y + step / 2), fit(line, TITLE, lang, C1 - C0), TITLE, INK, anchor="lm", layer=GLANCE)
            y += step
    # the bank's buildings, and the key to a mortgaged square's hatched strip
    d.line((C0, bank_y - 22, C1, bank_y - 22), fill=DIM, width=2)
    box = pen.text((C0, bank_y), t(lang, "render.board.bank"), DETAIL, GREY, anchor="lm")
    x = box[2] + 16
    _house(d, x + 9, bank_y, 1.4)
    box = pen.text((x + 21, bank_y), f"× {view['bank_houses']}", DETAIL, INK, anchor="lm")
    x = box[2] + 20
    _hotel(d, x + 16, bank_y, 1.1)
    box = pen.text((x + 35, bank_y), f"× {view['bank_hotels']}", DETAIL, INK, anchor="lm")
    if mortgaged:
        label = t(lang, "render.board.mortgaged")
        lw = width_of(label, DETAIL, lang)
        kx = C1 - lw - 38
        if kx > box[2] + 14:
            key = (round(kx), round(bank_y - 12), round(kx) + 30, round(bank_y + 12))
            d.rectangle(key, fill=GREY, outline=LINE)
            pen.image.paste(WHITE, (key[0] + 1, key[1] + 1, key[2], key[3]), _hatch((key[2] - key[0] - 1,
                                                                                    key[3] - key[1] - 1)))
            pen.text((C1, bank_y), label, DETAIL, INK, anchor="rm")


def _names(view: dict, names: dict[int, str], lang: str) -> dict[int, str]:
    out = {}
    for p in view["players"]:
        raw = names.get(p["seat"]) if names else None
        out[p["seat"]] = (printable(str(raw), lang) if raw else "") or t(lang, "ui.player_name", n=p["seat"] + 1)
    return out


def compose(view: dict, lang: str, names: dict[int, str], ruleset: str | None = None, clock: str | None = None,
            worth: dict[int, int] | None = None, events: list[str] | None = None) -> Pen:
    """The board in full colour (RGB) with every string drawn recorded on the returned pen (its
    ``sizes``: each with its font size and layer)."""
    frame = _Frame(view, lang, names, ruleset)
    pen = Pen(frame.layer.image.copy(), frame.lang)
    pen.take(frame.base)
    pen.take(frame.layer)
    frame.draw(pen, view, clock, worth, events)
    return pen


class _Frame:
    """What a frame of ``view`` is drawn from: the names and marks, and the layers under it."""

    def __init__(self, view: dict, lang: str, names: dict[int, str], ruleset: str | None) -> None:
        self.ruleset = ruleset or view["ruleset"]
        self.lang = normalise_lang(lang)
        self.names = _names(view, names, self.lang)
        self.initials = player_initials(self.names, self.lang)
        self.owned = tuple((sq["index"], sq["owner"], self.initials.get(sq["owner"], "?"), sq["houses"],
                            bool(sq["mortgaged"])) for sq in view["squares"] if sq["owner"] >= 0)
        self.key = (self.ruleset, self.lang, self.owned)
        self.base = _base(self.ruleset, self.lang)[0]
        self.layer = _ownership(self.ruleset, self.lang, self.owned)
        self.current = view["current"] if view["stage"] != "over" else -1
        self.tokens = [(seat, *place) for seat, place in sorted(token_places(view, self.ruleset, self.lang).items(),
                                                               key=lambda item: item[0] != self.current)]

    def token_boxes(self) -> list[tuple[int, int, int, int]]:
        return [_pawn_box(x, y, r, seat == self.current) for seat, x, y, r in self.tokens]

    def draw(self, pen: Pen, view: dict, clock: str | None, worth: dict[int, int] | None,
             events: list[str] | None) -> None:
        """The centre panel, then the tokens (the halo first: neighbours may cover its edge)."""
        _centre(pen, view, self.lang, self.names, self.ruleset, self.initials, clock, worth, list(events or []),
                any(m for *_, m in self.owned))
        for seat, x, y, r in self.tokens:
            _paste_pawn(pen, seat, self.initials[seat], x, y, r, seat == self.current)


def _pawn_box(x: float, y: float, r: int, current: bool) -> tuple[int, int, int, int]:
    """The box a token's sprite covers (as ``_paste_pawn`` pastes it)."""
    side = 2 * (r + (HALO_W if current else 0) + 2)
    left, top = round(x - side / 2), round(y - side / 2)
    return max(0, left), max(0, top), min(SIZE, left + side), min(SIZE, top + side)


_SCRATCH = threading.local()  # each thread's RGB canvas for the parts a frame draws


def render_board(view: dict, lang: str, names: dict[int, str], ruleset: str | None = None,
                 clock: str | None = None, worth: dict[int, int] | None = None,
                 events: list[str] | None = None) -> Image.Image:
    """The board for ``view`` as a palette image (``png_bytes`` writes it as an 8-bit PNG).

    ``clock``: the match clock's time left when one runs (B-17); ``worth``: each seat's net worth
    (the rules' valuation, B-17); ``events``: the last moves as lines in ``lang``, newest last.

    A frame draws only the panel and the tokens. They are drawn on a canvas of the thread's own,
    over the pixels of the layers there (the empty panel, the ownership layer under each token),
    and only those boxes are mapped onto the palette, over the ownership layer mapped once. Mapping
    is pixel by pixel (nearest colour, no dithering), so the picture is the same as ``compose``'s
    mapped whole, for a fraction of the copying and mapping."""
    frame = _Frame(view, lang, names, ruleset)
    canvas = getattr(_SCRATCH, "image", None)
    if canvas is None:
        canvas = _SCRATCH.image = Image.new("RGB", (SIZE, SIZE), BG)
    boxes = frame.token_boxes()
    for box in boxes:
        canvas.paste(frame.layer.image.crop(box), box[:2])
    canvas.paste(_empty_panel(frame.ruleset, frame.lang), PANEL[:2])
    frame.draw(Pen(canvas, frame.lang), view, clock, worth, events)
    palette = _palette(frame.ruleset, frame.lang)
    out = _mapped_layer(frame.key, palette).copy()
    for box in [PANEL, *boxes]:
        out.paste(to_palette(canvas.crop(box), palette), box[:2])
    # the top and bottom rows of squares are the ownership layer's, unless a token stands there
    # (on a corner): ``png_bytes`` deflates those rows once for the ownership (render/png.py)
    bands = [(0, CORNER - 4), (SIZE - CORNER + 4, SIZE)]
    out.info["static_rows"] = [(y0, y1, ("board", *frame.key)) for y0, y1 in bands
                               if not any(b[1] < y1 and y0 < b[3] for b in boxes)]
    out.info["deflate_level"] = 4  # the rows in between: 8% fewer bytes for ~0.8 ms

    return out


@cache
def _empty_panel(ruleset: str, lang: str) -> Image.Image:
    return _base(ruleset, lang)[0].image.crop(PANEL)


_MAPPED: OrderedDict = OrderedDict()  # the ownership layers on the palette, kept as ``_LAYER2``


def _mapped_layer(key: tuple, palette: Image.Image) -> Image.Image:
    """The ownership layer ``key`` on the palette: the empty board's mapping (made once) with the
    owned squares mapped again, the only places ``_ownership`` draws on."""
    found = _kept(_MAPPED, key)
    if found is not None:
        return found
    ruleset, lang, squares = key
    layer = _ownership(ruleset, lang, squares).image
    parts = _base(ruleset, lang)[1]
    mapped = _mapped_base(ruleset, lang).copy()
    for i, *_ in squares:
        box = parts[i]["box"]
        mapped.paste(to_palette(layer.crop(box), palette), box[:2])
    _MAPPED[key] = mapped
    if len(_MAPPED) > LAYER2_KEPT:
        _MAPPED.popitem(last=False)
    return mapped


def _kept(kept: OrderedDict, key):
    """``kept[key]`` marked as the latest used, or None. Pictures are drawn in several threads at
    once: another may evict the entry between the look-up and the move, which is then a miss."""
    found = kept.get(key)
    if found is not None:
        with contextlib.suppress(KeyError):
            kept.move_to_end(key)
    return found


@cache
def _mapped_base(ruleset: str, lang: str) -> Image.Image:
    return to_palette(_base(ruleset, lang)[0].image, _palette(ruleset, lang))


def texts_drawn(view: dict, lang: str, names: dict[int, str], ruleset: str | None = None, clock: str | None = None,
                worth: dict[int, int] | None = None, events: list[str] | None = None) -> list[str]:
    """Every string the board picture draws (for the missing-glyph check)."""
    return compose(view, lang, names, ruleset, clock, worth, events).texts


def _sample_view(ruleset: str) -> dict:
    """A made-up board with every kind of mark on it, for choosing the palette."""
    b = board(ruleset)
    ownable = [i for i, sq in enumerate(b.squares) if sq["kind"] in ("street", "station", "utility")]
    squares = [{"index": i, "owner": k % len(PLAYER_COLOURS), "mortgaged": k % 7 == 3,
                "houses": k % 6 if b.squares[i]["kind"] == "street" else 0} for k, i in enumerate(ownable)]
    players = [{"seat": s, "cash": 1500, "position": (s * 5) % 40, "in_jail": s == 2, "bankrupt": False,
                "properties": []} for s in range(len(PLAYER_COLOURS))]
    return {"ruleset": ruleset, "current": 0, "stage": "roll", "last_dice": [3, 5], "order": list(range(8)),
            "players": players, "squares": squares, "bank_houses": 32, "bank_hotels": 12, "winners": []}


@cache
def _palette(ruleset: str, lang: str) -> Image.Image:
    b = board(ruleset)
    bands = [_hex(c) for c in b.group_colours.values()]
    keys = [BG, CENTRE, LANE_FILL, LANE_LINE, LINE, INK, GREY, WHITE, DIM, TURN_FILL, TURN_EDGE, HALO, HOUSE, HOTEL,
            RED, (0, 0, 0), *PLAYER_COLOURS, *bands, JAIL_FILL, BARS, veiled(BG, 170),
            *(veiled(c, BAND_VEIL) for c in bands)]  # a mortgaged band keeps its own colour, not a neighbour's
    sample = compose(_sample_view(ruleset), lang, {s: "ABCDEFGH"[s] for s in range(8)}, ruleset, "12:34",
                     {s: 1500 for s in range(8)}, ["A 3 + 5", "B ¥1,500"]).image
    return fixed_palette(keys, sample)
