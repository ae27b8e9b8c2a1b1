"""大富翁纸牌 (Monopoly Deal) rules, D-01 … D-18, as a deterministic state machine.

``apply`` validates an action completely before touching the state, so a refused action leaves
the state byte-identical; then it mutates in place and returns events. Out-of-turn answers (Just
Say No windows, payments, placing a received House) are ``Demand`` records in ``state.pending``,
one per target, each answered independently (docs/design.md: out-of-turn answers are data).

Decisions recorded here where the seeds are silent:
- the start-of-turn draw is automatic (there is never a reason not to draw);
- a turn ends by itself once the third play has resolved and the hand holds 7 cards or fewer;
- a property received as payment or taken by Sly/Forced Deal/Deal Breaker is placed where it
  serves its new owner best (completing a set first); the owner may re-arrange on their turn;
- D-13 ``open_answers`` (the default): every target of an action is asked to answer it (say no,
  or accept), whether or not they hold a Just Say No, and after a no the other side is asked the
  same way (a player without one can only accept), so neither the public view nor who is waiting
  tells who holds one; the only action that goes straight through is a payment the target could
  not pay anything towards, since what lies on the table is public anyway. With
  ``open_answers=False`` (games stored before it existed) a window opens only for a target (or
  attacker) who holds a Just Say No;
- at the D-16 time-out, equal value and equal complete sets share the win.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import msgspec

from engine.core import rulesets
from engine.core.contract import Decision, Result, first_timeout
from engine.core.errors import RuleError
from engine.core.rng import Rng
from engine.core.values import SYSTEM
from engine.deal import area, payment
from engine.deal.cards import (
    ACTION,
    BUILDABLE,
    COLOUR_KEYS,
    IS_MULTI,
    IS_PROPERTY,
    IS_SINGLE,
    KEY,
    KIND,
    N_CARDS,
    PLACEABLE,
    RENT_COLOURS,
    SET_SIZE,
    VALUE,
)
from engine.deal.model import (
    RULESETS as RULESETS_OPTIONS,
)
from engine.deal.model import (
    SCHEMA_VERSION,
    Accept,
    ActionPlayed,
    AutoPay,
    BankCard,
    Banked,
    BuildingPlaced,
    ConfirmPayment,
    DealOptions,
    DealState,
    Demand,
    DemandCancelled,
    DemandOpened,
    Discard,
    Discarded,
    Drew,
    EndMatch,
    EndTurn,
    GameOver,
    GameStarted,
    JustSayNo,
    LayProperty,
    MoveProperty,
    Paid,
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
    PropertyTaken,
    Reshuffled,
    SaidNo,
    TogglePayment,
    TurnEnded,
    TurnStarted,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 5
RULESETS = tuple(RULESETS_OPTIONS)
HAND_SIZE, HAND_LIMIT, PLAYS_PER_TURN = 5, 7, 3
DEBT_AMOUNT, BIRTHDAY_AMOUNT = 5, 2
PAY_KINDS = ("rent", "debt", "birthday")


# ---------------------------------------------------------------------------------------------
# Setting up


def resolve_options(options: DealOptions | str | dict | None) -> DealOptions:
    """A rule set by name, a ``DealOptions``, or a dict of overrides on a named rule set."""
    return rulesets.resolve(options, RULESETS_OPTIONS, "standard", DealOptions, "Deal")


def new_game(seats: int | Sequence, options: DealOptions | str | dict | None = None, seed: int = 0) -> DealState:
    """D-01: shuffle the 106 cards, deal 5 each, fix the turn order, and start the first turn."""
    return new_game_with_events(seats, options, seed)[0]


def new_game_with_events(seats: int | Sequence, options: DealOptions | str | dict | None = None,
                         seed: int = 0) -> tuple[DealState, list]:
    """``new_game`` plus what happened: the turn order (with the dice) and the first turn's draw."""
    n = seats if isinstance(seats, int) else len(seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RuleError("D-01", "deal.err.player_count", count=n, min=MIN_PLAYERS, max=MAX_PLAYERS)
    opts = resolve_options(options)
    rng = Rng.from_seed(seed)
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    players = [Player(seat=i) for i in range(n)]
    for _ in range(HAND_SIZE):
        for p in players:
            p.hand.append(deck.pop())
    rolls: list[list[int]] = []
    if opts.dice_order:
        order = _order_by_dice(rng, list(range(n)), rolls)
    else:
        start = rng.below(n)
        order = [(start + i) % n for i in range(n)]
    state = DealState(
        schema=SCHEMA_VERSION, options=opts, rng=rng, players=players, order=order,
        draw_pile=deck, opening_rolls=rolls,
    )
    events: list = [GameStarted(order=list(order), rolls=[list(r) for r in rolls])]
    _start_turn(state, events)
    return state, events


def _order_by_dice(rng: Rng, seats: list[int], record: list[list[int]]) -> list[int]:
    """Highest 2d6 first; tied players re-roll among themselves (D-01 tournament)."""
    totals: dict[int, int] = {}
    for s in seats:
        d1, d2 = rng.die(), rng.die()
        record.append([s, d1, d2])
        totals[s] = d1 + d2
    order: list[int] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [s for s in seats if totals[s] == total]
        order += tied if len(tied) == 1 else _order_by_dice(rng, tied, record)
    return order


# ---------------------------------------------------------------------------------------------
# Small helpers


def current_seat(state: DealState) -> int:
    return state.order[state.turn_index]


def _draw(state: DealState, p: Player, n: int, events: list) -> None:
    """D-02: draw from the top; the discard pile, shuffled by the game's seeded generator, becomes
    the new draw pile when a card must be drawn and the pile is empty (``standard``, seed 003 FAQ 3)
    or holds one card or none (``rebuild_at_one``, tournament, seed 004).

    Ruling (seed 004 says only that the staff shuffle the discards and put them on the draw
    pile): the one card still left is shuffled in with them, so a card a player put under the
    pile at the end of a turn (D-04), which that player knows, is not the next one drawn.
    """
    drawn: list[int] = []
    low = 1 if state.options.rebuild_at_one else 0
    for _ in range(n):
        if len(state.draw_pile) <= low and state.discard_pile:
            state.draw_pile, state.discard_pile = state.draw_pile + state.discard_pile, []
            state.rng.shuffle(state.draw_pile)
            events.append(Reshuffled(count=len(state.draw_pile)))
        if not state.draw_pile:
            break
        drawn.append(state.draw_pile.pop())
    p.hand.extend(drawn)
    events.append(Drew(seat=p.seat, count=len(drawn), cards=drawn))


def _start_turn(state: DealState, events: list) -> None:
    state.turn_number += 1
    state.phase = "play"
    state.plays_left = PLAYS_PER_TURN
    p = state.players[current_seat(state)]
    events.append(TurnStarted(seat=p.seat, turn=state.turn_number))
    _draw(state, p, 2 if p.hand else HAND_SIZE, events)


def _end_turn(state: DealState, events: list) -> None:
    """D-04: a hand over 7 must be cut first; then play passes to the next seat."""
    p = state.players[current_seat(state)]
    if len(p.hand) > HAND_LIMIT:
        state.phase = "discard"
        return
    events.append(TurnEnded(seat=p.seat))
    state.turn_index = (state.turn_index + 1) % len(state.order)
    _start_turn(state, events)


def _has_jsn(p: Player) -> bool:
    return any(ACTION[c] == "just_say_no" for c in p.hand)


def _unique_by_key(cards: Sequence[int]) -> list[int]:
    """Identical cards (ten Pass Go, six 1M) give the same choices: offer each kind once."""
    first: dict[str, int] = {}
    for c in cards:
        first.setdefault(KEY[c], c)
    return list(first.values())


def _others(state: DealState, seat: int) -> list[int]:
    """The other seats in turn order, starting after ``seat``."""
    order = state.order
    i = order.index(seat)
    return order[i + 1:] + order[:i]


def _group_holding(p: Player, card: int) -> int:
    return area.find_group(p, card)


def _takeable(state: DealState, p: Player) -> list[int]:
    """D-11: cards of ``p`` that Sly Deal / Forced Deal may take (not from a complete set)."""
    return [c for g in p.groups if not area.is_complete(g, state.options) for c in g.cards]


def keep_rank(card: int) -> int:
    """How much a hand card is worth keeping; the timeout discard drops the lowest first."""
    if IS_PROPERTY[card]:
        return 20 + VALUE[card]
    if ACTION[card] in ("just_say_no", "deal_breaker"):
        return 18
    if ACTION[card] in ("sly_deal", "forced_deal"):
        return 12
    return VALUE[card]


# ---------------------------------------------------------------------------------------------
# legal_actions


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


# ---------------------------------------------------------------------------------------------
# apply


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


# -- demands: Just Say No windows, payment, placing received buildings ------------------------


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


def _h_end_match(state: DealState, seat: int, action: EndMatch, events: list) -> None:
    """D-16: the match clock ran out: the highest table value wins, then the most complete sets."""
    if seat != SYSTEM:
        raise RuleError("D-16", "deal.err.clock_only")
    scores = valuation(state)
    best = max(scores.values())
    tied = [p for p in state.players if scores[p.seat] == best]
    most_sets = max(area.complete_set_count(p, state.options) for p in tied)
    winners = [p.seat for p in tied if area.complete_set_count(p, state.options) == most_sets]
    _finish(state, events, winners, action.reason, scores)


def valuation(state: DealState) -> dict[int, int]:
    """D-16: total value of each player's table cards (bank, properties, buildings; not the hand)."""
    return {p.seat: area.table_value(p) for p in state.players}


def _finish(state: DealState, events: list, winners: list[int], reason: str, scores: dict | None = None) -> None:
    state.phase = "over"
    state.winners = winners
    state.end_reason = reason
    for d in state.pending:  # buildings still in transit stay with their receiver
        state.players[d.attacker].bank.extend(d.to_place)
    state.pending = []
    events.append(GameOver(winners=winners, reason=reason, scores=scores or {}))


def _check_win(state: DealState, events: list) -> bool:
    """D-15: three complete sets of different colours win at once; the player on turn first.

    Only a seat whose property area changed in this action can have just won, so only those
    are checked (this runs after every action).
    """
    changed: set[int] = set()
    for e in events:
        t = type(e)
        if t is PropertyLaid or t is PropertyMoved:
            changed.add(e.seat)
        elif t is PropertyTaken:
            changed.add(e.to_seat)
        elif t is Paid and e.cards:
            changed.add(e.payee)
    if not changed:
        return False
    opts = state.options
    n = len(state.order)
    for k in range(n):
        seat = state.order[(state.turn_index + k) % n]
        if seat not in changed:
            continue
        p = state.players[seat]
        if len(p.groups) >= 3 and _could_have_three(p) and area.complete_set_count(p, opts) >= 3:
            _finish(state, events, [p.seat], "sets")
            return True
    return False


def _could_have_three(p: Player) -> bool:
    """Cheap pre-check for the win test: three full groups at least."""
    full = 0
    for g in p.groups:
        if g.colour is not None and len(g.cards) >= SET_SIZE[g.colour]:
            full += 1
    return full >= 3


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
    EndMatch: _h_end_match,
}

# ---------------------------------------------------------------------------------------------
# waiting_for, timeout_action, view, result


def waiting_for(state: DealState) -> list[Decision]:
    if state.phase == "over":
        return []
    if state.pending:
        out = []
        for d in state.pending:
            if d.stage == "respond":
                out.append(Decision(d.target, "respond", "response", Accept(demand=d.id)))
            elif d.stage == "counter":
                out.append(Decision(d.attacker, "counter", "response", Accept(demand=d.id)))
            elif d.stage == "pay":
                out.append(Decision(d.target, "pay", "payment", AutoPay(demand=d.id)))
            elif d.stage == "place":
                out.append(Decision(d.attacker, "place", "choice", _default_placement(state, d)))
        return out
    seat = current_seat(state)
    if state.phase == "discard":
        hand = state.players[seat].hand
        return [Decision(seat, "discard", "discard", Discard(card=min(hand, key=lambda c: (keep_rank(c), c))))]
    policy = "card" if state.options.card_seconds else "turn"
    if state.plays_left <= 0:  # D-06 standard: the last play is made, only re-arranging is left
        return [Decision(seat, "end_turn", policy, EndTurn())]
    return [Decision(seat, "play", policy, EndTurn())]


def _default_placement(state: DealState, d: Demand) -> PlaceBuilding:
    c = d.to_place[0]
    targets = area.building_targets(state.players[d.attacker], ACTION[c], state.options)
    return PlaceBuilding(demand=d.id, card=c, group=targets[0] if targets else None)


def answers(decision: Decision, actions: list) -> list:
    """Those of the seat's ``actions`` that answer ``decision``: for a demand, its own answers."""
    demand = getattr(decision.timeout, "demand", None)
    if demand is not None:
        return [a for a in actions if getattr(a, "demand", None) == demand]
    if decision.kind == "discard":
        return [a for a in actions if isinstance(a, Discard)]
    return list(actions)


def timeout_action(state: DealState, seat: int):
    """What happens when ``seat`` runs out of time: end the turn, accept, pay automatically, …"""
    return first_timeout(waiting_for(state), seat)


def result(state: DealState) -> Result:
    if state.phase != "over":
        return Result(over=False)
    scores = valuation(state) if state.end_reason == "time" else {}
    return Result(over=True, winners=list(state.winners), reason=state.end_reason, scores=scores)


def discard_pile_for(state: DealState, seat: int | None) -> list[int] | None:
    """D-18: the whole discard pile (bottom first) as ``seat`` (``None``: the public) may look
    through it, or None when they may not. With ``private_discard`` (tournament, seed 004: "a
    player may look through the discard pile only on their own turn") only the player whose turn
    it is may, while the game runs; everyone else sees its top card and its size. Otherwise the
    pile is public (seed 003 says nothing against looking)."""
    if state.options.private_discard and (seat is None or seat != current_seat(state) or state.phase == "over"):
        return None
    return list(state.discard_pile)


def view(state: DealState, seat: int | None = None) -> dict:
    """What ``seat`` (or the public, ``None``) may see: no other hand, no draw-pile order, the
    discard pile only as D-18 allows (``discard`` None: its top card and size only)."""
    opts = state.options
    cur = current_seat(state)
    players = []
    for p in state.players:
        groups = [
            {
                "colour": g.colour, "cards": list(g.cards), "house": g.house, "hotel": g.hotel,
                "complete": area.is_complete(g, opts), "rent": area.group_rent(g, opts),
            }
            for g in p.groups
        ]
        entry = {
            "seat": p.seat, "hand_count": len(p.hand), "bank": list(p.bank),
            "bank_total": sum(VALUE[c] for c in p.bank), "groups": groups,
            "complete_sets": area.complete_set_count(p, opts), "table_value": area.table_value(p),
        }
        if seat == p.seat:
            entry["hand"] = list(p.hand)
        players.append(entry)
    return {
        "game": "deal", "ruleset": opts.ruleset, "viewer": seat, "turn": state.turn_number,
        "current": cur, "phase": state.phase, "plays_left": state.plays_left, "order": list(state.order),
        "draw_count": len(state.draw_pile), "discard_count": len(state.discard_pile),
        "discard_top": state.discard_pile[-1] if state.discard_pile else None,
        "discard": discard_pile_for(state, seat),
        "players": players,
        "pending": [
            {"id": d.id, "kind": d.kind, "attacker": d.attacker, "target": d.target, "amount": d.amount,
             "stage": d.stage, "refusals": d.refusals, "take": d.take, "give": d.give,
             "selected": list(d.selected) if seat == d.target else None, "to_place": list(d.to_place)}
            for d in state.pending
        ],
        "opening_rolls": [list(r) for r in state.opening_rolls],
        "winners": list(state.winners), "end_reason": state.end_reason,
    }


def event_for(event, seat: int | None):
    """The event as ``seat`` may see it: drawn cards and cards put under the pile stay private."""
    if isinstance(event, Drew) and event.seat != seat and event.cards:
        return msgspec.structs.replace(event, cards=[])
    if isinstance(event, Discarded) and event.seat != seat and event.to_pile == "draw_bottom":
        return msgspec.structs.replace(event, card=-1)
    return event
