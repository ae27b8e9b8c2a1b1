"""The Deal pictures a player looks at alone: their hand, and the discard pile (D-18).

A player's private message carries a picture of their hand: the faces of ``render.deal_cards``
numbered like the buttons, on a canvas of one size for any hand (``hand_grid``). In a tournament
only the player whose turn it is may look through the discard pile, newest first. Both map onto
the table's palette (``render.deal``), so they are written as 8-bit PNGs like the table.

A module of its own so that ``render/deal.py`` holds one picture, the table everyone sees; the
pieces both draw with are in ``render.deal_cards``.
"""

from __future__ import annotations

from PIL import Image

from engine.deal.cards import KEY
from render.common import BLACK, WHITE, Pen, fit
from render.deal import _palette
from render.deal_cards import (
    BG,
    FACE_GAP,
    FACE_H,
    GREY,
    HAND_H,
    HAND_TITLE,
    HAND_W,
    MARGIN,
    _badge,
    _face,
    _lang,
    hand_grid,
)
from render.png import to_palette
from words.i18n import t

# -- the discard pile (D-18: in a tournament only the player whose turn it is may look through it) --

DISCARD_W, DISCARD_H, DISCARD_COLS, DISCARD_MAX = 120, 168, 6, 36


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
#
# One canvas for any hand, a grid of its faces: ``hand_grid`` (render.deal_cards).


def _draw_hand(view: dict, seat: int, lang: str) -> Pen:
    lang = _lang(lang)
    player = next((p for p in view["players"] if p["seat"] == seat), None)
    if player is None or "hand" not in player:
        raise ValueError(f"this view holds no hand for seat {seat}: draw a hand from that seat's own view")
    hand = player["hand"]
    cols, rows, fw, fh = hand_grid(len(hand))
    room = cols * rows
    shown = hand if len(hand) <= room else hand[:room - 1]
    pen = Pen(Image.new("RGB", (HAND_W, HAND_H), BG), lang)
    title = f"{t(lang, 'deal.ui.hand')} · {len(hand)}"
    pen.text((MARGIN + 4, MARGIN + HAND_TITLE / 2 - 4), fit(title, 22, lang, HAND_W - 2 * MARGIN), 22, BLACK,
             bold=True)
    top = MARGIN + HAND_TITLE
    if not hand:
        pen.text((HAND_W / 2, top + FACE_H / 2), t(lang, "deal.ui.empty"), 20, GREY, anchor="mm")
    gw = cols * fw + (cols - 1) * FACE_GAP  # the grid, centred on the canvas
    x0 = (HAND_W - gw) // 2
    badge, r = _badge(fw)
    for i, card in enumerate(shown):
        x = x0 + (i % cols) * (fw + FACE_GAP)
        y = top + (i // cols) * (fh + FACE_GAP)
        pen.paste(_face(KEY[card], lang, fw, fh, badge), (x, y))
        cx, cy = x + r + 5, y + r + 5  # the number on the buttons, on a dark disc over the band
        pen.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BLACK, outline=WHITE, width=2)
        pen.text((cx, cy), str(i + 1), 22 if r > 15 else 19, WHITE, anchor="mm", bold=True)
    if len(shown) < len(hand):
        i = len(shown)
        x = x0 + (i % cols) * (fw + FACE_GAP)
        y = top + (i // cols) * (fh + FACE_GAP)
        pen.text((x + fw / 2, y + fh / 2), f"+{len(hand) - len(shown)}", 32, GREY, anchor="mm", bold=True)
    return pen


def render_hand(view: dict, seat: int, lang: str) -> Image.Image:
    """``seat``'s hand as numbered card faces, from that seat's own view, on a canvas of the same
    size for any hand. A palette image, as the table: an RGB PNG of a hand took 4–5 ms to write,
    this one about 1 ms with the mapping."""
    return to_palette(_draw_hand(view, seat, lang).image, _palette(_lang(lang)))


def texts_for_hand(view: dict, seat: int, lang: str) -> list[str]:
    """Every string ``render_hand`` writes (the numbers 1..n among them)."""
    return _draw_hand(view, seat, lang).texts
