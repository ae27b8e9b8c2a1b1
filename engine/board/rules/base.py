"""What every rule area reads and shares: the rule set and its board, seats in turn order, rents
and values (B-06, B-08, B-17, B-18 rounding), money moving between the bank and the players
(B-16 debts open here, B-19 the bank never runs out), the end of the game, and one frozen
action value per square.

It exists so that the areas (turn, building, auctions, money, trades, the end, choices) import
these basics from one place instead of from each other.
"""

from __future__ import annotations

from engine.board.data import Board, board
from engine.board.model import (
    BANK,
    RULESET_OPTIONS,
    BoardOptions,
    BoardPlayer,
    BoardState,
    BuildHouse,
    BuildRound,
    Debt,
    DebtOpened,
    GameOver,
    LiftMortgage,
    Mortgage,
    Paid,
    SellBuilding,
    SellGroupBuildings,
)
from engine.core import rulesets
from engine.core.errors import RuleError

MIN_PLAYERS, MAX_PLAYERS = 2, 8


JAIL, GO_TO_JAIL = 10, 30


RULESETS = tuple(RULESET_OPTIONS)


def resolve_options(options: BoardOptions | str | dict | None) -> BoardOptions:
    """A rule set by name (its ``RULESET_OPTIONS``), a ``BoardOptions`` as it is, or a dict of
    overrides on a named rule set (china when it names none)."""
    return rulesets.resolve(options, RULESET_OPTIONS, "china", BoardOptions, "board")


_BOARDS = {r: board(r) for r in RULESETS}


_STREET_GETTERS = {r: tuple(g for g in bd.group_getters if g[2]) for r, bd in _BOARDS.items()}
# per rule set: a group's squares read from a per-square list in one C call (every group has two
# squares or more, so each getter returns a tuple); and per square, the getter of its own group
_GROUP_GET = {r: {g: get for g, _squares, _street, get in bd.group_getters} for r, bd in _BOARDS.items()}
_SQUARE_GET = {r: tuple(_GROUP_GET[r].get(bd.group[sq]) for sq in range(40)) for r, bd in _BOARDS.items()}


def board_of(state: BoardState) -> Board:
    return _BOARDS[state.options.ruleset]


MEMO_LIMIT = 4096  # entries a state's memo holds before it starts afresh: a bound, not a store


def memo(state: BoardState) -> dict:
    """A scratch dict on this very state object, for results keyed by everything they read (so
    a memo can never be stale, however the state was changed: by ``apply``, a test or a replay).
    It lives outside the serialised fields (``BoardState`` has ``dict=True``): never encoded,
    gone with the state, shared with the copies a search plays on (``GameRules.clone``), for which
    its entries hold as well; bounded by ``MEMO_LIMIT``."""
    d = state.__dict__
    m = d.get("memo")
    if m is None or len(m) > MEMO_LIMIT:
        m = d["memo"] = {}
    return m


def _no(rule: str, key: str, **params) -> tuple:
    """A refusal described but not yet raised: enumerating choices asks "why not?" very often."""
    return (rule, key, params)


def _refuse_if(problem: tuple | None) -> None:
    if problem is not None:
        raise RuleError(problem[0], problem[1], **problem[2])


def start_cash(options: BoardOptions) -> int:
    return options.start_cash or _START[options.ruleset]


def salary(options: BoardOptions) -> int:
    return options.salary or _SALARY[options.ruleset]


# per rule set, its board's printed start cash and salary (options may override both)
_START = {r: bd.money["start"] for r, bd in _BOARDS.items()}
_SALARY = {r: bd.money["salary"] for r, bd in _BOARDS.items()}


def current_seat(state: BoardState) -> int:
    return state.order[state.turn_index]


def active_seats(state: BoardState) -> list[int]:
    """Players still in the game, in turn order from the current player."""
    n = len(state.order)
    seats = [state.order[(state.turn_index + k) % n] for k in range(n)]
    return [s for s in seats if not state.players[s].bankrupt]


def round_amount(state: BoardState, tenths: int) -> int:
    """B-18: an amount given in tenths of a unit; china rounds to the nearest 10 (halves up),
    classic rounds up to the whole unit."""
    return _rounded(state.options.ruleset, tenths)


def _rounded(ruleset: str, tenths: int) -> int:
    if ruleset == "classic":
        return -(-tenths // 10)
    return (tenths + 50) // 100 * 10


def interest(state: BoardState, square: int) -> int:
    """B-14/B-15: 10 % of the mortgage value, rounded by B-18."""
    return round_amount(state, board_of(state).mortgage[square])


def owns_group(state: BoardState, seat: int, group: str) -> bool:
    owners = _GROUP_GET[state.options.ruleset][group](state.owner)
    return owners.count(seat) == len(owners)


def group_has_buildings(state: BoardState, group: str) -> bool:
    return any(_GROUP_GET[state.options.ruleset][group](state.houses))


WHOLE_GROUP_RENT = 2  # B-06: an unbuilt street of a group owned whole charges its base rent this many times


def rent_for(state: BoardState, square: int, dice_total: int, utility_multiplier: int | None = None) -> int:
    """B-06: rent of an owned, unmortgaged property for a player landing there."""
    ruleset = state.options.ruleset
    b = _BOARDS[ruleset]
    owner = state.owner[square]
    rent = b.rent[square]
    kind = b.kind[square]
    if kind == "street":
        h = state.houses[square]
        if h:
            return rent[h]
        owners = _SQUARE_GET[ruleset][square](state.owner)
        return rent[0] * WHOLE_GROUP_RENT if owners.count(owner) == len(owners) else rent[0]
    owned = _SQUARE_GET[ruleset][square](state.owner).count(owner)  # stations or utilities held
    if kind == "station":
        return rent[owned - 1]
    multiplier = utility_multiplier if utility_multiplier is not None else rent[owned - 1]
    return multiplier * dice_total


def total_assets(state: BoardState, seat: int) -> int:
    """B-08 (10 % option): cash + printed price of all property, mortgaged or not, + buildings at cost."""
    b = board_of(state)
    total = state.players[seat].cash
    for sq in b.properties:
        if state.owner[sq] == seat:
            total += b.price[sq] + _buildings_cost(b, state.houses[sq], sq)
    return total


def _buildings_cost(b: Board, h: int, sq: int) -> int:
    return h * b.house_cost[sq]  # a hotel (5) is valued with the 4 houses it replaced


def valuation(state: BoardState) -> dict[int, int]:
    """B-17: cash + printed price of unmortgaged property + half of mortgaged + buildings at cost."""
    b = board_of(state)
    out = {}
    for p in state.players:
        if p.bankrupt:
            continue
        total = p.cash
        for sq in b.properties:
            if state.owner[sq] == p.seat:
                total += b.price[sq] // 2 if state.mortgaged[sq] else b.price[sq]
                total += _buildings_cost(b, state.houses[sq], sq)
        out[p.seat] = total
    return out


def max_raisable(state: BoardState, seat: int) -> int:
    """Cash plus everything the bank would pay: buildings at half cost and every mortgage."""
    b = board_of(state)
    total = state.players[seat].cash
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    house_cost, mortgage = b.house_cost, b.mortgage
    sq = -1
    for _ in range(owner.count(seat)):  # the seat's squares only (the bank's and others' skipped in C)
        sq = owner.index(seat, sq + 1)
        total += houses[sq] * house_cost[sq] // 2
        if not mortgaged[sq]:
            total += mortgage[sq]
    return total


# B-10 with free_parking_pot: what a player pays the bank that goes into the pot (not purchases,
# buildings, auctions, interest or a bankrupt's cash: those are the bank's trade, not penalties)
POT_REASONS = frozenset({"income_tax", "luxury_tax", "card", "repairs", "jail_fine"})


def _transfer(state: BoardState, payer: int, payee: int, amount: int, reason: str, events: list) -> None:
    if amount <= 0:
        return
    if payer == BANK:
        state.bank_net += amount
    else:
        state.players[payer].cash -= amount
    if payee == BANK:
        state.bank_net -= amount
        if reason in POT_REASONS and state.options.free_parking_pot:
            state.parking_pot += amount
    else:
        state.players[payee].cash += amount
    events.append(Paid(payer=payer, payee=payee, amount=amount, reason=reason))


def _charge(state: BoardState, debtor: int, creditor: int, amount: int, reason: str, events: list) -> None:
    """Pay at once when the cash is there, otherwise open a debt the debtor must settle (B-16)."""
    if amount <= 0:
        return
    if state.players[debtor].cash >= amount and not any(d.debtor == debtor for d in state.debts):
        _transfer(state, debtor, creditor, amount, reason, events)
        return
    state.debts.append(Debt(debtor=debtor, creditor=creditor, amount=amount, reason=reason))
    events.append(DebtOpened(debtor=debtor, creditor=creditor, amount=amount, reason=reason))


def _require_player(state: BoardState, seat: int) -> BoardPlayer:
    if not 0 <= seat < len(state.players) or state.players[seat].bankrupt:
        raise RuleError("B-16", "board.err.not_playing")
    return state.players[seat]


def _finish(state: BoardState, events: list, winners: list[int], reason: str, scores: dict | None = None) -> None:
    state.stage = "over"
    state.winners = sorted(winners)
    state.end_reason = reason
    state.auction = None
    state.auction_queue = []
    state.debts = []
    state.trades = []
    state.shortage = None
    events.append(GameOver(winners=state.winners, reason=reason, scores=scores or {}))


# Actions are frozen values: one of each per square (and per group of every board) is enough, and
# saves building them per call. Fixed tables of the board data, not caches of any state.
_MORTGAGE = tuple(Mortgage(square=sq) for sq in range(40))
_SELL = tuple(SellBuilding(square=sq) for sq in range(40))
_BUILD = tuple(BuildHouse(square=sq) for sq in range(40))
_LIFT = tuple(LiftMortgage(square=sq) for sq in range(40))
_SELL_GROUP = {g: SellGroupBuildings(group=g) for bd in _BOARDS.values() for g in bd.groups}
_ROUND = {g: BuildRound(group=g) for bd in _BOARDS.values() for g in bd.groups}
