"""Paying a debt with table cards (D-14): what may pay, whether a choice is valid, and the
"pay automatically" choice that loses the least.

No change is given. The hand never pays. The multicolour wild never pays (D-06). A House leaves
a set only after its Hotel (D-12). With ``ordered_payment`` the bank goes first and, when it
cannot cover the debt, Hotels, then Houses, then properties: both rule sets have it (seed 003's
rules pay from the bank, then with properties, and its FAQ 30 gives the Hotel first, then the
House; seed 004 states the same order). Without it (Deal games stored before the standard rule
set had it) any payable card may be chosen.
"""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.deal.area import is_complete
from engine.deal.cards import IS_MULTI, N_CARDS, VALUE
from engine.deal.model import DealOptions, Player

BANK, HOTEL, HOUSE, PROPERTY = range(4)


def payable(player: Player) -> dict[int, int]:
    """Card id -> category, for every card on the table that can pay."""
    out = {c: BANK for c in player.bank}
    for g in player.groups:
        if g.hotel is not None:
            out[g.hotel] = HOTEL
        if g.house is not None:
            out[g.house] = HOUSE
        for c in g.cards:
            if not IS_MULTI[c]:
                out[c] = PROPERTY
    return out


def payable_total(player: Player) -> int:
    total = 0
    for c in player.bank:
        total += VALUE[c]
    for g in player.groups:
        for c in g.cards:
            total += VALUE[c]  # the multicolour wild is worth 0, so it adds nothing
        if g.house is not None:
            total += VALUE[g.house]
        if g.hotel is not None:
            total += VALUE[g.hotel]
    return total


def _hotel_of_house(player: Player) -> dict[int, int]:
    return {g.house: g.hotel for g in player.groups if g.house is not None and g.hotel is not None}


def check_selection(player: Player, selected: list[int], amount: int, options: DealOptions) -> None:
    """Raise ``RuleError`` unless ``selected`` is a complete, valid payment of ``amount``."""
    cats = payable(player)
    if len(set(selected)) != len(selected):
        raise RuleError("D-14", "deal.err.pay_duplicate")
    for c in selected:
        if c not in cats:
            if not 0 <= c < N_CARDS:
                raise RuleError("D-14", "deal.err.no_such_card", card=c)
            if IS_MULTI[c]:
                raise RuleError("D-06", "deal.err.pay_multicolour", card=c)
            raise RuleError("D-14", "deal.err.pay_not_on_table", card=c)
    chosen = set(selected)
    for house, hotel in _hotel_of_house(player).items():
        if house in chosen and hotel not in chosen:
            raise RuleError("D-12", "deal.err.pay_hotel_before_house", card=house, hotel=hotel)
    total = sum(VALUE[c] for c in selected)
    if total < amount and chosen != set(cats):
        raise RuleError("D-14", "deal.err.pay_not_enough", total=total, amount=amount)
    if options.ordered_payment and selected:
        top = max(cats[c] for c in selected)
        for c, cat in cats.items():
            if cat < top and c not in chosen:
                raise RuleError("D-14", "deal.err.pay_order", card=c)
        below = sum(VALUE[c] for c in selected if cats[c] < top)
        if top > BANK and below >= amount:
            raise RuleError("D-14", "deal.err.pay_order_enough", amount=amount)


def problem(player: Player, selected: list[int], amount: int, options: DealOptions) -> RuleError | None:
    """Why the cards chosen so far cannot be paid as they are (None: they can, or nothing is chosen):
    shown with the choice, so a payer without "confirm" knows what to change."""
    if not selected:
        return None
    try:
        check_selection(player, selected, amount, options)
    except RuleError as e:
        return e
    return None


def _cost(player: Player, options: DealOptions) -> dict[int, int]:
    """What losing each card costs its owner, beyond its face value (properties hurt most)."""
    cost: dict[int, int] = {}
    for c in player.bank:
        cost[c] = 4 * VALUE[c]
    for g in player.groups:
        complete = is_complete(g, options)
        for c in g.cards:
            if not IS_MULTI[c]:
                cost[c] = 4 * VALUE[c] + 4 + 3 * len(g.cards) + (8 if complete else 0)
        if g.house is not None:
            cost[g.house] = 4 * VALUE[g.house] + 2
        if g.hotel is not None:
            cost[g.hotel] = 4 * VALUE[g.hotel] + 2
    return cost


def _cheapest_cover(items: list[int], amount: int, cost: dict[int, int]) -> list[int]:
    """The subset of ``items`` worth at least ``amount`` with the least cost (a small knapsack).

    A card worth the whole debt on its own is only ever used alone, so only the cheapest such
    card is kept as a candidate and the knapsack runs over the smaller cards.
    """
    single: int | None = None
    small: list[int] = []
    for c in items:
        v = VALUE[c]
        if v >= amount:
            if single is None or (cost[c], c) < (cost[single], single):
                single = c
        elif v > 0:
            small.append(c)
    # reachable value (capped at amount) -> (cost, number of cards, bit mask over ``small``)
    best: dict[int, tuple[int, int, int]] = {0: (0, 0, 0)}
    for i, c in enumerate(small):
        v, k, bit = VALUE[c], cost[c], 1 << i
        for s, (sc, n, mask) in list(best.items()):
            if s == amount:
                continue
            t = s + v
            if t > amount:
                t = amount
            old = best.get(t)
            if old is None or sc + k < old[0] or (sc + k == old[0] and n + 1 < old[1]):
                best[t] = (sc + k, n + 1, mask | bit)
    found = best.get(amount)
    if single is not None and (found is None or (cost[single], 1) <= found[:2]):
        return [single]
    if found is None:
        return list(items)
    mask = found[2]
    return [c for i, c in enumerate(small) if mask >> i & 1]


def auto_selection(player: Player, amount: int, options: DealOptions) -> list[int]:
    """The "pay automatically" choice: valid, and losing the least value (properties last)."""
    cats = payable(player)
    if sum(VALUE[c] for c in cats) <= amount:
        return sorted(cats)
    if options.ordered_payment:
        chosen: list[int] = []
        remaining = amount
        for cat in (BANK, HOTEL, HOUSE, PROPERTY):
            items = [c for c, k in cats.items() if k == cat]
            worth = sum(VALUE[c] for c in items)
            if worth >= remaining:
                # the bank alone covers most debts: its cards cost only their value (``_cost``)
                if cat == BANK:  # most debts: money alone, no building to swap for its Hotel
                    return _cheapest_cover(items, remaining, {c: 4 * VALUE[c] for c in items})
                chosen += _cheapest_cover(items, remaining, _cost(player, options))
                return _hotels_before_houses(player, chosen)
            chosen += items
            remaining -= worth
        return sorted(cats)
    picked = _cheapest_cover(sorted(cats), amount, _cost(player, options))
    return _hotels_before_houses(player, picked)


def _hotels_before_houses(player: Player, chosen: list[int]) -> list[int]:
    """A House chosen while its Hotel stays is swapped for that (dearer) Hotel (D-12)."""
    pairs = _hotel_of_house(player)
    out = list(chosen)
    for i, c in enumerate(out):
        hotel = pairs.get(c)
        if hotel is not None and hotel not in out:
            out[i] = hotel
    return out
