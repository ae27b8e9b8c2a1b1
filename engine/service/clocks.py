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
of the service that registered for it (``handle``), and a slow game's reminder or daily summary
to ``slow.py`` (``handle_kind``: no move). A process that dies after taking a clock leaves a lease
that runs out; the next sweep of any process takes it over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from engine.core.values import SYSTEM, EndMatch
from engine.games import GAMES
from engine.service import away, metrics, pace
from engine.service.clock_rules import LEASE, MISSES_BEFORE_AI, clock_seconds, wanted_clocks
from engine.service.core import Core
from engine.service.outcome import Outcome
from engine.service.storage import queries
from engine.service.storage.errors import DB_ERRORS
from engine.service.storage.rows import DeadlineRow
from engine.service.updates import due_of

if TYPE_CHECKING:
    from engine.service.cache import LiveTable

log = logging.getLogger(__name__)

Handler = Callable[[DeadlineRow], Awaitable[Outcome]]
TOOK_OVER = ("service.ai_took_over", "slow.ai_took_over")  # the note, in a normal and in a slow game


class Clocks:
    """The clocks of every table, and of scheduled matches and tournaments (``handle``)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.owner = core.owner
        self._handlers: dict[str, Handler] = {}
        self._kinds: dict[str, Handler] = {}  # a table's clocks of other kinds than its decisions' (pace.KINDS)
        self.lateness: deque[tuple[float, float]] = deque(maxlen=100_000)  # (due at, seconds past it) per clock
        self.fired = 0
        # set while no clock is being fired: AI seats wait for it, so clocks have the database first
        self.quiet = asyncio.Event()
        self.quiet.set()

    def handle(self, source: str, handler: Handler) -> None:
        """Who fires clocks that are not a table's: ``schedule`` or ``tournament`` rows."""
        self._handlers[source] = handler

    def handle_kind(self, kind: str, handler: Handler) -> None:
        """Who fires a table's clocks of ``kind`` (``remind:…`` and ``summary``: a slow game's, ``slow.py``),
        which apply no move."""
        self._kinds[kind] = handler

    async def reconcile(self, live: LiveTable) -> None:
        """Set exactly the clocks the table's state implies (after a change that was not a move;
        the caller holds the table's lock). A copy another process has moved past is dropped
        instead: that process set the clocks of the newer state."""
        if live.row.status != "running":
            live.clocks = await queries.open_clocks(self.core.db, live.row.id)
            return
        clocks = await queries.reconcile(self.core.db, live.row.id, live.row.version,
                                       wanted_clocks(live, self.core.clock()))
        if clocks is None:
            self.core.cache.drop(live.row.id)
        else:
            live.clocks = clocks

    async def hold_until_seen(self, table_id: int, seen_at: float) -> dict[tuple[int, str], float]:
        """The table's players could not see it until ``seen_at`` (the chat platform held the bot's
        messages back: a flood wait): every decision a person owes now runs its full time from then
        at least, so nobody is timed out on a prompt they were not shown. The decisions' clocks as
        they now run out, by (seat, kind)."""
        async with self.core.cache.lock(table_id):
            live = self.core.cache.peek(table_id) or await self.core.cache.get(table_id)
            if live is None or live.row.status != "running" or live.state is None:
                return {}
            not_before = {(d.seat, d.kind): seen_at + clock_seconds(live, d.policy)
                          for d in live.rules.waiting_for(live.state) if not live.row.seats[d.seat]["ai"]}
            live.clocks = await queries.postpone(self.core.db, table_id, live.row.version, not_before)
            return due_of(live)

    async def match_ends_at(self, table_id: int) -> float | None:
        """When the running match clock of a table runs out, if one runs."""
        live = self.core.cache.peek(table_id)
        if live is not None and live.clocks:
            return live.match_ends_at
        rows = await queries.open_clocks(self.core.db, table_id)
        return next((r.due_at for r in rows if r.kind == "match" and r.status != "held"), None)

    async def sweep(self) -> list[Outcome]:
        """Fire every clock that has run out, each exactly once across processes. A failure with
        one clock is logged with its table and gives the clock back; the others go on. A failure
        to reach the database at all is raised (the supervisor retries)."""
        now = self.core.clock()
        rows = await queries.due(self.core.db, now, reads=self.core.formats.reads)
        # the rows as claimed, not as read: a clock read here may have been replaced since
        mine = await queries.claim(self.core.db, [r.id for r in rows], self.owner, now, LEASE)
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

    async def _guarded(self, row: DeadlineRow) -> Outcome | BaseException | None:
        try:
            if row.table_id is not None:
                return await self.fire(row)
            return await self._fire_other(row)
        except DB_ERRORS as e:  # the database, not this clock: given back, told by the sweep
            with contextlib.suppress(*DB_ERRORS):
                await queries.release(self.core.db, row.id, self.owner)
            if row.table_id is not None:
                self.core.cache.drop(row.table_id)
            return e
        except Exception:
            where = f"table {row.table_id}" if row.table_id is not None else (
                f"schedule {row.schedule_id}" if row.schedule_id is not None else f"tournament {row.tournament_id}")
            log.exception("clock %s (%s, %s) failed; it will be tried again", row.id, where, row.kind)
            with contextlib.suppress(*DB_ERRORS):  # else the lease runs out instead
                await queries.release(self.core.db, row.id, self.owner)
            if row.table_id is not None:
                self.core.cache.drop(row.table_id)  # whatever went wrong, the database is right
            return None

    async def _fire_other(self, row: DeadlineRow) -> Outcome | None:
        source = "schedule" if row.schedule_id is not None else "tournament"
        handler = self._handlers.get(source)
        if handler is None:  # nobody in this process runs these: give it back for one that does
            await queries.release(self.core.db, row.id, self.owner)
            return None
        outcome = await handler(row)
        await queries.release(self.core.db, row.id, self.owner, "done")
        self.note_fired(row)
        await self.core.subscribers.notice(outcome)
        # tables the clock started are shown after the notice (a round's threads exist by then)
        for table in ([outcome.table] if outcome.table is not None else []) + outcome.params.get("tables", []):
            self.core.outbox.kick(table, kind="started")
        return outcome

    def note_fired(self, row: DeadlineRow) -> None:
        self.fired += 1
        late = max(0.0, self.core.clock() - row.due_at)
        self.lateness.append((row.due_at, late))
        metrics.CLOCK_LATENESS.observe(late)

    def action_for(self, live: LiveTable, row: DeadlineRow):
        """What a clock applies: the match's end, an AI seat's choice, or the rules' timeout action."""
        if row.kind == "match":
            return SYSTEM, EndMatch(reason="time")
        if live.row.seats[row.seat]["ai"]:
            return row.seat, GAMES[live.row.game].choose(live.state, row.seat)
        return row.seat, live.rules.timeout_action(live.state, row.seat)

    async def fire(self, deadline: DeadlineRow) -> Outcome:
        """A table's clock ran out (this process holds its lease): apply what it applies, in the
        transaction that marks it done. A clock the table has moved past is retired."""
        table_id = deadline.table_id
        other = self._kinds.get(pace.kind_of(deadline.kind))
        if other is not None:  # a slow game's reminder or summary: no move
            return await other(deadline)
        async with self.core.cache.lock(table_id):
            live = await self.core.cache.get(table_id)
            if live is not None and deadline.version > live.row.version:
                live = await self.core.cache.refresh(live)
            if deadline.kind == "abandon" and live is not None:  # nobody came back to a paused table
                return await away.abandon(self.core, live, deadline, self.owner)
            stale = deadline.kind != "match" and (live is None or deadline.version != live.row.version)
            if live is None or live.row.status != "running" or stale:
                await queries.release(self.core.db, deadline.id, self.owner, "moot")
                return Outcome(False, "service.out_of_date", table=table_id)
            seat, action = self.action_for(live, deadline)
            if action is None:
                await queries.release(self.core.db, deadline.id, self.owner, "moot")
                return Outcome(False, "service.nothing_to_do", table=table_id)
            seats, missed, notes = live.row.seats, live.row.missed, []
            # an unclaimed rent (B-06 ``rent_claim``) is the owner's choice to let it go, not a
            # player who is away: it does not count towards the AI keeping the seat
            if deadline.kind not in ("match", "rent") and not live.row.seats[seat]["ai"]:
                # said as a time-out, in the log and to the player (issue 47: it read like their own move)
                notes.append(Outcome(True, "service.timed_out", params={"seat": seat}))
                missed = {**live.row.missed, str(seat): live.row.missed.get(str(seat), 0) + 1}
                # three in a row (two in a slow game, ``pace.py``): the AI keeps the seat warm
                if missed[str(seat)] >= pace.misses_before_ai(live.row, MISSES_BEFORE_AI):
                    seats = [dict(s) for s in live.row.seats]
                    seats[seat]["ai"] = True
                    notes.append(Outcome(True, TOOK_OVER[pace.is_slow(live.row)], params={"seat": seat}))
            outcome = await self.core.apply(live, seat, action, fired=(deadline.id, self.owner), seats=seats,
                                            missed=missed, notes=notes)
            if not outcome.ok:
                if outcome.rule:
                    log.error("table %s: the rules refused the clock's %r for seat %s (%s)", table_id, action,
                              seat, outcome.key)
                await queries.release(self.core.db, deadline.id, self.owner, "moot")
                return outcome
            self.note_fired(deadline)
            if notes:
                outcome.key, outcome.params = notes[-1].key, notes[-1].params
            if any(n.key in TOOK_OVER for n in notes):
                await away.pause(self.core, self.core.cache.peek(table_id) or live)  # everyone away: it waits
            return outcome

    async def expire(self, table_id: int, seat: int | None = None) -> Outcome | None:
        """A clock that the caller keeps instead of the clock task ran out (the terminal, which
        reads one line at a time and runs no timer): the match's clock (B-17, D-16), or ``seat``'s
        card clock (the Deal tournament's seconds per card, D-16). Applied as the clock task would
        apply it; the outcome's ``params`` say which clock (``clock``) and, for a card, the
        ``action`` made. None when neither has run out."""
        async with self.core.cache.lock(table_id):
            live = await self.core.cache.get(table_id)
            if live is None or live.row.status != "running" or live.state is None:
                return None
            now = self.core.clock()
            if live.match_ends_at is not None and now >= live.match_ends_at:
                outcome = await self.core.apply(live, SYSTEM, EndMatch(reason="time"))
                outcome.params = {**outcome.params, "clock": "match"}
                return outcome
            due = due_of(live)
            late = [d for d in live.rules.waiting_for(live.state)
                    if d.seat == seat and d.policy == "card" and due.get((d.seat, d.kind), now + 1) <= now]
            if not late:
                return None
            action = live.rules.timeout_action(live.state, seat)
            outcome = await self.core.apply(live, seat, action)
            outcome.params = {**outcome.params, "clock": "card", "action": action}
            return outcome
