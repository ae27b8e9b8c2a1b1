"""A slow game's own clocks fired (issue 48; what a pace is and which clocks it implies: ``pace.py``).

Both kinds are rows of ``deadlines`` like a decision's clock, set by every move (and by a restart's
``reconcile``) from the table's state and its ``tables.slow``, taken with a lease by one sweep of
one process, and fired here without a move:

- **A reminder** (``remind:<kind>``, at half a decision's time): while the table still waits for
  that person's decision at the clock's version, the clock is closed and the table row notes the
  reminder (``slow["reminded"][seat] = version``, decided on the row as stored, locked): a reminder
  the row already notes (a restart or another process set its clock again) says nothing. Then the
  notice ``slow.reminder`` goes to the front ends of the table's chat, which tell the player
  privately (``bot/chat/slow.py``).
- **The daily summary** (``summary``): the clock is closed, and the table row moves its next summary
  a day on (to the first such time still ahead) and notes the version it tells up to, only while the
  row still holds the summary this clock was set for: one summary a day across processes and
  restarts. Then the notice ``slow.summary`` (the versions it covers) goes to the chat's front ends,
  which read the events of those moves (``events``) and tell the group. The next summary's clock is
  set at once (``reconcile``).

Both are said at most once: a process that dies between closing the clock and telling leaves that
one reminder or summary untold rather than told twice.
"""

from __future__ import annotations

import asyncio
import logging

from engine.games import GAMES
from engine.service import pace
from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.outcome import Outcome
from engine.service.storage import queries
from engine.service.storage.rows import DeadlineRow, TableRow
from engine.service.updates import due_of

log = logging.getLogger(__name__)


class SlowGames:
    """Fires a slow game's reminders and daily summaries (registered with the clocks by kind)."""

    def __init__(self, core: Core, clocks: Clocks) -> None:
        self.core, self.clocks = core, clocks
        clocks.handle_kind(pace.REMIND, self.remind)
        clocks.handle_kind(pace.SUMMARY, self.summarize)

    async def _moot(self, deadline: DeadlineRow, table_id: int) -> Outcome:
        await queries.release(self.core.db, deadline.id, self.core.owner, "moot")
        return Outcome(False, "service.out_of_date", table=table_id)

    async def remind(self, deadline: DeadlineRow) -> Outcome:
        """Half a decision's time has passed: its player hears it privately, once."""
        table_id, seat, version = deadline.table_id, deadline.seat, deadline.version
        kind = deadline.kind.partition(":")[2]
        async with self.core.cache.lock(table_id):
            live = await self.core.cache.get(table_id)
            if live is not None and version > live.row.version:
                live = await self.core.cache.refresh(live)
            owed = (live is not None and live.row.status == "running" and live.state is not None
                    and version == live.row.version and 0 <= seat < len(live.row.seats)
                    and not live.row.seats[seat]["ai"]
                    and any(d.seat == seat and d.kind == kind for d in live.rules.waiting_for(live.state)))
            if not owed:
                return await self._moot(deadline, table_id)
            if not await queries.release(self.core.db, deadline.id, self.core.owner, "done"):
                return Outcome(False, "service.out_of_date", table=table_id)  # another process took it over

            first: list[bool] = []

            def note(row: TableRow) -> dict | None:
                state = dict(row.slow or {})
                reminded = dict(state.get("reminded") or {})
                if row.version != version or reminded.get(str(seat)) == version:
                    return None
                reminded[str(seat)] = version
                first.append(True)
                return {"slow": {**state, "reminded": reminded}}

            row = await queries.modify_table(self.core.db, table_id, note)
            if row is not None and row.version == live.row.version:
                live.row.slow = row.slow
            if not first:  # told already (its clock was set again by a restart or another process)
                return Outcome(False, "slow.reminded", table=table_id)
            due = due_of(live).get((seat, kind))
            seated = live.row.seats[seat]
            outcome = Outcome(True, "slow.reminder", table=table_id, version=version, params={
                "chat": live.row.chat_key, "table": table_id, "seat": seat, "user": seated["user"],
                "kind": kind, "due_at": due, "game": live.row.game})
        self.clocks.note_fired(deadline)
        await self.core.subscribers.notice(outcome)
        return outcome

    async def summarize(self, deadline: DeadlineRow) -> Outcome:
        """A day has passed: the group hears what happened since the last summary, once."""
        table_id, now = deadline.table_id, self.core.clock()
        async with self.core.cache.lock(table_id):
            live = await self.core.cache.get(table_id)
            if live is None or live.row.status != "running" or live.state is None:
                return await self._moot(deadline, table_id)
            if not await queries.release(self.core.db, deadline.id, self.core.owner, "done"):
                return Outcome(False, "service.out_of_date", table=table_id)
            told: list[tuple[int, int]] = []

            def next_day(row: TableRow) -> dict | None:
                state = dict(row.slow or {})
                due = state.get("summary_at")
                if row.status != "running" or due is None or abs(float(due) - deadline.due_at) > 1e-3:
                    return None  # told already, or this clock was set for another summary
                after = float(due) + pace.SUMMARY_EVERY
                while after <= now:  # the service was down for days: one summary, the next one ahead
                    after += pace.SUMMARY_EVERY
                told.append((int(state.get("since", 0)), row.version))
                return {"slow": {**state, "summary_at": after, "since": row.version}}

            row = await queries.modify_table(self.core.db, table_id, next_day, notify=self.core.owner)
            if row is not None and row.version == live.row.version and row.status == live.row.status:
                live.row.slow = row.slow
            elif row is not None:  # another process moved it on meanwhile: read it again
                live = await self.core.cache.refresh(live)
            if live is not None and live.row.status == "running":
                await self.clocks.reconcile(live)  # the next summary's clock (or this one's, set right)
            if not told:
                return Outcome(False, "slow.summarized", table=table_id)
            since, upto = told[0]
            chat = row.chat_key
        outcome = Outcome(True, "slow.summary", table=table_id, version=upto, params={
            "chat": chat, "table": table_id, "since": since, "upto": upto})
        self.clocks.note_fired(deadline)
        await self.core.subscribers.notice(outcome)
        return outcome

    async def events(self, table_id: int, since: int, upto: int) -> list:
        """The events of the moves that took the table from version ``since`` to ``upto``, as the
        group may see them (replayed from the stored log: the same in every process)."""
        live = await self.core.cache.get(table_id)
        if live is None or live.state is None:
            return []
        async with self.core.cache.lock(table_id):
            row, rules = live.row, live.rules
            seats, options, seed = len(row.seats), row.options or row.ruleset, row.seed
        entries = [e for e in await queries.load_log(self.core.db, table_id) if e.seq <= upto]
        log_ = [(e.seq, e.seat, rules.decode_action(e.action)) for e in entries]

        def replay() -> list:
            state, out = rules.new_game(seats, options, seed), []
            for seq, seat, action in log_:
                events = rules.apply(state, seat, action)
                if seq > since:
                    out += events
            return out

        events = await asyncio.to_thread(replay)
        return GAMES[row.game].presentation.events_for(events, None)
