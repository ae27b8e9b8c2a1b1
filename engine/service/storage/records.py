"""A table's message record, held by one front end at a time across every process.

A front end that shows an update posts and edits chat messages and stores their ids with the table
(``tables.messages``). With several processes on one database two of them may show updates of one
table at once (each shows the moves it made): without care both would post the new table message,
and each would go on editing what it alone remembers. So showing an update *holds* the table's
record: one task per process (an asyncio lock) and, on PostgreSQL, one process (a session advisory
lock, taken with ``pg_try_advisory_lock`` on a connection each process keeps for these locks). The
holder reads the ids as stored now and, when it lets go, stores back only the keys it changed, so
ids stored meanwhile under other keys (a lobby message, a forum topic) are kept. Front ends keep in
the record what each message shows (digests), so whichever process edits next skips an edit that
would change nothing and does not upload an unchanged picture again.

Without PostgreSQL there is one process and the asyncio lock is all it takes. When the database
cannot be reached, or the other process holds a record longer than ``WAIT``, the front end goes on
with what it has: a message shown twice beats a table not shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import time
import weakref
from collections.abc import AsyncIterator

from engine.service.storage import queries
from engine.service.storage.database import asyncpg_dsn
from engine.service.storage.errors import DB_ERRORS

log = logging.getLogger(__name__)
LOCK_SPACE = 0x7479  # the first half of the advisory lock's key ("ty"); the table id is the second
WAIT = 15.0  # seconds to wait for another process's hold before going on without it
POLL = 0.02


class Records:
    def __init__(self, db, cache) -> None:
        self.db, self.cache = db, cache
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._connection = None
        self._connection_lock = asyncio.Lock()
        self.waited = 0  # holds that had to wait for another process (for tests and the log)

    def _local(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[table_id] = lock
        return lock

    @contextlib.asynccontextmanager
    async def hold(self, table_id: int, fallback: dict | None = None) -> AsyncIterator[dict]:
        """The table's message ids as stored now, to change in place; what changed is stored when
        the block ends (also when it fails half way: what was posted stays known). ``fallback``:
        the ids to go on with when the database cannot be read."""
        async with self._local(table_id):
            across = await self._lock_across(table_id)
            stored: dict | None = None
            try:
                try:
                    stored = await queries.read_messages(self.db, table_id)
                except DB_ERRORS as e:
                    log.warning("table %s: message ids not read (%s); going on with the copy", table_id, e)
                stored = dict(fallback or {}) if stored is None else stored
                record = copy.deepcopy(stored)
                try:
                    yield record
                finally:
                    await self._store(table_id, stored, record)
            finally:
                if across:
                    await self._unlock(table_id)

    async def _store(self, table_id: int, stored: dict, record: dict) -> None:
        changed = {k: v for k, v in record.items() if stored.get(k) != v}
        removed = [k for k in stored if k not in record]
        if not changed and not removed:
            return
        try:
            merged = await queries.merge_messages(self.db, table_id, changed, removed)
        except DB_ERRORS as e:
            log.warning("table %s: message ids not stored (%s)", table_id, e)
            return
        live = self.cache.peek(table_id)
        if live is not None and merged is not None:
            live.row.messages = merged

    # -- across processes (PostgreSQL) ------------------------------------------------------------

    async def _query(self, sql: str, *args):
        async with self._connection_lock:
            if self._connection is None or self._connection.is_closed():
                import asyncpg

                url = self.db.url.render_as_string(hide_password=False)
                self._connection = await asyncpg.connect(asyncpg_dsn(url), timeout=5)
            return await self._connection.fetchval(sql, *args, timeout=5)

    async def _lock_across(self, table_id: int) -> bool:
        if self.db.dialect.name != "postgresql":
            return False
        began = time.monotonic()
        waited = False
        while True:
            try:
                if await self._query("SELECT pg_try_advisory_lock($1, $2)", LOCK_SPACE, table_id):
                    self.waited += waited
                    return True
            except Exception as e:  # the database blinked: show the update anyway
                log.warning("table %s: no hold on its messages across processes (%s: %s)", table_id,
                            type(e).__name__, str(e)[:200])
                await self._forget_connection()
                return False
            waited = True
            if time.monotonic() - began > WAIT:
                log.warning("table %s: another process held its messages for %.0f s; going on", table_id, WAIT)
                return False
            await asyncio.sleep(POLL)

    async def _unlock(self, table_id: int) -> None:
        try:
            await self._query("SELECT pg_advisory_unlock($1, $2)", LOCK_SPACE, table_id)
        except Exception as e:  # a lost connection let go of its locks with it
            log.info("table %s: advisory unlock failed (%s)", table_id, e)
            await self._forget_connection()

    async def _forget_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close(timeout=2)

    async def close(self) -> None:
        async with self._connection_lock:
            await self._forget_connection()
