"""What one player does not know of a Deal game, dealt again at random: the other players' hands
and the draw pile (their cards shuffled together, each hand keeping its size), and the dice and
shuffles to come (a fresh seed). A search (the strong AI) plays many such games out from a copy of
the table, each one a world consistent with what the searching player has seen (determinization).
The discard pile, the banks and the property sets are public and stay as they are."""

from __future__ import annotations

from engine.core.rng import Rng, sampled_order
from engine.deal.model import DealState


def resample(state: DealState, viewer: int | None, seed: int) -> None:
    """Re-deal, in place, what ``viewer`` (a seat, or None: nobody's hand is known) cannot see."""
    hidden = [p for i, p in enumerate(state.players) if i != viewer]
    unseen = sampled_order(list(state.draw_pile) + [card for p in hidden for card in p.hand], seed)
    for p in hidden:
        size = len(p.hand)
        p.hand, unseen = unseen[:size], unseen[size:]
    state.draw_pile = unseen
    state.rng = Rng.from_seed(hash((seed, -1)) & 0xFFFFFFFFFFFFFFFF)  # ints: the same in every process
