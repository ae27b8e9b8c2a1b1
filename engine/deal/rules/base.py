"""What every part of the rules shares: the counts and amounts of the game (D-01 … D-04, D-10), the
seat on turn and the others in turn order, the draw (D-02), starting and ending a turn (D-04), the
cards Sly Deal and Forced Deal may take (D-11), and how much a hand card is worth keeping. The
other parts import these from here instead of from each other."""

from __future__ import annotations

from collections.abc import Sequence

from engine.deal import area
from engine.deal.cards import ACTION, IS_PROPERTY, KEY, VALUE
from engine.deal.model import RULESETS as RULESETS_OPTIONS
from engine.deal.model import DealState, Drew, Player, Reshuffled, TurnEnded, TurnStarted

MIN_PLAYERS, MAX_PLAYERS = 2, 5
RULESETS = tuple(RULESETS_OPTIONS)
HAND_SIZE, HAND_LIMIT, PLAYS_PER_TURN = 5, 7, 3
DEBT_AMOUNT, BIRTHDAY_AMOUNT = 5, 2
PAY_KINDS = ("rent", "debt", "birthday")


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
