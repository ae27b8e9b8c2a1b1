"""The 地产大亨 board as a picture, drawn from a view (never from the raw state).

Read at two sizes (issue 18): in the chat preview (~300 px wide) a player sees whose turn it is,
where every token is and who owns what; opened full screen (1200 px) every name and price is
legible and inside its square. So each square is cut into fixed parts (``layout``): the colour
band and a strip for buildings on the inner edge, the name, a zone for tokens, the price, and the
owner band on the outer edge. Tokens are large discs with the player's mark (the player whose
turn it is has a gold halo); ownership is a flat band in the owner's colour with their mark,
so the two never look alike; houses and hotels stand in their own strip and never cover the
colour band; a mortgaged square is greyed out and says so (its colour band less, so that its
group still shows). Colours are colour-blind safe (``render.colours``) and always come with a
mark: the initial, or more where names start alike (``render.common.initials``: "AI 1", "AI 2").

Speed and size (budget ≤ 10 ms and ≤ 60 KB a turn): three layers. The empty board (squares,
bands, names, prices) is drawn once per rule set and language; the ownership layer (owners,
buildings, mortgages) once per distinct ownership, since most turns change none of it; each
frame copies that, adds tokens (cached sprites) and the centre panel. The PNG is 8-bit, on a fixed
palette (``render.png``): each ownership layer is mapped onto it once, and a frame maps only the
boxes it drew over the layer (the tokens and the centre), the same pixels for about half the time.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.board.data import board
from render.colours import PLAYER_COLOURS, player_colour
from render.common import Pen, Sprite, fit, ink_for, printable, text_mask, width_of, wrap
from render.common import initials as player_initials
from render.png import fixed_palette, to_palette
from words import board_text
from words.i18n import normalise_lang, t

SIZE = 1200
CORNER = 168
EDGE = (SIZE - 2 * CORNER) // 9  # 96
BAND = 20  # the street's colour band, on the inner edge
BUILD = 17  # the strip for houses and hotels, next to the band
OWNER = 18  # the owner band, on the outer edge
PAD = 4
VISIT = 46  # the jail corner's "just visiting" strip (left and bottom), around the cell
JAIL_CELL = (VISIT, SIZE - CORNER, CORNER, SIZE - VISIT)
TOKEN_MAX = 22  # largest token radius on a square
BAND_VEIL = 100  # how much grey covers a mortgaged street's colour band (the rest of it: 170 of 255)
MORTGAGE_LABEL = 19  # the height of the "mortgaged" label at the top of a square's token zone
HALO_W = 5  # the gold ring around the token of the player whose turn it is
BG = (246, 241, 226)
CENTRE = (250, 247, 238)
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
EVENT_LINES = 4  # the last few moves the centre shows (more would cost ~0.5 KB each of the 60 KB budget)
C0, C1 = CORNER + 20, SIZE - CORNER - 20  # the centre panel's left and right


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


def _depth_box(i: int, a: int, b: int) -> tuple[int, int, int, int]:
    """The part of side square ``i`` from ``a`` to ``b`` px away from its inner edge (the edge
    that faces the centre), across its whole width."""
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


def _hex(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))  # type: ignore[return-value]


def _shrink(box, d: int = PAD):
    x0, y0, x1, y1 = box
    return x0 + d, y0 + d, x1 - d, y1 - d


def _fit_name(name: str, lang: str, width: int, height: int, prefer_one: bool = False) -> tuple[int, list[str]]:
    """The largest size (17 down to 11 px) at which ``name`` fits ``width`` in as few lines as
    possible (two preferred, three if ``height`` allows; one first when ``prefer_one``) with no
    word broken, and those lines; a word too long even at 11 px is broken."""
    most = max(1, min(3, height // 16))
    tries = ([1] if prefer_one else []) + sorted({min(2, most), most})
    longest = max((width_of(w, 11, lang) for w in name.split()), default=0) if name.isascii() else 0
    for lines_allowed in tries:
        for size in (17, 16, 15, 14, 13, 12, 11):
            if lines_allowed * (size + 3) > height or (lines_allowed == 1 and prefer_one and size < 14):
                continue
            if longest and longest * size / 11 > width:  # an English word would be cut in two
                continue
            lines = wrap(name, size, lang, width, lines_allowed)
            if lines and not lines[-1].endswith("…"):
                return size, lines
    return 11, wrap(name, 11, lang, width, most)


# -- the empty board (layer 1) -------------------------------------------------------------------


def _price(b, i: int, sq: dict) -> int:
    return b.price[i] or (b.money["income_tax"] if sq.get("tax") == "income" else
                          b.money["luxury_tax"] if sq.get("tax") == "luxury" else 0)


@cache
def _base(ruleset: str, lang: str) -> tuple[Sprite, tuple[dict, ...]]:
    """The empty board for a rule set and language, and the layout of every square."""
    b = board(ruleset)
    img = Image.new("RGB", (SIZE, SIZE), BG)
    pen = Pen(img, lang)
    d = pen.draw
    d.rectangle((CORNER, CORNER, SIZE - CORNER, SIZE - CORNER), fill=CENTRE)
    layout = []
    for i, sq in enumerate(b.squares):
        box = square_box(i)
        d.rectangle(box, outline=LINE, width=1)
        street = sq["kind"] == "street"
        ownable = sq["kind"] in ("street", "station", "utility")
        part = {"index": i, "box": box, "band": None, "build": None, "owner": None, "labels": [], "price": None}
        if i % 10 == 0:  # a corner
            content = JAIL_CELL if i == 10 else _shrink(box)
        else:
            inner = BAND + BUILD if street else 0
            content = _shrink(_depth_box(i, inner, CORNER - (OWNER if ownable else 0)))
            if street:
                part["band"], part["build"] = band_box(i), _depth_box(i, BAND, BAND + BUILD)
                d.rectangle(part["band"], fill=_hex(b.group_colours[sq["group"]]), outline=LINE)
            if ownable:
                part["owner"] = _depth_box(i, CORNER - OWNER, CORNER)
        if i == 10:  # the jail corner: drawn below, with its cell
            layout.append(part)
            continue
        cx0, cy0, cx1, cy1 = content
        part["content"] = content
        price = _price(b, i, sq)
        price_h = 17 if price else 0
        name = board_text.square_name(ruleset, i, lang)
        big = i % 10 == 0
        across = _side(i) in ("left", "right") and not big  # wide and low: the price goes beside the tokens
        if big:
            size, lines = 20, wrap(name, 20, lang, cx1 - cx0, 2)
        else:
            size, lines = _fit_name(name, lang, cx1 - cx0, cy1 - cy0 - (0 if across else price_h) - 24, across)
        y = cy0
        for line in lines:
            part["labels"].append((line, pen.text(((cx0 + cx1) / 2, y), line, size, INK, anchor="mt")))
            y += size + 3
        right, bottom = cx1, cy1
        if price:
            text = fit(board_text.money(ruleset, price, lang), 14, lang, cx1 - cx0)
            if across:
                box = pen.text((cx1, cy1), text, 14, GREY, anchor="rd")
                right = box[0] - 2
            else:
                box = pen.text(((cx0 + cx1) / 2, cy1), text, 14, GREY, anchor="md")
                bottom = cy1 - price_h
            part["labels"].append((text, box))
            part["price"] = box
        part["tokens"] = (cx0, y + 1, right, bottom - 1)
        layout.append(part)
    # the jail cell: in jail is apart from just visiting (B-09)
    jail = layout[10]
    jail["cell"] = JAIL_CELL
    d.rectangle(JAIL_CELL, fill=(225, 215, 195), outline=LINE, width=2)
    name = board_text.square_name(ruleset, 10, lang)
    cx0, cy0, cx1, cy1 = _shrink(JAIL_CELL)
    y = cy0
    for line in wrap(name, 15, lang, cx1 - cx0, 2):
        jail["labels"].append((line, pen.text(((cx0 + cx1) / 2, y), line, 15, INK, anchor="mt")))
        y += 18
    jail["tokens"] = (cx0, y + 1, cx1, cy1)
    visiting = t(lang, "render.board.visiting")
    x0, y0, x1, y1 = square_box(10)
    visiting = fit(visiting, 13, lang, x1 - VISIT - 8)
    jail["labels"].append((visiting, pen.text(((VISIT + x1) / 2, y1 - VISIT / 2), visiting, 13, GREY, anchor="mm")))
    jail["visiting"] = (x0 + 2, y0 + 2, VISIT - 2, y1 - 2)
    return Sprite(img, tuple(pen.texts)), tuple(layout)


def layout(ruleset: str, lang: str) -> tuple[dict, ...]:
    """Every square's parts: ``box``, ``band``, ``build``, ``owner`` (None where absent),
    ``tokens`` (where tokens stand) and ``labels`` (each text drawn with the box its ink covers)."""
    return _base(ruleset, normalise_lang(lang))[1]


# -- owners, buildings, mortgages (layer 2) ------------------------------------------------------


def _house(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A house: green, pointed roof, 12 px wide."""
    d.polygon([(cx - 6, cy + 6), (cx - 6, cy - 1), (cx, cy - 7), (cx + 6, cy - 1), (cx + 6, cy + 6)], fill=HOUSE,
              outline=WHITE)


def _hotel(d: ImageDraw.ImageDraw, cx: float, cy: float, horizontal: bool) -> None:
    """A hotel: red, twice a house's length, flat roof, white windows."""
    w, h = (14, 6) if horizontal else (6, 14)
    d.rectangle((cx - w, cy - h, cx + w, cy + h), fill=HOTEL, outline=WHITE)
    for k in (-1, 0, 1):
        wx, wy = (cx + 8 * k, cy) if horizontal else (cx, cy + 8 * k)
        d.rectangle((wx - 1, wy - 1, wx + 1, wy + 1), fill=WHITE)


def buildings_boxes(i: int, houses: int) -> list[tuple[int, int, int, int]]:
    """Where the houses (or the hotel) of square ``i`` stand: inside its building strip."""
    x0, y0, x1, y1 = _depth_box(i, BAND, BAND + BUILD)
    horizontal = _side(i) in ("top", "bottom")
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if houses == 5:
        w, h = (14, 6) if horizontal else (6, 14)
        return [(round(cx - w), round(cy - h), round(cx + w), round(cy + h))]
    out = []
    for k in range(houses):
        off = (k - (houses - 1) / 2) * 18
        hx, hy = (cx + off, cy) if horizontal else (cx, cy + off)
        out.append((round(hx - 6), round(hy - 7), round(hx + 6), round(hy + 6)))
    return out


def mortgage_label_zone(part: dict) -> tuple[int, int, int, int]:
    """Where a mortgaged square says so: in its building strip when that runs across (a
    mortgaged street has no buildings), else at the top of its token zone (tokens stand below),
    across the whole square when the price (beside the tokens on the left and right columns)
    is lower down, so that the word is never cut short."""
    build = part["build"]
    if build and build[2] - build[0] > build[3] - build[1]:
        return build
    x0, y0, x1, _ = part["tokens"]
    price = part.get("price")
    if price and y0 + MORTGAGE_LABEL <= price[1]:
        x1 = part["content"][2]
    return x0, y0, x1, y0 + MORTGAGE_LABEL


_LAYER2: OrderedDict = OrderedDict()
LAYER2_KEPT = 4  # each is a 1200² RGB image (~5.8 MB); a turn that changes no ownership reuses one


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
        if mortgaged:  # greyed out: the whole square but its owner band; its colour band less so,
            x0, y0, x1, y1 = part["box"]  # so that the street's group can still be told
            img.paste(DIM, (x0 + 1, y0 + 1, x1, y1), _veil(x1 - x0 - 1, y1 - y0 - 1))
            if part["band"]:
                bx0, by0, bx1, by1 = part["band"]
                img.paste(base.image.crop((bx0 + 1, by0 + 1, bx1, by1)), (bx0 + 1, by0 + 1))
                img.paste(DIM, (bx0 + 1, by0 + 1, bx1, by1), _veil(bx1 - bx0 - 1, by1 - by0 - 1, BAND_VEIL))
            tx0, ty0, tx1, ty1 = mortgage_label_zone(part)
            label = fit(t(lang, "render.board.mortgaged"), 12, lang, tx1 - tx0 - 8)
            mask, _, _ = text_mask(label, 12, lang, "mm", True)
            mx, my = (tx0 + tx1) / 2, (ty0 + ty1) / 2
            d.rounded_rectangle((mx - mask.width / 2 - 4, my - 8, mx + mask.width / 2 + 4, my + 8), radius=4,
                                fill=RED)
            pen.text((mx, my), label, 12, WHITE, anchor="mm", bold=True)
        ob = part["owner"]
        d.rectangle(ob, fill=colour, outline=LINE)
        if ob[3] - ob[1] > ob[2] - ob[0] and len(initial) > 1:  # a standing band: one character a line
            for k, ch in enumerate(initial):
                cy = (ob[1] + ob[3]) / 2 + (k - (len(initial) - 1) / 2) * 14
                pen.text(((ob[0] + ob[2]) / 2, cy), ch, 12, ink_for(colour), anchor="mm", bold=True)
        else:
            pen.text(((ob[0] + ob[2]) / 2, (ob[1] + ob[3]) / 2), initial, 12, ink_for(colour), anchor="mm", bold=True)
        if houses:
            horizontal = _side(i) in ("top", "bottom")
            for bx0, by0, bx1, by1 in buildings_boxes(i, houses):
                cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
                if houses == 5:
                    _hotel(d, cx, cy, horizontal)
                else:
                    _house(d, cx, cy - 0.5)
    sprite = Sprite(img, tuple(pen.texts))
    _LAYER2[key] = sprite
    if len(_LAYER2) > LAYER2_KEPT:
        _LAYER2.popitem(last=False)
    return sprite


@cache
def _veil(w: int, h: int, strength: int = 170) -> Image.Image:
    return Image.new("L", (w, h), strength)


def veiled(colour: tuple[int, int, int], strength: int) -> tuple[int, int, int]:
    """``colour`` under the mortgage veil, exactly as ``paste`` blends it."""
    img = Image.new("RGB", (1, 1), colour)
    img.paste(DIM, (0, 0, 1, 1), _veil(1, 1, strength))
    return img.getpixel((0, 0))


# -- tokens and the centre (layer 3) -------------------------------------------------------------


@lru_cache(maxsize=256)
def pawn(seat: int, initial: str, r: int, current: bool) -> Image.Image:
    """A token: a disc in the player's colour with their initial, white ring, dark edge; the
    player whose turn it is wears a gold halo. Drawn at 4× and scaled down (smooth edges)."""
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
    size = round(r * 1.15) * k
    mask, dx, dy = text_mask(initial, size, "zh-Hans", "mm", True)
    room = 1.6 * (r - 2) * k  # a mark of two characters ("A2", "张伟") is set smaller to stay inside
    while mask.width > room and size > 6 * k:
        size = max(6 * k, int(size * room / mask.width))
        mask, dx, dy = text_mask(initial, size, "zh-Hans", "mm", True)
    big.paste(ink_for(colour) + (255,), (round(c + dx), round(c + dy)), mask)
    return big.resize((side, side), Image.Resampling.LANCZOS)


def token_spots(zone: tuple[float, float, float, float], count: int, column: bool = False, halo: bool = False):
    """``count`` token centres and their radius inside ``zone``, as large as fits (≤ TOKEN_MAX):
    the best of a grid of rows and columns or a diagonal line (two tokens in a low, wide zone
    are far bigger side by side on a slant)."""
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
    if 1 < count <= 3 and not column:  # on the diagonal, as large as the gaps allow
        lo, hi = 0.0, min(w, h) / 2
        for _ in range(20):
            r = (lo + hi) / 2
            if ((w - 2 * r) ** 2 + (h - 2 * r) ** 2) ** 0.5 / (count - 1) >= 2 * r:
                lo = r
            else:
                hi = r
        if lo > best[0]:
            best = (lo, [(x0 + lo + (w - 2 * lo) * k / (count - 1), y0 + lo + (h - 2 * lo) * k / (count - 1))
                         for k in range(count)])
    r_fit, spots = best
    return spots, max(6, min(TOKEN_MAX, int(r_fit) - 2))  # room for the dark edge and a pixel of air


def token_places(view: dict, ruleset: str, lang: str) -> dict[int, tuple[float, float, int]]:
    """Where each player still in the game stands: seat → (x, y, radius)."""
    parts = layout(ruleset, lang)
    at: dict[tuple[int, bool], list[int]] = {}
    for p in view["players"]:
        if not p["bankrupt"]:
            at.setdefault((p["position"], p["in_jail"] and p["position"] == 10), []).append(p["seat"])
    mortgaged = {sq["index"] for sq in view["squares"] if sq["mortgaged"]}
    out = {}
    for (square, jailed), seats in sorted(at.items()):
        part = parts[square]
        visiting = square == 10 and not jailed
        zone = part["visiting"] if visiting else part["tokens"]
        if square in mortgaged and mortgage_label_zone(part)[1] == zone[1]:  # below the "mortgaged" label
            zone = (zone[0], zone[1] + MORTGAGE_LABEL, zone[2], zone[3])
        halo = view["current"] in seats and view["stage"] != "over"
        spots, r = token_spots(zone, len(seats), column=visiting, halo=halo)
        for seat, (x, y) in zip(seats, spots, strict=True):
            out[seat] = (x, y, r)
    return out


def _paste_pawn(img: Image.Image, seat: int, initial: str, x: float, y: float, r: int,
                current: bool) -> tuple[int, int, int, int]:
    """Paste the token; returns the box it covers."""
    sprite = pawn(seat, initial, r, current)
    left, top = round(x - sprite.width / 2), round(y - sprite.height / 2)
    img.paste(sprite, (left, top), sprite)
    return max(0, left), max(0, top), min(img.width, left + sprite.width), min(img.height, top + sprite.height)


def _dice(d: ImageDraw.ImageDraw, dice: list[int], x: int, y: int, s: int = 56) -> None:
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    for k, value in enumerate(dice[:2]):
        x0 = x + k * (s + 12)
        d.rounded_rectangle((x0, y, x0 + s, y + s), radius=9, fill=WHITE, outline=LINE, width=2)
        step = s * 0.29
        for r, c in pips.get(value, []):
            cx, cy = x0 + s * 0.21 + c * step, y + s * 0.21 + r * step
            d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=INK)


def _centre(pen: Pen, view: dict, lang: str, names: dict[int, str], ruleset: str, initials: dict[int, str],
            clock: str | None, worth: dict[int, int] | None, events: list[str]) -> None:
    """Whose turn and the dice, every player's cash and net worth, the last moves, the bank."""
    d = pen.draw
    b = board(ruleset)
    y = CORNER + 18
    title = b.names.get(lang, b.names["en"])
    clock_w = 0
    if clock:
        box = pen.text((C1, y), t(lang, "render.board.clock", clock=clock), 28, RED, anchor="rt", bold=True)
        clock_w = box[2] - box[0] + 20
    pen.text((C0, y + 4), fit(title, 20, lang, C1 - C0 - clock_w), 20, GREY, anchor="lt")
    # the turn banner
    y = CORNER + 66
    over = view["stage"] == "over"
    d.rounded_rectangle((C0, y, C1, y + 84), radius=12, fill=TURN_FILL, outline=TURN_EDGE, width=3)
    dice = view.get("last_dice") or []
    dice_w = 2 * 62 + 12 if dice and not over else 0
    cur = view["current"]
    if over:
        winners = [names.get(s, str(s)) for s in view.get("winners") or []]
        text = t(lang, "render.board.over") + ("  ★ " + t(lang, "ui.list_sep").join(winners) if winners else "")
        pen.text((C0 + 24, y + 42), fit(text, 36, lang, C1 - C0 - 48), 36, INK, anchor="lm", bold=True)
    else:
        _paste_pawn(pen.image, cur, initials[cur], C0 + 48, y + 42, 28, True)
        text = t(lang, "render.board.turn", name=names.get(cur, str(cur)))
        pen.text((C0 + 92, y + 42), fit(text, 38, lang, C1 - C0 - 110 - dice_w), 38, INK, anchor="lm", bold=True)
        if dice:
            _dice(d, dice, C1 - dice_w - 8, y + 14)
    # the players
    y += 104
    cols = {"cash": C0 + 520, "worth": C0 + 690, "props": C1 - 12}
    for key, x in cols.items():
        pen.text((x, y + 8), t(lang, f"render.board.{key}"), 17, GREY, anchor="rm")
    y += 22
    order = [p for s in (view.get("order") or []) for p in view["players"] if p["seat"] == s] or view["players"]
    row = 44 if len(order) <= 6 else 38
    for p in order:
        seat = p["seat"]
        mid = y + row / 2
        gone = p["bankrupt"]
        if seat == cur and not over:
            d.rounded_rectangle((C0, y + 2, C1, y + row - 2), radius=8, fill=TURN_FILL)
        if not gone:
            _paste_pawn(pen.image, seat, initials[seat], C0 + 24, mid, 16, False)
        ink = GREY if gone else INK
        jail = f"  {t(lang, 'render.board.jail')}" if p["in_jail"] and not gone else ""
        name = fit(names.get(seat, str(seat)), 24, lang, cols["cash"] - 150 - C0 - 56 - (60 if jail else 0))
        box = pen.text((C0 + 52, mid), name, 24, ink, anchor="lm", bold=seat == cur and not over)
        if jail:
            pen.text((box[2] + 4, mid), jail.strip(), 17, RED, anchor="lm", bold=True)
        if gone:
            pen.text((cols["cash"], mid), "—", 22, GREY, anchor="rm")
        else:
            pen.text((cols["cash"], mid), board_text.money(ruleset, p["cash"], lang), 22, ink, anchor="rm")
            if worth and seat in worth:
                pen.text((cols["worth"], mid), board_text.money(ruleset, worth[seat], lang), 22, ink, anchor="rm")
            pen.text((cols["props"], mid), str(len(p["properties"])), 22, ink, anchor="rm")
        y += row
    # the last moves
    bank_y = SIZE - CORNER - 40
    y += 14
    room = min(EVENT_LINES, (bank_y - 16 - (y + 26)) // 27)
    lines = [printable(line, lang) for e in events for line in str(e).splitlines() if line.strip()]
    shown = lines[-room:] if room > 0 else []
    if shown:
        pen.text((C0, y + 8), t(lang, "render.board.events"), 17, GREY, anchor="lm")
        d.line((C0, y + 20, C1, y + 20), fill=DIM, width=1)
        y += 26
        for line in shown:
            pen.text((C0, y + 13), fit(line, 19, lang, C1 - C0), 19, INK, anchor="lm")
            y += 27
    # the bank's buildings
    d.line((C0, bank_y - 10, C1, bank_y - 10), fill=DIM, width=1)
    box = pen.text((C0, bank_y + 14), t(lang, "render.board.bank"), 20, GREY, anchor="lm")
    x = box[2] + 20
    _house(d, x + 6, bank_y + 14)
    box = pen.text((x + 18, bank_y + 14), f"× {view['bank_houses']}", 20, INK, anchor="lm")
    x = box[2] + 24
    _hotel(d, x + 14, bank_y + 14, True)
    pen.text((x + 34, bank_y + 14), f"× {view['bank_hotels']}", 20, INK, anchor="lm")


def _names(view: dict, names: dict[int, str], lang: str) -> dict[int, str]:
    out = {}
    for p in view["players"]:
        raw = names.get(p["seat"]) if names else None
        out[p["seat"]] = printable(str(raw), lang) if raw else t(lang, "ui.player_name", n=p["seat"] + 1)
    return out


def compose(view: dict, lang: str, names: dict[int, str], ruleset: str | None = None, clock: str | None = None,
            worth: dict[int, int] | None = None, events: list[str] | None = None) -> Pen:
    """The board in full colour (RGB) with every string drawn recorded on the returned pen."""
    return _compose(view, lang, names, ruleset, clock, worth, events)[0]


def _compose(view: dict, lang: str, names: dict[int, str], ruleset: str | None, clock: str | None,
             worth: dict[int, int] | None, events: list[str] | None) -> tuple[Pen, tuple, list[tuple]]:
    """``compose``, with the ownership layer's key and the boxes drawn over that layer (the
    tokens on the squares and the centre panel): every other pixel is the layer's."""
    ruleset = ruleset or view["ruleset"]
    lang = normalise_lang(lang)
    names = _names(view, names, lang)
    initials = player_initials(names, lang)
    owned = tuple((sq["index"], sq["owner"], initials.get(sq["owner"], "?"), sq["houses"], bool(sq["mortgaged"]))
                  for sq in view["squares"] if sq["owner"] >= 0)
    base, _ = _base(ruleset, lang)
    layer = _ownership(ruleset, lang, owned)
    pen = Pen(layer.image.copy(), lang)
    pen.texts.extend(base.texts)
    pen.texts.extend(layer.texts)
    current = view["current"] if view["stage"] != "over" else -1
    places = token_places(view, ruleset, lang)
    drawn = [INNER]
    for seat in sorted(places, key=lambda s: s != current):  # the halo first: neighbours may cover its edge
        x, y, r = places[seat]
        drawn.append(_paste_pawn(pen.image, seat, initials[seat], x, y, r, seat == current))
    pen.texts.extend(initials.values())
    _centre(pen, view, lang, names, ruleset, initials, clock, worth, list(events or []))
    return pen, (ruleset, lang, owned), drawn


# the centre panel, inside the squares: everything ``_centre`` draws lies in it
INNER = (CORNER, CORNER, SIZE - CORNER, SIZE - CORNER)


def render_board(view: dict, lang: str, names: dict[int, str], ruleset: str | None = None,
                 clock: str | None = None, worth: dict[int, int] | None = None,
                 events: list[str] | None = None) -> Image.Image:
    """The board for ``view`` as a palette image (``png_bytes`` writes it as an 8-bit PNG).

    ``clock``: the match clock's time left when one runs (B-17); ``worth``: each seat's net worth
    (the rules' valuation, B-17); ``events``: the last moves as lines in ``lang``, newest last.

    Only what the frame drew over the ownership layer (the tokens, the centre) is mapped onto the
    palette; the rest is the layer's own mapping, made once per ownership. Mapping is pixel by
    pixel (nearest colour, no dithering), so the picture is the same as mapping the whole frame,
    for about half the mapping's time."""
    pen, key, drawn = _compose(view, lang, names, ruleset, clock, worth, events)
    palette = _palette(key[0], key[1])
    out = _mapped_layer(key, palette).copy()
    for box in drawn:
        out.paste(to_palette(pen.image.crop(box), palette), box[:2])
    return out


_MAPPED: OrderedDict = OrderedDict()  # the ownership layers on the palette, kept as ``_LAYER2``


def _mapped_layer(key: tuple, palette: Image.Image) -> Image.Image:
    """The ownership layer ``key`` on the palette: the empty board's mapping (made once) with the
    owned squares mapped again, the only places ``_ownership`` draws on (a tenth of the picture
    early in a game, a third at most)."""
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
    keys = [BG, CENTRE, LINE, INK, GREY, WHITE, DIM, TURN_FILL, TURN_EDGE, HALO, HOUSE, HOTEL, RED, (0, 0, 0),
            *PLAYER_COLOURS, *bands, (225, 215, 195), veiled(BG, 170),
            *(veiled(c, BAND_VEIL) for c in bands)]  # a mortgaged band keeps its own colour, not a neighbour's
    sample = compose(_sample_view(ruleset), lang, {s: "ABCDEFGH"[s] for s in range(8)}, ruleset, "12:34",
                     {s: 1500 for s in range(8)}, ["A 3 + 5", "B ¥1,500"]).image
    return fixed_palette(keys, sample)
