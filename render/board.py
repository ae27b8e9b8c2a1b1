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

The code is in three modules: ``render.board_layout`` (sizes, colours, geometry, the names fitted
to the squares, the empty board and its ``layout``), ``render.board_centre`` (the tokens and the
glance panel, layer 3) and this one (the ownership layer, ``compose``, ``render_board`` and the
palette).
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from functools import cache

from PIL import Image

from engine.board.data import board
from render.board_centre import _centre, _paste_pawn, token_places
from render.board_layout import (
    BAND_VEIL,
    BARS,
    BG,
    CENTRE,
    CORNER,
    DETAIL,
    DIM,
    GREY,
    HALO,
    HALO_W,
    HOTEL,
    HOUSE,
    INK,
    JAIL_FILL,
    LANE_FILL,
    LANE_LINE,
    LINE,
    PANEL,
    RED,
    SIZE,
    TURN_EDGE,
    TURN_FILL,
    WHITE,
    _base,
    _build_box,
    _hatch,
    _hex,
    _hotel,
    _house,
    strip_box,
)
from render.colours import PLAYER_COLOURS, player_colour
from render.common import Pen, Sprite, ink_for, printable, width_of
from render.common import initials as player_initials
from render.png import fixed_palette, to_palette
from words.i18n import normalise_lang, t

# -- owners, buildings, mortgages (layer 2) ------------------------------------------------------


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


# -- a frame: the layers, then the centre and the tokens -----------------------------------------


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
