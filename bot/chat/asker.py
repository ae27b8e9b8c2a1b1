"""Who asks the bot something, and how a platform answers them: the two things every flow
(``bot/chat/flows.py``, ``bot/chat/lobby_flows.py``) is given by a platform's front end."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.chat.messenger import Text
from bot.chat.screens import Button


@dataclass
class Who:
    user: str  # "tg:42", "dc:7"
    name: str
    chat: str  # the chat key the command or press came from
    lang: str
    manages: Callable[[], Awaitable[bool]]  # whether they manage the chat (admin, Manage Server)


class Answer(Protocol):
    """How a platform answers the one who typed or pressed."""

    async def tell(self, text: str) -> None:
        """To them alone, short (an alert, an ephemeral reply)."""

    async def reply(self, text: str | Text, buttons: list[Button] | None = None) -> int | None:
        """A message in answer: public in the chat (the lobby, a scheduled match); its id. A
        ``Text`` may end in mentions (a rematch calls the last game's players, once)."""

    async def ask(self, text: str, buttons: list[Button]) -> None:
        """A question with buttons meant for them (where the platform can, seen by them alone)."""

    async def update(self, text: str) -> None:
        """The message whose button they pressed now says ``text`` and has no buttons."""

    async def menu(self, text: str, buttons: list[Button], note: str | None = None) -> None:
        """The message whose button they pressed now says ``text`` with these buttons (its picture
        stays): the next step of their choices; ``note``: said to them alone as well."""

    async def done(self) -> None:
        """Acknowledged: nothing to say where the platform allows silence, else a short "done"."""

    async def defer(self) -> None:
        """The answer comes later (a move, a lobby's change): where the platform wants an answer
        within seconds (Discord's 3 s), it is told so now; elsewhere nothing."""
