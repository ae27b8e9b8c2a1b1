"""The open and running tables a person sits at, whatever chat they are in: what a front end asks
when it offers someone their own table from elsewhere (Telegram's inline "Join my table" card).

Seats are a JSON column, so the query narrows the rows in the database with a text match on the
user id (the same on SQLite and PostgreSQL) and keeps only the rows whose seats really name that
user: an id that is a prefix of another (``tg:12`` and ``tg:123``) never matches, as the quotes
around it are part of the pattern and the seats are checked again one by one.
"""

from __future__ import annotations

from sqlalchemy import String, cast
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.outcome import ACTIVE
from engine.service.storage.rows import TableRow


def sits_at(row: TableRow, user: str) -> bool:
    """Whether ``user`` has a seat at the table (also one the AI keeps for them while away)."""
    return any(seat.get("user") == user for seat in row.seats or ())


async def tables_of(db, user: str, limit: int = 5) -> list[TableRow]:
    """The lobbies and running games ``user`` sits at, newest first, at most ``limit``."""
    pattern = '%"' + user.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + '"%'
    query = (select(TableRow).where(TableRow.status.in_(ACTIVE),
                                    cast(TableRow.seats, String).like(pattern, escape="\\"))
             .order_by(TableRow.id.desc()).limit(limit * 4))
    async with AsyncSession(db) as session:
        rows = (await session.exec(query)).all()
    return [row for row in rows if sits_at(row, user)][:limit]
