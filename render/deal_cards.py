"""The Deal cards as the pictures draw them: the deck's colours, a few short words, the card faces.

A face (``_face``: its colour band with the colour names, its name, what it does, its value) is
drawn once per card kind, size and language (``lru_cache``) and pasted by the hand and the
discard pile (``render.deal_hand``); the table (``render.deal``) uses the colours, words and
stripes, and samples a face at every size a hand shows them for its palette.

This module exists so that the three pictures share these pieces without importing each other.
That is also why the hand's grid (``hand_grid``: the face size for a hand of n cards) lives here
and not with the hand: the table's palette needs it, and the hand needs that palette.
"""

from __future__ import annotations

import re
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.deal.cards import CARDS, COLOURS, KEY
from render.common import BLACK, RGB, WHITE, Pen, Sprite, first_fitting, fit, ink_for, wrap
from words.deal_text import card_name, colour_name
from words.i18n import LANGS, normalise_lang, t

MARGIN = 10

# A colour per property colour; every place that shows one also writes its name (colour-blind use).
PALETTE: dict[str, RGB] = {
    "brown": (139, 90, 50), "light_blue": (135, 205, 240), "pink": (214, 72, 150), "orange": (242, 140, 35),
    "red": (214, 40, 46), "yellow": (250, 214, 40), "green": (34, 150, 74), "dark_blue": (32, 64, 160),
    "railroad": (45, 45, 45), "utility": (188, 224, 168),
}
ANY_COLOUR = ("red", "yellow", "green", "dark_blue")  # the four quarters of an "any colour" mark
ACTION_FILL: RGB = (110, 72, 160)
MONEY_FILL: RGB = (46, 125, 70)
BG: RGB = (236, 239, 243)
GREY: RGB = (105, 110, 118)
EFFECT_INK: RGB = (70, 50, 110)

# Short labels the catalogues do not have (kept here: they only make sense on a picture).
WORDS: dict[str, dict[str, str]] = {
    "hand": {"en": "Hand", "zh-Hans": "手牌", "zh-Hant": "手牌"},
    "action": {"en": "Action", "zh-Hans": "行动", "zh-Hant": "行動"},
    "money": {"en": "Money", "zh-Hans": "货币", "zh-Hant": "貨幣"},
    "any": {"en": "any colour", "zh-Hans": "任意颜色", "zh-Hant": "任意顏色"},
    "sets": {"en": "Sets", "zh-Hans": "整套", "zh-Hant": "整套"},
}
SHORT_COLOUR_EN = {"light_blue": "Lt Blue", "dark_blue": "Dk Blue", "railroad": "Rail", "utility": "Util"}

# A hand: a grid of faces on a canvas of a fixed size (see "a hand's grid" below).
FACE_W, FACE_H, FACE_GAP = 144, 180, 10


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


def _colour_label(colour: str | None, lang: str, size: int, width: float) -> str:
    options = [colour_name(colour, lang)]
    if lang == "en" and colour in SHORT_COLOUR_EN:
        options.append(SHORT_COLOUR_EN[colour])
    elif colour == "utility" and lang != "en":
        options.append(options[0][:2])  # 公用事业 → 公用
    return first_fitting(options, size, lang, width)


# -- card faces --------------------------------------------------------------------------------


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
    return pen.sprite()


# -- a hand's grid (the table's palette samples a face at every size it gives) -----------------
#
# Always the same canvas (a private chat does not jump as cards come and go): room for a grid of
# twelve faces; up to six cards show larger, three a row, more than twelve smaller, five a row.

HAND_W = 2 * MARGIN + 4 * FACE_W + 3 * FACE_GAP  # 626
HAND_TITLE = 40
HAND_H = 2 * MARGIN + HAND_TITLE + 3 * FACE_H + 2 * FACE_GAP  # 620


def hand_grid(count: int) -> tuple[int, int, int, int]:
    """Columns, rows and the face size (w, h) for a hand of ``count`` cards on the fixed canvas."""
    cols, rows = (3, 2) if count <= 6 else (4, 3) if count <= 12 else (5, 4)
    w = (HAND_W - 2 * MARGIN - (cols - 1) * FACE_GAP) // cols
    h = (HAND_H - 2 * MARGIN - HAND_TITLE - (rows - 1) * FACE_GAP) // rows
    return cols, rows, min(w, round(h * 0.8)), min(h, round(w * 1.25))


def _badge(w: int) -> tuple[int, int]:
    """Room kept on a face ``w`` px wide for its number, and the radius of the number's disc."""
    return (40, 17) if w >= 170 else (32, 14) if w >= 120 else (32, 12)
