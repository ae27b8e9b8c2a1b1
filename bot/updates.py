"""What every front end does with a table update, worked out once.

The service publishes one ``TableUpdate`` per settled change of a table (engine/service/loop.py).
Telegram, Discord and the console subscribe to them; each needs the same answers before it talks
to its platform: the public screen (the table picture, its text with the latest events and the
service's notes, the buttons decided in front of everyone), the Just Say No windows to ask right
under the table (D-13) with the time their clock runs out, the private screens of the people who
must act now, whether to post the table anew (the game started, the turn passed) or edit it, and
whether the table has ended. ``update_screens`` gives all of that; a front end only maps it onto
messages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.presenter import (
    PUBLIC_DEAL_DECISIONS,
    Button,
    Screen,
    clock_text,
    note_lines,
    table_screens,
)
from engine.service.loop import TableUpdate
from engine.service.tables import GameService
from words.i18n import t


@dataclass
class Answer:
    """A decision asked right under the table, by its target only (a Just Say No window)."""

    seat: int
    name: str
    due_at: float | None
    buttons: list[Button]


@dataclass
class UpdateScreens:
    update: TableUpdate
    public: Screen  # its buttons leave out the answers (those are asked under the table)
    answers: list[Answer] = field(default_factory=list)
    private: dict[int, Screen] = field(default_factory=dict)  # every person's own screen
    must_act: set[int] = field(default_factory=set)  # people (not the AI) who owe a decision now
    new_message: bool = False  # post the table anew rather than edit the last one
    ended: bool = False  # over or cancelled: no buttons any more


def damaged_text(update: TableUpdate, lang: str) -> str:
    return t(lang, "service.table_damaged", table=update.table)


def _draw(service: GameService, update: TableUpdate, lang: str, lang_of, clock: str | None) -> UpdateScreens:
    snap = update.snapshot
    screens = table_screens(service, snap, update.events, lang, lang_of, pictures=True, clock=clock)
    public = screens.public
    notes = note_lines(update.notes, lang, snap.names)
    if notes:
        public.text = "\n".join([public.text, *notes])
    ended = update.over or update.kind == "cancelled"
    answers = []
    if snap.game == "deal" and not ended:
        for w in update.waiting:
            if w.kind in PUBLIC_DEAL_DECISIONS and not w.ai:
                answers.append(Answer(w.seat, snap.names[w.seat], w.due_at,
                                      [b for b in public.buttons if b.seat == w.seat]))
        asked = {a.seat for a in answers}
        public.buttons = [b for b in public.buttons if b.seat not in asked]
    if ended:
        public.buttons = []
    return UpdateScreens(
        update=update, public=public, answers=answers, private=screens.private,
        must_act={w.seat for w in update.waiting if not w.ai},
        new_message=update.kind == "started" or update.turn_passed, ended=ended)


async def update_screens(service: GameService, update: TableUpdate, lang: str,
                         lang_of: Callable[[int], str] | None = None) -> UpdateScreens:
    """The screens of one update, drawn in a worker thread (pictures take milliseconds)."""
    clock = clock_text(update.match_ends_at, service.clock())
    return await asyncio.to_thread(_draw, service, update, lang, lang_of, clock)


def seconds_left(due_at: float | None, now: float, default: float = 20) -> int:
    """Whole seconds until a clock runs out, for a prompt ("answer within 20 s")."""
    return max(0, int(round((due_at - now) if due_at is not None else default)))
