"""The database itself: the URL with its async driver, the engine made for it (SQLite in WAL,
PostgreSQL with a pool that tests its connections), the token secret made once per database, and
the ``NOTIFY`` that tells the other processes on one PostgreSQL which table moved."""

from __future__ import annotations

import secrets

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.storage.rows import SettingRow


def database_url(url: str | None) -> str:
    """Accept plain ``sqlite:///`` / ``postgresql://`` URLs and pick the async drivers."""
    if not url:
        return "sqlite+aiosqlite:///tycoon.db"
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///"):]
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    return url


BUSY_MS = 2000  # how long a write waits for a locked SQLite file before the press is told to try again
WAL_PAGES = 256  # pages (4 KB each) the write-ahead log holds before it is folded into the database
WAL_BYTES = 1 << 20  # what the write-ahead log file is cut back to after that


def make_db(url: str | None) -> AsyncEngine:
    """The database at ``url`` (a plain ``sqlite:///`` or ``postgresql://`` URL is enough)."""
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_async_engine(url, pool_size=1, max_overflow=0)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn, _record):  # WAL: readers never wait for the one writer
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            # a small write-ahead log (issue 46): folded into the database every WAL_PAGES pages and
            # cut back to WAL_BYTES after, so that on a small data volume it cannot fill the disk
            cur.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
            cur.execute(f"PRAGMA journal_size_limit={WAL_BYTES}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
        return engine
    # a server that restarted leaves dead connections in the pool: test each before use; a process
    # that hangs in the middle of a transaction must not hold rows of a table for ever
    connect_args = {"server_settings": {"lock_timeout": "10000", "idle_in_transaction_session_timeout": "60000"}} \
        if url.startswith("postgresql+asyncpg") else {}
    return create_async_engine(url, pool_pre_ping=True, connect_args=connect_args)


async def secret(engine: AsyncEngine) -> bytes:
    """The token secret, made once per database so tokens survive restarts."""
    async with AsyncSession(engine) as session:
        row = await session.get(SettingRow, "token_secret")
        if row is None:
            session.add(SettingRow(key="token_secret", value=secrets.token_hex(32)))
            try:
                await session.commit()
            except Exception:  # another process made it first
                await session.rollback()
            row = await session.get(SettingRow, "token_secret")
        return bytes.fromhex(row.value)


async def rotate_secret(engine: AsyncEngine) -> None:
    """A new token secret: every button signed with the old one is refused from now on (the next
    update of each table shows buttons signed anew). Processes read the secret when they start."""
    async with AsyncSession(engine) as session:
        row = await session.get(SettingRow, "token_secret")
        if row is None:
            session.add(SettingRow(key="token_secret", value=secrets.token_hex(32)))
        else:
            row.value = secrets.token_hex(32)
            session.add(row)
        await session.commit()


CHANNEL = "tycoon_tables"  # the PostgreSQL channel every process listens on (``engine.service.notices``)


def payload(table_id: int, version: int, owner: str) -> str:
    return f"{table_id}:{version}:{owner}"


async def tell_others(session, table_id: int, version: int, owner: str) -> None:
    """Within a transaction: tell the others once it commits (PostgreSQL only)."""
    if session.bind.dialect.name == "postgresql":
        await session.exec(text("SELECT pg_notify(:channel, :payload)").bindparams(
            channel=CHANNEL, payload=payload(table_id, version, owner)))


def asyncpg_dsn(url: str) -> str:
    """The plain DSN asyncpg wants, from the service's SQLAlchemy URL."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)
