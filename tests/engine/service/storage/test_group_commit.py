"""Group commit (engine/service/storage/writer.py): moves of many tables pressed at once share one
transaction, and each press is answered only after that transaction committed.

Faults are injected; nothing here depends on timing. Moves pressed together with
``asyncio.gather`` reach the writer before it runs, so they form one batch (the tests check the
batch sizes they rely on). Runs on SQLite, on PostgreSQL when ``TEST_DATABASE_URL`` is set, and
through the SQLAlchemy Core path every other database takes (``fast`` off).
"""

from __future__ import annotations

import asyncio
import os

import pytest
from sqlalchemy import text, update
from sqlalchemy.exc import OperationalError

from engine.games import GAMES
from engine.service.storage import queries, writer
from engine.service.storage.rows import DeadlineRow
from engine.service.tables import GameService
from tests.engine.service.test_service import FakeClock
from tools.bench import CROWD_FIGURES, bench_crowd, bench_crowds

TABLES = 5
PG_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture(params=["fast", "core"])
def path(request, monkeypatch):
    monkeypatch.setattr(writer, "FAST_PATHS", request.param == "fast")
    return request.param


async def tables_of_two(service: GameService, count: int = TABLES) -> list[int]:
    out = []
    for n in range(count):
        made = await service.lobby.new_table(f"chat:gc{n}", "deal", None, f"a{n}", "Ann")
        assert (await service.lobby.join(made.table, f"b{n}", "Bob")).ok
        assert (await service.lobby.start(made.table, f"a{n}", seed=n)).ok
        out.append(made.table)
    await service.idle()
    return out


def press_of(service: GameService, table: int) -> tuple[str, str]:
    """Who presses what at a table: the first person owed a decision, the AI's choice as a button."""
    state = service.cache.state(table)
    seat = GAMES["deal"].rules.waiting_for(state)[0].seat
    action = GAMES["deal"].choose_listed(state, seat)
    token = next(t for a, t in service.buttons(table, seat) if a == action)
    return service.cache.row(table).seats[seat]["user"], token


async def stored(service: GameService, table: int) -> tuple[int, str, int]:
    """A table as the database holds it: version, snapshot, lines in its log."""
    async with service.db.connect() as conn:
        version, snapshot = (await conn.execute(text("SELECT version, snapshot FROM tables WHERE id = :id"),
                                                {"id": table})).one()
        lines = (await conn.execute(text("SELECT count(*) FROM actions WHERE table_id = :id"), {"id": table})).scalar()
    return version, snapshot, lines


def spy_on_commits(monkeypatch, fail: bool) -> list[int]:
    """The size of every batch that reaches its commit; with ``fail`` the commit fails."""
    sizes: list[int] = []

    def commit(do_commit, batch):
        sizes.append(len(batch))
        if fail:
            raise OperationalError("COMMIT", {}, Exception("the disk went away at the commit"))
        return do_commit()

    monkeypatch.setattr(writer, "_commit_now", commit)
    return sizes


async def test_a_failed_batch_commit_fails_every_move_in_it(db_url, path, monkeypatch):
    service = await GameService.open(db_url)
    try:
        tables = await tables_of_two(service)
        before = {t: await stored(service, t) for t in tables}
        presses = {t: press_of(service, t) for t in tables}

        sizes = spy_on_commits(monkeypatch, fail=True)
        results = await asyncio.gather(*(service.act(*presses[t]) for t in tables), return_exceptions=True)
        assert sizes and max(sizes) > 1 and sum(sizes) == TABLES, sizes  # batched: one commit for several
        # none acknowledged: every press of the batch was told the table is busy (press again)
        assert all(getattr(r, "key", None) == "service.busy" and not r.ok for r in results), results

        monkeypatch.setattr(writer, "_commit_now", lambda do_commit, batch: do_commit())
        for t in tables:
            assert await stored(service, t) == before[t]  # nothing of the batch was stored
            assert service.cache.peek(t) is None  # each copy was dropped: the database is right
            live = await service.cache.get(t)  # and read again from it, as it was
            assert live.row.version == before[t][0]
            assert GAMES["deal"].rules.encode_state(live.state).decode() == before[t][1]
        # the same buttons work again, now stored once each
        again = await asyncio.gather(*(service.act(*presses[t]) for t in tables))
        assert all(o.ok for o in again), again
        for t in tables:
            version, _, lines = await stored(service, t)
            assert version == before[t][0] + 1 and lines == before[t][2] + 1
    finally:
        await service.close()


async def test_in_one_batch_a_table_another_process_moved_is_refused_and_the_others_stored(db_url, path,
                                                                                            monkeypatch):
    service = await GameService.open(db_url)
    try:
        tables = await tables_of_two(service)
        presses = {t: press_of(service, t) for t in tables}
        moved_elsewhere = tables[2]
        other = await GameService.open(db_url)  # another process makes the same press first
        try:
            assert (await other.act(*presses[moved_elsewhere])).ok
        finally:
            await other.close()
        before = {t: await stored(service, t) for t in tables}

        sizes = spy_on_commits(monkeypatch, fail=False)
        results = await asyncio.gather(*(service.act(*presses[t]) for t in tables))
        assert sizes == [TABLES]
        by_table = dict(zip(tables, results, strict=True))
        assert by_table[moved_elsewhere].key == "service.out_of_date" and not by_table[moved_elsewhere].ok
        assert await stored(service, moved_elsewhere) == before[moved_elsewhere]
        for t in tables:
            if t != moved_elsewhere:
                assert by_table[t].ok and (await stored(service, t))[0] == before[t][0] + 1
    finally:
        await service.close()


async def test_a_clock_whose_lease_another_process_took_leaves_its_batch_without_it(db_url, path, monkeypatch):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        tables = await tables_of_two(service)
        clock.now += 61  # every table's first turn clock has run out
        due = {row.table_id: row for row in await queries.due(service.db, clock.now)}
        timed_out, pressed = tables[0], tables[1:]
        deadline = due[timed_out]
        assert {r.id for r in await queries.claim(service.db, [deadline.id], "me", clock.now, 30)} == {deadline.id}
        async with service.db.begin() as conn:  # the lease ran out and another process took it
            await conn.execute(update(DeadlineRow).where(DeadlineRow.id == deadline.id)
                               .values(owner="another"))
        before = {t: await stored(service, t) for t in tables}
        presses = {t: press_of(service, t) for t in pressed}

        sizes = spy_on_commits(monkeypatch, fail=False)
        fired, *results = await asyncio.gather(service.clocks.fire(deadline),
                                               *(service.act(*presses[t]) for t in pressed))
        assert not fired.ok and fired.key == "service.out_of_date"
        assert all(o.ok for o in results), results
        assert sizes == [len(pressed)]  # the batch was written again without the clock's move
        assert await stored(service, timed_out) == before[timed_out]
        for t in pressed:
            assert (await stored(service, t))[0] == before[t][0] + 1
        async with service.db.connect() as conn:
            status, owner = (await conn.execute(text("SELECT status, owner FROM deadlines WHERE id = :id"),
                                                {"id": deadline.id})).one()
        assert (status, owner) == ("claimed", "another")  # still the other process's to fire
    finally:
        await service.close()


async def test_a_batch_aborted_by_a_deadlock_is_written_again_once(db_url, monkeypatch):
    """PostgreSQL aborts one of two transactions that wait for each other; nothing of it was
    stored, so the writer writes the batch again (the Core path, where the fault is injected)."""
    monkeypatch.setattr(writer, "FAST_PATHS", False)
    service = await GameService.open(db_url)
    try:
        tables = await tables_of_two(service, 3)
        before = {t: await stored(service, t) for t in tables}
        real, calls = writer._statements, []

        async def deadlocked_once(conn, batch):
            calls.append(len(batch))
            if len(calls) == 1:
                error = Exception("deadlock detected")
                error.sqlstate = "40P01"
                raise OperationalError("UPDATE tables …", {}, error)
            return await real(conn, batch)

        monkeypatch.setattr(writer, "_statements", deadlocked_once)
        results = await asyncio.gather(*(service.act(*press_of(service, t)) for t in tables))
        assert calls == [3, 3] and all(o.ok for o in results), (calls, results)
        for t in tables:
            version, _, lines = await stored(service, t)
            assert version == before[t][0] + 1 and lines == before[t][2] + 1  # stored once
    finally:
        await service.close()


def test_the_crowd_bench_reports_its_figures():
    """``tycoon bench``'s crowd figures (tools/bench/__init__.py ``bench_crowd``), on a tiny crowd; no timing
    is asserted. Without PostgreSQL its figures are None."""
    figures = bench_crowds(None, pressers=3, seconds=0.5)
    assert set(figures) == {f"crowd_{db}_{k}" for db in ("sqlite", "pg") for k in CROWD_FIGURES}
    assert figures["crowd_sqlite_moves"] > 0 and figures["crowd_sqlite_moves_per_second"] > 0
    assert figures["crowd_sqlite_press_p99_ms"] >= figures["crowd_sqlite_press_p50_ms"] > 0
    assert figures["crowd_sqlite_pressers"] == 3 and figures["crowd_sqlite_refused"] == 0
    assert all(figures[f"crowd_pg_{k}"] is None for k in CROWD_FIGURES)
    if PG_URL:
        pg = bench_crowd(PG_URL, pressers=3, seconds=0.5, games_per_presser=1)
        assert pg["crowd_pg_moves"] > 0 and pg["crowd_pg_press_p99_ms"] >= pg["crowd_pg_press_p50_ms"] > 0
