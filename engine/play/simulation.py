"""AI-only games for ``tycoon simulate`` and ``tycoon bench``: play, check invariants, replay.

Pure and deterministic: the same seed gives the same games and the same figures (timings are
measured by the caller). Each game's seed is drawn from the run's seed with the seeded generator.
Seats may play different policies (``seats``: one name from ``Game.policies`` per seat, e.g.
the board's ``ai`` and ``basic``); the list is rotated by one seat per game so every policy plays
from every position, and wins are counted per policy.
A game that does not end by ``turn_cap`` turns is stopped and counted, never left to hang: the
board game then ends by its valuation (B-17, reason ``turn_cap``); the card game is left unfinished.

What is checked (``check``, ``tycoon simulate --check``): ``all`` checks the invariants after every
action and replays each game from its log; ``end`` checks the invariants and the replay once, at
the end of each game; ``none`` checks nothing (the engine's own speed). The games played are the
same in every mode: checking reads the state, it never changes it. The time spent checking is
kept apart from the engine's when the caller passes a ``clock`` (the engine reads no clock itself).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.game import Game
from engine.core.rng import Rng


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
    seat_types: list[str] = field(default_factory=list)  # as given (before rotation); empty: all "ai"
    wins_by_type: Counter = field(default_factory=Counter)
    trades: int = 0
    check: str = "all"
    # with a clock: time in the games (AI and rules) and time in the checks (invariants, replay)
    engine_seconds: float = 0.0
    check_seconds: float = 0.0

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
            "seat_types": list(self.seat_types) or ["ai"],
            "wins_by_type": {k: v for k, v in sorted(self.wins_by_type.items())},
            # a policy's share of the games it won (shared wins count for each winner)
            "win_share_by_type": {k: round(v / self.games, 4) for k, v in sorted(self.wins_by_type.items())}
            if self.games else {},
            # its 95 % interval (Wilson's, for a share of games)
            "win_share_95_by_type": {k: [round(x, 4) for x in wilson(min(v, self.games), self.games)]
                                     for k, v in sorted(self.wins_by_type.items())} if self.games else {},
            "trades": self.trades,
            "trades_mean": round(self.trades / self.games, 2) if self.games else 0.0,
            "check": self.check,
            "engine_seconds": round(self.engine_seconds, 3),
            "check_seconds": round(self.check_seconds, 3),
        }


CHECKS = ("all", "end", "none")


def game_seeds(seed: int, games: int) -> list[int]:
    rng = Rng.from_seed(seed)
    return [rng.next64() for _ in range(games)]


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a share of ``successes`` in ``trials`` (95 % for z = 1.96)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * ((p * (1 - p) + z * z / (4 * trials)) / trials) ** 0.5 / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def seat_policies(plug: Game, seats: list[str] | None, players: int, game_index: int) -> list[str]:
    """The policy of each seat in game ``game_index``: ``seats`` rotated by one per game."""
    if not seats:
        return ["ai"] * players
    if len(seats) != players:
        raise ValueError(f"{len(seats)} seat types for {players} players")
    unknown = [s for s in seats if s != "ai" and s not in plug.policies]
    if unknown:
        raise ValueError(f"unknown seat type {unknown[0]!r}; choose from {', '.join(['ai', *plug.policies])}")
    shift = game_index % players
    return seats[-shift:] + seats[:-shift] if shift else list(seats)


def play_one(plug: Game, players: int, options: Any, seed: int, turn_cap: int | None,
             check_every_action: bool = True, stats: SimulationStats | None = None,
             on_action: Callable[[Any, int, Any], None] | None = None, policies: list[str] | None = None,
             clock: Callable[[], float] | None = None):
    """One AI game; returns ``(state, log)``. Counts into ``stats`` when given. ``policies``: the
    seat type of each seat (default: all ``ai``). With a ``clock``, the time of the checks after
    each action is added to ``stats.check_seconds`` and the rest to ``stats.engine_seconds``."""
    rules = plug.rules
    cap = plug.turn_cap if turn_cap is None else turn_cap
    state = rules.new_game(players, options, seed)
    log: list[tuple[int, Any]] = []
    st = stats if stats is not None else SimulationStats()
    action_cap = 200 * (cap + 1)  # an AI that stops moving the game on is a bug: report, never hang
    choosers = [plug.choose if p == "ai" else plug.policies[p] for p in policies or ["ai"] * players]
    started = clock() if clock is not None else 0.0
    checking = 0.0
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
        action = choosers[seat](state, seat)
        events = on_action(state, seat, action) if on_action else rules.apply(state, seat, action)
        log.append((seat, action))
        st.actions += 1
        if plug.is_trade is not None and plug.is_trade(action):
            st.trades += 1
        if check_every_action:
            t0 = clock() if clock is not None else 0.0
            problems = plug.violations(state)
            for e in events:
                ended = plug.turn_ended(e)
                if ended is not None and not plug.turn_end_check(state, ended):
                    problems.append(f"seat {ended} ended a turn breaking the end-of-turn rule")
            if problems:
                st.invariant_violations += len(problems)
                st.first_violations += [f"seed {seed}: {p}" for p in problems]
            if clock is not None:
                checking += clock() - t0
    if clock is not None:
        st.engine_seconds += clock() - started - checking
        st.check_seconds += checking
    return state, log


def simulate(plug: Game, games: int, players: int, seed: int, options: Any = None, turn_cap: int | None = None,
             verify_replay: bool = True, check_every_action: bool = True,
             seats: list[str] | None = None, check: str | None = None,
             clock: Callable[[], float] | None = None) -> SimulationStats:
    """``check`` (``CHECKS``) sets ``check_every_action``: ``all`` after every action, ``end`` the
    invariants once after each game, ``none`` never; the replay follows it unless ``verify_replay``
    is False (``--no-replay``)."""
    if check is not None:
        if check not in CHECKS:
            raise ValueError(f"unknown check {check!r}; choose one of {', '.join(CHECKS)}")
        verify_replay = verify_replay and check != "none"
        check_every_action = check == "all"
    mode = check or ("all" if check_every_action else "end" if verify_replay else "none")
    stats = SimulationStats(seat_types=list(seats or []), check=mode)
    rules = plug.rules
    for index, game_seed in enumerate(game_seeds(seed, games)):
        policies = seat_policies(plug, seats, players, index)
        state, log = play_one(plug, players, options, game_seed, turn_cap, check_every_action, stats,
                              policies=policies, clock=clock)
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
                stats.wins_by_type[policies[w]] += 1
        else:
            stats.capped += 1
            stats.end_reasons["turn_cap"] += 1
        t0 = clock() if clock is not None else 0.0
        if mode == "end":  # the invariants once, on the final state
            problems = plug.violations(state)
            if problems:
                stats.invariant_violations += len(problems)
                stats.first_violations += [f"seed {game_seed}: {p}" for p in problems]
        if verify_replay:
            again = rules.replay(players, options, game_seed, log)
            if rules.encode_state(again) != rules.encode_state(state):
                stats.replay_mismatches += 1
        if clock is not None:
            stats.check_seconds += clock() - t0
    return stats


def position_after(plug: Game, players: int, options: Any, seed: int, turns: int) -> Any:
    """The seeded game of ``plug``'s AI seats after ``turns`` turns (or at its end): a fixed
    position to draw (``tycoon render``, the golden pictures, the picture benchmarks)."""
    rules = plug.rules
    state = rules.new_game(players, options, seed)
    while rules.waiting_for(state) and state.turn_number < turns:
        seat = rules.waiting_for(state)[0].seat
        rules.apply(state, seat, plug.choose(state, seat))
    return state
