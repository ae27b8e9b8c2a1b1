"""The end-of-game chart and the net-worth history it draws."""

from __future__ import annotations

import pytest

from engine.board.rules import valuation
from engine.games import GAMES
from engine.play.history import net_worth_series
from engine.play.simulation import play_one
from render.chart import chart_texts, chart_ticks, nice_step, render_chart
from render.colours import player_colour
from render.fonts import missing_glyphs

NAMES = {0: "Ann", 1: "张伟", 2: "陳大文", 3: "Bob"}


def test_history_starts_at_the_start_cash_and_ends_at_the_final_valuation():
    state, log = play_one(GAMES["board"], 4, "classic", 5, 40)
    series = net_worth_series(GAMES["board"].rules, 4, "classic", 5, log)
    assert all(v[0] == 1500 for v in series.values())
    final = valuation(state)
    assert {seat: v[-1] for seat, v in series.items()} == {s: final.get(s, 0) for s in range(4)}
    assert len(series[0]) == state.turn_number + 1


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
@pytest.mark.parametrize("game", ["board", "deal"])
def test_chart_renders_in_every_language_without_missing_glyphs(game, lang):
    state, log = play_one(GAMES[game], 4, None, 3, 60)
    series = net_worth_series(GAMES[game].rules, 4, None, 3, log)
    img = render_chart(series, NAMES, list(state.winners), lang)
    assert img.size == (1000, 700)
    assert missing_glyphs(chart_texts(series, NAMES, lang), lang) == set()
    assert img.getbbox() is not None


@pytest.mark.parametrize(("span", "step"), [(10_500, 2000), (21_000, 5000), (5_250, 1000), (1, 1), (37, 10),
                                            (120, 20), (60, 10), (999, 200)])
def test_chart_steps_are_one_two_or_five_times_a_power_of_ten(span, step):
    assert nice_step(span) == step


def test_chart_axes_carry_round_money_steps_and_turn_numbers():
    series = {0: [1500, 1700, 5200, 10_500], 1: [1500, 900, 300, 0]}
    money_ticks, turn_ticks = chart_ticks(series)
    assert money_ticks == [0, 2000, 4000, 6000, 8000, 10_000, 12_000]
    assert turn_ticks == [0, 1, 2, 3]
    texts = chart_texts(series, NAMES, "en")
    for v in money_ticks:
        assert f"{v:,}" in texts
    long = {0: list(range(0, 6100, 100))}  # 61 samples: turns 0…60
    assert chart_ticks(long)[1] == [0, 10, 20, 30, 40, 50, 60]


def test_chart_legend_names_every_player_with_their_colour():
    series = {0: [1500, 1600], 1: [1500, 1400], 2: [1500, 1500]}
    img = render_chart(series, NAMES, [0], "en")
    texts = chart_texts(series, NAMES, "en")
    for seat in series:
        assert NAMES[seat] in texts
    row = [img.getpixel((x, 84)) for x in range(0, img.width)]  # the legend's line samples
    for seat in series:
        assert any(max(abs(a - b) for a, b in zip(px, player_colour(seat), strict=True)) < 10 for px in row)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
def test_the_result_picture_reads_on_a_phone_winner_and_ranking_in_the_bubble_the_chart_full_screen(lang):
    """The end's picture (issue 45): the winner and everyone's line at least 11 px when the picture
    is 330 px wide, the chart's numbers at least 9 px at 390, every glyph in the font."""
    from render.common import BUBBLE_W, DETAIL_PX, FULL_W, GLANCE_PX
    from render.result import WIDTH, result_pen

    state, log = play_one(GAMES["deal"], 4, None, 3, 60)
    series = net_worth_series(GAMES["deal"].rules, 4, None, 3, log)
    ranked = [(s, f"{n}. {NAMES[s]}: complete sets 1 · bank 3M") for n, s in enumerate(sorted(series), 1)]
    pen = result_pen(series, NAMES, [ranked[0][0]], ranked, lang, lambda a: f"{a}M")
    glance = [size for text, size, layer in pen.sizes if layer == "glance"]
    detail = [size for text, size, layer in pen.sizes if layer == "detail"]
    assert len(glance) >= 2 + len(ranked) and detail
    assert min(glance) * BUBBLE_W / WIDTH >= GLANCE_PX
    assert min(detail) * FULL_W / WIDTH >= DETAIL_PX
    assert any(NAMES[ranked[0][0]] in text for text, _size, layer in pen.sizes if layer == "glance")
    assert missing_glyphs("".join(pen.texts), lang) == set()
