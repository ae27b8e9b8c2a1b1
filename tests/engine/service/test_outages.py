"""The database goes away and comes back: the clock task and the table loop carry on.

What this file proves, with faults injected and no assumption about how fast the machine is (every
wait is a generous ``wait_for`` or a poll for a condition; no duration is asserted):

- a database error in the clock sweep is retried: one warning line per attempt (no traceback), the
  heartbeat file is not touched while the sweep fails, and the clock that came due during the
  outage fires once the database answers again (SQLite, and PostgreSQL when ``TEST_DATABASE_URL``
  is set);
- a database that stays away longer than ``give_up`` ends the clock task with ``ServiceDown`` (the
  process exits and its supervisor restarts it), and the heartbeat was never touched;
- a real PostgreSQL connection loss (a TCP proxy between the service and the server cuts every
  connection and refuses new ones for a while): the clock task keeps running and logs it, a press
  during the outage fails instead of hanging, and after the connection is back the overdue clock
  fires, the heartbeat resumes and presses work again (the issue: "One PostgreSQL restart ends
  the clock task with an InterfaceError, logged nowhere");
- the per-table loop retries a database error while the AI seats answer, and they still answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import struct
import time
from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from engine.games import GAMES
from engine.service import away, metrics, runner
from engine.service.outcome import Outcome
from engine.service.runner import ServiceDown
from engine.service.storage import errors, queries, writer
from engine.service.storage.errors import DB_ERRORS
from engine.service.tables import GameService
from tests.conftest import drop_everything
from tests.engine.service.test_service import FakeClock, lobby, tables_of_two

PG_URL = os.environ.get("TEST_DATABASE_URL")
TIMEOUT = 20.0  # generous: only ever reached when something is broken


@pytest.fixture(autouse=True)
def beat_at_once(monkeypatch):
    """The heartbeat is touched after every sweep that worked (not at most every 5 s)."""
    monkeypatch.setattr(runner, "BEAT_EVERY", 0.0)
    monkeypatch.setattr(errors, "_outages", {})  # each test's failures are told afresh


async def eventually(check: Callable[[], bool | Awaitable[bool]], what: str, timeout: float = TIMEOUT) -> None:
    """Poll ``check`` until it holds; fail with ``what`` when it does not within ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting until {what}")
        await asyncio.sleep(0.02)


def unavailable(caplog, text: str = "database unavailable") -> list[logging.LogRecord]:
    return [r for r in caplog.records if text in r.getMessage()]


async def stored_version(service: GameService, table: int) -> int:
    return len(await queries.load_log(service.db, table))


def gone() -> OperationalError:
    return OperationalError("select", {}, Exception("database is gone"))


async def stop_task(stop: asyncio.Event, task: asyncio.Task) -> None:
    """Ask the clock task to stop; it must end on its own, without an exception."""
    stop.set()
    await asyncio.wait_for(task, timeout=TIMEOUT)  # re-raises whatever ended the task
    assert task.done() and task.exception() is None


# -- 1. a database error in the sweep ---------------------------------------------------------------

FAILS = 3


async def test_a_database_error_in_the_sweep_is_retried_and_the_due_clock_then_fires(db_url, tmp_path, monkeypatch,
                                                                                        caplog):
    caplog.set_level(logging.INFO, logger="engine.service")
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    beat = tmp_path / "beat"
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=8)
        assert service.cache.row(table).version == 0
        clock.now += 61  # the first person's 60 s turn clock has run out

        real_due = queries.due
        calls = {"n": 0}
        beat_while_failing: list[bool] = []

        async def failing_due(engine, now, *args, **kwargs):
            calls["n"] += 1
            if calls["n"] <= FAILS:
                beat_while_failing.append(beat.exists())
                raise gone()
            return await real_due(engine, now, *args, **kwargs)

        monkeypatch.setattr(queries, "due", failing_due)
        stop = asyncio.Event()
        task = asyncio.create_task(service.run(stop, every=0.05, heartbeat=str(beat)))
        try:
            await eventually(lambda: calls["n"] > FAILS, "the sweep is tried again after the failures")
            await eventually(lambda: (service.cache.row(table) is not None and service.cache.row(table).version >= 1
                                      and beat.exists()), "the due clock fires and the heartbeat is touched")
            assert not task.done()
        finally:
            await stop_task(stop, task)

        warnings = unavailable(caplog)
        assert len(warnings) == FAILS, [r.getMessage() for r in warnings]  # one line per attempt
        assert all(r.levelno == logging.WARNING and r.exc_info is None for r in warnings)  # no traceback
        assert all("OperationalError" in r.getMessage() and "database is gone" in r.getMessage() for r in warnings)
        assert not [r for r in caplog.records if r.exc_info is not None], "nothing logged a traceback"
        assert beat_while_failing == [False] * FAILS, "the heartbeat is never touched while the sweep fails"
        assert unavailable(caplog, "database reachable again"), "the recovery is logged"

        log = await queries.load_log(service.db, table)
        assert len(log) == 1 and log[0].seq == 1 and log[0].deadline_id is not None, "the clock made exactly one move"
        assert service.cache.row(table).version == 1
        assert beat.exists()
    finally:
        await service.close()


# -- 2. giving up -------------------------------------------------------------------------------------


async def test_a_database_that_stays_away_ends_the_clock_task_with_service_down(db_url, tmp_path, monkeypatch,
                                                                                  caplog):
    service = await GameService.open(db_url, FakeClock())
    beat = tmp_path / "beat"
    calls = {"n": 0}

    async def always_gone(*args, **kwargs):
        calls["n"] += 1
        raise gone()

    try:
        monkeypatch.setattr(queries, "due", always_gone)
        with pytest.raises(ServiceDown, match="unreachable") as raised:
            await asyncio.wait_for(service.run(asyncio.Event(), every=0.05, heartbeat=str(beat), give_up=0.3),
                                   timeout=TIMEOUT)
        assert isinstance(raised.value.__cause__, OperationalError)
        assert calls["n"] >= 2 and len(unavailable(caplog)) == calls["n"] - 1  # the last attempt raised instead
        assert not beat.exists(), "no sweep worked, so the heartbeat was never touched"
    finally:
        await service.close()


# -- 3. a real PostgreSQL connection loss, through a TCP proxy ------------------------------------------


SSL_OR_GSS_REQUEST = (80877103, 80877104)  # a client asks for encryption before its startup message


def starting_up_error() -> bytes:
    """The ErrorResponse a PostgreSQL server that is restarting sends a new connection (57P03)."""
    fields = b"".join(code + text + b"\0" for code, text in (
        (b"S", b"FATAL"), (b"V", b"FATAL"), (b"C", b"57P03"), (b"M", b"the database system is starting up")))
    body = fields + b"\0"
    return b"E" + struct.pack("!i", len(body) + 4) + body


class Proxy:
    """Forwards TCP connections from 127.0.0.1:<port> to the database server. ``cut()`` closes
    every open connection (both directions) and refuses new ones; ``restore()`` forwards again.

    A refused connection is accepted and closed at once (``refusal="close"``), or answered as a
    restarting server answers it: no encryption, then "FATAL 57P03 the database system is starting
    up" once the client has sent its startup message (``refusal="starting_up"``)."""

    def __init__(self, host: str, port: int, refusal: str = "close") -> None:
        self.upstream = (host, port)
        self.refusal = refusal
        self.forwarding = True
        self.port = 0
        self.refused = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> Proxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def cut(self) -> None:
        self.forwarding = False
        for held in list(self._writers):
            held.transport.abort()
        self._writers.clear()

    def restore(self) -> None:
        self.forwarding = True

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), timeout=5)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.forwarding:
            self.refused += 1
            if self.refusal == "starting_up":
                with contextlib.suppress(OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError):
                    await asyncio.wait_for(self._refuse_as_a_restarting_server(reader, writer), timeout=5)
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        if not self.forwarding:  # cut while connecting
            writer.transport.abort()
            up_writer.transport.abort()
            return
        pair = {writer, up_writer}
        self._writers |= pair
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            for w in pair:
                self._writers.discard(w)
                w.transport.abort()

    @staticmethod
    async def _refuse_as_a_restarting_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            (length,) = struct.unpack("!i", await reader.readexactly(4))
            body = await reader.readexactly(length - 4)
            if length == 8 and struct.unpack("!i", body)[0] in SSL_OR_GSS_REQUEST:
                writer.write(b"N")  # no encryption here; the startup message follows
                continue
            writer.write(starting_up_error())
            await writer.drain()
            return

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, ConnectionError):
            pass
        finally:
            writer.transport.abort()  # one side gone: the whole connection goes


@pytest.mark.skipif(not PG_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
@pytest.mark.parametrize("refusal", ["close", "starting_up"])
async def test_a_postgresql_connection_loss_is_survived_by_the_clock_task_and_presses(tmp_path, caplog, refusal):
    caplog.set_level(logging.INFO, logger="engine.service")
    await drop_everything(PG_URL)  # directly, not through the proxy
    real = make_url(PG_URL)
    proxy = await Proxy(real.host or "127.0.0.1", real.port or 5432, refusal).start()
    through_proxy = real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    clock = FakeClock()
    beat = tmp_path / "beat"
    service = await GameService.open(through_proxy, clock)
    stop = asyncio.Event()
    task: asyncio.Task | None = None
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=8)
        rules = GAMES["deal"].rules
        task = asyncio.create_task(service.run(stop, every=0.05, heartbeat=str(beat)))
        await eventually(beat.exists, "the clock task sweeps through the proxy")
        seat = rules.waiting_for(service.cache.state(table))[0].seat
        user = service.cache.row(table).seats[seat]["user"]
        token = service.buttons(table, seat)[0][1]

        proxy.cut()
        clock.now += 61  # the turn clock runs out while the database cannot be reached
        await eventually(lambda: len(unavailable(caplog)) >= 1, "the clock task logs the lost database")
        assert not task.done(), "the clock task keeps going while the database is away"
        beat.unlink()  # from now on only a sweep that works can make it again

        # a press during the outage fails (or is refused); it never hangs
        try:
            pressed = await asyncio.wait_for(service.act(user, token), timeout=TIMEOUT)
        except DB_ERRORS:
            pressed = None
        assert pressed is None or (isinstance(pressed, Outcome) and not pressed.ok)
        assert not task.done() and not beat.exists() and proxy.refused >= 1
        # a short outage: the clock task keeps sweeping, and failing (waited for, not timed: a
        # busy machine may take over a second for the next failed connection)
        await eventually(lambda: len(unavailable(caplog)) >= 2, "a second sweep fails while the database is away")
        assert not task.done() and not beat.exists()
        assert not [r for r in caplog.records if r.name == "engine.service.runner" and r.exc_info is not None], \
            "a lost connection is the database being away, not a failing sweep"

        proxy.restore()
        async def fired_and_beating() -> bool:
            return await stored_version(service, table) >= 1 and beat.exists()

        await eventually(fired_and_beating,
                         "the overdue clock fires and the heartbeat is touched after the database is back",
                         timeout=40)  # the back-off may have grown to a few seconds
        log = await queries.load_log(service.db, table)
        assert [row.seq for row in log] == [1] and log[0].deadline_id is not None, "the clock fired exactly once"
        assert unavailable(caplog, "database reachable again")
        assert not task.done()

        # the next press works: the pool replaced its dead connections
        live = await service.cache.get(table)
        assert live is not None and live.row.version == 1
        seat = rules.waiting_for(live.state)[0].seat
        action = GAMES["deal"].choose_listed(live.state, seat)
        token = next(t for a, t in service.buttons(table, seat) if a == action)
        out = await asyncio.wait_for(service.act(live.row.seats[seat]["user"], token), timeout=TIMEOUT)
        assert out.ok, out
        assert await stored_version(service, table) == 2
    finally:
        try:
            if task is not None:
                await stop_task(stop, task)  # it ends when asked, without an exception
        finally:
            await service.close()
            await proxy.close()


# -- 4. the per-table loop ------------------------------------------------------------------------------


async def test_the_table_loop_retries_a_database_error_while_the_ai_seats_answer(tmp_path, monkeypatch, caplog):
    service = await GameService.open(f"sqlite:///{tmp_path / 'tycoon.db'}")
    settle_errors = metrics.DATABASE_ERRORS.labels("settle")._value.get()
    try:
        table = await lobby(service, "deal", humans=1, ais=2, seed=7)
        await asyncio.wait_for(service.idle(), timeout=TIMEOUT)  # AI seats that start have answered
        rules = GAMES["deal"].rules
        seats = service.cache.row(table).seats
        human = next(i for i, s in enumerate(seats) if not s["ai"])

        real = writer.append_move
        failed: list[int] = []
        ai_stored: list[int] = []

        async def flaky(engine, table_id, old_version, seat, *args, **kwargs):
            if seat != human and len(failed) < 2:  # the AI seats' next two moves hit a lost database
                failed.append(seat)
                raise ConnectionError("the database went away")
            stored = await real(engine, table_id, old_version, seat, *args, **kwargs)
            if stored and seat != human:
                ai_stored.append(old_version + 1)
            return stored

        monkeypatch.setattr(writer, "append_move", flaky)
        pressed_at = None
        for _ in range(20):  # the person plays until the AI seats owe a move (usually one press: end the turn)
            live = await service.cache.get(table)
            decisions = rules.waiting_for(live.state)
            assert decisions and all(d.seat == human for d in decisions), "the loop answers for AI seats first"
            legal = rules.legal_actions(live.state, human)
            action = next((a for a in legal if type(a).__name__ == "EndTurn"), None)
            action = action or GAMES["deal"].choose_listed(live.state, human)
            token = next(t for a, t in service.buttons(table, human) if a == action)
            out = await service.act(seats[human]["user"], token)
            assert out.ok, out
            pressed_at = out.version
            await asyncio.wait_for(service.idle(), timeout=TIMEOUT)
            if failed:
                break
        assert failed and len(failed) == 2, "the AI seats' moves met the lost database twice"
        assert ai_stored and min(ai_stored) == pressed_at + 1, "an AI seat answered the press after the retries"
        log = await queries.load_log(service.db, table)
        assert any(row.seq > pressed_at and row.seat != human for row in log)
        assert len(log) == service.cache.row(table).version > pressed_at
        retries = unavailable(caplog, "database unavailable while settling")
        assert len(retries) == 1 and all(r.exc_info is None for r in retries)  # one line for the kind
        assert metrics.DATABASE_ERRORS.labels("settle")._value.get() - settle_errors == 2  # both counted
        assert not [r for r in caplog.records if "settling failed" in r.getMessage()]
    finally:
        await service.close()


# -- a full disk ------------------------------------------------------------------------------------

async def test_a_full_disk_backs_off_with_one_line_per_try_and_leaves_the_heartbeat_stale(tmp_path, caplog,
                                                                                         monkeypatch):
    """Issue 32: SQLite whose file may not grow (``max_page_count``: "database or disk is full"),
    six tables whose clocks keep running out: the moves fill what room the file has left, then
    every try of the sweep is one warning line without a traceback, the tries back off, the
    heartbeat is no longer touched, the metrics count the failures, each chat whose move failed is
    told once (issue 46); once the disk has room again the clocks fire, each once."""
    caplog.set_level(logging.INFO, logger="engine.service")
    monkeypatch.setattr(runner, "MAX_BACKOFF", 0.8)  # the sweep's tries back off up to 0.8 s (not 4 s)

    async def plays_on(core, live) -> bool:  # the AI plays on for the players who never press, so
        return False  # that clocks keep filling the disk (not the pause of engine/service/away.py)

    monkeypatch.setattr(away, "pause", plays_on)
    clock = FakeClock()
    service = await GameService.open(f"sqlite:///{tmp_path / 'full.db'}", clock)
    beat = tmp_path / "beat"
    try:
        tables = await tables_of_two(service, 6, seed=8)
        chats = {service.cache.row(t).chat_key for t in tables}  # (a failed move drops its table's copy)
        notices = []  # what the chats are told (a chat front end posts it in the group)

        async def noticed(outcome):
            notices.append((outcome.key, outcome.params.get("chat")))

        service.subscribe(on_notice=noticed)
        async with service.db.connect() as conn:  # the one connection SQLite writes through
            pages = (await conn.exec_driver_sql("PRAGMA page_count")).scalar()
            await conn.exec_driver_sql(f"PRAGMA max_page_count = {pages}")
        counted = {kind: metrics.DATABASE_ERRORS.labels(kind)._value.get() for kind in ("move", "settle", "sweep")}
        sweeps = []  # the clock task's sweeps (each that works would touch the heartbeat, were moves stored)
        real_sweep = service.sweep

        async def sweep():
            sweeps.append(None)
            return await real_sweep()

        service.sweep = sweep
        stop = asyncio.Event()
        task = asyncio.create_task(service.run(stop, every=0.05, heartbeat=str(beat)))

        async def clocks_run_out() -> None:  # a turn's minute passes again and again
            while not unavailable(caplog):
                clock.now += 61
                await asyncio.sleep(0.05)

        try:
            await asyncio.wait_for(clocks_run_out(), TIMEOUT)
            # (moves that still fit in a page with room go on being stored for a while)
            health = service.health
            await eventually(lambda: health.writes_failing() and time.monotonic() - health.stored_at > 1.0,
                             "no move has been stored for a second")
            beaten, told, swept = beat.stat().st_mtime_ns, len(unavailable(caplog)), len(sweeps)
            # a whole sweep after this one (the clock task's tries back off: 0.8 s apart at most here)
            await eventually(lambda: len(sweeps) >= swept + 2, "two more sweeps")
            assert service.health.writes_failing() and beat.stat().st_mtime_ns == beaten, "the heartbeat is stale"
            assert len(unavailable(caplog)) - told <= 4, "a line per kind now and then, not one per table and try"
            async with service.db.connect() as conn:  # room again
                await conn.exec_driver_sql("PRAGMA max_page_count = 1073741823")
            await eventually(lambda: beat.stat().st_mtime_ns != beaten, "moves are stored and the heartbeat beats")
        finally:
            await stop_task(stop, task)
        lines = unavailable(caplog)
        failures = sum(metrics.DATABASE_ERRORS.labels(k)._value.get() - v for k, v in counted.items())
        assert all(r.levelno == logging.WARNING and r.exc_info is None for r in lines)
        assert all("full" in r.getMessage() for r in lines), [r.getMessage() for r in lines]
        assert not [r for r in caplog.records if r.exc_info is not None], "no traceback, not one per clock"
        assert failures > len(lines), "every failure counted in the metrics, far fewer told"
        fired = [x.deadline_id for t in tables for x in await queries.load_log(service.db, t)
                 if x.deadline_id is not None]  # (AI seats took over the seats that missed three clocks)
        assert len(fired) >= len(tables) and len(fired) == len(set(fired)), "no clock was applied twice"
        full = [chat for key, chat in notices if key == "service.storage_full"]
        assert full and len(full) == len(set(full)), f"each chat whose moves failed is told once: {full}"
        assert set(full) <= chats
    finally:
        await service.close()

