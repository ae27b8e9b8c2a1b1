"""The turn (B-01 … B-03, B-07 … B-10): who starts, the roll and the move, GO's salary, what a
square does (purchase, rent, tax, cards, jail), leaving jail, the purchase decision, the income
tax choice, and ``_settle``, which moves the table on to whatever it waits for next.

Dice come from ``dice.roll`` (looked up at each roll, so a test can replace it to force them).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board.data import PROPERTY_KINDS, board
from engine.board.model import (
    BANK,
    HOTEL,
    SCHEMA_VERSION,
    BoardOptions,
    BoardPlayer,
    BoardState,
    Bought,
    Buy,
    CardDrawn,
    DeclineToBuy,
    DiceRolled,
    GameStarted,
    LeftJail,
    Moved,
    PayJailFine,
    PayTax,
    RentClaim,
    RentDue,
    Roll,
    SalaryPaid,
    StayedInJail,
    TradeClosed,
    TurnEnded,
    TurnStarted,
    UseJailCard,
    WentToJail,
)
from engine.board.rules import dice
from engine.board.rules.auctions import _open_auction, _void_auction
from engine.board.rules.base import (
    JAIL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    _charge,
    _transfer,
    active_seats,
    board_of,
    current_seat,
    rent_for,
    resolve_options,
    round_amount,
    salary,
    start_cash,
    total_assets,
)
from engine.board.rules.building import doubles_window
from engine.board.rules.money import _lapse
from engine.core.errors import RuleError
from engine.core.rng import Rng


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
    if state.trades:
        for t in state.trades:
            events.append(TradeClosed(trade=t.id, outcome="expired", deal=t))
        state.trades = []
    # most rolls find these empty already: left as they are (every roll passes here)
    if state.proposed:
        state.proposed = []
    if state.lift_discount and not (state.options.received_mortgage_rulings and doubles_window(state)):
        # ruling (B-15 with B-02's lock): a deed received while lifting is barred keeps its
        # principal-only price through the extra roll, until the first roll after an open window
        state.lift_discount = []
    if state.declined_shortage:
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
                d1, d2 = dice.roll(state)  # B-07: the card's fresh roll
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
    elif kind == "free_parking" and state.parking_pot:  # B-10 with free_parking_pot
        pot, state.parking_pot = state.parking_pot, 0
        _transfer(state, BANK, p.seat, pot, "free_parking", events)


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
    d1, d2 = dice.roll(state)
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
