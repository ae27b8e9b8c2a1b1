"""The ``strong`` AI level: a search over worlds consistent with what one seat has seen.

The searching seat never holds the game's state. It gets a ``Seen``: its own view of the table
(what ``rules.view`` shows that seat) and worlds drawn from it, each a copy of the table with
everything the seat cannot see dealt again at random (``GameRules.resample``: the other hands and
the draw pile in Deal, the card decks in the board game, and every die to come). A world is drawn
from the pooled unseen cards in an order fixed by a hash of the world's seed and each card, so two
tables that differ only in what the seat cannot see give it the same worlds: the search cannot
read another hand through them (tests/engine/play/test_search.py plays the same decisions against tables whose
hidden cards were exchanged).

The search is determinized Monte Carlo: each candidate move (a few, ranked by the game's own
heuristic, which is always among them) is applied in the same ``worlds`` sampled worlds (common
random numbers, so the candidates are compared on the same luck), each world is played on by
the heuristic AI for ``horizon`` turns, and the outcome is scored for the seat (a win counts 1, a
game still running the game's own score: in Deal its share of the table's progress, on the board
its chance to win by the win model). The heuristic's move stands unless another
beat it clearly (by the kit's ``margin`` in standard errors of the paired differences): with a few
dozen worlds a game as noisy as the board's would otherwise trade a good rule of thumb for luck.
The number of worlds is fixed, not timed, and the seeds come from the seat's view, so a game
with strong seats replays exactly from its seed and log; the defaults keep a decision under the
level's budget on this project's machine (docs/figures.md, ``bench_strong``).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import msgspec

from engine.core.contract import GameRules
from engine.play.rollout import play_on

MARGIN = 1.5  # by default, standard errors by which another move must beat the heuristic's in the same worlds


class Seen:
    """What one seat knows: its ``view`` and worlds sampled from it. The state stays private."""

    __slots__ = ("_rules", "_state", "seat", "view", "salt")

    def __init__(self, rules: GameRules, state: Any, seat: int) -> None:
        self._rules = rules
        self._state = state
        self.seat = seat
        self.view = rules.view(state, seat)
        # the search's seeds: from what the seat sees, so the same position searches the same worlds
        self.salt = zlib.crc32(msgspec.json.encode(self.view))

    def world(self, index: int) -> Any:
        """World ``index``: a copy of the table with what the seat cannot see dealt again."""
        sim = self._rules.clone(self._state)
        self._rules.resample(sim, self.seat, hash((self.salt, index)) & 0xFFFFFFFFFFFFFFFF)
        return sim


class SearchKit(msgspec.Struct, frozen=True):
    """A game's part in the search: the heuristic the worlds are played with, the candidate moves
    of a decision (``candidates(world, seat)``: the heuristic's move first; one entry means there is
    nothing to search), the score of a world for a seat in [0, 1], the sizes, and the margin (in
    standard errors of the worlds' paired differences) by which another move must beat the
    heuristic's."""

    rules: GameRules
    heuristic: Callable[[Any, int], Any]
    candidates: Callable[[Any, int], list]
    score: Callable[[Any, int], float]
    worlds: int
    horizon: int
    margin: float = MARGIN


def choose(kit: SearchKit, seen: Seen):
    """The move the search picks for ``seen.seat``: the heuristic's, unless another did better in
    the same worlds by more than ``kit.margin`` standard errors of the worlds' differences (a paired
    comparison: the luck of a world is the same for every move, so what is left is the move's)."""
    rules, seat = kit.rules, seen.seat
    first = seen.world(0)
    moves = kit.candidates(first, seat)
    if len(moves) <= 1:
        return moves[0] if moves else None
    values: list[list[float]] = [[] for _ in moves]
    for w in range(kit.worlds):
        base = first if w == 0 else seen.world(w)
        for i, move in enumerate(moves):
            sim = rules.clone(base) if i < len(moves) - 1 else base
            values[i].append(_play_out(kit, sim, seat, move))
    best, best_gain = 0, 0.0
    n = kit.worlds
    for i in range(1, len(moves)):
        diffs = [a - b for a, b in zip(values[i], values[0], strict=True)]
        mean = sum(diffs) / n
        spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 if n > 1 else 0.0
        if mean > kit.margin * spread / n ** 0.5 + 1e-9 and mean > best_gain:
            best, best_gain = i, mean
    return moves[best]


def _play_out(kit: SearchKit, sim: Any, seat: int, move: Any) -> float:
    """``move`` made in the world ``sim``, which the heuristic then plays for ``horizon`` turns."""
    kit.rules.apply(sim, seat, move)
    result = play_on(kit.rules, kit.heuristic, sim, kit.horizon)
    if result.over:
        return 1.0 / len(result.winners) if seat in result.winners else 0.0
    return kit.score(sim, seat)


def prior(kit: SearchKit) -> Callable[[Any, int], Any]:
    """The level without its search, as a seat's policy: each decision's first candidate (the
    heuristic's move as the game's kit may adjust it) in the seat's first world. What the search
    adds is measured against it (``python -m tools.bench.strength … --prior``)."""
    def first(state: Any, seat: int):
        seen = Seen(kit.rules, state, seat)
        moves = kit.candidates(seen.world(0), seat)
        return moves[0] if moves else None
    return first


def policy(kit: SearchKit) -> Callable[[Any, int], Any]:
    """The level as a seat's policy ``(state, seat) -> action``: the state is handed to the search
    only inside a ``Seen``."""
    def strong(state: Any, seat: int):
        return choose(kit, Seen(kit.rules, state, seat))
    return strong
