"""Live play between two moves: the faults that used to leave a group's game silently stuck.

- Two services (two processes' worth) on one database run 200 tables whose people never press:
  every clock fires exactly once, none is lost, every table finishes; one process freezes between
  taking clocks and applying them, then dies, and the other takes its clocks over.
- A process killed between taking a clock and applying it: the lease runs out, another takes it.
- A log row that no longer replays, or a game nobody knows: that table is set aside, its chat is
  told once, the others start. A snapshot that differs from its replay is rewritten.
- The rules failing half way through a move: the copy in memory is thrown away, nothing is lost.
- Finished tables leave memory; spent clocks are purged.

Runs on SQLite and, with ``TEST_DATABASE_URL``, on PostgreSQL too.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
import sys
import time

import pytest
from sqlalchemy import update
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.games import GAMES
from engine.service.cache import KEEP_FINISHED
from engine.service.clock_rules import LEASE
from engine.service.storage import database, queries
from engine.service.storage.rows import OPEN_CLOCKS, ActionRow, DeadlineRow, TableRow
from engine.service.tables import GameService
from tests.engine.service.test_service import FakeClock, direct_run, lobby, step, tables_of_two
from tests.paths import ROOT


class FastClock:
    """Game time running ``speed`` times faster than the wall clock from ``start``; processes given
    the same three numbers agree on it."""

    def __init__(self, speed: float, base: float = 2_000_000.0, start: float | None = None) -> None:
        self.speed, self.base, self.start = speed, base, time.time() if start is None else start

    def __call__(self) -> float:
        return self.base + (time.time() - self.start) * self.speed


class Worker:
    """Another bot process on the same database (``tests.clock_worker``), killed with SIGKILL."""

    def __init__(self, db_url: str, clock: FastClock, freeze_after: int | None = None) -> None:
        self.args = [sys.executable, "-m", "tests.clock_worker", db_url, repr(clock.base), repr(clock.start),
                     repr(clock.speed)] + (["--freeze-after", str(freeze_after)] if freeze_after is not None else [])
        self.owner: str | None = None
        self.frozen: list[tuple[int, float]] = []

    async def start(self) -> Worker:
        self.process = await asyncio.create_subprocess_exec(*self.args, stdout=asyncio.subprocess.PIPE,
                                                            cwd=ROOT)
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for line in self.process.stdout:
            word, _, rest = line.decode().strip().partition(" ")
            if word == "owner":
                self.owner = rest
            elif word == "frozen":
                self.frozen.append((int(rest), time.monotonic()))

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()  # SIGKILL: no goodbye, its leases stay behind
        await self.process.wait()
        await self.reader


async def _tables(service: GameService, n: int, clock_seconds: int = 5, turn_cap: int = 3) -> list[int]:
    """``n`` Deal tables of one person (who never presses) and one AI seat, short clocks."""
    ids = []
    for i in range(n):
        out = await service.lobby.new_table(f"live:{i}", "deal", None, f"p{i}", f"P{i}")
        await service.lobby.add_ai(out.table, f"p{i}")
        clocks = {p: clock_seconds for p in ("turn", "card", "response", "payment", "discard", "choice")}
        await queries.update_table(service.db, out.table, clocks=clocks)
        service.cache.peek(out.table).row.clocks = clocks
        assert (await service.lobby.start(out.table, f"p{i}", seed=i, turn_cap=turn_cap)).ok
        ids.append(out.table)
    return ids


async def _count(engine, status: str) -> int:
    async with AsyncSession(engine) as session:
        return len((await session.exec(select(TableRow.id).where(TableRow.status == status))).all())


async def _stuck(engine, now: float) -> str:
    """What the tables still running wait for, and which clocks they have (for a failure's message)."""
    async with AsyncSession(engine) as session:
        rows = (await session.exec(select(TableRow).where(TableRow.status != "over"))).all()
        clocks = (await session.exec(select(DeadlineRow).where(
            DeadlineRow.status.in_(OPEN_CLOCKS)))).all()
    lines = []
    for row in rows[:5]:
        state = GAMES[row.game].rules.decode_state(row.snapshot)
        mine = [(c.version, c.seat, c.kind, c.ai, c.status, round(c.due_at - now, 1)) for c in clocks
                if c.table_id == row.id]
        lines.append(f"table {row.id} v{row.version} {row.status} seats={[s['ai'] for s in row.seats]} "
                     f"waits={GAMES[row.game].rules.waiting_for(state)} clocks={mine}")
    return "\n".join(lines)


@pytest.mark.slow
async def test_two_processes_run_200_tables_every_clock_fires_once_and_every_table_finishes(db_url, caplog):
    """Two bot processes on one database: this one, and a worker that freezes on some clocks it
    took and is killed with SIGKILL, then started again. Nobody ever presses a button: each table
    ends by its turn cap, or pauses once the AI keeps its only person's seat (issue 47: it waits for
    them, ``engine/service/away.py``)."""
    caplog.set_level(logging.ERROR)
    clock = FastClock(speed=20)  # a 5 s clock passes in a quarter of a second
    b = await GameService.open(db_url, clock)
    frozen_worker = await Worker(db_url, clock, freeze_after=5).start()  # ready by the time the clocks run
    tables = await _tables(b, 200)
    workers = [frozen_worker]
    stop = asyncio.Event()
    run_b = asyncio.create_task(b.run(stop=stop, every=0.02))
    try:
        deadline = time.monotonic() + 150
        while await _count(b.db, "over") + await _count(b.db, "paused") < len(tables):
            assert time.monotonic() < deadline, await _stuck(b.db, clock())
            frozen = frozen_worker.frozen
            if len(workers) == 1 and frozen and time.monotonic() - frozen[0][1] > 1:
                await frozen_worker.kill()  # stuck on the clocks it took, then killed
                workers.append(await Worker(db_url, clock).start())  # and started again
            await asyncio.sleep(0.2)
    finally:
        stop.set()
        await asyncio.gather(run_b, return_exceptions=True)
        for worker in workers:
            await worker.kill()
        await b.close()
    assert len(workers) == 2, "the worker froze on some clocks and was killed"
    check = await GameService.open(db_url)
    try:
        async with AsyncSession(check.db) as session:
            actions = (await session.exec(select(ActionRow))).all()
            clocks = (await session.exec(select(DeadlineRow).where(DeadlineRow.table_id.is_not(None)))
                      ).all()
            rows = (await session.exec(select(TableRow))).all()
        fired = [x.deadline_id for x in actions if x.deadline_id is not None]
        assert len(fired) == len(set(fired)), "a clock was applied twice"
        done = {c.id: c for c in clocks if c.status == "done"}
        assert set(fired) == set(done), "every clock marked done made exactly one move, and only those"
        paused = {r.id for r in rows if r.status == "paused"}
        left = [c for c in clocks if c.status in OPEN_CLOCKS and not (c.table_id in paused and c.kind == "abandon")]
        assert not left, f"finished and paused tables keep no running clock: {left[:3]}"
        assert all(all(s["ai"] for s in r.seats) for r in rows if r.id in paused), "only tables everyone left"
        held = [i for i, _ in frozen_worker.frozen if i in done]
        assert held, "clocks the frozen process had taken were fired after all"
        assert all(done[i].owner != frozen_worker.owner for i in held), "by the other processes"
        owners = {c.owner for c in done.values()}
        assert {b.clocks.owner, frozen_worker.owner} <= owners, "both processes fired clocks"
        timeouts = [c for c in done.values() if not c.ai and c.kind != "match"]
        assert len(timeouts) >= len(tables), "people's clocks ran out again and again"
        for row in rows:  # every log still replays to its snapshot
            log = sorted((x for x in actions if x.table_id == row.id), key=lambda x: x.seq)
            assert [x.seq for x in log] == list(range(1, row.version + 1))
            rules = GAMES[row.game].rules
            state = rules.replay(len(row.seats), row.options, row.seed, [(x.seat, rules.decode_action(x.action))
                                                                        for x in log])
            assert rules.encode_state(state).decode() == row.snapshot and row.status in ("over", "paused")
    finally:
        await check.close()
    assert not [r for r in caplog.records if r.name.startswith("engine") and "damaged" in r.getMessage()]


async def test_a_process_killed_between_taking_a_clock_and_applying_it_loses_nothing(db_url):
    clock = FakeClock()
    first = await GameService.open(db_url, clock)
    table = await lobby(first, "deal", humans=2, ais=0, seed=8)
    clock.now += 61
    [due] = await queries.due(first.db, clock())
    assert {r.id for r in await queries.claim(first.db, [due.id], first.clocks.owner, clock(), LEASE)} == {due.id}
    await first.db.dispose()  # killed right after taking it

    other = await GameService.open(db_url, clock)
    again = await GameService.open(db_url, clock)  # the first process, started again
    try:
        assert await other.sweep() == []  # its lease still runs: nobody else may apply it yet
        clock.now += LEASE + 1
        fired = [o for o in await other.sweep() if o.ok]
        assert len(fired) == 1 and fired[0].table == table
        late = await again.clocks.fire(due)  # a process that only hung wakes up too late
        assert not late.ok
        log = await queries.load_log(other.db, table)
        assert [x.deadline_id for x in log] == [due.id]
        async with AsyncSession(other.db) as session:
            row = await session.get(DeadlineRow, due.id)
        assert row.status == "done" and row.owner == other.clocks.owner
    finally:
        await other.close()
        await again.close()


async def test_a_log_row_that_no_longer_replays_sets_that_table_aside_and_its_chat_hears_it_once(db_url, caplog):
    service = await GameService.open(db_url)
    broken = await lobby(service, "deal", humans=2, ais=0, seed=3)
    for _ in range(3):
        await step(service, broken)
    out = await service.lobby.new_table("chat:2", "board", None, "u0", "Ann")
    await service.lobby.join(out.table, "u1", "Bob")
    await service.lobby.start(out.table, "u0", seed=5)
    healthy = out.table
    out = await service.lobby.new_table("chat:3", "deal", None, "u0", "Ann")
    await service.lobby.join(out.table, "u1", "Bob")
    await service.lobby.start(out.table, "u0", seed=6)
    unknown = out.table
    await service.idle()
    async with AsyncSession(service.db) as session:
        await session.exec(update(ActionRow).where(ActionRow.table_id == broken, ActionRow.seq == 2)
                           .values(action='{"type": "no_such_move"}'))
        await session.exec(update(TableRow).where(TableRow.id == unknown).values(game="chess"))
        await session.commit()
    await service.db.dispose()  # a restart with the garbled rows

    caplog.set_level(logging.ERROR)
    restarted = await GameService.open(db_url)  # must not raise
    heard = []

    async def on_update(update):
        heard.append(update)

    try:
        assert restarted.cache.row(broken) is None and restarted.cache.row(healthy).status == "running"
        assert sorted(restarted.cache.damaged) == sorted([broken, unknown])
        assert any(str(broken) in r.getMessage() and "does not replay" in r.getMessage() for r in caplog.records)
        restarted.subscribe(on_update)
        await restarted.startup()
        await restarted.startup()  # told once, however often the loop starts
        told = [u for u in heard if u.kind == "damaged"]
        assert sorted((u.table, u.chat_key) for u in told) == sorted([(broken, "chat:1"), (unknown, "chat:3")])
        assert all(u.public is None and u.damage for u in told)
        async with AsyncSession(restarted.db) as session:
            row = await session.get(TableRow, broken)
        assert row.status == "damaged" and row.damage["told"] is True and "replay" in row.damage["reason"]
        assert (await restarted.lobby.new_table("chat:1", "deal", None, "u0", "Ann")).ok  # the chat plays on
        seat = GAMES["board"].rules.waiting_for(restarted.cache.state(healthy))[0].seat
        token = restarted.buttons(healthy, seat)[0][1]
        seat = GAMES["board"].rules.waiting_for(restarted.cache.state(healthy))[0].seat
        assert (await restarted.act(restarted.cache.row(healthy).seats[seat]["user"], token)).ok
    finally:
        await restarted.close()
    third = await GameService.open(db_url)
    try:
        third.subscribe(on_update)
        before = len(heard)
        await third.startup()
        assert len(heard) == before  # another process, later: still told only once
    finally:
        await third.close()


async def test_a_snapshot_that_differs_from_its_replay_is_logged_and_rewritten(db_url, caplog):
    service = await GameService.open(db_url)
    table = await lobby(service, "deal", humans=2, ais=0, seed=4)
    early = service.cache.row(table).snapshot
    for _ in range(4):
        await step(service, table)
    right = service.cache.row(table).snapshot
    await queries.update_table(service.db, table, snapshot=early)
    await service.db.dispose()
    caplog.set_level(logging.WARNING)
    again = await GameService.open(db_url)
    try:
        assert again.cache.replay_mismatches == [table]
        assert any("differs from the replay" in r.getMessage() for r in caplog.records)
        async with AsyncSession(again.db) as session:
            assert (await session.get(TableRow, table)).snapshot == right
        assert again.cache.row(table).snapshot == right
    finally:
        await again.close()


async def test_the_rules_failing_half_way_throw_the_copy_away_and_lose_nothing(db_url, caplog):
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "deal", humans=1, ais=2, seed=13)
        for _ in range(5):
            await step(service, table)
        live = service.cache.peek(table)
        real_apply = live.rules.apply

        def half_then_boom(state, seat, action):
            state.players[seat].hand.clear()  # the copy is half changed...
            raise ZeroDivisionError("a bug in the rules")  # ...and then the rules fail

        live.rules = dataclasses.replace(live.rules, apply=half_then_boom)
        seat = GAMES["deal"].rules.waiting_for(live.state)[0].seat
        version = live.row.version
        wanted = GAMES["deal"].choose_listed(live.state, seat)  # the press the reference game makes
        token = next(t for a, t in service.buttons(table, seat) if a == wanted)
        caplog.set_level(logging.ERROR)
        outcome = await service.act(live.row.seats[seat]["user"], token)
        assert not outcome.ok and outcome.key == "service.error"
        assert any(f"table {table}" in r.getMessage() and r.exc_info for r in caplog.records)
        assert service.cache.peek(table) is None  # the copy is gone
        again = await service.cache.get(table)  # read again from the database
        assert again.rules.apply is real_apply and again.row.version == version
        assert again.state.players[seat].hand, "the half-done move left no trace"
        assert (await service.act(again.row.seats[seat]["user"], token)).ok  # the same button works now
        while await step(service, table):
            pass
        expected = direct_run("deal", 3, 13, ai_seats={1, 2})
        rules = GAMES["deal"].rules
        assert rules.encode_state(service.cache.state(table)) == rules.encode_state(expected)
    finally:
        await service.close()


async def test_finished_tables_leave_memory_and_spent_clocks_are_purged(tmp_path):
    clock = FakeClock()
    service = await GameService.open(f"sqlite:///{tmp_path / 'm.db'}", clock)
    try:
        first = None
        for i in range(KEEP_FINISHED + 8):
            out = await service.lobby.new_table(f"mem:{i}", "deal", None, "u0", "A")
            await service.lobby.add_ai(out.table, "u0")
            await service.lobby.add_ai(out.table, "u0")
            await service.lobby.leave(out.table, "u0")
            await service.lobby.start(out.table, "u0", seed=i, turn_cap=1)
            await service.idle()
            assert service.cache.row(out.table).status == "over"
            first = first or out.table
        gc.collect()
        assert len(service.cache) == KEEP_FINISHED and service.cache.running() == []
        assert not service.loop._tasks and not service.core.outbox.pending and len(service.cache._locks) == 0
        assert service.cache.row(first) is None  # the oldest finished table is no longer in memory
        assert (await service.cache.get(first)).row.status == "over"  # but the database still has it
        table = await lobby(service, "deal", humans=2, ais=0, seed=2)
        for _ in range(3):  # three clocks fire: their rows stay a while, then go
            clock.now += 61
            await service.sweep()
        async with AsyncSession(service.db) as session:
            spent = (await session.exec(select(DeadlineRow).where(DeadlineRow.status == "done"))).all()
        assert len(spent) == 3
        assert await queries.purge(service.db, clock.now - 3600) == 0  # an hour to look at them
        assert await queries.purge(service.db, clock.now + 1) == 3
        pending = await queries.open_clocks(service.db, table)
        assert pending and all(c.status == "pending" for c in pending)  # live clocks are never purged
    finally:
        await service.close()


async def test_a_process_that_dies_inside_start_leaves_a_lobby_that_starts_later(db_url, monkeypatch):
    """The state, the status and the first clocks are stored together: a start that dies half way
    leaves the lobby as it was (no running table without clocks), and Start works again."""
    service = await GameService.open(db_url)
    try:
        out = await service.lobby.new_table("chat:s", "deal", None, "u0", "Ann")
        await service.lobby.join(out.table, "u1", "Bob")
        real = queries.start_table

        async def dies(engine, table_id, values, clocks, notify=None):
            async with AsyncSession(engine) as session:  # half the work, never committed
                await session.exec(update(TableRow).where(TableRow.id == table_id).values(**values))
                raise ConnectionError("killed inside start()")

        monkeypatch.setattr(queries, "start_table", dies)
        with pytest.raises(ConnectionError):
            await service.lobby.start(out.table, "u0", seed=1)
        service.cache.drop(out.table)
        again = await GameService.open(db_url)
        try:
            assert (await again.cache.get(out.table)).row.status == "lobby"
            assert await queries.open_clocks(again.db, out.table) == []
            monkeypatch.setattr(queries, "start_table", real)
            assert (await again.lobby.start(out.table, "u0", seed=1)).ok
            clocks = await queries.open_clocks(again.db, out.table)
            assert [(c.seat, c.kind) for c in clocks] == [(d.seat, d.kind) for d in again.cache.waiting_for(out.table)]
        finally:
            await again.close()
    finally:
        await service.close()


async def _clock_rows(service, table: int) -> list:
    """A table's clocks that may still fire (not the match clock)."""
    async with AsyncSession(service.db) as session:
        rows = await session.exec(select(DeadlineRow).where(
            DeadlineRow.table_id == table, DeadlineRow.status.in_(OPEN_CLOCKS),
            DeadlineRow.kind != "match"))
        return list(rows)


async def test_a_clock_replaced_between_a_sweeps_read_and_its_claim_survives(db_url):
    """Issue 32: a sweep reads a due clock; before it claims it, a press moves the table, retiring
    that clock and setting the next one. The claim takes nothing (a clock id is never reused, and
    a clock is claimed only while it is due), and the new clock fires when its own time comes."""
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=8)
        clock.now += 61
        [read] = await queries.due(service.db, clock())  # the sweep's read
        assert await step(service, table)  # the press commits between the read and the claim
        live = await _clock_rows(service, table)
        assert len(live) == 1 and live[0].id != read.id and live[0].due_at > clock()
        assert await queries.claim(service.db, [read.id], service.clocks.owner, clock(), LEASE) == []
        again = await _clock_rows(service, table)
        assert [(c.id, c.status) for c in again] == [(live[0].id, "pending")]  # not retired as "moot"
        clock.now = live[0].due_at + 1
        fired = [o for o in await service.sweep() if o.ok]
        assert [o.table for o in fired] == [table]
    finally:
        await service.close()


async def test_0008_sqlite_clock_ids_are_never_reused(tmp_path):
    """Migration 0008: the deadlines table of an existing SQLite database is rebuilt with
    AUTOINCREMENT, its clocks kept; the largest id, deleted, is not given out again."""
    import sqlalchemy as sa

    from tests.engine.service.storage.test_migrations import _upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    await _upgrade(url, "0007")
    engine = database.make_db(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("INSERT INTO deadlines (id, version, seat, kind, due_at, status, ai) VALUES "
                                       "(1, 0, 0, 'turn', 5.0, 'pending', 0), (2, 0, 0, 'turn', 6.0, 'pending', 0)"))
        await _upgrade(url, "head")
        async with engine.begin() as conn:
            sql = (await conn.execute(sa.text("SELECT sql FROM sqlite_master WHERE name = 'deadlines'"))).scalar()
            assert "AUTOINCREMENT" in sql
            assert [r[0] for r in await conn.execute(sa.text("SELECT id FROM deadlines ORDER BY id"))] == [1, 2]
            await conn.execute(sa.text("DELETE FROM deadlines WHERE id = 2"))
            await conn.execute(sa.text("INSERT INTO deadlines (version, seat, kind, due_at, status, ai) "
                                       "VALUES (1, 0, 'turn', 7.0, 'pending', 0)"))
            assert (await conn.execute(sa.text("SELECT max(id) FROM deadlines"))).scalar() == 3
    finally:
        await engine.dispose()


async def test_a_lazy_restart_fires_clocks_and_takes_presses_before_every_table_is_restored(db_url, monkeypatch):
    """Issue 32: a bot's process opens its database lazily: the first sweep fires a clock due at
    the restart and a press on another table is applied while the start-up pass is still
    rebuilding tables (slowed down here); the pass then gives a table whose clock was lost its
    clock again, and every table is restored."""
    clock = FakeClock()
    first = await GameService.open(db_url, clock)
    tables = await tables_of_two(first, 12, seed=30)
    await first.idle()
    await first.close()
    async with AsyncSession(database.make_db(db_url)) as session:  # a crash lost the last table's clock
        await session.exec(update(DeadlineRow).where(DeadlineRow.table_id == tables[-1])
                           .values(status="moot"))
        await session.commit()

    clock.now += 61  # every table's first clock is due at the restart
    service = await GameService.open(db_url, clock, lazy=True)
    real_load, real_reconcile, loaded, gate = service.cache.load, service.restorer._reconcile, [], asyncio.Event()

    async def noted_load(row, verify=False):
        loaded.append((row.id, verify))
        return await real_load(row, verify)

    async def slow_reconcile(live):  # a long pass (thousands of tables): on once the test says so
        await gate.wait()
        return await real_reconcile(live)

    monkeypatch.setattr(service.cache, "load", noted_load)
    monkeypatch.setattr(service.restorer, "_reconcile", slow_reconcile)
    try:
        assert len(service.cache) == 0  # nothing read yet but the ids
        await service.startup()
        fired = [o for o in await service.sweep() if o.ok]
        assert fired and not service.restorer._restoring.done(), "clocks fire while the pass goes on"
        pressed = tables[5]
        if service.cache.row(pressed) is None or service.cache.row(pressed).version == 0:
            await service.cache.get(pressed)
        assert await step(service, pressed)
        assert not service.restorer._restoring.done(), "and presses are applied meanwhile"
        gate.set()
        await service.restored()
        assert {t for t, verify in loaded if verify} | {t for t, _ in loaded} >= set(tables)
        clocks = await _clock_rows(service, tables[-1])
        assert len(clocks) == 1, "the pass set the lost clock again"
        assert all(service.cache.row(t) is not None for t in tables)
    finally:
        await service.close()


async def test_a_running_table_without_a_snapshot_is_rebuilt_from_its_log_and_says_so(db_url, caplog):
    """Issue 32: a NULL snapshot (a row written by hand, a bad restore) is rebuilt from the action
    log at the start, written back, and the log says so once."""
    caplog.set_level(logging.WARNING, logger="engine.service")
    first = await GameService.open(db_url)
    table = await lobby(first, "deal", humans=2, ais=0, seed=8)
    assert await step(first, table)
    expected = first.cache.rules(table).encode_state(first.cache.state(table))
    await first.close()
    engine = database.make_db(db_url)
    async with AsyncSession(engine) as session:
        await session.exec(update(TableRow).where(TableRow.id == table).values(snapshot=None))
        await session.commit()
    await engine.dispose()
    service = await GameService.open(db_url)
    try:
        assert service.cache.rules(table).encode_state(service.cache.state(table)) == expected
        said = [r for r in caplog.records if "no snapshot was stored" in r.getMessage()]
        assert len(said) == 1 and str(table) in said[0].getMessage()
        async with AsyncSession(service.db) as session:
            row = await session.get(TableRow, table)
        assert row.snapshot == expected.decode()
    finally:
        await service.close()
