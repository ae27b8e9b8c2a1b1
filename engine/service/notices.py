"""Telling the other processes on one PostgreSQL which table moved (``LISTEN/NOTIFY``).

Every move's transaction sends ``NOTIFY tycoon_tables, '<table>:<version>:<process>'`` (delivered
when it commits), and so does a change of seats. Each process listens on a connection of its own
and drops its copy of a table another process changed: the next press, clock or screen reads the
table again (from its snapshot, cheaply). Nothing depends on a notice arriving: a press with a
newer token than the copy reads the table again anyway, and a move on a stale copy loses the
version race and is tried once more on the fresh state. Notices only make that rare.

On SQLite (one process) there is nobody to tell: nothing is sent or listened for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from engine.service.storage.database import CHANNEL, asyncpg_dsn

log = logging.getLogger(__name__)
RETRY_MAX = 30.0


class Listener:
    """One connection per process, listening; it reconnects with back-off when it is lost."""

    def __init__(self, db, owner: str, cache) -> None:
        self.db, self.owner, self.cache = db, owner, cache
        self.heard = 0
        self.ready = asyncio.Event()  # set while listening
        self._task: asyncio.Task | None = None
        self._watchers: list[Callable[[int], Awaitable[None]]] = []
        self._told: set[asyncio.Task] = set()

    def watch(self, callback: Callable[[int], Awaitable[None]]) -> None:
        """``await callback(table)`` when another process changed a table (a move, a lobby's joins):
        this process publishes no update for it, so a web page showing the table reads it again."""
        self._watchers.append(callback)

    def _changed_elsewhere(self, table_id: int) -> None:
        for callback in self._watchers:
            task = asyncio.get_running_loop().create_task(callback(table_id), name=f"elsewhere-{table_id}")
            self._told.add(task)  # kept until done (a task nobody holds may be collected)
            task.add_done_callback(self._told.discard)

    def start(self) -> None:
        if self.db.dialect.name != "postgresql" or self._task is not None:
            return
        self._task = asyncio.get_running_loop().create_task(self._listen(), name="table-notices")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    def _on_notice(self, _connection, _pid, _channel, body: str) -> None:
        """Another process moved a table (a version) or changed its seats (version -1)."""
        table, _, rest = body.partition(":")
        version, _, owner = rest.partition(":")
        if owner == self.owner or not table.isdigit():
            return
        self.heard += 1
        live = self.cache.peek(int(table))
        moved = not version.isdigit() or live is None or int(version) > live.row.version
        if live is not None and moved:
            self.cache.drop(int(table))  # read again at its next use
        if moved:  # pages of this process showing the table follow (a move, a lobby's joins)
            self._changed_elsewhere(int(table))

    async def _listen(self) -> None:
        import asyncpg

        url = self.db.url.render_as_string(hide_password=False)
        delay = 1.0
        while True:
            connection = None
            try:
                connection = await asyncpg.connect(asyncpg_dsn(url))
                await connection.add_listener(CHANNEL, self._on_notice)
                self.ready.set()
                delay = 1.0
                while not connection.is_closed():
                    await asyncio.sleep(1.0)
                self.ready.clear()
                log.warning("table notices: the connection closed; listening again")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the server restarted, or is not there yet
                self.ready.clear()
                log.warning("table notices: cannot listen (%s: %s); trying again in %.0f s", type(e).__name__,
                            str(e)[:200], delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.close()
