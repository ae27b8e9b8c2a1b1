"""Games played out from a copy of a table, for a search (the ``strong`` AI level): the copy's
hidden cards and dice drawn again for the searching seat (``GameRules.resample``), then every seat
moved by a policy (the heuristic AI) until the game ends or ``turns`` more turns have passed. The
original state is never touched, and a rollout replays exactly from its seed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.contract import GameRules, Result


def rollout(rules: GameRules, choose: Callable[[Any, int], Any], state: Any, viewer: int | None, seed: int,
            turns: int = 30) -> Any:
    """The copy of ``state`` after it was played out; the caller reads ``rules.result`` of it."""
    sim = rules.clone(state)
    if rules.resample is not None:
        rules.resample(sim, viewer, seed)
    play_on(rules, choose, sim, turns)
    return sim


def play_on(rules: GameRules, choose: Callable[[Any, int], Any], sim: Any, turns: int) -> Result:
    """Every seat of ``sim`` moved by ``choose`` until the game ends or ``turns`` more turns have
    passed (in place); the game's result then."""
    last = sim.turn_number + turns
    result = rules.result(sim)
    while not result.over and sim.turn_number <= last:
        decisions = rules.waiting_for(sim)
        if not decisions:
            break
        seat = decisions[0].seat
        rules.apply(sim, seat, choose(sim, seat))
        result = rules.result(sim)
    return result
