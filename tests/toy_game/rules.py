"""The rules of "race to ten" (pure, like a real game's): players take turns adding 1 or 2 to a
shared count; whoever brings it to ten wins. The seeded generator picks who starts."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.core.contract import Decision, GameRules, Result
from engine.core.errors import RuleError
from engine.core.rng import Rng
from engine.core.values import Action, EndMatch, Event, GameOver, GameStarted, TurnEnded, TurnStarted

RULESETS = ("short", "long")
GOALS = {"short": 10, "long": 20}
MIN_PLAYERS, MAX_PLAYERS = 2, 3


class Add(Action, tag="add"):
    amount: int


class Added(Event, tag="added"):
    seat: int
    amount: int
    count: int


class ToyOptions(msgspec.Struct):
    ruleset: str = "short"
    goal: int = 10
    match_minutes: int = 0


class ToyState(msgspec.Struct):
    players: int
    options: ToyOptions
    rng: Rng
    current: int = 0
    count: int = 0
    turn_number: int = 1
    winners: list[int] = []
    phase: str = "play"


ToyAction = Add | EndMatch
ToyEvent = Added | GameStarted | TurnStarted | TurnEnded | GameOver


def resolve_options(options) -> ToyOptions:
    if isinstance(options, ToyOptions):
        return options
    chosen = {"ruleset": options} if isinstance(options, str) or options is None else dict(options)
    ruleset = chosen.get("ruleset") or RULESETS[0]
    return ToyOptions(ruleset=ruleset, goal=GOALS[ruleset],
                      **{k: v for k, v in chosen.items() if k in ("match_minutes",)})


def new_game(seats: int | Sequence, options=None, seed: int = 0) -> ToyState:
    players = seats if isinstance(seats, int) else len(seats)
    rng = Rng.from_seed(seed)
    return ToyState(players=players, options=resolve_options(options), rng=rng, current=rng.below(players))


def legal_actions(state: ToyState, seat: int) -> list:
    if state.phase != "play" or seat != state.current:
        return []
    return [Add(amount=n) for n in (1, 2) if state.count + n <= state.options.goal]


def apply(state: ToyState, seat: int, action) -> list:
    if isinstance(action, EndMatch):
        if state.phase != "play":
            raise RuleError("T-01", "toy.over")
        state.phase, state.winners = "over", []
        return [GameOver(winners=[], reason=action.reason)]
    if action not in legal_actions(state, seat):
        raise RuleError("T-01", "toy.not_yours")
    state.count += action.amount
    events: list = [Added(seat=seat, amount=action.amount, count=state.count), TurnEnded(seat=seat)]
    if state.count >= state.options.goal:
        state.phase, state.winners = "over", [seat]
        events.append(GameOver(winners=[seat], reason="goal"))
        return events
    state.current = (state.current + 1) % state.players
    state.turn_number += 1
    events.append(TurnStarted(seat=state.current, turn=state.turn_number))
    return events


def view(state: ToyState, seat: int | None = None) -> dict:
    return {"count": state.count, "goal": state.options.goal, "current": state.current, "phase": state.phase,
            "ruleset": state.options.ruleset, "players": [{"seat": s} for s in range(state.players)]}


def waiting_for(state: ToyState) -> list[Decision]:
    if state.phase != "play":
        return []
    return [Decision(seat=state.current, kind="turn", policy="turn", timeout=Add(amount=1))]


def timeout_action(state: ToyState, seat: int):
    return Add(amount=1)


def answers(decision: Decision, actions: list) -> list:
    return list(actions)


def result(state: ToyState) -> Result:
    if state.phase != "over":
        return Result(over=False)
    return Result(over=True, winners=list(state.winners), reason="goal" if state.winners else "time")


def valuation(state: ToyState) -> dict[int, int]:
    return {s: 0 for s in range(state.players)}


class _Module:  # what ``GameRules.of`` reads: this module's functions under the contract's names
    RULESETS, MIN_PLAYERS, MAX_PLAYERS = RULESETS, MIN_PLAYERS, MAX_PLAYERS
    new_game = staticmethod(new_game)
    legal_actions, apply, view = staticmethod(legal_actions), staticmethod(apply), staticmethod(view)
    waiting_for, timeout_action = staticmethod(waiting_for), staticmethod(timeout_action)
    answers, result = staticmethod(answers), staticmethod(result)


TOY = GameRules.of("toy", _Module, ToyState, ToyAction, ToyEvent)
