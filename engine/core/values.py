"""Action and event types both games share: the tagged-union bases and the game-level events.

Each game's actions and events are msgspec Structs tagged by a ``type`` field; the start, turn
and end of a game, and the clock's ``EndMatch``, look the same in both games, so they live here
once and appear in both games' unions.
"""

from __future__ import annotations

import msgspec

SYSTEM = -1  # the seat of moves the service makes itself: the match clock's end, the turn cap



class Action(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class Event(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class EndMatch(Action, tag="end_match"):
    """The match clock ran out (D-16, B-17); applied by the service as seat ``SYSTEM`` (-1)."""

    reason: str = "time"


class GameStarted(Event, tag="game_started"):
    order: list[int]
    rolls: list[list[int]] = []  # the dice that fixed the order: [seat, die, die], re-rolls included


class TurnStarted(Event, tag="turn_started"):
    seat: int
    turn: int


class TurnEnded(Event, tag="turn_ended"):
    seat: int


class GameOver(Event, tag="game_over"):
    winners: list[int]
    reason: str
    scores: dict[int, int] = {}
