"""Group commit: the moves of many tables stored together, one transaction for all of them.

Under a crowd (issue 20: 32 presses in flight on distinct tables) one transaction per move made
the database the queue: on SQLite every move waited for the one connection and paid its own round
trips and commit, on PostgreSQL its own round trips and commit. Here ``writer.append_move`` hands
the move to the engine's ``MoveWriter`` and waits; one task takes every move waiting (up to
``MAX_BATCH``, one per table) and writes them in one transaction: each table advanced only where
its version is still the one its move was made on (the version race, per table), the log lines,
the old clocks retired and the new ones set, the finished games' results, the notices to the other
processes (PostgreSQL). Only after the commit is each waiter told whether its move was stored; when
the batch fails (a statement or the commit) every move in it fails with that error, none is
acknowledged, and each caller drops its copy of the table (the database is right). While a batch
is being written the next one gathers, so batches grow with the load and a lone move is written at
once, by the one task, one batch at a time.

How a batch is written, by database: on SQLite, every statement in one call in aiosqlite's thread
(one hop instead of a dozen, each of which waits for the event loop and the GIL under load); on
PostgreSQL, one statement of data-modifying CTEs and the commit (two round trips); on any other
database, SQLAlchemy Core statements, each for the whole batch (``_statements``, also tested on
SQLite).

A move answering a clock marks it done in the same transaction only while its owner still holds
the lease; when another process took the clock over, the batch is written again without that move
(its caller is told it was not stored). PostgreSQL may abort a batch that met another process's in
a deadlock: it is written again, a few times, since nothing of it was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import case, delete, exc, insert, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from engine.service.storage.database import CHANNEL, payload
from engine.service.storage.rows import (
    OPEN_CLOCKS,
    ActionRow,
    ClockInfo,
    DeadlineRow,
    ResultRow,
    TableRow,
    clock_values,
)

MAX_BATCH = 64  # moves per transaction: bounds the statement and the time the one connection is held
DEADLOCK_RETRIES = 3  # a PostgreSQL deadlock or serialization failure: the whole batch again

# the columns of a finished game's result row (its id is the database's)
_RESULT_COLUMNS = ("table_id", "chat_key", "game", "ruleset", "reason", "seats", "winners", "scores", "finished_at")


@dataclass(eq=False)
class Move:
    """One move as ``writer.append_move`` was asked to store it."""

    table_id: int
    old_version: int
    seat: int
    action: str
    snapshot: str
    status: str
    clocks: list  # ClockInfo (or DeadlineRow): the clocks the new state implies
    result: ResultRow | None = None
    row_values: dict = field(default_factory=dict)  # other columns that change with the move
    fired: tuple[int, str] | None = None  # (clock id, owner): the clock this move answers
    notify: str | None = None  # this process's name, for the others (PostgreSQL)
    future: asyncio.Future | None = None


class _LeaseLost(Exception):
    """A clock's lease was taken over: the batch is written again without these moves."""

    def __init__(self, moves: list[Move]) -> None:
        super().__init__(f"{len(moves)} clock(s) taken over by another process")
        self.moves = moves


def _commit_now(commit: Callable[[], Any], batch: list[Move]) -> Any:
    """Every batch's commit goes through here, on every database (a test makes it fail)."""
    return commit()


def _is_deadlock(error: BaseException) -> bool:
    orig = getattr(error, "orig", None)
    code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    return code in ("40P01", "40001")  # deadlock detected, serialization failure


class _Held:
    """The writer's connection: kept from batch to batch while moves keep coming, except SQLite's
    only one, which the service's other transactions wait for."""

    def __init__(self) -> None:
        self.conn: AsyncConnection | None = None

    async def connection(self, engine: AsyncEngine) -> AsyncConnection:
        if self.conn is None:
            self.conn = await engine.connect()
        return self.conn

    async def release(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


class MoveWriter:
    """The one writer of moves for an engine in this event loop (``writer_for``): one task writes
    one batch at a time while moves wait, and ends when none is left."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self.loop = asyncio.get_running_loop()
        self._waiting: list[Move] = []
        self._task: asyncio.Task | None = None  # set while the writing task runs
        self.batches = 0  # transactions committed, moves in them, the largest (for tests and benches)
        self.moves = 0
        self.largest = 0

    async def write(self, move: Move) -> bool:
        """Store one move with whatever else is waiting; True once committed, False when the table
        (or the clock's lease) had moved on; the batch's error when it failed."""
        move.future = self.loop.create_future()
        self._waiting.append(move)
        if self._task is None:
            self._task = self.loop.create_task(self._drain(), name="group-commit")
        return await move.future

    async def idle(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the moves handed over are written (closing)."""
        if self._task is not None:
            await asyncio.wait([self._task], timeout=timeout)

    def _take(self) -> list[Move]:
        """The next batch: the moves still wanted, one per table (a second move of a table waits
        for the next batch; the version check then decides), at most ``MAX_BATCH``."""
        batch, later, tables = [], [], set()
        for move in self._waiting:
            if move.future.done():  # its caller gave up (cancelled) before it was written
                continue
            if move.table_id in tables or len(batch) >= MAX_BATCH:
                later.append(move)
            else:
                tables.add(move.table_id)
                batch.append(move)
        self._waiting = later
        return batch

    async def _drain(self) -> None:
        held = _Held()
        try:
            while True:
                while self._waiting:
                    await self._batch(held)
                await held.release()
                # a move that came during the release is written by this task: between this check
                # and ``_task`` going back to None there is no await, so ``write`` starts one if needed
                if not self._waiting:
                    break
        finally:
            self._task = None
            if held.conn is not None:  # ended by an error or a cancellation
                with contextlib.suppress(BaseException):
                    await held.release()

    async def _batch(self, held: _Held) -> None:
        batch = self._take()
        if not batch:
            return
        try:
            stored = await self._write(held, batch)
        except asyncio.CancelledError:  # the loop is closing: nobody is told it was stored
            for move in batch + self._waiting:
                if not move.future.done():
                    move.future.cancel()
            self._waiting = []
            raise
        except BaseException as e:  # every waiter gets the batch's error
            for move in batch:
                if not move.future.done():
                    move.future.set_exception(e)
            if not isinstance(e, Exception):  # the process is stopping (SystemExit, KeyboardInterrupt)
                raise
            await held.release()  # a connection that failed is not used again
            return
        self.batches += 1
        self.moves += len(batch)
        self.largest = max(self.largest, len(batch))
        for move in batch:
            if not move.future.done():
                move.future.set_result(move in stored)

    async def _write(self, held: _Held, batch: list[Move]) -> set[Move]:
        """One transaction for the batch; the moves stored. Written again without the moves whose
        clock was taken over, and after a PostgreSQL deadlock."""
        attempts = 0
        while True:
            conn = await held.connection(self.engine)
            try:
                stored = await _write_sqlite(conn, batch) if self.dialect == "sqlite" and FAST_PATHS else None
                if stored is None:
                    try:
                        if self.dialect == "postgresql" and FAST_PATHS:
                            stored = await _statements_postgresql(conn, batch)
                        else:
                            stored = await _statements(conn, batch)
                        await _commit_now(conn.commit, batch)
                    except BaseException:
                        with contextlib.suppress(Exception):
                            await conn.rollback()
                        raise
                if self.dialect == "sqlite":
                    await held.release()
                return stored
            except _LeaseLost as lost:
                batch = [m for m in batch if m not in lost.moves]
                if not batch:
                    return set()
            except exc.DBAPIError as e:
                attempts += 1
                if not _is_deadlock(e) or attempts >= DEADLOCK_RETRIES:
                    raise


# the driver-specific paths below do in one or two round trips what ``_statements`` does in six;
# ``_statements`` (SQLAlchemy Core) serves any other database, and tests run it on SQLite too
FAST_PATHS = True


async def _statements(conn: AsyncConnection, batch: list[Move]) -> set[Move]:
    """The batch's statements (not committed); the moves whose table was still at their version."""
    now = time.time()
    by_table = {m.table_id: m for m in batch}
    ids = sorted(by_table)  # rows are locked in one order by every batch (PostgreSQL)
    advanced = await conn.execute(
        update(TableRow)
        .where(TableRow.id.in_(ids),
               TableRow.version == case({i: by_table[i].old_version for i in ids}, value=TableRow.id))
        .values(version=TableRow.version + 1,
                snapshot=case({i: by_table[i].snapshot for i in ids}, value=TableRow.id),
                status=case({i: by_table[i].status for i in ids}, value=TableRow.id),
                updated_at=now)
        .returning(TableRow.id))
    moved = [by_table[i] for i in sorted(row[0] for row in advanced)]
    if not moved:
        return set()
    for move in moved:
        if move.row_values:  # seats or missed clocks changed with the move (rare)
            await conn.execute(update(TableRow).where(TableRow.id == move.table_id).values(**move.row_values))
    await _mark_fired(conn, moved)
    # plain statements, each for the whole batch: this is the hot path of every move
    await conn.execute(insert(ActionRow), [
        {"table_id": m.table_id, "seq": m.old_version + 1, "seat": m.seat, "action": m.action, "at": now,
         "deadline_id": m.fired[0] if m.fired else None} for m in moved])
    running = [m.table_id for m in moved if m.status == "running"]
    ended = [m.table_id for m in moved if m.status != "running"]
    if running:  # the old clocks are retired; the match clock stays while the game runs
        await conn.execute(delete(DeadlineRow).where(DeadlineRow.table_id.in_(running),
                                                     DeadlineRow.status.in_(OPEN_CLOCKS),
                                                     DeadlineRow.kind != "match"))
    if ended:
        await conn.execute(delete(DeadlineRow).where(DeadlineRow.table_id.in_(ended),
                                                     DeadlineRow.status.in_(OPEN_CLOCKS)))
    clocks = [clock_values(row, m.table_id) for m in moved for row in m.clocks]
    if clocks:
        await conn.execute(insert(DeadlineRow), clocks)
    await _insert_results(conn, moved)
    told = [payload(m.table_id, m.old_version + 1, m.notify) for m in moved if m.notify is not None]
    if told and conn.dialect.name == "postgresql":  # the others drop their copies once this commits
        await conn.execute(_NOTIFY, {"told": told})
    return set(moved)


async def _mark_fired(conn: AsyncConnection, moved: list[Move]) -> None:
    """The clocks these moves answer are done, each only while its owner still holds it."""
    lost = []
    for move in moved:
        if move.fired is not None:
            done = await conn.execute(update(DeadlineRow).where(
                DeadlineRow.id == move.fired[0], DeadlineRow.status == "claimed", DeadlineRow.owner == move.fired[1])
                .values(status="done"))
            if done.rowcount != 1:  # our lease ran out and another process took this clock
                lost.append(move)
    if lost:
        raise _LeaseLost(lost)


async def _insert_results(conn: AsyncConnection, moved: list[Move]) -> None:
    results = [{k: getattr(m.result, k) for k in _RESULT_COLUMNS} for m in moved if m.result is not None]
    if results:
        await conn.execute(insert(ResultRow), results)


_NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', p) FROM unnest(CAST(:told AS TEXT[])) AS p")

# -- PostgreSQL: one statement for the batch --------------------------------------------------------
#
# Data-modifying CTEs: the tables locked in id order (two processes' batches never wait for each
# other in a cycle), advanced where the version is still the move's, and for exactly those the
# log lines, the old clocks retired (not the ones the moves answer: ``_mark_fired`` closes those
# next), the new clocks and the notices. The arrays are one element per move (or per clock). A
# table's clocks are found by its id alone (``theirs``): every move deletes and inserts clocks, so
# the index on their status holds many dead entries until a vacuum, and a plan through it costs
# far more than reading a table's few clocks.
_PG_BATCH = text("""
WITH m AS (
    SELECT * FROM unnest(CAST(:ids AS INTEGER[]), CAST(:olds AS INTEGER[]), CAST(:snapshots AS TEXT[]),
                         CAST(:statuses AS TEXT[]), CAST(:seats AS INTEGER[]), CAST(:actions AS TEXT[]),
                         CAST(:fired AS INTEGER[]))
        AS m(id, old, snapshot, status, seat, action, deadline_id)
), locked AS (
    SELECT id FROM tables WHERE id = ANY(CAST(:ids AS INTEGER[])) ORDER BY id FOR UPDATE
), moved AS (
    UPDATE tables AS t SET version = t.version + 1, snapshot = m.snapshot, status = m.status, updated_at = :now
    FROM m WHERE t.id = m.id AND t.version = m.old AND t.id IN (SELECT id FROM locked)
    RETURNING t.id, m.old, m.seat, m.action, m.status, m.deadline_id
), logged AS (
    INSERT INTO actions (table_id, seq, seat, action, at, deadline_id)
    SELECT id, old + 1, seat, action, :now, deadline_id FROM moved
), theirs AS MATERIALIZED (
    SELECT d.id, d.status, d.kind, moved.status AS table_status FROM deadlines AS d JOIN moved ON d.table_id = moved.id
), retired AS (
    DELETE FROM deadlines WHERE id IN (
        SELECT id FROM theirs WHERE status IN ('pending', 'claimed') AND (table_status <> 'running' OR kind <> 'match')
                                AND id <> ALL(CAST(:fired_ids AS INTEGER[])))
), clocks AS (
    INSERT INTO deadlines (table_id, schedule_id, tournament_id, version, seat, kind, due_at, status, ai, owner,
                           lease_until)
    SELECT c.* FROM unnest(CAST(:c_table AS INTEGER[]), CAST(:c_schedule AS INTEGER[]),
                           CAST(:c_tournament AS INTEGER[]), CAST(:c_version AS INTEGER[]),
                           CAST(:c_seat AS INTEGER[]), CAST(:c_kind AS TEXT[]), CAST(:c_due AS FLOAT8[]),
                           CAST(:c_status AS TEXT[]), CAST(:c_ai AS BOOLEAN[]), CAST(:c_owner AS TEXT[]),
                           CAST(:c_lease AS FLOAT8[]))
        AS c(table_id, schedule_id, tournament_id, version, seat, kind, due_at, status, ai, owner, lease_until)
    WHERE c.table_id IN (SELECT id FROM moved)
), told AS (
    SELECT pg_notify('""" + CHANNEL + """', n.payload)
    FROM unnest(CAST(:n_table AS INTEGER[]), CAST(:n_payload AS TEXT[])) AS n(table_id, payload)
    WHERE n.table_id IN (SELECT id FROM moved)
)
SELECT id, (SELECT count(*) FROM told) AS told FROM moved ORDER BY id
""")


async def _statements_postgresql(conn: AsyncConnection, batch: list[Move]) -> set[Move]:
    by_table = {m.table_id: m for m in batch}
    moves = [by_table[i] for i in sorted(by_table)]
    clocks = [clock_values(row, m.table_id) for m in moves for row in m.clocks]
    told = [m for m in moves if m.notify is not None]
    params = {
        "now": time.time(),
        "ids": [m.table_id for m in moves], "olds": [m.old_version for m in moves],
        "snapshots": [m.snapshot for m in moves], "statuses": [m.status for m in moves],
        "seats": [m.seat for m in moves], "actions": [m.action for m in moves],
        "fired": [m.fired[0] if m.fired else None for m in moves],
        "fired_ids": [m.fired[0] for m in moves if m.fired],
        "n_table": [m.table_id for m in told],
        "n_payload": [payload(m.table_id, m.old_version + 1, m.notify) for m in told],
    }
    for key, column in (("c_table", "table_id"), ("c_schedule", "schedule_id"), ("c_tournament", "tournament_id"),
                        ("c_version", "version"), ("c_seat", "seat"), ("c_kind", "kind"), ("c_due", "due_at"),
                        ("c_status", "status"), ("c_ai", "ai"), ("c_owner", "owner"), ("c_lease", "lease_until")):
        params[key] = [c[column] for c in clocks]
    moved = [by_table[row[0]] for row in await conn.execute(_PG_BATCH, params)]
    if not moved:
        return set()
    for move in moved:
        if move.row_values:
            await conn.execute(update(TableRow).where(TableRow.id == move.table_id)
                               .values(**move.row_values))
    await _mark_fired(conn, moved)
    await _insert_results(conn, moved)
    return set(moved)


# -- SQLite: the whole batch in the driver's thread, one hop ----------------------------------------
#
# aiosqlite runs every call in its connection's thread; a batch of a dozen statements would hop
# there and back a dozen times, each hop waiting for the event loop (and the GIL) under load. Here
# the batch is one function run in that thread on the ``sqlite3`` connection, on the engine's one
# connection (checked out: nobody else writes meanwhile, as with any transaction of the service).

_SQLITE_ADVANCE = "UPDATE tables SET snapshot = ?, version = ?, status = ?, updated_at = ? WHERE id = ? AND version = ?"
_SQLITE_FIRED = "UPDATE deadlines SET status = 'done' WHERE id = ? AND status = 'claimed' AND owner = ?"
_SQLITE_LOG = "INSERT INTO actions (table_id, seq, seat, action, at, deadline_id) VALUES (?, ?, ?, ?, ?, ?)"
_SQLITE_RETIRE = "DELETE FROM deadlines WHERE table_id = ? AND status IN ('pending', 'claimed')"
_SQLITE_RETIRE_RUNNING = _SQLITE_RETIRE + " AND kind != 'match'"
_CLOCK_COLUMNS = ("table_id", "schedule_id", "tournament_id", "version", "seat", "kind", "due_at", "status", "ai",
                  "owner", "lease_until")
_SQLITE_CLOCK = f"INSERT INTO deadlines ({', '.join(_CLOCK_COLUMNS)}) VALUES ({', '.join('?' * len(_CLOCK_COLUMNS))})"
_SQLITE_RESULT = f"INSERT INTO results ({', '.join(_RESULT_COLUMNS)}) VALUES ({', '.join('?' * len(_RESULT_COLUMNS))})"
_JSON_COLUMNS = {"seats", "missed", "messages", "options", "clocks", "damage", "winners", "scores"}


def _sqlite_value(column: str, value: Any) -> Any:
    return json.dumps(value) if column in _JSON_COLUMNS else value  # as SQLAlchemy's JSON type stores it


def _sqlite_batch(db: sqlite3.Connection, batch: list[Move], now: float) -> list[Move]:
    """In the driver's thread: the batch's statements and its commit; rolled back on any failure."""
    try:
        cur = db.cursor()
        moved = []
        for move in sorted(batch, key=lambda m: m.table_id):
            cur.execute(_SQLITE_ADVANCE, (move.snapshot, move.old_version + 1, move.status, now, move.table_id,
                                          move.old_version))
            if cur.rowcount == 1:
                moved.append(move)
        lost = []
        for move in moved:
            if move.row_values:  # seats or missed clocks changed with the move (rare)
                columns = sorted(move.row_values)
                cur.execute(f"UPDATE tables SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
                            [*(_sqlite_value(c, move.row_values[c]) for c in columns), move.table_id])
            if move.fired is not None:
                cur.execute(_SQLITE_FIRED, move.fired)
                if cur.rowcount != 1:
                    lost.append(move)
        if lost:
            raise _LeaseLost(lost)
        if moved:
            cur.executemany(_SQLITE_LOG, [(m.table_id, m.old_version + 1, m.seat, m.action, now,
                                           m.fired[0] if m.fired else None) for m in moved])
            cur.executemany(_SQLITE_RETIRE_RUNNING, [(m.table_id,) for m in moved if m.status == "running"])
            cur.executemany(_SQLITE_RETIRE, [(m.table_id,) for m in moved if m.status != "running"])
            clocks = [clock_values(row, m.table_id) for m in moved for row in m.clocks]
            cur.executemany(_SQLITE_CLOCK, [tuple(c[k] for k in _CLOCK_COLUMNS) for c in clocks])
            cur.executemany(_SQLITE_RESULT, [tuple(_sqlite_value(k, getattr(m.result, k)) for k in _RESULT_COLUMNS)
                                             for m in moved if m.result is not None])
        _commit_now(db.commit, batch)
        return moved
    except BaseException:
        db.rollback()
        raise


async def _write_sqlite(conn: AsyncConnection, batch: list[Move]) -> set[Move] | None:
    """The batch in one hop, committed; None when the driver is not the aiosqlite this expects
    (``_execute`` runs a function in its thread, ``_conn`` is its ``sqlite3`` connection)."""
    driver = (await conn.get_raw_connection()).driver_connection
    if not callable(getattr(driver, "_execute", None)) or not isinstance(getattr(driver, "_conn", None),
                                                                         sqlite3.Connection):
        return None
    try:
        moved = await driver._execute(lambda: _sqlite_batch(driver._conn, batch, time.time()))
    except sqlite3.Error as e:  # as SQLAlchemy would raise it (DB_ERRORS)
        raise exc.DBAPIError.instance(None, None, e, sqlite3.Error) from e
    return set(moved)


# one writer per engine and event loop (an engine outlives a loop in some tests and benches)
_writers: weakref.WeakKeyDictionary[AsyncEngine, MoveWriter] = weakref.WeakKeyDictionary()


async def settle(engine: AsyncEngine, timeout: float = 5.0) -> None:
    """Before the engine is closed: the moves already handed over are written (or failed)."""
    writer = _writers.get(engine)
    if writer is not None and writer.loop is asyncio.get_running_loop():
        await writer.idle(timeout)


def writer_for(engine: AsyncEngine) -> MoveWriter:
    writer = _writers.get(engine)
    if writer is None or writer.loop is not asyncio.get_running_loop():
        writer = _writers[engine] = MoveWriter(engine)
    return writer


async def append_move(engine: AsyncEngine, table_id: int, old_version: int, seat: int, action_json: str,
                      snapshot: str, status: str, deadlines: list[DeadlineRow | ClockInfo] | None = None,
                      result: ResultRow | None = None, row_values: dict | None = None,
                      fired: tuple[int, str] | None = None, notify: str | None = None) -> bool:
    """One move, stored atomically: the log line, the snapshot at ``version + 1`` (only if the
    version is still ``old_version``), other columns of the table that change with it (``row_values``:
    seats, missed clocks), the old clocks retired and the new ones set. ``fired`` (deadline id,
    owner): the clock this move answers, marked done only while ``owner`` still holds its lease.
    False when another press, process or clock moved first (nothing is written then). It returns
    only once the move is committed: moves of other tables waiting at the same time share its
    transaction (``writer.py``, group commit), and a failed transaction raises for every one."""
    return await writer_for(engine).write(Move(table_id, old_version, seat, action_json, snapshot, status,
                                               list(deadlines or ()), result, dict(row_values or {}), fired, notify))
