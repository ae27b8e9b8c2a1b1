"""The message a group gets when a game ends, for every platform: who won, large; everyone ranked
with why (sets and bank, total assets, who went bankrupt when), what ended it; the net-worth chart
of the whole game as its picture; and what to do next: a rematch with the same seats' settings,
the chat's standings, a new game of either kind."""

from __future__ import annotations

from collections.abc import Mapping

from bot.chat.screens import Button, Screen, event_lines
from engine.games import GAMES
from engine.service.views import PublicView
from render.png import png_bytes
from render.result import render_result
from words.games import WORDS
from words.i18n import game_name, t
from words.results import worth_ranking

ENDING_LINES = 3  # what ended it: the last few events


def result_buttons(table: int, lang: str) -> list[Button]:
    """Rematch, the standings, and a new game of each kind (lobby presses on the ended table)."""
    return [Button(t(lang, "end.btn.again"), f"l:{table}:again", -1),
            Button(t(lang, "end.btn.stats"), f"l:{table}:stats", -1),
            *[Button(t(lang, "end.btn.new", game=game_name(g, lang)), f"l:{table}:n:{g}", -1) for g in GAMES]]


def feats_line(view: PublicView, feats: Mapping[int, list[str]] | None, lang: str) -> str | None:
    """The achievements earned in the game, in one line (names, no mentions: no ping storm); only
    people who held their seat at the end earn them (``engine/service/feats.py``)."""
    people = [(seat, keys) for seat, keys in sorted((feats or {}).items())
              if keys and 0 <= seat < len(view.seats) and view.seats[seat].person and not view.seats[seat].ai]
    if not people:
        return None
    sep = t(lang, "ui.list_sep")
    return t(lang, "end.feats", list=t(lang, "end.feats_sep").join(
        t(lang, "end.feats_of", name=view.names.get(seat, "?"), feats=sep.join(t(lang, f"feat.{k}") for k in keys))
        for seat, keys in people))


def result_screen(view: PublicView, lang: str, series: Mapping[int, list[int]] | None,
                  picture: bytes | None, feats: Mapping[int, list[str]] | None = None) -> Screen:
    """The end message; ``picture`` (the table as it ended) when there is no chart to draw;
    ``feats``: the achievements each seat earned in the game."""
    words, names = WORDS[view.game], view.names
    head = t(lang, "end.title", winners=words.winners(view.winners, lang, names))
    if words.ranking is not None:
        ranked = words.ranking(view.board, view.worth, view.winners, lang, names, view.ruleset, series)
    else:  # a game without its own ranking: by worth, under its table's head line
        ranked = worth_ranking(list(range(len(view.seats))), view.worth, view.winners, lang, names)
        head += "\n" + words.table(view.board, lang, names, view.ruleset).split("\n", 1)[0]
    ending = event_lines(view, view.events, lang, names)[-ENDING_LINES:]
    lines = [line for _seat, line in ranked]
    earned = feats_line(view, feats, lang)
    lines += [earned] if earned else []
    text = "\n".join([head, "", *lines, *([""] + ending if ending else [])])
    if series and max((len(v) for v in series.values()), default=0) > 1:
        picture = png_bytes(render_result(dict(series), dict(names), view.winners, ranked, lang,
                                          lambda amount: words.money(amount, lang, view.ruleset)))
    start = len(head) + 2 + len("\n".join(lines)) + 1  # a short caption leaves out the ending first
    return Screen(text, result_buttons(view.table, lang), picture, (start, len(text)) if ending else None)
