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

**Versions.** 1: tables as every build before this one stored them. 2: a change of rules that a
process of an older build would not apply (``RULES``: a Deal match settles what is in progress at
time-out), written into the table's options when it starts. 3: clocks of kinds an older build
would fire as time-outs (a slow game's reminders and daily summary, engine/service/pace.py): only
a table of format 3 may be a slow game.

**Builds older than the registry** (before migration 0010) say nothing in ``processes`` and read 1
only, so nothing here can see them run. Migration 0010, upgrading a database that already holds
tables, therefore caps new tables at format 1 (``CAP_KEY`` in ``settings``) until the operator says
the last of those processes has stopped: ``tycoon processes --older-gone`` (docs/operations.md). A new
database has no older process to wait for.
"""

from __future__ import annotations

import logging
import os
import time

from sqlalchemy import delete, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.storage.downtime import note_seen
from engine.service.storage.rows import ProcessRow, SettingRow

log = logging.getLogger(__name__)

READS = (1, 2, 3)  # the table formats this build reads
NEWEST = 3  # the newest it writes (when every running process reads it)
BASELINE = 1  # what every build reads, registered or not
# what a format adds to the options its game starts with: a change of rules that a process of an
# older release would not apply is a new format, so that every process that plays a table applies
# the same rules (its log replays as it was played). 2: a Deal match settles what is in progress
# at time-out (D-16, issue 47).
RULES: dict[int, dict[str, dict]] = {2: {"deal": {"settle_at_time_up": True}}}
CAP_KEY = "formats.cap"  # settings: the newest format new tables may get (set by migration 0010)
LIVE_FOR = 30.0  # a process not seen for this long no longer has a say (it beats every 5 s)
FORGET_AFTER = 24 * 3600.0  # rows of processes gone this long are removed


def readable(version: int, reads: tuple[int, ...] = READS) -> bool:
    return version in reads


def rules_of(game: str, version: int) -> dict:
    """The options a table of ``game`` in format ``version`` starts with (on top of its rule set)."""
    out: dict = {}
    for v in sorted(RULES):
        if v <= version:
            out.update(RULES[v].get(game, {}))
    return out


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
            await note_seen(await session.connection(), now)  # the service runs (storage/downtime.py)
            await session.commit()
            rows = (await session.exec(select(ProcessRow).where(ProcessRow.seen_at >= now - LIVE_FOR,
                                                                ProcessRow.name != self.name))).all()
            cap = await session.get(SettingRow, CAP_KEY)
        self.others = list(rows)
        chosen = agreed(self.reads, self.newest, [list(r.reads or []) for r in rows])
        if cap is not None and cap.value.isdigit():  # processes of a build before the registry may run
            chosen = min(chosen, max(BASELINE, int(cap.value)))
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


async def cap(db: AsyncEngine) -> int | None:
    """The newest format new tables may get while builds before the registry may run (None: no cap)."""
    async with AsyncSession(db) as session:
        row = await session.get(SettingRow, CAP_KEY)
    return int(row.value) if row is not None and row.value.isdigit() else None


async def lift_cap(db: AsyncEngine) -> bool:
    """The operator says no process of a build before the registry runs any more; whether a cap was set."""
    async with AsyncSession(db) as session:
        row = await session.get(SettingRow, CAP_KEY)
        if row is None:
            return False
        await session.delete(row)
        await session.commit()
    return True


async def running(db: AsyncEngine, now: float | None = None) -> list[ProcessRow]:
    """The processes seen in the last ``LIVE_FOR`` seconds (``tycoon processes``)."""
    now = time.time() if now is None else now
    async with AsyncSession(db) as session:
        rows = await session.exec(select(ProcessRow).where(ProcessRow.seen_at >= now - LIVE_FOR)
                                  .order_by(ProcessRow.started_at))
        return list(rows)
