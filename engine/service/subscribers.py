"""Who the service tells what (the transport port): the front ends subscribed to table updates and
to notices, each for the chats it serves.

A subscriber names the chats it serves by their key's prefix (``tg:``, ``dc:``; none for every
chat), or the tables it shows now (the web: the tables a page is open on), and whether it shows
each person their own view (``private``: a chat bot, the web
table, the console). It gets only the updates of its chats, and private views only when it asked
for them; nobody else gets a hand. The private views are made only when a subscriber of that
chat wants them. A subscriber that fails is logged with the table and the others still get the
update.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine.service.outcome import Outcome
from engine.service.updates import PrivateView, TableUpdate

log = logging.getLogger(__name__)
UpdateHandler = Callable[[TableUpdate], Awaitable[None]]
NoticeHandler = Callable[[Outcome], Awaitable[None]]


@dataclass(frozen=True)
class Subscriber:
    on_update: UpdateHandler | None
    on_notice: NoticeHandler | None
    private: bool
    chats: str  # the prefix of the chat keys it serves ("" for every chat)
    tables: Callable[[int], bool] | None = None  # the tables it shows now (a page open on them), if not all

    def serves(self, chat_key: str, table: int | None = None) -> bool:
        return chat_key.startswith(self.chats) and (table is None or self.tables is None or self.tables(table))


class Subscribers:
    def __init__(self) -> None:
        self._all: list[Subscriber] = []

    def add(self, on_update: UpdateHandler | None = None, on_notice: NoticeHandler | None = None,
            private: bool = False, chats: str = "", tables: Callable[[int], bool] | None = None) -> None:
        self._all.append(Subscriber(on_update, on_notice, private, chats, tables))

    def any(self) -> bool:
        return any(s.on_update is not None for s in self._all)

    async def publish(self, update: TableUpdate,
                      private: Callable[[], dict[int, PrivateView]] | None = None) -> None:
        """``update`` to each subscriber of its chat; ``private`` makes the people's own views, once,
        for the subscribers that show them."""
        public = None
        for sub in list(self._all):
            if sub.on_update is None or not sub.serves(update.chat_key, update.table):
                continue
            if sub.private and private is not None and not update.private:
                update.private = private()
            if sub.private:
                shown = update
            else:
                public = public or TableUpdate(table=update.table, chat_key=update.chat_key, kind=update.kind,
                                               public=update.public, turn_passed=update.turn_passed,
                                               asked=update.asked, damage=update.damage)
                shown = public
            try:
                await sub.on_update(shown)
            except Exception:
                log.exception("table %s: showing its %s update failed", update.table, update.kind)

    async def notice(self, outcome: Outcome | None) -> None:
        """A notice that is not a table's (a match announced, a round started) to the subscribers of
        the chat it names in its parameters (to every subscriber when it names none)."""
        if outcome is None:
            return
        chat = (outcome.params or {}).get("chat") or ""
        for sub in list(self._all):
            if sub.on_notice is None or (chat and not sub.serves(chat)):
                continue
            try:
                await sub.on_notice(outcome)
            except Exception:
                log.exception("showing the notice %s failed (%s)", outcome.key, outcome.params)
