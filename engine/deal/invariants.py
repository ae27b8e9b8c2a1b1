"""Facts that hold after every Deal action; simulations and property tests check them.

Returned as readable strings rather than asserted, so a simulation can count violations and a
test can show exactly which one broke.
"""

from __future__ import annotations

from engine.deal import area
from engine.deal.cards import IS_PROPERTY, N_CARDS, SET_SIZE
from engine.deal.model import DealState
from engine.deal.rules import HAND_LIMIT, current_seat


def card_locations(state: DealState) -> list[int]:
    """Every card id wherever it is: piles, hands, banks, groups, buildings, in transit."""
    cards = list(state.draw_pile) + list(state.discard_pile)
    for p in state.players:
        cards += p.hand + p.bank
        for g in p.groups:
            cards += g.cards
            cards += [b for b in (g.house, g.hotel) if b is not None]
    for d in state.pending:
        cards += d.to_place
    return cards


def violations(state: DealState) -> list[str]:
    out = []
    cards = card_locations(state)
    if len(cards) != N_CARDS or len(set(cards)) != N_CARDS:
        out.append(f"{len(cards)} cards ({len(set(cards))} distinct) instead of {N_CARDS}")
    for p in state.players:
        for g in p.groups:
            if any(not IS_PROPERTY[c] for c in g.cards):
                out.append(f"seat {p.seat}: a non-property card in a property group")
            if g.colour is not None and len(g.cards) > SET_SIZE[g.colour]:
                out.append(f"seat {p.seat}: {g.colour} group over its set size (D-17)")
            if g.hotel is not None and g.house is None and area.is_complete(g, state.options):
                out.append(f"seat {p.seat}: a Hotel without a House on a complete set (D-12)")
            if not g.cards and g.house is None and g.hotel is None:
                out.append(f"seat {p.seat}: an empty group")
    if state.phase == "play" and state.plays_left < 0:
        out.append("negative plays left")
    if state.phase == "over" and not state.winners:
        out.append("game over without a winner")
    if state.phase != "over" and state.order and current_seat(state) not in range(len(state.players)):
        out.append("current seat out of range")
    return out


def hand_limit_ok(state: DealState, seat: int) -> bool:
    """D-04: checked when a turn ends."""
    return len(state.players[seat].hand) <= HAND_LIMIT
