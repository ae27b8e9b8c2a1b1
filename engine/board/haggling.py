"""What the ``strong`` board level asks of the other seats, judged by the answers the heuristic
(``ai.py``) would give: the price of its offers, the streets it buys, the auctions it bids up.

The heuristic trades fairly: it offers a deal at the price that gives its partner all the slack
between what is fair to either side, and it sells any street it holds at about what the street is
worth to it (``valuation.fair``: its own gain, counting half of what the buyer gains against it).
A player who knows that haggles. The ``strong`` level's first candidate of a decision is the
heuristic's move sharpened here (``sharpen``), and its search then weighs it against the
alternatives (``strong.candidates``):

- an offer the heuristic would make is asked at the most its partner would still take
  (``dearest``), in steps of 10;
- before its roll, with nothing else to do and cash beyond its reserve, it offers to buy the street
  another seat would sell for least (``purchase``), a street of a group without buildings, at a
  price the street is worth to it;
- in an auction for a deed it would let go, it raises by the least step while a rival's limit lies
  a tenth of the price above the bid (``bid_up``): the rival, who will bid that much anyway, pays
  more.

Each partner's answer is read from what all can see (holdings, cash, rents: ``ai.takes``,
``ai.property_limit``), never from a hidden card. A person may answer otherwise: an offer refused
on the same holdings is not asked again (``trades.was_refused``), nor is a partner who refused
anything asked to sell another street until the holdings change, and a bid up is a bid like any
other, which the search weighs against passing. Measured with the heuristic alone, without the
search, one such seat against three ``ai`` (docs/figures.md, "AI strength").
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from engine.board import ai
from engine.board.model import BANK, Bid, BoardState, PassAuction, ProposeTrade, Roll
from engine.board.rules import bid_reach, board_of, min_bid
from engine.board.trades import position_stamp, proposal_problem, was_refused
from engine.board.valuation import exchange_gain, reserve

_ROLL = Roll()


def sharpen(world: BoardState, seat: int, move):
    """The heuristic's ``move`` as the ``strong`` level makes it: an offer asked dearer, a plain roll
    turned into a purchase, a pass in an auction into a bid up, when there is one to make."""
    if isinstance(move, ProposeTrade):
        return dearest(world, seat, move)
    if move == _ROLL and world.stage == "roll" and not world.rolled:
        return purchase(world, seat) or move
    if isinstance(move, PassAuction):
        return bid_up(world, seat) or move
    return move


def _priced(offer: ProposeTrade, cash: int) -> ProposeTrade:
    """``offer`` with ``cash`` net to its maker (negative: the maker pays)."""
    return msgspec.structs.replace(offer, give_cash=max(0, -cash), get_cash=max(0, cash))


def _last(holds: Callable[[int], bool], beyond: int) -> int:
    """The last ``k`` in ``0 … beyond - 1`` for which ``holds`` (true at 0, false from some ``k`` on)."""
    low, high = 0, beyond
    while high - low > 1:
        mid = (low + high) // 2
        if holds(mid):
            low = mid
        else:
            high = mid
    return low


def dearest(world: BoardState, seat: int, offer: ProposeTrade) -> ProposeTrade:
    """``offer`` at the most net cash to ``seat`` (in steps of 10) that its partner would still take
    by the heuristic's answer, or as it is when the partner would not take even that, the rules
    would refuse the new terms, or the partner refused them already on these holdings. The
    partner's answer only gets harder as the price moves against it: the price is found by halving."""
    partner, start = offer.target, offer.get_cash - offer.give_cash
    if not ai.takes(world, partner, seat, offer):
        return offer
    beyond = (world.players[partner].cash - start) // 10 + 1  # past what the partner holds
    steps = _last(lambda k: ai.takes(world, partner, seat, _priced(offer, start + 10 * k)), beyond)
    if not steps:
        return offer
    asked = _priced(offer, start + 10 * steps)
    if proposal_problem(world, seat, asked) is not None or was_refused(world, seat, asked):
        return offer
    return asked


def purchase(world: BoardState, seat: int) -> ProposeTrade | None:
    """The offer for another seat's street that costs least (``dearest`` from the most ``seat``
    would pay: its cash beyond its reserve, at most twice the printed price), among the streets of
    groups without buildings and at a price the street is worth to ``seat`` by the value model (two
    such players would otherwise sell one street back and forth); None when the seat may make no
    offer now or none would be taken. A partner who refused any offer of the seat's on the holdings
    as they are is not asked about another street until they change: a person is not pestered
    street by street."""
    if world.options.no_trading or seat in world.proposed or world.trades:
        return None
    b = board_of(world)
    owner, houses, players = world.owner, world.houses, world.players
    spare = players[seat].cash - reserve(world, seat)
    stamp = position_stamp(world)
    said_no = {r.trade.target for r in world.refused if r.trade.proposer == seat and r.position == stamp}
    best = None
    for _group, squares, street in b.group_list:
        if not street or any(houses[sq] for sq in squares) or all(owner[sq] == seat for sq in squares):
            continue
        for sq in squares:
            partner = owner[sq]
            most = min(spare, 2 * b.price[sq]) // 10 * 10
            if partner in (BANK, seat) or partner in said_no or players[partner].bankrupt or most <= 0:
                continue
            ceiling = ProposeTrade(target=partner, get=(sq,), give_cash=most)
            offer = dearest(world, seat, ceiling)
            if offer is ceiling or (best is not None and offer.give_cash >= best.give_cash):
                continue
            if exchange_gain(world, seat, partner, (sq,), (), cash_out=offer.give_cash)[0] >= 0:
                best = offer
    return best


def bid_up(world: BoardState, seat: int) -> Bid | None:
    """The least raise in the running auction for a deed, when a rival bidder's limit by the
    heuristic (``ai.property_limit``) lies a tenth of the price or more above it: that rival will
    outbid it; None otherwise."""
    a = world.auction
    if a is None or a.kind != "property" or a.high_bidder == seat:
        return None
    rivals = [r for r in a.bidders if r != seat and not world.players[r].bankrupt]
    if not rivals:
        return None
    top = max(ai.property_limit(world, r, a.square) for r in rivals)
    if min_bid(world) > top - board_of(world).price[a.square] // 10:
        return None
    low = min_bid(world)  # the least raise the rules allow (a person's buttons are larger steps)
    return Bid(amount=low) if low <= bid_reach(world, seat) else None
