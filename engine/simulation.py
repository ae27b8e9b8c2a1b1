"""AI-only games for ``tycoon simulate`` and ``tycoon bench``: play, check invariants, replay.

Pure and deterministic: the same seed gives the same games and the same figures (timings are
measured by the caller). Each game's seed is drawn from the run's seed with the seeded generator.
A game that does not end by ``turn_cap`` turns is stopped and counted, never left to hang: the
board game then ends by its valuation (B-17, reason ``turn_cap``); the card game is left unfinished.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng


@dataclass
class GamePlug:
    """What the runner needs from one game besides its rules."""

    rules: GameRules
    choose: Callable[[Any, int], Any]  # the AI
    violations: Callable[[Any], list[str]]
    turn_of: Callable[[Any], int]  # the turn counter
    turn_ended: Callable[[Any], int | None]  # seat whose turn just ended, from an event, else None
    turn_end_check: Callable[[Any, int], bool]  # a fact to check at the end of each turn
    turn_cap: int = 200  # default cap on turns for this game
    at_cap: Callable[[Any], None] | None = None  # how a capped game ends (None: left unfinished)


@dataclass
class SimulationStats:
    games: int = 0
    completed: int = 0
    capped: int = 0
    actions: int = 0
    turns: int = 0
    wins: Counter = field(default_factory=Counter)
    end_reasons: Counter = field(default_factory=Counter)
    invariant_violations: int = 0
    replay_mismatches: int = 0
    first_violations: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "completed": self.completed,
            "capped": self.capped,
            "actions": self.actions,
            "turns_mean": round(self.turns / self.games, 2) if self.games else 0.0,
            "wins": {str(k): v for k, v in sorted(self.wins.items())},
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "invariant_violations": self.invariant_violations,
            "replay_mismatches": self.replay_mismatches,
            "first_violations": self.first_violations[:5],
        }


def game_seeds(seed: int, games: int) -> list[int]:
    rng = Rng.from_seed(seed)
    return [rng.next64() for _ in range(games)]


def play_one(plug: GamePlug, players: int, options: Any, seed: int, turn_cap: int | None,
             check_every_action: bool = True, stats: SimulationStats | None = None,
             on_action: Callable[[Any, int, Any], None] | None = None):
    """One AI game; returns ``(state, log)``. Counts into ``stats`` when given."""
    rules = plug.rules
    cap = plug.turn_cap if turn_cap is None else turn_cap
    state = rules.new_game(players, options, seed)
    log: list[tuple[int, Any]] = []
    st = stats if stats is not None else SimulationStats()
    action_cap = 200 * (cap + 1)  # an AI that stops moving the game on is a bug: report, never hang
    while True:
        waiting = rules.waiting_for(state)
        if not waiting:
            break
        if len(log) > action_cap:
            st.invariant_violations += 1
            st.first_violations.append(f"seed {seed}: {len(log)} actions without reaching turn {cap}")
            break
        if plug.turn_of(state) > cap:
            if plug.at_cap is not None:
                action = plug.at_cap(state)
                rules.apply(state, -1, action)
                log.append((-1, action))
            break
        seat = waiting[0].seat
        action = plug.choose(state, seat)
        events = on_action(state, seat, action) if on_action else rules.apply(state, seat, action)
        log.append((seat, action))
        st.actions += 1
        if check_every_action:
            problems = plug.violations(state)
            for e in events:
                ended = plug.turn_ended(e)
                if ended is not None and not plug.turn_end_check(state, ended):
                    problems.append(f"seat {ended} ended a turn breaking the end-of-turn rule")
            if problems:
                st.invariant_violations += len(problems)
                st.first_violations += [f"seed {seed}: {p}" for p in problems]
    return state, log


def simulate(plug: GamePlug, games: int, players: int, seed: int, options: Any = None, turn_cap: int | None = None,
             verify_replay: bool = True, check_every_action: bool = True) -> SimulationStats:
    stats = SimulationStats()
    rules = plug.rules
    for game_seed in game_seeds(seed, games):
        state, log = play_one(plug, players, options, game_seed, turn_cap, check_every_action, stats)
        stats.games += 1
        stats.turns += plug.turn_of(state)
        res = rules.result(state)
        if res.over:
            stats.completed += 1
            stats.end_reasons[res.reason or "?"] += 1
            if res.reason == "turn_cap":
                stats.capped += 1
            for w in res.winners:
                stats.wins[w] += 1
        else:
            stats.capped += 1
            stats.end_reasons["turn_cap"] += 1
        if verify_replay:
            again = rules.replay(players, options, game_seed, log)
            if rules.encode_state(again) != rules.encode_state(state):
                stats.replay_mismatches += 1
    return stats
