"""What the table waits for and what each seat may see: ``waiting_for`` with the default of each
decision, ``answers``, ``timeout_action``, ``result``, the discard pile as D-18 allows, ``view``, and
``event_for`` (drawn cards and cards put under the pile stay private)."""

from __future__ import annotations

import msgspec

from engine.core.contract import Decision, Result, first_timeout
from engine.deal import area, payment
from engine.deal.cards import ACTION, VALUE
from engine.deal.model import Accept, AutoPay, DealState, Demand, Discard, Discarded, Drew, EndTurn, PlaceBuilding
from engine.deal.rules.base import current_seat, keep_rank
from engine.deal.rules.ending import valuation


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


def _problem(state: DealState, d: Demand) -> dict | None:
    """Why the payer's chosen cards cannot be paid as they are (shown with the choice), or None."""
    if d.stage != "pay":
        return None
    why = payment.problem(state.players[d.target], d.selected, d.amount, state.options)
    return None if why is None else {"rule": why.rule, "key": why.key, "params": dict(why.params)}


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
             "selected": list(d.selected) if seat == d.target else None, "to_place": list(d.to_place),
             "problem": _problem(state, d) if seat == d.target else None}
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
