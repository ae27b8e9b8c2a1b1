"""When every person at a table has stepped away (issue 47: after three missed clocks the AI took the
only human seat and finished the whole game in ~15 s, "winning" it for an absent player).

Once the AI keeps every person's seat of a casual table (missed clocks, or they left), the table
pauses instead of playing on at machine speed: its clocks are held, and an ``abandon`` clock is set
``ABANDON_AFTER`` from then (a slow game's: at least two of its paces, ``waits``). A player who
takes their seat back (``lobby.back``) resumes it: the held match clock runs on later by the length
of the pause, the decision clocks (and a slow game's own) are set afresh. If
nobody comes back, the ``abandon`` clock ends the game unplayed (``cancelled``): it writes no result,
so it counts in no standings. Tournament tables are the organisers' (their rounds have clocks of
their own) and play on.
"""

from __future__ import annotations

from sqlalchemy import delete, update
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service import pace
from engine.service.cache import LiveTable
from engine.service.core import Core
from engine.service.outcome import Outcome, is_ai_user
from engine.service.storage import queries
from engine.service.storage.rows import OPEN_CLOCKS, DeadlineRow, TableRow

ABANDON_AFTER = 24 * 3600.0  # seconds a table waits for someone to come back (a slow game: ``waits``)


def waits(live: LiveTable) -> float:
    """How long this table waits for someone to come back: a day, and a slow game no less than the
    time it took to lose a seat (two 24-hour clocks: two days; ``pace.abandon_after``)."""
    return pace.abandon_after(live.row, ABANDON_AFTER)


def everyone_away(live: LiveTable) -> bool:
    """Every person's seat is kept by the AI (a table of AI seats alone is a demonstration: it plays)."""
    people = [s for s in live.row.seats if not is_ai_user(s["user"])]
    return (bool(people) and all(s["ai"] for s in people) and "#t" not in live.row.chat_key
            and not live.row.chat_key.startswith("console"))  # the terminal: input closed, the AI plays on


async def pause(core: Core, live: LiveTable) -> bool:
    """Pause a running table whose people are all away (the caller holds its lock); whether it did."""
    if live.row.status != "running" or not everyone_away(live):
        return False
    table_id, now = live.row.id, core.clock()
    async with AsyncSession(core.db) as session:
        # only the table as this copy knows it: another process that moved it on (or ended it) first
        # wins, and this copy is read again (the table row is locked first, as every move locks it)
        held = await session.exec(update(TableRow).where(TableRow.id == table_id, TableRow.status == "running",
                                                         TableRow.version == live.row.version)
                                  .values(status="paused"))
        if held.rowcount != 1:
            await session.rollback()
            core.cache.drop(table_id)
            return False
        await session.exec(update(DeadlineRow).where(DeadlineRow.table_id == table_id,
                                                     DeadlineRow.status.in_(OPEN_CLOCKS))
                           .values(status="held", owner=None, lease_until=None))
        session.add(DeadlineRow(table_id=table_id, version=live.row.version, seat=-1, kind="abandon",
                                due_at=now + waits(live)))
        await session.commit()
    live.row.status = "paused"
    live.clocks = await queries.open_clocks(core.db, table_id)
    note = Outcome(True, "slow.all_away", params={"hours": round(waits(live) / 3600)}) if pace.is_slow(
        live.row) else Outcome(True, "service.all_away")
    core.outbox.kick(table_id, notes=[note], kind="paused")
    return True


async def resume(core: Core, live: LiveTable) -> bool:
    """A player came back to a table paused because everyone was away (the caller holds its lock):
    it runs again, its match clock later by the pause; whether it was such a table."""
    if live.row.status != "paused":
        return False
    table_id = live.row.id
    async with AsyncSession(core.db) as session:
        waiting = (await session.exec(select(DeadlineRow).where(DeadlineRow.table_id == table_id,
                                                                DeadlineRow.kind == "abandon",
                                                                DeadlineRow.status.in_(OPEN_CLOCKS)))).first()
        if waiting is None:  # paused by a tournament's organisers: theirs to resume
            return False
        paused_for = max(0.0, core.clock() - (waiting.due_at - waits(live)))
        await session.exec(update(DeadlineRow).where(DeadlineRow.table_id == table_id, DeadlineRow.kind == "match",
                                                     DeadlineRow.status == "held")
                           .values(status="pending", due_at=DeadlineRow.due_at + paused_for))
        await session.exec(delete(DeadlineRow).where(DeadlineRow.table_id == table_id, DeadlineRow.kind != "match",
                                                     DeadlineRow.status.in_(("held", *OPEN_CLOCKS))))
        await session.exec(update(TableRow).where(TableRow.id == table_id).values(status="running"))
        await session.commit()
    live.row.status = "running"
    return True


async def abandon(core: Core, live: LiveTable, deadline: DeadlineRow, owner: str) -> Outcome:
    """Nobody came back in time: the game ends unplayed, with no result (the caller holds the lock)."""
    await queries.release(core.db, deadline.id, owner, "done")
    if live.row.status != "paused":
        return Outcome(False, "service.out_of_date", table=live.row.id)
    await queries.end_table(core.db, live.row.id, "cancelled", notify=core.owner)
    live.row.status = "cancelled"
    core.outbox.kick(live.row.id, notes=[Outcome(True, "service.abandoned")], kind="cancelled")
    return Outcome(True, "service.abandoned", table=live.row.id)
