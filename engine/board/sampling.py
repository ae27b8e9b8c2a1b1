"""What nobody knows of a board game, drawn again at random for a search: the order of the Chance
and Community Chest decks and every die to come (a fresh seed). Deeds, cash and houses are public."""

from __future__ import annotations

from engine.board.model import BoardState
from engine.core.rng import Rng, sampled_order


def resample(state: BoardState, viewer: int | None, seed: int) -> None:
    """Shuffle, in place, the decks' order and reseed the dice (the same for every viewer)."""
    state.chance = sampled_order(state.chance, seed)
    state.chest = sampled_order(state.chest, seed + 1)
    state.rng = Rng.from_seed(hash((seed, -1)) & 0xFFFFFFFFFFFFFFFF)  # ints: the same in every process
