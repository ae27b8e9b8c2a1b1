"""Clocks: derived from each table's state, stored as rows, each fired exactly once by any process.

A running table always has exactly the clocks its ``waiting_for`` implies: one per decision a
person owes (due after the table's seconds for that decision's policy), one per decision an AI
seat owes (a safety net due after ``AI_GRACE``: the process that made the move answers for the AI
at once, but if it dies another process's sweep does it), and the match clock when the match is
timed. The move that changes the state retires the old clocks and sets the new ones in its own
transaction; ``reconcile`` does the same when something else changed (seats, a restart).

The sweep takes every clock that has run out with a lease (one statement for all), then fires
each: a table's clock is applied by a move whose transaction also marks the clock done, only while
the lease is still this process's; a clock of a scheduled match or a tournament goes to the part
of the service that registered for it (``handle``). A process that dies after taking a clock
leaves a lease that runs out; the next sweep of any process takes it over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from engine.core.values import SYSTEM, EndMatch
from engine.games import GAMES
from engine.service import metrics
from engine.service.outcome import Outcome
from engine.service.storage import store

if TYPE_CHECKING:
    from engine.service.cache import LiveTable
    from engine.service.tables import GameService

log = logging.getLogger(__name__)

# seconds per decision policy (a chat may set its own); the Deal tournament's card clock comes
# from its rule set (D-16)
DEFAULT_CLOCKS = {"turn": 60, "card": 10, "response": 20, "payment": 60, "discard": 30, "choice": 30,
                  "auction": 30}
MISSES_BEFORE_AI = 3
AI_GRACE = 10.0  # an AI seat's decision left unanswered this long is taken by any process's sweep
LEASE = 30.0  # a taken clock not applied within this long is taken over by another sweep
Handler = Callable[[store.DeadlineRow], Awaitable[Outcome]]


def owner_name() -> str:
    """This process among others on one database (host, pid and a random part for restarts)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


def clock_seconds(live: LiveTable, policy: str) -> float:
    return live.row.clocks.get(policy, DEFAULT_CLOCKS.get(policy, 60))


def wanted_clocks(live: LiveTable, now: float, version: int | None = None, seats: list | None = None,
                  status: str | None = None) -> list[store.DeadlineRow]:
    """The decision clocks the table's state implies now (not the match clock); ``version``,
    ``seats`` and ``status`` as they will be once a move being stored is stored."""
    return [store.DeadlineRow(table_id=live.row.id, version=c.version, seat=c.seat, kind=c.kind, ai=c.ai,
                              due_at=c.due_at) for c in wanted_infos(live, now, version, seats, status)]


def wanted_infos(live: LiveTable, now: float, version: int | None = None, seats: list | None = None,
                 status: str | None = None) -> list[store.ClockInfo]:
    """``wanted_clocks`` as plain values: what a move stores (an ORM row costs more to build than
    the rest of the move's bookkeeping)."""
    version = live.row.version if version is None else version
    seats = live.row.seats if seats is None else seats
    if (status or live.row.status) != "running" or live.state is None:
        return []
    out = []
    for decision in live.rules.waiting_for(live.state):
        ai = bool(seats[decision.seat]["ai"])
        seconds = AI_GRACE if ai else clock_seconds(live, decision.policy)
        out.append(store.ClockInfo(version, decision.seat, decision.kind, ai, now + seconds))
    return out


class Clocks:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.owner = owner_name()
        self._handlers: dict[str, Handler] = {}
        self.lateness: deque[tuple[float, float]] = deque(maxlen=100_000)  # (due at, seconds past it) per clock
        self.fired = 0
        # set while no clock is being fired: AI seats wait for it, so clocks have the database first
        self.quiet = asyncio.Event()
        self.quiet.set()

    def handle(self, source: str, handler: Handler) -> None:
        """Who fires clocks that are not a table's: ``schedule`` or ``tournament`` rows."""
        self._handlers[source] = handler

    async def reconcile(self, live: LiveTable) -> None:
        """Set exactly the clocks the table's state implies (after a change that was not a move;
        the caller holds the table's lock). A copy another process has moved past is dropped
        instead: that process set the clocks of the newer state."""
        if live.row.status != "running":
            live.clocks = await store.live_clocks(self.service.engine, live.row.id)
            return
        clocks = await store.reconcile(self.service.engine, live.row.id, live.row.version,
                                       wanted_clocks(live, self.service.clock()))
        if clocks is None:
            self.service.cache.drop(live.row.id)
        else:
            live.clocks = clocks

    async def match_ends_at(self, table_id: int) -> float | None:
        """When the running match clock of a table runs out, if one runs."""
        live = self.service.cache.peek(table_id)
        if live is not None and live.clocks:
            return live.match_ends_at
        rows = await store.live_clocks(self.service.engine, table_id)
        return next((r.due_at for r in rows if r.kind == "match" and r.status != "held"), None)

    async def sweep(self) -> list[Outcome]:
        """Fire every clock that has run out, each exactly once across processes. A failure with
        one clock is logged with its table and gives the clock back; the others go on. A failure
        to reach the database at all is raised (the supervisor retries)."""
        now = self.service.clock()
        rows = await store.due(self.service.engine, now)
        # the rows as claimed, not as read: a clock read here may have been replaced since
        mine = await store.claim(self.service.engine, [r.id for r in rows], self.owner, now, LEASE)
        if not mine:
            return []
        tables = [r for r in mine if r.table_id is not None]
        others = [r for r in mine if r.table_id is None]
        self.quiet.clear()
        try:
            # tables fire side by side (each under its own lock); rounds and schedules one by one,
            # as one may start tables another then waits for
            results = list(await asyncio.gather(*(self._guarded(r) for r in tables)))
            for row in others:
                results.append(await self._guarded(row))
        finally:
            self.quiet.set()
        stuck = [r for r in results if isinstance(r, BaseException)]
        if stuck:  # the database refused the moves (a full disk): the supervisor backs off, says so once
            raise stuck[0]
        return [o for o in results if o is not None]

    async def _guarded(self, row: store.DeadlineRow) -> Outcome | BaseException | None:
        try:
            if row.table_id is not None:
                return await self.service.fire(row, self.owner)
            return await self._fire_other(row)
        except store.DB_ERRORS as e:  # the database, not this clock: given back, told by the sweep
            with contextlib.suppress(*store.DB_ERRORS):
                await store.release(self.service.engine, row.id, self.owner)
            if row.table_id is not None:
                self.service.cache.drop(row.table_id)
            return e
        except Exception:
            where = f"table {row.table_id}" if row.table_id is not None else (
                f"schedule {row.schedule_id}" if row.schedule_id is not None else f"tournament {row.tournament_id}")
            log.exception("clock %s (%s, %s) failed; it will be tried again", row.id, where, row.kind)
            with contextlib.suppress(*store.DB_ERRORS):  # else the lease runs out instead
                await store.release(self.service.engine, row.id, self.owner)
            if row.table_id is not None:
                self.service.cache.drop(row.table_id)  # whatever went wrong, the database is right
            return None

    async def _fire_other(self, row: store.DeadlineRow) -> Outcome | None:
        source = "schedule" if row.schedule_id is not None else "tournament"
        handler = self._handlers.get(source)
        if handler is None:  # nobody in this process runs these: give it back for one that does
            await store.release(self.service.engine, row.id, self.owner)
            return None
        outcome = await handler(row)
        await store.release(self.service.engine, row.id, self.owner, "done")
        self.note_fired(row)
        await self.service.loop.notice(outcome)
        # tables the clock started are shown after the notice (a round's threads exist by then)
        for table in ([outcome.table] if outcome.table is not None else []) + outcome.params.get("tables", []):
            self.service.loop.kick(table, kind="started")
        return outcome

    def note_fired(self, row: store.DeadlineRow) -> None:
        self.fired += 1
        late = max(0.0, self.service.clock() - row.due_at)
        self.lateness.append((row.due_at, late))
        metrics.CLOCK_LATENESS.observe(late)

    def action_for(self, live: LiveTable, row: store.DeadlineRow):
        """What a clock applies: the match's end, an AI seat's choice, or the rules' timeout action."""
        if row.kind == "match":
            return SYSTEM, EndMatch(reason="time")
        if live.row.seats[row.seat]["ai"]:
            return row.seat, GAMES[live.row.game].choose(live.state, row.seat)
        return row.seat, live.rules.timeout_action(live.state, row.seat)
