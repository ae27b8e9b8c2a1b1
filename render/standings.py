"""A tournament's standings as a picture: the place, the entrant, matches played, wins or points,
and the assets summed over the matches (the individual tie-break), best first.

Drawn from the service's standings dict (no game state), with every string through a ``Pen`` so a
test can check the font has each glyph (team names are whatever the chat typed). Places shared
on equal results show the same number and the skipped place is visible (1, 2, 2, 4).
"""

from __future__ import annotations

from PIL import Image

from render.common import Pen, fit, printable
from words.i18n import normalise_lang, t

WIDTH = 900
ROW = 44
TOP = 130
MAX_ROWS = 24
PAPER = (250, 248, 240)
STRIPE = (240, 236, 224)
MEDALS = {1: (212, 175, 55), 2: (170, 170, 178), 3: (176, 120, 70)}
INK = (30, 30, 30)
GREY = (110, 110, 110)


def render_standings(standings: dict, lang: str, money=lambda amount: f"{amount:,}") -> tuple[Image.Image, list[str]]:
    """The picture and every string drawn on it."""
    lang = normalise_lang(lang)
    rows = standings["rows"][:MAX_ROWS]
    team = standings["mode"] == "team"
    height = TOP + ROW * max(1, len(rows)) + 40
    img = Image.new("RGB", (WIDTH, height), PAPER)
    pen = Pen(img, lang)
    name = standings.get("name") or t(lang, "tour.default_name", id=standings["tournament"])
    pen.text((40, 40), fit(t(lang, "tour.standings.title", name=printable(name, lang)), 30, lang, WIDTH - 80), 30,
             INK, bold=True)
    sub = (t(lang, "tour.standings.final") if standings["status"] == "over" else
           t(lang, "tour.standings.round", played=standings["played"], rounds=standings["rounds"]))
    pen.text((40, 82), sub, 18, GREY)
    columns = [(40, "tour.col.place", "lm"), (130, "tour.col.team" if team else "tour.col.entrant", "lm"),
               (560, "tour.col.played", "rm"), (680, "tour.col.points" if team else "tour.col.wins", "rm"),
               (860, "tour.col.value", "rm")]
    for x, key, anchor in columns:
        pen.text((x, TOP - 14), t(lang, key), 16, GREY, anchor=anchor)
    pen.draw.line((40, TOP, WIDTH - 40, TOP), fill=(180, 180, 180), width=2)
    for i, entry in enumerate(rows):
        y = TOP + ROW * i + ROW // 2
        if i % 2:
            pen.draw.rectangle((40, y - ROW // 2, WIDTH - 40, y + ROW // 2), fill=STRIPE)
        place = entry["place"]
        if place in MEDALS:
            pen.draw.ellipse((44, y - 15, 74, y + 15), fill=MEDALS[place])
            pen.text((59, y), str(place), 18, INK, anchor="mm", bold=True)
        else:
            pen.text((59, y), str(place), 18, INK, anchor="mm")
        label = f"#{entry['entrant']} {printable(entry['name'], lang)}"  # the number /tournament correct takes
        pen.text((130, y), fit(label, 20, lang, 400), 20, INK)
        pen.text((560, y), str(entry["played"]), 20, INK, anchor="rm")
        pen.text((680, y), str(entry["points"] if team else entry["wins"]), 22, INK, anchor="rm", bold=True)
        pen.text((860, y), money(entry["value"]), 20, INK, anchor="rm")
    return img, pen.texts
