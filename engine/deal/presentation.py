"""How 大富翁纸牌 is shown (``engine.core.presentation``): a hand is private from the start, a Just
Say No window (D-13) is asked under the table and answered privately, every other decision is
answered in the player's private message; drawn cards and cards put under the pile are hidden
from the others; the discard pile may be looked through when the rules let the seat (D-18)."""

from __future__ import annotations

from engine.core.contract import Decision
from engine.core.presentation import Presentation
from engine.deal import rules
from engine.deal.model import Accept, AutoPay, ConfirmPayment, EndTurn

# the decisions asked right under the table: Just Say No windows. Their answers stay private (who
# holds a Just Say No is hidden: every target is asked the same way, and answers in their own screen)
PROMPTED = ("respond", "counter")


def where(decision: Decision) -> str:
    return "prompt" if decision.kind in PROMPTED else "private"


def extras(state, view: dict, seat: int) -> list[str]:
    """D-18: "Discard pile" for whoever may look through it now (no count on it, so that a growing
    pile does not edit every private message)."""
    return ["pile"] if state.phase != "over" and view.get("discard") else []


def subject(action) -> str | None:
    """Every Deal move but ending the turn and answering a demand is about one card."""
    card = getattr(action, "card", None)
    return f"c{card}" if isinstance(card, int) and card >= 0 else None


def rank(action) -> int:
    if isinstance(action, EndTurn):
        return 2  # apart from the cards: it is easy to press too early
    if isinstance(action, Accept | ConfirmPayment | AutoPay):
        return 0
    return 1


DEAL_PRESENTATION = Presentation(name="deal", where=where, hand_from_start=True, redact=rules.event_for,
                                 worth=rules.valuation, extras=extras, subject=subject, rank=rank)
