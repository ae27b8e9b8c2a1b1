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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from engine.board.data import PROPERTY_KINDS, Board, board
from engine.board.model import (
    BANK,
    HOTEL,
    RULESET_OPTIONS,
    SCHEMA_VERSION,
    SYSTEM,
    AcceptTrade,
    Auction,
    AuctionOpened,
    AuctionPassed,
    AuctionUnsold,
    AuctionVoided,
    AuctionWon,
    Bid,
    BidMade,
    BoardOptions,
    BoardPlayer,
    BoardState,
    Bought,
    BuildHouse,
    BuildingSold,
    BuildRound,
    Built,
    Buy,
    CancelTrade,
    CardDrawn,
    CollectRent,
    Debt,
    DebtOpened,
    DeclareBankruptcy,
    DeclineShortage,
    DeclineToBuy,
    DiceRolled,
    EndMatch,
    ForgoRent,
    GameOver,
    GameStarted,
    JoinShortage,
    LeftJail,
    LiftMortgage,
    Mortgage,
    Mortgaged,
    MortgageLifted,
    Moved,
    Paid,
    PassAuction,
    PayDebt,
    PayJailFine,
    PayTax,
    PropertyTransferred,
    ProposeTrade,
    RaiseMoney,
    RejectTrade,
    RentClaim,
    RentDue,
    RentLapsed,
    Roll,
    SalaryPaid,
    SellBuilding,
    SellGroupBuildings,
    Shortage,
    ShortageCalled,
    StayedInJail,
    Trade,
    TradeClosed,
    TradeProposed,
    TurnEnded,
    TurnStarted,
    UseJailCard,
    WentBankrupt,
    WentToJail,
)
from engine.board.trades import offer_problem, order_problem, proposal_problem, record_refusal
from engine.board.trades import trade_template as trade_template  # re-exported: the offer template
from engine.core.contract import Decision, Result, first_timeout
from engine.core.errors import RuleError
from engine.core.rng import Rng

MIN_PLAYERS, MAX_PLAYERS = 2, 8
JAIL, GO_TO_JAIL = 10, 30
RULESETS = tuple(RULESET_OPTIONS)


# ---------------------------------------------------------------------------------------------
# Setting up


def resolve_options(options: BoardOptions | str | dict | None) -> BoardOptions:
    """A rule set by name (its ``RULESET_OPTIONS``), a ``BoardOptions`` as it is, or a dict of
    overrides on a named rule set (china when it names none)."""
    if options is None:
        return RULESET_OPTIONS["china"]
    if isinstance(options, BoardOptions):
        return options
    if isinstance(options, str):
        if options not in RULESETS:
            raise ValueError(f"unknown board rule set {options!r}; choose one of {', '.join(RULESETS)}")
        return RULESET_OPTIONS[options]
    overrides = dict(options)
    unknown = set(overrides) - set(BoardOptions.__struct_fields__)
    if unknown:
        raise ValueError(f"unknown board options: {', '.join(sorted(unknown))}")
    if overrides.get("ruleset", "china") not in RULESETS:
        raise ValueError(f"unknown board rule set {overrides['ruleset']!r}")
    return msgspec.structs.replace(RULESET_OPTIONS[overrides.pop("ruleset", "china")], **overrides)


_BOARDS = {r: board(r) for r in RULESETS}
_STREET_GETTERS = {r: tuple(g for g in bd.group_getters if g[2]) for r, bd in _BOARDS.items()}


def board_of(state: BoardState) -> Board:
    return _BOARDS[state.options.ruleset]


def _no(rule: str, key: str, **params) -> tuple:
    """A refusal described but not yet raised: enumerating choices asks "why not?" very often."""
    return (rule, key, params)


def _refuse_if(problem: tuple | None) -> None:
    if problem is not None:
        raise RuleError(problem[0], problem[1], **problem[2])


def start_cash(options: BoardOptions) -> int:
    return options.start_cash or board(options.ruleset).money["start"]


def salary(options: BoardOptions) -> int:
    return options.salary or board(options.ruleset).money["salary"]


def new_game(seats: int | Sequence, options: BoardOptions | str | dict | None = None, seed: int = 0) -> BoardState:
    return new_game_with_events(seats, options, seed)[0]


def new_game_with_events(seats: int | Sequence, options: BoardOptions | str | dict | None = None,
                         seed: int = 0) -> tuple[BoardState, list]:
    """B-01: everyone rolls 2d6, the highest starts (ties re-roll), then play passes to the left."""
    n = seats if isinstance(seats, int) else len(seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RuleError("B-01", "board.err.player_count", count=n, min=MIN_PLAYERS, max=MAX_PLAYERS)
    opts = resolve_options(options)
    b = board(opts.ruleset)
    rng = Rng.from_seed(seed)
    rolls: list[list[int]] = []
    first = _highest_roller(rng, list(range(n)), rolls)
    order = [(first + i) % n for i in range(n)]
    chance, chest = list(range(len(b.chance))), list(range(len(b.chest)))
    rng.shuffle(chance)  # B-07: each deck is shuffled once, at the start
    rng.shuffle(chest)
    cash = start_cash(opts)
    state = BoardState(
        schema=SCHEMA_VERSION, options=opts, rng=rng,
        players=[BoardPlayer(seat=i, cash=cash) for i in range(n)], order=order,
        owner=[BANK] * 40, houses=[0] * 40, mortgaged=[False] * 40,
        bank_houses=b.money["houses"], bank_hotels=b.money["hotels"], chance=chance, chest=chest,
        opening_rolls=rolls,
    )
    events: list = [GameStarted(order=list(order), rolls=[list(r) for r in rolls])]
    _start_turn(state, events)
    return state, events


def _highest_roller(rng: Rng, seats: list[int], record: list[list[int]]) -> int:
    totals = {}
    for s in seats:
        d1, d2 = rng.die(), rng.die()
        record.append([s, d1, d2])
        totals[s] = d1 + d2
    best = max(totals.values())
    tied = [s for s in seats if totals[s] == best]
    return tied[0] if len(tied) == 1 else _highest_roller(rng, tied, record)


# ---------------------------------------------------------------------------------------------
# Helpers


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
    return all(state.owner[sq] == seat for sq in board_of(state).groups[group])


def group_has_buildings(state: BoardState, group: str) -> bool:
    return any(state.houses[sq] for sq in board_of(state).groups[group])


def _roll_dice(state: BoardState) -> tuple[int, int]:
    """The one place dice come from (tests replace it to force a roll)."""
    return state.rng.die(), state.rng.die()


def rent_for(state: BoardState, square: int, dice_total: int, utility_multiplier: int | None = None) -> int:
    """B-06: rent of an owned, unmortgaged property for a player landing there."""
    b = board_of(state)
    owner = state.owner[square]
    kind = b.kind[square]
    if kind == "street":
        h = state.houses[square]
        if h:
            return b.rent[square][h]
        base = b.rent[square][0]
        return base * 2 if owns_group(state, owner, b.group[square]) else base
    if kind == "station":
        owned = sum(1 for sq in b.stations if state.owner[sq] == owner)
        return b.rent[square][owned - 1]
    owned = sum(1 for sq in b.utilities if state.owner[sq] == owner)
    multiplier = utility_multiplier if utility_multiplier is not None else b.rent[square][owned - 1]
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
    for sq in b.properties:
        if state.owner[sq] == seat:
            total += state.houses[sq] * b.house_cost[sq] // 2
            if not state.mortgaged[sq]:
                total += b.mortgage[sq]
    return total


# ---------------------------------------------------------------------------------------------
# Money


def _transfer(state: BoardState, payer: int, payee: int, amount: int, reason: str, events: list) -> None:
    if amount <= 0:
        return
    if payer == BANK:
        state.bank_net += amount
    else:
        state.players[payer].cash -= amount
    if payee == BANK:
        state.bank_net -= amount
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


# ---------------------------------------------------------------------------------------------
# Turns and movement


def _start_turn(state: BoardState, events: list) -> None:
    state.turn_number += 1
    state.stage = "roll"
    state.rolled = False
    state.extra_roll = False
    state.doubles = 0
    events.append(TurnStarted(seat=current_seat(state), turn=state.turn_number))


def _next_turn(state: BoardState, events: list) -> None:
    events.append(TurnEnded(seat=current_seat(state)))
    n = len(state.order)
    for k in range(1, n + 1):
        i = (state.turn_index + k) % n
        if not state.players[state.order[i]].bankrupt:
            state.turn_index = i
            break
    _start_turn(state, events)


def _close_window(state: BoardState, events: list) -> None:
    """A roll ends the between-rolls window: offers lapse, the lift-at-principal chance passes."""
    for t in state.trades:
        events.append(TradeClosed(trade=t.id, outcome="expired"))
    state.trades = []
    state.proposed = []
    state.lift_discount = []
    state.declined_shortage = []


def _send_to_jail(state: BoardState, p: BoardPlayer, reason: str, events: list) -> None:
    """B-09: straight to jail, no salary, the turn ends (no extra roll)."""
    p.position = JAIL
    p.in_jail = True
    p.jail_turns = 0
    state.extra_roll = False
    events.append(WentToJail(seat=p.seat, reason=reason))


def _move_to(state: BoardState, p: BoardPlayer, target: int, events: list, forward: bool = True) -> None:
    """Move along the board; B-03: passing or landing on GO pays the salary (never backwards)."""
    start = p.position
    passed = forward and (target <= start)
    p.position = target
    events.append(Moved(seat=p.seat, start=start, to=target, passed_go=passed))
    if passed:
        pay = salary(state.options)
        _transfer(state, BANK, p.seat, pay, "salary", events)
        events.append(SalaryPaid(seat=p.seat, amount=pay))


def _land(state: BoardState, p: BoardPlayer, dice_total: int, events: list, rent_multiplier: int = 1,
          utility_multiplier: int | None = None) -> None:
    """Resolve the square ``p`` stands on (B-04, B-06, B-07, B-08, B-09, B-10)."""
    b = board_of(state)
    sq = p.position
    kind = b.kind[sq]
    if kind in PROPERTY_KINDS:
        owner = state.owner[sq]
        if owner == BANK:
            state.buy_square = sq
        elif owner != p.seat and not state.mortgaged[sq]:
            if kind == "utility" and utility_multiplier is not None:
                d1, d2 = _roll_dice(state)  # B-07: the card's fresh roll
                events.append(DiceRolled(seat=p.seat, dice=[d1, d2]))
                dice_total = d1 + d2
            rent = rent_for(state, sq, dice_total, utility_multiplier) * rent_multiplier
            if state.options.rent_claim:  # B-06 (seed 000): the owner must claim it
                state.rent_claims.append(RentClaim(owner=owner, payer=p.seat, square=sq, amount=rent))
                events.append(RentDue(owner=owner, payer=p.seat, square=sq, amount=rent))
            else:
                _charge(state, p.seat, owner, rent, "rent", events)
    elif kind == "tax":
        tax = b.squares[sq]["tax"]
        if tax == "income" and state.options.income_tax_choice:
            state.tax_due = True
        else:
            amount = b.money["income_tax"] if tax == "income" else b.money["luxury_tax"]
            _charge(state, p.seat, BANK, amount, f"{tax}_tax", events)
    elif kind in ("chance", "chest"):
        _draw_card(state, p, kind, dice_total, events)
    elif kind == "go_to_jail":
        _send_to_jail(state, p, "square", events)


def _draw_card(state: BoardState, p: BoardPlayer, deck: str, dice_total: int, events: list) -> None:
    """B-07: take the top card, do what it says, put it at the bottom (a jail card is kept)."""
    b = board_of(state)
    pile = state.chance if deck == "chance" else state.chest
    index = pile.pop(0)
    card = b.deck(deck)[index]
    events.append(CardDrawn(seat=p.seat, deck=deck, card=index))
    if card.effect == "jail_free":
        p.jail_cards.append(deck)
        return
    pile.append(index)
    e, params = card.effect, card.params
    if e == "advance":
        _move_to(state, p, params["to"], events)
        _land(state, p, dice_total, events)
    elif e == "advance_nearest":
        targets = b.stations if params["kind"] == "station" else b.utilities
        target = next((sq for sq in targets if sq > p.position), targets[0])
        _move_to(state, p, target, events)
        if params["kind"] == "station":
            _land(state, p, dice_total, events, rent_multiplier=params.get("rent_multiplier", 2))
        else:
            _land(state, p, dice_total, events, utility_multiplier=params["dice_multiplier"])
    elif e == "back":
        _move_to(state, p, (p.position - params["steps"]) % 40, events, forward=False)
        _land(state, p, dice_total, events)
    elif e == "go_to_jail":
        _send_to_jail(state, p, "card", events)
    elif e == "money":
        if params["amount"] >= 0:
            _transfer(state, BANK, p.seat, params["amount"], "card", events)
        else:
            _charge(state, p.seat, BANK, -params["amount"], "card", events)
    elif e == "repairs":
        houses = sum(h for sq, h in enumerate(state.houses) if state.owner[sq] == p.seat and h < HOTEL)
        hotels = sum(1 for sq, h in enumerate(state.houses) if state.owner[sq] == p.seat and h == HOTEL)
        _charge(state, p.seat, BANK, houses * params["house"] + hotels * params["hotel"], "repairs", events)
    elif e == "pay_each":
        for other in active_seats(state):
            if other != p.seat:
                _charge(state, p.seat, other, params["amount"], "card", events)
    elif e == "collect_each":
        for other in active_seats(state):
            if other != p.seat:
                _charge(state, other, p.seat, params["amount"], "card", events)


def _settle(state: BoardState, events: list) -> None:
    """Move the table on to whatever it waits for next, or to the next roll or turn."""
    while state.stage != "over":
        if state.debts:
            state.stage = "debt"
            return
        if state.auction is not None:
            if state.auction.settling:  # its debt is gone without being paid: void (B-05)
                _void_auction(state, events)
                continue
            state.stage = "auction"
            return
        if state.auction_queue:
            _open_auction(state, state.auction_queue.pop(0), events)
            continue
        if state.shortage is not None:
            state.stage = "shortage"
            return
        if state.buy_square >= 0:
            state.stage = "buy"
            return
        if state.tax_due:
            state.stage = "tax"
            return
        state.stage = "roll"
        if not state.rolled:
            return
        p = state.players[current_seat(state)]
        if state.extra_roll and not p.bankrupt and not p.in_jail:
            state.rolled = False  # B-02: doubles roll again
            state.extra_roll = False
            return
        _next_turn(state, events)
        return


# ---------------------------------------------------------------------------------------------
# Auctions (B-04, B-05, B-12)


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


# ---------------------------------------------------------------------------------------------
# Building (B-11 … B-13)


def _build_problem(state: BoardState, seat: int, sq: int) -> tuple | None:
    """Why ``seat`` may not put the next building on ``sq`` (bank stock and cash included)."""
    b = board_of(state)
    if not 0 <= sq < 40 or b.kind[sq] != "street":
        return _no("B-11", "board.err.not_a_street", square=sq)
    if state.owner[sq] != seat:
        return _no("B-11", "board.err.not_your_property", square=sq)
    group = b.groups[b.group[sq]]
    if not owns_group(state, seat, b.group[sq]):
        return _no("B-11", "board.err.build_needs_group", square=sq)
    if any(state.mortgaged[g] for g in group):
        return _no("B-11", "board.err.build_mortgaged_group", square=sq)
    h = state.houses[sq]
    if h >= HOTEL:
        return _no("B-11", "board.err.has_hotel", square=sq)
    if h > min(state.houses[g] for g in group):
        return _no("B-11", "board.err.build_evenly", square=sq)
    if h == 4:
        if state.bank_hotels < 1:
            return _no("B-12", "board.err.no_hotels_left")
    elif state.bank_houses < 1:
        return _no("B-12", "board.err.no_houses_left")
    if state.players[seat].cash < b.house_cost[sq]:
        return _no("B-11", "board.err.cannot_afford", amount=b.house_cost[sq])
    return None


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


def _may_manage(state: BoardState, seat: int, spend: bool) -> None:
    """B-11: who may build, sell and mortgage now. Spending (building, lifting a mortgage) only
    between rolls, and not inside the doubles window (B-02, ``doubles_window``); raising money
    also for one's own purchase decision or debt."""
    if state.stage == "roll":
        if spend and doubles_window(state):
            raise RuleError("B-02", "board.err.doubles_lock")
        return
    if not spend and state.stage == "buy" and seat == current_seat(state):
        return
    if not spend and state.stage == "debt" and state.debts[0].debtor == seat:
        return
    raise RuleError("B-11", "board.err.not_between_rolls")


def _require_player(state: BoardState, seat: int) -> BoardPlayer:
    if not 0 <= seat < len(state.players) or state.players[seat].bankrupt:
        raise RuleError("B-16", "board.err.not_playing")
    return state.players[seat]


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


def _round_problem(state: BoardState, seat: int, group: str) -> tuple[tuple | None, list[int]]:
    """Why ``seat`` may not build a round on ``group`` now, and the streets the round would take."""
    b = board_of(state)
    squares = b.groups.get(group)
    if not squares or b.kind[squares[0]] != "street":
        return _no("B-11", "board.err.not_a_group", group=group), []
    if not owns_group(state, seat, group):
        return _no("B-11", "board.err.build_needs_group", square=squares[0]), []
    if any(state.mortgaged[sq] for sq in squares):
        return _no("B-11", "board.err.build_mortgaged_group", square=squares[0]), []
    low = min(state.houses[sq] for sq in squares)
    if low >= HOTEL:
        return _no("B-11", "board.err.has_hotel", square=squares[0]), []
    streets = [sq for sq in squares if state.houses[sq] == low]
    if len(streets) < 2:
        return _no("B-11", "board.err.round_of_one", square=streets[0]), []
    kind = "hotel" if low == 4 else "house"
    stock = state.bank_hotels if kind == "hotel" else state.bank_houses
    if stock < len(streets) or stock < sum(w[1] for w in _wishes(state, kind)):
        return _no("B-12", "board.err.round_in_shortage", count=len(streets), bank=stock), []
    cost = len(streets) * b.house_cost[squares[0]]
    if state.players[seat].cash < cost:
        return _no("B-11", "board.err.cannot_afford", amount=cost), []
    return None, streets


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


def _sell_problem(state: BoardState, seat: int, sq: int) -> tuple | None:
    b = board_of(state)
    if not 0 <= sq < 40 or b.kind[sq] != "street" or state.owner[sq] != seat:
        return _no("B-13", "board.err.not_your_property", square=sq)
    h = state.houses[sq]
    if h == 0:
        return _no("B-13", "board.err.no_building", square=sq)
    if h < max(state.houses[g] for g in b.groups[b.group[sq]]):
        return _no("B-13", "board.err.sell_evenly", square=sq)
    if h == HOTEL and state.bank_houses < 4:
        return _no("B-12", "board.err.hotel_needs_houses", houses=state.bank_houses)
    return None


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


def _h_sell_group(state: BoardState, seat: int, action: SellGroupBuildings, events: list) -> None:
    _require_player(state, seat)
    _may_manage(state, seat, spend=False)
    b = board_of(state)
    squares = b.groups.get(action.group)
    if not squares or b.kind[squares[0]] != "street" or state.owner[squares[0]] != seat:
        raise RuleError("B-13", "board.err.not_your_property", square=squares[0] if squares else -1)
    if not group_has_buildings(state, action.group):
        raise RuleError("B-13", "board.err.no_building", square=squares[0])
    _sell_all(state, seat, squares, events)


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
    b = board_of(state)
    if not 0 <= sq < 40 or b.kind[sq] not in PROPERTY_KINDS or state.owner[sq] != seat:
        return _no("B-14", "board.err.not_your_property", square=sq)
    if state.mortgaged[sq]:
        return _no("B-14", "board.err.already_mortgaged", square=sq)
    if group_has_buildings(state, b.group[sq]):
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


def _h_lift(state: BoardState, seat: int, action: LiftMortgage, events: list) -> None:
    p = _require_player(state, seat)
    _may_manage(state, seat, spend=True)
    sq = action.square
    b = board_of(state)
    if not 0 <= sq < 40 or b.kind[sq] not in PROPERTY_KINDS or state.owner[sq] != seat:
        raise RuleError("B-14", "board.err.not_your_property", square=sq)
    if not state.mortgaged[sq]:
        raise RuleError("B-14", "board.err.not_mortgaged", square=sq)
    cost = lift_cost(state, sq)
    if p.cash < cost:
        raise RuleError("B-14", "board.err.cannot_afford", amount=cost)
    state.mortgaged[sq] = False
    if sq in state.lift_discount:
        state.lift_discount.remove(sq)
    _transfer(state, seat, BANK, cost, "lift_mortgage", events)
    events.append(MortgageLifted(seat=seat, square=sq, amount=cost))


# ---------------------------------------------------------------------------------------------
# The turn's own decisions


def _require_current(state: BoardState, seat: int, stage: str) -> BoardPlayer:
    if seat != current_seat(state):
        raise RuleError("B-02", "board.err.not_your_turn", current=current_seat(state))
    if state.stage != stage:
        raise RuleError("B-02", f"board.err.stage_{state.stage}")
    return state.players[seat]


def _h_roll(state: BoardState, seat: int, action: Roll, events: list) -> None:
    p = _require_current(state, seat, "roll")
    if state.rolled:
        raise RuleError("B-02", "board.err.already_rolled")
    _close_window(state, events)
    for c in [c for c in state.rent_claims if c.payer != seat]:  # B-06: the next player rolls
        _lapse(state, c, events)
    state.rolled = True
    d1, d2 = _roll_dice(state)
    state.last_dice = [d1, d2]
    events.append(DiceRolled(seat=seat, dice=[d1, d2]))
    total = d1 + d2
    if p.in_jail:  # B-09
        if d1 == d2:
            p.in_jail, p.jail_turns = False, 0
            events.append(LeftJail(seat=seat, how="doubles"))
            state.extra_roll = False  # out on doubles: no extra roll
            _move_to(state, p, (p.position + total) % 40, events)
            _land(state, p, total, events)
            return
        p.jail_turns += 1
        if p.jail_turns < 3:
            events.append(StayedInJail(seat=seat, tries=p.jail_turns))
            return
        p.in_jail, p.jail_turns = False, 0
        events.append(LeftJail(seat=seat, how="third_try"))
        _charge(state, seat, BANK, board_of(state).money["jail_fine"], "jail_fine", events)
        _move_to(state, p, (p.position + total) % 40, events)
        _land(state, p, total, events)
        return
    if d1 == d2:
        state.doubles += 1
        if state.doubles == 3:  # B-02: third doubles in a row, straight to jail
            _send_to_jail(state, p, "doubles", events)
            return
        state.extra_roll = True
    _move_to(state, p, (p.position + total) % 40, events)
    _land(state, p, total, events)


def _h_pay_fine(state: BoardState, seat: int, action: PayJailFine, events: list) -> None:
    p = _require_current(state, seat, "roll")
    if not p.in_jail or state.rolled:
        raise RuleError("B-09", "board.err.not_in_jail")
    fine = board_of(state).money["jail_fine"]
    if p.cash < fine:
        raise RuleError("B-09", "board.err.cannot_afford", amount=fine)
    _transfer(state, seat, BANK, fine, "jail_fine", events)
    p.in_jail, p.jail_turns = False, 0
    events.append(LeftJail(seat=seat, how="fine"))


def _h_jail_card(state: BoardState, seat: int, action: UseJailCard, events: list) -> None:
    p = _require_current(state, seat, "roll")
    if not p.in_jail or state.rolled:
        raise RuleError("B-09", "board.err.not_in_jail")
    if not p.jail_cards:
        raise RuleError("B-09", "board.err.no_jail_card")
    deck = p.jail_cards.pop(0)
    b = board_of(state)
    index = next(i for i, c in enumerate(b.deck(deck)) if c.effect == "jail_free" and i not in
                 (state.chance if deck == "chance" else state.chest))
    (state.chance if deck == "chance" else state.chest).append(index)  # B-07: back to the bottom
    p.in_jail, p.jail_turns = False, 0
    events.append(LeftJail(seat=seat, how="card"))


def _h_buy(state: BoardState, seat: int, action: Buy, events: list) -> None:
    p = _require_current(state, seat, "buy")
    sq = state.buy_square
    price = board_of(state).price[sq]
    if p.cash < price:
        raise RuleError("B-04", "board.err.cannot_afford_buy", amount=price, square=sq)
    _transfer(state, seat, BANK, price, "purchase", events)
    state.owner[sq] = seat
    state.buy_square = -1
    events.append(Bought(seat=seat, square=sq, price=price))


def _h_decline(state: BoardState, seat: int, action: DeclineToBuy, events: list) -> None:
    _require_current(state, seat, "buy")
    sq = state.buy_square
    state.buy_square = -1
    _open_auction(state, sq, events)


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


def _h_pay_tax(state: BoardState, seat: int, action: PayTax, events: list) -> None:
    _require_current(state, seat, "tax")
    if action.choice not in ("flat", "percent"):
        raise RuleError("B-08", "board.err.tax_choice")
    b = board_of(state)
    if action.choice == "flat":
        amount = b.money["income_tax"]
    else:  # counted only after the choice is made (B-08)
        amount = round_amount(state, total_assets(state, seat) * b.money["income_tax_percent"] // 10)
    state.tax_due = False
    _charge(state, seat, BANK, amount, "income_tax", events)


# ---------------------------------------------------------------------------------------------
# Rent by claim (B-06 with ``rent_claim``, seed 000)
#
# "当参加者停在其它玩家拥有的财产上时，拥有者可以依据地契卡片之记载向你收取租金 … 如果拥有者在第二位参赛者
# 掷骰子前未收取租金，则不可再提出此要求": the owner may collect, and loses the claim once the next
# player rolls. The amount is fixed when the token lands. The claim is open to its owner at any
# stage (in jail too, B-09) until a player other than the payer rolls (the payer's own extra roll
# after doubles does not end it); the owner may also let it go, which is what the owner's clock
# does (a decision of policy ``response``). A claim made while the payer cannot pay opens a debt
# as usual (B-16). Claims lapse when their owner or payer goes bankrupt and when the match ends.


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


# ---------------------------------------------------------------------------------------------
# Debts and bankruptcy (B-16)


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
    return _SELL[top] if _sell_problem(state, seat, top) is None else _sell_group_action(group)


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
            _HANDLERS[type(step)](state, seat, step, events)
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
        events.append(TradeClosed(trade=t.id, outcome="cancelled"))
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


# ---------------------------------------------------------------------------------------------
# Trades (B-15)


# the one validator of any offer lives in engine/board/trades.py (its docstring: the contract)
_trade_problem = offer_problem


def _h_propose(state: BoardState, seat: int, action: ProposeTrade, events: list) -> None:
    _require_player(state, seat)
    _refuse_if(proposal_problem(state, seat, action))
    if action.counter:  # the answered offer closes; the counter-offer takes its place at the end
        answered = _find_trade(state, action.counter)
        state.trades.remove(answered)
        record_refusal(state, answered)
        events.append(TradeClosed(trade=answered.id, outcome="countered"))
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


def _h_accept_trade(state: BoardState, seat: int, action: AcceptTrade, events: list) -> None:
    t = _find_trade(state, action.trade)
    if seat != t.target:
        raise RuleError("B-15", "board.err.not_your_trade", trade=t.id)
    if state.stage not in ("roll", "debt"):
        raise RuleError("B-15", "board.err.not_between_rolls")
    _refuse_if(order_problem(state, t))
    _refuse_if(_trade_problem(state, t.proposer, t, t.target))
    state.trades.remove(t)
    events.append(TradeClosed(trade=t.id, outcome="accepted"))
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
    events.append(TradeClosed(trade=t.id, outcome="rejected"))


def _h_cancel_trade(state: BoardState, seat: int, action: CancelTrade, events: list) -> None:
    t = _find_trade(state, action.trade)
    if seat != t.proposer:
        raise RuleError("B-15", "board.err.not_your_trade", trade=t.id)
    state.trades.remove(t)
    events.append(TradeClosed(trade=t.id, outcome="cancelled"))


# ---------------------------------------------------------------------------------------------
# Building shortage (B-12)


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


# ---------------------------------------------------------------------------------------------
# The end


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


# ---------------------------------------------------------------------------------------------
# apply, legal_actions, waiting_for


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
        if t.target == seat and order_problem(state, t) is None \
                and _trade_problem(state, t.proposer, t, t.target) is None:
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
        sk = _skeleton(state, seat)
        spend = not doubles_window(state)  # B-02: no building or lifting before the extra roll
        out += _manage_options(state, seat, build=spend, lift=spend, sk=sk)
        out += trade_options(state, seat, sk)
    elif stage == "buy" and seat == cur:
        if state.players[seat].cash >= board_of(state).price[state.buy_square]:
            out.append(Buy())
        out.append(DeclineToBuy())
        out += _manage_options(state, seat, build=False, lift=False)
    elif stage == "tax" and seat == cur:
        out += [PayTax(choice="flat"), PayTax(choice="percent")]
    elif stage == "auction":
        a = state.auction
        if a is not None and seat in a.bidders and seat != a.high_bidder:
            reach = bid_reach(state, seat)
            out += [Bid(amount=x, beyond_reach=x > reach) for x in bid_steps(state, seat)]
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
        sk = _skeleton(state, seat)
        out += _manage_options(state, seat, build=False, lift=False, sk=sk)
        out += trade_options(state, seat, sk)
    return out


def bid_steps(state: BoardState, seat: int) -> list[int]:
    """A few bids to offer as buttons: the minimum and some larger steps within what the bidder
    could pay (``bid_reach``: cash, plus sales and mortgages for a property, B-05); only the
    minimum may lie beyond it, and ``legal_actions`` marks it so (``Bid.beyond_reach``)."""
    step = board_of(state).money["min_bid_step"]
    low = min_bid(state)
    cash = bid_reach(state, seat)
    out = [low]
    for k in (5, 10, 50, 100):
        x = low + k * step
        if x <= cash and x not in out:
            out.append(x)
    return out


class _Skeleton(NamedTuple):
    """A seat's management and trade choices before cash is taken into account."""

    builds: list[tuple[int, int]]  # (street, cost)
    sells: list
    mortgages: list
    mortgaged: list[int]
    buys: list[tuple[int, int, int]]  # (holder, street, price): buying it completes my group
    sales: list[tuple[int, int, int]]  # (buyer, street, price): selling it completes theirs
    swaps: list[tuple[int, int, int]]  # (partner, my street, their street): completes both groups
    rounds: list[tuple[str, int, str]]  # (group, cost, building): a round of two or more, stock allowing


# Actions are frozen values: one of each per square is enough, and saves building them per call.
_MORTGAGE = tuple(Mortgage(square=sq) for sq in range(40))
_SELL = tuple(SellBuilding(square=sq) for sq in range(40))
_BUILD = tuple(BuildHouse(square=sq) for sq in range(40))
_LIFT = tuple(LiftMortgage(square=sq) for sq in range(40))
_SELL_GROUP: dict[str, SellGroupBuildings] = {}
_ROUND: dict[str, BuildRound] = {}


def _sell_group_action(group: str) -> SellGroupBuildings:
    return _SELL_GROUP.get(group) or _SELL_GROUP.setdefault(group, SellGroupBuildings(group=group))


_PARTS: dict[tuple, tuple] = {}


def _skeleton(state: BoardState, seat: int) -> _Skeleton:
    """The conditions of ``_build_problem``, ``_sell_problem``, ``_mortgage_problem`` and
    ``_trade_problem`` (minus cash), group by group; the property tests check they agree.

    It runs for every decision between rolls. Each group is read with C-level getters and
    skipped at once when the seat owns none of it; a group's part is remembered by all it depends
    on (between two decisions most groups have not changed), and worked out by ``_group_part``.
    """
    b = board_of(state)
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    players = state.players
    stock = (min(state.bank_houses, 4), min(state.bank_hotels, 3))  # all the parts can tell apart
    builds: list = []
    rounds: list = []
    sells: list = []
    mortgages: list = []
    held: list = []
    buys: list = []
    sales: list = []
    parts = _PARTS
    for index, (_group, _squares, _street, get) in enumerate(b.group_getters):
        owners = get(owner)
        if seat not in owners:
            continue
        key = (b.ruleset, index, seat, owners, get(mortgaged), get(houses), stock)
        part = parts.get(key)
        if part is None:
            if len(parts) > 16384:  # bounded (about 1 KB an entry): a cache, not a store
                parts.clear()
            part = parts[key] = _group_part(state, b, index, seat)
        p_builds, p_rounds, p_sells, p_mortgages, p_held, buy, sale = part
        if p_builds:
            builds += p_builds
            rounds += p_rounds
        if p_sells:
            sells += p_sells
        mortgages += p_mortgages
        if p_held:
            held += p_held
        if buy is not None and not players[buy[0]].bankrupt:
            buys.append(buy)
        if sale is not None and not players[sale[0]].bankrupt:
            sales.append(sale)
    swaps = [(holder, mine_sq, theirs) for holder, theirs, _ in buys for buyer, mine_sq, _ in sales
             if buyer == holder] if buys and sales else []
    return _Skeleton(builds, sells, mortgages, held, buys, sales, swaps, rounds)


def _group_part(state: BoardState, b: Board, index: int, seat: int) -> tuple:
    """One group's share of ``seat``'s skeleton: builds, rounds, sells, mortgages, mortgaged
    streets, and the one purchase (holder, street, price) or sale (buyer, street, price) that
    would complete a group (the holder's or buyer's bankruptcy is checked by the caller)."""
    group, squares, street, get = b.group_getters[index]
    owners, flags, levels = get(state.owner), get(state.mortgaged), get(state.houses)
    builds: list = []
    rounds: list = []
    sells: list = []
    mortgages: list = []
    held: list = []
    buy = sale = None
    n = len(squares)
    mine = owners.count(seat)
    if mine == n:
        built = max(levels)
        if street and True not in flags:
            low = min(levels)
            stock = state.bank_hotels if low == 4 else state.bank_houses
            if low < HOTEL and stock >= 1:
                cost = b.house_cost[squares[0]]
                builds = [(sq, cost) for sq, h in zip(squares, levels, strict=True) if h == low]
                if 2 <= len(builds) <= stock:
                    rounds.append((group, len(builds) * cost, "hotel" if low == 4 else "house"))
        if built:
            if built < HOTEL or state.bank_houses >= 4:
                sells = [_SELL[sq] for sq, h in zip(squares, levels, strict=True) if h == built]
            sells.append(_sell_group_action(group))
            return builds, rounds, sells, mortgages, held, buy, sale  # nothing to mortgage or trade
        for sq, flag in zip(squares, flags, strict=True):
            if flag:
                held.append(sq)
            else:
                mortgages.append(_MORTGAGE[sq])
        return builds, rounds, sells, mortgages, held, buy, sale
    # part of a group: never built on (buildings need the whole group)
    for sq, o, flag in zip(squares, owners, flags, strict=True):
        if o == seat:
            if flag:
                held.append(sq)
            else:
                mortgages.append(_MORTGAGE[sq])
    if not street:
        return builds, rounds, sells, mortgages, held, buy, sale
    if mine == n - 1:  # one street short: buying it completes my group
        for sq, o in zip(squares, owners, strict=True):
            if o != seat:
                if o != BANK:
                    buy = (o, sq, b.price[sq])
                break
    elif mine == 1:
        rest = {o for o in owners if o != seat}
        if len(rest) == 1:
            other = rest.pop()
            if other != BANK:  # my one street completes theirs
                sq = squares[owners.index(seat)]
                sale = (other, sq, b.price[sq])
    return builds, rounds, sells, mortgages, held, buy, sale


def _manage_options(state: BoardState, seat: int, build: bool, lift: bool, sk: _Skeleton | None = None) -> list:
    """Build, sell, mortgage and lift choices for ``seat`` now."""
    sk = sk or _skeleton(state, seat)
    cash = state.players[seat].cash
    out: list = []
    if build:
        out += [_BUILD[sq] for sq, cost in sk.builds if cash >= cost]
        if sk.rounds:
            out += _round_options(state, sk.rounds, cash)
    out += sk.sells
    out += sk.mortgages
    if lift:
        out += [_LIFT[sq] for sq in sk.mortgaged if cash >= lift_cost(state, sq)]
    return out


def _round_options(state: BoardState, rounds: list[tuple[str, int, str]], cash: int) -> list:
    """The affordable rounds, when the bank holds enough for every wish of their kind (B-12)."""
    out: list = []
    plenty: dict[str, bool] = {}
    for group, cost, kind in rounds:
        if cash < cost:
            continue
        if kind not in plenty:
            stock = state.bank_hotels if kind == "hotel" else state.bank_houses
            plenty[kind] = stock >= sum(w[1] for w in _wishes(state, kind))
        if plenty[kind]:
            out.append(_ROUND.get(group) or _ROUND.setdefault(group, BuildRound(group=group)))
    return out


def trade_options(state: BoardState, seat: int, sk: _Skeleton | None = None) -> list:
    """Offers worth a button: buying the street that completes one's own group, selling the street
    that completes someone else's (at the printed price ×1, ×1.5 and ×2), swapping two streets that
    complete a group each (even, or with the price gap in cash), and jail cards for cash."""
    if state.options.no_trading or seat in state.proposed:
        return []
    sk = sk or _skeleton(state, seat)
    players = state.players
    me = players[seat]
    out: list = []
    for holder, sq, price in sk.buys:
        for factor in (10, 15, 20):
            cash = price * factor // 10
            if cash <= me.cash:
                out.append(ProposeTrade(target=holder, get=(sq,), give_cash=cash))
    for buyer, sq, price in sk.sales:
        for factor in (10, 15, 20):
            cash = price * factor // 10
            if cash <= players[buyer].cash:
                out.append(ProposeTrade(target=buyer, give=(sq,), get_cash=cash))
    prices = board_of(state).price
    for partner, mine, theirs in sk.swaps:  # each completes a group: the price gap evens it out
        gap = prices[theirs] - prices[mine]
        out.append(ProposeTrade(target=partner, give=(mine,), get=(theirs,)))
        if 0 < gap <= me.cash:
            out.append(ProposeTrade(target=partner, give=(mine,), get=(theirs,), give_cash=gap))
        elif gap < 0 and -gap <= players[partner].cash:
            out.append(ProposeTrade(target=partner, give=(mine,), get=(theirs,), get_cash=-gap))
    if me.jail_cards:
        cap = board_of(state).money["jail_card_max_price"]
        for other in active_seats(state):
            if other != seat and players[other].cash >= cap:
                out.append(ProposeTrade(target=other, give_cards=1, get_cash=cap))
    return out


def waiting_for(state: BoardState) -> list[Decision]:
    """Who must answer now: trade offers first, then the stage's decision(s)."""
    if state.stage == "over":
        return []
    # rent claims first: an AI owner is asked before the next roll can make them lapse (B-06)
    out = [Decision(c.owner, "rent", "response", ForgoRent(square=c.square)) for c in state.rent_claims]
    out += [Decision(t.target, "trade", "response", RejectTrade(trade=t.id)) for t in state.trades]
    cur = current_seat(state)
    stage = state.stage
    if stage == "debt":
        out.append(Decision(state.debts[0].debtor, "debt", "payment", RaiseMoney()))
    elif stage == "auction" and state.auction is not None:
        a = state.auction
        out += [Decision(s, "bid", "auction", PassAuction()) for s in a.bidders if s != a.high_bidder]
    elif stage == "shortage" and state.shortage is not None:
        out += [Decision(s, "shortage", "response", DeclineShortage()) for s in state.shortage.asked]
    elif stage == "buy":
        out.append(Decision(cur, "buy", "turn", DeclineToBuy()))
    elif stage == "tax":
        out.append(Decision(cur, "tax", "turn", PayTax(choice="flat")))
    else:
        out.append(Decision(cur, "roll", "turn", Roll()))
    return out


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
