"""Games played out from a copy of a table, for a search (the ``strong`` AI level): the copy's
hidden cards and dice drawn again for the searching seat (``GameRules.resample``), then every seat
moved by a policy (the heuristic AI) until the game ends or ``turns`` more turns have passed. The
original state is never touched, and a rollout replays exactly from its seed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.contract import GameRules


def rollout(rules: GameRules, choose: Callable[[Any, int], Any], state: Any, viewer: int | None, seed: int,
            turns: int = 30) -> Any:
    """The copy of ``state`` after it was played out; the caller reads ``rules.result`` of it."""
    sim = rules.clone(state)
    if rules.resample is not None:
        rules.resample(sim, viewer, seed)
    last = sim.turn_number + turns
    while sim.turn_number <= last and not rules.result(sim).over:
        decisions = rules.waiting_for(sim)
        if not decisions:
            break
        seat = decisions[0].seat
        rules.apply(sim, seat, choose(sim, seat))
    return sim
