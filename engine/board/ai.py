"""The board AI: picks from ``legal_actions`` for whichever decision the seat faces first.

It buys with a cash reserve, bids up to a value it computes (more for a street that completes its
own group or blocks someone else's), builds evenly where a house adds the most rent per coin,
lifts mortgages when rich, raises money with the least damage (the rules' own ``next_sale``),
proposes and accepts only trades that it values above zero, and never stalls: every decision
ends in an action that moves the table on (roll, pass, decline, pay), and the optional ones it
takes between rolls are bounded (cash, one offer per window).
"""

from __future__ import annotations

from array import array

from engine.board.data import Board
from engine.board.model import (
    BANK,
    AcceptTrade,
    Bid,
    BoardState,
    BuildHouse,
    BuildRound,
    Buy,
    DeclineShortage,
    DeclineToBuy,
    JoinShortage,
    LiftMortgage,
    PassAuction,
    PayDebt,
    PayJailFine,
    PayTax,
    ProposeTrade,
    RaiseMoney,
    RejectTrade,
    Roll,
    Trade,
    UseJailCard,
)
from engine.board.rules import (
    board_of,
    current_seat,
    legal_actions,
    owns_group,
    round_amount,
    start_cash,
    total_assets,
)


def choose(state: BoardState, seat: int, actions: list | None = None):
    if actions is None:
        actions = legal_actions(state, seat)
    if not actions:
        return None
    for t in state.trades:
        if t.target == seat:
            accept = AcceptTrade(trade=t.id)
            return accept if accept in actions and trade_value(state, seat, t) > 0 else RejectTrade(trade=t.id)
    stage = state.stage
    if stage == "debt":
        return PayDebt() if PayDebt() in actions else RaiseMoney()
    if stage == "auction":
        return _bid(state, seat, actions)
    if stage == "shortage":
        joins = [a for a in actions if isinstance(a, JoinShortage)]
        if joins and state.players[seat].cash > _reserve(state) + board_of(state).house_cost[joins[0].street]:
            return max(joins, key=lambda a: _house_gain(state, a.street))
        return DeclineShortage()
    if stage == "buy":
        return Buy() if Buy() in actions and _wants(state, seat, state.buy_square) else DeclineToBuy()
    if stage == "tax":
        b = board_of(state)
        percent = round_amount(state, total_assets(state, seat) * b.money["income_tax_percent"] // 10)
        return PayTax(choice="percent" if percent < b.money["income_tax"] else "flat")
    return _between_rolls(state, seat, actions)


def _reserve(state: BoardState) -> int:
    return start_cash(state.options) // 10


def _completes(state: BoardState, seat: int, sq: int) -> bool:
    b = board_of(state)
    return all(state.owner[o] == seat for o in b.groups[b.group[sq]] if o != sq)


def _blocks(state: BoardState, seat: int, sq: int) -> bool:
    """Would this square complete another player's group?"""
    b = board_of(state)
    others = [state.owner[o] for o in b.groups[b.group[sq]] if o != sq]
    return bool(others) and others[0] not in (BANK, seat) and all(o == others[0] for o in others)


def _wants(state: BoardState, seat: int, sq: int) -> bool:
    price = board_of(state).price[sq]
    cash = state.players[seat].cash
    if _completes(state, seat, sq) or _blocks(state, seat, sq):
        return cash >= price
    return cash - price >= _reserve(state)


def _bid(state: BoardState, seat: int, actions: list):
    a = state.auction
    bids = [x for x in actions if isinstance(x, Bid)]
    if a is None or not bids:
        return PassAuction()
    b = board_of(state)
    cash = state.players[seat].cash
    if a.kind == "property":
        value = b.price[a.square] * 11 // 10
        if _completes(state, seat, a.square):
            value *= 2
        elif _blocks(state, seat, a.square):
            value = value * 3 // 2
        limit = min(value, cash - _reserve(state) // 2)
    else:  # a house or hotel in a shortage: worth its cost plus the rent it adds
        street = a.streets.get(seat)
        limit = min(b.house_cost[street] * 2, cash - _reserve(state)) if street is not None else 0
    affordable = [x for x in bids if x.amount <= limit]
    if not affordable:
        return PassAuction()
    return max(affordable, key=lambda x: x.amount)


def _house_gain(state: BoardState, sq: int) -> float:
    b = board_of(state)
    h = state.houses[sq]
    rent = b.rent[sq]
    return (rent[min(h + 1, 5)] - rent[h]) / b.house_cost[sq]


_ROLL = Roll()
_BETWEEN_ROLLS_KINDS = frozenset({BuildHouse, BuildRound, LiftMortgage, ProposeTrade})


def _between_rolls(state: BoardState, seat: int, actions: list):
    b = board_of(state)
    p = state.players[seat]
    reserve = _reserve(state)
    lifts, builds, offers = [], [], []
    rounds: dict[str, BuildRound] = {}
    for a in actions:
        t = type(a)
        if t not in _BETWEEN_ROLLS_KINDS:  # most of the list: sells and mortgages
            continue
        if t is BuildHouse:
            if p.cash - b.house_cost[a.square] >= _build_floor(state, a.square, reserve):
                builds.append(a)
        elif t is BuildRound:
            rounds[a.group] = a
        elif t is LiftMortgage:
            lifts.append(a)
        elif t is ProposeTrade:
            offers.append(a)
    if lifts and p.cash > 3 * reserve:
        return max(lifts, key=lambda a: (owns_group(state, seat, b.group[a.square]), b.price[a.square]))
    if builds:
        best = max(builds, key=lambda a: (_house_gain(state, a.square), -a.square))
        sq = best.square
        whole = rounds.get(b.group[sq])
        if whole is not None:  # the same level on the rest of the group in one go, if cash allows
            level = [g for g in b.groups[whole.group] if state.houses[g] == state.houses[sq]]
            if p.cash - len(level) * b.house_cost[sq] >= _build_floor(state, sq, reserve):
                return whole
        return best
    if offers:
        table = table_key(state)
        value, i = max((_offer_value(state, seat, a, table), i) for i, a in enumerate(offers))
        if value > 0:
            return offers[i]
    may_roll = _ROLL in actions
    if seat != current_seat(state) or not may_roll:
        return _ROLL if may_roll else _pass(actions)
    if p.in_jail:
        owned = sum(1 for sq in b.properties if state.owner[sq] != BANK)
        early = owned < len(b.properties) // 2
        if early and UseJailCard() in actions:
            return UseJailCard()
        if early and PayJailFine() in actions and p.cash - b.money["jail_fine"] >= reserve:
            return PayJailFine()
    return _ROLL


def _build_floor(state: BoardState, sq: int, reserve: int) -> int:
    """Up to three houses a street is where rent jumps: build there down to a thin reserve."""
    return reserve // 4 if state.houses[sq] < 3 else reserve


def _pass(actions: list):
    """A seat with nothing it must do picks the first of its actions that commits to nothing."""
    return actions[0]


# -- valuing trades --------------------------------------------------------------------------------


def _group_value(state: BoardState, b: Board, seat: int, squares: tuple[int, ...], owner) -> int:
    """What ``seat``'s part of one group is worth to it: the prices (half when mortgaged), plus the
    whole group's price again when it holds all of it (rent doubles and houses can go up)."""
    total = 0
    whole = True
    for sq in squares:
        if owner(sq) == seat:
            total += b.price[sq] // 2 if state.mortgaged[sq] else b.price[sq]
        else:
            whole = False
    if whole:
        total += sum(b.price[sq] for sq in squares)
    return total


def _deltas(state: BoardState, seat: int, gain: tuple[int, ...], lose: tuple[int, ...],
            partner: int) -> tuple[int, int, int]:
    """(what ``seat`` gains in holdings, what ``partner`` gains, interest ``seat`` would owe)."""
    b = board_of(state)
    moved = {sq: seat for sq in gain}
    moved.update({sq: partner for sq in lose})
    now = state.owner.__getitem__

    def after(sq: int) -> int:
        return moved.get(sq, state.owner[sq])

    mine = theirs = 0
    for group in {b.group[sq] for sq in moved}:
        squares = b.groups[group]
        mine += _group_value(state, b, seat, squares, after) - _group_value(state, b, seat, squares, now)
        theirs += _group_value(state, b, partner, squares, after) - _group_value(state, b, partner, squares, now)
    interest = sum(b.mortgage[sq] // 10 for sq in gain if state.mortgaged[sq])
    return mine, theirs, interest


_DELTAS: dict[tuple, tuple[int, int, int]] = {}


def _swap_value(state: BoardState, seat: int, gain, lose, cash_in: int, cash_out: int, partner: int,
                table: bytes | None = None) -> int:
    """``table`` (``table_key``) lets the holdings part be remembered while the table is unchanged."""
    key = (table, state.options.ruleset, seat, tuple(gain), tuple(lose), partner)
    found = _DELTAS.get(key) if table is not None else None
    if found is None:
        found = _deltas(state, seat, tuple(gain), tuple(lose), partner)
        if table is not None:
            if len(_DELTAS) > 8192:  # bounded: a cache, not a store
                _DELTAS.clear()
            _DELTAS[key] = found
    mine, theirs, interest = found
    net = cash_in - cash_out
    # helping the partner is worth less than helping oneself, but it is not free either
    return mine + net - interest - max(0, theirs - net) // 2


def table_key(state: BoardState) -> bytes:
    """Ownership and mortgages as one bytes value: all that a trade's holdings value depends on."""
    return array("b", state.owner).tobytes() + bytes(state.mortgaged)


def trade_value(state: BoardState, seat: int, t: Trade) -> int:
    """How much ``seat``, the target of ``t``, gains by accepting it."""
    value = _swap_value(state, seat, t.give, t.get, t.give_cash, t.get_cash, t.proposer)
    return value + (t.give_cards - t.get_cards) * board_of(state).money["jail_card_max_price"] // 2


def _offer_value(state: BoardState, seat: int, a: ProposeTrade, table: bytes | None = None) -> int:
    mine = _swap_value(state, seat, a.get, a.give, a.get_cash, a.give_cash, a.target, table)
    theirs = _swap_value(state, a.target, a.give, a.get, a.give_cash, a.get_cash, seat, table)
    return mine if theirs > 0 else -1
