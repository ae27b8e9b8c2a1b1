"""地产大亨 (Monopoly) rules, B-01 … B-19, as a deterministic state machine.

Same contract as the card game: ``apply`` validates completely before touching the state (a
refused action leaves it byte-identical), then mutates it and returns events. What the table
waits for lives in the state: the roll, a purchase, an auction, a debt, the tax choice, a
building-shortage call (one stage at a time), plus trade offers that never block anyone.

Decisions recorded here where the seeds are silent:
- between two rolls (stage ``roll``) every player may build, sell, mortgage, lift mortgages and
  offer trades; the player deciding a purchase may also sell and mortgage to afford it; a debtor
  may sell, mortgage and offer trades; nobody else acts during a debt, auction or card;
- each player may make one trade offer between two rolls; open offers lapse at the next roll;
  any exchange may be offered (``legal_actions`` lists shortcuts only); counter-offers, the order
  offers are settled in, and the one validator are in ``engine/board/trades.py``;
- bids are open: everyone still in may raise at any time, passing leaves the auction, and a bid
  may exceed the bidder's cash (the winner who cannot pay voids it, B-05);
- a building-shortage call (B-12) opens when the bank holds fewer houses (hotels) than the
  players able to build could afford to place right now; players who answer "me too" name their
  street, and one building is auctioned among them; alone, the builder buys directly;
- a hotel that cannot be broken for lack of 4 houses can be sold with its whole group's
  buildings at once (``SellGroupBuildings``);
- the interest on a received mortgaged property is due at once; lifting it at principal only
  is possible until the next roll, afterwards interest is due again (B-15);
- debts are settled one at a time in the order they arose; a debt owed to a player who has
  gone bankrupt lapses;
- income tax (B-08) is due on landing only. Seed 000 says a player pays "当参赛者经过「所得税」方格时"
  (when passing), but it uses 经过 loosely: for GO it writes "经过或停在" (passing or landing) when it
  means both, every other square acts on landing, and seeds 001/002 charge it on landing
  ("如停在此方格上"). A tax for passing would also charge nearly every lap, which no seed's
  arithmetic allows for;
- doubles (B-02, ``doubles_window``), a winner short of cash at an auction (B-05,
  ``_decide_auction``), rent by claim (B-06, ``rent_claim``) and the time-out (B-17,
  ``_wind_up``) have their rulings where they are implemented.

The rules are a package by rule area: ``base`` (the board, seats, rents, values, money moving),
``turn`` (B-01 … B-03, B-07 … B-10), ``building`` (B-11 … B-14, with the validators),
``auctions`` (B-04, B-05, B-12), ``money`` (B-06 claims, B-16), ``trades`` (B-15 as actions; the
validator is ``engine/board/trades.py``), ``end`` (B-17) and ``choices`` (``legal_actions``,
``waiting_for``, ``answers``). This module dispatches ``apply`` and re-exports every name the
other modules and the tests use, so ``engine.board.rules`` reads as one module from outside.
"""

from __future__ import annotations

import msgspec

from engine.board.model import (
    AcceptTrade,
    Bid,
    BoardState,
    BuildHouse,
    BuildRound,
    Buy,
    CancelTrade,
    CollectRent,
    DeclareBankruptcy,
    DeclineShortage,
    DeclineToBuy,
    EndMatch,
    ForgoRent,
    JoinShortage,
    LiftMortgage,
    Mortgage,
    PassAuction,
    PayDebt,
    PayJailFine,
    PayTax,
    ProposeTrade,
    RaiseMoney,
    RejectTrade,
    Roll,
    SellBuilding,
    SellGroupBuildings,
    UseJailCard,
)
from engine.board.rules.auctions import (
    _h_bid,
    _h_decline_shortage,
    _h_join_shortage,
    _h_pass_auction,
    bid_buttons,
    bid_reach,
    bid_steps,
    min_bid,
)
from engine.board.rules.base import (
    GO_TO_JAIL,
    JAIL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULESETS,
    _require_player,
    active_seats,
    board_of,
    current_seat,
    group_has_buildings,
    interest,
    max_raisable,
    owns_group,
    rent_for,
    resolve_options,
    round_amount,
    salary,
    start_cash,
    total_assets,
    valuation,
)
from engine.board.rules.building import (
    _h_build,
    _h_build_round,
    _h_lift,
    _h_mortgage,
    _h_sell,
    _h_sell_group,
    buildable_streets,
    doubles_window,
    lift_cost,
)
from engine.board.rules.choices import (
    Management,
    answers,
    legal_actions,
    management_choices,
    timeout_action,
    trade_options,
    waiting_for,
)
from engine.board.rules.end import _h_end_match
from engine.board.rules.money import (
    _bankrupt,
    _h_bankrupt,
    _h_collect_rent,
    _h_forgo_rent,
    _h_pay_debt,
    _h_raise,
    _pay_first_debt,
    next_sale,
)
from engine.board.rules.trades import _h_accept_trade, _h_cancel_trade, _h_propose, _h_reject_trade
from engine.board.rules.turn import (
    _h_buy,
    _h_decline,
    _h_jail_card,
    _h_pay_fine,
    _h_pay_tax,
    _h_roll,
    _settle,
    new_game,
    new_game_with_events,
)
from engine.board.trades import trade_template
from engine.core.contract import Result
from engine.core.errors import RuleError
from engine.core.values import SYSTEM

# what other modules and the tests import from ``engine.board.rules`` (the dice: ``rules.dice``)
__all__ = [
    "active_seats", "answers", "apply", "_bankrupt", "bid_buttons", "bid_reach", "bid_steps", "board_of",
    "buildable_streets",
    "current_seat", "doubles_window", "event_for", "GO_TO_JAIL", "group_has_buildings", "_HANDLERS", "interest",
    "JAIL", "legal_actions", "lift_cost", "Management", "management_choices", "MAX_PLAYERS", "max_raisable",
    "min_bid", "MIN_PLAYERS", "new_game", "new_game_with_events", "next_sale", "owns_group", "_pay_first_debt",
    "rent_for", "resolve_options", "result", "round_amount", "RULESETS", "salary", "_settle",
    "start_cash", "timeout_action", "total_assets", "trade_options", "trade_template", "valuation", "view",
    "waiting_for",
]


_HANDLERS = {
    Roll: _h_roll, PayJailFine: _h_pay_fine, UseJailCard: _h_jail_card, Buy: _h_buy, DeclineToBuy: _h_decline,
    Bid: _h_bid, PassAuction: _h_pass_auction, PayTax: _h_pay_tax, BuildHouse: _h_build, SellBuilding: _h_sell,
    SellGroupBuildings: _h_sell_group, Mortgage: _h_mortgage, LiftMortgage: _h_lift, ProposeTrade: _h_propose,
    AcceptTrade: _h_accept_trade, RejectTrade: _h_reject_trade, CancelTrade: _h_cancel_trade,
    PayDebt: _h_pay_debt, RaiseMoney: _h_raise, DeclareBankruptcy: _h_bankrupt, JoinShortage: _h_join_shortage,
    DeclineShortage: _h_decline_shortage, EndMatch: _h_end_match, BuildRound: _h_build_round,
    CollectRent: _h_collect_rent, ForgoRent: _h_forgo_rent,
}


def apply(state: BoardState, seat: int, action) -> list:
    """Validate, then change the state and return the events. Raises ``RuleError`` untouched."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("B-02", "board.err.unknown_action", action=type(action).__name__)
    if state.stage == "over":
        raise RuleError("B-17", "board.err.game_over")
    if seat != SYSTEM:
        _require_player(state, seat)
    events: list = []
    handler(state, seat, action, events)
    if state.stage != "over":
        _settle(state, events)
    return events


def result(state: BoardState) -> Result:
    if state.stage != "over":
        return Result(over=False)
    scores = valuation(state) if state.end_reason in ("time", "turn_cap") else {}
    return Result(over=True, winners=list(state.winners), reason=state.end_reason, scores=scores)


def view(state: BoardState, seat: int | None = None) -> dict:
    """Everything on the table is public in this game; the decks' order is not."""
    b = board_of(state)
    return {
        "game": "board", "ruleset": state.options.ruleset, "viewer": seat, "turn": state.turn_number,
        "current": current_seat(state), "stage": state.stage, "rolled": state.rolled,
        "last_dice": list(state.last_dice), "order": list(state.order),
        "players": [
            {"seat": p.seat, "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
             "jail_turns": p.jail_turns, "jail_cards": len(p.jail_cards), "bankrupt": p.bankrupt,
             "properties": [sq for sq in b.properties if state.owner[sq] == p.seat]}
            for p in state.players
        ],
        "squares": [
            {"index": sq, "owner": state.owner[sq], "houses": state.houses[sq], "mortgaged": state.mortgaged[sq],
             "lift_cost": lift_cost(state, sq) if state.mortgaged[sq] else None}
            for sq in b.properties
        ],
        "bank_houses": state.bank_houses, "bank_hotels": state.bank_hotels,
        "parking_pot": state.parking_pot if state.options.free_parking_pot else None,  # B-10 option
        "chance_count": len(state.chance), "chest_count": len(state.chest),
        "buy_square": state.buy_square,
        "auction": msgspec.to_builtins(state.auction) if state.auction else None,
        "min_bid": min_bid(state) if state.auction else None,
        # B-05: what each bidder could pay (cash, plus sales and mortgages for a property)
        "bid_reach": {s: bid_reach(state, s) for s in state.auction.bidders} if state.auction else None,
        "rent_claims": [msgspec.to_builtins(c) for c in state.rent_claims],
        "doubles_window": doubles_window(state),
        "debts": [msgspec.to_builtins(d) for d in state.debts],
        "trades": [msgspec.to_builtins(t) for t in state.trades],
        "shortage": msgspec.to_builtins(state.shortage) if state.shortage else None,
        "winners": list(state.winners), "end_reason": state.end_reason,
        "opening_rolls": [list(r) for r in state.opening_rolls],
    }


def event_for(event, seat: int | None):
    """Nothing in this game is private; kept for the same presenter interface as the card game."""
    return event
