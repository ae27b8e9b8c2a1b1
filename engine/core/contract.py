"""What every game offers the service, the AI and the adapters (docs/design.md, "The rules contract").

A game is a ``GameRules`` value of plain functions over a plain-data state:

- ``new_game(seats, options, seed) -> state``
- ``legal_actions(state, seat) -> [Action]``: every choice the seat has now; the same list makes
  the buttons, is what the AI picks from, and is what ``apply`` accepts.
- ``apply(state, seat, action) -> [Event]``: validates first (raising ``RuleError`` with the state
  untouched), then changes the state in place and reports what happened.
- ``view(state, seat | None)``: what that seat, or the public, may see (never another hand or the
  draw pile's order).
- ``waiting_for(state) -> [Decision]``: who must or may act now, and what happens if they don't.
- ``timeout_action(state, seat)``: the action applied for a seat that runs out of time.
- ``answers(decision, actions)``: which of a seat's actions answer that decision (the buttons to
  show with it), as opposed to what else the seat may do meanwhile.
- ``result(state) -> Result``: whether the game is over, who won and why.

Replay (``replay``) rebuilds a state from its seed and action log; tests compare it to the live
state byte for byte.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec


class Decision(msgspec.Struct, frozen=True):
    """A pending decision: ``seat`` must answer ``kind``; ``policy`` names the clock that applies.

    Policies the service knows: ``turn`` (the player's turn), ``card`` (one card play, the Deal
    tournament's 10 s), ``response`` (a Just-Say-No window), ``payment``, ``discard``, ``choice``
    (a small follow-up choice such as where a received House goes).
    """

    seat: int
    kind: str
    policy: str
    timeout: Any  # the game's Action applied when the seat runs out of time


def first_timeout(decisions: list[Decision], seat: int):
    """The action applied when ``seat`` runs out of time: that of its first pending decision."""
    for decision in decisions:
        if decision.seat == seat:
            return decision.timeout
    return None


class Result(msgspec.Struct):
    over: bool
    winners: list[int] = []
    reason: str | None = None  # "sets", "last_player", "time", "turn_cap"
    scores: dict[int, int] = {}  # valuation per seat when the game was decided on value


_ENCODER = msgspec.msgpack.Encoder()


@functools.cache
def _decoder(state_type: type) -> msgspec.msgpack.Decoder:
    return msgspec.msgpack.Decoder(state_type)


@dataclass(frozen=True)
class GameRules:
    """The functions of one game. Built once per game module; see the module docstring."""

    name: str
    rulesets: tuple[str, ...]
    min_players: int
    max_players: int
    new_game: Callable[..., Any]
    legal_actions: Callable[[Any, int], list]
    apply: Callable[[Any, int, Any], list]
    view: Callable[[Any, int | None], dict]
    waiting_for: Callable[[Any], list[Decision]]
    timeout_action: Callable[[Any, int], Any]
    answers: Callable[[Decision, list], list]  # the actions that answer a decision (vs other options)
    result: Callable[[Any], Result]
    state_type: type
    action_type: Any
    event_type: Any
    new_game_with_events: Callable[..., tuple[Any, list]] | None = None  # (state, the opening's events)
    # re-deal in place what a seat cannot see, and reseed the dice: (state, viewer, seed) -> None
    resample: Callable[[Any, int | None, int], None] | None = None

    def clone(self, state: Any) -> Any:
        """A copy of ``state`` to play on (a search's rollouts): a msgpack round trip, a few
        microseconds. The copy shares the original's scratch tables (the attributes outside the
        state's fields, e.g. the board's ``memo``): each entry is keyed by everything it read,
        so it holds in every copy, and the worlds of one search stop working the same things
        out again; the state's data itself is shared with nothing."""
        copy = _decoder(self.state_type).decode(_ENCODER.encode(state))
        scratch = getattr(state, "__dict__", None)
        if scratch:
            copy.__dict__.update(scratch)
        return copy

    # -- JSON round trips: the state, actions and events are msgspec Structs ---------------

    def encode_state(self, state: Any) -> bytes:
        return msgspec.json.encode(state)

    def decode_state(self, data: bytes | str) -> Any:
        return msgspec.json.decode(data, type=self.state_type)

    def encode_action(self, action: Any) -> bytes:
        return msgspec.json.encode(action)

    def decode_action(self, data: bytes | str) -> Any:
        return msgspec.json.decode(data, type=self.action_type)

    def encode_events(self, events: Sequence[Any]) -> bytes:
        return msgspec.json.encode(list(events))

    def decode_events(self, data: bytes | str) -> list:
        return msgspec.json.decode(data, type=list[self.event_type])

    @classmethod
    def of(cls, name: str, rules: Any, state_type: type, action_type: Any, event_type: Any,
           resample: Callable | None = None) -> GameRules:
        """A game's ``GameRules`` from its rules module (which defines the contract's functions)."""
        return cls(
            name=name, rulesets=tuple(rules.RULESETS), min_players=rules.MIN_PLAYERS,
            max_players=rules.MAX_PLAYERS, new_game=rules.new_game, legal_actions=rules.legal_actions,
            apply=rules.apply, view=rules.view, waiting_for=rules.waiting_for,
            timeout_action=rules.timeout_action, answers=rules.answers, result=rules.result, state_type=state_type,
            action_type=action_type, event_type=event_type,
            new_game_with_events=getattr(rules, "new_game_with_events", None), resample=resample,
        )

    def replay(self, seats: Sequence[Any], options: Any, seed: int, log: Sequence[tuple[int, Any]]):
        """Rebuild a game from its start and its log of ``(seat, action)`` pairs."""
        state = self.new_game(seats, options, seed)
        for seat, action in log:
            self.apply(state, seat, action)
        return state

    def replay_events(self, seats: Sequence[Any], options: Any, seed: int, log: Sequence[tuple[int, Any]]) -> list:
        """Every event of a game, from its opening on, rebuilt from its seed and log (a game's whole
        story for whoever comes late to it)."""
        if self.new_game_with_events is None:
            state, events = self.new_game(seats, options, seed), []
        else:
            state, events = self.new_game_with_events(seats, options, seed)
            events = list(events)
        for seat, action in log:
            events += self.apply(state, seat, action)
        return events
