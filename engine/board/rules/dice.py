"""Where every roll of the board game's dice comes from: two dice from the game's seeded generator
(``state.rng``), so that a game replays from its seed and log. The one seam for tests: they
replace ``roll`` here to force the rolls (``Dice`` in ``tests/board_builders.py``)."""

from __future__ import annotations


def roll(state) -> tuple[int, int]:
    return state.rng.die(), state.rng.die()
