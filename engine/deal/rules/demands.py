"""Demands, the answers out of turn: one opened per target, the Just Say No windows (D-13), an action
going through or cancelled, payment (D-14) and placing a received House or Hotel."""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.deal import area, payment
from engine.deal.cards import ACTION, IS_MULTI, IS_PROPERTY, N_CARDS, VALUE
from engine.deal.model import (
    Accept,
    AutoPay,
    BuildingPlaced,
    ConfirmPayment,
    DealState,
    Demand,
    DemandCancelled,
    DemandOpened,
    JustSayNo,
    Paid,
    PlaceBuilding,
    Player,
    PropertyTaken,
    SaidNo,
    TogglePayment,
)
from engine.deal.rules.base import PAY_KINDS, _group_holding, _has_jsn


def _open(state: DealState, events: list, kind: str, attacker: int, target: int, card: int,
          amount: int = 0, take: int | None = None, give: int | None = None) -> None:
    d = Demand(id=state.next_demand, kind=kind, attacker=attacker, target=target, card=card,
               amount=amount, take=take, give=give)
    state.next_demand += 1
    events.append(DemandOpened(demand=d.id, kind=kind, attacker=attacker, target=target, amount=amount))
    state.pending.append(d)
    t = state.players[target]
    if kind in PAY_KINDS and not payment.payable_total(t):
        _go_through(state, d, events)  # nothing on the table: nothing to say no to (D-14)
    elif _asked(state, t):
        d.stage = "respond"
    else:
        _go_through(state, d, events)


def _asked(state: DealState, p: Player) -> bool:
    """D-13: does ``p`` get a window to say no? Always with ``open_answers``, else only with a card."""
    return state.options.open_answers or _has_jsn(p)


def _find_demand(state: DealState, demand_id: int) -> Demand:
    for d in state.pending:
        if d.id == demand_id:
            return d
    raise RuleError("D-13", "deal.err.no_such_demand", demand=demand_id)


def _require_answer(state: DealState, seat: int, demand_id: int, stages: tuple[str, ...]) -> Demand:
    d = _find_demand(state, demand_id)
    who = d.attacker if d.stage in ("counter", "place") else d.target
    if d.stage not in stages or seat != who:
        raise RuleError("D-13", "deal.err.not_your_answer", demand=demand_id)
    return d


def _h_jsn(state: DealState, seat: int, action: JustSayNo, events: list) -> None:
    d = _require_answer(state, seat, action.demand, ("respond", "counter"))
    p = state.players[seat]
    if action.card not in p.hand or ACTION[action.card] != "just_say_no":
        raise RuleError("D-13", "deal.err.no_jsn", card=action.card)
    p.hand.remove(action.card)  # D-13: an answer, not one of the 3 plays
    state.discard_pile.append(action.card)
    d.refusals += 1
    events.append(SaidNo(demand=d.id, seat=seat, card=action.card, refusals=d.refusals))
    other = state.players[d.attacker if d.stage == "respond" else d.target]
    if d.stage == "respond":
        if _asked(state, other):
            d.stage = "counter"
        else:
            _cancel(state, d, events)
    elif _asked(state, other):
        d.stage = "respond"
    else:
        _go_through(state, d, events)


def _h_accept(state: DealState, seat: int, action: Accept, events: list) -> None:
    d = _require_answer(state, seat, action.demand, ("respond", "counter"))
    if d.stage == "respond":
        _go_through(state, d, events)
    else:
        _cancel(state, d, events)


def _cancel(state: DealState, d: Demand, events: list) -> None:
    state.pending.remove(d)
    events.append(DemandCancelled(demand=d.id, kind=d.kind, attacker=d.attacker, target=d.target))


def _go_through(state: DealState, d: Demand, events: list) -> None:
    attacker, target = state.players[d.attacker], state.players[d.target]
    if d.kind in PAY_KINDS:
        cats = payment.payable(target)
        if sum(VALUE[c] for c in cats) > d.amount:
            d.stage = "pay"
            return
        _pay(state, d, sorted(cats), events)  # D-14: less than the debt pays everything, nothing pays nothing
        return
    if d.kind == "sly_deal":
        area.remove_card(target, d.take)
        _receive_property(state, attacker, d.take)
        events.append(PropertyTaken(demand=d.id, from_seat=d.target, to_seat=d.attacker, cards=[d.take]))
    elif d.kind == "forced_deal":
        area.remove_card(target, d.take)
        area.remove_card(attacker, d.give)
        _receive_property(state, attacker, d.take)
        _receive_property(state, target, d.give)
        events.append(PropertyTaken(demand=d.id, from_seat=d.target, to_seat=d.attacker, cards=[d.take]))
        events.append(PropertyTaken(demand=d.id, from_seat=d.attacker, to_seat=d.target, cards=[d.give]))
    elif d.kind == "deal_breaker":
        g = target.groups.pop(_group_holding(target, d.take))
        attacker.groups.append(g)  # D-11: the whole set, with its House/Hotel
        taken = list(g.cards) + [b for b in (g.house, g.hotel) if b is not None]
        events.append(PropertyTaken(demand=d.id, from_seat=d.target, to_seat=d.attacker, cards=taken))
    state.pending.remove(d)


def _receive_property(state: DealState, p: Player, card: int) -> None:
    colour, group = area.best_spot(p, card, state.options)
    area.place(p, card, colour, group)


def _pay(state: DealState, d: Demand, cards: list[int], events: list) -> None:
    """D-14: move the chosen cards; money to the bank, properties to the area, buildings placed.

    A House/Hotel received goes into the receiver's bank as money with ``buildings_to_bank``
    (standard, seed 003 FAQ 30: "the Hotel and House become money in the other player's bank");
    otherwise (tournament, seed 004: "may be put on one's own complete set or used as cash") the
    receiver chooses, when there is a set it may go on.
    """
    payer, payee = state.players[d.target], state.players[d.attacker]
    buildings = []
    for c in cards:
        if c in payer.bank:
            payer.bank.remove(c)
            payee.bank.append(c)
        elif IS_PROPERTY[c]:
            area.remove_card(payer, c)
            _receive_property(state, payee, c)
        else:
            area.remove_building(payer, c)
            buildings.append(c)
    events.append(Paid(demand=d.id, payer=d.target, payee=d.attacker, cards=list(cards),
                       total=sum(VALUE[c] for c in cards)))
    # a Hotel can only go where a House is, so place Houses first
    d.to_place = sorted(buildings, key=lambda c: ACTION[c] != "house")
    if state.options.buildings_to_bank:
        for c in d.to_place:
            payee.bank.append(c)
            events.append(BuildingPlaced(seat=payee.seat, card=c, group=None))
        d.to_place = []
    _place_or_bank(state, d, events)


def _place_or_bank(state: DealState, d: Demand, events: list) -> None:
    """Received buildings with nowhere to go are banked at once; otherwise the receiver chooses."""
    payee = state.players[d.attacker]
    while d.to_place:
        c = d.to_place[0]
        if area.building_targets(payee, ACTION[c], state.options):
            d.stage = "place"
            return
        d.to_place.pop(0)
        payee.bank.append(c)
        events.append(BuildingPlaced(seat=payee.seat, card=c, group=None))
    state.pending.remove(d)


def _h_toggle(state: DealState, seat: int, action: TogglePayment, events: list) -> None:
    d = _require_answer(state, seat, action.demand, ("pay",))
    if not 0 <= action.card < N_CARDS:  # no such card: nothing to look up (IS_MULTI[-1] is a real card)
        raise RuleError("D-14", "deal.err.no_such_card", card=action.card)
    if action.card not in payment.payable(state.players[seat]):
        key = "deal.err.pay_multicolour" if IS_MULTI[action.card] else "deal.err.pay_not_on_table"
        raise RuleError("D-06" if IS_MULTI[action.card] else "D-14", key, card=action.card)
    if action.card in d.selected:
        d.selected.remove(action.card)
    else:
        d.selected.append(action.card)


def _h_confirm(state: DealState, seat: int, action: ConfirmPayment, events: list) -> None:
    d = _require_answer(state, seat, action.demand, ("pay",))
    payment.check_selection(state.players[seat], d.selected, d.amount, state.options)
    cards, d.selected = list(d.selected), []
    _pay(state, d, cards, events)


def _h_autopay(state: DealState, seat: int, action: AutoPay, events: list) -> None:
    d = _require_answer(state, seat, action.demand, ("pay",))
    d.selected = []
    _pay(state, d, payment.auto_selection(state.players[seat], d.amount, state.options), events)


def _h_place(state: DealState, seat: int, action: PlaceBuilding, events: list) -> None:
    d = _require_answer(state, seat, action.demand, ("place",))
    if action.card not in d.to_place:
        raise RuleError("D-14", "deal.err.not_received", card=action.card)
    p = state.players[seat]
    kind = ACTION[action.card]
    if action.group is not None and action.group not in area.building_targets(p, kind, state.options):
        raise RuleError("D-12", "deal.err.build_incomplete", group=action.group)
    d.to_place.remove(action.card)
    if action.group is None:
        p.bank.append(action.card)
    elif kind == "house":
        p.groups[action.group].house = action.card
    else:
        p.groups[action.group].hotel = action.card
    events.append(BuildingPlaced(seat=seat, card=action.card, group=action.group))
    d.stage = "pay"  # neutral until _place_or_bank decides again
    _place_or_bank(state, d, events)
