"""Fixtures the service's tests share: ``db_url`` runs a test on SQLite and, when
``TEST_DATABASE_URL`` is set (CI sets it), on PostgreSQL too, emptied first."""

from __future__ import annotations

import os

import pytest
from sqlmodel import SQLModel

from engine.service import store

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


async def drop_everything(url: str) -> None:
    """An empty PostgreSQL database: every table of ours, and Alembic's record, dropped."""
    engine = store.make_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.drop_all)
        await conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    await engine.dispose()


@pytest.fixture(params=BACKENDS)
async def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tycoon.db'}"
        return
    url = os.environ["TEST_DATABASE_URL"]
    await drop_everything(url)
    yield url
