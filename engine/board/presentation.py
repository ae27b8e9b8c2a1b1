"""How 地产大亨 is shown (``engine.core.presentation``): nothing is hidden but trade offers, so every
decision is answered on the table message in front of everyone, except an offer, which its target
answers privately (B-15: the group sees only a trade made, never the haggling); a player keeps a
private message once they ask for their options."""

from __future__ import annotations

from engine.board import rules, trade_draft
from engine.board.data import board
from engine.board.model import (
    AcceptTrade,
    Bid,
    Buy,
    DeclareBankruptcy,
    Mortgage,
    PayDebt,
    PayJailFine,
    PayTax,
    Roll,
    SellBuilding,
    SellGroupBuildings,
    TradeClosed,
    TradeProposed,
    UseJailCard,
)
from engine.board.trades import trade_template
from engine.core.contract import Decision
from engine.core.presentation import Presentation


def where(decision: Decision) -> str:
    return "private" if decision.kind == "trade" else "table"


def redact(event, viewer: int | None):
    """B-15: an offer, and an offer that closed without a trade, is seen by its two players only;
    a trade made is seen by everyone (its line tells what changed hands)."""
    if isinstance(event, TradeProposed) and viewer not in (event.trade.proposer, event.trade.target):
        return None
    if isinstance(event, TradeClosed) and event.outcome != "accepted" and (
            event.deal is None or viewer not in (event.deal.proposer, event.deal.target)):
        return None
    return event


def extras(state, view: dict, seat: int) -> list[str]:
    """B-15: "Propose a trade" when the seat may make an offer now, and "Counter" for each offer to
    it that it may answer with one of its own."""
    template = trade_template(state, seat)
    if template is None or not template.partners:
        return []
    out = [f"counter:{tid}" for tid in template.counters]
    return out + (["trade"] if template.fresh else [])


def subject(action) -> str | None:
    """Moves on a square (build, sell, mortgage, lift, claim rent, join a shortage) are about it; a
    whole group's building or selling is about the group."""
    for field in ("square", "street"):
        square = getattr(action, field, None)
        if isinstance(square, int) and square >= 0:
            return f"s{square}"
    group = getattr(action, "group", None)
    return f"g{group}" if isinstance(group, str) else None


def rank(action) -> int:
    if isinstance(action, Roll | Buy | PayDebt | PayTax | Bid | AcceptTrade | PayJailFine | UseJailCard):
        return 0
    if isinstance(action, DeclareBankruptcy):
        return 2
    return 1


BOARD_PRESENTATION = Presentation(name="board", where=where, hand_from_start=False, redact=redact,
                                  worth=rules.valuation, extras=extras, subject=subject, rank=rank,
                                  drafts=trade_draft)


def raise_order(view: dict, seat: int, actions: list, ruleset: str) -> list:
    """The ways to raise money among ``actions``, least damaging first as a player would judge it:
    mortgage unbuilt property (outside complete groups first, smallest mortgage first) before
    selling any building, and single buildings before whole groups. Only an order of suggestions:
    what is allowed is the rules' ``legal_actions``."""
    b = board(ruleset)
    owned = {s["index"] for s in view.get("squares") or [] if s.get("owner") == seat}

    def complete(square: int) -> bool:
        group = b.group[square]
        return group is not None and all(sq in owned for sq in b.groups.get(group, ()))

    mortgages = sorted((a for a in actions if isinstance(a, Mortgage)),
                       key=lambda a: (complete(a.square), b.mortgage[a.square], a.square))
    sales = sorted((a for a in actions if isinstance(a, SellBuilding)),
                   key=lambda a: (b.house_cost[a.square], a.square))
    return mortgages + sales + [a for a in actions if isinstance(a, SellGroupBuildings)]
