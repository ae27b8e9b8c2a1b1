"""Golden pictures for the tests: ``python -m tools.golden`` redraws them after an intended change.

Each golden is a fixed, seeded game snapshot; the tests compare fresh renders with these files
with a small tolerance (anti-aliasing may differ by a few pixels between FreeType builds).
"""

from __future__ import annotations

from pathlib import Path

from bot.process.cli import SAMPLE_NAMES as NAMES
from engine.games import GAMES
from engine.play.simulation import position_after

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
CASES = {  # file -> (game, ruleset, seed, turns, lang)
    "board_china_zh-Hans.png": ("board", "china", 7, 120, "zh-Hans"),
    "board_classic_en.png": ("board", "classic", 3, 80, "en"),
    "deal_standard_zh-Hant.png": ("deal", "standard", 5, 12, "zh-Hant"),
    "hand_tournament_en.png": ("deal", "tournament", 8, 6, "en"),
    "discard_tournament_zh-Hans.png": ("deal", "tournament", 8, 15, "zh-Hans"),
}


def snapshot(game: str, ruleset: str, seed: int, turns: int):
    """The seeded AI game of four after ``turns`` turns (or its end)."""
    return position_after(GAMES[game], 4, ruleset, seed, turns)


def draw(name: str):
    from engine.board.rules import valuation
    from render.board import render_board
    from render.deal import render_discard, render_hand, render_table

    game, ruleset, seed, turns, lang = CASES[name]
    state = snapshot(game, ruleset, seed, turns)
    rules = GAMES[game].rules
    if name.startswith("hand"):
        return render_hand(rules.view(state, 0), 0, lang)
    if name.startswith("discard"):  # as the player whose turn it is may look through it (D-18)
        current = rules.view(state, None)["current"]
        return render_discard(rules.view(state, current)["discard"] or [], lang)
    if game == "deal":
        return render_table(rules.view(state, None), lang, NAMES)
    return render_board(rules.view(state, None), lang, NAMES, ruleset, "12:34", valuation(state), EVENTS[lang])


EVENTS = {  # a fixed "last moves" panel for the board goldens
    "zh-Hans": ["张伟 掷出 3 + 4", "张伟 向 Ann 付租金 200元"],
    "en": ["Bob rolled 6 + 2", "Bob paid $26 rent to Ann"],
}


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in CASES:
        draw(name).save(GOLDEN / name, compress_level=9)
        print("wrote", GOLDEN / name)


if __name__ == "__main__":
    main()
