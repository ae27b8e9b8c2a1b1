"""The picture a group gets when a game ends (issue 45), laid out for a phone: portrait, the winner
large and everyone ranked with why (its glance layer, read in the chat bubble), then each player's
worth turn by turn (``render.chart.plot``; its numbers are details, read full screen). The ranking's
words come from the game's (``words.results``): a renderer draws, it does not rank."""

from __future__ import annotations

from PIL import Image

from render.board_centre import pawn
from render.chart import GREY, INK, PAPER, plot
from render.common import DETAIL, GLANCE, Pen, detail_size, fit, glance_size, initials, printable
from words.i18n import normalise_lang, t

WIDTH, HEIGHT = 900, 1200
MARGIN = 40
CROWN = "🏆 "  # in the chat's words; the picture marks the winner by bold type and a gold rule


def render_result(series: dict[int, list[int]], names: dict[int, str], winners: list[int],
                  ranked: list[tuple[int, str]], lang: str, money) -> Image.Image:
    """``ranked``: (seat, its line) best first; ``series``: each seat's worth at every turn."""
    return result_pen(series, names, winners, ranked, lang, money).image


def result_pen(series: dict[int, list[int]], names: dict[int, str], winners: list[int],
               ranked: list[tuple[int, str]], lang: str, money) -> Pen:
    """The result as drawn, with what it wrote and at which sizes (``Pen.sizes``)."""
    lang = normalise_lang(lang)
    pen = Pen(Image.new("RGB", (WIDTH, HEIGHT), PAPER), lang)
    big, glance, detail = glance_size(WIDTH) + 22, glance_size(WIDTH), detail_size(WIDTH) + 1
    shown = {s: printable(str(n), lang) or str(s + 1) for s, n in names.items()}
    marks = initials(shown, lang)
    inner = WIDTH - 2 * MARGIN
    pen.text((MARGIN, 56), t(lang, "render.result.title"), glance, GREY, layer=GLANCE)
    champions = t(lang, "ui.list_sep").join(shown.get(s, "?") for s in winners) or t(lang, "render.result.nobody")
    pen.text((MARGIN, 128), fit(t(lang, "render.result.winner", names=champions), big, lang, inner), big, INK,
             bold=True, layer=GLANCE)
    y = 200
    pen.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=(212, 160, 23), width=4)
    row = glance + 26
    for seat, line in ranked[:8]:
        y += row
        token = pawn(seat, marks.get(seat, "?"), glance // 2 + 4, seat in winners)
        pen.image.paste(token, (MARGIN, round(y - token.height / 2)), token)
        text = fit(line.replace(CROWN, ""), glance, lang, inner - token.width - 16)
        pen.text((MARGIN + token.width + 16, y), text, glance, INK, bold=seat in winners, layer=GLANCE)
    top = y + row + 20
    pen.text((MARGIN, top), t(lang, "render.chart.title"), detail + 4, INK, bold=True, layer=DETAIL)
    left = MARGIN + 4 * detail  # room for the money up the side
    plot(pen, series, marks, (left, top + 3 * detail, WIDTH - MARGIN - 20, HEIGHT - 4 * detail), money,
         detail, detail // 2 + 4)
    return pen
