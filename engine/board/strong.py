"""The board game's part in the ``strong`` level (``engine/search.py``): which moves a decision
searches and how a world that is still running is scored.

Searched: whether to buy (buy or let the deed go to auction), whether to answer an offer yes or
no, and before a roll whether to do what the heuristic would (build, lift, mortgage to build,
offer a deal, leave jail) or simply roll. Auction bids, debts, taxes and the rest are the
heuristic's: a bid is asked for at every raise, and searching each one would cost the budget of
many decisions for little. A world still running after the horizon is scored by the seat's share
of what the positions are worth by the AI's value model (a complete group counts for its earning
power, which B-17's valuation at printed prices misses), a bankrupt seat by nothing.
"""

from __future__ import annotations

from engine.board import ai
from engine.board.model import AcceptTrade, BoardState, Buy, DeclineToBuy, RejectTrade, Roll
from engine.board.rules import legal_actions
from engine.board.valuation import position_worth

_ROLL = Roll()


def candidates(world: BoardState, seat: int) -> list:
    """The heuristic's move first, then the alternatives worth searching (none: a single entry)."""
    pick = ai.choose(world, seat)
    stage = world.stage
    if stage == "buy" and isinstance(pick, (Buy, DeclineToBuy)):
        other = DeclineToBuy() if isinstance(pick, Buy) else Buy()
        return [pick, other] if other in legal_actions(world, seat) else [pick]
    if isinstance(pick, (AcceptTrade, RejectTrade)):
        other = RejectTrade(trade=pick.trade) if isinstance(pick, AcceptTrade) else AcceptTrade(trade=pick.trade)
        return [pick, other] if other in legal_actions(world, seat) else [pick]
    if stage == "roll" and pick != _ROLL and not world.rolled and _ROLL in legal_actions(world, seat):
        return [pick, _ROLL]
    return [pick]


def score(world: BoardState, seat: int) -> float:
    """The seat's share of what all positions are worth by the AI's value model (cash, deeds, and a
    complete group's earning power: ``valuation.position_worth``); 0 once bankrupt."""
    worth = [position_worth(world, p.seat) for p in world.players]
    total = sum(worth)
    return worth[seat] / total if total > 0 else 0.0
