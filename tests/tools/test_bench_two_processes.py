"""``tycoon bench``'s two-process figures: two worker processes pressing the same tables on one
PostgreSQL (tools/bench/__init__.py ``bench_two_processes``, tools/bench/worker.py). Timings are never asserted."""

from __future__ import annotations

import asyncio
import os

import pytest

from tools.bench import TWO_PROCESS_FIGURES, bench_database_url, bench_two_processes

DB_URL = os.environ.get("TEST_DATABASE_URL")


def test_without_postgresql_the_two_process_figures_are_null():
    figures = bench_two_processes(None)
    assert set(TWO_PROCESS_FIGURES) <= set(figures) and all(figures[k] is None for k in TWO_PROCESS_FIGURES)
    assert bench_database_url({}) is None
    assert bench_database_url({"TEST_DATABASE_URL": "sqlite:///x.db"}) is None  # one process only: no figures
    assert bench_database_url({"TEST_DATABASE_URL": "postgresql://u@h/t"}) == "postgresql://u@h/t"
    assert bench_database_url({"TYCOON_BENCH_DATABASE_URL": "postgresql://u@h/b",
                               "TEST_DATABASE_URL": "postgresql://u@h/t"}) == "postgresql://u@h/b"


@pytest.mark.skipif(not DB_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
def test_two_processes_press_the_same_tables_and_report_the_figures():
    from sqlalchemy import text

    from engine.service.storage import database
    from tests.conftest import drop_everything

    asyncio.run(drop_everything(DB_URL))
    figures = bench_two_processes(DB_URL, pressers=4, seconds=2, games_per_presser=1)
    assert figures["two_process_pressers"] == 4
    assert figures["two_process_moves"] > 0 and figures["two_process_moves_per_second"] > 0
    assert figures["two_process_press_p99_ms"] >= figures["two_process_press_p50_ms"] > 0
    assert figures["two_process_refused_current"] == 0, figures["two_process_refused"]
    assert isinstance(figures["two_process_refused"], dict)

    async def moves_by_seat_and_left_running():
        engine = database.make_db(DB_URL)
        try:
            async with engine.connect() as conn:
                running = (await conn.execute(text("SELECT count(*) FROM tables WHERE status = 'running'"))).scalar()
                moves = (await conn.execute(text("SELECT count(*) FROM actions"))).scalar()
            return moves, running
        finally:
            await engine.dispose()

    moves, running = asyncio.run(moves_by_seat_and_left_running())
    assert moves == figures["two_process_moves"]  # every move the workers counted is stored, once
    assert running == 0  # the bench's tables are ended: no later process brings them back


def test_without_postgresql_the_two_process_clock_figures_are_null():
    from tools.bench.clock_processes import bench_clock_processes

    figures = bench_clock_processes(None)
    assert figures and all(v is None for v in figures.values())


@pytest.mark.skipif(not DB_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
def test_two_processes_fire_the_clocks_of_the_same_tables_and_report_how_late():
    from tests.conftest import drop_everything
    from tools.bench.clock_processes import bench_clock_processes

    asyncio.run(drop_everything(DB_URL))
    figures = bench_clock_processes(DB_URL, tables=6, seconds=6, clock_seconds=2)
    assert figures["two_process_clocks_fired"] > 6  # each table's clocks ran out again and again
    assert figures["two_process_clock_lateness_p99_s"] >= figures["two_process_clock_lateness_p50_s"] >= 0
    assert figures["two_process_clock_owners"] >= 1
