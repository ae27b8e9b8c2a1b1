"""Small notes an adapter keeps about its own platform objects (a Discord calendar event made for a
scheduled match, the thread a tournament table plays in), stored in the ``settings`` key/value
table so they survive a restart without a column or a migration of their own.

Keys are namespaced by the adapter (``dc.event.<schedule>``, ``dc.thread.<thread>``); values are text.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import exc, text
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.storage.rows import SettingRow


async def get_value(engine, key: str) -> str | None:
    async with AsyncSession(engine) as session:
        row = await session.get(SettingRow, key)
        return row.value if row is not None else None


async def set_value(engine, key: str, value: str) -> None:
    async with AsyncSession(engine) as session:
        row = await session.get(SettingRow, key)
        if row is None:
            session.add(SettingRow(key=key, value=value))
        else:
            row.value = value
            session.add(row)
        await session.commit()


async def delete_value(engine, key: str) -> None:
    async with AsyncSession(engine) as session:
        row = await session.get(SettingRow, key)
        if row is not None:
            await session.delete(row)
            await session.commit()


async def claim_value(engine, key: str, value: str, stale: Callable[[str], bool] = lambda old: False) -> bool:
    """Store ``value`` under ``key`` if no process holds it (or what is held is ``stale``): whether
    this call did, across processes (an insert, or a conditional update of the stale value)."""
    try:
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO settings (key, value) VALUES (:k, :v)"), {"k": key, "v": value})
        return True
    except exc.IntegrityError:
        pass
    old = await get_value(engine, key)
    if old is None or not stale(old):
        return False
    async with engine.begin() as conn:
        done = await conn.execute(text("UPDATE settings SET value = :v WHERE key = :k AND value = :old"),
                                  {"k": key, "v": value, "old": old})
    return done.rowcount == 1
