"""Trades (B-15) as actions: proposing (and countering), accepting, rejecting, cancelling.

The one validator of an offer, the template offers are built from, the order offers are settled
in and the memory of refused offers live in ``engine/board/trades.py`` (its docstring is the
contract); this module only applies what that validator lets through.
"""

from __future__ import annotations

from engine.board.model import (
    AcceptTrade,
    BoardState,
    CancelTrade,
    PropertyTransferred,
    ProposeTrade,
    RejectTrade,
    Trade,
    TradeClosed,
    TradeProposed,
)
from engine.board.rules.base import _no, _refuse_if, _require_player, _transfer
from engine.board.rules.money import _receive_mortgaged
from engine.board.trades import offer_problem, order_problem, proposal_problem, record_refusal
from engine.core.errors import RuleError

# the one validator of any offer lives in engine/board/trades.py (its docstring: the contract)
_trade_problem = offer_problem


def _h_propose(state: BoardState, seat: int, action: ProposeTrade, events: list) -> None:
    _require_player(state, seat)
    _refuse_if(proposal_problem(state, seat, action))
    if action.counter:  # the answered offer closes; the counter-offer takes its place at the end
        answered = _find_trade(state, action.counter)
        state.trades.remove(answered)
        record_refusal(state, answered)
        events.append(TradeClosed(trade=answered.id, outcome="countered", deal=answered))
    t = Trade(id=state.next_trade, proposer=seat, target=action.target, give=list(action.give),
              get=list(action.get), give_cash=action.give_cash, get_cash=action.get_cash,
              give_cards=action.give_cards, get_cards=action.get_cards, counter=action.counter)
    state.next_trade += 1
    state.trades.append(t)
    if not action.counter:
        state.proposed.append(seat)
    events.append(TradeProposed(trade=t))


def _find_trade(state: BoardState, trade_id: int) -> Trade:
    for t in state.trades:
        if t.id == trade_id:
            return t
    raise RuleError("B-15", "board.err.no_such_trade", trade=trade_id)


def _accept_problem(state: BoardState, seat: int, t: Trade) -> tuple | None:
    """Why ``seat`` may not accept the open offer ``t`` now (its target, between rolls or in its
    own debt, the earlier offers first, and the offer still standing)."""
    if seat != t.target:
        return _no("B-15", "board.err.not_your_trade", trade=t.id)
    if state.stage not in ("roll", "debt"):
        return _no("B-15", "board.err.not_between_rolls")
    return order_problem(state, t) or _trade_problem(state, t.proposer, t, t.target)


def _h_accept_trade(state: BoardState, seat: int, action: AcceptTrade, events: list) -> None:
    t = _find_trade(state, action.trade)
    _refuse_if(_accept_problem(state, seat, t))
    state.trades.remove(t)
    events.append(TradeClosed(trade=t.id, outcome="accepted", deal=t))
    me, them = state.players[t.proposer], state.players[t.target]
    _transfer(state, t.proposer, t.target, t.give_cash, "trade", events)
    _transfer(state, t.target, t.proposer, t.get_cash, "trade", events)
    for _ in range(t.give_cards):
        them.jail_cards.append(me.jail_cards.pop(0))
    for _ in range(t.get_cards):
        me.jail_cards.append(them.jail_cards.pop(0))
    for squares, giver, taker in ((t.give, t.proposer, t.target), (t.get, t.target, t.proposer)):
        for sq in squares:
            state.owner[sq] = taker
            events.append(PropertyTransferred(square=sq, from_seat=giver, to_seat=taker))
    for squares, taker in ((t.give, t.target), (t.get, t.proposer)):
        for sq in squares:
            if state.mortgaged[sq]:
                _receive_mortgaged(state, taker, sq, events)


def _h_reject_trade(state: BoardState, seat: int, action: RejectTrade, events: list) -> None:
    t = _find_trade(state, action.trade)
    if seat != t.target:
        raise RuleError("B-15", "board.err.not_your_trade", trade=t.id)
    state.trades.remove(t)
    record_refusal(state, t)
    events.append(TradeClosed(trade=t.id, outcome="rejected", deal=t))


def _h_cancel_trade(state: BoardState, seat: int, action: CancelTrade, events: list) -> None:
    t = _find_trade(state, action.trade)
    if seat != t.proposer:
        raise RuleError("B-15", "board.err.not_your_trade", trade=t.id)
    state.trades.remove(t)
    events.append(TradeClosed(trade=t.id, outcome="cancelled", deal=t))
