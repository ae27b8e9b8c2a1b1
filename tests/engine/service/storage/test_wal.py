"""Issue 46: on SQLite the write-ahead log stays small by itself, so a small data volume is not
filled by it (it had grown to 2 MB beside a 4 KB database): folded in every ``WAL_PAGES`` pages and
cut back to ``WAL_BYTES``."""

from __future__ import annotations

from engine.service.storage import keyvalue
from engine.service.storage.database import WAL_BYTES, WAL_PAGES
from engine.service.tables import GameService


async def test_the_write_ahead_log_stays_bounded_through_many_writes(tmp_path):
    """A long stretch of small commits (as presses and their notes make): the log file never grows
    past its limit and one checkpoint's pages, while far more than that was written through it."""
    path = tmp_path / "w.db"
    service = await GameService.open(f"sqlite:///{path}")
    try:
        largest = 0
        for n in range(1500):
            await keyvalue.set_value(service.db, f"note.{n % 50}", f"{n}:" + "x" * 3000)
            wal = tmp_path / "w.db-wal"
            largest = max(largest, wal.stat().st_size if wal.exists() else 0)
        through = 1500 * 4096  # at least a page a commit went through the log
        assert through > 4 * WAL_BYTES
        assert largest <= WAL_BYTES + WAL_PAGES * 4096 + 64 * 1024, largest  # the limit, and a checkpoint's worth
        assert await keyvalue.get_value(service.db, "note.49") == "1499:" + "x" * 3000  # nothing lost
    finally:
        await service.close()
