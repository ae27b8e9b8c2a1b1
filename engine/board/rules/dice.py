"""Where every roll of the board game's dice comes from: two dice from the game's seeded generator
(``state.rng``), so that a game replays from its seed and log.

Chance can be forced, for a test that builds a position: rolls set on the state itself
(``state.forced_rolls``, an iterator of ``(die, die)``; ``Dice`` in ``tests/board_builders.py``) are
taken first. They are a scratch attribute of that one state, never stored with it nor seen by any
other table, so nothing outside the state is patched."""

from __future__ import annotations


def roll(state) -> tuple[int, int]:
    forced = state.__dict__.get("forced_rolls")
    if forced is not None:
        return next(forced)
    return state.rng.die(), state.rng.die()
