"""Achievements ("feats", issue 48): the shape in which a game declares them.

A feat is earned in one game and read from that game's seed and action log alone, so a restart,
a replay or a second process awards exactly the same. A game declares a ``FeatKit`` on its
``Game`` (``engine/core/game.py``): its catalogue (keys in display order, ``board.hotel_row``; the
words are ``feat.<key>`` and ``feat.<key>.how`` in data/locale) and how to make a watcher for one
game. ``engine.play.history.game_story`` replays the log once, shows the watcher every applied
action, then asks it what was earned; the detectors themselves live with each game
(``engine/board/feats.py``, ``engine/deal/feats.py``). Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core.contract import Result


class FeatWatcher(Protocol):
    """One game's detector, fed the game as it is replayed."""

    def see(self, state: Any, seat: int, action: Any, events: list) -> None:
        """After each applied action: the state after it, who made it (-1: the service's own
        moves), the action and the events it made. Called once per action: keep it cheap."""

    def earned(self, state: Any, result: Result) -> dict[int, set[str]]:
        """Seat -> the keys earned so far. Feats for winning only when ``result.over``."""


@dataclass(frozen=True)
class FeatKit:
    """A game's catalogue of feats and the factory of its watcher."""

    keys: tuple[str, ...]  # the catalogue, in display order
    watcher: Callable[[Any, int], FeatWatcher]  # (the initial state, the number of seats) -> a watcher

    def __post_init__(self) -> None:
        if len(set(self.keys)) != len(self.keys):
            raise ValueError("a feat key is listed twice")


class Tally:
    """What a watcher has awarded so far: seat -> keys (a set, so each at most once per seat)."""

    def __init__(self, seats: int) -> None:
        self.got: dict[int, set[str]] = {seat: set() for seat in range(seats)}

    def award(self, seat: int, key: str) -> None:
        if seat in self.got:  # the bank (-1) or the service's own seat earns nothing
            self.got[seat].add(key)

    def copy(self) -> dict[int, set[str]]:
        return {seat: set(keys) for seat, keys in self.got.items()}
