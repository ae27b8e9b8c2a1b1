"""Which versions of a table's stored format this build reads and writes, and which every running
process reads: in a rolling deploy (a process of the previous release still serving beside one of
this release, on one database) no process meets a table it cannot read (issue 46).

**One version a table.** What processes share about a table (its snapshot and action log, its
message record ``tables.messages``, its clocks, its buttons' tokens) has one version,
``tables.format``, set when the table is made and kept to its end: a game is played out in the
format it began in, as board games in progress keep the rulings they began with (migration 0009).

**Who reads what.** A build declares the versions it reads (``READS``) and the newest it can write
(``NEWEST``). Every process keeps a row in ``processes`` (``Formats.beat``: at start-up, then with
the clock task's heartbeat), and makes a new table in the newest version that every process seen in
the last ``LIVE_FOR`` seconds reads (``Formats.for_new``). So a change of format takes two releases:
the first reads both and writes the new one only once no process of the release before is seen;
the next may stop reading the old one when no table of it is open (docs/operations.md).

**A table this build cannot read** (made by a newer process after this one was not seen for a
while: it was stopped, or cut off from the database) is left to the processes that read it: it is
not loaded (``readable``), its clocks are not claimed (``queries.due``), and a press on it is
answered ``service.newer`` ("press again in a moment"), never played by rules that do not know it.

Builds before this one register nothing and read version 1 only; this build writes 1, so it serves
beside them. A future release that writes 2 needs every process at this release or later.
"""

from __future__ import annotations

import logging
import os
import time

from sqlalchemy import delete, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.storage.rows import ProcessRow

log = logging.getLogger(__name__)

READS = (1,)  # the table formats this build reads
NEWEST = 1  # the newest it writes (when every running process reads it)
BASELINE = 1  # what every build reads, registered or not
LIVE_FOR = 30.0  # a process not seen for this long no longer has a say (it beats every 5 s)
FORGET_AFTER = 24 * 3600.0  # rows of processes gone this long are removed


def readable(version: int, reads: tuple[int, ...] = READS) -> bool:
    return version in reads


def agreed(own: tuple[int, ...], newest: int, others: list[list[int]]) -> int:
    """The newest version this build writes that every other running process reads (the baseline
    when there is none)."""
    shared = [v for v in own if v <= newest and all(v in reads for reads in others)]
    return max(shared) if shared else BASELINE


def build_name() -> str:
    """The build a process runs, for the operator's ``tycoon processes`` (the image sets
    ``TYCOON_BUILD``; else the package's version)."""
    if os.environ.get("TYCOON_BUILD"):
        return os.environ["TYCOON_BUILD"][:80]
    try:
        from importlib.metadata import version
        return f"tycoon {version('tycoon')}"
    except Exception:  # run from a checkout that is not installed
        return "tycoon (checkout)"


class Formats:
    """This process's say in which format new tables are made, kept in ``processes``."""

    def __init__(self, db: AsyncEngine, name: str, reads: tuple[int, ...] = READS, newest: int = NEWEST,
                 clock=time.time) -> None:
        self.db, self.name, self.reads, self.newest, self.clock = db, name, reads, newest, clock
        self.build = build_name()
        self.started_at = clock()
        self._for_new = BASELINE
        self.others: list[ProcessRow] = []  # the other running processes, as last seen

    def for_new(self) -> int:
        """The format a table made now is stored in."""
        return self._for_new

    def can_read(self, version: int) -> bool:
        return readable(version, self.reads)

    async def beat(self) -> int:
        """Say this process is running and what it reads; learn who else runs and what they read.
        The format new tables get from now on."""
        now = self.clock()
        async with AsyncSession(self.db) as session:
            done = await session.exec(update(ProcessRow).where(ProcessRow.name == self.name)
                                      .values(seen_at=now, reads=list(self.reads), build=self.build))
            if done.rowcount == 0:
                session.add(ProcessRow(name=self.name, build=self.build, reads=list(self.reads),
                                       started_at=self.started_at, seen_at=now))
            await session.exec(delete(ProcessRow).where(ProcessRow.seen_at < now - FORGET_AFTER))
            await session.commit()
            rows = (await session.exec(select(ProcessRow).where(ProcessRow.seen_at >= now - LIVE_FOR,
                                                                ProcessRow.name != self.name))).all()
        self.others = list(rows)
        chosen = agreed(self.reads, self.newest, [list(r.reads or []) for r in rows])
        if chosen != self._for_new:
            log.info("new tables are made in format %s (read by every running process: %s)", chosen,
                     ", ".join([self.name, *(r.name for r in rows)]))
        self._for_new = chosen
        return chosen

    async def leave(self) -> None:
        """This process stops: it no longer has a say (a clean stop; a killed one is forgotten
        after ``LIVE_FOR``)."""
        async with AsyncSession(self.db) as session:
            await session.exec(delete(ProcessRow).where(ProcessRow.name == self.name))
            await session.commit()


async def running(db: AsyncEngine, now: float | None = None) -> list[ProcessRow]:
    """The processes seen in the last ``LIVE_FOR`` seconds (``tycoon processes``)."""
    now = time.time() if now is None else now
    async with AsyncSession(db) as session:
        rows = await session.exec(select(ProcessRow).where(ProcessRow.seen_at >= now - LIVE_FOR)
                                  .order_by(ProcessRow.started_at))
        return list(rows)
