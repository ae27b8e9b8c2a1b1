"""The board game's part in the ``strong`` level (``engine/play/search.py``): which moves a decision
searches and how a world that is still running is scored.

Searched: whether to buy (buy or let the deed go to auction), whether to answer an offer yes or
no, whether to go on bidding for a deed (the least raise or a pass against the heuristic's
choice), and before a roll whether to do what the heuristic would (build, lift, mortgage to
build, offer a deal, leave jail) or simply roll, or, when it would just roll, to build the house
that adds the most rent. The heuristic's move is first sharpened by the answers the other seats'
heuristic would give (``haggling.py``): its offers asked dearer, a street bought from another seat
at the least it takes where the heuristic would just roll, a rival bid up in an auction the
heuristic would leave. Debts, taxes and the rest are the heuristic's. A world still running
after the horizon is scored by the seat's chance to win from there by the win model
(``win_model.py``, fitted on AI games: the rent its groups earn and could earn, its cash, deeds and
mortgages), a bankrupt seat by nothing. Scored so, a short horizon tells the moves apart: the
dice of a long one drown a single decision (docs/figures.md, "AI strength").
"""

from __future__ import annotations

from engine.board import ai, haggling
from engine.board.model import (
    AcceptTrade,
    Bid,
    BoardState,
    Buy,
    DeclineToBuy,
    PassAuction,
    RejectTrade,
    Roll,
)
from engine.board.rules import bid_reach, legal_actions, management_choices, min_bid
from engine.board.win_model import win_chances

_ROLL = Roll()


def candidates(world: BoardState, seat: int) -> list:
    """The heuristic's move first, then the alternatives worth searching (none: a single entry)."""
    pick = haggling.sharpen(world, seat, ai.choose(world, seat))
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
        low = min_bid(world)  # the least raise the rules allow (a person's buttons are larger steps)
        return [pick, Bid(amount=low)] if low <= bid_reach(world, seat) else [pick]
    if stage == "roll" and not world.rolled:
        if pick != _ROLL:
            return [pick, _ROLL] if _ROLL in legal_actions(world, seat) else [pick]
        builds = management_choices(world, seat, sells=False, lifts=False).builds
        if builds:  # the heuristic keeps its reserve: would a house pay more?
            return [pick, max(builds, key=lambda a: (ai.house_gain(world, a.square), -a.square))]
    return [pick]


def score(world: BoardState, seat: int) -> float:
    """The seat's chance to win from ``world`` by the win model; 0 once bankrupt."""
    return win_chances(world).get(seat, 0.0)

