"""Pressing through the steps of a player's choices (``bot.chat.steps``) as a person does: from
the buttons a chat shows now, the step that leads on towards the move a test wants."""

from __future__ import annotations

from bot.chat.screens import own_choices
from bot.chat.steps import node_id


async def plan(service, table: int, user: str, token: str, lang: str) -> tuple[str, list[str]]:
    """The token a player's screen carries for the move ``token`` makes (a twin card's move is shown
    once, with one of the two tokens) and the ids of the steps that lead to it, first step first."""
    public, own = await service.seat_view(table, user)
    wanted = next((c.action for c in own.choices if c.token == token), None)
    for choice in own_choices(own, public.names, lang):
        action = next(c.action for c in own.choices if c.token == choice.token)
        if choice.token == token or (wanted is not None and _same(own, action, wanted, public.names, lang)):
            return choice.token, [node_id(choice.path[:n]) for n in range(1, len(choice.path))]
    return token, []


def _same(own, a, b, names, lang) -> bool:
    from words.games import WORDS
    steps = WORDS[own.game].steps
    return steps(own.board, a, lang, names, own.ruleset) == steps(own.board, b, lang, names, own.ruleset)


def next_step(shown: list[str], nodes: list[str]) -> str | None:
    """Among the unsigned button data shown (``m:<table>:<node>:<page>``), the step deepest on the
    way (a step's next page when the move is further on in it)."""
    best, depth = None, -1
    for data in shown:
        if not data.startswith("m:"):
            continue
        node = data.split(":")[2]
        if node in nodes and nodes.index(node) > depth:
            best, depth = data, nodes.index(node)
    return best
