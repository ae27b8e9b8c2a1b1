"""Database migrations with Alembic, run by the service at start-up (``upgrade head``).

Processes starting together take turns (an advisory lock on PostgreSQL; SQLite has one writer). A
release's migrations only add (a column with a default, a table, an index: "expand"); what the code
no longer uses is dropped one release later ("contract", a migration with ``CONTRACT`` saying which
release stopped using it; ``tests/engine/service/storage/test_migrations.py`` checks). So a process
of the previous release runs on a database this release migrated, and one that restarts finds the
database at a revision newer than it knows: it serves it as it is (docs/operations.md).

``python -m engine.service.storage.migrate revision "message"`` writes a new migration from the models
(autogenerate against a scratch SQLite database brought up to date first).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent / "migrations"
# the PostgreSQL advisory lock that makes processes starting together on one database migrate one
# after the other (the others then find the schema at head): any fixed 64-bit number of our own
MIGRATION_LOCK = 0x7479636F6F6E  # "tycoon"


def config(url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if url:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the database to the newest schema, on the service's own (async) engine; processes
    that start together on one PostgreSQL take turns (``MIGRATION_LOCK``)."""

    def run(connection) -> None:
        cfg = config()
        cfg.attributes["connection"] = connection
        known = {script.revision for script in ScriptDirectory.from_config(cfg).walk_revisions()}
        newer = [r for r in MigrationContext.configure(connection).get_current_heads() if r not in known]
        if newer:  # a process of the next release migrated it while this one (re)starts: a rolling deploy
            log.warning("the database is at revision %s, newer than this build knows: served as it is (a "
                        "release's migrations only add to the schema; docs/operations.md)", ", ".join(newer))
            return
        command.upgrade(cfg, "head")

    async with file_lock(engine), engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # held until this transaction ends
            await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        await conn.run_sync(run)


@contextlib.asynccontextmanager
async def file_lock(engine: AsyncEngine):
    """On a SQLite file, a lock file beside it held while migrating: processes starting together
    take turns rather than wait out the busy timeout on one another's schema changes."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        yield
        return
    with open(f"{path}.migrate-lock", "a+b") as handle:
        await asyncio.to_thread(fcntl.flock, handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def new_revision(message: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/scratch.db"
        cfg = config(url)
        command.upgrade(cfg, "head")
        command.revision(cfg, message=message, autogenerate=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "revision":
        new_revision(sys.argv[2])
    else:
        print('usage: python -m engine.service.storage.migrate revision "message"')
