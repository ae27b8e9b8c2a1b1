"""What moves on the board picture (layer 3): the tokens and the glance panel in the middle.

Every frame draws these over the layers that ``render.board`` keeps: a token (``pawn``: a disc in
its player's colour with their mark, a gold halo for the player whose turn it is), where each
token stands and how large (``token_places``), and the glance panel (``_centre``): the clock,
whose turn it is and the dice, every player's cash and net worth, the last moves
(``EVENT_LINES`` of them), the bank's buildings and the mortgage key.

It is apart from ``render/board.py`` (the layers, ``compose`` and ``render_board``, which call
``token_places``, ``_centre`` and ``_paste_pawn``) to keep each module to one concern; both build
on ``render.board_layout`` (sizes, geometry, the empty board's ``layout``), so that neither
imports the other. ``render.chart`` and ``render.result`` draw the same tokens (``pawn``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.board_layout import (
    DETAIL,
    DIM,
    GREY,
    HALO,
    HALO_W,
    INK,
    LANE,
    LINE,
    PANEL,
    RED,
    TITLE,
    TOKEN_MAX,
    TOKEN_R,
    TURN_EDGE,
    TURN_FILL,
    WHITE,
    _hatch,
    _hotel,
    _house,
    layout,
)
from render.colours import player_colour
from render.common import GLANCE, Pen, fit, ink_for, printable, text_mask, width_of
from words import board_text
from words.i18n import t

BANNER = 42  # whose turn it is
EVENT_LINES = 4  # the last few moves the centre shows
C0, C1 = PANEL[0] + 18, PANEL[2] - 18  # the panel's text, left and right


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
