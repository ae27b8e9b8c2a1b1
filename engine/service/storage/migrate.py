"""Database migrations with Alembic, run by the service at start-up (``upgrade head``).

``python -m engine.service.storage.migrate revision "message"`` writes a new migration from the models
(autogenerate against a scratch SQLite database brought up to date first).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine

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
        command.upgrade(cfg, "head")

    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # held until this transaction ends (SQLite has one writer)
            await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        await conn.run_sync(run)


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
