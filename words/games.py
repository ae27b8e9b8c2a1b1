"""The words of each game behind one face (``WORDS[game]``), so that a screen never asks which game
it shows: the table as text, a player's own lines, a button's label, the log, a refusal, the
winners, what an update tells one player alone (``news``: an offer of theirs declined), and the
labels of the controls beside the moves (``engine.core.presentation`` extras)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.errors import RuleError
from words import board_steps, board_text, deal_steps, deal_text, results
from words.i18n import addressed_to_you, t

Names = dict[int, str]


@dataclass(frozen=True)
class GameWords:
    table: Callable[[dict, str, Names, str], str]  # (public view, lang, names, ruleset)
    private_lines: Callable[[dict, int, list, str, Names, str], list[str]]  # (view, seat, decisions, …)
    action: Callable[[dict, Any, str, Names, str], str]  # a button's label
    events: Callable[[list, str, Names, str, int | None], list[str]]  # log lines for a viewer
    error: Callable[[RuleError, str, Names, str], str]
    winners: Callable[[list[int], str, Names], str]
    own_screen: str  # the label key of the button that opens a player's own screen
    hand: Callable[[dict, int, str], str | None]  # (a seat's view, seat, lang): its hand in one line, if any
    money: Callable[[int, str, str], str]  # (amount, lang, ruleset): an amount as the game writes it
    # (view, decision, lang, names, ruleset): the question, as the asked player's own screen puts it (你 / you)
    prompt: Callable[[dict, Any, str, Names, str], str]
    # (events, seat, lang, names, ruleset): what an update tells that seat alone (an offer of theirs declined)
    news: Callable[..., list[str]] = lambda events, seat, lang, names, ruleset, timed_out=(): []
    # (view, action, lang, names, ruleset): the short labels that lead to a move, step by step
    # (``bot.chat.steps``); by default one step, the button's label
    steps: Callable[[dict, Any, str, Names, str], tuple[str, ...]] | None = None
    # (view, worth, winners, lang, names, ruleset, net-worth series): everyone ranked at the end, a
    # line each with why (``words.results``); by default by worth
    ranking: Callable[..., list[tuple[int, str]]] | None = None
    # (public view, lang, names, ruleset): what the table waits for (an open demand, a purchase, an
    # auction, a debt), the lines a chat's short table message keeps beside its head and the news
    waiting: Callable[[dict, str, Names, str], list[str]] = lambda view, lang, names, ruleset: []


def _deal_hand(view: dict, seat: int, lang: str) -> str | None:
    me = next((p for p in view.get("players", []) if p.get("seat") == seat), None)
    if me is None or "hand" not in me:
        return None
    hand = me["hand"]
    return t(lang, "deal.ui.hand_line", count=len(hand), cards=t(lang, "ui.list_sep").join(
        deal_text.card_name(c, lang) for c in hand))


def _deal_prompt(view: dict, decision: Any, lang: str, names: Names, ruleset: str) -> str:
    who = deal_text.player_name(decision.seat, lang, names)
    return addressed_to_you(deal_text.prompt_line(view, decision, lang, names), who)


def _board_prompt(view: dict, decision: Any, lang: str, names: Names, ruleset: str) -> str:
    who = board_text.party_name(decision.seat, lang, names)
    return addressed_to_you(board_text.prompt_line(view, decision, lang, names, ruleset), who)


WORDS: dict[str, GameWords] = {
    "deal": GameWords(
        table=lambda view, lang, names, ruleset: deal_text.render_table(view, lang, names),
        waiting=lambda view, lang, names, ruleset: deal_text.pending_lines(view, lang, names),
        private_lines=lambda view, seat, decisions, lang, names, ruleset: deal_text.private_lines(
            view, seat, decisions, lang, names),
        action=lambda view, action, lang, names, ruleset: deal_text.describe_action(view, action, lang, names),
        events=lambda events, lang, names, ruleset, viewer: [deal_text.describe_event(e, lang, names, viewer)
                                                             for e in events],
        error=lambda err, lang, names, ruleset: deal_text.explain_error(err, lang, names),
        winners=deal_text.winners_line,
        own_screen="ch.btn.my_hand", hand=_deal_hand, money=lambda amount, lang, ruleset: f"{amount}M",
        prompt=_deal_prompt,
        steps=lambda view, action, lang, names, ruleset: deal_steps.action_path(view, action, lang, names),
        ranking=results.deal_ranking),
    "board": GameWords(
        table=lambda view, lang, names, ruleset: board_text.render_board(view, lang, names, ruleset),
        waiting=board_text.pending_lines,
        private_lines=lambda view, seat, decisions, lang, names, ruleset: board_text.private_lines(
            view, seat, decisions, lang, names, ruleset),
        action=lambda view, action, lang, names, ruleset: board_text.describe_action(view, action, lang, names,
                                                                                     ruleset),
        events=lambda events, lang, names, ruleset, viewer: board_text.log_lines(events, lang, names, ruleset,
                                                                                 viewer),
        error=lambda err, lang, names, ruleset: board_text.explain_error(err, lang, ruleset, names),
        winners=board_text.winners_line,
        own_screen="ch.btn.my_options", hand=lambda view, seat, lang: None,
        money=lambda amount, lang, ruleset: board_text.money(ruleset, amount, lang),
        prompt=_board_prompt,
        news=board_text.news_lines, steps=board_steps.action_path, ranking=results.board_ranking),
}


def extra_label(extra: str, lang: str) -> str:
    """The label of a control beside the moves: ``pile``, ``trade``, ``counter:<offer>``."""
    if extra == "pile":
        return t(lang, "deal.btn.discard_pile")
    if extra == "trade":
        return t(lang, "trade.btn.open")
    return t(lang, "trade.btn.counter", trade=extra.split(":", 1)[1])
