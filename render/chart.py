"""The end of a game as a picture: final standings and each player's net worth over the turns.

Lines are told apart by colour and by the marker shape and initial at their end (colour-blind
readers), as on the board.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.board import PLAYER_COLOURS, SHAPES, _shape
from render.fonts import font

WIDTH, HEIGHT = 1000, 700
LEFT, RIGHT, TOP, BOTTOM = 90, 40, 170, 70
TITLES = {"zh-Hans": "身家走势", "zh-Hant": "身家走勢", "en": "Net worth by turn"}
TURN = {"zh-Hans": "回合", "zh-Hant": "回合", "en": "turn"}
WINNER = {"zh-Hans": "赢家", "zh-Hant": "贏家", "en": "Winner"}


def render_chart(series: dict[int, list[int]], names: dict[int, str], winners: list[int], lang: str,
                 money=lambda amount: f"{amount:,}") -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), (250, 248, 240))
    d = ImageDraw.Draw(img)
    d.text((LEFT, 24), TITLES.get(lang, TITLES["en"]), font=font(28, lang), fill=(30, 30, 30))
    # standings: best final value first
    final = sorted(series, key=lambda s: -(series[s][-1] if series[s] else 0))
    entry_font = font(18, lang)
    x, y = LEFT, 70
    for rank, seat in enumerate(final, 1):
        mark = f"  ★ {WINNER.get(lang, 'Winner')}" if seat in winners else ""
        value = money(series[seat][-1]) if series[seat] else "0"
        text = f"{rank}. {names.get(seat, seat)}  {value}{mark}"
        width = 26 + d.textlength(text, font=entry_font) + 30
        if x + width > WIDTH - RIGHT:  # next row
            x, y = LEFT, y + 36
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        _shape(d, SHAPES[seat % len(SHAPES)], x + 10, y + 14, 9, colour)
        d.text((x + 26, y), text, font=entry_font, fill=(30, 30, 30))
        x += width
    turns = max((len(v) for v in series.values()), default=1)
    top = max((max(v) for v in series.values() if v), default=1) or 1
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    d.rectangle((x0, y0, x1, y1), outline=(120, 120, 120))
    small = font(14, lang)
    for k in range(5):  # value grid
        v = top * k / 4
        y = y1 - (y1 - y0) * k / 4
        d.line((x0, y, x1, y), fill=(220, 220, 220))
        label = money(int(v))
        d.text((x0 - 8 - d.textlength(label, font=small), y - 8), label, font=small, fill=(90, 90, 90))
    d.text(((x0 + x1) / 2, y1 + 24), TURN.get(lang, "turn"), font=small, fill=(90, 90, 90))

    def point(i: int, v: int) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / max(1, turns - 1), y1 - (y1 - y0) * v / top

    for seat, values in series.items():
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        points = [point(i, v) for i, v in enumerate(values)]
        if len(points) > 1:
            d.line(points, fill=colour, width=3)
        if points:
            _shape(d, SHAPES[seat % len(SHAPES)], *points[-1], 8, colour)
    return img


def chart_texts(series: dict[int, list[int]], names: dict[int, str], lang: str, money=lambda a: f"{a:,}") -> str:
    """Every string the chart draws (for the missing-glyph check)."""
    values = [money(v[-1]) for v in series.values() if v]
    return "".join([TITLES.get(lang, ""), TURN.get(lang, ""), WINNER.get(lang, ""), "★", *names.values(), *values])
