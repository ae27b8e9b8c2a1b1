"""Pictures of 大富翁纸牌 (Monopoly Deal): the table a chat sees, and one player's hand.

Players would rather look than read (issue 5): the group's message carries a picture of every
player's properties, bank and hand size, the piles, whose turn it is and what is being asked of
whom; each player's private message carries a picture of their hand, numbered like the buttons.

Both pictures are drawn only from a ``view(state, seat)`` dict (docs/design.md, "render/ draws only
from views"): the public table cannot show a hand or the draw pile's order because the view it
reads does not hold them. Words come from the deck (card and colour names), the locale
catalogues and a few short labels below; every string drawn is recorded (``texts_for_table``,
``texts_for_hand``) so the tests can check that the font draws every character.

Speed: card faces and the little card strips of the property areas are drawn once per card kind,
colour and language (``lru_cache``) and pasted; a table is a few rectangles, ~30 strings and pastes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.deal.cards import CARDS, COLOURS, KEY, SET_SIZE
from engine.deal.rules import HAND_LIMIT
from render.common import (
    BLACK,
    RGB,
    WHITE,
    Pen,
    Sprite,
    draw_check,
    first_fitting,
    fit,
    ink_for,
    printable,
    width_of,
    wrap,
)
from render.png import fixed_palette, to_palette
from words.deal_text import card_name, colour_name, demand_text, player_name, winners_line
from words.i18n import LANGS, normalise_lang, t

WIDTH = 1000
MARGIN = 12
SETS_TO_WIN = 3

# A colour per property colour; every place that shows one also writes its name (colour-blind use).
PALETTE: dict[str, RGB] = {
    "brown": (139, 90, 50), "light_blue": (135, 205, 240), "pink": (214, 72, 150), "orange": (242, 140, 35),
    "red": (214, 40, 46), "yellow": (250, 214, 40), "green": (34, 150, 74), "dark_blue": (32, 64, 160),
    "railroad": (45, 45, 45), "utility": (188, 224, 168),
}
ANY_COLOUR = ("red", "yellow", "green", "dark_blue")  # the four quarters of an "any colour" mark
NO_COLOUR: RGB = (216, 216, 216)  # a group of multicolour wilds that has no colour yet (D-06)
ACTION_FILL: RGB = (110, 72, 160)
MONEY_FILL: RGB = (46, 125, 70)
BG: RGB = (236, 239, 243)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (196, 201, 208)
TURN_FILL: RGB = (255, 245, 205)
TURN_EDGE: RGB = (222, 160, 0)
GREY: RGB = (105, 110, 118)
EFFECT_INK: RGB = (70, 50, 110)
CHECK_FILL: RGB = (30, 135, 60)

# Short labels the catalogues do not have (kept here: they only make sense on a picture).
WORDS: dict[str, dict[str, str]] = {
    "hand": {"en": "Hand", "zh-Hans": "手牌", "zh-Hant": "手牌"},
    "action": {"en": "Action", "zh-Hans": "行动", "zh-Hant": "行動"},
    "money": {"en": "Money", "zh-Hans": "货币", "zh-Hant": "貨幣"},
    "any": {"en": "any colour", "zh-Hans": "任意颜色", "zh-Hant": "任意顏色"},
}
SHORT_COLOUR_EN = {"light_blue": "Lt Blue", "dark_blue": "Dk Blue", "railroad": "Rail", "utility": "Util"}
_EN_ABBREV = (("Avenue", "Ave"), ("Place", "Pl"), ("Railroad", "RR"), ("Gardens", "Gdns"), ("Company", "Co"))
_EN_DROP = (" Ave", " Pl", " RR", " Gdns", " Co")
_ZH_DROP = ("大道", "广场", "廣場", "花园", "花園", "公司", "铁路", "鐵路", "物业", "物業")

# The property area: a panel per player, a left column of facts, groups as card stacks.
LEFT_W = 170
GROUP_W, GROUP_GAP = 104, 6
STRIP_W, STRIP_H, STRIP_STEP = GROUP_W - 8, 22, 21
STRIP_FONT = 13
GROUP_HEAD, GROUP_FOOT = 22, 20
PILE_W, PILE_H = 80, 112

# A hand: up to five faces a row.
FACE_W, FACE_H, FACE_GAP, HAND_COLS = 176, 220, 12, 5
BADGE = 40  # room kept on a hand face's band for its number


def _word(key: str, lang: str) -> str:
    return WORDS[key].get(lang) or WORDS[key]["en"]


def effect_text(card: int, lang: str) -> str:
    """What an action or rent card does, in a few words (empty for money and properties)."""
    c = CARDS[card]
    if c.kind == "action":
        return t(lang, f"deal.effect.{c.action}")
    if c.kind == "rent":
        return t(lang, "deal.effect.rent_two" if c.colours else "deal.effect.rent_any")
    return ""


def _lang(lang: str) -> str:
    return lang if lang in LANGS else normalise_lang(lang)


def _fills(card: int) -> list[RGB]:
    """The colours of a card face's band: its own colour(s), all of them for "any colour"."""
    c = CARDS[card]
    if c.kind in ("property", "wild", "rent"):
        return [PALETTE[k] for k in c.colours] or list(PALETTE.values())
    return [MONEY_FILL if c.kind == "money" else ACTION_FILL]


def _stripes(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fills: list[RGB]) -> None:
    x0, y0, x1, y1 = box
    n = len(fills)
    for i, f in enumerate(fills):
        draw.rectangle((x0 + (x1 - x0 + 1) * i // n, y0, x0 + (x1 - x0 + 1) * (i + 1) // n - 1, y1), fill=f)


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


def _colour_label(colour: str | None, lang: str, size: int, width: float) -> str:
    options = [colour_name(colour, lang)]
    if lang == "en" and colour in SHORT_COLOUR_EN:
        options.append(SHORT_COLOUR_EN[colour])
    return first_fitting(options, size, lang, width)


# -- pre-drawn pieces --------------------------------------------------------------------------


def _swatch(draw: ImageDraw.ImageDraw, x: int, y: int, colours: tuple[str, ...], ink: RGB, size: int = 12) -> None:
    """A small square of one colour, split corner to corner for two, in four for "any colour"."""
    s = size
    if len(colours) == 1:
        draw.rectangle((x, y, x + s, y + s), fill=PALETTE[colours[0]])
    elif len(colours) == 2:
        a, b = (PALETTE[k] for k in colours)
        draw.polygon([(x, y), (x + s, y), (x, y + s)], fill=a)
        draw.polygon([(x + s, y), (x + s, y + s), (x, y + s)], fill=b)
    else:
        h = s // 2
        for i, k in enumerate(ANY_COLOUR):
            dx, dy = (i % 2) * h, (i // 2) * h
            draw.rectangle((x + dx, y + dy, x + dx + h, y + dy + h), fill=PALETTE[k])
    draw.rectangle((x, y, x + s, y + s), outline=ink)


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
        room -= 15
        _swatch(pen.draw, STRIP_W - 17, (STRIP_H - 12) // 2, CARDS[card].colours, ink)
    pen.text((4, STRIP_H / 2), first_fitting(_short_names(card, lang), STRIP_FONT, lang, room), STRIP_FONT, ink)
    return Sprite(im, tuple(pen.texts))


@lru_cache(maxsize=1024)
def _face(key: str, lang: str, w: int, h: int, badge: int) -> Sprite:
    """A card face: coloured band (with colour names), name, value; ``badge`` px kept for a number."""
    card = KEY.index(key)
    c = CARDS[card]
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    pen = Pen(im, lang)
    d = pen.draw
    big = w >= 120
    radius = max(5, w // 14)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=(252, 250, 244), outline=(55, 55, 55), width=2)
    band_h = round(h * 0.19)
    fills = _fills(card)
    band = Image.new("RGB", (w - 4, band_h))
    _stripes(ImageDraw.Draw(band), (0, 0, w - 5, band_h - 1), fills)
    mask = Image.new("L", band.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 5, band_h + radius), radius=radius - 2, fill=255)
    im.paste(band, (2, 2), mask)
    d.line((2, band_h + 2, w - 3, band_h + 2), fill=(55, 55, 55), width=1)
    band_size = max(12, round(h * 0.065))
    if big:  # colour names on the band: never colour alone
        mid_y = 2 + band_h / 2
        if c.kind == "property":
            label = _colour_label(c.colours[0], lang, band_size + 2, w - badge - 14)
            pen.text(((badge + w) / 2, mid_y), label, band_size + 2, ink_for(fills[0]), anchor="mm")
        elif c.kind in ("action", "money"):
            pen.text(((badge + w) / 2, mid_y), _word(c.kind, lang), band_size + 2, WHITE, anchor="mm")
    name_size = max(13, round(w * 0.105))
    body_top = band_h + 2 + max(6, h // 30)
    value_d = max(24, round(w * 0.24))
    if c.kind == "money":
        pen.text((w / 2, (body_top + h) / 2), f"{c.value}M", round(w * 0.24), MONEY_FILL, anchor="mm", bold=True)
    else:
        name = card_name(card, lang)
        chips = big and c.kind in ("wild", "rent")
        if chips:  # "Wild" / "Rent" here, the colours below as named swatches
            name = re.split("[:：]", name)[0].strip() or name
        lines = wrap(name, name_size, lang, w - 12, 3 if big else 4)
        step = round(name_size * 1.3)
        for i, line in enumerate(lines):
            pen.text((w / 2, body_top + i * step), line, name_size, BLACK, anchor="mt")
        y = body_top + len(lines) * step + 6
        if big and c.kind == "property":  # the rent a set of this colour charges, by size
            rent = "/".join(str(r) for r in COLOURS[c.colours[0]].rent)
            pen.text((w / 2, y), f"{t(lang, 'deal.ui.rent_card')} {rent}M", max(12, name_size - 4), GREY, anchor="mt")
        if chips:  # the colours a wild may take, or a rent card charges for
            labels = [((k,), colour_name(k, lang)) for k in c.colours] or [(ANY_COLOUR, _word("any", lang))]
            chip = max(14, name_size - 2)
            for colours, label in labels:
                _swatch(d, 14, y, colours, BLACK, chip)
                pen.text((20 + chip, y + chip / 2), fit(label, chip + 1, lang, w - 26 - chip), chip + 1, BLACK)
                y += chip + 10
        effect = effect_text(card, lang) if big else ""
        if effect:  # what the card does, in a few words, above the value disc
            size = max(13, round(w * 0.085))
            step = size + 4
            room = (h - 10 - value_d - y) // step
            lines = wrap(effect, size, lang, w - 16, 3)
            if 1 <= len(lines) <= room and not lines[-1].endswith("…"):
                for line in lines:
                    pen.text((w / 2, y), line, size, EFFECT_INK, anchor="mt")
                    y += step
            else:  # not all of it above the value disc (a rent card's two colour rows): beside it,
                # from where the text starts, so that the whole effect is said rather than cut
                x = value_d + 12
                y = max(y, h - 8 - value_d) if room < 1 else y
                for line in wrap(effect, size - 1, lang, w - x - 6, max(1, (h - 6 - y) // (step - 1))):
                    pen.text((x, y), line, size - 1, EFFECT_INK, anchor="lt")
                    y += step - 1
    if c.value and c.kind != "money":  # the multicolour wild has no money value (D-06)
        x0, y0 = 6, h - 6 - value_d
        d.ellipse((x0, y0, x0 + value_d, y0 + value_d), fill=(250, 222, 120), outline=(55, 55, 55), width=2)
        pen.text((x0 + value_d / 2, y0 + value_d / 2), f"{c.value}M", max(11, round(value_d * 0.42)), BLACK,
                 anchor="mm")
    return Sprite(im, tuple(pen.texts))


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


def _hotel(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
    """A hotel (red, wide, flat roof and windows) with its bottom-left at (x, y); returns its width."""
    d.rectangle((x, y - 14, x + 20, y), fill=(200, 40, 40), outline=BLACK)
    for wx in (x + 4, x + 9, x + 14):
        d.rectangle((wx, y - 10, wx + 2, y - 8), fill=WHITE)
    return 20


def _pips(d: ImageDraw.ImageDraw, x: float, y: float, left: int, total: int = 3, r: int = 6) -> None:
    for i in range(total):
        cx = x + r + i * (2 * r + 5)
        d.ellipse((cx - r, y - r, cx + r, y + r), fill=TURN_EDGE if i < left else WHITE, outline=BLACK, width=2)


# -- the table ---------------------------------------------------------------------------------


def _group_height(g: dict) -> int:
    return 4 + GROUP_HEAD + (len(g["cards"]) - 1) * STRIP_STEP + STRIP_H + 4 + GROUP_FOOT + 2


def _group(pen: Pen, x: int, y: int, h: int, g: dict, lang: str) -> None:
    d = pen.draw
    colour = g["colour"]
    complete = g["complete"]
    d.rounded_rectangle((x, y, x + GROUP_W - 1, y + h - 1), radius=6, fill=(247, 248, 250),
                        outline=BLACK if complete else PANEL_EDGE, width=3 if complete else 1)
    head_y = y + 4 + GROUP_HEAD / 2
    right = 22 if complete or colour is None else width_of(f"{len(g['cards'])}/{SET_SIZE[colour]}", 13, lang) + 4
    pen.text((x + 6, head_y), _colour_label(colour, lang, 14, GROUP_W - 12 - right), 14, BLACK)
    if complete:  # D-07: a complete set — a check mark drawn with lines on a green disc
        cx = x + GROUP_W - 14
        d.ellipse((cx - 9, head_y - 9, cx + 9, head_y + 9), fill=CHECK_FILL, outline=BLACK)
        draw_check(d, (cx - 6, head_y - 6, cx + 6, head_y + 6), WHITE, width=3)
    elif colour is not None:
        pen.text((x + GROUP_W - 5, head_y), f"{len(g['cards'])}/{SET_SIZE[colour]}", 13, GREY, anchor="rm")
    cy = y + 4 + GROUP_HEAD
    for card in g["cards"]:
        pen.paste(_strip(KEY[card], colour, pen.lang), (x + 4, cy))
        cy += STRIP_STEP
    foot_y = y + h - 4 - GROUP_FOOT / 2
    if colour is not None:
        pen.text((x + 6, foot_y), f"{t(lang, 'deal.ui.rent_card')} {g['rent']}M", 13, BLACK)
    bx = x + GROUP_W - 6
    base = round(foot_y + 7)
    if g.get("hotel") is not None:
        bx -= 20
        _hotel(d, bx, base)
        bx -= 3
    if g.get("house") is not None:
        bx -= 12
        _house(d, bx, base)


def _group_rows(groups: list[dict], per_row: int) -> list[list[dict]]:
    return [groups[i:i + per_row] for i in range(0, len(groups), per_row)]


def _layout(view: dict) -> dict:
    """Heights of each part of the table, so the image is made once at its final size."""
    gx0 = MARGIN + 12 + LEFT_W
    per_row = max(1, (WIDTH - MARGIN - 10 - gx0 + GROUP_GAP) // (GROUP_W + GROUP_GAP))
    panels = {}
    for p in view["players"]:
        rows = _group_rows(p["groups"], per_row)
        row_h = [max(_group_height(g) for g in row) for row in rows]
        groups_h = sum(row_h) + GROUP_GAP * max(0, len(rows) - 1)
        lit_play = p["seat"] == view["current"] and view["phase"] == "play"
        left_h = 142 if lit_play else 120  # name, three facts, and the plays left on the turn's panel
        panels[p["seat"]] = (rows, row_h, max(left_h, groups_h + 20))
    return {"gx0": gx0, "panels": panels}


def _title_lines(view: dict, lang: str, names: Mapping[int, str]) -> list[str]:
    cur = view["current"]
    who = player_name(cur, lang, names)
    if view["phase"] == "over":
        return [t(lang, "deal.ui.game_over"), winners_line(view.get("winners") or [], lang, names)]
    if view["phase"] == "discard":
        count = view["players"][cur]["hand_count"] - HAND_LIMIT
        return [t(lang, "deal.ui.header_discard", turn=view["turn"], seat=who, count=count)]
    return [t(lang, "deal.ui.header", turn=view["turn"], seat=who, plays=view["plays_left"])]


def _header_text(view: dict, lang: str, names: Mapping[int, str]) -> tuple[list[str], list[str], int]:
    """The title's lines (wrapped), the lines under it, and the header's height."""
    first, *rest = _title_lines(view, lang, names)
    text_w = WIDTH - 2 * MARGIN - (2 * PILE_W + 40) - 30
    title = wrap(first, 24, lang, text_w, 2)
    rest = [fit(line, 20, lang, text_w) for line in rest]
    text_h = 8 + 34 * len(title) + 30 * len(rest) + (36 if view["phase"] == "play" else 0)
    return title, rest, max(text_h, PILE_H + 30) + 8


def _header(pen: Pen, view: dict, lang: str, title: list[str], rest: list[str]) -> None:
    """Title, plays left and the two piles."""
    d = pen.draw
    y = MARGIN + 8
    for line in title:
        pen.text((MARGIN + 8, y), line, 24, BLACK, anchor="lt", bold=True)
        y += 34
    for line in rest:
        pen.text((MARGIN + 8, y), line, 20, BLACK, anchor="lt")
        y += 30
    if view["phase"] == "play":
        label = t(lang, "deal.ui.plays_left")
        pen.text((MARGIN + 8, y + 16), label, 18, GREY)
        _pips(d, MARGIN + 16 + width_of(label, 18, lang), y + 16, view["plays_left"], max(3, view["plays_left"]), r=8)
    # the piles: a card back with the draw pile's count, the discard pile's top card
    x = WIDTH - MARGIN - (2 * PILE_W + 40) + 10
    py = MARGIN + 6
    back = _card_back(PILE_W, PILE_H)
    pen.image.paste(back, (x, py), back)
    d.rounded_rectangle((x + 14, py + PILE_H / 2 - 18, x + PILE_W - 14, py + PILE_H / 2 + 18), radius=6, fill=WHITE,
                        outline=BLACK)
    pen.text((x + PILE_W / 2, py + PILE_H / 2), str(view["draw_count"]), 24, BLACK, anchor="mm", bold=True)
    pen.text((x + PILE_W / 2, py + PILE_H + 12), fit(t(lang, "deal.ui.draw_pile"), 15, lang, PILE_W + 36), 15,
             BLACK, anchor="mm")
    x += PILE_W + 20
    top = view.get("discard_top")
    if top is None:
        d.rounded_rectangle((x, py, x + PILE_W - 1, py + PILE_H - 1), radius=7, outline=GREY, width=2)
        pen.text((x + PILE_W / 2, py + PILE_H / 2), t(lang, "deal.ui.empty"), 15, GREY, anchor="mm")
    else:
        pen.paste(_face(KEY[top], lang, PILE_W, PILE_H, 0), (x, py))
    label = f"{t(lang, 'deal.ui.discard_pile')} {view['discard_count']}"
    pen.text((x + PILE_W / 2, py + PILE_H + 12), fit(label, 15, lang, PILE_W + 36), 15, BLACK, anchor="mm")


def _panel(pen: Pen, view: dict, p: dict, y: int, layout: dict, lang: str, names: Mapping[int, str]) -> int:
    d = pen.draw
    rows, row_h, h = layout["panels"][p["seat"]]
    over = view["phase"] == "over"
    seat = p["seat"]
    lit = seat in (view.get("winners") or []) if over else seat == view["current"]
    x0, x1 = MARGIN, WIDTH - MARGIN - 1
    d.rounded_rectangle((x0, y, x1, y + h - 1), radius=10, fill=TURN_FILL if lit else PANEL,
                        outline=TURN_EDGE if lit else PANEL_EDGE, width=4 if lit else 1)
    lx = x0 + 14
    ly = y + 22
    name_x = lx
    if lit:
        if over:
            d.ellipse((lx, ly - 9, lx + 18, ly + 9), fill=CHECK_FILL, outline=BLACK)
            draw_check(d, (lx + 3, ly - 6, lx + 15, ly + 6), WHITE, width=3)
        else:
            _turn_marker(d, lx, ly, 16)
        name_x += 24
    name = player_name(seat, lang, names)
    pen.text((name_x, ly), fit(name, 20, lang, layout["gx0"] - 12 - name_x), 20, BLACK, bold=True)
    facts = [
        f"{_word('hand', lang)} {p['hand_count']}",
        f"{t(lang, 'deal.ui.bank')} {p['bank_total']}M",
        f"{t(lang, 'deal.ui.sets')} {p['complete_sets']}/{SETS_TO_WIN}",
    ]
    fy = ly + 28
    for i, fact in enumerate(facts):
        if i == 0:  # a tiny card back beside the hand size
            d.rounded_rectangle((lx, fy - 8, lx + 11, fy + 8), radius=2, fill=(170, 36, 46), outline=BLACK)
        elif i == 1:  # a coin beside the bank
            d.ellipse((lx, fy - 6, lx + 12, fy + 6), fill=(250, 222, 120), outline=BLACK)
        else:  # a small check beside the sets count
            draw_check(d, (lx, fy - 6, lx + 12, fy + 6), CHECK_FILL, width=2)
        pen.text((lx + 18, fy), fit(fact, 16, lang, LEFT_W - 20), 16, BLACK)
        fy += 24
    if lit and not over and view["phase"] == "play":
        label = t(lang, "deal.ui.plays_left")
        pen.text((lx, fy), fit(label, 14, lang, LEFT_W - 60), 14, GREY)
        label = fit(label, 14, lang, LEFT_W - 60)
        _pips(d, lx + 6 + width_of(label, 14, lang), fy, view["plays_left"], max(3, view["plays_left"]), r=6)
    gy = y + 10
    if not rows:
        pen.text((layout["gx0"], y + h / 2), t(lang, "deal.ui.no_properties"), 16, GREY)
    for row, rh in zip(rows, row_h, strict=True):
        gx = layout["gx0"]
        for g in row:
            _group(pen, gx, gy, rh, g, lang)
            gx += GROUP_W + GROUP_GAP
        gy += rh + GROUP_GAP
    return h


def _pending(pen: Pen, view: dict, y: int, lang: str, names: Mapping[int, str]) -> int:
    for dm in view.get("pending") or []:
        attacker = player_name(dm["attacker"], lang, names)
        stage = t(lang, f"deal.ui.stage.{dm['stage']}", attacker=attacker)
        line = t(lang, "deal.ui.pending", target=player_name(dm["target"], lang, names), attacker=attacker,
                 what=demand_text(dm, lang, names), stage=stage)
        cy = y + 14
        pen.draw.polygon([(MARGIN + 8, cy), (MARGIN + 16, cy - 8), (MARGIN + 24, cy), (MARGIN + 16, cy + 8)],
                         fill=TURN_EDGE, outline=BLACK)
        pen.text((MARGIN + 32, cy), fit(line, 17, lang, WIDTH - 2 * MARGIN - 40), 17, BLACK)
        y += 28
    return y


def _printable_names(view: dict, lang: str, names: Mapping[int, str]) -> dict[int, str]:
    """Player names the font can draw: characters it has no glyph for (emoji) are left out."""
    out = {}
    for p in view["players"]:
        seat = p["seat"]
        raw = names.get(seat) if isinstance(names, Mapping) else None
        clean = printable(str(raw), lang) if raw else ""
        out[seat] = clean or t(lang, "ui.player_name", n=seat + 1)
    return out


def _draw_table(view: dict, lang: str, names: Mapping[int, str]) -> Pen:
    lang = _lang(lang)
    names = _printable_names(view, lang, names)
    layout = _layout(view)
    by_seat = {p["seat"]: p for p in view["players"]}
    order = [s for s in (view.get("order") or []) if s in by_seat] or sorted(by_seat)
    title, rest, header_h = _header_text(view, lang, names)
    panels_h = sum(layout["panels"][s][2] + 8 for s in order)
    pending_h = 28 * len(view.get("pending") or []) + (8 if view.get("pending") else 0)
    height = MARGIN + header_h + panels_h + pending_h + MARGIN
    pen = Pen(Image.new("RGB", (WIDTH, height), BG), lang)
    _header(pen, view, lang, title, rest)
    y = MARGIN + header_h
    for s in order:
        y += _panel(pen, view, by_seat[s], y, layout, lang, names) + 8
    _pending(pen, view, y, lang, names)
    return pen


def render_table(view: dict, lang: str, names: Mapping[int, str]) -> Image.Image:
    """The Deal table as the chat sees it (~1000 px wide), drawn only from ``view``, as a palette
    image (``png_bytes`` writes it as an 8-bit PNG: a third of the bytes, see render/png.py)."""
    return to_palette(_draw_table(view, lang, names).image, _palette(_lang(lang)))


@lru_cache(maxsize=4)
def _palette(lang: str) -> Image.Image:
    """The table's fixed palette: its flat colours exactly, the rest from a sample table and the
    faces of every kind of card (their anti-aliased edges)."""
    from engine.deal import DEAL

    keys = [BG, PANEL, PANEL_EDGE, TURN_FILL, TURN_EDGE, GREY, BLACK, WHITE, CHECK_FILL, ACTION_FILL, MONEY_FILL,
            NO_COLOUR, (252, 250, 244), (247, 248, 250), (250, 222, 120), (170, 36, 46), (40, 140, 70), (200, 40, 40),
            EFFECT_INK, (55, 55, 55), *PALETTE.values()]
    state = DEAL.new_game(4, "standard", 3)
    table = _draw_table(DEAL.view(state, None), lang, {}).image
    strips = Image.new("RGB", (WIDTH, 2 * STRIP_H + 4), PANEL)
    for i, key in enumerate(dict.fromkeys(KEY)):
        card = KEY.index(key)
        colours = CARDS[card].colours or ("red",)
        sprite = _strip(key, colours[0] if CARDS[card].kind in ("property", "wild") else None, lang).image
        strips.paste(sprite, ((i % 10) * STRIP_W, (i // 10 % 2) * (STRIP_H + 2)), sprite)
    kinds = list(dict.fromkeys(KEY))  # a face of every kind of card, as hands and the discard pile show them
    faces = _draw_hand({"players": [{"seat": 0, "hand": [KEY.index(k) for k in kinds]}]}, 0, lang).image
    sample = Image.new("RGB", (max(WIDTH, faces.width), table.height + strips.height + faces.height), BG)
    sample.paste(table, (0, 0))
    sample.paste(strips, (0, table.height))
    sample.paste(faces, (0, table.height + strips.height))
    return fixed_palette(keys, sample, 64)


def texts_for_table(view: dict, lang: str, names: Mapping[int, str]) -> list[str]:
    """Every string ``render_table`` writes for this view (for glyph checks)."""
    return _draw_table(view, lang, names).texts


# -- the discard pile (D-18: in a tournament only the player whose turn it is may look through it) --

DISCARD_W, DISCARD_H, DISCARD_COLS, DISCARD_MAX = 120, 168, 7, 35


def _draw_discard(cards: list[int], lang: str) -> Pen:
    lang = _lang(lang)
    shown = list(reversed(cards))[:DISCARD_MAX]  # the top of the pile (the end of the list) first
    cols = max(1, min(DISCARD_COLS, len(shown)))
    rows = max(1, -(-len(shown) // DISCARD_COLS))
    title_h = 44
    width = max(2 * MARGIN + cols * DISCARD_W + (cols - 1) * 10, 2 * MARGIN + 3 * DISCARD_W + 20)
    extra = 30 if len(cards) > len(shown) else 0
    height = MARGIN + title_h + rows * DISCARD_H + (rows - 1) * 10 + extra + MARGIN
    pen = Pen(Image.new("RGB", (width, height), BG), lang)
    title = t(lang, "deal.ui.discard_view", count=len(cards))
    pen.text((MARGIN + 4, MARGIN + title_h / 2 - 4), fit(title, 22, lang, width - 2 * MARGIN), 22, BLACK, bold=True)
    if not shown:
        pen.text((width / 2, MARGIN + title_h + DISCARD_H / 2), t(lang, "deal.ui.empty"), 20, GREY, anchor="mm")
    for i, card in enumerate(shown):
        x = MARGIN + (i % DISCARD_COLS) * (DISCARD_W + 10)
        y = MARGIN + title_h + (i // DISCARD_COLS) * (DISCARD_H + 10)
        pen.paste(_face(KEY[card], lang, DISCARD_W, DISCARD_H, 0), (x, y))
    if extra:
        pen.text((MARGIN + 4, height - MARGIN - extra / 2), f"+{len(cards) - len(shown)}", 18, GREY)
    return pen


def render_discard(cards: list[int], lang: str) -> Image.Image:
    """The discard pile, newest first, from the cards a view shows (``view["discard"]``: the whole
    pile where the rules let the viewer look through it, D-18; None otherwise). A palette image, as
    the table."""
    return to_palette(_draw_discard(list(cards), lang).image, _palette(_lang(lang)))


def texts_for_discard(cards: list[int], lang: str) -> list[str]:
    return _draw_discard(list(cards), lang).texts


# -- a hand ------------------------------------------------------------------------------------


def _draw_hand(view: dict, seat: int, lang: str) -> Pen:
    lang = _lang(lang)
    player = next((p for p in view["players"] if p["seat"] == seat), None)
    if player is None or "hand" not in player:
        raise ValueError(f"this view holds no hand for seat {seat}: draw a hand from that seat's own view")
    hand = player["hand"]
    cols = max(1, min(HAND_COLS, len(hand)))
    rows = max(1, -(-len(hand) // HAND_COLS))
    title_h = 44
    width = max(2 * MARGIN + cols * FACE_W + (cols - 1) * FACE_GAP, 2 * MARGIN + 2 * FACE_W + FACE_GAP)
    height = MARGIN + title_h + rows * FACE_H + (rows - 1) * FACE_GAP + MARGIN
    pen = Pen(Image.new("RGB", (width, height), BG), lang)
    title = f"{t(lang, 'deal.ui.hand')} · {len(hand)}"
    pen.text((MARGIN + 4, MARGIN + title_h / 2 - 4), fit(title, 22, lang, width - 2 * MARGIN), 22, BLACK, bold=True)
    if not hand:
        pen.text((width / 2, MARGIN + title_h + FACE_H / 2), t(lang, "deal.ui.empty"), 20, GREY, anchor="mm")
    for i, card in enumerate(hand):
        x = MARGIN + (i % HAND_COLS) * (FACE_W + FACE_GAP)
        y = MARGIN + title_h + (i // HAND_COLS) * (FACE_H + FACE_GAP)
        pen.paste(_face(KEY[card], lang, FACE_W, FACE_H, BADGE), (x, y))
        cx, cy, r = x + 22, y + 22, 17  # the number on the buttons, on a dark disc over the band
        pen.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BLACK, outline=WHITE, width=2)
        pen.text((cx, cy), str(i + 1), 22, WHITE, anchor="mm", bold=True)
    return pen


def render_hand(view: dict, seat: int, lang: str) -> Image.Image:
    """``seat``'s hand as numbered card faces, from that seat's own view. A palette image, as the
    table: an RGB PNG of a hand took 4–5 ms to write, this one about 1 ms with the mapping."""
    return to_palette(_draw_hand(view, seat, lang).image, _palette(_lang(lang)))


def texts_for_hand(view: dict, seat: int, lang: str) -> list[str]:
    """Every string ``render_hand`` writes (the numbers 1..n among them)."""
    return _draw_hand(view, seat, lang).texts
