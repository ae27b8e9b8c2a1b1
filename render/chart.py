"""The end of a game as a picture: final standings and each player's net worth over the turns.

Made to be read (issue 18): turn numbers along the bottom, round money steps up the side (1-2-5
steps: 0, 1,000, 2,000… not 5,250, 10,500), and a legend in which each player's line sample,
token (colour and initial, as on the board) and name stand together. Colours are the shared
colour-blind-safe set; each line also ends in its player's token.
"""

from __future__ import annotations

import math

from PIL import Image

from render.board_centre import pawn
from render.colours import player_colour
from render.common import WHITE, Pen, fit, initials, ink_for, printable, width_of
from words.i18n import normalise_lang, t

WIDTH, HEIGHT = 1000, 700
LEFT, RIGHT, TOP, BOTTOM = 110, 50, 190, 70
PAPER = (250, 248, 240)
INK = (30, 30, 30)
GREY = (90, 90, 90)
GRID = (222, 220, 212)


def nice_step(span: float, ticks: int = 5) -> int:
    """The round step (1, 2 or 5 times a power of ten, at least 1) that cuts ``span`` into the
    number of intervals nearest to ``ticks`` (the larger step on a tie)."""
    if span <= 0:
        return 1
    power = 10 ** math.floor(math.log10(span / ticks))
    steps = {max(1, round(m * p)) for m in (1, 2, 5) for p in (power / 10, power, power * 10)}
    return min(sorted(steps, reverse=True), key=lambda step: abs(span / step - ticks))


def ticks(top: float, count: int = 5) -> list[int]:
    """0, step, 2·step… up to the first multiple of the step at or above ``top``."""
    step = nice_step(top, count)
    return [k * step for k in range(math.ceil(max(top, 1) / step) + 1)]


def _draw(series: dict[int, list[int]], names: dict[int, str], winners: list[int], lang: str, money) -> Pen:
    lang = normalise_lang(lang)
    img = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = Pen(img, lang)
    d = pen.draw
    pen.text((LEFT, 36), t(lang, "render.chart.title"), 28, INK, bold=True)
    names = {s: printable(str(names.get(s, s)), lang) or str(s + 1) for s in series}
    marks = initials(names, lang)  # as on the board's tokens: no two alike
    # the legend, best final value first: line sample, token, rank, name, value, winner
    final = sorted(series, key=lambda s: -(series[s][-1] if series[s] else 0))
    x, y = LEFT, 84
    for rank, seat in enumerate(final, 1):
        value = money(series[seat][-1]) if series[seat] else money(0)
        mark = f"  ★ {t(lang, 'render.chart.winner')}" if seat in winners else ""
        text = fit(f"{rank}. {names[seat]}  {value}{mark}", 18, lang, 360)
        width = 62 + width_of(text, 18, lang) + 30
        if x + width > WIDTH - RIGHT:
            x, y = LEFT, y + 40
        colour = player_colour(seat)
        d.line((x, y, x + 26, y), fill=colour, width=5)
        token = pawn(seat, marks[seat], 12, False)
        img.paste(token, (round(x) + 30, y - token.height // 2), token)
        pen.text((x + 62, y), text, 18, INK, bold=seat in winners)
        x += width
    plot(pen, series, marks, (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM), money, 15, 10)
    return pen


def plot(pen: Pen, series: dict[int, list[int]], marks: dict[int, str], box: tuple[float, float, float, float],
         money, size: int, token_r: int) -> None:
    """Each seat's worth turn by turn inside ``box``: round money steps up the side and turn numbers
    along the bottom in ``size`` px type, a line a seat ending in its token (the chart, the result)."""
    d = pen.draw
    turns = max((len(v) for v in series.values()), default=1)
    top = max((max(v) for v in series.values() if v), default=1) or 1
    values = ticks(top)
    top = values[-1]
    x0, y0, x1, y1 = box
    for v in values:  # money grid
        y = y1 - (y1 - y0) * v / top
        d.line((x0, y, x1, y), fill=GRID if v else GREY, width=1)
        pen.text((x0 - 10, y), money(v), size, GREY, anchor="rm")
    last = max(1, turns - 1)
    for k in ticks(last, 8):  # turn numbers (the first sample is the start, turn 0)
        if k > last:
            break
        x = x0 + (x1 - x0) * k / last
        d.line((x, y1, x, y1 + 5), fill=GREY, width=1)
        pen.text((x, y1 + 8), str(k), size, GREY, anchor="mt")
    d.line((x0, y0, x0, y1), fill=GREY, width=1)
    pen.text(((x0 + x1) / 2, y1 + 16 + 1.5 * size), t(pen.lang, "render.chart.turn"), size + 1, GREY, anchor="mt")

    def point(i: int, v: int) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / last, y1 - (y1 - y0) * v / top

    line = max(3, size // 5)
    for seat, values_ in series.items():
        colour = player_colour(seat)
        points = [point(i, v) for i, v in enumerate(values_)]
        if len(points) > 1:
            if ink_for(colour) != WHITE:  # a light line (yellow, sky blue) gets a dark edge on the paper
                d.line(points, fill=(110, 110, 110), width=line + 2, joint="curve")
            d.line(points, fill=colour, width=line, joint="curve")
        if points:
            token = pawn(seat, marks[seat], token_r, False)
            px, py = points[-1]
            pen.image.paste(token, (round(px - token.width / 2), round(py - token.height / 2)), token)


def render_chart(series: dict[int, list[int]], names: dict[int, str], winners: list[int], lang: str,
                 money=lambda amount: f"{amount:,}") -> Image.Image:
    return _draw(series, names, winners, lang, money).image


def chart_texts(series: dict[int, list[int]], names: dict[int, str], lang: str, money=lambda a: f"{a:,}") -> str:
    """Every string the chart draws (for the missing-glyph check)."""
    return "".join(_draw(series, names, [], lang, money).texts + [t(normalise_lang(lang), "render.chart.winner"), "★"])


def chart_ticks(series: dict[int, list[int]]) -> tuple[list[int], list[int]]:
    """The money values marked up the side and the turn numbers along the bottom."""
    turns = max((len(v) for v in series.values()), default=1)
    top = max((max(v) for v in series.values() if v), default=1) or 1
    last = max(1, turns - 1)
    return ticks(top), [k for k in ticks(last, 8) if k <= last]
