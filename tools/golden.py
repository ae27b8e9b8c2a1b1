"""Golden pictures for the tests: ``python -m tools.golden [name ...]`` redraws them (or those named)
after an intended change.

Each golden is a fixed, seeded game snapshot; the tests compare fresh renders with these files
with a small tolerance (anti-aliasing may differ by a few pixels between FreeType builds).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

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


def played(game: str, ruleset: str, seed: int, turns: int) -> tuple[Any, list]:
    """``snapshot``'s game, played move by move as ``position_after`` plays it, and every event of
    it (rebuilt from its log by the rules, as the service rebuilds a game's story)."""
    plug = GAMES[game]
    rules = plug.rules
    state = rules.new_game(4, ruleset, seed)
    log = []
    while rules.waiting_for(state) and state.turn_number < turns:
        seat = rules.waiting_for(state)[0].seat
        action = plug.choose(state, seat)
        rules.apply(state, seat, action)
        log.append((seat, action))
    return state, rules.replay_events(4, ruleset, seed, log)


def news(game: str, ruleset: str, events: list, lang: str) -> list[str]:
    """The last moves a table picture shows, made as the chat makes them (``bot.chat.screens``):
    the events as the group may see them, worded in ``lang``, the latest ``EVENT_LINES``."""
    from render.games import EVENT_LINES
    from words.games import WORDS

    shown = GAMES[game].presentation.events_for(events, None)
    return WORDS[game].events(shown, lang, NAMES, ruleset, None)[-EVENT_LINES:]


def draw(name: str):
    from engine.board.rules import valuation
    from render.board import render_board
    from render.deal import render_table
    from render.deal_hand import render_discard, render_hand

    game, ruleset, seed, turns, lang = CASES[name]
    rules = GAMES[game].rules
    if name.startswith("deal"):  # the table, with the news of the moves that led to it
        state, events = played(game, ruleset, seed, turns)
        return render_table(rules.view(state, None), lang, NAMES, news(game, ruleset, events, lang))
    state = snapshot(game, ruleset, seed, turns)
    if name.startswith("hand"):
        return render_hand(rules.view(state, 0), 0, lang)
    if name.startswith("discard"):  # as the player whose turn it is may look through it (D-18)
        current = rules.view(state, None)["current"]
        return render_discard(rules.view(state, current)["discard"] or [], lang)
    return render_board(rules.view(state, None), lang, NAMES, ruleset, "12:34", valuation(state), EVENTS[lang])


EVENTS = {  # a fixed "last moves" panel for the board goldens
    "zh-Hans": ["张伟 掷出 3 + 4", "张伟 向 Ann 付租金 200元"],
    "en": ["Bob rolled 6 + 2", "Bob paid $26 rent to Ann"],
}


def main(names: list[str] | None = None) -> None:
    """Redraw the goldens named (all of them when none is)."""
    unknown = sorted(set(names or ()) - set(CASES))
    if unknown:
        raise SystemExit(f"no such golden: {', '.join(unknown)} (one of {', '.join(CASES)})")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in names or CASES:
        draw(name).save(GOLDEN / name, compress_level=9)
        print("wrote", GOLDEN / name)


if __name__ == "__main__":
    main(sys.argv[1:])
