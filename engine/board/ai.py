"""The board AI: picks from ``legal_actions`` for whichever decision the seat faces first (offers
it builds itself, and counter-offers, pass the rules' one validator, ``trades.proposal_problem``).

It keeps a cash reserve that grows with the rents it faces, buys and bids by the value model
(``valuation.py``: never more than a street is worth to it nor than it could raise, in small
open raises; for a street that finishes or blocks a group, all it could raise), builds evenly
where a house adds the most rent per coin (mortgaging spare deeds to get a complete group to
three houses), leaves jail at once unless the opponents have built up,
lifts mortgages when rich, raises money with the least damage (the rules' own ``next_sale``),
collects at once any rent it may claim (B-06 ``rent_claim``), accepts offers that are fair to it
(never hands over a group for less than it gains; sells deeds for no deed in return only at a
quarter of their price above their worth to it), counters the others at a fair price, offers
deals that finish groups, and does not repeat an offer refused on unchanged holdings
(``state.refused``). It never stalls: every decision ends in an action that moves the table on
(roll, pass, decline, pay), and the optional ones between rolls are bounded (cash, one offer per
window). The deals it weighs are remembered per the groups they move (``_deal_terms``, in the
state's memo): most rolls change none, and weighing them was four tenths of a game's time against
players who never trade. Nobody presses the AI's own list, so before its roll it asks the rules
only for what it picks from (``_needed_actions``: no sales, no trade shortcuts). What who owns
what alone says (its whole groups, its squares, the deals a sale could make) is read once per
change of owners (``_layout``), and a bid's limit and reach once per auction.
"""

from __future__ import annotations

from engine.board.model import (
    BANK,
    HOTEL,
    AcceptTrade,
    Bid,
    BoardState,
    BuildHouse,
    BuildRound,
    Buy,
    CollectRent,
    DeclineShortage,
    DeclineToBuy,
    JoinShortage,
    LiftMortgage,
    Mortgage,
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
    bid_reach,
    bid_steps,
    board_of,
    current_seat,
    legal_actions,
    management_choices,
    owns_group,
    round_amount,
    total_assets,
)
from engine.board.rules.base import _BOARDS, _STREET_GETTERS
from engine.board.rules.trades import _accept_problem
from engine.board.trades import position_stamp, proposal_problem, was_refused
from engine.board.valuation import deed_worth, exchange_gain, fair, least_reserve, memo_table, reserve


def choose(state: BoardState, seat: int, actions: list | None = None, listed: bool = False):
    """The AI's move for ``seat``. ``listed``: only among ``actions`` as listed (what a person can
    press: the offers it would build itself and its counter-offers are left out)."""
    layout = None
    if actions is None:  # a pressed choice must be one of the listed actions: all of them then
        if listed:
            actions = legal_actions(state, seat)
        else:
            terms = _bidding(state, seat) if state.stage == "auction" else None
            if terms is not None:  # a bid to make and nothing to answer first: the amounts alone
                reach = _reach(state, seat, terms)
                amount = _bid_amount(state, seat, bid_steps(state, seat, reach), terms)
                return _PASS if amount is None else Bid(amount=amount, beyond_reach=amount > reach)
            # before a roll, who owns what is read once for the whole decision (``_layout``)
            layout = _layout(state, seat) if state.stage == "roll" else None
            actions = _needed_actions(state, seat, layout)
    if not actions:
        return None
    for c in state.rent_claims:  # B-06 with rent_claim: claim at once, before the next roll ends it
        if c.owner == seat:
            return CollectRent(square=c.square)
    for t in state.trades:  # offers first, in the order made
        if t.target == seat:
            return _answer(state, seat, t, actions, listed)
    stage = state.stage
    if stage == "debt":
        return PayDebt() if PayDebt() in actions else RaiseMoney()
    if stage == "auction":
        return _bid(state, seat, actions)
    if stage == "shortage":
        joins = [a for a in actions if isinstance(a, JoinShortage)]
        if joins and state.players[seat].cash > _reserve(state, seat) + board_of(state).house_cost[joins[0].street]:
            return max(joins, key=lambda a: house_gain(state, a.street))
        return DeclineShortage()
    if stage == "buy":
        return Buy() if Buy() in actions and _wants(state, seat, state.buy_square) else DeclineToBuy()
    if stage == "tax":
        b = board_of(state)
        percent = round_amount(state, total_assets(state, seat) * b.money["income_tax_percent"] // 10)
        return PayTax(choice="percent" if percent < b.money["income_tax"] else "flat")
    return _between_rolls(state, seat, actions, listed, layout)


def _needed_actions(state: BoardState, seat: int, layout: tuple | None = None) -> list:
    """What ``choose`` reads of ``legal_actions`` when nobody will press the list and the seat has
    no rent to claim. Before its own roll: the roll, the jail exits, and the builds,
    rounds, mortgages and lifts it could pick (``_may_manage``); never the sales or the trade
    shortcuts (its offers are its own; ``actions[0]`` is read only when it may not roll, which it
    may here). Buying: whether it may buy. A debt: whether it may pay. An offer to answer:
    whether it may accept (the rules' ``_accept_problem``, as ``legal_actions`` asks it). A bid
    is not asked for here: ``choose`` picks among the amounts itself (``_bidding``). Any other
    case: the full list."""
    stage = state.stage
    if not 0 <= seat < len(state.players) or state.players[seat].bankrupt or stage not in _FAST_STAGES:
        return legal_actions(state, seat)
    for c in state.rent_claims:
        if c.owner == seat:
            return legal_actions(state, seat)
    for t in state.trades:  # ``choose`` answers the first offer to the seat: may it accept?
        if t.target == seat:
            reject = RejectTrade(trade=t.id)
            return [AcceptTrade(trade=t.id), reject] if _accept_problem(state, seat, t) is None else [reject]
    p = state.players[seat]
    if stage == "debt":  # ``choose`` pays when it can, else raises the money (never sells by hand)
        if state.debts[0].debtor != seat:
            return legal_actions(state, seat)
        return [PayDebt()] if p.cash >= state.debts[0].amount else [RaiseMoney()]
    if seat != current_seat(state):
        return legal_actions(state, seat)
    if stage == "buy":  # ``choose`` reads only whether it may buy
        return [Buy(), DeclineToBuy()] if p.cash >= board_of(state).price[state.buy_square] else [DeclineToBuy()]
    if state.rolled:
        return legal_actions(state, seat)
    out: list = []
    if p.in_jail:
        if p.cash >= board_of(state).money["jail_fine"]:
            out.append(PayJailFine())
        if p.jail_cards:
            out.append(UseJailCard())
    out.append(_ROLL)
    if not _may_manage(state, seat, layout):
        return out
    m = management_choices(state, seat, sells=False, lifts=_may_lift(state, p.cash))
    return out + m.builds + m.rounds + m.mortgages + m.lifts


def _bidding(state: BoardState, seat: int) -> list | None:
    """The seat's bid terms (``_bid_terms``) when it is to bid in the running auction and has no
    rent to claim nor offer to answer first (``choose`` would see those first), else None."""
    a = state.auction
    if a is None or not 0 <= seat < len(state.players) or state.players[seat].bankrupt \
            or seat not in a.bidders or seat == a.high_bidder:
        return None
    for c in state.rent_claims:
        if c.owner == seat:
            return None
    for t in state.trades:
        if t.target == seat:
            return None
    return _bid_terms(state, seat)


def _bid_terms(state: BoardState, seat: int) -> list:
    """``[reach, limit]`` of ``seat`` in the running auction, each worked out when first asked:
    the rules' ``bid_reach`` (B-05) and ``property_limit``. Both read the auction's kind and lot,
    the options, the seat's cash and square, the owners, buildings and mortgages and who is still
    in, none of which a bid changes: the seat's last pair is kept (``_keep``) for the bids that
    follow, and one decision reads it once (in ``choose``: ``_reach``, then ``_bid_amount``)."""
    known = memo_table(state, "ai_bid_terms")
    a = state.auction
    p = state.players[seat]
    reads = (a.kind, a.square, state.options, p.cash, p.position, state.owner, state.houses, state.mortgaged,
             [q.bankrupt for q in state.players])
    terms = _kept(known, seat, reads)
    return _keep(known, seat, reads, [None, None]) if terms is None else terms


def _reach(state: BoardState, seat: int, terms: list) -> int:
    """The rules' ``bid_reach`` (B-05), kept in the seat's bid terms."""
    reach = terms[0]
    if reach is None:
        reach = terms[0] = bid_reach(state, seat)
    return reach


def _kept(known: dict, key, reads: tuple):
    """The value kept under ``key`` (``_keep``) if it was worked out from what ``reads`` holds now,
    else None. Lists are compared item by item: cheaper than hashing them into a memo key, for
    results asked again and again while nothing they read changes."""
    last = known.get(key)
    return last[1] if last is not None and last[0] == reads else None


def _keep(known: dict, key, reads: tuple, value):
    """Keep ``value`` under ``key`` with what it was worked out from (the state's lists copied)."""
    known[key] = (tuple([x.copy() if type(x) is list else x for x in reads]), value)
    return value


_FAST_STAGES = frozenset({"roll", "buy", "debt"})
_PASS = PassAuction()


def _may_manage(state: BoardState, seat: int, layout: tuple | None = None) -> bool:
    """Could ``management_choices`` hold anything ``_between_rolls`` picks? Builds and rounds only
    on a whole street group of the seat with no mortgage, below hotels (B-11, what the validators
    demand), with the house's price paid and at least the least reserve's share (``_build_floor``
    of ``least_reserve``) left; the mortgages it takes only to build on such a group below three
    houses while the bank has houses, of a spare deed (``_mortgage_to_build``); a lift only with
    cash above three times the least reserve (it keeps three reserves). Without any of these,
    nothing of the list would be picked (most rolls: the first half of a game, and a seat short
    of cash)."""
    mortgaged, houses = state.mortgaged, state.houses
    cash = state.players[seat].cash
    whole, squares, _candidates = _layout(state, seat) if layout is None else layout
    least = -1
    spare = None  # is there a deed ``_mortgage_to_build`` could mortgage? looked for once
    for get, house, _first in whole:
        if True not in get(mortgaged):
            low = min(get(houses))
            if low < HOTEL:
                if least < 0:
                    least = least_reserve(state)
                if cash - house >= (least // 4 if low < 3 else least):  # ``_build_floor``, at its least
                    return True
            if low < 3 and state.bank_houses:
                if spare is None:
                    spare = False
                    for sq in squares:  # a loop, not a generator: asked before most rolls
                        if not mortgaged[sq] and _spare(state, seat, sq):
                            spare = True
                            break
                if spare:
                    return True
    if True in mortgaged and _may_lift(state, cash):
        for sq in squares:
            if mortgaged[sq]:
                return True
    return False


def _may_lift(state: BoardState, cash: int) -> bool:
    """``_between_rolls`` lifts a mortgage only with cash above three reserves, and ``reserve`` is
    never less than a twentieth of the starting cash."""
    return cash > 3 * least_reserve(state)


def _layout(state: BoardState, seat: int) -> tuple[tuple, tuple[int, ...], tuple]:
    """What who-owns-what alone says about ``seat``, for the choices before every roll: its whole
    street groups ``(getter, cheapest house, first square)`` and its squares, and the streets a
    deal could move (``_deals``: ``(buy it, partner, square, getter, the group's owners)``), all
    in the board's group order. Owners change a few dozen times a game, rolls are asked for about
    a thousand times: the seat's last layout is kept (``_keep``) until the owners change."""
    known = memo_table(state, "ai_layout")
    reads = (state.options.ruleset, state.owner)
    found = _kept(known, seat, reads)
    return _keep(known, seat, reads, _read_layout(reads[0], seat, tuple(reads[1]))) if found is None else found


def _read_layout(ruleset: str, seat: int, owner: tuple[int, ...]) -> tuple[tuple, tuple[int, ...], tuple]:
    whole = []
    candidates = []
    for (_group, squares, _street, get), house in zip(_STREET_GETTERS[ruleset], _HOUSE[ruleset], strict=True):
        owners = get(owner)
        if seat not in owners:
            continue
        n = len(squares)
        mine = owners.count(seat)
        if mine == n:
            whole.append((get, house, squares[0]))
            continue
        if mine == n - 1:  # ours but one street: buy it from its holder
            i = 0
            while owners[i] == seat:
                i += 1
            if owners[i] != BANK:
                candidates.append((True, owners[i], squares[i], get, owners))
        if mine == 1:  # (also, in a group of two) theirs but our street: sell it to them
            rest = [o for o in owners if o != seat]
            who = rest[0]
            if who != BANK and rest.count(who) == n - 1:
                candidates.append((False, who, squares[owners.index(seat)], get, owners))
    squares = tuple([sq for sq, o in enumerate(owner) if o == seat])
    return tuple(whole), squares, tuple(candidates)


# per rule set, each street group's cheapest house, in the board's group order
_HOUSE = {r: tuple(min(_BOARDS[r].house_cost[sq] for sq in squares) for _g, squares, _s, _get in getters)
          for r, getters in _STREET_GETTERS.items()}


def choose_listed(state: BoardState, seat: int, actions: list | None = None):
    """The AI's choice among the listed actions only: what a person's press of a button can be."""
    return choose(state, seat, actions, listed=True)


_reserve = reserve  # the value model's cash reserve (``valuation.reserve``), under the AI's own name


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
    if _completes(state, seat, sq) or _blocks(state, seat, sq) or deed_worth(state, seat, sq) > price * 5 // 4:
        return cash >= price
    return cash - price >= _reserve(state, seat) // 2


def _bid(state: BoardState, seat: int, actions: list, terms: list | None = None):
    """The bid of ``actions`` that ``_bid_amount`` picks, or the pass."""
    amount = _bid_amount(state, seat, [x.amount for x in actions if isinstance(x, Bid)], terms)
    if amount is not None:
        for x in actions:
            if isinstance(x, Bid) and x.amount == amount:
                return x
    return PassAuction()


def _bid_amount(state: BoardState, seat: int, amounts: list[int], terms: list | None = None) -> int | None:
    """Which of the bids ``amounts`` the seat makes in the running auction, or None to pass."""
    a = state.auction
    if a is None or not amounts:
        return None
    b = board_of(state)
    cash = state.players[seat].cash
    if a.kind == "property":  # no more than it is worth to us, nor than we could raise
        limit = property_limit(state, seat, a.square, terms)
    else:  # a house or hotel in a shortage: worth its cost plus the rent it adds
        street = a.streets.get(seat)
        limit = min(b.house_cost[street] * 2, cash - _reserve(state, seat)) if street is not None else 0
    affordable = [x for x in amounts if x <= limit]
    if not affordable:
        return None
    # small raises (bids are open: jumping far ahead only pays more than the rivals' limit), but
    # not the least step each time, which would make an auction hundreds of bids long
    low = affordable[0]
    for x in affordable:  # loops, not generators: asked at every bid of every auction
        if x < low:
            low = x
    stride = (b.price[a.square] if a.kind == "property" else b.house_cost[a.streets.get(seat, 0)]) // 10
    best = None
    for x in affordable:  # the first of the highest, as ``max`` gives
        if x <= low + stride and (best is None or x > best):
            best = x
    return best


def property_limit(state: BoardState, seat: int, sq: int, terms: list | None = None) -> int:
    """The most ``seat`` bids for the deed ``sq`` on auction now: what the deed is worth to it
    (``deed_worth``), within what it could raise less half its reserve. A street that blocks an
    opponent's group may take the reserve too. A street that finishes our own group decides the
    game more than any cash kept back (a first group wins nine games in ten): all we could raise
    but the price of its first houses, one a street, so that the group earns at once. Kept with
    the reach for the auction's next bids (``_bid_terms``)."""
    if terms is None:
        terms = _bid_terms(state, seat)
    limit = terms[1]
    if limit is None:
        raisable = _raisable(state, seat)
        worth = deed_worth(state, seat, sq)
        if _completes(state, seat, sq):
            b = board_of(state)
            first_houses = len(b.groups[b.group[sq]]) * b.house_cost[sq] if b.kind[sq] == "street" else 0
            limit = min(max(worth, raisable - first_houses), raisable)
        else:
            keep = 0 if _blocks(state, seat, sq) else _reserve(state, seat) // 2
            limit = min(worth, raisable - keep)
        terms[1] = limit
    return limit


def house_gain(state: BoardState, sq: int) -> float:
    b = board_of(state)
    h = state.houses[sq]
    rent = b.rent[sq]
    return (rent[min(h + 1, 5)] - rent[h]) / b.house_cost[sq]


_ROLL = Roll()
_BETWEEN_ROLLS_KINDS = frozenset({BuildHouse, BuildRound, LiftMortgage, ProposeTrade, Mortgage})


def _between_rolls(state: BoardState, seat: int, actions: list, listed: bool = False,
                   layout: tuple | None = None):
    b = board_of(state)
    p = state.players[seat]
    reserve = None  # worked out when first needed: most rolls build, lift and pay no fine
    least = least_reserve(state)
    lifts, builds, offers = [], [], []
    rounds: dict[str, BuildRound] = {}
    may_mortgage = False
    for a in actions:
        t = type(a)
        if t not in _BETWEEN_ROLLS_KINDS:  # most of the list: sells
            continue
        if t is Mortgage:
            may_mortgage = True
        elif t is BuildHouse:
            left = p.cash - b.house_cost[a.square]
            if left < _build_floor(state, a.square, least):  # short whatever the reserve
                continue
            if reserve is None:
                reserve = _reserve(state, seat)
            if left >= _build_floor(state, a.square, reserve):
                builds.append(a)
        elif t is BuildRound:
            rounds[a.group] = a
        elif t is LiftMortgage:
            lifts.append(a)
        elif t is ProposeTrade:
            offers.append(a)
    if lifts and reserve is None:
        reserve = _reserve(state, seat)
    if lifts and p.cash > 3 * reserve and not builds:
        return max(lifts, key=lambda a: (owns_group(state, seat, b.group[a.square]), b.price[a.square]))
    if builds:
        best = max(builds, key=lambda a: (house_gain(state, a.square), -a.square))
        sq = best.square
        whole = rounds.get(b.group[sq])
        if whole is not None:  # the same level on the rest of the group in one go, if cash allows
            level = [g for g in b.groups[whole.group] if state.houses[g] == state.houses[sq]]
            if p.cash - len(level) * b.house_cost[sq] >= _build_floor(state, sq, reserve):
                return whole
        return best
    if not state.options.no_trading:  # the shortcuts (``offers``) are among the deals _offers works out
        offer = _best_offer(state, seat, layout)
        if offer is not None and (not listed or offer in actions):
            return offer
    may_roll = _ROLL in actions
    turn = seat == current_seat(state)
    if may_mortgage and turn and may_roll:
        mortgage = _mortgage_to_build(state, seat, actions, layout)
        if mortgage is not None:
            return mortgage
    if not turn or not may_roll:
        return _ROLL if may_roll else _pass(actions)
    if p.in_jail and not _board_is_dangerous(state, seat):
        # out at once while unowned deeds are left or the rents around are low: moving earns the
        # salary; staying in is for when the opponents' built groups make every roll costly
        if UseJailCard() in actions:
            return UseJailCard()
        if PayJailFine() in actions and p.cash - b.money["jail_fine"] >= _reserve(state, seat):
            return PayJailFine()
    return _ROLL


def _spare(state: BoardState, seat: int, sq: int) -> bool:
    """A deed of ``seat`` it would mortgage to build (``_mortgage_to_build``): not a street of a
    group it holds all or all but one of."""
    b = board_of(state)
    if b.kind[sq] != "street":
        return True
    squares = b.groups[b.group[sq]]
    mine = 0
    for o in squares:
        if state.owner[o] == seat:
            mine += 1
    return mine < len(squares) - 1


def _board_is_dangerous(state: BoardState, seat: int) -> bool:
    """Do the opponents own groups with three or more houses a street?"""
    b = board_of(state)
    for _group, squares, street in b.group_list:
        o = state.owner[squares[0]]
        if street and o not in (BANK, seat) and min(state.houses[sq] for sq in squares) >= 3:
            return True
    return False


def _raisable(state: BoardState, seat: int) -> int:
    """Cash plus the mortgages of deeds in groups without buildings (what a bid may count on)."""
    b = board_of(state)
    owner, mortgaged, houses, mortgage = state.owner, state.mortgaged, state.houses, b.mortgage
    total = state.players[seat].cash
    sq = -1
    for _ in range(owner.count(seat)):  # the seat's squares only, found in C (as ``max_raisable``)
        sq = owner.index(seat, sq + 1)
        if not mortgaged[sq] and not houses[sq]:
            total += mortgage[sq]
    return total


def _build_floor(state: BoardState, sq: int, reserve: int) -> int:
    """Up to three houses a street is where rent jumps: build there down to a thin reserve."""
    return reserve // 4 if state.houses[sq] < 3 else reserve


def _pass(actions: list):
    """A seat with nothing it must do picks the first of its actions that commits to nothing."""
    return actions[0]


# -- trades (engine/board/valuation.py values them; engine/board/trades.py validates them) -----------


def _liquid(state: BoardState, seat: int, paying: int) -> bool:
    """Paying ``paying`` (net) still leaves the reserve (receiving cash always does)."""
    return paying <= 0 or state.players[seat].cash - paying >= _reserve(state, seat)


def _round10(x: float) -> int:
    return int(-(-x // 10) * 10)


def _cash_for(mine: int, theirs: int, i_give_group: bool, i_get_group: bool) -> int | None:
    """The least net cash ``x`` (to me; negative: I pay) that makes a deal fair to me, which my
    partner (judged by the same model) still takes; ``None`` when there is none."""
    if i_give_group:
        low = (theirs * 9 // 10 - mine) / 1.9 if i_get_group else (theirs - mine) / 2
    else:
        low = max((theirs - 2 * mine) / 3, -mine)  # helping the partner counts half against me
    x = _round10(low) + 10
    for _ in range(4):
        if fair(mine + x, theirs - x, i_give_group, i_get_group):
            break
        x += 10
    else:
        return None
    if not fair(theirs - x, mine + x, i_get_group, i_give_group):
        return None
    return x


SALE_PREMIUM = 4  # a sale of deeds for no deed in return must gain a quarter (1/4) of their printed price


def _premium(state: BoardState, sold) -> int:
    """The least gain at which the AI sells the deeds ``sold`` for no deed in return."""
    price = board_of(state).price
    return sum(price[sq] for sq in sold) // SALE_PREMIUM


def _judge(state: BoardState, seat: int, proposer: int, t: Trade | ProposeTrade) -> tuple[bool, int, int, bool, bool]:
    """How ``seat`` weighs ``proposer``'s offer ``t``: (would it take it, its gain, the proposer's,
    does it complete a group for ``seat``, for the proposer). It takes what is fair to it
    (``fair``) and leaves it its reserve; selling deeds for no deed in return, it also asks a
    quarter of their printed price beyond what they are worth to it. Without that premium it sold a
    street it had just bought for 10 more than it paid, and a player who bought every street so won
    44 % of the games against three ``ai`` without any search (docs/figures.md, "Haggling")."""
    mine, theirs, i_complete, they_complete = exchange_gain(
        state, seat, proposer, t.give, t.get, t.give_cash, t.get_cash, t.give_cards, t.get_cards)
    takes = fair(mine, theirs, they_complete, i_complete) and _liquid(state, seat, t.get_cash - t.give_cash)
    if takes and t.get and not t.give:
        takes = mine >= _premium(state, t.get)
    return takes, mine, theirs, i_complete, they_complete


def takes(state: BoardState, seat: int, proposer: int, t: Trade | ProposeTrade) -> bool:
    """Would ``seat`` accept ``proposer``'s offer ``t`` on the terms it states (the rules' order of
    offers aside)? Public: the holdings, cash and rents it reads are on the table for all to see."""
    return _judge(state, seat, proposer, t)[0]


def _answer(state: BoardState, seat: int, t: Trade, actions: list, listed: bool = False):
    """Accept a fair offer, counter one that would be fair at another price, decline the rest."""
    fine, mine, theirs, i_complete, they_complete = _judge(state, seat, t.proposer, t)
    accept = AcceptTrade(trade=t.id)
    if accept in actions and fine:
        return accept
    if not t.counter and accept in actions and not listed:
        net = t.give_cash - t.get_cash  # cash to me in the offer
        x = _cash_for(mine - net, theirs + net, they_complete, i_complete)
        if x is not None and t.get and not t.give:  # selling its deeds: at its premium, as ``_judge`` asks
            x = max(x, _round10(_premium(state, t.get) - (mine - net)))
        if x is not None and x != net:
            offer = ProposeTrade(target=t.proposer, give=tuple(t.get), get=tuple(t.give),
                                 give_cash=max(0, -x), get_cash=max(0, x), give_cards=t.get_cards,
                                 get_cards=t.give_cards, counter=t.id)
            if _liquid(state, seat, -x) and proposal_problem(state, seat, offer) is None \
                    and (offer.give or offer.give_cash or offer.give_cards) \
                    and not was_refused(state, seat, offer):
                return offer
    return RejectTrade(trade=t.id)


def _deals(state: BoardState, seat: int,
           layout: tuple | None = None) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]]:
    """The deals ``_offers`` weighs, best first, before the cash checks: (seat's gain, partner,
    streets got, streets given, net cash to seat). The candidates follow from who owns what
    (``_layout``: a street group of ours but one, or one street of ours in a group that is
    otherwise one partner's), without buildings and with partners still in; weighing one
    (``_deal_terms``) is remembered under the groups it moves. The list reads the candidates'
    groups only (the deals move and value nothing else: their owners, buildings and mortgages),
    who is still in and the discounted mortgages, which most rolls leave as they are (a deed
    bought or a house built elsewhere changes nothing here): the seat's last list is kept
    (``_keep``). Callers only read it."""
    if layout is None:
        layout = _layout(state, seat)
    candidates = layout[2]
    if not candidates:  # most of the time: no street a deal could move
        return []
    known = memo_table(state, "ai_deals")
    houses, mortgaged = state.houses, state.mortgaged
    reads = (state.options.ruleset, candidates, [(get(houses), get(mortgaged)) for _b, _p, _sq, get, _o in candidates],
             [p.bankrupt for p in state.players], state.lift_discount)
    found = _kept(known, seat, reads)
    return _keep(known, seat, reads, _weigh_deals(state, seat, candidates)) if found is None else found


def _weigh_deals(state: BoardState, seat: int,
                 candidates: tuple) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]]:
    out: list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]] = []
    if not candidates:  # most of the time
        return out
    houses, players = state.houses, state.players
    missing: dict[int, list[int]] = {}  # partner -> their streets that would finish a group of mine
    wanted: dict[int, list[int]] = {}  # partner -> my streets that would finish a group of theirs
    parts: dict[int, tuple] = {}  # street -> (its group's getter, the group's owners)
    for buy, partner, sq, get, owners in candidates:
        if any(get(houses)):  # no deal of ours moves a street of a built group
            continue
        if buy:
            if players[partner].bankrupt:
                continue
            missing.setdefault(partner, []).append(sq)
        elif players[seat].bankrupt:
            continue
        else:
            wanted.setdefault(partner, []).append(sq)
        parts[sq] = (get, owners)
    if not missing and not wanted:
        return out
    bankrupt = tuple([p.bankrupt for p in players])
    discount = tuple(state.lift_discount)
    for partner in sorted(set(missing) | set(wanted)):
        deals = [((sq,), ()) for sq in missing.get(partner, [])]
        deals += [((theirs,), (mine,)) for theirs in missing.get(partner, []) for mine in wanted.get(partner, [])]
        deals += [((), (mine,)) for mine in wanted.get(partner, [])]
        for gain, lose in deals:
            groups = {parts[sq]: None for sq in gain + lose}  # one entry per group, in order
            found = _deal_terms(state, seat, partner, gain, lose, bankrupt, discount, groups)
            if found is not None:
                out.append(found)
    out.sort(key=lambda d: -d[0])
    return out


def _deal_terms(state: BoardState, seat: int, partner: int, gain: tuple[int, ...], lose: tuple[int, ...],
                bankrupt: tuple[bool, ...], discount: tuple[int, ...],
                groups: dict) -> tuple[int, int, tuple[int, ...], tuple[int, ...], int] | None:
    """One deal of ``_deals`` at its fair cash, or None. It reads only the groups of the streets
    that move (``groups``: their getters and owners), who is still in and the discounted
    mortgages: remembered under those, which stay as they are for many rolls at a time."""
    mortgaged, houses = state.mortgaged, state.houses
    key = (state.options.ruleset, seat, partner, gain, lose, bankrupt, discount,
           *[(owners, get(mortgaged), get(houses)) for get, owners in groups])
    known = memo_table(state, "ai_deal_terms")
    if key in known:
        return known[key]
    mine, theirs, i_complete, they_complete = exchange_gain(state, seat, partner, gain, lose)
    x = _cash_for(mine, theirs, they_complete, i_complete)
    found = known[key] = (mine + x, partner, gain, lose, x) if x is not None else None
    return found


def _offers(state: BoardState, seat: int, layout: tuple | None = None) -> list[tuple[int, ProposeTrade]]:
    """Deals that finish one of ``seat``'s street groups (a purchase, or a swap that finishes one of
    the partner's too), or sell the partner the street that finishes theirs, each at the cash
    that makes it fair to both sides by the value model and that both can pay: (seat's gain,
    offer), best first."""
    out: list[tuple[int, ProposeTrade]] = []
    cash = state.players[seat].cash
    keep = None  # the reserve (``_liquid``), worked out once and only if some deal has us pay
    for gain, partner, get, give, x in _deals(state, seat, layout):
        if x < 0:
            if keep is None:
                if cash + x < least_reserve(state):  # short whatever the reserve
                    continue
                keep = _reserve(state, seat)
            if cash + x < keep:
                continue
        elif x > 0 and x > state.players[partner].cash:
            continue
        out.append((gain, ProposeTrade(target=partner, give=give, get=get, give_cash=max(0, -x), get_cash=max(0, x))))
    return out


def _best_offer(state: BoardState, seat: int, layout: tuple | None = None) -> ProposeTrade | None:
    if state.options.no_trading or seat in state.proposed:
        return None
    stamp = None  # the holdings' stamp, read only if there is an offer to check against refusals
    for _gain, offer in _offers(state, seat, layout):
        if proposal_problem(state, seat, offer) is None:
            if stamp is None:
                stamp = position_stamp(state) if state.refused else 0
            if not was_refused(state, seat, offer, stamp):
                return offer
    return None


def _mortgage_to_build(state: BoardState, seat: int, actions: list, layout: tuple | None = None):
    """A complete group still under three houses a street and too little cash: mortgage a deed
    that is not part of any near-complete group of ours to pay for the next house."""
    b = board_of(state)
    p = state.players[seat]
    target = None
    if state.bank_houses:
        mortgaged, houses = state.mortgaged, state.houses
        for get, _house, first in (_layout(state, seat) if layout is None else layout)[0]:  # group order
            if not any(get(mortgaged)) and min(get(houses)) < 3:
                target = first
                break
    if target is None:
        return None
    spare = [a for a in actions if isinstance(a, Mortgage) and _spare(state, seat, a.square)]
    # with nothing spare there is nothing to do, whatever the cash: the reserve is not worked out
    if not spare or p.cash - b.house_cost[target] >= _build_floor(state, target, _reserve(state, seat)):
        return None
    return min(spare, key=lambda a: (b.price[a.square], a.square))
