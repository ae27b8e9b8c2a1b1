"""Each seat's chance to win the board game from a position, by a model fitted on AI games: how the
``strong`` level scores a world it stopped playing (``engine/board/strong.py``).

Counting assets (``valuation.position_worth``) misses what decides a game in progress: a complete
group's rent comes from the landings it gets and the houses still to be built on it, and a
mortgaged deed is a debt. The model gives each seat still in a score, a weighted sum of six
figures of its position (``features``), and the chances are the scores' softmax (a conditional
logit, fitted to who went on to win from positions of games played by the ``ai`` level:
``python -m tools.fit_win_model``, which prints the weights kept in ``WEIGHTS``). On held-out
positions it names the winner more often than the assets do (docs/figures.md, "AI strength").
"""

from __future__ import annotations

import math

from engine.board.landing import landing_frequencies
from engine.board.model import BoardState
from engine.board.rules import board_of, rent_for, start_cash
from engine.board.valuation import position_worth

FEATURES = ("worth", "cash", "income", "potential", "deeds", "groups", "mortgaged")
# fitted by ``python -m tools.fit_win_model --games 400 --seed 31337`` (held-out figures in its output)
WEIGHTS = (0.064, 0.242, 0.603, 0.172, 0.736, -0.084, -0.502)

LANDING_ROLLS = 100_000  # enough for each square's frequency to about a tenth of a percent
_LANDINGS: dict[str, tuple[float, ...]] = {}


def landings(ruleset: str) -> tuple[float, ...]:
    """The chance that a roll ends on each square (the engine's own movement, worked out once per
    rule set from a fixed seed)."""
    found = _LANDINGS.get(ruleset)
    if found is None:
        squares = landing_frequencies(ruleset, LANDING_ROLLS, 1, "short")["squares"]
        found = _LANDINGS[ruleset] = tuple(squares[str(i)] for i in range(40))
    return found


def features(state: BoardState, seat: int) -> list[float]:
    """``FEATURES`` of ``seat``'s position, in starting cashes: what it is worth by the value model,
    its cash, the rent it may expect from the others' rolls in a round as the board stands
    (``income``) and what three houses a street on its complete groups would add (``potential``),
    its deeds and buildings at cost, how many street groups it holds whole, its mortgages."""
    b = board_of(state)
    land = landings(state.options.ruleset)
    start = start_cash(state.options)
    others = sum(1 for p in state.players if not p.bankrupt and p.seat != seat)
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    income = potential = 0.0
    deeds = owed = groups = 0
    for _group, squares, street in b.group_list:
        mine = 0
        for sq in squares:
            if owner[sq] != seat:
                continue
            mine += 1
            if mortgaged[sq]:
                owed += b.mortgage[sq]
            else:
                deeds += b.price[sq] + houses[sq] * b.house_cost[sq]
                income += rent_for(state, sq, 7) * land[sq]
        if street and mine == len(squares):
            groups += 1
            for sq in squares:
                if houses[sq] < 3:
                    potential += (b.rent[sq][3] - rent_for(state, sq, 7)) * land[sq]
    rolls = others * 40  # a round's rolls by the others, counted over the board's squares
    return [position_worth(state, seat) / start, state.players[seat].cash / start, income * rolls / start,
            potential * rolls / start, deeds / start, groups, owed / start]


def chances(position: dict[int, list[float]], weights=WEIGHTS) -> dict[int, float]:
    """Each seat's chance to win given its ``features`` (seat -> figures): the softmax of the
    weighted sums. ``tools/fit_win_model.py`` fits the weights through this same function."""
    scores = {s: sum(w * x for w, x in zip(weights, f, strict=True)) for s, f in position.items()}
    top = max(scores.values())
    raw = {s: math.exp(v - top) for s, v in scores.items()}
    total = sum(raw.values())
    return {s: v / total for s, v in raw.items()}


def win_chances(state: BoardState, weights=WEIGHTS) -> dict[int, float]:
    """Each seat still in and its chance to win from here (they sum to 1)."""
    position = {p.seat: features(state, p.seat) for p in state.players if not p.bankrupt}
    return chances(position, weights) if position else {}
