"""A baseline board player: a simple fixed policy to measure the AI against (``tycoon simulate
board --seats ai,basic,...``).

It buys what it can afford above a fixed reserve, bids up to the printed price, builds evenly
when it can, pays its way out of debts and never offers a trade. It accepts one that pays it, in
cash, at least twice the printed price of the deeds it hands over (``SELLS_AT``), as a beginner
sells a street for a good price without asking what it finishes: a player who never sells leaves
the deeds split for good, and two games in three against it ran to the turn cap with no group
complete anywhere (tests/engine/board/test_board_ai.py, ``basic``). Everything else
(a decision it has no opinion on) takes the first listed answer that commits to nothing new.
Like the AI it only ever picks from ``legal_actions``.
"""

from __future__ import annotations

from engine.board import model
from engine.board.model import (
    AcceptTrade,
    Bid,
    BoardState,
    BuildHouse,
    Buy,
    DeclineShortage,
    DeclineToBuy,
    JoinShortage,
    PassAuction,
    PayDebt,
    PayTax,
    RaiseMoney,
    RejectTrade,
    Roll,
    UseJailCard,
)
from engine.board.rules import board_of, legal_actions, round_amount, start_cash, timeout_action, total_assets


def _claim(square: int):
    kind = getattr(model, "CollectRent", None)
    return kind(square=square) if kind is not None else None


SELLS_AT = 2  # times the printed price of the deeds it gives, in net cash received


def _well_paid(state: BoardState, t) -> bool:
    """An offer to it that pays, in net cash, ``SELLS_AT`` times the printed price of the deeds it
    gives less those it gets, with no jail card asked of it, and leaves it its reserve."""
    b = board_of(state)
    net = t.give_cash - t.get_cash
    deeds = sum(b.price[sq] for sq in t.get) - sum(b.price[sq] for sq in t.give)
    return not t.get_cards and net >= SELLS_AT * deeds and deeds > 0 \
        and state.players[t.target].cash - t.get_cash >= reserve(state)


def reserve(state: BoardState) -> int:
    return start_cash(state.options) // 10


def choose(state: BoardState, seat: int, actions: list | None = None):
    if actions is None:
        actions = legal_actions(state, seat)
    if not actions:
        return None
    for a in actions:  # offers: sold for twice the printed price in cash, else declined
        if isinstance(a, RejectTrade):
            offer = next((t for t in state.trades if t.id == a.trade), None)
            accept = AcceptTrade(trade=a.trade)
            return accept if offer is not None and accept in actions and _well_paid(state, offer) else a
    for c in getattr(state, "rent_claims", ()):  # B-06 with rent_claim: it does collect its rent
        claim = _claim(c.square)
        if c.owner == seat and claim in actions:
            return claim
    b = board_of(state)
    cash = state.players[seat].cash
    stage = state.stage
    if stage == "debt" and (PayDebt() in actions or RaiseMoney() in actions):
        return PayDebt() if PayDebt() in actions else RaiseMoney()
    if stage == "auction":
        a = state.auction
        bids = [x for x in actions if isinstance(x, Bid)]
        if a is not None and bids:
            limit = b.price[a.square] if a.kind == "property" else b.house_cost[a.streets.get(seat, 0)]
            low = min(bids, key=lambda x: x.amount)
            if low.amount <= min(limit, cash):
                return low
        if PassAuction() in actions:
            return PassAuction()
    if stage == "shortage":
        joins = [a for a in actions if isinstance(a, JoinShortage)]
        if joins and cash - b.house_cost[joins[0].street] >= reserve(state):
            return joins[0]
        if DeclineShortage() in actions:
            return DeclineShortage()
    if stage == "buy" and DeclineToBuy() in actions:
        affordable = Buy() in actions and cash - b.price[state.buy_square] >= reserve(state)
        return Buy() if affordable else DeclineToBuy()
    if stage == "tax" and PayTax(choice="flat") in actions:
        percent = round_amount(state, total_assets(state, seat) * b.money["income_tax_percent"] // 10)
        return PayTax(choice="percent" if percent < b.money["income_tax"] else "flat")
    if Roll() in actions:
        builds = [a for a in actions if isinstance(a, BuildHouse)]
        for a in sorted(builds, key=lambda a: a.square):  # the rules only list even building
            if cash - b.house_cost[a.square] >= reserve(state):
                return a
        if UseJailCard() in actions:
            return UseJailCard()
        return Roll()
    # anything else (say, a claim it may make): the answer the table would take on its own
    fallback = timeout_action(state, seat)
    return fallback if fallback in actions else actions[0]
