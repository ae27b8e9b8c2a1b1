"""A finished game's story in numbers: each player's net worth turn by turn, rebuilt from the log.

Replays the game (seed + actions) and takes the rules' own valuation at every turn's start: the
board's B-17 value, the card game's table value (D-16). Pure, so the end-of-game chart and any
later statistics draw from the same figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.games import GAMES


def net_worth_series(rules: GameRules, seats: int, options: Any, seed: int,
                     log: Sequence[tuple[int, Any]]) -> dict[int, list[int]]:
    value = GAMES[rules.name].presentation.worth
    state = rules.new_game(seats, options, seed)
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
        rules.apply(state, seat, action)
    sample()
    return series
