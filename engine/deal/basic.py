"""A baseline Deal player: a simple fixed policy to measure the AI against (``tycoon simulate deal
--seats ai,basic,...``), as a beginner plays.

On its turn it lays its properties (each into a group of its colour, the first the rules list),
banks its money, plays Pass Go, banks its other action and rent cards as money, and ends the turn.
It never attacks and never says no: a demand is accepted and paid the way the rules would pay it on
a missed clock; a discard or a building is the first the rules list. Like the AI it only ever picks
from ``legal_actions``.
"""

from __future__ import annotations

from engine.deal.cards import KIND
from engine.deal.model import Accept, AutoPay, BankCard, DealState, EndTurn, LayProperty, PlayPassGo
from engine.deal.rules import legal_actions, timeout_action

# on its own turn, the first kind of move it finds, in this order (then End turn)
_TURN = (
    lambda a: isinstance(a, LayProperty),
    lambda a: isinstance(a, BankCard) and KIND[a.card] == "money",
    lambda a: isinstance(a, PlayPassGo),
    lambda a: isinstance(a, BankCard),
    lambda a: isinstance(a, EndTurn),
)


def choose(state: DealState, seat: int):
    legal = legal_actions(state, seat)
    if not legal:
        return None
    for wanted in (lambda a: isinstance(a, Accept), lambda a: isinstance(a, AutoPay)):  # a demand
        found = next((a for a in legal if wanted(a)), None)
        if found is not None:
            return found
    if not state.pending and state.phase == "play":
        for wanted in _TURN:
            found = next((a for a in legal if wanted(a)), None)
            if found is not None:
                return found
    fallback = timeout_action(state, seat)  # a discard, a payment, a building: the rules' default
    return fallback if fallback in legal else legal[0]
