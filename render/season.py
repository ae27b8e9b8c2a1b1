"""The picture a chat gets when its season ends (issue 48), laid out like the game-end picture for a
phone: the season's name, then per game its best players with their place, rating and wins/games,
the champion in bold on a gold medal. Drawn from the notice's standings (no game state); the words
come from the catalogue, the ranking from the service (a renderer draws, it does not rank)."""

from __future__ import annotations

from PIL import Image

from render.common import GLANCE, Pen, fit, glance_size, printable
from render.standings import MEDALS
from words.i18n import game_name, normalise_lang, t

WIDTH = 900
MARGIN = 40
SHOWN = 8  # players per game on the picture (the text lists the rest)
INK, GREY, PAPER, STRIPE = (30, 30, 30), (110, 110, 110), (250, 248, 240), (240, 236, 224)


def render_season(season: str, standings: dict[str, list], lang: str) -> Pen:
    """``standings``: per game, (name, rating, wins, games) best first."""
    lang = normalise_lang(lang)
    glance = glance_size(WIDTH)
    row = glance + 22
    games = [(g, rows[:SHOWN]) for g, rows in standings.items() if rows]
    height = 190 + sum(glance + 50 + row * len(rows) for _g, rows in games) + 30
    pen = Pen(Image.new("RGB", (WIDTH, height), PAPER), lang)
    pen.text((MARGIN, 56), t(lang, "render.season.title"), glance, GREY, layer=GLANCE)
    pen.text((MARGIN, 124), fit(t(lang, "render.season.name", season=season), glance + 18, lang, WIDTH - 2 * MARGIN),
             glance + 18, INK, bold=True, layer=GLANCE)
    y = 180
    pen.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=(212, 160, 23), width=4)
    for game, rows in games:
        y += glance + 30
        pen.text((MARGIN, y), game_name(game, lang), glance, GREY, bold=True, layer=GLANCE)
        y += 20
        for i, (name, rating, wins, games_played) in enumerate(rows):
            middle = y + row * i + row // 2
            if i % 2:
                pen.draw.rectangle((MARGIN, middle - row // 2, WIDTH - MARGIN, middle + row // 2), fill=STRIPE)
            place = 1 + sum(1 for other in rows if other[1] > rating)  # equal ratings share a place
            r = glance // 2 + 6
            if place in MEDALS:
                pen.draw.ellipse((MARGIN + 4, middle - r, MARGIN + 4 + 2 * r, middle + r), fill=MEDALS[place])
            pen.text((MARGIN + 4 + r, middle), str(place), glance, INK, anchor="mm", bold=place == 1, layer=GLANCE)
            figures = f"{rating:.1f} · {wins}/{games_played}"
            pen.text((WIDTH - MARGIN - 8, middle), figures, glance, INK, anchor="rm", layer=GLANCE)
            room = WIDTH - 2 * MARGIN - 2 * r - 40 - len(figures) * glance * 0.6
            pen.text((MARGIN + 2 * r + 24, middle), fit(printable(str(name), lang) or "?", glance, lang, room), glance,
                     INK, bold=place == 1, layer=GLANCE)
        y += row * len(rows)
    return pen
