"""Deal's part in the ``strong`` level (``engine/play/search.py``): which moves a decision searches and
how a world that is still running is scored.

Searched: the plays of a turn (the heuristic's ranked moves, its own first, a few of them) and
the answers to a demand (say no or not, pay or not). A discard is the heuristic's (the card it
would keep least). A world still running after the horizon is scored by the seat's share of the
players' progress: complete sets count most, then how far each other group is, then the bank.
"""

from __future__ import annotations

from engine.core.values import SYSTEM
from engine.deal import ai
from engine.deal.cards import SET_SIZE, VALUE
from engine.deal.model import DealState, Discard, MoveProperty
from engine.deal.rules import current_seat, pending_options

TOP_MOVES = 4  # the heuristic's best moves of a play searched, its own first among them


def candidates(world: DealState, seat: int) -> list:
    """The heuristic's move first, then the alternatives worth searching (none: a single entry)."""
    pick = ai.choose(world, seat)
    if pick is None or isinstance(pick, Discard):
        return [pick]
    if world.pending and world.phase != "over" and seat != SYSTEM:
        others = [a for a in pending_options(world, seat, pick_cards=False) if a != pick]
        kinds = {type(pick)}
        out = [pick]
        for a in others:  # one answer of each kind: say no, pay, accept, place a building
            if type(a) not in kinds:
                kinds.add(type(a))
                out.append(a)
        return out
    if world.phase == "play" and seat == current_seat(world):
        # a free re-arrangement is never an alternative: it uses no play, so picking one could
        # be picked again and again (the heuristic's own re-arrangements complete a set)
        others = [a for a in ai.ranked(world, seat) if a != pick and type(a) is not MoveProperty]
        return [pick, *others[:TOP_MOVES - 1]]
    return [pick]


def score(world: DealState, seat: int) -> float:
    """The seat's share of the players' progress towards three sets."""
    mine, total = 0.0, 0.0
    for p in world.players:
        sets, partial = 0, 0.0
        for g in p.groups:
            if g.colour is None:
                continue
            size = SET_SIZE[g.colour]
            if len(g.cards) >= size:
                sets += 1
            else:
                partial += len(g.cards) / size
        value = 3.0 * min(sets, 3) + partial + sum(VALUE[c] for c in p.bank) / 10
        total += value
        if p.seat == seat:
            mine = value
    return mine / total if total > 0 else 0.0
