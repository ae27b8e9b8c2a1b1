"""Persistence with sqlmodel: tables (one row per chat game, with its snapshot and version), the
append-only action log, and the service's settings (the token secret).

A move is one transaction: append the action at ``version + 1`` and store the new snapshot only
if the version is still the one read (``UPDATE … WHERE version = :old``); two racing presses of
one button cannot both land. SQLite (WAL) by default, any SQLAlchemy URL otherwise.
"""

from __future__ import annotations

import secrets
import time

from sqlalchemy import Column, Integer, Text, event, update
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlmodel import JSON, Field, SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession


class TableRow(SQLModel, table=True):
    __tablename__ = "tables"

    id: int | None = Field(default=None, primary_key=True)
    chat_key: str = Field(index=True)  # "tg:<chat>[:<topic>]", "dc:<guild>:<channel>", "console"
    game: str
    ruleset: str
    status: str = Field(default="lobby", index=True)  # lobby | running | over | cancelled
    seed: int = 0
    creator: str = ""
    seats: list = Field(default_factory=list, sa_column=Column(JSON))  # [{"user", "name", "ai"}]
    snapshot: str | None = Field(default=None, sa_column=Column(Text))
    version: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)


class ActionRow(SQLModel, table=True):
    __tablename__ = "actions"

    table_id: int = Field(primary_key=True, foreign_key="tables.id")
    seq: int = Field(primary_key=True)  # the version this action produced (1, 2, …)
    seat: int
    action: str = Field(sa_column=Column(Text, nullable=False))
    at: float = Field(default_factory=time.time)


class SettingRow(SQLModel, table=True):
    __tablename__ = "settings"

    key: str = Field(primary_key=True)
    value: str


def database_url(url: str | None) -> str:
    """Accept plain ``sqlite:///`` / ``postgresql://`` URLs and pick the async drivers."""
    if not url:
        return "sqlite+aiosqlite:///tycoon.db"
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///"):]
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str | None) -> AsyncEngine:
    engine = create_async_engine(database_url(url))
    if engine.dialect.name == "sqlite":
        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn, _record):  # WAL: readers never wait for the one writer
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    return engine


async def create_schema(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.create_all)


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


async def append_move(engine: AsyncEngine, table_id: int, old_version: int, seat: int, action_json: str,
                      snapshot: str, status: str) -> bool:
    """One move, one transaction; False when the version moved on (someone else was first)."""
    async with AsyncSession(engine) as session:
        result = await session.exec(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.version == old_version)
            .values(snapshot=snapshot, version=old_version + 1, status=status, updated_at=time.time())
        )
        if result.rowcount != 1:
            await session.rollback()
            return False
        session.add(ActionRow(table_id=table_id, seq=old_version + 1, seat=seat, action=action_json))
        await session.commit()
        return True


async def load_log(engine: AsyncEngine, table_id: int) -> list[ActionRow]:
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq))
        return list(rows)
