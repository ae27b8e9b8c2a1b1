"""The board picture: every rule set and language, no missing glyphs, goldens, speed-safe size."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engine.board import BOARD
from engine.board.ai import choose
from render import golden
from render.board import render_board, texts_drawn
from render.fonts import missing_glyphs
from render.png import png_bytes

NAMES = {0: "Ann", 1: "张伟", 2: "陳大文", 3: "Bob"}


def _state(ruleset: str, seed: int = 4, turns: int = 60):
    return golden.snapshot("board", ruleset, seed, turns)


@pytest.mark.parametrize("ruleset", ["china", "classic"])
@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
def test_every_rule_set_and_language_renders_without_missing_glyphs(ruleset, lang):
    state = _state(ruleset)
    view = BOARD.view(state, None)
    img = render_board(view, lang, NAMES, ruleset)
    assert img.size == (1000, 1000)
    text = "".join(texts_drawn(view, lang, NAMES, ruleset))
    assert missing_glyphs(text, lang) == set()
    assert len(png_bytes(img)) < 250 * 1024


def test_the_picture_follows_the_view():
    state = _state("china")
    view = BOARD.view(state, None)
    a = render_board(view, "zh-Hans", NAMES)
    assert ImageChops.difference(a, render_board(view, "zh-Hans", NAMES)).getbbox() is None
    seat = BOARD.waiting_for(state)[0].seat
    BOARD.apply(state, seat, choose(state, seat))
    while state.stage != "roll":
        seat = BOARD.waiting_for(state)[0].seat
        BOARD.apply(state, seat, choose(state, seat))
    b = render_board(BOARD.view(state, None), "zh-Hans", NAMES)
    assert ImageChops.difference(a, b).getbbox() is not None  # the tokens moved


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_pictures(name):
    """Redraw with ``python -m render.golden`` after an intended change of the design."""
    expected = Image.open(golden.GOLDEN / name).convert("RGB")
    fresh = golden.draw(name)
    diff = ImageChops.difference(expected, fresh).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = sum(diff.histogram()[255:])
    assert changed < 0.005 * fresh.size[0] * fresh.size[1], f"{changed} pixels differ from {name}"


def test_render_command_writes_a_png(tmp_path, capsys):
    from bot.cli import main

    out = tmp_path / "b.png"
    assert main(["render", "board", "--seed", "2", "--turns", "20", "--lang", "zh-Hant", "--out", str(out)]) == 0
    assert Image.open(out).size == (1000, 1000)
    assert main(["render", "hand", "--out", str(out)]) == 2
    assert "seat:N" in capsys.readouterr().err
    assert main(["render", "board", "--view", "seat:9", "--out", str(out)]) == 2
