"""The reads and writes the service makes besides moves (a move is ``writer.append_move``): a
table's log, its clocks (claimed with a lease, released, due, reconciled with what its state
implies, purged), a table's columns changed in place (seats, messages, its start and end).

A clock cannot fire twice nor be lost by a process that dies between taking it and applying it:
it is claimed with a lease, and marked done in the transaction of the move it makes
(``writer.py``). SQLite (WAL) by default, any SQLAlchemy URL otherwise.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import and_, delete, func, or_, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.storage import formats
from engine.service.storage.database import tell_others
from engine.service.storage.rows import (
    OPEN_CLOCKS,
    ActionRow,
    ClockInfo,
    DeadlineRow,
    TableRow,
    info,
)


def _retire_clocks(table_id: int, keep_match: bool):
    query = delete(DeadlineRow).where(DeadlineRow.table_id == table_id, DeadlineRow.status.in_(OPEN_CLOCKS))
    return query.where(DeadlineRow.kind != "match") if keep_match else query


async def load_log(engine: AsyncEngine, table_id: int) -> list[ActionRow]:
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq))
        return list(rows)


async def movers_since(engine: AsyncEngine, table_id: int, version: int) -> set[int]:
    """Who made the moves that took a table past ``version``."""
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(ActionRow.seat).where(ActionRow.table_id == table_id,
                                                               ActionRow.seq > version))
        return set(rows)


async def claim(engine: AsyncEngine, ids: list[int], owner: str, now: float, lease: float) -> list[DeadlineRow]:
    """Take due clocks for this process: each still pending and due, or leased by a process whose
    lease ran out. The rows this process now holds, as they are stored now (another process may
    have taken some first; a clock changed since it was read is fired as it is now, or not at all
    when it is no longer due)."""
    if not ids:
        return []
    columns = DeadlineRow.__table__.c
    async with AsyncSession(engine) as session:
        result = await session.exec(
            update(DeadlineRow).where(DeadlineRow.id.in_(ids), or_(
                and_(DeadlineRow.status == "pending", DeadlineRow.due_at <= now),
                and_(DeadlineRow.status == "claimed", DeadlineRow.lease_until < now)))
            .values(status="claimed", owner=owner, lease_until=now + lease)
            .returning(*columns))
        taken = [DeadlineRow(**dict(row._mapping)) for row in result]
        await session.commit()
        return sorted(taken, key=lambda r: r.due_at)


async def release(engine: AsyncEngine, deadline_id: int, owner: str, status: str = "pending") -> bool:
    """Give a claimed clock back (``pending``: to be tried again), retire it (``moot``: it no longer
    applies) or close it (``done``), only while ``owner`` still holds it."""
    async with AsyncSession(engine) as session:
        result = await session.exec(update(DeadlineRow).where(
            DeadlineRow.id == deadline_id, DeadlineRow.status == "claimed", DeadlineRow.owner == owner)
            .values(status=status, **({"owner": None, "lease_until": None} if status == "pending" else {})))
        await session.commit()
        return result.rowcount == 1


async def due(engine: AsyncEngine, now: float, limit: int = 500, reads=formats.READS) -> list[DeadlineRow]:
    """Clocks that have run out (oldest first), and clocks whose lease ran out with them; a
    table's only when its format is one this build reads (``reads``: storage/formats.py)."""
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(DeadlineRow)
            .outerjoin(TableRow, TableRow.id == DeadlineRow.table_id)
            .where(or_(and_(DeadlineRow.status == "pending", DeadlineRow.due_at <= now),
                       and_(DeadlineRow.status == "claimed", DeadlineRow.lease_until < now)),
                   or_(DeadlineRow.table_id.is_(None), TableRow.format.in_(reads)))
            .order_by(DeadlineRow.due_at).limit(limit))
        return list(rows)


async def count_open(engine: AsyncEngine) -> int:
    """Tables in a lobby, running or paused (a metric for the operator)."""
    async with AsyncSession(engine) as session:
        result = await session.exec(select(func.count()).select_from(TableRow).where(
            TableRow.status.in_(("lobby", "running", "paused"))))
        return int(result.one())


async def next_due(engine: AsyncEngine) -> float | None:
    """When the next pending clock runs out (the sweeper sleeps until then)."""
    async with AsyncSession(engine) as session:
        result = await session.exec(select(func.min(DeadlineRow.due_at)).where(DeadlineRow.status == "pending"))
        return result.one()


async def reconcile(engine: AsyncEngine, table_id: int, version: int,
                    wanted: list[DeadlineRow]) -> list[ClockInfo] | None:
    """Make the table's decision clocks exactly ``wanted``: keep those already set (their due time
    stands), retire the stale, add the missing; the match clock stays. Only while the table is at
    ``version`` (the row is written first, which also holds off a move until this is done): a copy
    that another process has moved past must not retire the clocks of the newer state. Returns all
    the table's live clocks, or None when the table is no longer at ``version``."""
    wanted_info = [info(w) for w in wanted]
    async with AsyncSession(engine) as session:
        held = await session.exec(update(TableRow).where(TableRow.id == table_id, TableRow.version == version)
                                  .values(updated_at=time.time()))
        if held.rowcount != 1:
            await session.rollback()
            return None
        existing = list(await session.exec(select(DeadlineRow).where(
            DeadlineRow.table_id == table_id, DeadlineRow.status.in_((*OPEN_CLOCKS, "held")))))
        remaining = list(zip(wanted_info, wanted, strict=True))
        out = []
        for row in existing:
            key = info(row)
            match = next((w for w in remaining if w[0][:4] == key[:4]), None)
            if row.kind == "match" or row.status == "held":
                out.append(key)
            elif match is None:
                await session.delete(row)
            else:
                remaining.remove(match)
                out.append(key)
        for clock, row in remaining:
            session.add(row)
            out.append(clock)
        await session.commit()
        return out


async def postpone(engine: AsyncEngine, table_id: int, version: int,
                   not_before: dict[tuple[int, str], float]) -> list[ClockInfo]:
    """Move the table's pending decision clocks of ``version`` that run out before
    ``not_before[(seat, kind)]`` to that time (a person's, never an AI seat's or the match's).
    Returns all the table's open clocks."""
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(DeadlineRow).where(
            DeadlineRow.table_id == table_id, DeadlineRow.version == version, DeadlineRow.status == "pending",
            DeadlineRow.ai == False, DeadlineRow.kind != "match"))  # noqa: E712 (SQL, not Python)
        for row in rows:
            later = not_before.get((row.seat, row.kind))
            if later is not None and row.due_at < later:
                row.due_at = later
                session.add(row)
        await session.commit()
    return await open_clocks(engine, table_id)


async def open_clocks(engine: AsyncEngine, table_id: int) -> list[ClockInfo]:
    async with AsyncSession(engine) as session:
        return [info(r) for r in await session.exec(select(DeadlineRow).where(
            DeadlineRow.table_id == table_id, DeadlineRow.status.in_((*OPEN_CLOCKS, "held"))))]


async def purge(engine: AsyncEngine, before: float) -> int:
    """Forget clocks that fired or were retired before ``before`` (the log keeps what they did)."""
    async with AsyncSession(engine) as session:
        result = await session.exec(delete(DeadlineRow).where(DeadlineRow.status.in_(("done", "moot")),
                                                              DeadlineRow.due_at < before))
        await session.commit()
        return result.rowcount or 0


async def update_table(engine: AsyncEngine, table_id: int, notify: str | None = None, **values) -> None:
    """Change named columns of a table only: never write back a snapshot or version read earlier.
    ``notify``: this process's name, to tell the others (a change of seats, say)."""
    async with AsyncSession(engine) as session:
        await session.exec(update(TableRow).where(TableRow.id == table_id).values(**values))
        if notify is not None:
            await tell_others(session, table_id, -1, notify)
        await session.commit()


async def modify_table(engine: AsyncEngine, table_id: int, change, notify: str | None = None) -> TableRow | None:
    """Read, change and write one table's named columns in one transaction, the row locked while
    ``change(row)`` decides on what is stored now (``FOR UPDATE`` on PostgreSQL; SQLite has one
    writer). ``change`` returns the values to store, or None to store nothing. Two processes that
    change the seats or the message ids of one table at once both keep their change. The row as
    stored afterwards (detached), or None when there is no such table."""
    async with AsyncSession(engine, expire_on_commit=False) as session:
        row = (await session.exec(select(TableRow).where(TableRow.id == table_id).with_for_update())).first()
        if row is None:
            return None
        values = change(row)
        if values:
            await session.exec(update(TableRow).where(TableRow.id == table_id).values(**values))
            if notify is not None:
                await tell_others(session, table_id, -1, notify)
        await session.commit()
        session.expunge(row)
        for key, value in (values or {}).items():
            setattr(row, key, value)
        return row


async def merge_messages(engine: AsyncEngine, table_id: int, changed: dict, removed=()) -> dict | None:
    """Store some of a table's message ids (``changed`` keys set, ``removed`` keys dropped), keeping
    what another process stored under other keys meanwhile. The stored ids afterwards."""
    def change(row: TableRow) -> dict:
        merged = {k: v for k, v in {**(row.messages or {}), **changed}.items() if k not in removed}
        return {"messages": merged} if merged != (row.messages or {}) else None

    row = await modify_table(engine, table_id, change)
    return None if row is None else dict(row.messages or {})


async def swap_message(engine: AsyncEngine, table_id: int, key: str, old: Any, new: Any) -> Any:
    """Store ``new`` under ``key`` only if it still holds ``old`` (a message posted by two racing
    presses is recorded once); what the key holds afterwards (None: no such table)."""
    def change(row: TableRow) -> dict | None:
        messages = dict(row.messages or {})
        if messages.get(key) != old:
            return None
        messages[key] = new
        return {"messages": messages}

    row = await modify_table(engine, table_id, change)
    return None if row is None else (row.messages or {}).get(key)


async def read_messages(engine: AsyncEngine, table_id: int) -> dict | None:
    """A table's message ids as stored now (None: no such table)."""
    async with AsyncSession(engine) as session:
        found = (await session.exec(select(TableRow.id, TableRow.messages).where(TableRow.id == table_id))).first()
    return None if found is None else dict(found[1] or {})


async def start_table(engine: AsyncEngine, table_id: int, values: dict, clocks: list[DeadlineRow],
                      notify: str | None = None) -> bool:
    """A lobby becomes a running game with its first clocks, in one transaction; False when it is
    no longer a lobby (someone started or cancelled it first). ``notify``: this process's name, to
    tell the others (their pages of the lobby follow)."""
    async with AsyncSession(engine) as session:
        updated = await session.exec(update(TableRow).where(TableRow.id == table_id, TableRow.status == "lobby")
                                     .values(**values, updated_at=time.time()))
        if updated.rowcount != 1:
            await session.rollback()
            return False
        await session.exec(_retire_clocks(table_id, keep_match=False))
        for row in clocks:
            session.add(row)
        if notify is not None:
            await tell_others(session, table_id, -1, notify)
        await session.commit()
        return True


async def end_table(engine: AsyncEngine, table_id: int, status: str, notify: str | None = None) -> None:
    """A table stops (cancelled, damaged): its status and the end of all its clocks, together."""
    async with AsyncSession(engine) as session:
        if notify is not None:
            await tell_others(session, table_id, -1, notify)
        await session.exec(update(TableRow).where(TableRow.id == table_id).values(status=status,
                                                                                 updated_at=time.time()))
        await session.exec(delete(DeadlineRow).where(DeadlineRow.table_id == table_id,
                                                     DeadlineRow.status.in_((*OPEN_CLOCKS, "held"))))
        await session.commit()
