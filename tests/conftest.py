"""Fixtures the service's tests share: ``db_url`` runs a test on SQLite and, when
``TEST_DATABASE_URL`` is set (CI sets it), on PostgreSQL too, emptied first; ``pg_url`` runs a test
of what only PostgreSQL does on PostgreSQL alone. What CI does differently (``ci_only`` tests, a
skip fails the run) is ``tests/ci_rules.py``."""

from __future__ import annotations

import asyncio
import contextlib
import os

import asyncpg
import pytest
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

from engine.service.storage import database

PRIVATE_PREFIX = "tycoon_test_"
pytest_plugins = ["tests.ci_rules"]


def _admin_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _run_admin(url: str, *statements: str) -> list:
    conn = await asyncpg.connect(_admin_dsn(url), timeout=30)
    try:
        rows = []
        for sql in statements:
            rows += await conn.fetch(sql)
        return rows
    finally:
        await conn.close()


def _alive(pid: str) -> bool:
    """Is the run that made a private database still going (another run of the suite at once)?"""
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _private_database() -> None:
    """Every run, and every worker process of a run, gets a PostgreSQL database of its own (made
    from ``TEST_DATABASE_URL``, dropped at the end): a process left over on the machine (a bench,
    a killed run) can hold locks on the shared database's tables for ever, and a test that empties
    them would wait on it. Databases of earlier runs that were not dropped go first (their
    connections with them)."""
    name = f"{PRIVATE_PREFIX}{os.getpid()}"
    if os.environ.get("TYCOON_TEST_DATABASE") == name:
        return
    # a process started by a run (pytest-xdist's workers) inherits the run's database: it makes
    # its own from the same server, since each test empties the database it uses
    url = os.environ.get("TYCOON_TEST_ADMIN_URL") or os.environ.get("TEST_DATABASE_URL")
    if not url or not url.startswith("postgresql"):
        return
    stale = asyncio.run(_run_admin(url, f"SELECT datname FROM pg_database WHERE datname LIKE '{PRIVATE_PREFIX}%'"))
    drops = [f'DROP DATABASE IF EXISTS "{r["datname"]}" WITH (FORCE)' for r in stale
             if not _alive(r["datname"].removeprefix(PRIVATE_PREFIX))]
    asyncio.run(_run_admin(url, *drops, f'CREATE DATABASE "{name}"'))
    os.environ["TYCOON_TEST_DATABASE"] = name
    os.environ["TYCOON_TEST_ADMIN_URL"] = url
    os.environ["TEST_DATABASE_URL"] = make_url(url).set(database=name).render_as_string(hide_password=False)


_private_database()
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def pytest_collection_modifyitems(session, config, items):
    """The tests marked ``slow`` (whole games through a chat fake, minutes on a small machine) go
    first, so that pytest-xdist's workers do not end the run waiting on one of them."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_sessionfinish(session, exitstatus):
    name, admin = os.environ.get("TYCOON_TEST_DATABASE"), os.environ.get("TYCOON_TEST_ADMIN_URL")
    if name and admin and name == f"{PRIVATE_PREFIX}{os.getpid()}":
        with contextlib.suppress(Exception):  # the next run drops it otherwise
            asyncio.run(_run_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def drop_everything(url: str) -> None:
    """An empty PostgreSQL database: every table of ours, and Alembic's record, dropped."""
    engine = database.make_db(url)
    async with engine.begin() as conn:
        # a connection left holding a lock (a process of an earlier test) is an error, not a hang
        await conn.exec_driver_sql("SET LOCAL lock_timeout = '60s'")
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


@pytest.fixture
async def pg_url():
    """The PostgreSQL database alone, emptied first. Skips without ``TEST_DATABASE_URL``: never in
    CI, which sets it (and where a skip fails the run)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("needs TEST_DATABASE_URL (PostgreSQL)")
    await drop_everything(url)
    return url
