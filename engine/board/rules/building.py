"""Building and mortgages (B-02 doubles lock, B-11 … B-14, the B-12 shortage call).

Each action has one validator (``_build_problem``, ``_round_problem``, ``_sell_problem``,
``_sell_group_problem``, ``_mortgage_problem``, ``_lift_problem``) that both the handler and
``choices.py`` use: what is listed is exactly what the handler accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board.data import PROPERTY_KINDS
from engine.board.model import (
    BANK,
    HOTEL,
    BoardState,
    BuildHouse,
    BuildingSold,
    BuildRound,
    Built,
    LiftMortgage,
    Mortgage,
    Mortgaged,
    MortgageLifted,
    SellBuilding,
    SellGroupBuildings,
    Shortage,
    ShortageCalled,
)
from engine.board.rules.base import (
    _BOARDS,
    _GROUP_GET,
    _SQUARE_GET,
    _STREET_GETTERS,
    _no,
    _refuse_if,
    _require_player,
    _rounded,
    _transfer,
    active_seats,
    board_of,
    current_seat,
    group_has_buildings,
)


def _build_terms(state: BoardState, seat: int, sq: int) -> tuple[tuple | None, int]:
    """What the group's own squares say about the next building on ``sq``: a refusal, or None
    and the level it goes up from (0 … 4; 4: a hotel). The bank's stock (``_stock_problem``) and
    the cash (``_afford_problem``) are checked after it."""
    ruleset = state.options.ruleset
    if not 0 <= sq < 40 or _BOARDS[ruleset].kind[sq] != "street":
        return _no("B-11", "board.err.not_a_street", square=sq), 0
    if state.owner[sq] != seat:
        return _no("B-11", "board.err.not_your_property", square=sq), 0
    get = _SQUARE_GET[ruleset][sq]
    owners = get(state.owner)
    if owners.count(seat) != len(owners):
        return _no("B-11", "board.err.build_needs_group", square=sq), 0
    if True in get(state.mortgaged):
        return _no("B-11", "board.err.build_mortgaged_group", square=sq), 0
    h = state.houses[sq]
    if h >= HOTEL:
        return _no("B-11", "board.err.has_hotel", square=sq), h
    if h > min(get(state.houses)) and not state.options.uneven_building:
        return _no("B-11", "board.err.build_evenly", square=sq), h
    return None, h


def _stock_problem(state: BoardState, level: int) -> tuple | None:
    """B-12: the bank must hold the building that goes up from ``level`` (a hotel from 4)."""
    if level == 4:
        if state.bank_hotels < 1:
            return _no("B-12", "board.err.no_hotels_left")
    elif state.bank_houses < 1:
        return _no("B-12", "board.err.no_houses_left")
    return None


def _afford_problem(state: BoardState, seat: int, amount: int, rule: str = "B-11") -> tuple | None:
    if state.players[seat].cash < amount:
        return _no(rule, "board.err.cannot_afford", amount=amount)
    return None


def _build_problem(state: BoardState, seat: int, sq: int) -> tuple | None:
    """Why ``seat`` may not put the next building on ``sq`` (bank stock and cash included)."""
    problem, level = _build_terms(state, seat, sq)
    return problem or _stock_problem(state, level) or _afford_problem(state, seat, board_of(state).house_cost[sq])


def buildable_streets(state: BoardState, seat: int, kind: str | None = None) -> list[int]:
    """Streets where ``seat`` may build now; ``kind`` "house"/"hotel" filters by what goes up."""
    b = board_of(state)
    out = []
    for _group, squares, street in b.group_list:
        if not street or state.owner[squares[0]] != seat:
            continue
        for sq in squares:
            if _build_problem(state, seat, sq) is None:
                if kind is None or (kind == "hotel") == (state.houses[sq] == 4):
                    out.append(sq)
    return out


def _place_building(state: BoardState, seat: int, sq: int, events: list) -> None:
    if state.houses[sq] == 4:
        state.bank_hotels -= 1
        state.bank_houses += 4
        state.houses[sq] = HOTEL
    else:
        state.bank_houses -= 1
        state.houses[sq] += 1
    events.append(Built(seat=seat, square=sq, houses=state.houses[sq]))


def doubles_window(state: BoardState) -> bool:
    """B-02 with ``doubles_lock`` (seed 002 §4, §5: houses are built and mortgages lifted "before
    any player rolls the dice, except for additional rounds that get due to rolling the same
    points"). The window opens when the current player rolls doubles that earn an extra roll (not
    doubles out of jail, not the third doubles) and closes when that extra roll is made: the
    doubles roll's own resolution (purchase, auction, debt, card) and the wait for the extra roll.
    Inside it nobody, the roller or anyone else, builds (``BuildHouse``, ``BuildRound``) or
    lifts a mortgage; selling, mortgaging and trading stay open, since raising money is never
    barred. A doubles roll that ends in jail closes it (no extra roll follows)."""
    return state.options.doubles_lock and state.doubles > 0 and (state.extra_roll or not state.rolled)


def _manage_problem(state: BoardState, seat: int, spend: bool) -> tuple | None:
    """B-11: who may build, sell and mortgage now. Spending (building, lifting a mortgage) only
    between rolls, and not inside the doubles window (B-02, ``doubles_window``); raising money
    also for one's own purchase decision or debt."""
    if state.stage == "roll":
        if spend and doubles_window(state):
            return _no("B-02", "board.err.doubles_lock")
        return None
    if not spend and state.stage == "buy" and seat == current_seat(state):
        return None
    if not spend and state.stage == "debt" and state.debts[0].debtor == seat:
        return None
    return _no("B-11", "board.err.not_between_rolls")


def _may_manage(state: BoardState, seat: int, spend: bool) -> None:
    _refuse_if(_manage_problem(state, seat, spend))


def _wishes(state: BoardState, kind: str) -> list[tuple[int, int, int, int]]:
    """Complete, unmortgaged street groups as ``(owner, open slots, lowest level, house cost)``,
    in the board's group order: what anyone could still build of ``kind`` ("house"/"hotel")."""
    b = board_of(state)
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    out = []
    for _group, squares, _street, get in _STREET_GETTERS[state.options.ruleset]:
        owners = get(owner)
        first = owners[0]
        n = len(squares)
        if first == BANK or owners.count(first) != n or True in get(mortgaged):
            continue
        levels = get(houses)
        low = min(levels)
        hotels = levels.count(HOTEL)
        # houses: 4 - h a street and none on a hotel; hotels: one a street once all have four
        slots = (4 * n - sum(levels) + hotels) if kind == "house" else (n - hotels if low >= 4 else 0)
        out.append((first, slots, low, b.house_cost[squares[0]]))
    return out


def _shortage_call(state: BoardState, seat: int, kind: str) -> list[int]:
    """B-12: the other players to ask when the bank cannot meet every wish for a ``kind``; empty
    when the bank can. A wish is what a player could build now with its cash, the bank's stock
    aside; a player is asked when it could build at least one of ``kind`` now."""
    stock = state.bank_hotels if kind == "hotel" else state.bank_houses
    wishes = _wishes(state, kind)
    if stock >= sum(w[1] for w in wishes):  # not even every open slot exceeds the stock
        return []
    players = state.players
    eligible = stock >= 1
    others = [
        s for s in active_seats(state)
        if s != seat and s not in state.declined_shortage and eligible and any(
            o == s and players[s].cash >= cost and ((low == 4) if kind == "hotel" else (low < 4))
            for o, _slots, low, cost in wishes)
    ]
    if not others:
        return []
    demand = 0
    for s in [seat, *others]:
        cash = players[s].cash
        for o, slots, _low, cost in wishes:
            if o != s:
                continue
            take = min(slots, cash // cost)
            cash -= take * cost
            demand += take
    return others if stock < demand else []


def _h_build(state: BoardState, seat: int, action: BuildHouse, events: list) -> None:
    _require_player(state, seat)
    _may_manage(state, seat, spend=True)
    _refuse_if(_build_problem(state, seat, action.square))
    b = board_of(state)
    kind = "hotel" if state.houses[action.square] == 4 else "house"
    others = _shortage_call(state, seat, kind)
    if others:
        stock = state.bank_hotels if kind == "hotel" else state.bank_houses
        state.shortage = Shortage(building=kind, initiator=seat, asked=others, wanters={seat: action.square})
        events.append(ShortageCalled(building=kind, initiator=seat, asked=list(others), bank=stock))
        return
    _transfer(state, seat, BANK, b.house_cost[action.square], "building", events)
    _place_building(state, seat, action.square, events)


def _round_terms(state: BoardState, seat: int, group: str) -> tuple[tuple | None, list[int], int]:
    """What ``group``'s own squares say about a round on it: a refusal, or None, the streets it
    would take (the lowest, two or more) and their level. The cash and the bank's stock
    (``_round_stock_problem``) are checked after it."""
    ruleset = state.options.ruleset
    b = _BOARDS[ruleset]
    squares = b.groups.get(group)
    if not squares or b.kind[squares[0]] != "street":
        return _no("B-11", "board.err.not_a_group", group=group), [], 0
    get = _GROUP_GET[ruleset][group]
    owners = get(state.owner)
    if owners.count(seat) != len(owners):
        return _no("B-11", "board.err.build_needs_group", square=squares[0]), [], 0
    if True in get(state.mortgaged):
        return _no("B-11", "board.err.build_mortgaged_group", square=squares[0]), [], 0
    levels = get(state.houses)
    low = min(levels)
    if low >= HOTEL:
        return _no("B-11", "board.err.has_hotel", square=squares[0]), [], low
    if levels.count(low) < 2:
        return _no("B-11", "board.err.round_of_one", square=squares[levels.index(low)]), [], low
    return None, [sq for sq, h in zip(squares, levels, strict=True) if h == low], low


def _round_stock_problem(state: BoardState, level: int, count: int) -> tuple | None:
    """B-12: a round only while the bank holds enough for it and for every wish of its kind, so
    that it could never skip a shortage call (checked last: counting the wishes reads the board)."""
    kind = "hotel" if level == 4 else "house"
    stock = state.bank_hotels if kind == "hotel" else state.bank_houses
    if stock < count or stock < sum(w[1] for w in _wishes(state, kind)):
        return _no("B-12", "board.err.round_in_shortage", count=count, bank=stock)
    return None


def _round_problem(state: BoardState, seat: int, group: str) -> tuple[tuple | None, list[int]]:
    """Why ``seat`` may not build a round on ``group`` now, and the streets the round would take."""
    problem, streets, level = _round_terms(state, seat, group)
    if problem is None:
        cost = len(streets) * board_of(state).house_cost[streets[0]]
        problem = _afford_problem(state, seat, cost) or _round_stock_problem(state, level, len(streets))
    return (problem, []) if problem else (None, streets)


def _h_build_round(state: BoardState, seat: int, action: BuildRound, events: list) -> None:
    """The bank holds enough for every wish (``_round_problem``), so no shortage call can arise
    between the placements: each is an ordinary build, paid and placed in square order."""
    _require_player(state, seat)
    _may_manage(state, seat, spend=True)
    problem, streets = _round_problem(state, seat, action.group)
    _refuse_if(problem)
    cost = board_of(state).house_cost[streets[0]]
    for sq in streets:
        _transfer(state, seat, BANK, cost, "building", events)
        _place_building(state, seat, sq, events)


def _sell_terms(state: BoardState, seat: int, sq: int) -> tuple[tuple | None, int]:
    """What the group's own squares say about selling the top building of ``sq``: a refusal, or
    None and the level it stands at (a hotel also needs ``_hotel_break_problem``)."""
    ruleset = state.options.ruleset
    if not 0 <= sq < 40 or _BOARDS[ruleset].kind[sq] != "street" or state.owner[sq] != seat:
        return _no("B-13", "board.err.not_your_property", square=sq), 0
    h = state.houses[sq]
    if h == 0:
        return _no("B-13", "board.err.no_building", square=sq), h
    if h < max(_SQUARE_GET[ruleset][sq](state.houses)) and not state.options.uneven_building:
        return _no("B-13", "board.err.sell_evenly", square=sq), h
    return None, h


def _hotel_break_problem(state: BoardState, level: int) -> tuple | None:
    """B-12: a hotel sold alone breaks into 4 houses, which the bank must hold."""
    if level == HOTEL and state.bank_houses < 4:
        return _no("B-12", "board.err.hotel_needs_houses", houses=state.bank_houses)
    return None


def _sell_problem(state: BoardState, seat: int, sq: int) -> tuple | None:
    problem, level = _sell_terms(state, seat, sq)
    return problem or _hotel_break_problem(state, level)


def _h_sell(state: BoardState, seat: int, action: SellBuilding, events: list) -> None:
    _require_player(state, seat)
    _may_manage(state, seat, spend=False)
    _refuse_if(_sell_problem(state, seat, action.square))
    b = board_of(state)
    sq = action.square
    if state.houses[sq] == HOTEL:
        state.houses[sq] = 4
        state.bank_hotels += 1
        state.bank_houses -= 4
    else:
        state.houses[sq] -= 1
        state.bank_houses += 1
    refund = b.house_cost[sq] // 2
    _transfer(state, BANK, seat, refund, "building_sale", events)
    events.append(BuildingSold(seat=seat, square=sq, houses=state.houses[sq], refund=refund))


def _sell_group_problem(state: BoardState, seat: int, group: str) -> tuple | None:
    """Why ``seat`` may not sell every building of ``group`` at once (B-12, B-13)."""
    b = board_of(state)
    squares = b.groups.get(group)
    if not squares or b.kind[squares[0]] != "street" or state.owner[squares[0]] != seat:
        return _no("B-13", "board.err.not_your_property", square=squares[0] if squares else -1)
    if not group_has_buildings(state, group):
        return _no("B-13", "board.err.no_building", square=squares[0])
    return None


def _h_sell_group(state: BoardState, seat: int, action: SellGroupBuildings, events: list) -> None:
    _require_player(state, seat)
    _may_manage(state, seat, spend=False)
    _refuse_if(_sell_group_problem(state, seat, action.group))
    _sell_all(state, seat, board_of(state).groups[action.group], events)


def _sell_all(state: BoardState, seat: int, squares: Sequence[int], events: list) -> int:
    """Every building on ``squares`` back to the bank at half cost; returns the refund."""
    b = board_of(state)
    total = 0
    for sq in squares:
        h = state.houses[sq]
        if not h:
            continue
        if h == HOTEL:
            state.bank_hotels += 1
        else:
            state.bank_houses += h
        state.houses[sq] = 0
        refund = h * b.house_cost[sq] // 2
        total += refund
        _transfer(state, BANK, seat, refund, "building_sale", events)
        events.append(BuildingSold(seat=seat, square=sq, houses=0, refund=refund))
    return total


def _mortgage_problem(state: BoardState, seat: int, sq: int) -> tuple | None:
    ruleset = state.options.ruleset
    if not 0 <= sq < 40 or _BOARDS[ruleset].kind[sq] not in PROPERTY_KINDS or state.owner[sq] != seat:
        return _no("B-14", "board.err.not_your_property", square=sq)
    if state.mortgaged[sq]:
        return _no("B-14", "board.err.already_mortgaged", square=sq)
    if any(_SQUARE_GET[ruleset][sq](state.houses)):
        return _no("B-14", "board.err.sell_buildings_first", square=sq)
    return None


def _h_mortgage(state: BoardState, seat: int, action: Mortgage, events: list) -> None:
    _require_player(state, seat)
    _may_manage(state, seat, spend=False)
    _refuse_if(_mortgage_problem(state, seat, action.square))
    amount = board_of(state).mortgage[action.square]
    state.mortgaged[action.square] = True
    _transfer(state, BANK, seat, amount, "mortgage", events)
    events.append(Mortgaged(seat=seat, square=action.square, amount=amount))


# principal plus the 10 % interest (B-14) of every square, by each board's rounding (B-18)
_LIFT_COST = {r: tuple(m + _rounded(r, m) for m in bd.mortgage) for r, bd in _BOARDS.items()}


def lift_cost(state: BoardState, sq: int) -> int:
    """Principal plus interest, or the principal alone for a received mortgage until the next roll (B-15)."""
    if sq in state.lift_discount:
        return board_of(state).mortgage[sq]
    return _LIFT_COST[state.options.ruleset][sq]


def _lift_terms(state: BoardState, seat: int, sq: int) -> tuple | None:
    """Why ``seat`` may not lift the mortgage on ``sq``, cash aside."""
    if not 0 <= sq < 40 or board_of(state).kind[sq] not in PROPERTY_KINDS or state.owner[sq] != seat:
        return _no("B-14", "board.err.not_your_property", square=sq)
    if not state.mortgaged[sq]:
        return _no("B-14", "board.err.not_mortgaged", square=sq)
    return None


def _lift_problem(state: BoardState, seat: int, sq: int) -> tuple | None:
    """Why ``seat`` may not lift the mortgage on ``sq`` now (cash included)."""
    return _lift_terms(state, seat, sq) or _afford_problem(state, seat, lift_cost(state, sq), "B-14")


def _h_lift(state: BoardState, seat: int, action: LiftMortgage, events: list) -> None:
    _require_player(state, seat)
    _may_manage(state, seat, spend=True)
    sq = action.square
    _refuse_if(_lift_problem(state, seat, sq))
    cost = lift_cost(state, sq)
    state.mortgaged[sq] = False
    if sq in state.lift_discount:
        state.lift_discount.remove(sq)
    _transfer(state, seat, BANK, cost, "lift_mortgage", events)
    events.append(MortgageLifted(seat=seat, square=sq, amount=cost))
