"""The clock task of a process, supervised.

It starts the loop (every table's clocks set as its state implies, AI seats that owe a move make
it, damaged tables' chats told), then sweeps the clocks every ``every`` seconds. What goes wrong
with one table is logged with its id by the sweep and the rest goes on. A database that cannot be
reached is retried with back-off (one log line per attempt); while it lasts the heartbeat file is
not touched, so a container's health check sees the process is not doing its work. When the
database stays away longer than ``give_up`` seconds, or the sweep itself keeps failing for a reason
that is not the database, ``ServiceDown`` is raised: the process ends with a non-zero status and
its supervisor (Docker, systemd) starts it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from engine.service import metrics
from engine.service.core import Core
from engine.service.storage import queries
from engine.service.storage.errors import DB_ERRORS, describe

log = logging.getLogger(__name__)
# the longest wait between two sweeps while the database fails: short, so that clocks resume within
# seconds of the database (or a full disk's space) coming back (issue 46: it had grown to 30 s)
MAX_BACKOFF = 4.0
FAILURES_BEFORE_EXIT = 5  # sweeps in a row failing for a reason other than the database
PURGE_EVERY = 600.0  # seconds between two purges of spent clocks
KEEP_SPENT = 3600.0  # a fired or retired clock is kept this long (for audits), then forgotten
BEAT_EVERY = 5.0  # the heartbeat file is touched at most this often
COUNT_EVERY = 15.0  # seconds between two counts of the open tables (a metric)
MIN_WAIT = 0.02  # shortest pause between two sweeps


class ServiceDown(RuntimeError):
    """The clock task cannot go on; the process should end (and be restarted)."""


def touch(path: str) -> None:
    with contextlib.suppress(OSError), open(path, "w") as f:
        f.write(str(int(time.time())))


describe = describe  # one line for the log: the error's kind and its message's first line


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)


async def supervise(core: Core, startup: Callable[[], Awaitable[None]], sweep: Callable[[], Awaitable],
                    stop: asyncio.Event, every: float = 1.0, heartbeat: str | None = None,
                    give_up: float = 15 * 60) -> None:
    """The clock task: ``startup`` once, then ``sweep`` until ``stop``, under the supervision the
    module docstring describes."""
    started = False
    failing_since: float | None = None
    backoff = every
    errors = 0
    last_purge = last_beat = last_count = last_said = 0.0
    while not stop.is_set():
        try:
            if not started:
                await startup()
                started = True
                log.info("clock task started (process %s)", core.owner)
            await sweep()
            due = await queries.next_due(core.db)
            now = time.monotonic()
            if now - last_said >= BEAT_EVERY:  # still running, and what it reads (storage/formats.py)
                await core.formats.beat()
                last_said = now
            if now - last_purge > PURGE_EVERY:
                purged = await queries.purge(core.db, core.clock() - KEEP_SPENT)
                if purged:
                    log.info("purged %s spent clocks", purged)
                last_purge = now
        except DB_ERRORS as e:
            metrics.DATABASE_ERRORS.labels("sweep").inc()
            now = time.monotonic()
            failing_since = failing_since or now
            if now - failing_since > give_up:
                raise ServiceDown(f"the database has been unreachable for {int(now - failing_since)} s "
                                  f"({describe(e)})") from e
            log.warning("database unavailable (%s); clocks wait, retrying in %.0f s", describe(e), backoff)
            await _wait(stop, backoff)
            backoff = min(backoff * 2, MAX_BACKOFF)
            continue
        except Exception as e:
            errors += 1
            log.exception("clock sweep failed (%s of %s in a row)", errors, FAILURES_BEFORE_EXIT)
            if errors >= FAILURES_BEFORE_EXIT:
                raise ServiceDown(f"the clock sweep failed {errors} times in a row ({describe(e)})") from e
            await _wait(stop, every)
            continue
        if failing_since is not None:
            log.info("database reachable again after %.0f s; clocks resume", time.monotonic() - failing_since)
        failing_since, backoff, errors = None, every, 0
        core.health.swept_at = time.time()
        metrics.LAST_SWEEP.set(core.health.swept_at)
        if time.monotonic() - last_count >= COUNT_EVERY:  # how many tables are open, for the operator
            with contextlib.suppress(*DB_ERRORS):
                metrics.TABLES_OPEN.set(await queries.count_open(core.db))
                last_count = time.monotonic()
        if heartbeat and time.monotonic() - last_beat >= BEAT_EVERY and not core.health.writes_failing():
            # proof of a sweep that worked, while moves are being stored
            touch(heartbeat)
            last_beat = time.monotonic()
        # sleep until the next clock is due (at most ``every``: other processes set clocks too)
        wait = every if due is None else min(every, max(MIN_WAIT, due - core.clock()))
        await _wait(stop, wait)

