"""The end-of-game chart and the net-worth history it draws."""

from __future__ import annotations

import pytest

from engine.board.rules import valuation
from engine.games import PLUGS
from engine.history import net_worth_series
from engine.simulation import play_one
from render.chart import chart_texts, render_chart
from render.fonts import missing_glyphs

NAMES = {0: "Ann", 1: "张伟", 2: "陳大文", 3: "Bob"}


def test_history_starts_at_the_start_cash_and_ends_at_the_final_valuation():
    state, log = play_one(PLUGS["board"], 4, "classic", 5, 40)
    series = net_worth_series(PLUGS["board"].rules, 4, "classic", 5, log)
    assert all(v[0] == 1500 for v in series.values())
    final = valuation(state)
    assert {seat: v[-1] for seat, v in series.items()} == {s: final.get(s, 0) for s in range(4)}
    assert len(series[0]) == state.turn_number + 1


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
@pytest.mark.parametrize("game", ["board", "deal"])
def test_chart_renders_in_every_language_without_missing_glyphs(game, lang):
    state, log = play_one(PLUGS[game], 4, None, 3, 60)
    series = net_worth_series(PLUGS[game].rules, 4, None, 3, log)
    img = render_chart(series, NAMES, list(state.winners), lang)
    assert img.size == (1000, 700)
    assert missing_glyphs(chart_texts(series, NAMES, lang), lang) == set()
    assert img.getbbox() is not None
