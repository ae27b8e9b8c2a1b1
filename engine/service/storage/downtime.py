"""Clocks do not run while the whole service is down (issue 47: during a 40 s restart a turn's
clock went on from 0:31 to 0:12, and a player could time out on a prompt nobody could answer).

Every process notes, with its heartbeat (``Formats.beat``), when the service was last seen running
(``LAST_SEEN`` in ``settings``). The first process to start after the service was down for more than
``NOTICED`` seconds moves every pending decision clock on by the time it was down, so each player
has the time they had left when it stopped (a clock that ran out meanwhile gets its remaining time
back). The match clocks, scheduled matches, tournament rounds and a slow game's daily summary keep
their times: they are the group's appointments. A rolling deploy is no downtime: the other processes went on beating.

Processes starting together take turns (the migration's lock), and the one that moves the clocks
notes the service as seen in the same transaction, so the clocks are moved once.
"""

from __future__ import annotations

import logging

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.service.storage.migrate import MIGRATION_LOCK, file_lock

log = logging.getLogger(__name__)

LAST_SEEN = "service.last_seen"
NOTICED = 10.0  # seconds of silence that count as the service having been down (it beats every 5 s)
# clocks that keep their time (a slow game's daily summary too; its reminders move with its decisions)
APPOINTMENTS = ("match", "announce", "begin", "tour.round", "summary")


async def catch_up(engine: AsyncEngine, now: float) -> float:
    """After a downtime, move the pending decision clocks on by it; the seconds moved (0 when the
    service was not down, or never ran here before)."""
    async with file_lock(engine), engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        seen = (await conn.execute(text("SELECT value FROM settings WHERE key = :k"), {"k": LAST_SEEN})).scalar()
        down = now - float(seen) if seen else 0.0
        moved = 0
        if down > NOTICED:
            kept = ", ".join(f"'{kind}'" for kind in APPOINTMENTS)  # our own constants, not input
            moved = (await conn.execute(text(
                "UPDATE deadlines SET due_at = due_at + :down WHERE status = 'pending' AND table_id IS NOT NULL "
                f"AND kind NOT IN ({kept})"), {"down": down})).rowcount
            log.warning("the service was down for %.0f s: %s decision clocks moved on by as much, so nobody "
                        "loses the time they had", down, moved)
        await note_seen(conn, now)
    return down if moved else 0.0


async def note_seen(conn, now: float) -> None:
    """The service is running now (on the caller's connection, in its transaction)."""
    done = await conn.execute(text("UPDATE settings SET value = :v WHERE key = :k"), {"k": LAST_SEEN, "v": repr(now)})
    if done.rowcount == 0:
        await conn.execute(text("INSERT INTO settings (key, value) VALUES (:k, :v)"), {"k": LAST_SEEN, "v": repr(now)})
