"""The board game's part in the ``strong`` level (``engine/search.py``): which moves a decision
searches and how a world that is still running is scored.

Searched: whether to buy (buy or let the deed go to auction), whether to answer an offer yes or
no, whether to go on bidding for a deed (the least raise or a pass against the heuristic's
choice), and before a roll whether to do what the heuristic would (build, lift, mortgage to
build, offer a deal, leave jail) or simply roll, or, when it would just roll, to build the house
that adds the most rent. Debts, taxes and the rest are the heuristic's. A world still running
after the horizon is scored by the seat's share of what the positions are worth by the AI's
value model (a complete group counts for its earning power, which B-17's valuation at printed
prices misses), a bankrupt seat by nothing.
"""

from __future__ import annotations

from engine.board import ai
from engine.board.model import AcceptTrade, Bid, BoardState, Buy, DeclineToBuy, PassAuction, RejectTrade, Roll
from engine.board.rules import legal_actions, management_choices
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
    if stage == "auction" and world.auction is not None and world.auction.kind == "property":
        # bid on, or stop: the least raise against the heuristic's pass, a pass against its bid
        if isinstance(pick, Bid):
            return [pick, PassAuction()]
        bids = [a for a in legal_actions(world, seat) if isinstance(a, Bid) and not a.beyond_reach]
        return [pick, min(bids, key=lambda a: a.amount)] if bids else [pick]
    if stage == "roll" and not world.rolled:
        if pick != _ROLL:
            return [pick, _ROLL] if _ROLL in legal_actions(world, seat) else [pick]
        builds = management_choices(world, seat, sells=False, lifts=False).builds
        if builds:  # the heuristic keeps its reserve: would a house pay more?
            return [pick, max(builds, key=lambda a: (ai.house_gain(world, a.square), -a.square))]
    return [pick]


def score(world: BoardState, seat: int) -> float:
    """The seat's share of what all positions are worth by the AI's value model (cash, deeds, and a
    complete group's earning power: ``valuation.position_worth``); 0 once bankrupt."""
    worth = [position_worth(world, p.seat) for p in world.players]
    total = sum(worth)
    return worth[seat] / total if total > 0 else 0.0
