"""Issue 48: a season's final standings as a picture, read on a phone like the game-end one: every
string on it shows at 11 px or more in the chat bubble, the champion of each game first and bold,
equal ratings sharing a place, names in any script drawn (no missing glyph)."""

from __future__ import annotations

import pytest

from render.season import WIDTH, render_season
from tests.render.test_phone_sizes import BUBBLE

STANDINGS = {"deal": [("陳大文", 28.31, 5, 7), ("Bob", 20.1, 2, 6), ("张伟", 18.0, 1, 4), ("D", 18.0, 0, 3)],
             "board": [("Alice", 22.2, 3, 3), ("乙", 10.0, 0, 3)]}


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
def test_a_seasons_picture_is_read_in_the_chat_bubble(lang):
    pen = render_season("2026 W49", STANDINGS, lang)
    assert pen.image.width == WIDTH
    small = [(s, size) for s, size, _layer in pen.sizes if size * BUBBLE / WIDTH < 11 - 1e-9]
    assert small == [], small
    texts = pen.texts
    for game_rows in STANDINGS.values():
        for name, rating, wins, games in game_rows:
            assert name in texts and f"{rating:.1f} · {wins}/{games}" in texts
    places = [s for s in texts if s.isdigit()]
    assert places == ["1", "2", "3", "3", "1", "2"], "equal ratings share a place"
