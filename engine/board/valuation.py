"""What a position is worth to a seat: the AI's one model for trades, auctions, purchases and its
cash reserve.

The worth of holdings is counted group by group: every deed at its price (half when mortgaged),
plus a bonus for a complete colour group (the rent it can earn with three houses, bounded by the
group's price), a smaller one for being a street short (a sale or an auction may finish it), and
the station and utility sets' growing rents. The cash a seat needs is the rent it faces on the
coming roll (2d6 squares ahead of it, on the opponents' streets as they stand now). A trade is
judged by both sides' changes in worth: the AI never hands an opponent a group for less than it
gains itself. Everything here is a pure function of the state; what the AI asks again and again
with the holdings unchanged (a deed's worth through an auction, the deals it could offer) is
remembered on the state object (``rules.base.memo``) under everything it reads.
"""

from __future__ import annotations

from engine.board.data import PROPERTY_KINDS, Board
from engine.board.model import BANK, BoardState
from engine.board.rules import board_of, lift_cost, rent_for, start_cash
from engine.board.rules.base import _BOARDS, _GROUP_GET, MEMO_LIMIT

# chance of moving d squares with two dice (d = 2 … 12); doubles and cards are left out
TWO_DICE = {d: (6 - abs(d - 7)) / 36 for d in range(2, 13)}
_BONUS: dict[tuple[str, int], dict[str, int]] = {}


def memo_table(state: BoardState, name: str) -> dict:
    """A scratch table on the state object for the AI's ``name`` results (``ai_…``), beside the
    rules' ``memo`` (``rules.base.memo``, whose terms hold here too: never encoded, shared with a
    search's copies, keyed by all a result read) so that many of them never crowd out the rules' own entries;
    started afresh past ``MEMO_LIMIT``. The AI asks for one at nearly every decision, so it is one
    lookup in the object's own attributes."""
    d = state.__dict__
    table = d.get(name)
    if table is None or len(table) > MEMO_LIMIT:
        table = d[name] = {}
    return table


def reserve(state: BoardState, seat: int) -> int:
    """Cash to keep: a base (a twentieth of the starting cash, ``least_reserve``) plus what the
    rents on the coming roll threaten, so it grows as the opponents build."""
    start = start_cash(state.options)
    expected, worst = rent_threat(state, seat)
    return min(start // 20 + max(2 * expected, worst // 2), start // 2)


def least_reserve(state: BoardState) -> int:
    """The least ``reserve`` can be: a choice that fails with this much kept fails with the reserve,
    which is then not worked out (it reads the rents ahead)."""
    return start_cash(state.options) // 20


def rent_threat(state: BoardState, seat: int) -> tuple[int, int]:
    """(expected, largest) rent ``seat`` may owe on its next roll."""
    players = state.players
    owner, mortgaged = state.owner, state.mortgaged
    expected = 0.0
    worst = 0
    for sq, p in _AHEAD[state.options.ruleset][players[seat].position]:  # in the order of TWO_DICE
        o = owner[sq]
        if o in (BANK, seat) or mortgaged[sq] or players[o].bankrupt:
            continue
        rent = rent_for(state, sq, 7)
        expected += p * rent
        if rent > worst:
            worst = rent
    return int(expected), worst


# per rule set and square a player stands on: the deeds 2 … 12 squares ahead and the chance of
# landing on each (the other squares charge no rent)
_AHEAD = {r: tuple(tuple(((pos + d) % 40, p) for d, p in TWO_DICE.items() if bd.kind[(pos + d) % 40] in PROPERTY_KINDS)
                   for pos in range(40)) for r, bd in _BOARDS.items()}


def _opponents(state: BoardState) -> int:
    left = 0
    for p in state.players:  # a loop, not a generator: asked at every valuation
        if not p.bankrupt:
            left += 1
    return max(1, left - 1)


def group_bonus(state: BoardState, group: str) -> int:
    """What owning a whole street group adds to its deeds: three-house rents times the landings
    expected from the opponents, between 0.8 and 1.5 times the group's price."""
    return _bonus_table(state)[group]


def _bonus_table(state: BoardState) -> dict[str, int]:
    """``group_bonus`` of every group (a fixed table per rule set and number of opponents)."""
    key = (state.options.ruleset, _opponents(state))
    table = _BONUS.get(key)
    if table is None:
        b = board_of(state)
        landings = 0.2 + 0.1 * key[1]
        table = {}
        for g, squares, street in b.group_list:
            price = sum(b.price[sq] for sq in squares)
            if street:
                earn = sum(b.rent[sq][3] for sq in squares) * landings
                table[g] = int(min(max(earn, 0.8 * price), 1.5 * price))
            else:
                table[g] = price // 2
        _BONUS[key] = table
    return table


def _group_worth(state: BoardState, b: Board, seat: int, bonus: int, squares: tuple[int, ...],
                 owner: list[int]) -> int:
    mine = 0
    worth = 0
    others: set[int] = set()
    for sq in squares:
        o = owner[sq]
        if o == seat:
            mine += 1
            worth += b.price[sq] // 2 if state.mortgaged[sq] else b.price[sq]
        else:
            others.add(o)
    if not mine:
        return 0
    n = len(squares)
    if b.kind[squares[0]] == "street":
        if mine == n:
            worth += bonus + sum(state.houses[sq] * b.house_cost[sq] for sq in squares)
        elif mine == n - 1:
            worth += bonus // (6 if others == {BANK} else 10)
    else:  # stations, utilities: rent grows with the count
        worth += bonus * (mine - 1) * mine // (n * (n - 1))
    return worth


def holdings(state: BoardState, b: Board, bonus: dict[str, int], seat: int, groups, owner: list[int]) -> int:
    """Worth to ``seat`` of its share of ``groups`` if squares belonged to ``owner[sq]`` (the state's
    owners, or a copy with the squares that move changed). The board ``b`` and the bonus table
    (``_bonus_table``) are given: a trade or a deed is weighed by four or more of these at once."""
    total = 0
    for g in groups:
        total += _group_worth(state, b, seat, bonus[g], b.groups[g], owner)
    return total


def exchange_gain(state: BoardState, seat: int, partner: int, gain, lose, cash_in: int = 0, cash_out: int = 0,
                  cards_in: int = 0, cards_out: int = 0) -> tuple[int, int, bool, bool]:
    """Changes in worth when ``seat`` receives ``gain`` and ``cash_in`` from ``partner`` and hands
    over ``lose`` and ``cash_out``: (seat's gain, partner's gain, does it complete a group for
    seat, for partner). Interest on received mortgages and jail cards are counted in."""
    b = board_of(state)
    after = state.owner.copy()
    for sq in gain:
        after[sq] = seat
    for sq in lose:
        after[sq] = partner
    groups = {b.group[sq] for sq in (*gain, *lose)}
    bonus, now = _bonus_table(state), state.owner
    mine = holdings(state, b, bonus, seat, groups, after) - holdings(state, b, bonus, seat, groups, now)
    theirs = holdings(state, b, bonus, partner, groups, after) - holdings(state, b, bonus, partner, groups, now)
    card = b.money["jail_card_max_price"] // 2
    net = cash_in - cash_out + (cards_in - cards_out) * card
    mine += net - sum(lift_cost(state, sq) - b.mortgage[sq] for sq in gain if state.mortgaged[sq])
    theirs += -net - sum(lift_cost(state, sq) - b.mortgage[sq] for sq in lose if state.mortgaged[sq])
    return mine, theirs, _completes_any(state, b, seat, groups, after), _completes_any(state, b, partner, groups, after)


def _completes_any(state: BoardState, b: Board, seat: int, groups, after) -> bool:
    for g in groups:
        squares = b.groups[g]
        if b.kind[squares[0]] == "street" and all(after[sq] == seat for sq in squares) \
                and not all(state.owner[sq] == seat for sq in squares):
            return True
    return False


def fair(mine: int, theirs: int, gives_group: bool, gets_group: bool) -> bool:
    """Is a deal with these gains good enough for the seat gaining ``mine``? Handing an opponent a
    group needs at least as much in return (a swap of groups: nearly as much); otherwise helping
    the partner counts half against the seat (there are other opponents to beat too)."""
    if mine <= 0:
        return False
    if gives_group:
        return mine >= (theirs * 9 // 10 if gets_group else theirs)
    return mine >= max(0, theirs) // 2


def deed_worth(state: BoardState, seat: int, sq: int) -> int:
    """What getting ``sq`` from the bank is worth to ``seat``: its change in worth, plus half of
    what it denies the opponent the deed would have helped most, plus a tenth of the price for
    the rent it earns until the end (a deed at its printed price is worth having: the ``basic``
    player stops there, so a tie at the price no longer goes to whoever bid it first); at most
    1.6 times the price. Remembered (``memo``) under the group's owners, mortgages and buildings
    and who is still in: an auction asks it at every bid."""
    b = board_of(state)
    group = b.group[sq]
    get = _GROUP_GET[b.ruleset][group]  # the group's squares read from a per-square list at once
    key = (b.ruleset, seat, sq, get(state.owner), get(state.mortgaged), get(state.houses),
           tuple([p.bankrupt for p in state.players]))
    known = memo_table(state, "ai_deed_worth")
    found = known.get(key)
    if found is None:
        found = known[key] = _deed_worth(state, b, seat, sq, group)
    return found


def _deed_worth(state: BoardState, b: Board, seat: int, sq: int, group: str) -> int:
    after = state.owner.copy()  # the owners if ``sq`` went to ``after[sq]``
    after[sq] = seat
    bonus, now, groups = _bonus_table(state), state.owner, (group,)
    gain = holdings(state, b, bonus, seat, groups, after) - holdings(state, b, bonus, seat, groups, now)
    denial = 0
    for p in state.players:
        if p.seat != seat and not p.bankrupt:
            after[sq] = p.seat
            theirs = holdings(state, b, bonus, p.seat, groups, after) - holdings(state, b, bonus, p.seat, groups, now)
            denial = max(denial, theirs - b.price[sq])
    return min(gain + denial // 2 + b.price[sq] // 10, b.price[sq] * 16 // 10)


def position_worth(state: BoardState, seat: int) -> int:
    """What ``seat``'s whole position is worth by this model: its cash and all its holdings (a
    complete group with its earning power, a group a street short with part of it): one of the
    win model's figures (``win_model.py``), by which the ``strong`` level scores a world."""
    p = state.players[seat]
    if p.bankrupt:
        return 0
    b = board_of(state)
    return p.cash + holdings(state, b, _bonus_table(state), seat, b.groups, state.owner)
