"""What the table channel (``bot/chat/channel.py``) needs from a chat platform: a messenger, a small
interface that Telegram, Discord and the tests' recording messenger implement. It posts, edits and
strips messages, writes to a player privately, mentions, and words a deadline; it holds no rule
and decides nothing about which message to send: the channel does, once for every platform.

Text reaches a messenger as ``Text``: a body of plain text, whose beginning may be cut to fit the
platform's limit (a table's newest lines are at its end), and an optional last line that may
mention players (``Mention``). The messenger escapes the plain text its own way (HTML, markdown)
and renders mentions so that they notify exactly the players meant, and nobody else.

A platform that limits how fast the bot may write to a chat (Telegram's flood control) makes a
call wait its turn in that chat's lane. A call made while showing a table (``deferrable()``) does
not wait long: the messenger raises ``Behind`` with the time the chat's lane opens again, and the
table channel shows the table's newest state then, instead of sending a state that will be old by
the time it arrives (``bot/chat/channel.py``). Tidying (``chore()``) waits until the chat's budget
has room to spare.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.chat.screens import Button, Screen
from engine.service.views import PublicView, Seat


@dataclass(frozen=True)
class Mention:
    """A player named so that the platform notifies them (or just named, on a platform without)."""

    seat: Seat


@dataclass(frozen=True)
class Text:
    """A message's text: ``body`` (plain) and ``after``, a last line of plain strings and
    ``Mention``s. ``optional`` is the span of ``body`` left out first when it is too long (a
    table's players, which its picture shows); see ``shorten``."""

    body: str
    after: tuple = ()
    optional: tuple[int, int] | None = None

    def plain(self) -> str:
        """The text as it reads, mentions as names (for records and tests)."""
        tail = "".join(p.seat.name if isinstance(p, Mention) else p for p in self.after)
        return f"{self.body}\n{tail}" if tail else self.body

    @property
    def mentioned(self) -> list[Seat]:
        return [p.seat for p in self.after if isinstance(p, Mention)]


def shorten(text: Text, budget: int, measure: Callable[[str], int] = len) -> str:
    """``text.body`` within ``budget`` as ``measure`` counts it, its head never cut (the first line:
    whose turn, what the table is doing): the whole body when it fits; else with as few of the first
    lines of its ``optional`` span as it takes (an ellipsis in their place); else the head and as
    many of the last lines (the newest events, the clock) as fit."""
    body = text.body
    if measure(body) <= budget:
        return body
    if text.optional is not None:  # its first lines go, one by one, an ellipsis in their place
        start, end = text.optional
        span, before, after = body[start:end], body[:start], body[end:]
        newline = "\n" if span.endswith("\n") else ""
        lines = (span[:-1] if newline else span).split("\n")
        for n in range(1, len(lines) + 1):
            rest = "\n".join(lines[n:])
            body = before + ELLIPSIS + ("\n" + rest if rest else "") + newline + after
            if measure(body) <= budget:
                return body
    head, _, rest = body.partition("\n")
    if measure(head) >= budget:  # a head longer than the whole budget: its start
        while head and measure(head) > budget:
            head = head[:-1]
        return head
    kept: list[str] = []
    room = budget - measure(head) - measure("\n" + ELLIPSIS)
    for line in reversed(rest.split("\n")):
        if measure(line) + 1 > room:
            break
        kept.insert(0, line)
        room -= measure(line) + 1
    return "\n".join([head, ELLIPSIS, *kept]) if kept or rest else head


ELLIPSIS = "…"


class Unreachable(Exception):
    """The platform refuses private messages to this player (never started the bot, closed DMs)."""


class Behind(Exception):
    """The chat cannot be written to before ``until`` (the platform's clock, ``time.monotonic``):
    its lane is in a flood wait, or its budget is spent. Nothing was sent."""

    def __init__(self, chat, until: float) -> None:
        super().__init__(f"chat {chat} is behind until {until:.1f}")
        self.chat, self.until = chat, until


_DEFERRABLE = contextvars.ContextVar("tycoon_deferrable", default=False)
_CHORE = contextvars.ContextVar("tycoon_chore", default=False)


@contextlib.contextmanager
def _within(flag: contextvars.ContextVar) -> Iterator[None]:
    token = flag.set(True)
    try:
        yield
    finally:
        flag.reset(token)


def deferrable() -> contextlib.AbstractContextManager[None]:
    """Calls made inside (in this task) may raise ``Behind`` instead of waiting long."""
    return _within(_DEFERRABLE)


def may_defer() -> bool:
    """Whether a call made now may raise ``Behind`` (inside ``deferrable()``)."""
    return _DEFERRABLE.get()


def chore() -> contextlib.AbstractContextManager[None]:
    """Calls made inside (in this task) are tidying, not news (the buttons of a message a newer one
    replaced): in a chat whose budget is nearly spent they raise ``Behind`` instead of taking the
    room the next news needs. Wrap in ``deferrable()`` as well."""
    return _within(_CHORE)


def is_chore() -> bool:
    """Whether a call made now is tidying (inside ``chore()``)."""
    return _CHORE.get()


Place = Any  # where messages go: a chat and its thread, a channel, a private chat (the messenger's own)


class Messenger(Protocol):
    name: str  # the prefix of its ids in a table's message record ("tg", "dc")
    page: int  # how many buttons one message holds
    web_url: str | None  # the web table's public address (TYCOON_WEB_URL), for links to its pages

    def table_place(self, view: PublicView) -> Place:
        """Where the table's messages go: its chat (and forum topic or thread)."""

    def chat_place(self, chat: str) -> Place:
        """Where a chat key's messages go (a notice, a damaged table's news)."""

    def key(self, place: Place, message_id: int) -> tuple:
        """A message's key in the record of what messages show."""

    def when(self, due_at: float, now: float, lang: str) -> str:
        """A deadline in words ("20 s", or a live countdown where the platform has one)."""

    async def post(self, place: Place, text: Text, buttons: list[Button], picture: bytes | None = None, *,
                   reply_to: int | None = None, picture_name: str = "table.png") -> int:
        """A new message; its mentions (``text.mentioned``) notify those players only."""

    async def edit(self, place: Place, message_id: int, text: Text, buttons: list[Button],
                   picture: bytes | None, new_picture: bool, picture_name: str = "table.png") -> bool:
        """The message changed; False when it cannot be edited any more (gone, too old)."""

    async def strip(self, place: Place, message_id: int) -> None:
        """The message loses its buttons (it is no longer the current one)."""

    async def delete(self, place: Place, message_id: int) -> None:
        """The message goes (a page no longer needed)."""

    async def private_place(self, seat: Seat) -> Place | None:
        """Where to write to this player privately; None when they are no player of this platform.
        Raises ``Unreachable`` when the platform refuses. A messenger may also define
        ``private_topic(table, place, lang)``: the place of one table's private messages within
        ``place``, asked once per player and table (Telegram's private topics,
        ``bot/telegram_app/topics.py``); the table's message record keeps what it answers."""

    def reach(self, table: int, seat_no: int, seat: Seat, lang: str) -> Button:
        """For a player who cannot be written to privately: the button that opens their own screen."""

    def watch(self, table: int, lang: str, over: bool = False) -> Button | None:
        """A link to the table's spectator page, when there is a web table; ``over``: to the
        finished game's page (the result, its chart, achievements and the replay)."""

    def own_link(self, table: int, lang: str) -> Button | None:
        """A link on a player's private message to the table's page (Telegram's Mini App)."""

    def private_note(self, table: int, lang: str) -> str | None:
        """A lobby's line on how to get one's cards privately, where players must open that first."""

    async def refresh_own(self, table: int, seat: int, screen: Screen) -> None:
        """Keep a player's other copies of their own screen current (Discord's "My hand" replies)."""


def pages(buttons: Sequence[Button], size: int) -> list[list[Button]]:
    """Buttons in pages of ``size`` (at least one page, maybe empty)."""
    return [list(buttons[i:i + size]) for i in range(0, len(buttons), size)] or [[]]
