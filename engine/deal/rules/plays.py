"""``apply`` and the plays of a turn: the checks of a play (D-03), banking, laying and re-arranging
properties (D-06), the action and rent cards (D-08 … D-12), which open demands, the cut to 7 cards
(D-04), and the turn ending by itself. The table of every action's handler is here because this
module is the one that imports all the modules with handlers (demands, ending)."""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.values import SYSTEM
from engine.deal import area
from engine.deal.cards import (
    ACTION,
    BUILDABLE,
    COLOUR_KEYS,
    IS_MULTI,
    IS_PROPERTY,
    IS_SINGLE,
    KIND,
    PLACEABLE,
    RENT_COLOURS,
)
from engine.deal.model import (
    Accept,
    ActionPlayed,
    AutoPay,
    BankCard,
    Banked,
    ConfirmPayment,
    DealState,
    Discard,
    Discarded,
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
    PropertyLaid,
    PropertyMoved,
    TogglePayment,
)
from engine.deal.rules.base import (
    BIRTHDAY_AMOUNT,
    DEBT_AMOUNT,
    HAND_LIMIT,
    _draw,
    _end_turn,
    _group_holding,
    _others,
    current_seat,
)
from engine.deal.rules.choices import _moves, _rent_groups
from engine.deal.rules.demands import _h_accept, _h_autopay, _h_confirm, _h_jsn, _h_place, _h_toggle, _open
from engine.deal.rules.ending import _check_win, _h_end_match
from engine.deal.rules.views import waiting_for


def apply(state: DealState, seat: int, action) -> list:
    """Validate, then change the state and return the events. Raises ``RuleError`` untouched."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("D-03", "deal.err.unknown_action", action=type(action).__name__)
    if state.phase == "over":
        raise RuleError("D-15", "deal.err.game_over")
    events: list = []
    handler(state, seat, action, events)
    if state.phase != "over" and not _check_win(state, events):
        if not state.pending and state.phase == "play" and state.plays_left <= 0 and not _may_rearrange(state):
            _end_turn(state, events)
    return events


def _h_time_up(state: DealState, seat: int, action: EndMatch, events: list) -> None:
    """D-16: the match clock ran out. With ``settle_at_time_up`` what is in progress resolves first,
    each open demand answered as its own clock would answer it (a Just Say No window closes and the
    action goes through, a debt is paid automatically, a received building is placed), so a
    creditor is never valued without what they are owed and a debtor cannot run the clock down;
    a payment that completes a third set wins by sets (D-15). Then the tables are valued."""
    if seat != SYSTEM:
        raise RuleError("D-16", "deal.err.clock_only")
    # each answer closes a demand or moves it on a stage (respond, counter, pay, place): bounded
    for _ in range(8 * len(state.pending) if state.options.settle_at_time_up else 0):
        if not state.pending:
            break
        decision = waiting_for(state)[0]
        _HANDLERS[type(decision.timeout)](state, decision.seat, decision.timeout, events)
        if _check_win(state, events):
            return
    _h_end_match(state, seat, action, events)


def _may_rearrange(state: DealState) -> bool:
    """D-06 after the last play: with ``rearrange_after_last_play`` (standard, seed 003 FAQ 9/10:
    re-arranging is free on one's own turn) the turn waits for End turn while the player has
    anything to re-arrange; a player with nothing to move is not kept waiting. Without it
    (tournament, seed 004: no re-arranging once the last card has been played and resolved) the
    turn ends at once."""
    if not state.options.rearrange_after_last_play:
        return False
    return next(_moves(state, state.players[current_seat(state)]), None) is not None


def _require_turn(state: DealState, seat: int) -> Player:
    if seat != current_seat(state):
        raise RuleError("D-03", "deal.err.not_your_turn", current=current_seat(state))
    if state.pending:
        raise RuleError("D-13", "deal.err.wait_for_answers")
    if state.phase != "play":
        raise RuleError("D-04", "deal.err.discard_first", count=len(state.players[seat].hand) - HAND_LIMIT)
    return state.players[seat]


def _require_play(state: DealState, seat: int, card: int) -> Player:
    """D-03: a play from the hand, on one's own turn, while plays remain."""
    p = _require_turn(state, seat)
    if state.plays_left <= 0:
        raise RuleError("D-03", "deal.err.no_plays_left")
    if card not in p.hand:
        raise RuleError("D-03", "deal.err.not_in_hand", card=card)
    return p


def _require_action_card(card: int, action: str) -> None:
    if ACTION[card] != action:
        raise RuleError("D-03", "deal.err.wrong_card", card=card, expected=action)


def _require_target(state: DealState, seat: int, target: int | None) -> int:
    if target is None or target == seat or not 0 <= target < len(state.players):
        raise RuleError("D-10", "deal.err.bad_target", target=target)
    return target


def _h_end_turn(state: DealState, seat: int, action: EndTurn, events: list) -> None:
    _require_turn(state, seat)
    _end_turn(state, events)


def _h_bank(state: DealState, seat: int, action: BankCard, events: list) -> None:
    p = _require_play(state, seat, action.card)
    if IS_PROPERTY[action.card]:
        raise RuleError("D-03", "deal.err.bank_property", card=action.card)
    p.hand.remove(action.card)
    p.bank.append(action.card)
    state.plays_left -= 1
    events.append(Banked(seat=seat, card=action.card))


def _check_spot(p: Player, card: int, colour: str | None, group: int | None, rule: str = "D-06") -> None:
    if colour is not None and colour not in COLOUR_KEYS:
        raise RuleError(rule, "deal.err.wrong_colour", card=card, colour=colour)
    if group is None:
        if not area.may_start_group(card, colour):
            raise RuleError(rule, "deal.err.wrong_colour", card=card, colour=colour)
        return
    if not 0 <= group < len(p.groups):
        raise RuleError(rule, "deal.err.no_such_group", group=group)
    g = p.groups[group]
    if not area.fits(g, card, colour):
        allowed = PLACEABLE[card]
        colour_ok = colour is not None and (allowed is None or colour in allowed) and g.colour in (None, colour)
        if colour_ok:
            raise RuleError("D-17", "deal.err.group_full", group=group)
        raise RuleError(rule, "deal.err.wrong_colour", card=card, colour=colour)


def _h_lay(state: DealState, seat: int, action: LayProperty, events: list) -> None:
    p = _require_play(state, seat, action.card)
    if not IS_PROPERTY[action.card]:
        raise RuleError("D-03", "deal.err.not_property", card=action.card)
    _check_spot(p, action.card, action.colour, action.group)
    p.hand.remove(action.card)
    i = area.place(p, action.card, action.colour, action.group)
    state.plays_left -= 1
    events.append(PropertyLaid(seat=seat, card=action.card, colour=p.groups[i].colour, group=i))


def _h_move(state: DealState, seat: int, action: MoveProperty, events: list) -> None:
    last_play_done = state.plays_left <= 0 and not state.options.rearrange_after_last_play
    if seat != current_seat(state) or state.pending or state.phase != "play" or last_play_done:
        raise RuleError("D-06", "deal.err.rearrange_when")
    p = state.players[seat]
    card = action.card
    si = _group_holding(p, card)
    if si < 0:
        raise RuleError("D-06", "deal.err.not_your_property", card=card)
    src = p.groups[si]
    if src.house is not None or src.hotel is not None:
        raise RuleError("D-06", "deal.err.under_building", card=card)
    if action.replace is None:
        if action.group == si:
            raise RuleError("D-06", "deal.err.move_nothing", card=card)
        _check_spot(p, card, action.colour, action.group)
        if action.group is None and len(src.cards) == 1 and action.colour == src.colour:
            raise RuleError("D-06", "deal.err.move_nothing", card=card)
        target = p.groups[action.group] if action.group is not None else None
        area.remove_card(p, card)
        if target is None:
            i = area.place(p, card, action.colour, None)
        else:
            i = next(k for k, g in enumerate(p.groups) if g is target)
            area.place(p, card, action.colour, i)
        events.append(PropertyMoved(seat=seat, card=card, colour=p.groups[i].colour, group=i))
        return
    # D-06: a card under a House/Hotel leaves only when a same-colour card takes its place
    if action.group is None or not 0 <= action.group < len(p.groups) or action.group == si:
        raise RuleError("D-06", "deal.err.no_such_group", group=action.group)
    target = p.groups[action.group]
    allowed = PLACEABLE[card]
    if (
        action.replace not in target.cards
        or IS_SINGLE[action.replace]
        or action.colour != target.colour
        or (allowed is not None and target.colour not in allowed)
        or (target.house is None and target.hotel is None)
        or not area.is_complete(target, state.options)  # as offered: a built set that lost a card just grows
    ):
        raise RuleError("D-06", "deal.err.bad_replacement", card=card, replace=action.replace)
    out_card = action.replace
    area.remove_card(p, card)
    target.cards[target.cards.index(out_card)] = card
    out_colour = target.colour if not IS_MULTI[out_card] else None
    p.groups.append(area.Group(colour=out_colour, cards=[out_card]))
    i = next(k for k, g in enumerate(p.groups) if g is target)
    events.append(PropertyMoved(seat=seat, card=card, colour=target.colour, group=i))
    events.append(PropertyMoved(seat=seat, card=out_card, colour=out_colour, group=len(p.groups) - 1))


def _discard_action(state: DealState, p: Player, card: int, plays: int = 1) -> None:
    p.hand.remove(card)
    state.discard_pile.append(card)
    state.plays_left -= plays


def _h_pass_go(state: DealState, seat: int, action: PlayPassGo, events: list) -> None:
    p = _require_play(state, seat, action.card)
    _require_action_card(action.card, "pass_go")
    _discard_action(state, p, action.card)
    events.append(ActionPlayed(seat=seat, card=action.card, action="pass_go"))
    _draw(state, p, 2, events)


def _h_build(state: DealState, seat: int, action: PlayBuilding, events: list) -> None:
    p = _require_play(state, seat, action.card)
    kind = ACTION[action.card]
    if kind not in ("house", "hotel"):
        raise RuleError("D-03", "deal.err.wrong_card", card=action.card, expected="house")
    if action.group not in area.building_targets(p, kind, state.options):
        g = p.groups[action.group] if 0 <= action.group < len(p.groups) else None
        if g is not None and g.colour is not None and not BUILDABLE[g.colour]:
            raise RuleError("D-12", "deal.err.build_not_here", colour=g.colour)
        if kind == "hotel" and g is not None and g.house is None:
            raise RuleError("D-12", "deal.err.hotel_needs_house")
        raise RuleError("D-12", "deal.err.build_incomplete", group=action.group)
    p.hand.remove(action.card)
    g = p.groups[action.group]
    if kind == "house":
        g.house = action.card
    else:
        g.hotel = action.card
    state.plays_left -= 1
    events.append(ActionPlayed(seat=seat, card=action.card, action=kind, colour=g.colour))


def _h_debt(state: DealState, seat: int, action: PlayDebtCollector, events: list) -> None:
    p = _require_play(state, seat, action.card)
    _require_action_card(action.card, "debt_collector")
    target = _require_target(state, seat, action.target)
    _discard_action(state, p, action.card)
    events.append(ActionPlayed(seat=seat, card=action.card, action="debt_collector", targets=[target],
                               amount=DEBT_AMOUNT))
    _open(state, events, "debt", seat, target, action.card, amount=DEBT_AMOUNT)


def _h_birthday(state: DealState, seat: int, action: PlayBirthday, events: list) -> None:
    p = _require_play(state, seat, action.card)
    _require_action_card(action.card, "birthday")
    _discard_action(state, p, action.card)
    targets = _others(state, seat)
    events.append(ActionPlayed(seat=seat, card=action.card, action="birthday", targets=targets,
                               amount=BIRTHDAY_AMOUNT))
    for t in targets:
        _open(state, events, "birthday", seat, t, action.card, amount=BIRTHDAY_AMOUNT)


def _h_rent(state: DealState, seat: int, action: PlayRent, events: list) -> None:
    p = _require_play(state, seat, action.card)
    c = action.card
    if KIND[c] != "rent":
        raise RuleError("D-03", "deal.err.wrong_card", card=c, expected="rent")
    if action.group not in _rent_groups(p, c):
        raise RuleError("D-08", "deal.err.rent_colour", card=c)
    doubles = list(action.doubles)
    limit = 1 if state.options.single_double_rent else 2
    if len(doubles) > limit:
        raise RuleError("D-09", "deal.err.too_many_doubles", limit=limit)
    if len(set(doubles)) != len(doubles) or any(d not in p.hand or ACTION[d] != "double_rent" for d in doubles):
        raise RuleError("D-09", "deal.err.double_not_in_hand")
    if 1 + len(doubles) > state.plays_left:
        raise RuleError("D-09", "deal.err.double_plays", plays_left=state.plays_left)
    wild = RENT_COLOURS[c] is None
    if wild:
        targets = [_require_target(state, seat, action.target)]
    elif action.target is not None:
        raise RuleError("D-08", "deal.err.rent_all_players")
    else:
        targets = _others(state, seat)
    g = p.groups[action.group]
    amount = area.group_rent(g, state.options) * (2 ** len(doubles))
    _discard_action(state, p, c)
    for d in doubles:
        _discard_action(state, p, d)
    events.append(ActionPlayed(seat=seat, card=c, action="rent", targets=targets, colour=g.colour,
                               amount=amount, doubles=doubles))
    for t in targets:
        _open(state, events, "rent", seat, t, c, amount=amount)


def _h_sly(state: DealState, seat: int, action: PlaySlyDeal, events: list) -> None:
    p = _require_play(state, seat, action.card)
    _require_action_card(action.card, "sly_deal")
    target = _require_target(state, seat, action.target)
    _require_takeable(state, target, action.take)
    _discard_action(state, p, action.card)
    events.append(ActionPlayed(seat=seat, card=action.card, action="sly_deal", targets=[target]))
    _open(state, events, "sly_deal", seat, target, action.card, take=action.take)


def _require_takeable(state: DealState, seat: int, card: int) -> None:
    p = state.players[seat]
    i = _group_holding(p, card)
    if i < 0:
        raise RuleError("D-11", "deal.err.not_their_property", card=card)
    if area.is_complete(p.groups[i], state.options):
        raise RuleError("D-11", "deal.err.from_complete_set", card=card)


def _h_forced(state: DealState, seat: int, action: PlayForcedDeal, events: list) -> None:
    p = _require_play(state, seat, action.card)
    _require_action_card(action.card, "forced_deal")
    target = _require_target(state, seat, action.target)
    _require_takeable(state, seat, action.give)
    _require_takeable(state, target, action.take)
    _discard_action(state, p, action.card)
    events.append(ActionPlayed(seat=seat, card=action.card, action="forced_deal", targets=[target]))
    _open(state, events, "forced_deal", seat, target, action.card, take=action.take, give=action.give)


def _h_breaker(state: DealState, seat: int, action: PlayDealBreaker, events: list) -> None:
    p = _require_play(state, seat, action.card)
    _require_action_card(action.card, "deal_breaker")
    target = _require_target(state, seat, action.target)
    groups = state.players[target].groups
    if not 0 <= action.group < len(groups) or not area.is_complete(groups[action.group], state.options):
        raise RuleError("D-11", "deal.err.breaker_incomplete", group=action.group)
    _discard_action(state, p, action.card)
    events.append(ActionPlayed(seat=seat, card=action.card, action="deal_breaker", targets=[target],
                               colour=groups[action.group].colour))
    _open(state, events, "deal_breaker", seat, target, action.card, take=groups[action.group].cards[0])


def _h_discard(state: DealState, seat: int, action: Discard, events: list) -> None:
    if state.phase != "discard" or seat != current_seat(state):
        raise RuleError("D-04", "deal.err.no_discard_now")
    p = state.players[seat]
    if action.card not in p.hand:
        raise RuleError("D-03", "deal.err.not_in_hand", card=action.card)
    p.hand.remove(action.card)
    if state.options.discard_to_pile:
        state.discard_pile.append(action.card)
        events.append(Discarded(seat=seat, card=action.card, to_pile="discard"))
    else:
        state.draw_pile.insert(0, action.card)
        events.append(Discarded(seat=seat, card=action.card, to_pile="draw_bottom"))
    if len(p.hand) <= HAND_LIMIT:
        state.phase = "play"
        state.plays_left = 0
        _end_turn(state, events)


_HANDLERS = {
    EndTurn: _h_end_turn,
    BankCard: _h_bank,
    LayProperty: _h_lay,
    MoveProperty: _h_move,
    PlayPassGo: _h_pass_go,
    PlayBuilding: _h_build,
    PlayDebtCollector: _h_debt,
    PlayBirthday: _h_birthday,
    PlayRent: _h_rent,
    PlaySlyDeal: _h_sly,
    PlayForcedDeal: _h_forced,
    PlayDealBreaker: _h_breaker,
    JustSayNo: _h_jsn,
    Accept: _h_accept,
    TogglePayment: _h_toggle,
    ConfirmPayment: _h_confirm,
    AutoPay: _h_autopay,
    PlaceBuilding: _h_place,
    Discard: _h_discard,
    EndMatch: _h_time_up,
}
