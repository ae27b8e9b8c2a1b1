"""Pictures of 大富翁纸牌 (Monopoly Deal): the table a chat sees, and one player's hand.

Players would rather look than read (issue 5): the group's message carries a picture of every
player's properties, bank and hand size, the piles, whose turn it is and what is being asked of
whom; each player's private message carries a picture of their hand, numbered like the buttons.

The table is read on a phone (issue 46): in the chat bubble (~330 px wide) the *glance* layer in
large type (whose turn, every player's bank and complete sets, the open demands and the last
moves), full screen (~390 px wide) the *details* (each group's colour, count, cards and rent, the
piles). ``render.common.glance_size``/``detail_size`` give the smallest type of each; a long card
name is shortened ("Medit. Ave", "北卡罗来纳"), never set smaller. Both pictures keep one size
through a game: the table's depends only on the number of players (``table_size``), the hand's on
nothing (a fixed grid, ``hand_grid``), so a chat does not jump as the game goes on.

Both pictures are drawn only from a ``view(state, seat)`` dict (docs/design.md, "render/ draws only
from views"): the public table cannot show a hand or the draw pile's order because the view it
reads does not hold them. Words come from the deck (card and colour names), the locale
catalogues and a few short labels below; every string drawn is recorded (``texts_for_table``,
``texts_for_hand``) so the tests can check that the font draws every character.

Speed: card faces and the little card strips of the property areas are drawn once per card kind,
colour and language (``lru_cache``) and pasted; a table is a few rectangles, ~30 strings and pastes.

The code is in three modules: ``render.deal_cards`` (the colours, short words and card faces
every picture shares, and the hand's grid), this one (the table and the palette of all three
pictures) and ``render.deal_hand`` (the hand and the discard pile).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.deal.cards import CARDS, KEY, SET_SIZE
from engine.deal.rules import HAND_LIMIT
from render.common import (
    BLACK,
    ELLIPSIS,
    GLANCE,
    RGB,
    WHITE,
    Pen,
    Sprite,
    detail_size,
    draw_check,
    first_fitting,
    fit,
    glance_size,
    ink_for,
    printable,
    width_of,
)
from render.deal_cards import (
    ACTION_FILL,
    ANY_COLOUR,
    BG,
    EFFECT_INK,
    GREY,
    MARGIN,
    MONEY_FILL,
    PALETTE,  # bot.web.atlas imports it from here
    _badge,
    _colour_label,
    _face,
    _fills,
    _lang,
    _stripes,
    _swatch,
    _word,
    hand_grid,
)
from render.png import PALETTE_LEVEL, fixed_palette, to_palette
from words.deal_text import card_name, demand_text, player_name, winners_line
from words.i18n import t

WIDTH = 880
SETS_TO_WIN = 3

# The table's own colours (the cards' are in render.deal_cards).
NO_COLOUR: RGB = (216, 216, 216)  # a group of multicolour wilds that has no colour yet (D-06)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (196, 201, 208)
TURN_FILL: RGB = (255, 245, 205)
TURN_EDGE: RGB = (222, 160, 0)
CHECK_FILL: RGB = (30, 135, 60)

# Shorter forms of a card's name for the narrow strips of the property areas (``_short_names``).
_EN_ABBREV = (("Avenue", "Ave"), ("Place", "Pl"), ("Railroad", "RR"), ("Gardens", "Gdns"), ("Company", "Co"),
              ("Mediterranean", "Medit."), ("Pennsylvania", "Penn."), ("Connecticut", "Conn."),
              ("North Carolina", "N. Carolina"))
_EN_DROP = (" Ave", " Pl", " RR", " Gdns", " Co")
_ZH_DROP = ("大道", "广场", "廣場", "花园", "花園", "公司", "铁路", "鐵路", "物业", "物業")

# The table: its type sizes (the glance layer and the details, see render/common.py), the banner,
# the piles, the news, then a panel per player: a line of facts, and its property groups.
GLANCE_T = glance_size(WIDTH)  # 30
DETAIL_T = detail_size(WIDTH)  # 21
TITLE_LINE = GLANCE_T + 9
BANNER_H = TITLE_LINE + 12
PILES_Y, PILES_H = MARGIN + BANNER_H + 5, 42
NEWS_LINES = 3
NEWS_Y, NEWS_H = PILES_Y + PILES_H + 5, NEWS_LINES * TITLE_LINE + 10
PANELS_Y, PANEL_GAP = NEWS_Y + NEWS_H + 7, 7
GROUP_W, GROUP_GAP, GROUPS_A_ROW = 135, 5, 6
STRIP_W, STRIP_H, STRIP_STEP = GROUP_W - 8, 24, 24
STRIP_FONT = DETAIL_T
GROUP_HEAD, GROUP_FOOT = 26, 29
NAMED = 3  # cards named in a group (a fourth, a railroad's, is counted: "+1")
GROUPS_H = 4 + GROUP_HEAD + NAMED * STRIP_STEP + GROUP_FOOT + 4  # a group of named cards
COMPACT_H = (GROUPS_H - GROUP_GAP) // 2  # a group without names, two rows of them
ROW_A = 40  # the name, bank, sets and hand
PANEL_H = 5 + ROW_A + 4 + GROUPS_H + 7


def _short_names(card: int, lang: str) -> list[str]:
    """A card's name, then shorter forms of it, for the narrow strips of the property area."""
    name = card_name(card, lang)
    if CARDS[card].kind == "wild":
        name = re.split("[:：]", name)[0].strip() or name
    options = [name]
    if lang == "en":
        short = name
        for long, abbr in _EN_ABBREV:
            short = short.replace(long, abbr)
        options.append(short)
        for suffix in _EN_DROP:
            if short.endswith(suffix):
                options.append(short[: -len(suffix)])
    else:
        for suffix in _ZH_DROP:
            if name.endswith(suffix) and len(name) > len(suffix) + 1:
                options.append(name[: -len(suffix)])
    return options


# -- pre-drawn pieces of the table -------------------------------------------------------------


@lru_cache(maxsize=2048)
def _strip(key: str, colour: str | None, lang: str) -> Sprite:
    """One property card in a group's stack: its current colour and its (short) name."""
    card = KEY.index(key)
    fill = PALETTE[colour] if colour else NO_COLOUR
    ink = ink_for(fill)
    im = Image.new("RGBA", (STRIP_W, STRIP_H), (0, 0, 0, 0))
    pen = Pen(im, lang)
    pen.draw.rounded_rectangle((0, 0, STRIP_W - 1, STRIP_H - 1), radius=4, fill=fill, outline=(40, 40, 40))
    room = STRIP_W - 8
    if CARDS[card].kind == "wild":
        room -= 22
        _swatch(pen.draw, STRIP_W - 22, (STRIP_H - 16) // 2, CARDS[card].colours, ink, 16)
    pen.text((4, STRIP_H / 2), first_fitting(_short_names(card, lang), STRIP_FONT, lang, room), STRIP_FONT, ink)
    return pen.sprite()


@lru_cache(maxsize=8)
def _card_back(w: int, h: int) -> Image.Image:
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=7, fill=(170, 36, 46), outline=(55, 55, 55), width=2)
    d.rounded_rectangle((6, 6, w - 7, h - 7), radius=5, outline=(245, 210, 120), width=2)
    for x in range(-h, w, 12):
        d.line((x + 8, 8, x + 8 + (h - 16), h - 8), fill=(190, 60, 68), width=3)
    d.rounded_rectangle((6, 6, w - 7, h - 7), radius=5, outline=(245, 210, 120), width=2)
    return im


# -- small shapes ------------------------------------------------------------------------------


def _turn_marker(d: ImageDraw.ImageDraw, x: float, y: float, size: int = 12) -> None:
    d.polygon([(x, y - size / 2), (x + size * 0.85, y), (x, y + size / 2)], fill=TURN_EDGE, outline=BLACK)


def _house(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
    """A house (green, pointed roof) with its bottom-left at (x, y); returns its width."""
    d.polygon([(x, y), (x, y - 8), (x + 6, y - 14), (x + 12, y - 8), (x + 12, y)], fill=(40, 140, 70), outline=BLACK)
    return 12


def _hotel(d: ImageDraw.ImageDraw, x: int, y: int, w: int = 20) -> int:
    """A hotel (red, wide, flat roof and windows) ``w`` px wide with its bottom-left at (x, y);
    returns its width."""
    d.rectangle((x, y - 14, x + w, y), fill=(200, 40, 40), outline=BLACK)
    for k in range(3):
        wx = x + 3 + k * (w - 6) // 2 - 1
        d.rectangle((wx, y - 10, wx + 2, y - 8), fill=WHITE)
    return w


def _pips(d: ImageDraw.ImageDraw, x: float, y: float, left: int, total: int = 3, r: int = 6) -> None:
    for i in range(total):
        cx = x + r + i * (2 * r + 5)
        d.ellipse((cx - r, y - r, cx + r, y + r), fill=TURN_EDGE if i < left else WHITE, outline=BLACK, width=2)


# -- the table ---------------------------------------------------------------------------------
#
# Read on a phone (issue 46): in the chat bubble the glance layer (whose turn it is, each player's
# bank and complete sets, what just happened and what the table waits for), full screen the
# details (each property group's colour, count and rent, the cards in it, the piles). The picture
# is as tall for every state of a game of n players: the header and the news take fixed room, and
# every player's panel has room for six groups with their cards named, or twelve without names.


def _colour_fill(colour: str | None) -> RGB:
    return PALETTE[colour] if colour else NO_COLOUR


def _group_head(pen: Pen, x: int, y: float, g: dict, lang: str) -> None:
    """A group's colour name, and its count ("2/3") or the check of a complete set with the
    house and hotel on it."""
    d = pen.draw
    colour = g["colour"]
    complete = g["complete"]
    count = f"{len(g['cards'])}/{SET_SIZE[colour]}" if colour is not None else ""
    right = 26 if complete else (width_of(count, DETAIL_T, lang) + 6 if count else 0)
    pen.text((x + 6, y), _colour_label(colour, lang, DETAIL_T, GROUP_W - 14 - right), DETAIL_T, BLACK)
    if complete:  # D-07: a complete set — a check mark drawn with lines on a green disc
        cx = x + GROUP_W - 14
        d.ellipse((cx - 10, y - 10, cx + 10, y + 10), fill=CHECK_FILL, outline=BLACK)
        draw_check(d, (cx - 6, y - 6, cx + 6, y + 6), WHITE, width=3)
    elif count:
        pen.text((x + GROUP_W - 6, y), count, DETAIL_T, GREY, anchor="rm")


def _group_foot(pen: Pen, x: int, y: float, g: dict, lang: str) -> None:
    """A group's rent, and its house and hotel (at the right)."""
    d = pen.draw
    if g["colour"] is not None:
        pen.text((x + 6, y), f"{t(lang, 'deal.ui.rent_card')} {g['rent']}M", DETAIL_T, BLACK)
    bx = x + GROUP_W - 4
    base = round(y + 8)
    if g.get("hotel") is not None:
        bx -= 18
        _hotel(d, bx, base, 18)
        bx -= 2
    if g.get("house") is not None:
        bx -= 12
        _house(d, bx, base)


def _group_frame(pen: Pen, x: int, y: int, h: int, g: dict) -> None:
    complete = g["complete"]
    pen.draw.rounded_rectangle((x, y, x + GROUP_W - 1, y + h - 1), radius=6, fill=(247, 248, 250),
                               outline=BLACK if complete else PANEL_EDGE, width=3 if complete else 1)


@lru_cache(maxsize=16)
def _group_card(h: int, complete: bool, fill: RGB) -> Image.Image:
    """An empty group ``h`` px tall on a panel's ``fill`` (a complete set's with a thick edge)."""
    im = Image.new("RGB", (GROUP_W, h), fill)
    _group_frame(Pen(im, "en"), 0, 0, h, {"complete": complete})
    return im


def _group(pen: Pen, x: int, y: int, g: dict, lang: str, compact: bool, fill: RGB) -> None:
    """A group of a panel of fill ``fill``: drawn once for what it shows (``_group_sprite``)."""
    pen.paste(_group_sprite(g["colour"], tuple(g["cards"]), g["complete"], g["rent"], g.get("house") is not None,
                            g.get("hotel") is not None, lang, compact, fill), (x, y))


@lru_cache(maxsize=1024)
def _group_sprite(colour: str | None, cards: tuple[int, ...], complete: bool, rent: int, house: bool, hotel: bool,
                  lang: str, compact: bool, fill: RGB) -> Sprite:
    """A group as a stack of named cards (a panel of six groups at most), or its colour, count and
    rent with a chip a card (``compact``: a panel of more groups), on a panel's ``fill``."""
    g = {"colour": colour, "cards": list(cards), "complete": complete, "rent": rent,
         "house": 0 if house else None, "hotel": 0 if hotel else None}
    h = COMPACT_H if compact else GROUPS_H
    pen = Pen(_group_card(h, complete, fill).copy(), lang)
    if compact:  # the head, a chip a card (its colours), the rent
        _group_head(pen, 0, 14, g, lang)
        d = pen.draw
        cx, cy = 7, 26
        for card in cards:
            c = CARDS[card]
            fills = [_colour_fill(colour)] if c.kind == "property" else [PALETTE[k] for k in c.colours] or [
                PALETTE[k] for k in ANY_COLOUR]
            _stripes(d, (cx, cy, cx + 15, cy + 9), fills)
            d.rectangle((cx, cy, cx + 15, cy + 9), outline=BLACK)
            cx += 20
        _group_foot(pen, 0, h - 13, g, lang)
    else:
        _group_head(pen, 0, 4 + GROUP_HEAD / 2, g, lang)
        cy = 4 + GROUP_HEAD
        for card in cards[:NAMED]:
            pen.paste(_strip(KEY[card], colour, lang), (4, cy))
            cy += STRIP_STEP
        _group_foot(pen, 0, h - 4 - GROUP_FOOT / 2, g, lang)
        if len(cards) > NAMED:  # beside the rent, in the colour of the cards it counts
            fill = _colour_fill(colour)
            label = f"+{len(cards) - NAMED}"
            box = (GROUP_W - 38, h - 4 - GROUP_FOOT + 2, GROUP_W - 5, h - 5)
            pen.draw.rounded_rectangle(box, radius=4, fill=fill, outline=BLACK)
            pen.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, DETAIL_T, ink_for(fill), anchor="mm")
    return pen.sprite()


def _title_lines(view: dict, lang: str, names: Mapping[int, str]) -> list[str]:
    cur = view["current"]
    who = player_name(cur, lang, names)
    if view["phase"] == "over":
        return [t(lang, "deal.ui.game_over"), winners_line(view.get("winners") or [], lang, names)]
    if view["phase"] == "discard":
        count = view["players"][cur]["hand_count"] - HAND_LIMIT
        return [t(lang, "deal.ui.header_discard", turn=view["turn"], seat=who, count=count)]
    return [t(lang, "deal.ui.header", turn=view["turn"], seat=who, plays=view["plays_left"])]


def _banner(pen: Pen, view: dict, lang: str, names: Mapping[int, str]) -> None:
    """Whose turn it is (or the game's end and its winners), in large type, on one line."""
    d = pen.draw
    x0, y0, x1, y1 = MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + BANNER_H
    d.rounded_rectangle((x0, y0, x1, y1), radius=12, fill=TURN_FILL, outline=TURN_EDGE, width=3)
    title = " · ".join(_title_lines(view, lang, names))
    mid = (y0 + y1) / 2
    if view["phase"] != "over":
        _turn_marker(d, x0 + 15, mid, 20)
    pen.text((x0 + 40, mid), fit(title, GLANCE_T, lang, x1 - x0 - 52), GLANCE_T, BLACK, bold=True, layer=GLANCE)


def _mini_card(d: ImageDraw.ImageDraw, x: float, y: float, fills: list[RGB]) -> None:
    """A card 26 px wide without words: its band's colours over a pale face."""
    d.rounded_rectangle((x, y, x + 25, y + 34), radius=4, fill=(252, 250, 244), outline=BLACK)
    _stripes(d, (x + 2, y + 2, x + 23, y + 10), fills)


def _piles(pen: Pen, view: dict, y: float, lang: str) -> None:
    """The draw pile, the discard pile and its top card, the plays left on this turn."""
    d = pen.draw
    x = MARGIN + 8
    back = _card_back(26, 35)
    pen.image.paste(back, (x, round(y - 17)), back)
    box = pen.text((x + 36, y), f"{t(lang, 'deal.ui.draw_pile')} {view['draw_count']}", DETAIL_T, BLACK)
    x = box[2] + 24
    top = view.get("discard_top")
    if top is None:
        d.rounded_rectangle((x, y - 17, x + 25, y + 17), radius=4, outline=GREY, width=2)
    else:
        _mini_card(d, x, y - 17, _fills(top))
    label = f"{t(lang, 'deal.ui.discard_pile')} {view['discard_count']}"
    box = pen.text((x + 36, y), label, DETAIL_T, BLACK)
    right = WIDTH - MARGIN - 8
    if view["phase"] == "play":
        total = max(3, view["plays_left"])
        right -= total * 19 + 4
        _pips(d, right + 4, y, view["plays_left"], total, r=7)
        plays = t(lang, "deal.ui.plays_left")
        if width_of(plays, DETAIL_T, lang) < right - box[2] - 40:
            right = pen.text((right - 6, y), plays, DETAIL_T, GREY, anchor="rm")[0] - 20
    if top is not None:  # the top card's name, as far as there is room
        name = fit(card_name(top, lang), DETAIL_T, lang, right - box[2] - 16)
        if name != ELLIPSIS:
            pen.text((box[2] + 12, y), f"· {name}", DETAIL_T, GREY)


def _news(pen: Pen, view: dict, y0: int, lang: str, names: Mapping[int, str], events: list[str]) -> None:
    """What the table waits for (each open demand), then what just happened, newest last."""
    d = pen.draw
    x0, x1 = MARGIN, WIDTH - MARGIN
    pending = []
    for dm in view.get("pending") or []:
        attacker = player_name(dm["attacker"], lang, names)
        stage = t(lang, f"deal.ui.stage.{dm['stage']}", attacker=attacker)
        pending.append(t(lang, "deal.ui.pending", target=player_name(dm["target"], lang, names), attacker=attacker,
                         what=demand_text(dm, lang, names), stage=stage))
    if len(pending) > NEWS_LINES:  # Birthday asks everyone: the first ones, and how many more
        pending = pending[:NEWS_LINES - 1] + [f"+{len(pending) - NEWS_LINES + 1} …"]
    lines = [printable(line, lang) for e in events for line in str(e).splitlines() if line.strip()]
    news = [(True, line) for line in pending] + [(False, line) for line in lines[-(NEWS_LINES - len(pending)):]
                                                 if len(pending) < NEWS_LINES]
    if news:  # (nothing yet: the room stays empty)
        d.rounded_rectangle((x0, y0, x1, y0 + NEWS_H), radius=10, fill=PANEL, outline=PANEL_EDGE)
    y = y0 + 6
    for waiting, line in news:
        cy = y + TITLE_LINE / 2
        if waiting:
            d.polygon([(x0 + 9, cy), (x0 + 18, cy - 9), (x0 + 27, cy), (x0 + 18, cy + 9)], fill=TURN_EDGE,
                      outline=BLACK)
        pen.text((x0 + 36, cy), fit(line, GLANCE_T, lang, x1 - x0 - 46), GLANCE_T, BLACK, layer=GLANCE)
        y += TITLE_LINE


def _facts(p: dict, lang: str) -> list[tuple[str, str]]:
    """A player's bank, complete sets and hand size: (icon, text), in large type."""
    return [("coin", f"{t(lang, 'deal.ui.bank')} {p['bank_total']}M"),
            ("check", f"{_word('sets', lang)} {p['complete_sets']}/{SETS_TO_WIN}"),
            ("card", f"{_word('hand', lang)} {p['hand_count']}")]


def _panel(pen: Pen, view: dict, p: dict, y: int, lang: str, names: Mapping[int, str]) -> None:
    d = pen.draw
    over = view["phase"] == "over"
    seat = p["seat"]
    lit = seat in (view.get("winners") or []) if over else seat == view["current"]
    x0, x1 = MARGIN, WIDTH - MARGIN - 1
    fill = TURN_FILL if lit else PANEL
    d.rounded_rectangle((x0, y, x1, y + PANEL_H - 1), radius=10, fill=fill,
                        outline=TURN_EDGE if lit else PANEL_EDGE, width=4 if lit else 1)
    mid = y + 5 + ROW_A / 2
    x = x0 + 12
    if lit:
        if over:
            d.ellipse((x, mid - 11, x + 22, mid + 11), fill=CHECK_FILL, outline=BLACK)
            draw_check(d, (x + 4, mid - 7, x + 18, mid + 7), WHITE, width=3)
        else:
            _turn_marker(d, x, mid, 20)
        x += 28
    right = x1 - 14  # the facts, from the right
    for icon, fact in reversed(_facts(p, lang)):
        box = pen.text((right, mid), fact, GLANCE_T, BLACK, anchor="rm", layer=GLANCE)
        ix = box[0] - 25
        if icon == "coin":
            d.ellipse((ix, mid - 9, ix + 18, mid + 9), fill=(250, 222, 120), outline=BLACK, width=2)
        elif icon == "check":
            draw_check(d, (ix, mid - 9, ix + 18, mid + 9), CHECK_FILL, width=3)
        else:
            d.rounded_rectangle((ix + 3, mid - 11, ix + 16, mid + 11), radius=3, fill=(170, 36, 46), outline=BLACK)
        right = ix - 18
    name = fit(player_name(seat, lang, names), GLANCE_T, lang, right - x)
    pen.text((x, mid), name, GLANCE_T, BLACK, bold=True, layer=GLANCE)
    gy = y + 5 + ROW_A + 4
    gx0 = x0 + (WIDTH - 2 * MARGIN - GROUPS_A_ROW * GROUP_W - (GROUPS_A_ROW - 1) * GROUP_GAP) // 2
    groups = p["groups"]
    if not groups:
        pen.text((gx0 + 6, gy + GROUPS_H / 2), t(lang, "deal.ui.no_properties"), DETAIL_T, GREY)
    elif len(groups) <= GROUPS_A_ROW:
        for k, g in enumerate(groups):
            _group(pen, gx0 + k * (GROUP_W + GROUP_GAP), gy, g, lang, False, fill)
    else:  # more groups than names have room for: two rows of small groups, twelve at most
        room = 2 * GROUPS_A_ROW
        shown = groups if len(groups) <= room else groups[:room - 1]
        for k, g in enumerate(shown):
            row, col = divmod(k, GROUPS_A_ROW)
            _group(pen, gx0 + col * (GROUP_W + GROUP_GAP), gy + row * (COMPACT_H + GROUP_GAP), g, lang, True, fill)
        if len(shown) < len(groups):
            gx, gy1 = gx0 + (GROUPS_A_ROW - 1) * (GROUP_W + GROUP_GAP), gy + COMPACT_H + GROUP_GAP
            pen.text((gx + GROUP_W / 2, gy1 + COMPACT_H / 2), f"+{len(groups) - len(shown)}", GLANCE_T, GREY,
                     anchor="mm")


def _printable_names(view: dict, lang: str, names: Mapping[int, str]) -> dict[int, str]:
    """Player names the font can draw: characters it has no glyph for (emoji) are left out."""
    out = {}
    for p in view["players"]:
        seat = p["seat"]
        raw = names.get(seat) if isinstance(names, Mapping) else None
        clean = printable(str(raw), lang) if raw else ""
        out[seat] = clean or t(lang, "ui.player_name", n=seat + 1)
    return out


def table_size(players: int) -> tuple[int, int]:
    """The table picture's size for a game of ``players``: the same whatever its state."""
    return WIDTH, PANELS_Y + players * (PANEL_H + PANEL_GAP) - PANEL_GAP + MARGIN


def table_pen(view: dict, lang: str, names: Mapping[int, str], events: list[str] | None = None) -> Pen:
    """The table in full colour, with every string drawn (and its size and layer) on the pen."""
    return _draw_table(view, lang, names, events)[0]


def _draw_table(view: dict, lang: str, names: Mapping[int, str], events: list[str] | None
                ) -> tuple[Pen, list[tuple[int, int, tuple]]]:
    """The table, and the rows of each player's panel with what they show (a key: the same key,
    the same rows)."""
    lang = _lang(lang)
    names = _printable_names(view, lang, names)
    by_seat = {p["seat"]: p for p in view["players"]}
    order = [s for s in (view.get("order") or []) if s in by_seat] or sorted(by_seat)
    size = table_size(len(by_seat))
    pen = Pen(Image.new("RGB", size, BG), lang)
    _banner(pen, view, lang, names)
    _piles(pen, view, PILES_Y + PILES_H / 2, lang)
    _news(pen, view, NEWS_Y, lang, names, list(events or []))
    y = PANELS_Y
    panels = []
    for s in order:
        _panel(pen, view, by_seat[s], y, lang, names)
        stop = y + PANEL_H + (PANEL_GAP if s != order[-1] else MARGIN)  # with the gap under it (the paper)
        panels.append((y, stop, _panel_key(view, by_seat[s], lang, names)))
        y += PANEL_H + PANEL_GAP
    return pen, panels


def _panel_key(view: dict, p: dict, lang: str, names: Mapping[int, str]) -> tuple:
    """Everything ``_panel`` draws from: a panel with the same key has the same pixels."""
    over = view["phase"] == "over"
    lit = p["seat"] in (view.get("winners") or []) if over else p["seat"] == view["current"]
    groups = tuple((g["colour"], tuple(g["cards"]), g["complete"], g["rent"], g.get("house") is not None,
                    g.get("hotel") is not None) for g in p["groups"])
    return ("deal panel", lang, WIDTH, PANEL_H, over, lit, player_name(p["seat"], lang, names), p["bank_total"],
            p["complete_sets"], p["hand_count"], groups)


def render_table(view: dict, lang: str, names: Mapping[int, str], events: list[str] | None = None) -> Image.Image:
    """The Deal table as the chat sees it (880 px wide, as tall for every state of a game of so
    many players), drawn only from ``view``, with ``events`` (the last moves in ``lang``, newest
    last), as a palette image (``png_bytes`` writes it as an 8-bit PNG: a third of the bytes, see
    render/png.py; each panel's rows are deflated once for what it shows, most moves change one
    or two)."""
    pen, panels = _draw_table(view, lang, names, events)
    out = to_palette(pen.image, _palette(_lang(lang)))
    out.info["static_rows"] = panels
    out.info["static_level"] = PALETTE_LEVEL
    return out


@lru_cache(maxsize=4)
def _palette(lang: str) -> Image.Image:
    """The table's fixed palette: its flat colours exactly, the rest from a sample table and the
    faces of every kind of card (their anti-aliased edges)."""
    from engine.deal import DEAL

    keys = [BG, PANEL, PANEL_EDGE, TURN_FILL, TURN_EDGE, GREY, BLACK, WHITE, CHECK_FILL, ACTION_FILL, MONEY_FILL,
            NO_COLOUR, (252, 250, 244), (247, 248, 250), (250, 222, 120), (170, 36, 46), (40, 140, 70), (200, 40, 40),
            EFFECT_INK, (55, 55, 55), *PALETTE.values()]
    state = DEAL.new_game(4, "standard", 3)
    table = table_pen(DEAL.view(state, None), lang, {}, ["A 2M", "B 3M"]).image
    # the strips of the property areas, each card in every colour it may take on a table (drawn
    # once here, the first table of a game does not wait for them)
    placed = [(key, colour) for key in dict.fromkeys(KEY) for card in [CARDS[KEY.index(key)]]
              if card.kind in ("property", "wild") for colour in (card.colours or (*PALETTE, None))]
    per_row = WIDTH // STRIP_W
    strips = Image.new("RGB", (WIDTH, -(-len(placed) // per_row) * STRIP_H), PANEL)
    for i, (key, colour) in enumerate(placed):
        sprite = _strip(key, colour, lang).image
        strips.paste(sprite, ((i % per_row) * STRIP_W, (i // per_row) * STRIP_H), sprite)
    # a face of every kind of card at each size a hand shows them (the discard pile's are alike)
    kinds = list(dict.fromkeys(KEY))
    sizes = list(dict.fromkeys(hand_grid(n)[2:] for n in (1, 7, 13)))
    cols = 5
    faces = Image.new("RGB", (cols * max(w for w, _ in sizes), sum(-(-len(kinds) // cols) * h for _, h in sizes)), BG)
    y = 0
    for w, h in sizes:
        for i, key in enumerate(kinds):
            face = _face(key, lang, w, h, _badge(w)[0]).image
            faces.paste(face, ((i % cols) * w, y + (i // cols) * h), face)
        y += -(-len(kinds) // cols) * h
    sample = Image.new("RGB", (max(WIDTH, faces.width), table.height + strips.height + faces.height), BG)
    sample.paste(table, (0, 0))
    sample.paste(strips, (0, table.height))
    sample.paste(faces, (0, table.height + strips.height))
    return fixed_palette(keys, sample, 64)


def texts_for_table(view: dict, lang: str, names: Mapping[int, str], events: list[str] | None = None) -> list[str]:
    """Every string ``render_table`` writes for this view (for glyph checks)."""
    return table_pen(view, lang, names, events).texts
