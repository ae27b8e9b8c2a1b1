"""The 地产大亨 board as a picture, drawn from a view (never from the raw state).

The empty board (squares, colour bands, names and prices in the chat's language) is drawn once
per rule set and language and cached; each snapshot copies it and adds what changes: owners,
houses and hotels, mortgages, tokens (in jail apart from just visiting), the last dice and a
side panel with every player's cash, property count and whose turn it is. Players are told apart
by colour *and* by shape and initial, for colour-blind readers. Upright text only: it stays
readable on a phone at Telegram's photo size (1000 × 1000).
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from engine.board.data import board
from render.fonts import font
from words import board_text

SIZE = 1000
CORNER = 131
EDGE = (SIZE - 2 * CORNER) // 9  # 82
BAND = 18
JAIL_CELL = (44, SIZE - CORNER + 26, CORNER, SIZE - 26)  # in jail: inside; just visiting: around it
BG = (246, 241, 226)
LINE = (60, 60, 60)
INK = (30, 30, 30)
PLAYER_COLOURS = [(220, 50, 47), (38, 139, 210), (133, 153, 0), (211, 54, 130), (181, 137, 0),
                  (42, 161, 152), (108, 113, 196), (203, 75, 22)]
SHAPES = ["circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross"]
WORDS = {  # the few words the picture itself needs
    "zh-Hans": {"mortgaged": "抵押", "props": "地产 {n}", "jail": "坐牢", "bank": "银行：房子 {h}，酒店 {H}"},
    "zh-Hant": {"mortgaged": "抵押", "props": "地產 {n}", "jail": "坐牢", "bank": "銀行：房子 {h}，酒店 {H}"},
    "en": {"mortgaged": "MORTG.", "props": "{n} props", "jail": "in jail", "bank": "Bank: {h} houses, {H} hotels"},
}


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


def band_box(i: int) -> tuple[int, int, int, int]:
    """The colour band sits on the inner edge of a street."""
    x0, y0, x1, y1 = square_box(i)
    side = _side(i)
    if side == "bottom":
        return x0, y0, x1, y0 + BAND
    if side == "top":
        return x0, y1 - BAND, x1, y1
    if side == "left":
        return x1 - BAND, y0, x1, y1
    return x0, y0, x0 + BAND, y1


def _hex(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))  # type: ignore[return-value]


def _fit(draw: ImageDraw.ImageDraw, text: str, lang: str, width: int, lines: int):
    """The largest of 13, 12 and 11 px at which ``text`` fits in ``lines`` lines, and those lines."""
    for size in (13, 12, 11):
        f = font(size, lang)
        wrapped = _wrap(draw, text, f, width, lines)
        if all(draw.textlength(line, font=f) <= width for line in wrapped) and not wrapped[-1].endswith("…"):
            return f, wrapped
    return f, wrapped


def _wrap(draw: ImageDraw.ImageDraw, text: str, f, width: int, lines: int) -> list[str]:
    """Break ``text`` into at most ``lines`` lines that fit ``width``: English between words,
    Chinese between any two characters."""
    out: list[str] = []
    latin = text.isascii()
    words = text.split(" ") if latin else list(text)
    joiner = " " if latin else ""
    current = ""
    for w in words:
        trial = f"{current}{joiner}{w}" if current else w
        if draw.textlength(trial, font=f) <= width:
            current = trial
        else:
            out.append(current)
            current = w
    out.append(current)
    if len(out) > lines:
        out = out[:lines]
        while out[-1] and draw.textlength(out[-1] + "…", font=f) > width:
            out[-1] = out[-1][:-1]
        out[-1] += "…"
    return out


@cache
def base(ruleset: str, lang: str) -> Image.Image:
    """The empty board for a rule set and language (cached: it never changes)."""
    b = board(ruleset)
    img = Image.new("RGB", (SIZE, SIZE), BG)
    d = ImageDraw.Draw(img)
    price_font = font(12, lang)
    for i, sq in enumerate(b.squares):
        x0, y0, x1, y1 = square_box(i)
        d.rectangle((x0, y0, x1, y1), outline=LINE, width=1)
        group = sq.get("group")
        if sq["kind"] == "street":
            d.rectangle(band_box(i), fill=_hex(b.group_colours[group]), outline=LINE)
        name = board_text.square_name(ruleset, i, lang)
        bx0, by0, bx1, by1 = band_box(i) if sq["kind"] == "street" else (x0, y0, x0, y0)
        top = by1 + 3 if _side(i) == "bottom" and sq["kind"] == "street" else y0 + 4
        left = bx1 + 3 if _side(i) == "right" and sq["kind"] == "street" else x0 + 4
        right = bx0 - 3 if _side(i) == "left" and sq["kind"] == "street" else x1 - 4
        width = max(20, right - left)
        if i == 10:  # the jail corner: its name under the cell
            top = y1 - 22
        name_font, lines = _fit(d, name, lang, width, 1 if i == 10 else 3)
        for k, line in enumerate(lines):
            d.text((left + (width - d.textlength(line, font=name_font)) / 2, top + 15 * k), line,
                   font=name_font, fill=INK)
        price = b.price[i] or (b.money["income_tax"] if sq.get("tax") == "income" else
                               b.money["luxury_tax"] if sq.get("tax") == "luxury" else 0)
        if price:
            text = board_text.money(ruleset, price, lang)
            bottom = (by0 - 16) if _side(i) == "top" and sq["kind"] == "street" else y1 - 17
            d.text((left + (width - d.textlength(text, font=price_font)) / 2, bottom), text, font=price_font,
                   fill=(90, 90, 90))
    # the jail cell inside the corner: in jail is apart from just visiting (B-09)
    d.rectangle(JAIL_CELL, outline=LINE, width=2, fill=(225, 215, 195))
    title = b.names.get(lang, b.names["en"])
    d.text((CORNER + 20, CORNER + 16), title, font=font(22, lang), fill=INK)
    return img


@cache
def _hatch(w: int, h: int) -> Image.Image:
    """A mask of diagonal stripes for a mortgaged square, clipped to the square."""
    mask = Image.new("L", (w, h), 0)
    dm = ImageDraw.Draw(mask)
    for k in range(-h, w, 10):
        dm.line((k, h, k + h, 0), fill=110, width=1)
    return mask


def _shape(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill, outline=(255, 255, 255)):
    if kind == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif kind == "square":
        d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    else:
        sides = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6, "star": 5, "cross": 4}[kind]
        rotation = {"diamond": 0, "cross": 45}.get(kind, 90)
        d.regular_polygon((cx, cy, r * 1.15), sides, rotation=rotation, fill=fill, outline=outline, width=2)


def _token(d: ImageDraw.ImageDraw, seat: int, name: str, cx: float, cy: float, r: float) -> None:
    colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    _shape(d, SHAPES[seat % len(SHAPES)], cx, cy, r, colour)
    initial = (name or "?")[0]
    f = font(int(r * 1.2), "zh-Hans")
    d.text((cx - d.textlength(initial, font=f) / 2, cy - r * 0.78), initial, font=f, fill=(255, 255, 255))


def _spots(i: int, count: int, in_jail: bool) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = square_box(i)
    if i == 10 and in_jail:
        x0, y0, x1, y1 = JAIL_CELL
    elif i == 10:  # just visiting: the strip left of the cell
        return [(22, SIZE - CORNER + 40 + k * 22) for k in range(count)]
    cols = 2 if count > 1 else 1
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 8
    out = []
    for k in range(count):
        row, col = divmod(k, cols)
        out.append((cx + (col - (cols - 1) / 2) * 22, cy + (row - (count - 1) // cols / 2) * 22))
    return out


def render_board(view: dict, lang: str, names: dict[int, str], ruleset: str | None = None,
                 clock: str | None = None) -> Image.Image:
    """The board for ``view``; ``clock`` is the match clock's remaining time when one runs (B-17)."""
    ruleset = ruleset or view["ruleset"]
    img = base(ruleset, lang).copy()
    d = ImageDraw.Draw(img)
    small = font(12, lang)
    for sq in view["squares"]:
        i, owner = sq["index"], sq["owner"]
        if owner < 0:
            continue
        x0, y0, x1, y1 = square_box(i)
        colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
        side = _side(i)
        # the owner's mark: a frame in their colour and their shape with their initial in a corner
        d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=colour, width=3)
        mx = x1 - 12 if side != "right" else x1 - 12
        my = y1 - 30 if side != "top" else y1 - 30 - BAND
        _token(d, owner, names.get(owner, ""), mx, my, 7)
        if sq["mortgaged"]:
            img.paste((150, 150, 150), (x0, y0, x1, y1), _hatch(x1 - x0, y1 - y0))
            label = WORDS[lang]["mortgaged"]
            d.text((x0 + 5, (y0 + y1) / 2 - 2), label, font=small, fill=(170, 0, 0))
        houses = sq["houses"]
        if houses:
            bx0, by0, bx1, by1 = band_box(i)
            if houses == 5:
                d.rectangle((bx0 + 4, by0 + 3, bx1 - 4, by1 - 3), fill=(200, 30, 30), outline=(255, 255, 255))
            else:
                horizontal = side in ("top", "bottom")
                for k in range(houses):
                    if horizontal:
                        hx = bx0 + 5 + k * 18
                        d.rectangle((hx, by0 + 3, hx + 12, by1 - 3), fill=(30, 140, 60), outline=(255, 255, 255))
                    else:
                        hy = by0 + 5 + k * 18
                        d.rectangle((bx0 + 3, hy, bx1 - 3, hy + 12), fill=(30, 140, 60), outline=(255, 255, 255))
    # tokens
    at: dict[tuple[int, bool], list[int]] = {}
    for p in view["players"]:
        if not p["bankrupt"]:
            at.setdefault((p["position"], p["in_jail"]), []).append(p["seat"])
    for (square, jailed), seats in at.items():
        for seat, (cx, cy) in zip(seats, _spots(square, len(seats), jailed), strict=True):
            _token(d, seat, names.get(seat, ""), cx, cy, 9)
    _panel(d, view, lang, names, ruleset)
    if clock:
        f = font(26, lang)
        d.text((SIZE - CORNER - 24 - d.textlength(clock, font=f), CORNER + 16), clock, font=f, fill=(170, 0, 0))
    return img


def _panel(d: ImageDraw.ImageDraw, view: dict, lang: str, names: dict[int, str], ruleset: str) -> None:
    """Players, cash, properties, turn and dice, in the middle of the board."""
    x, y = CORNER + 24, CORNER + 64
    line = font(20, lang)
    small = font(16, lang)
    current = view["current"]
    for p in view["players"]:
        seat = p["seat"]
        if seat == current and view["stage"] != "over":
            d.rectangle((x - 10, y - 4, SIZE - CORNER - 24, y + 30), fill=(255, 250, 205), outline=(200, 180, 60))
        _token(d, seat, names.get(seat, ""), x + 10, y + 13, 11)
        name = names.get(seat, str(seat))
        d.text((x + 30, y), name, font=line, fill=INK if not p["bankrupt"] else (150, 150, 150))
        words = WORDS[lang]
        info = f"{board_text.money(ruleset, p['cash'], lang)}    {words['props'].format(n=len(p['properties']))}"
        if p["in_jail"]:
            info += f"    {words['jail']}"
        if p["bankrupt"]:
            info = "—"
        d.text((x + 250, y + 3), info, font=small, fill=INK)
        y += 40
    dice = view.get("last_dice") or []
    if dice:
        _dice(d, dice, SIZE // 2 - 60, SIZE - CORNER - 110)
    bank = WORDS[lang]["bank"].format(h=view["bank_houses"], H=view["bank_hotels"])
    d.text((CORNER + 24, SIZE - CORNER - 40), bank, font=small, fill=INK)


def _dice(d: ImageDraw.ImageDraw, dice: list[int], x: int, y: int) -> None:
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    for k, value in enumerate(dice[:2]):
        x0 = x + k * 70
        d.rounded_rectangle((x0, y, x0 + 56, y + 56), radius=8, fill=(255, 255, 255), outline=LINE, width=2)
        for r, c in pips.get(value, []):
            cx, cy = x0 + 12 + c * 16, y + 12 + r * 16
            d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=INK)


def texts_drawn(view: dict, lang: str, names: dict[int, str], ruleset: str | None = None) -> list[str]:
    """Every string the board picture draws (for the missing-glyph check)."""
    ruleset = ruleset or view["ruleset"]
    b = board(ruleset)
    out = [board_text.square_name(ruleset, i, lang) for i in range(40)]
    out += [board_text.money(ruleset, x, lang) for x in b.price if x]
    out += [board_text.money(ruleset, p["cash"], lang) for p in view["players"]]
    out += list(WORDS[lang].values()) + list(names.values()) + [b.names.get(lang, b.names["en"])]
    return out
