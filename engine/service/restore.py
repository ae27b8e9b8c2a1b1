"""Bringing tables back after a start: every running table gets exactly the clocks its state
implies (a crash may have left some missing or stale), AI seats that owe a move make it, the chats
of damaged tables are told (once, in their language, by the front ends), and on PostgreSQL the
other processes' moves are listened for.

A lazy start (a bot's process) reads only the ids of the tables in progress when it opens; the
pass here then rebuilds each from its log beside the first presses and sweeps (a table a press or a
clock needs first is loaded then, from its snapshot). A table that does not replay is set aside
(quarantine, ``cache.py``), never a reason for the process not to start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.cache import LiveTable
from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.notices import Listener
from engine.service.outcome import IN_PROGRESS
from engine.service.storage import queries
from engine.service.storage.rows import TableRow
from engine.service.updates import TableUpdate

log = logging.getLogger(__name__)


class Restorer:
    def __init__(self, core: Core, clocks: Clocks, listener: Listener) -> None:
        self.core, self.clocks, self.listener = core, clocks, listener
        self.unrestored: list[int] | None = None  # tables in progress a lazy start restores
        self._restoring: asyncio.Task | None = None
        self._telling = asyncio.Lock()
        self._background: set[asyncio.Task] = set()
        core.cache.on_damaged = self._damaged

    async def stop(self) -> None:
        if self._restoring is not None and not self._restoring.done():
            self._restoring.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restoring

    async def startup(self) -> None:
        """Before the first sweep: every running table gets exactly the clocks its state implies
        (a crash may have left some missing or stale), AI seats that owe a move make it, the chats
        of damaged tables are told, and (on PostgreSQL) the other processes' moves are listened for."""
        if self._restoring is not None:  # a lazy start's pass is under way (a second call)
            return
        self.listener.start()
        if self.unrestored is not None:  # opened lazily: restored beside the first sweeps
            ids, self.unrestored = self.unrestored, None
            self._restoring = asyncio.create_task(self._restore(ids), name="restore")
            return
        for live in list(self.core.cache.running()):
            await self._reconcile(live)
        await self.tell_damaged()

    async def _reconcile(self, live: LiveTable) -> None:
        """A table in progress after a start: exactly the clocks its state implies, and AI seats
        that owe a move make it."""
        async with self.core.cache.lock(live.row.id):
            if live.row.status != "running" or live.state is None:
                return
            await self.clocks.reconcile(live)
            ai_owes = any(live.row.seats[d.seat]["ai"] for d in live.rules.waiting_for(live.state))
        if ai_owes:
            self.core.outbox.kick(live.row.id)

    async def _restore(self, ids: list[int]) -> None:
        """The start-up pass of a lazy start: each table in progress rebuilt from its log (under its
        lock: a press or a clock that needed it first loaded it already) and reconciled."""
        began = time.monotonic()
        for table_id in ids:
            async with self.core.cache.lock(table_id):
                live = self.core.cache.peek(table_id)
                if live is None:
                    async with AsyncSession(self.core.db) as session:
                        row = await session.get(TableRow, table_id)
                    in_progress = row is not None and row.status in IN_PROGRESS
                    live = await self.core.cache.load(row, verify=True) if in_progress else None
            if live is not None:
                await self._reconcile(live)
            await asyncio.sleep(0)  # presses and clocks go first
        await self.tell_damaged()
        log.info("restored %s tables in progress in %.1f s", len(ids), time.monotonic() - began)

    async def restored(self) -> None:
        """Wait until a lazy start has restored every table in progress (at once after an eager one)."""
        if self._restoring is not None:
            await asyncio.shield(self._restoring)

    def _damaged(self, row: TableRow) -> None:
        """A table was put in quarantine while running: tell its chat (when anyone listens)."""
        with contextlib.suppress(RuntimeError):  # no running loop: startup() tells it later
            task = asyncio.get_running_loop().create_task(self.tell_damaged(), name=f"damaged-{row.id}")
            self._background.add(task)  # kept until done (the loop holds tasks only weakly)
            task.add_done_callback(self._background.discard)

    async def tell_damaged(self) -> int:
        """Each damaged table's chat hears it once (in the chats' language, by the front ends)."""
        if not self.core.subscribers.any():
            return 0
        async with self._telling:  # the start-up and a quarantine while running may both ask
            async with AsyncSession(self.core.db) as session:
                rows = (await session.exec(select(TableRow).where(TableRow.status == "damaged"))).all()
            told = 0
            for row in rows:
                if (row.damage or {}).get("told"):
                    continue
                await queries.update_table(self.core.db, row.id, damage={**(row.damage or {}), "told": True})
                await self.core.subscribers.publish(TableUpdate(table=row.id, chat_key=row.chat_key, kind="damaged",
                                                    public=None, damage=(row.damage or {}).get("reason")))
                told += 1
            return told
