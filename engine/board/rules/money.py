"""Money owed (B-06 rent by claim, B-16 debts and bankruptcy): claims and their lapse, paying the
first debt, raising money with the least damage (``next_sale``, ``RaiseMoney``), and going
bankrupt to a player or to the bank.

Rent by claim (B-06 with ``rent_claim``, seed 000): "当参加者停在其它玩家拥有的财产上时，拥有者可以
依据地契卡片之记载向你收取租金 … 如果拥有者在第二位参赛者掷骰子前未收取租金，则不可再提出此要求": the
owner may collect, and loses the claim once the next player rolls. The amount is fixed when the
token lands. The claim is open to its owner at any stage (in jail too, B-09) until a player other
than the payer rolls (the payer's own extra roll after doubles does not end it); the owner may
also let it go, which is what the owner's clock does (a decision of policy ``response``). A claim
made while the payer cannot pay opens a debt as usual (B-16). Claims lapse when their owner or
payer goes bankrupt and when the match ends.
"""

from __future__ import annotations

from engine.board.model import (
    BANK,
    BoardState,
    CollectRent,
    Debt,
    DeclareBankruptcy,
    ForgoRent,
    PayDebt,
    PropertyTransferred,
    RaiseMoney,
    RentClaim,
    RentLapsed,
    SellBuilding,
    SellGroupBuildings,
    TradeClosed,
    WentBankrupt,
)
from engine.board.rules.auctions import _award, _check_auction, _void_auction
from engine.board.rules.base import (
    _MORTGAGE,
    _SELL,
    _SELL_GROUP,
    _charge,
    _finish,
    _transfer,
    active_seats,
    board_of,
    current_seat,
    group_has_buildings,
    interest,
    max_raisable,
    rent_for,
)
from engine.board.rules.building import _h_mortgage, _h_sell, _h_sell_group, _sell_all, _sell_problem
from engine.core.errors import RuleError


def _lapse(state: BoardState, claim: RentClaim, events: list) -> None:
    state.rent_claims.remove(claim)
    events.append(RentLapsed(owner=claim.owner, payer=claim.payer, square=claim.square, amount=claim.amount))


def _find_claim(state: BoardState, seat: int, square: int) -> RentClaim:
    for c in state.rent_claims:
        if c.owner == seat and c.square == square:
            return c
    raise RuleError("B-06", "board.err.no_rent_claim", square=square)


def _h_collect_rent(state: BoardState, seat: int, action: CollectRent, events: list) -> None:
    c = _find_claim(state, seat, action.square)
    state.rent_claims.remove(c)
    _charge(state, c.payer, seat, c.amount, "rent", events)


def _h_forgo_rent(state: BoardState, seat: int, action: ForgoRent, events: list) -> None:
    _lapse(state, _find_claim(state, seat, action.square), events)


def _require_debtor(state: BoardState, seat: int) -> Debt:
    if state.stage != "debt" or not state.debts or state.debts[0].debtor != seat:
        raise RuleError("B-16", "board.err.no_debt")
    return state.debts[0]


def _h_pay_debt(state: BoardState, seat: int, action: PayDebt, events: list) -> None:
    d = _require_debtor(state, seat)
    if state.players[seat].cash < d.amount:
        raise RuleError("B-16", "board.err.raise_money_first", amount=d.amount, cash=state.players[seat].cash)
    _pay_first_debt(state, events)


def _pay_first_debt(state: BoardState, events: list) -> None:
    """The first debt is paid in full; an auction's (B-05) hands over what was bought."""
    d = state.debts.pop(0)
    _transfer(state, d.debtor, d.creditor, d.amount, d.reason, events)
    a = state.auction
    if d.reason == "auction" and a is not None and a.settling and a.high_bidder == d.debtor:
        _award(state, events)


def _sale_candidates(state: BoardState, seat: int) -> tuple[list[int], list[str], list[int]]:
    """What ``seat`` could turn into cash, in three piles: streets outside a complete group,
    stations and utilities that may be mortgaged; groups with buildings; streets of complete
    groups without buildings that may be mortgaged."""
    b = board_of(state)
    owner, mortgaged, houses = state.owner, state.mortgaged, state.houses
    loose: list[int] = []
    whole: list[int] = []
    built: list[str] = []
    for group, squares, street, get in b.group_getters:
        owners = get(owner)
        if seat not in owners:
            continue
        if any(get(houses)):  # buildings: nothing here may be mortgaged
            if owners[0] == seat:
                built.append(group)
            continue
        pile = whole if street and owners.count(seat) == len(squares) else loose
        pile += [sq for sq, o in zip(squares, owners, strict=True) if o == seat and not mortgaged[sq]]
    return loose, built, whole


def _by_rent(state: BoardState, squares: list[int]) -> list[int]:
    return sorted(squares, key=lambda sq: (rent_for(state, sq, 7), sq))


def _by_group_rent(state: BoardState, groups: list[str]) -> list[str]:
    b = board_of(state)
    return sorted(groups, key=lambda g: (sum(rent_for(state, sq, 7) for sq in b.groups[g]), g))


def _next_building_sale(state: BoardState, seat: int, group: str):
    """Selling evenly from ``group``: its highest building, or all of them when a hotel cannot be
    broken into houses (B-12)."""
    squares = board_of(state).groups[group]
    top = max(squares, key=lambda sq: (state.houses[sq], -sq))
    return _SELL[top] if _sell_problem(state, seat, top) is None else _SELL_GROUP[group]


def next_sale(state: BoardState, seat: int):
    """The next step of raising money with the least damage, or None when nothing is left.


    First mortgage what brings little (stations, utilities and streets outside a complete group,
    cheapest rent first); then sell buildings evenly from the group that earns least; then
    mortgage the streets of complete groups.
    """
    loose, built, whole = _sale_candidates(state, seat)
    if loose:
        return _MORTGAGE[_by_rent(state, loose)[0]]
    if built:
        return _next_building_sale(state, seat, _by_group_rent(state, built)[0])
    if whole:
        return _MORTGAGE[_by_rent(state, whole)[0]]
    return None


_SALE_HANDLERS = {SellBuilding: _h_sell, SellGroupBuildings: _h_sell_group}  # what next_sale may name


def _h_raise(state: BoardState, seat: int, action: RaiseMoney, events: list) -> None:
    """The automatic way out of a debt: the steps of ``next_sale`` until the debt is covered, then
    pay, or go bankrupt when nothing is left.


    A step changes no other candidate's rank (a mortgage leaves ownership, and so every rent, as
    it was; a sale lowers only the rent of the group being sold, which was already the lowest),
    so each pile is ranked once rather than once a step. A test checks the result against
    ``next_sale`` step by step.
    """
    _require_debtor(state, seat)
    _raise_and_pay(state, events)


def _raise_and_pay(state: BoardState, events: list) -> None:
    """``RaiseMoney`` for the first debt (stage ``debt``): sell and mortgage until it is covered,
    pay it, or go bankrupt to its creditor."""
    d = state.debts[0]
    seat = d.debtor
    p = state.players[seat]
    loose, built, _ = _sale_candidates(state, seat)
    for sq in _by_rent(state, loose):
        if p.cash >= d.amount:
            break
        _h_mortgage(state, seat, _MORTGAGE[sq], events)
    for group in _by_group_rent(state, built):
        while p.cash < d.amount and group_has_buildings(state, group):
            step = _next_building_sale(state, seat, group)
            _SALE_HANDLERS[type(step)](state, seat, step, events)
    if p.cash < d.amount:
        for sq in _by_rent(state, _sale_candidates(state, seat)[2]):
            if p.cash >= d.amount:
                break
            _h_mortgage(state, seat, _MORTGAGE[sq], events)
    if p.cash >= d.amount:
        _pay_first_debt(state, events)
    else:
        _bankrupt(state, seat, d.creditor, events)


def _h_bankrupt(state: BoardState, seat: int, action: DeclareBankruptcy, events: list) -> None:
    d = _require_debtor(state, seat)
    if max_raisable(state, seat) >= d.amount:
        raise RuleError("B-16", "board.err.can_still_pay", amount=d.amount, raisable=max_raisable(state, seat))
    _bankrupt(state, seat, d.creditor, events)


def _receive_mortgaged(state: BoardState, seat: int, sq: int, events: list) -> None:
    """B-15/B-16: the receiver of a mortgaged property pays 10 % interest at once."""
    _charge(state, seat, BANK, interest(state, sq), "mortgage_interest", events)
    state.lift_discount.append(sq)


def _bankrupt(state: BoardState, seat: int, creditor: int, events: list) -> None:
    b = board_of(state)
    p = state.players[seat]
    if creditor != BANK and state.players[creditor].bankrupt:
        creditor = BANK
    owned = [sq for sq in b.properties if state.owner[sq] == seat]
    _sell_all(state, seat, owned, events)  # buildings back to the bank at half cost
    state.debts = [d for d in state.debts if d.debtor != seat and d.creditor != seat]
    if creditor == BANK:
        _transfer(state, seat, BANK, p.cash, "bankruptcy", events)
        for sq in owned:
            state.owner[sq] = BANK
            state.mortgaged[sq] = False
        state.auction_queue += owned  # the bank auctions them at once
        for deck in p.jail_cards:
            pile = state.chance if deck == "chance" else state.chest
            index = next(i for i, c in enumerate(b.deck(deck)) if c.effect == "jail_free" and i not in pile)
            pile.append(index)
    else:
        _transfer(state, seat, creditor, p.cash, "bankruptcy", events)
        state.players[creditor].jail_cards += p.jail_cards
        for sq in owned:
            state.owner[sq] = creditor
            events.append(PropertyTransferred(square=sq, from_seat=seat, to_seat=creditor))
        for sq in owned:
            if state.mortgaged[sq]:
                _receive_mortgaged(state, creditor, sq, events)
    p.jail_cards = []
    p.bankrupt = True
    p.in_jail = False
    events.append(WentBankrupt(seat=seat, creditor=creditor))
    for t in [t for t in state.trades if seat in (t.proposer, t.target)]:
        state.trades.remove(t)
        events.append(TradeClosed(trade=t.id, outcome="cancelled", deal=t))
    if state.shortage is not None:
        state.shortage.asked = [s for s in state.shortage.asked if s != seat]
        state.shortage.wanters.pop(seat, None)
        if not state.shortage.wanters:
            state.shortage = None
    for c in [c for c in state.rent_claims if seat in (c.owner, c.payer)]:
        _lapse(state, c, events)
    if state.auction is not None and state.auction.settling and state.auction.high_bidder == seat:
        _void_auction(state, events)  # B-05: the winner could not raise the bid after all
    elif state.auction is not None and seat in state.auction.bidders:
        state.auction.bidders.remove(seat)
        state.auction.streets.pop(seat, None)
        if state.auction.high_bidder == seat:
            state.auction.high_bidder, state.auction.high_bid = -1, 0
        _check_auction(state, events)
    if seat == current_seat(state):
        state.rolled, state.extra_roll = True, False
        state.buy_square, state.tax_due = -1, False
    alive = active_seats(state)
    if len(alive) == 1:
        _finish(state, events, alive, "last_player")
