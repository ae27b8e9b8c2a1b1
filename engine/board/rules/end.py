"""The end of a match by time (B-17): what is in progress resolves (``_wind_up``), then the highest
total value wins. The last player standing (B-16) ends the game in ``money.py``.
"""

from __future__ import annotations

from engine.board.model import BANK, BoardState, EndMatch
from engine.board.rules.auctions import _close_unsold, _decide_auction, _void_auction
from engine.board.rules.base import _charge, _finish, board_of, current_seat, valuation
from engine.board.rules.money import _lapse, _raise_and_pay
from engine.core.errors import RuleError
from engine.core.values import SYSTEM


def _h_end_match(state: BoardState, seat: int, action: EndMatch, events: list) -> None:
    """B-17: time is up; what is in progress resolves (``_wind_up``), then the highest total value
    wins, equal values share the win."""
    if seat != SYSTEM:
        raise RuleError("B-17", "board.err.clock_only")
    _wind_up(state, events)
    if state.stage == "over":  # the last debt left one player: the game ended that way
        return
    scores = valuation(state)
    best = max(scores.values())
    _finish(state, events, [s for s in sorted(scores) if scores[s] == best], action.reason, scores)


def _wind_up(state: BoardState, events: list) -> None:
    """B-17: "the game stops after the action in progress resolves". Rulings:


    - debts are settled in the order they arose, each as ``RaiseMoney`` would (the clock's answer
      for a debtor): cash first, then the least useful sales and mortgages (``next_sale``), and a
      debtor who still cannot pay goes bankrupt to the creditor (B-16) — a creditor is never
      valued without what they are owed;
    - a running auction is decided with the standing bid: the high bidder buys at it, raising
      money as above when short (B-05); one who cannot even then voids it, and with nobody left to
      bid after time the lot stays with the bank, as does a lot nobody has bid on;
    - income tax awaiting the B-08 choice is charged flat (the clock's answer), then settled;
    - what had not started is dropped: a purchase not yet decided (the square stays with the
      bank), a building-shortage call, open trade offers, rent not yet claimed (B-06 with
      ``rent_claim``: the owner had not claimed it), and the bank's auctions after a
      bankruptcy (those properties stay with the bank).
    """
    for c in list(state.rent_claims):
        _lapse(state, c, events)
    state.buy_square = -1
    state.shortage = None
    if state.tax_due:
        state.tax_due = False
        _charge(state, current_seat(state), BANK, board_of(state).money["income_tax"], "income_tax", events)
    while state.stage != "over":
        if state.debts:
            state.stage = "debt"  # the debtor's sales and mortgages are allowed as in a debt
            _raise_and_pay(state, events)
            continue
        a = state.auction
        if a is None:
            break
        if a.high_bidder >= 0 and not a.settling:
            _decide_auction(state, events)
        elif a.settling:  # its debt is gone unpaid
            _void_auction(state, events)
        else:
            _close_unsold(state, events)
    state.auction_queue = []
