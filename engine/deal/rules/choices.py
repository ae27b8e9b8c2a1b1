"""``legal_actions``: every action a seat may take now, exactly what ``apply`` accepts. The options of
each card in the hand on one's turn (D-03 … D-12), the free re-arranging moves (D-06), the answers
to pending demands (D-13, D-14), and the narrowed lists the AI asks for."""

from __future__ import annotations

from collections.abc import Callable, Collection

from engine.core.errors import RuleError
from engine.core.values import SYSTEM
from engine.deal import area, payment
from engine.deal.cards import ACTION, COLOUR_KEYS, IS_SINGLE, KIND, PLACEABLE, RENT_COLOURS, SET_SIZE
from engine.deal.model import (
    Accept,
    AutoPay,
    BankCard,
    ConfirmPayment,
    DealState,
    Demand,
    Discard,
    EndMatch,
    EndTurn,
    JustSayNo,
    LayProperty,
    MoveProperty,
    PlaceBuilding,
    PlayBirthday,
    PlayBuilding,
    PlayDealBreaker,
    PlayDebtCollector,
    Player,
    PlayForcedDeal,
    PlayPassGo,
    PlayRent,
    PlaySlyDeal,
    TogglePayment,
)
from engine.deal.rules.base import _others, _takeable, _unique_by_key, current_seat


def legal_actions(state: DealState, seat: int) -> list:
    """Every action ``seat`` may take now; exactly what ``apply`` accepts (a test checks both ways)."""
    if state.phase == "over":
        return []
    if seat == SYSTEM:
        return [EndMatch()]  # the service's clock may end a match at any moment (D-16)
    if state.pending:
        return pending_options(state, seat)
    if seat != current_seat(state):
        return []
    if state.phase == "discard":
        return [Discard(card=c) for c in _unique_by_key(state.players[seat].hand)]
    return turn_options(state, seat)


def turn_options(state: DealState, seat: int, moves_into: Collection[int] | None = None,
                 forced_takes: Callable[[int], bool] | None = None,
                 forced_give_cost: Callable[[int], float] | None = None) -> list:
    """``legal_actions`` of the player on turn in the play phase. With ``moves_into``, the
    re-arranging moves are only the plain ones into those groups (no new pile, no replacement);
    with ``forced_takes``, the Forced Deals are only those taking a card it accepts, and with
    ``forced_give_cost`` only those giving a card it costs least to give; all in the same order.
    The AI asks for these, the only ones it could choose (a Forced Deal has the most choices of
    any card, one per card to give times card to take)."""
    p = state.players[seat]
    out: list = [EndTurn()]
    if state.plays_left <= 0:
        if state.options.rearrange_after_last_play:
            out += _moves(state, p, moves_into)  # D-06 standard: still free after the last play
        return out
    others = _others(state, seat)
    takeable: dict[int, list[int]] = {}  # by seat, worked out once for all the cards played on it
    for c in _unique_by_key(p.hand):
        kind = KIND[c]
        if kind in ("property", "wild"):
            out += _lay_options(p, c)
            continue
        out.append(BankCard(card=c))
        if kind == "action":
            out += _action_options(state, p, c, others, takeable, forced_takes, forced_give_cost)
        elif kind == "rent":
            out += _rent_options(state, p, c, others)
    out += _moves(state, p, moves_into)
    return out


def _lay_options(p: Player, c: int) -> list:
    allowed = PLACEABLE[c]
    colours = allowed if allowed is not None else COLOUR_KEYS
    out = []
    for i, g in enumerate(p.groups):
        if g.colour is not None:
            if g.colour in colours and area.fits(g, c, g.colour):
                out.append(LayProperty(card=c, colour=g.colour, group=i))
        else:
            for col in colours:
                if area.fits(g, c, col):
                    out.append(LayProperty(card=c, colour=col, group=i))
            if area.fits(g, c, None):
                out.append(LayProperty(card=c, colour=None, group=i))
    if allowed is None:
        out.append(LayProperty(card=c, colour=None, group=None))
    else:
        out += [LayProperty(card=c, colour=col, group=None) for col in allowed]
    return out


def _action_options(state: DealState, p: Player, c: int, others: list[int], takeable: dict[int, list[int]],
                    forced_takes: Callable[[int], bool] | None = None,
                    forced_give_cost: Callable[[int], float] | None = None) -> list:
    a = ACTION[c]
    opts = state.options
    if a == "pass_go":
        return [PlayPassGo(card=c)]
    if a in ("house", "hotel"):
        return [PlayBuilding(card=c, group=i) for i in area.building_targets(p, a, opts)]
    if a == "birthday":
        return [PlayBirthday(card=c)]
    if a == "debt_collector":
        return [PlayDebtCollector(card=c, target=t) for t in others]

    if a == "sly_deal":
        return [PlaySlyDeal(card=c, target=t, take=x) for t in others for x in _takes(state, takeable, t)]
    if a == "forced_deal":  # the most choices of any card: built positionally (card, give, target, take)
        gives = _takes(state, takeable, p.seat)
        if forced_give_cost is not None and len(gives) > 1:
            costs = [forced_give_cost(give) for give in gives]
            least = min(costs)
            gives = [give for give, cost in zip(gives, costs, strict=True) if cost == least]
        return [PlayForcedDeal(c, give, t, x) for t in others for x in _takes(state, takeable, t)
                if forced_takes is None or forced_takes(x) for give in gives]
    if a == "deal_breaker":
        return [
            PlayDealBreaker(card=c, target=t, group=i)
            for t in others
            for i, g in enumerate(state.players[t].groups)
            if area.is_complete(g, opts)
        ]
    return []  # Just Say No and Double The Rent are never played on their own (D-09, D-13)


def _takes(state: DealState, takeable: dict[int, list[int]], seat: int) -> list[int]:
    """``_takeable`` of ``seat``, worked out once per ``turn_options`` for all the cards played on it."""
    cards = takeable.get(seat)
    if cards is None:
        cards = takeable[seat] = _takeable(state, state.players[seat])
    return cards


def _rent_groups(p: Player, c: int) -> list[int]:
    """D-08: groups of the card's colours (any colour for the wild rent) that bring rent."""
    cols = RENT_COLOURS[c]
    return [
        i for i, g in enumerate(p.groups)
        if g.colour is not None and g.cards and (cols is None or g.colour in cols)
    ]


def _rent_options(state: DealState, p: Player, c: int, others: list[int]) -> list:
    groups = _rent_groups(p, c)
    if not groups:
        return []
    doubles = [d for d in p.hand if ACTION[d] == "double_rent"]
    most = min(len(doubles), state.plays_left - 1, 1 if state.options.single_double_rent else 2)
    targets: list[int | None] = others if not RENT_COLOURS[c] else [None]
    return [
        PlayRent(card=c, group=i, target=t, doubles=tuple(doubles[:k]))
        for i in groups
        for k in range(most + 1)
        for t in targets
    ]


def _move_options(state: DealState, p: Player) -> list:
    """D-06: free re-arranging of one's own properties and wilds."""
    return list(_moves(state, p))


def _moves(state: DealState, p: Player, into: Collection[int] | None = None):
    """The re-arranging moves of ``_move_options``, one at a time (``_may_rearrange`` needs only
    the first); with ``into``, only the plain moves into those groups (``turn_options``)."""
    if into is not None and not into:  # most turns: no group to move into
        return
    groups = p.groups
    built = [h.house is not None or h.hotel is not None for h in groups]
    targets = range(len(groups)) if into is None else sorted(into)
    for si, g in enumerate(groups):
        if built[si]:
            continue  # cards under a building move only by replacement (below)
        alone = len(g.cards) == 1
        for c in g.cards:
            allowed = PLACEABLE[c]
            for ti in targets:
                if ti == si:
                    continue
                h = groups[ti]
                hc = h.colour
                if hc is not None:
                    if (allowed is None or hc in allowed) and len(h.cards) < SET_SIZE[hc]:
                        yield MoveProperty(card=c, colour=hc, group=ti)
                elif allowed is None:
                    if len(h.cards) < 4:
                        yield MoveProperty(card=c, colour=None, group=ti)
                else:
                    for col in allowed:
                        if area.fits(h, c, col):
                            yield MoveProperty(card=c, colour=col, group=ti)
            if into is not None:
                continue
            for col in allowed if allowed is not None else (None,):
                if not alone or col != g.colour:
                    yield MoveProperty(card=c, colour=col, group=None)
    if into is not None:
        return
    opts = state.options
    for ti, h in enumerate(groups):
        if not built[ti] or not area.is_complete(h, opts):
            continue
        wilds = [w for w in h.cards if not IS_SINGLE[w]]
        if not wilds:
            continue
        for si, g in enumerate(groups):
            if si == ti or built[si]:
                continue
            for c in g.cards:
                allowed = PLACEABLE[c]
                if allowed is None or h.colour in allowed:
                    for w in wilds:
                        yield MoveProperty(card=c, colour=h.colour, group=ti, replace=w)


def pending_options(state: DealState, seat: int, pick_cards: bool = True) -> list:
    """``legal_actions`` while demands are pending. Without ``pick_cards`` a payment is offered as
    ``AutoPay`` alone, without the card-by-card choice: what the AI asks for, which always pays
    automatically."""
    out: list = []
    for d in state.pending:
        out += _demand_actions(state, d, seat, pick_cards)
    return out


def _demand_actions(state: DealState, d: Demand, seat: int, pick_cards: bool = True) -> list:
    if d.stage == "respond" and seat == d.target or d.stage == "counter" and seat == d.attacker:
        p = state.players[seat]
        jsn = [JustSayNo(demand=d.id, card=c) for c in _unique_by_key(p.hand) if ACTION[c] == "just_say_no"]
        return jsn + [Accept(demand=d.id)]
    if d.stage == "pay" and seat == d.target:
        if not pick_cards:
            return [AutoPay(demand=d.id)]
        p = state.players[seat]
        out: list = [AutoPay(demand=d.id)]
        if d.selected:  # an empty choice never pays a debt the table can cover
            try:
                payment.check_selection(p, d.selected, d.amount, state.options)
                out.append(ConfirmPayment(demand=d.id))
            except RuleError:
                pass
        out += [TogglePayment(demand=d.id, card=c) for c in payment.payable(p)]
        return out
    if d.stage == "place" and seat == d.attacker:
        p = state.players[seat]
        out = []
        for c in d.to_place:
            for i in area.building_targets(p, ACTION[c], state.options):
                out.append(PlaceBuilding(demand=d.id, card=c, group=i))
            out.append(PlaceBuilding(demand=d.id, card=c, group=None))
        return out
    return []
