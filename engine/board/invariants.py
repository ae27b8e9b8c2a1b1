"""Facts that hold after every board action; simulations and property tests check them.

- money only moves between the bank and players: the players' cash equals the starting cash plus
  what the bank paid out net (``bank_net``);
- 32 houses and 12 hotels in all, on the board or in the bank;
- streets are built evenly (unless ``uneven_building`` is on), only on complete, unmortgaged
  groups, never mortgaged with buildings;
- nobody is below zero cash, and only a debtor may hold less than a debt;
- an auction waiting for its winner to raise the bid (B-05) has that debt open; open rent claims
  (B-06 ``rent_claim``) are between two players still in the game.
"""

from __future__ import annotations

from operator import itemgetter

from engine.board.data import RULESETS, board
from engine.board.model import BANK, HOTEL, BoardState
from engine.board.rules import board_of, start_cash

# they run after every action of a simulation: each board's groups and the squares off its
# streets are read in one C call each
_GROUPS = {r: tuple((g, squares, itemgetter(*squares)) for g, squares in board(r).groups.items()) for r in RULESETS}
_PROPERTIES = {r: itemgetter(*board(r).properties) for r in RULESETS}
_OFF_STREET = {r: tuple(sq for sq in range(40) if board(r).kind[sq] != "street") for r in RULESETS}


def violations(state: BoardState) -> list[str]:
    b = board_of(state)
    ruleset = state.options.ruleset
    out = []
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    cash = sum(p.cash for p in state.players)
    expected = start_cash(state.options) * len(state.players) + state.bank_net
    if cash != expected:
        out.append(f"cash {cash} != start + bank net {expected}")
    if state.parking_pot < 0 or (state.parking_pot and not state.options.free_parking_pot):
        out.append(f"free parking pot {state.parking_pot} (option {state.options.free_parking_pot})")
    hotels = houses.count(HOTEL)
    built = sum(houses) - HOTEL * hotels  # houses standing (a hotel's 5 is not houses)
    if built + state.bank_houses != b.money["houses"] or hotels + state.bank_hotels != b.money["hotels"]:
        out.append(f"buildings: {built}+{state.bank_houses} houses, {hotels}+{state.bank_hotels} hotels")
    if state.bank_houses < 0 or state.bank_hotels < 0:
        out.append("the bank holds a negative number of buildings")
    for p in state.players:
        if p.cash < 0:
            out.append(f"seat {p.seat} has negative cash {p.cash}")
        if p.bankrupt and (p.cash or p.seat in _PROPERTIES[ruleset](owner)):
            out.append(f"bankrupt seat {p.seat} still holds something")
    if any(houses):
        for group, squares, get in _GROUPS[ruleset]:
            levels = get(houses)
            if any(levels):
                first = owner[squares[0]]
                if first == BANK or get(owner).count(first) != len(squares):
                    out.append(f"{group}: buildings without the whole group")
                if max(levels) - min(levels) > 1 and not state.options.uneven_building:  # B-11 house rule
                    out.append(f"{group}: built unevenly {list(levels)}")
                if True in get(mortgaged):
                    out.append(f"{group}: mortgaged with buildings")
    off_street = _OFF_STREET[ruleset]
    if True in mortgaged or any(houses[sq] for sq in off_street):
        for sq in range(40):
            if houses[sq] and sq in off_street:
                out.append(f"square {sq}: buildings off a street")
            if mortgaged[sq] and owner[sq] == BANK:
                out.append(f"square {sq}: the bank holds a mortgage")
    held = sum(len(p.jail_cards) for p in state.players)
    if len(state.chance) + len(state.chest) + held != len(b.chance) + len(b.chest):
        out.append("cards lost or duplicated")
    a = state.auction
    if a is not None and a.settling and not any(
            d.debtor == a.high_bidder and d.reason == "auction" and d.amount == a.high_bid for d in state.debts):
        out.append("an auction waits for a payment nobody owes")
    for c in state.rent_claims:
        if state.players[c.owner].bankrupt or state.players[c.payer].bankrupt or c.owner == c.payer:
            out.append(f"rent claim on square {c.square} between {c.owner} and {c.payer}")
    if state.stage == "over" and not state.winners:
        out.append("game over without a winner")
    return out
