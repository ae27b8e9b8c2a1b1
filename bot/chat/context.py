"""What every part of one chat platform is given, built once per bot (``PlatformContext``): the
service, the table channel over the platform's messenger, the shared flows and the press router,
and the bot's language. A platform's parts (its commands, trade builder, tournaments, calendar)
receive the context, never the front end that holds them, so none imports another's owner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.chat.channel import TableChannel
from bot.chat.flows import Flows
from engine.service.tables import GameService


@dataclass
class PlatformContext:
    service: GameService
    channel: TableChannel
    flows: Flows
    lang: str  # the bot's language, for a chat that never chose one
    router: Any = None  # the platform's ``bot.chat.presses.PressRouter``, set once it is built
    client: Any = None  # the SDK's bot or client, once it runs (what a part sends with)

    @property
    def messenger(self):
        return self.channel.messenger

    @property
    def prefix(self) -> str:
        """The platform's name in chat keys (``tg``, ``dc``)."""
        return self.channel.prefix
