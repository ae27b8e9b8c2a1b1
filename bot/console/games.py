"""What the terminal does differently for each game (``KITS[game]``), so that the console's loop
never asks which game it plays: the order of a seat's choices, a choice's label, the lines a
question needs besides its choices, a seat's standing when a game resumes, ``help <number>``,
the moves asked again before they are made, and the lines said when the AI takes a seat over and
when the game ends. Everything here reads views (plain dicts) and actions; the rules stay in
``engine/``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.console.key_makers import board_key, deal_key
from engine.board.model import AcceptTrade, AuctionPassed, BidMade, DiceRolled, LiftMortgage, PayJailFine
from engine.core.values import TurnEnded, TurnStarted
from engine.deal.model import Drew, EndTurn
from words import board_text, deal_text
from words.i18n import t

Names = dict[int, str]


@dataclass(frozen=True)
class ConsoleKit:
    order: Callable[[dict, Any, list], list]  # (the seat's view, decision, actions) -> in the order shown
    label: Callable[[dict, Any, str, Names, str], str]  # (view, action, lang, names, ruleset)
    prompt: Callable[[dict, Any, str, Names, str], str]  # the question put to the seat
    extra_lines: Callable[[dict, Any, list, str, Names, str], list[str]]  # (view, decision, keyed, …)
    standing: Callable[[dict, str, Names, str], str]  # one player of the public view, one line
    number_help: Callable[[dict, int, str, Names, str], str]  # ``help 12``: a card or a square
    confirm: Callable[[dict, Any, str, str], str | None]  # (view, action, label, lang): ask again?
    takeover: str  # said when the AI takes over a seat whose input ended
    game_over: str
    pile: bool  # ``pile`` lists the discard pile (D-18)
    routine: tuple[type, ...]  # events left out of the summary of what the AI seats did
    key: Callable[[Any, str], str]  # (action, rule set) -> the key typed for it (``bot.console.keys``)


# -- Deal ----------------------------------------------------------------------------------------


def _deal_extra(view: dict, decision, keyed: list, lang: str, names: Names, ruleset: str) -> list[str]:
    """The hand with each card's number (the keys name cards by number)."""
    me = next((p for p in view["players"] if p["seat"] == decision.seat), {})
    cards = " · ".join(f"#{c} {deal_text.card_name(c, lang)}" for c in me.get("hand") or [])
    return [t(lang, "console.hand_keys", cards=cards)] if cards else []


def _deal_confirm(view: dict, action, label: str, lang: str) -> str | None:
    if isinstance(action, EndTurn) and view.get("phase") == "play" and view.get("plays_left", 0) > 0:
        return t(lang, "console.confirm.end_turn", plays=view["plays_left"])
    return None


DEAL_KIT = ConsoleKit(
    order=lambda view, decision, actions: actions,
    label=lambda view, action, lang, names, ruleset: deal_text.describe_action(view, action, lang, names),
    prompt=lambda view, decision, lang, names, ruleset: deal_text.prompt_line(view, decision, lang, names),
    extra_lines=_deal_extra,
    standing=lambda p, lang, names, ruleset: t(lang, "console.standing.deal", seat=names.get(p["seat"], "?"),
                                               bank=p["bank_total"], sets=p["complete_sets"], hand=p["hand_count"]),
    number_help=lambda view, n, lang, names, ruleset: deal_text.card_help(n, lang),
    confirm=_deal_confirm, takeover="ui.takeover", game_over="deal.ui.game_over", pile=True,
    routine=(TurnStarted, TurnEnded, Drew), key=deal_key)


# -- 地产大亨 -------------------------------------------------------------------------------------


def _board_label(view: dict, action, lang: str, names: Names, ruleset: str) -> str:
    if isinstance(action, LiftMortgage):  # what lifting costs now (principal and interest, B-15)
        cost = next((s.get("lift_cost") for s in view.get("squares") or [] if s["index"] == action.square), None)
        if cost is not None:
            return t(lang, "console.act.lift", square=board_text.square_name(ruleset, action.square, lang),
                     amount=board_text.money(ruleset, cost, lang))
    return board_text.describe_action(view, action, lang, names, ruleset)


def _board_standing(p: dict, lang: str, names: Names, ruleset: str) -> str:
    line = t(lang, "console.standing.board", seat=names.get(p["seat"], "?"),
             cash=board_text.money(ruleset, p["cash"], lang), count=len(p["properties"]),
             square=board_text.square_name(ruleset, p["position"], lang))
    return line + (t(lang, "console.standing.bankrupt") if p["bankrupt"] else "")


BOARD_KIT = ConsoleKit(
    order=board_text.choice_order, label=_board_label, prompt=board_text.prompt_line,
    extra_lines=lambda view, decision, keyed, lang, names, ruleset: board_text.decision_notes(
        view, decision, keyed, lang, names, ruleset, _board_label),
    standing=_board_standing, number_help=board_text.square_text,
    confirm=lambda view, action, label, lang: t(lang, "console.confirm.move", move=label)
    if isinstance(action, PayJailFine | AcceptTrade) else None,
    takeover="board.ui.takeover", game_over="board.ui.game_over", pile=False,
    routine=(TurnStarted, TurnEnded, DiceRolled, BidMade, AuctionPassed), key=board_key)

KITS: dict[str, ConsoleKit] = {"deal": DEAL_KIT, "board": BOARD_KIT}
