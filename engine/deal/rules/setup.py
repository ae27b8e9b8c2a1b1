"""Setting up (D-01): a rule set by name, as options or as overrides; a new game (the shuffle, the
deal, the turn order from a random start or by 2d6) and the first turn's draw."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import rulesets
from engine.core.errors import RuleError
from engine.core.rng import Rng
from engine.deal.cards import N_CARDS
from engine.deal.model import RULESETS as RULESETS_OPTIONS
from engine.deal.model import SCHEMA_VERSION, DealOptions, DealState, GameStarted, Player
from engine.deal.rules.base import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, _start_turn


def resolve_options(options: DealOptions | str | dict | None) -> DealOptions:
    """A rule set by name, a ``DealOptions``, or a dict of overrides on a named rule set."""
    return rulesets.resolve(options, RULESETS_OPTIONS, "standard", DealOptions, "Deal")


def new_game(seats: int | Sequence, options: DealOptions | str | dict | None = None, seed: int = 0) -> DealState:
    """D-01: shuffle the 106 cards, deal 5 each, fix the turn order, and start the first turn."""
    return new_game_with_events(seats, options, seed)[0]


def new_game_with_events(seats: int | Sequence, options: DealOptions | str | dict | None = None,
                         seed: int = 0) -> tuple[DealState, list]:
    """``new_game`` plus what happened: the turn order (with the dice) and the first turn's draw."""
    n = seats if isinstance(seats, int) else len(seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RuleError("D-01", "deal.err.player_count", count=n, min=MIN_PLAYERS, max=MAX_PLAYERS)
    opts = resolve_options(options)
    rng = Rng.from_seed(seed)
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    players = [Player(seat=i) for i in range(n)]
    for _ in range(HAND_SIZE):
        for p in players:
            p.hand.append(deck.pop())
    rolls: list[list[int]] = []
    if opts.dice_order:
        order = _order_by_dice(rng, list(range(n)), rolls)
    else:
        start = rng.below(n)
        order = [(start + i) % n for i in range(n)]
    state = DealState(
        schema=SCHEMA_VERSION, options=opts, rng=rng, players=players, order=order,
        draw_pile=deck, opening_rolls=rolls,
    )
    events: list = [GameStarted(order=list(order), rolls=[list(r) for r in rolls])]
    _start_turn(state, events)
    return state, events


def _order_by_dice(rng: Rng, seats: list[int], record: list[list[int]]) -> list[int]:
    """Highest 2d6 first; tied players re-roll among themselves (D-01 tournament)."""
    totals: dict[int, int] = {}
    for s in seats:
        d1, d2 = rng.die(), rng.die()
        record.append([s, d1, d2])
        totals[s] = d1 + d2
    order: list[int] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [s for s in seats if totals[s] == total]
        order += tied if len(tied) == 1 else _order_by_dice(rng, tied, record)
    return order
