"""A finished game's story: each player's net worth turn by turn, and the feats each earned, both
rebuilt from the log in one replay.

Replays the game (seed + actions) and takes the rules' own valuation at every turn's start: the
board's B-17 value, the card game's table value (D-16); the game's feat watcher (``Game.feats``,
engine/core/feats.py) is shown every applied action on the way. Pure, and read from the seed and
the log alone, so the end-of-game chart, the achievements and any later statistics draw from the
same figures, and a restart or a second replay gives exactly the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.contract import GameRules
from engine.games import GAMES


@dataclass
class Story:
    series: dict[int, list[int]]  # seat -> its worth at the start of every turn, then at the end
    feats: dict[int, list[str]]  # seat -> the feat keys it earned, in catalogue order, each once


def game_story(rules: GameRules, seats: int, options: Any, seed: int, log: Sequence[tuple[int, Any]]) -> Story:
    """One replay of the log for both the worth series and the feats. For a log that has not
    reached the end, the feats earned so far; feats for winning only once ``rules.result`` says
    the game is over (the watcher is handed that result)."""
    game = GAMES[rules.name]
    value = game.presentation.worth
    state = rules.new_game(seats, options, seed)
    watcher = game.feats.watcher(state, seats) if game.feats is not None else None
    series: dict[int, list[int]] = {seat: [] for seat in range(seats)}
    turn = -1

    def sample() -> None:
        values = value(state)
        for seat in series:
            series[seat].append(values.get(seat, 0))  # a bankrupt player is worth nothing

    for seat, action in log:
        if state.turn_number != turn:
            turn = state.turn_number
            sample()
        events = rules.apply(state, seat, action)
        if watcher is not None:
            watcher.see(state, seat, action, events)
    sample()
    feats: dict[int, list[str]] = {seat: [] for seat in range(seats)}
    if watcher is not None:
        earned = watcher.earned(state, rules.result(state))
        for seat in feats:
            got = earned.get(seat, set())
            feats[seat] = [key for key in game.feats.keys if key in got]
    return Story(series=series, feats=feats)


def net_worth_series(rules: GameRules, seats: int, options: Any, seed: int,
                     log: Sequence[tuple[int, Any]]) -> dict[int, list[int]]:
    return game_story(rules, seats, options, seed, log).series
