"""Auctions (B-04, B-05) and the building-shortage auction (B-12): opening, bids and passes, the
winner paying or raising the money, voiding and starting again without them, and the shortage
call's answers ("me too" with a street, or no).
"""

from __future__ import annotations

from engine.board.model import (
    BANK,
    Auction,
    AuctionOpened,
    AuctionPassed,
    AuctionUnsold,
    AuctionVoided,
    AuctionWon,
    Bid,
    BidMade,
    BoardState,
    Debt,
    DebtOpened,
    DeclineShortage,
    JoinShortage,
    PassAuction,
)
from engine.board.rules.base import _transfer, active_seats, board_of, max_raisable
from engine.board.rules.building import _build_problem, _place_building, buildable_streets
from engine.core.errors import RuleError


def _open_auction(state: BoardState, square: int, events: list) -> None:
    b = board_of(state)
    bidders = active_seats(state)
    state.auction = Auction(kind="property", square=square, bidders=bidders, opening=b.money["opening_bid"])
    events.append(AuctionOpened(kind="property", square=square, opening=b.money["opening_bid"], bidders=bidders))
    _check_auction(state, events)


def min_bid(state: BoardState) -> int:
    a = state.auction
    if a is None:
        return 0
    if a.high_bidder < 0:
        return a.opening
    return a.high_bid + board_of(state).money["min_bid_step"]


def _check_auction(state: BoardState, events: list) -> None:
    a = state.auction
    if a is None:
        return
    others = [s for s in a.bidders if s != a.high_bidder]
    if others:
        return
    if a.high_bidder < 0:  # nobody bid: it stays with the bank (B-04)
        state.auction = None
        if a.kind == "property":
            events.append(AuctionUnsold(square=a.square))
        else:  # nobody wanted it at the opening price: they are not asked again until the next roll
            state.declined_shortage += [s for s in a.streets if s not in state.declined_shortage]
            state.shortage = None
        return
    _decide_auction(state, events)


def _decide_auction(state: BoardState, events: list) -> None:
    """B-05 (seed 000, 无法支付): the high bidder buys at their bid. Short of cash, they raise it
    the usual way: the bid becomes a debt to the bank (sell buildings, mortgage, trade; the
    auction waits, ``settling``) and the lot is theirs once it is paid. Only when even every sale
    and mortgage (``max_raisable``; the lot itself does not count, it is not theirs yet) cannot
    cover the bid is the auction void, and it starts again without them.


    A building auction (B-12) is paid from cash: raising money there would mean selling or
    mortgaging into the very group the building is for, so a winner short of cash voids it.
    """
    a = state.auction
    winner, amount = a.high_bidder, a.high_bid
    if state.players[winner].cash >= amount:
        _transfer(state, winner, BANK, amount, "auction", events)
        _award(state, events)
    elif bid_reach(state, winner) >= amount:
        a.settling = True
        state.debts.append(Debt(debtor=winner, creditor=BANK, amount=amount, reason="auction"))
        events.append(DebtOpened(debtor=winner, creditor=BANK, amount=amount, reason="auction"))
    else:
        _void_auction(state, events)


def bid_reach(state: BoardState, seat: int) -> int:
    """B-05: the highest bid ``seat`` could pay in the auction running now: cash plus every sale
    and mortgage for a property, cash alone for a building (``_decide_auction``)."""
    a = state.auction
    if a is not None and a.kind == "property":
        return max_raisable(state, seat)
    return state.players[seat].cash


def _void_auction(state: BoardState, events: list) -> None:
    """B-05: the winner cannot pay: void, and again without them (nobody left: unsold)."""
    a = state.auction
    winner, amount = a.high_bidder, a.high_bid
    events.append(AuctionVoided(seat=winner, amount=amount))
    a.excluded.append(winner)
    a.settling = False
    pool = active_seats(state) if a.kind == "property" else list(a.streets)
    a.bidders = [s for s in pool if s not in a.excluded]
    a.high_bid, a.high_bidder = 0, -1
    if not a.bidders:
        _close_unsold(state, events)
        return
    events.append(AuctionOpened(kind=a.kind, square=a.square, opening=a.opening, bidders=list(a.bidders)))
    _check_auction(state, events)


def _close_unsold(state: BoardState, events: list) -> None:
    """Nobody takes the lot: a property stays with the bank; a building stays in its stock."""
    a = state.auction
    state.auction = None
    if a.kind == "property":
        events.append(AuctionUnsold(square=a.square))
    else:
        state.declined_shortage += [s for s in a.streets if s not in state.declined_shortage]
        state.shortage = None


def _award(state: BoardState, events: list) -> None:
    """The high bidder has paid: the property, or the building on the street they named, is theirs."""
    a = state.auction
    winner, amount = a.high_bidder, a.high_bid
    state.auction = None
    if a.kind == "property":
        state.owner[a.square] = winner
        events.append(AuctionWon(seat=winner, square=a.square, amount=amount))
    else:
        street = a.streets[winner]
        events.append(AuctionWon(seat=winner, square=street, amount=amount, kind=a.kind))
        _place_building(state, winner, street, events)
        state.shortage = None


def _h_bid(state: BoardState, seat: int, action: Bid, events: list) -> None:
    a = state.auction
    if state.stage != "auction" or a is None or seat not in a.bidders:
        raise RuleError("B-04", "board.err.not_bidding")
    if seat == a.high_bidder:
        raise RuleError("B-04", "board.err.already_highest")
    step = board_of(state).money["min_bid_step"]
    if action.amount < min_bid(state) or action.amount % step:
        raise RuleError("B-04", "board.err.bid_too_low", minimum=min_bid(state), step=step)
    a.high_bid, a.high_bidder = action.amount, seat
    events.append(BidMade(seat=seat, amount=action.amount))
    _check_auction(state, events)


def _h_pass_auction(state: BoardState, seat: int, action: PassAuction, events: list) -> None:
    a = state.auction
    if state.stage != "auction" or a is None or seat not in a.bidders:
        raise RuleError("B-04", "board.err.not_bidding")
    if seat == a.high_bidder:
        raise RuleError("B-04", "board.err.already_highest")
    a.bidders.remove(seat)
    events.append(AuctionPassed(seat=seat))
    _check_auction(state, events)


def _h_join_shortage(state: BoardState, seat: int, action: JoinShortage, events: list) -> None:
    s = state.shortage
    if state.stage != "shortage" or s is None or seat not in s.asked:
        raise RuleError("B-12", "board.err.no_shortage_question")
    if action.street not in buildable_streets(state, seat, s.building):
        raise RuleError("B-12", "board.err.shortage_street", square=action.street)
    s.asked.remove(seat)
    s.wanters[seat] = action.street
    _after_shortage_answer(state, events)


def _h_decline_shortage(state: BoardState, seat: int, action: DeclineShortage, events: list) -> None:
    s = state.shortage
    if state.stage != "shortage" or s is None or seat not in s.asked:
        raise RuleError("B-12", "board.err.no_shortage_question")
    s.asked.remove(seat)
    state.declined_shortage.append(seat)
    _after_shortage_answer(state, events)


def _after_shortage_answer(state: BoardState, events: list) -> None:
    s = state.shortage
    if s is None or s.asked:
        return
    b = board_of(state)
    if len(s.wanters) == 1:  # alone after all: buys directly
        seat, street = next(iter(s.wanters.items()))
        state.shortage = None
        if _build_problem(state, seat, street) is None:
            _transfer(state, seat, BANK, b.house_cost[street], "building", events)
            _place_building(state, seat, street, events)
        return
    opening = min(b.house_cost[sq] for sq in s.wanters.values())
    bidders = [seat for seat in active_seats(state) if seat in s.wanters]
    state.auction = Auction(kind=s.building, square=-1, bidders=bidders, opening=opening, streets=dict(s.wanters))
    events.append(AuctionOpened(kind=s.building, square=-1, opening=opening, bidders=list(bidders)))


def bid_steps(state: BoardState, seat: int, reach: int | None = None) -> list[int]:
    """The amounts the AI weighs in an auction: the minimum and some larger steps within what the
    bidder could pay (``reach``, by default ``bid_reach``: cash, plus sales and mortgages for a
    property, B-05). A person's buttons are ``bid_buttons``."""
    step = board_of(state).money["min_bid_step"]
    low = min_bid(state)
    cash = bid_reach(state, seat) if reach is None else reach
    out = [low]
    for k in (5, 10, 50, 100):
        x = low + k * step
        if x <= cash and x not in out:
            out.append(x)
    return out


def bid_buttons(state: BoardState, seat: int, reach: int | None = None) -> list[int]:
    """A few bids to offer as buttons, scaled to what is on sale (B-04 lets a bidder raise by any
    multiple of the least step; buttons ten a time made a 2,000 station's auction hundreds of bids
    long): a tenth, a quarter and half its price above the high bid, and the price itself while the
    bidding is below it. Only bids the bidder could pay (``reach``, by default ``bid_reach``: cash,
    plus sales and mortgages for a property, B-05); the least bid when no larger one is."""
    a = state.auction
    if a is None:
        return []
    b = board_of(state)
    step = b.money["min_bid_step"]
    low = min_bid(state)
    cash = bid_reach(state, seat) if reach is None else reach
    worth = b.price[a.square] if a.square >= 0 else a.opening
    base = a.high_bid if a.high_bidder >= 0 else 0
    wanted = [base + -(-worth * share // (100 * step)) * step for share in (10, 25, 50)]
    if worth > base:
        wanted.append(worth)
    out = sorted({max(low, x) for x in wanted if max(low, x) <= cash})
    return out or ([low] if low <= cash else [])
