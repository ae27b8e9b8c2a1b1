"""What a seat may do now (``legal_actions``), what the table waits for (``waiting_for``), which
actions answer a decision (``answers``) and the time-out answers.

The building, selling, mortgage and lifting choices are the candidates that pass the very
validators the handlers call (``building.py``); the trade shortcuts pass ``trades.offer_problem``;
an offer to the seat is accepted exactly when ``trades._accept_problem`` lets it. The rules are
written once, as validators, and listing the choices only asks them.

A state may be changed by anything (``apply``, a test, a replay), so nothing here is remembered
by version: what is remembered (``base.memo``, on the state object itself) is keyed by all that
it was worked out from, a group's owners, mortgages and buildings, and the checks that read the
cash and the bank's stock run on every call.
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from engine.board.model import (
    BANK,
    AcceptTrade,
    Bid,
    BoardState,
    Buy,
    CancelTrade,
    CollectRent,
    DeclareBankruptcy,
    DeclineShortage,
    DeclineToBuy,
    EndMatch,
    ForgoRent,
    JoinShortage,
    PassAuction,
    PayDebt,
    PayJailFine,
    PayTax,
    ProposeTrade,
    RaiseMoney,
    RejectTrade,
    Roll,
    UseJailCard,
)
from engine.board.rules.auctions import bid_buttons, bid_reach
from engine.board.rules.base import (
    _BOARDS,
    _BUILD,
    _LIFT,
    _MORTGAGE,
    _ROUND,
    _SELL,
    _SELL_GROUP,
    _STREET_GETTERS,
    MEMO_LIMIT,
    active_seats,
    board_of,
    current_seat,
    max_raisable,
    memo,
)
from engine.board.rules.building import (
    _afford_problem,
    _build_terms,
    _hotel_break_problem,
    _lift_terms,
    _manage_problem,
    _mortgage_problem,
    _round_stock_problem,
    _round_terms,
    _sell_group_problem,
    _sell_terms,
    _stock_problem,
    buildable_streets,
    lift_cost,
)
from engine.board.rules.trades import _accept_problem
from engine.board.trades import means_problem, offer_problem, terms_problem, window_problem
from engine.core.contract import Decision, first_timeout
from engine.core.values import SYSTEM


def legal_actions(state: BoardState, seat: int) -> list:
    """What ``seat`` may do now. Open amounts (bids, trade cash) are offered as a few steps; any
    other valid amount is accepted too (the adapters let players type one)."""
    if state.stage == "over":
        return []
    if seat == SYSTEM:
        return [EndMatch()]
    if not 0 <= seat < len(state.players) or state.players[seat].bankrupt:
        return []
    out: list = [CollectRent(square=c.square) for c in state.rent_claims if c.owner == seat]
    out += [ForgoRent(square=c.square) for c in state.rent_claims if c.owner == seat]
    for t in state.trades:
        if t.target == seat and _accept_problem(state, seat, t) is None:
            out += [AcceptTrade(trade=t.id), RejectTrade(trade=t.id)]
        elif t.target == seat:
            out.append(RejectTrade(trade=t.id))
        elif t.proposer == seat:
            out.append(CancelTrade(trade=t.id))
    stage = state.stage
    cur = current_seat(state)
    if stage == "roll":
        if seat == cur and not state.rolled:
            p = state.players[seat]
            if p.in_jail:
                if p.cash >= board_of(state).money["jail_fine"]:
                    out.append(PayJailFine())
                if p.jail_cards:
                    out.append(UseJailCard())
            out.append(Roll())
        out += _manage_options(state, seat)
        out += trade_options(state, seat)
    elif stage == "buy" and seat == cur:
        if state.players[seat].cash >= board_of(state).price[state.buy_square]:
            out.append(Buy())
        out.append(DeclineToBuy())
        out += _manage_options(state, seat)
    elif stage == "tax" and seat == cur:
        out += [PayTax(choice="flat"), PayTax(choice="percent")]
    elif stage == "auction":
        a = state.auction
        if a is not None and seat in a.bidders and seat != a.high_bidder:
            reach = bid_reach(state, seat)
            out += [Bid(amount=x) for x in bid_buttons(state, seat, reach)]  # B-04: a few scaled steps
            out.append(PassAuction())
    elif stage == "shortage":
        s = state.shortage
        if s is not None and seat in s.asked:
            out += [JoinShortage(street=sq) for sq in buildable_streets(state, seat, s.building)]
            out.append(DeclineShortage())
    elif stage == "debt" and state.debts[0].debtor == seat:
        d = state.debts[0]
        if state.players[seat].cash >= d.amount:
            out.append(PayDebt())
        out.append(RaiseMoney())
        if max_raisable(state, seat) < d.amount:
            out.append(DeclareBankruptcy())
        out += _manage_options(state, seat)
        out += trade_options(state, seat)
    return out


class Management(NamedTuple):
    """A seat's building, selling, mortgage and lifting choices now, by kind, each list in the
    board's group order (``legal_actions`` lists them in this order)."""

    builds: list  # BuildHouse
    rounds: list  # BuildRound
    sells: list  # SellBuilding, SellGroupBuildings
    mortgages: list  # Mortgage
    lifts: list  # LiftMortgage


_NO_MANAGEMENT = Management([], [], [], [], [])


def management_choices(state: BoardState, seat: int, sells: bool = True, lifts: bool = True) -> Management:
    """What ``seat`` may build, sell, mortgage and lift now: on each group it holds, the
    candidates that pass the handlers' validators (``building.py``). Callers that need only some
    kinds (the AI) read those fields, and may leave out the sales or the lifts (``sells``,
    ``lifts``: those lists then stay empty).

    Each validator is the group's own terms (``_build_terms``, ``_round_terms``, ``_sell_terms``,
    ``_sell_group_problem``, ``_mortgage_problem``, ``_lift_terms``) followed by the checks of
    the bank's stock and the cash. The terms read only the group's squares, so a group's are
    remembered (``memo``) under its owners, mortgages and buildings: between two decisions most
    groups have not changed. The stock and cash checks run on every call (the stock once for a
    house and once for a hotel: ``_stock_problem`` tells only those apart).
    """
    if seat not in state.owner or _manage_problem(state, seat, False) is not None:  # may it raise money?
        return _NO_MANAGEMENT
    spend = _manage_problem(state, seat, True) is None  # B-02: not inside the doubles window
    b = board_of(state)
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    known = memo(state)
    name = ("management", b.ruleset, seat, state.options.uneven_building)  # B-11/B-13 change the terms
    terms = known.get(name)
    if terms is None or len(terms) > MEMO_LIMIT:
        terms = known[name] = {}
    if spend:
        house_stock = _stock_problem(state, 0) is None
        hotel_stock = _stock_problem(state, 4) is None
    builds: list = []
    rounds: list = []
    sold: list = []
    mortgages: list = []
    lifted: list = []
    index = -1
    for _group, _squares, _street, get in b.group_getters:
        index += 1
        owners = get(owner)
        if seat not in owners:
            continue
        key = (index, owners, get(mortgaged), get(houses))
        part = terms.get(key)
        if part is None or (sells and part[2] is None):  # the sales are worked out once asked for
            part = terms[key] = _group_terms(state, seat, index, sells)
        p_builds, p_round, p_sales, p_mortgages, p_lifts = part
        if spend:
            for sq, level, cost in p_builds:
                if (hotel_stock if level == 4 else house_stock) and _afford_problem(state, seat, cost) is None:
                    builds.append(_BUILD[sq])
            if p_round is not None:
                streets, level, cost = p_round
                if _afford_problem(state, seat, cost) is None \
                        and _round_stock_problem(state, level, len(streets)) is None:
                    rounds.append(_ROUND[_group])
            if lifts:
                for sq in p_lifts:
                    if _afford_problem(state, seat, lift_cost(state, sq), "B-14") is None:
                        lifted.append(_LIFT[sq])
        if sells:
            p_sells, p_sell_group = p_sales
            for sq, level in p_sells:
                if _hotel_break_problem(state, level) is None:
                    sold.append(_SELL[sq])
            if p_sell_group is not None:
                sold.append(p_sell_group)
        mortgages += p_mortgages
    return Management(builds, rounds, sold, mortgages, lifted)


def _group_terms(state: BoardState, seat: int, index: int, sells: bool = True) -> tuple:
    """The terms of every management action of ``seat`` on one group (``management_choices``):
    builds ``(square, level, cost)``, the round ``(streets, level, cost)`` or None, the sales
    (``(square, level)`` of each, and the sale of all its buildings or None; None when ``sells``
    is False: not worked out), mortgages, and the mortgaged squares that may be lifted.
    Candidates are what each action is about (a building to sell, a mortgage to lift); the
    validators' terms decide."""
    b = board_of(state)
    group, squares, street, get = b.group_getters[index]
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    builds: list = []
    rnd = None
    sold: list = []
    sell_group = None
    mortgages: list = []
    lifts: list = []
    if street and get(owner).count(seat) == len(squares):
        for sq in squares:
            problem, level = _build_terms(state, seat, sq)
            if problem is None:
                builds.append((sq, level, b.house_cost[sq]))
        problem, streets, level = _round_terms(state, seat, group)
        if problem is None:
            rnd = (streets, level, len(streets) * b.house_cost[squares[0]])
        if sells and any(get(houses)):
            for sq in squares:
                if houses[sq]:
                    problem, level = _sell_terms(state, seat, sq)
                    if problem is None:
                        sold.append((sq, level))
            if _sell_group_problem(state, seat, group) is None:
                sell_group = _SELL_GROUP[group]
    for sq in squares:
        if owner[sq] == seat:
            if not mortgaged[sq]:
                if _mortgage_problem(state, seat, sq) is None:
                    mortgages.append(_MORTGAGE[sq])
            elif _lift_terms(state, seat, sq) is None:
                lifts.append(sq)
    sales = (tuple(sold), sell_group) if sells else None
    return tuple(builds), rnd, sales, tuple(mortgages), tuple(lifts)


def _manage_options(state: BoardState, seat: int) -> list:
    """Build, sell, mortgage and lift choices for ``seat`` now, as ``legal_actions`` lists them."""
    m = management_choices(state, seat)
    return m.builds + m.rounds + m.sells + m.mortgages + m.lifts


def trade_options(state: BoardState, seat: int) -> list:
    """Offers worth a button: buying the street that completes one's own group, selling the street
    that completes someone else's (at the printed price ×1, ×1.5 and ×2), swapping two streets that
    complete a group each (even, or with the price gap in cash), and jail cards for cash: those the
    validator of offers lets through (``window_problem`` for the seat, ``offer_problem`` for each).

    The deed offers and their terms (``trades.terms_problem``) depend only on who owns what,
    the buildings and who is still in: they are remembered (``memo``) under those; the means
    (``trades.means_problem``: cash and cards) are checked on every call."""
    if window_problem(state, seat) is not None:
        return []
    players = state.players
    streets = _STREETS[state.options.ruleset]  # the candidates and their terms read the streets only
    key = ("offers", state.options.ruleset, seat, streets(state.owner), streets(state.houses),
           tuple([p.bankrupt for p in players]))
    known = memo(state)
    offers = known.get(key)
    if offers is None:
        offers = known[key] = [o for o in _offer_candidates(state, seat)
                               if terms_problem(state, seat, o, o.target) is None]
    out = [o for o in offers if means_problem(state, seat, o, o.target) is None]
    if players[seat].jail_cards:
        cap = board_of(state).money["jail_card_max_price"]
        cards = [ProposeTrade(target=t, give_cards=1, get_cash=cap) for t in active_seats(state) if t != seat]
        out += [o for o in cards if offer_problem(state, seat, o, o.target) is None]
    return out


_STREETS = {r: itemgetter(*(sq for sq in range(40) if bd.kind[sq] == "street")) for r, bd in _BOARDS.items()}


def _offer_candidates(state: BoardState, seat: int) -> list:
    """The deed offers of ``trade_options`` before the validator: purchases, sales, swaps."""
    b = board_of(state)
    players = state.players
    owner = state.owner
    buys: list[tuple[int, int, int]] = []  # (holder, street, price): buying it completes my group
    sales: list[tuple[int, int, int]] = []  # (buyer, street, price): selling it completes theirs
    for _group, squares, _street, get in _STREET_GETTERS[b.ruleset]:
        owners = get(owner)
        if seat not in owners:
            continue
        mine = owners.count(seat)
        n = len(squares)
        if mine == n - 1:
            for sq, o in zip(squares, owners, strict=True):
                if o != seat:
                    if o != BANK and not players[o].bankrupt:
                        buys.append((o, sq, b.price[sq]))
                    break
        elif mine == 1:
            rest = {o for o in owners if o != seat}
            other = rest.pop() if len(rest) == 1 else BANK
            if other != BANK and not players[other].bankrupt:
                sq = squares[owners.index(seat)]
                sales.append((other, sq, b.price[sq]))
    out: list = []
    for holder, sq, price in buys:
        out += [ProposeTrade(target=holder, get=(sq,), give_cash=price * factor // 10) for factor in (10, 15, 20)]
    for buyer, sq, price in sales:
        out += [ProposeTrade(target=buyer, give=(sq,), get_cash=price * factor // 10) for factor in (10, 15, 20)]
    prices = b.price
    for partner, theirs, _ in buys:  # each completes a group: the price gap evens it out
        for buyer, mine_sq, _ in sales:
            if buyer != partner:
                continue
            gap = prices[theirs] - prices[mine_sq]
            out.append(ProposeTrade(target=partner, give=(mine_sq,), get=(theirs,)))
            if gap > 0:
                out.append(ProposeTrade(target=partner, give=(mine_sq,), get=(theirs,), give_cash=gap))
            elif gap < 0:
                out.append(ProposeTrade(target=partner, give=(mine_sq,), get=(theirs,), get_cash=-gap))
    return out


def waiting_for(state: BoardState) -> list[Decision]:
    """Who must answer now: trade offers first, then the stage's decision(s)."""
    if state.stage == "over":
        return []
    # rent claims first: an AI owner is asked before the next roll can make them lapse (B-06)
    out = [Decision(c.owner, "rent", "response", ForgoRent(square=c.square)) for c in state.rent_claims] \
        if state.rent_claims else []
    if state.trades:
        out += [Decision(t.target, "trade", "response", RejectTrade(trade=t.id)) for t in state.trades]
    stage = state.stage
    if stage == "debt":
        out.append(Decision(state.debts[0].debtor, "debt", "payment", _RAISE))
    elif stage == "auction" and state.auction is not None:
        a = state.auction
        out += [Decision(s, "bid", "auction", _PASS) for s in a.bidders if s != a.high_bidder]
    elif stage == "shortage" and state.shortage is not None:
        out += [Decision(s, "shortage", "response", _DECLINE_SHORTAGE) for s in state.shortage.asked]
    elif stage == "buy":
        out.append(Decision(current_seat(state), "buy", "turn", _DECLINE))
    elif stage == "tax":
        out.append(Decision(current_seat(state), "tax", "turn", _FLAT_TAX))
    else:
        out.append(Decision(state.order[state.turn_index], "roll", "turn", _ROLL))  # current_seat, asked most
    return out


# the default answers, made once (actions are frozen): ``waiting_for`` is asked before every move
_RAISE, _DECLINE, _FLAT_TAX, _ROLL = RaiseMoney(), DeclineToBuy(), PayTax(choice="flat"), Roll()
_PASS, _DECLINE_SHORTAGE = PassAuction(), DeclineShortage()


# the actions that answer a decision, by the decision's timeout (its default answer)
_ANSWERS: dict[type, tuple[type, ...]] = {
    Roll: (PayJailFine, UseJailCard, Roll), DeclineToBuy: (Buy, DeclineToBuy), PassAuction: (Bid, PassAuction),
    PayTax: (PayTax,), RaiseMoney: (PayDebt, RaiseMoney, DeclareBankruptcy),
    DeclineShortage: (JoinShortage, DeclineShortage), RejectTrade: (AcceptTrade, RejectTrade),
    ForgoRent: (CollectRent, ForgoRent),
}


def answers(decision: Decision, actions: list) -> list:
    """Those of the seat's ``actions`` that answer ``decision`` (a trade's: that very offer), as
    opposed to what the seat may do besides (build, mortgage, offer a trade)."""
    timeout = decision.timeout
    kinds = _ANSWERS.get(type(timeout), (type(timeout),))
    trade = timeout.trade if isinstance(timeout, RejectTrade) else None
    square = timeout.square if isinstance(timeout, ForgoRent) else None  # that very claim
    return [a for a in actions if type(a) in kinds and (trade is None or a.trade == trade)
            and (square is None or a.square == square)]


def timeout_action(state: BoardState, seat: int):
    """Decline to buy, pass in an auction, reject a trade, let a rent claim go, raise money
    automatically, roll."""
    return first_timeout(waiting_for(state), seat)
