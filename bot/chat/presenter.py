"""Small things every front end shows the same way: the Deal discard pile (D-18) as a private
answer, the words of a refused press, and the start of a match typed by an admin.
Screens of a table are drawn from its views (``bot/chat/screens.py``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.chat.inputs import number
from bot.chat.screens import refusal_text
from engine.core.errors import RuleError
from engine.service.views import PrivateView
from render import deal_hand as render_deal
from render.png import png_bytes
from words import deal_text
from words.i18n import normalise_lang, t


def discard_pile_answer(view: PrivateView | None, names: dict[int, str], lang: str) -> tuple[list[int] | None, str]:
    """What a press of "Discard pile" answers: (the pile, bottom first, and it as text) for a player
    the rules let look through it now, else (None, why not and what to do instead)."""
    lang = normalise_lang(lang)
    if view is None:
        return None, t(lang, "service.not_a_player")
    cards = view.board.get("discard")  # only a Deal view has the pile, and only when its seat may look
    return cards, discard_pile_words(cards, lang, names)


def discard_pile_words(cards: list[int] | None, lang: str, names: dict[int, str]) -> str:
    """The discard pile listed, or (``cards`` None: the rules do not let this seat look, D-18)
    why not: the words every front end shows, the terminal's ``pile`` too."""
    if cards is None:
        return deal_text.explain_error(RuleError("D-18", "deal.err.discard_private"), lang, names)
    return deal_text.discard_pile_text(cards, lang)


def discard_pile_picture(cards: list[int] | None, lang: str) -> bytes | None:
    """The pile as a picture (PNG), or None for an empty pile or a seat that may not look (D-18)."""
    if not cards:
        return None
    return png_bytes(render_deal.render_discard(cards, normalise_lang(lang)))


def start_time(text: str, now: float) -> float | None:
    """When a match typed by an admin starts: "+30" is thirty minutes from now (at most a week);
    "20:30" the next 20:30 Beijing time (UTC+8, where most players are). ``None`` when the text is
    neither (only plain ASCII digits count: "²" or "٣" are not a time)."""
    text = text.strip()
    if text.startswith("+"):
        minutes = number(text[1:], 1, 7 * 24 * 60)
        return None if minutes is None else now + 60 * minutes
    hours, _, minutes = text.partition(":")
    h, m = number(hours, 0, 23), number(minutes, 0, 59)
    if h is None or m is None or len(minutes) != 2:
        return None
    day, offset = 86400, 8 * 3600
    local = (now + offset) % day
    target = h * 3600 + m * 60
    return now + (target - local) % day or now + day


async def pile_answer(service, user: str, table_id: int, lang: str) -> tuple[list[int] | None, str]:
    """D-18, for every front end: (the discard pile and it as text) for a player the rules let look
    through it now, else (None, why not)."""
    seen = await service.seat_view(table_id, user)
    return discard_pile_answer(seen[1] if seen else None, seen[0].names if seen else {}, lang)


async def refused_text(service, outcome, lang: str, say: Callable[..., str] = t,
                       chat_lang: Callable[[str], Awaitable[str]] | None = None) -> str:
    """The words of a refused press, for every front end: in the table's own words (its game, rule
    set and players' names); ``chat_lang`` (a chat's) picks the language from the table's chat."""
    view = await service.public_view(outcome.table) if outcome.table else None
    if chat_lang is not None and view is not None:
        lang = await chat_lang(view.chat_key)
    return refusal_text(outcome, lang, view.game if view else None, view.ruleset if view else "",
                        view.names if view else {}, say)
