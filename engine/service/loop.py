"""The table loop: after every move the service settles the table and publishes one update.

A move (a player's press, a clock, the service itself) records its events in the core's outbox
under the table's lock and wakes the table here. One task per table then *settles* it: the AI seats answer whatever they
owe (one move at a time, at most ``AI_SLOTS`` tables thinking at once so that AI play never holds
up a clock), the game ends by valuation past its turn cap, and one ``TableUpdate`` goes to every
subscriber of the table's chat (``subscribers.py``): the events since the last update, whether the
turn passed, who must act now and until when, whether the game is over. Front ends subscribe and
render; they never move AI seats nor compare turns. Updates of one table are published in order,
never two at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine.core.values import SYSTEM, EndMatch, TurnStarted
from engine.games import GAMES, chooser
from engine.service import metrics
from engine.service.core import Core
from engine.service.outcome import Outcome
from engine.service.storage.errors import DB_ERRORS, describe, outage_told
from engine.service.updates import Snapshot, TableUpdate, due_of, snapshot_of
from engine.service.views import Ask, asks_of, private_views, public_view

log = logging.getLogger(__name__)
AI_SLOTS = 2  # tables whose AI seats think at the same time
RETRY_FIRST, RETRY_MAX = 0.2, 30.0  # back-off while the database cannot be reached


@dataclass
class _Taken:
    """An update as taken under the table's lock, before its views are made."""

    table: int
    chat_key: str
    kind: str
    snapshot: Snapshot
    events: list
    notes: list[Outcome]
    turn_passed: bool
    asks: list[Ask]
    asked: list[Ask]
    match_ends_at: float | None


FinishedHook = Callable[[int], Awaitable[Outcome | None]]

# when several things happened before one update, the one a front end must act on
_PRECEDENCE = ("damaged", "cancelled", "started", "over", "paused", "resumed", "seats", "moves")


class TableLoop:
    """Settles tables: one task per table with something to settle (``core.outbox``)."""

    def __init__(self, core: Core, quiet: asyncio.Event) -> None:
        self.core = core
        self.quiet = quiet  # set while no clock is being fired: AI seats wait for it
        self._tasks: dict[int, asyncio.Task] = {}
        self._ai = asyncio.Semaphore(AI_SLOTS)
        self._on_finished: dict[str, FinishedHook] = {}
        self._stopping = False
        self._asked: dict[int, set[tuple[int, str]]] = {}  # per table: the decisions its last update asked
        core.outbox.wake = self.wake

    def when_finished(self, hook: FinishedHook, key: str) -> None:
        """``hook(table)`` is called once a table's game is over or cancelled and its last update
        is out; it may answer a notice (a tournament round that ended with it)."""
        self._on_finished[key] = hook

    def wake(self, table_id: int) -> None:
        """Settle the table soon (its task starts when none runs, else goes round once more)."""
        task = self._tasks.get(table_id)
        if task is None or task.done():
            self._tasks[table_id] = asyncio.get_running_loop().create_task(self._run(table_id),
                                                                           name=f"table-{table_id}")

    async def idle(self) -> None:
        """Wait until no table has anything left to settle or publish (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
            self._tasks = {k: t for k, t in self._tasks.items() if not t.done()}

    def busy(self) -> list[asyncio.Task]:
        """The tables being settled or shown now."""
        return [t for t in self._tasks.values() if not t.done()]

    async def stop(self, grace: float = 2.0) -> None:
        """Shutting down: AI seats stop after the move they are making, updates being shown get
        ``grace`` seconds; what is left is cancelled (a restart settles those tables again)."""
        self._stopping = True
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=grace)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    # -- the task of a table -----------------------------------------------------------------

    async def _run(self, table_id: int) -> None:
        backoff = RETRY_FIRST
        while table_id in self.core.outbox.pending:
            try:
                await self._play_ai(table_id)
                update = await self._take_update(table_id)
            except DB_ERRORS as e:  # the database blinked: the copy is read again, later
                metrics.DATABASE_ERRORS.labels("settle").inc()
                told, untold = outage_told(e)
                if told:  # one line for all the tables that meet the same failure meanwhile
                    log.warning("database unavailable while settling tables (%s)%s; table %s retries in %.1f s",
                                describe(e), f", {untold} more like it since" if untold else "",
                                table_id, backoff)
                self.core.cache.drop(table_id)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, RETRY_MAX)
                continue
            except Exception:  # a bug: the AI seat's clock (any process's sweep) tries again later
                log.exception("table %s: settling failed; its copy is dropped and read again", table_id)
                self.core.outbox.pending.pop(table_id, None)
                self.core.cache.drop(table_id)
                break
            backoff = RETRY_FIRST
            if update is not None:
                await self._publish(update)
                if update.snapshot.row.status == "over" or update.kind == "cancelled":
                    await self._finished(update.table)

    async def _play_ai(self, table_id: int) -> None:
        """Every decision AI seats owe, one move at a time, until a person must act or it is over."""
        cache = self.core.cache
        failures = 0
        while not self._stopping:
            live = cache.peek(table_id) or await cache.get(table_id)
            if live is None or live.row.status != "running" or live.state is None:
                return
            cap = live.row.turn_cap or GAMES[live.row.game].turn_cap  # past it: the end by valuation
            if live.state.turn_number > cap:
                async with cache.lock(table_id):
                    live = cache.peek(table_id)
                    if live is not None and live.row.status == "running":
                        await self.core.apply(live, SYSTEM, EndMatch(reason="turn_cap"))
                continue
            if not any(live.row.seats[d.seat]["ai"] for d in live.rules.waiting_for(live.state)):
                return
            # a few tables think at once, each under its own lock; clocks being fired go first
            await self.quiet.wait()
            async with self._ai, cache.lock(table_id):
                live = cache.peek(table_id)
                if live is None or live.row.status != "running":
                    return
                seats = [d.seat for d in live.rules.waiting_for(live.state) if live.row.seats[d.seat]["ai"]]
                if not seats:
                    return
                level = live.row.seats[seats[0]].get("level")
                if level == "strong":  # a search of a few hundred ms: the other tables go on meanwhile
                    action = await asyncio.to_thread(chooser(live.row.game, level), live.state, seats[0])
                else:
                    action = chooser(live.row.game, level)(live.state, seats[0])
                outcome = await self.core.apply(live, seats[0], action)
                if not outcome.ok and outcome.key != "service.out_of_date":
                    failures += 1  # the AI only picks what legal_actions lists; still, never spin
                    log.error("table %s: the AI's move for seat %s was refused (%s)", table_id, seats[0],
                              outcome.key)
                    if failures >= 3:
                        return
            await asyncio.sleep(0)  # other tables and presses get their turn between AI moves

    async def _take_update(self, table_id: int) -> _Taken | None:
        async with self.core.cache.lock(table_id):
            pending = self.core.outbox.pending.pop(table_id, None)
            live = self.core.cache.peek(table_id) or await self.core.cache.get(table_id)
            if pending is None or live is None or live.state is None or live.row.status in ("lobby", "damaged"):
                return None
            if not pending.kinds:
                return None  # settled, and nothing happened (no move, no change of seats)
            kinds = set(pending.kinds)
            if live.row.status == "over":
                kinds.add("over")
            kind = next(k for k in _PRECEDENCE if k in kinds)
            snapshot = snapshot_of(live)
            asks = asks_of(snapshot, due_of(live))
            # who was asked before these changes, as the table stood (the same in every process);
            # for changes that are not moves (a start, a pause) this process's last update
            before = pending.before if pending.before is not None else self._asked.get(table_id, set())
            asked = [a for a in asks if not a.ai and (a.seat, a.kind) not in before]
            self._asked[table_id] = {(a.seat, a.kind) for a in asks if not a.ai}
            return _Taken(table_id, live.row.chat_key, kind, snapshot, pending.events, pending.notes,
                          any(isinstance(e, TurnStarted) for e in pending.events), asks, asked,
                          live.match_ends_at)

    async def _publish(self, taken: _Taken) -> None:
        """The update to the subscribers of its chat, as each audience sees it: the group's view,
        and each person's only for a subscriber that shows them (made outside the table's lock,
        from the copy taken under it)."""
        secret, snap = self.core.keys.secret, taken.snapshot
        update = TableUpdate(
            table=taken.table, chat_key=taken.chat_key, kind=taken.kind,
            public=public_view(secret, snap, taken.asks, taken.events, taken.notes, taken.match_ends_at),
            turn_passed=taken.turn_passed, asked=taken.asked)
        timed_out = [n.params["seat"] for n in taken.notes if n.key == "service.timed_out"]
        await self.core.subscribers.publish(update, lambda: private_views(secret, snap, taken.asks, taken.events,
                                                                          timed_out))

    async def _finished(self, table_id: int) -> None:
        for hook in list(self._on_finished.values()):
            try:
                await self.core.subscribers.notice(await hook(table_id))
            except Exception:
                log.exception("table %s: what follows its end failed", table_id)
        self._asked.pop(table_id, None)
        live = self.core.cache.peek(table_id)
        if live is not None and live.row.status not in ("running", "paused", "lobby"):
            self.core.cache.retire(live)
