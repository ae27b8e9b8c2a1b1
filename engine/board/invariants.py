"""Facts that hold after every board action; simulations and property tests check them.

- money only moves between the bank and players: the players' cash equals the starting cash plus
  what the bank paid out net (``bank_net``);
- 32 houses and 12 hotels in all, on the board or in the bank;
- streets are built evenly, only on complete, unmortgaged groups, never mortgaged with buildings;
- nobody is below zero cash, and only a debtor may hold less than a debt;
- an auction waiting for its winner to raise the bid (B-05) has that debt open; open rent claims
  (B-06 ``rent_claim``) are between two players still in the game.
"""

from __future__ import annotations

from engine.board.model import BANK, HOTEL, BoardState
from engine.board.rules import board_of, owns_group, start_cash


def violations(state: BoardState) -> list[str]:
    b = board_of(state)
    out = []
    cash = sum(p.cash for p in state.players)
    expected = start_cash(state.options) * len(state.players) + state.bank_net
    if cash != expected:
        out.append(f"cash {cash} != start + bank net {expected}")
    houses = sum(h for h in state.houses if h < HOTEL)
    hotels = sum(1 for h in state.houses if h == HOTEL)
    if houses + state.bank_houses != b.money["houses"] or hotels + state.bank_hotels != b.money["hotels"]:
        out.append(f"buildings: {houses}+{state.bank_houses} houses, {hotels}+{state.bank_hotels} hotels")
    if state.bank_houses < 0 or state.bank_hotels < 0:
        out.append("the bank holds a negative number of buildings")
    for p in state.players:
        if p.cash < 0:
            out.append(f"seat {p.seat} has negative cash {p.cash}")
        if p.bankrupt and (p.cash or any(state.owner[sq] == p.seat for sq in b.properties)):
            out.append(f"bankrupt seat {p.seat} still holds something")
    for group, squares in b.groups.items():
        levels = [state.houses[sq] for sq in squares]
        if any(levels):
            owner = state.owner[squares[0]]
            if owner == BANK or not owns_group(state, owner, group):
                out.append(f"{group}: buildings without the whole group")
            if max(levels) - min(levels) > 1:
                out.append(f"{group}: built unevenly {levels}")
            if any(state.mortgaged[sq] for sq in squares):
                out.append(f"{group}: mortgaged with buildings")
    for sq in range(40):
        if state.houses[sq] and b.kind[sq] != "street":
            out.append(f"square {sq}: buildings off a street")
        if state.mortgaged[sq] and state.owner[sq] == BANK:
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
