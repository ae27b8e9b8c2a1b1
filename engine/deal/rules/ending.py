"""The end of the game: each table's value (D-16), the win by three complete sets, checked after every
action (D-15), the clock's ``EndMatch`` (D-16), and closing the game."""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.values import SYSTEM
from engine.deal import area
from engine.deal.cards import SET_SIZE
from engine.deal.model import DealState, EndMatch, GameOver, Paid, Player, PropertyLaid, PropertyMoved, PropertyTaken


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
