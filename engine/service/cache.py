"""The process's copies of tables, each at a version the database holds.

A copy is only ever a shortcut: the database is the truth. A copy is loaded from the stored
snapshot (or, at start-up, rebuilt from the action log and checked against the snapshot), brought
forward when the database holds a newer version, and thrown away whenever a move fails in a way
the rules did not foresee. Running tables stay in memory; finished ones leave it (a few of the most
recent stay, for the last screens and late presses).

A table that cannot be restored (its log does not replay, its game or state schema is unknown) is
put in quarantine: marked ``damaged`` with the reason, so the chat can be told and every other
table starts as usual.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.core.contract import GameRules
from engine.games import GAMES
from engine.service.outcome import IN_PROGRESS
from engine.service.storage import formats, queries
from engine.service.storage.rows import ClockInfo, TableRow

log = logging.getLogger(__name__)
KEEP_FINISHED = 32  # finished or cancelled tables kept in memory, most recent first


@dataclass
class LiveTable:
    row: TableRow
    rules: GameRules
    state: Any = None
    clocks: list[ClockInfo] = field(default_factory=list)  # the live clocks, as last set
    _legal: tuple | None = field(default=None, repr=False, compare=False)  # (version, seat, state id, actions)
    # a move is applied to ``state`` and not yet stored: readers without the table's lock see the
    # stored state instead (``committed``), so nothing shown or signed comes from a move that may
    # still fail to commit
    moving: bool = field(default=False, repr=False, compare=False)

    def committed(self) -> Any:
        """The state as stored: ``state``, or while a move is in flight, the stored snapshot's."""
        if not self.moving:
            return self.state
        return None if self.row.snapshot is None else self.rules.decode_state(self.row.snapshot)

    def legal(self, seat: int) -> list:
        """``legal_actions`` of the state at this version for ``seat``, computed once: a screen's
        buttons and the press that follows ask the same. A move changes the version (or the copy
        is dropped) before anyone can ask again, so an answer is never reused for another state."""
        key = (self.row.version, seat, id(self.state))
        if self._legal is None or self._legal[:3] != key:
            self._legal = (*key, self.rules.legal_actions(self.state, seat))
        return self._legal[3]

    def seat_of(self, user: str) -> int | None:
        for i, seat in enumerate(self.row.seats):
            if seat["user"] == user:
                return i
        return None

    @property
    def match_ends_at(self) -> float | None:
        return next((c.due_at for c in self.clocks if c.kind == "match" and c.status != "held"), None)


class Damaged(Exception):
    """A table that cannot be brought back; the message says why (for the log and the row)."""


class TableCache:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._live: dict[int, LiveTable] = {}  # lobbies and games in progress
        self._finished: OrderedDict[int, LiveTable] = OrderedDict()
        # a lock lives while someone holds or waits for it; an idle table costs nothing
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.replay_mismatches: list[int] = []  # tables whose snapshot was rewritten from the log
        self.damaged: list[int] = []  # tables put in quarantine by this process
        self.on_damaged = lambda row: None  # the service tells the table's chat
        self.reads = formats.READS  # the table formats this build reads (storage/formats.py)
        self.unreadable: set[int] = set()  # tables met in a newer format: left to the processes that read it

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[table_id] = lock
        return lock

    def peek(self, table_id: int) -> LiveTable | None:
        """The copy in memory, if there is one (no I/O)."""
        return self._live.get(table_id) or self._finished.get(table_id)

    def row(self, table_id: int) -> TableRow | None:
        """The table's row as this copy holds it (None when it is not in memory)."""
        live = self.peek(table_id)
        return live.row if live else None

    def state(self, table_id: int) -> Any:
        """The table's state as stored (a move in flight is not seen until it is stored)."""
        live = self.peek(table_id)
        return live.committed() if live else None

    def rules(self, table_id: int) -> GameRules | None:
        live = self.peek(table_id)
        return live.rules if live else None

    def waiting_for(self, table_id: int) -> list:
        """The decisions a running table waits for (empty when it is not running)."""
        live = self.peek(table_id)
        if live is None or live.state is None or live.row.status != "running":
            return []
        return live.rules.waiting_for(live.committed())

    def put(self, live: LiveTable) -> LiveTable:
        if live.row.status in ("lobby", *IN_PROGRESS):
            self._finished.pop(live.row.id, None)
            self._live[live.row.id] = live
        else:
            self.retire(live)
        return live

    def retire(self, live: LiveTable) -> None:
        """A table that finished or was cancelled leaves the running set (a few stay at hand)."""
        self._live.pop(live.row.id, None)
        self._finished[live.row.id] = live
        self._finished.move_to_end(live.row.id)
        while len(self._finished) > KEEP_FINISHED:
            self._finished.popitem(last=False)

    def drop(self, table_id: int) -> None:
        """Forget the copy: the next use reads the database again."""
        self._live.pop(table_id, None)
        self._finished.pop(table_id, None)

    def running(self) -> list[LiveTable]:
        return [live for live in self._live.values() if live.row.status == "running"]

    def __len__(self) -> int:
        return len(self._live) + len(self._finished)

    async def get(self, table_id: int) -> LiveTable | None:
        """The table, loaded from its snapshot when this process has no copy."""
        live = self.peek(table_id)
        if live is not None:
            return live
        async with AsyncSession(self.engine) as session:
            row = await session.get(TableRow, table_id)
        if row is None:
            return None
        return await self.load(row)

    async def load(self, row: TableRow, verify: bool = False) -> LiveTable | None:
        """A copy of a stored table. With ``verify`` (at start-up) the log is replayed and the
        snapshot checked against it; without, the snapshot is trusted when it decodes."""
        if not formats.readable(row.format, self.reads):  # a newer process made it: not ours to play
            if row.id not in self.unreadable:
                log.warning("table %s is stored in format %s, which this build does not read (it reads %s): "
                            "left to the processes that do", row.id, row.format, self.reads)
                self.unreadable.add(row.id)
            return None
        rules = GAMES[row.game].rules if row.game in GAMES else None
        if rules is None:
            return await self._quarantine(row, f"unknown game {row.game!r}")
        if row.status in ("lobby", "damaged") or (row.snapshot is None and row.status == "cancelled"):
            return self.put(LiveTable(row=row, rules=rules))
        state = None
        if not verify and row.snapshot is not None:
            try:
                state = rules.decode_state(row.snapshot)
            except Exception as e:  # an unknown schema: the log decides
                log.warning("table %s: its snapshot does not decode (%s); replaying its log", row.id, e)
        if state is None:
            try:
                state = await self._replay(row, rules)
            except Damaged as e:
                if row.status not in IN_PROGRESS:  # a finished game's record: shown as it is, never blocks
                    log.warning("table %s (%s): %s", row.id, row.status, e)
                    return None
                return await self._quarantine(row, str(e))
        return self.put(LiveTable(row=row, rules=rules, state=state))

    async def _replay(self, row: TableRow, rules: GameRules):
        """The state the log builds; the snapshot is rewritten when it differs (the log is the truth)."""
        # another process may have moved on since the row was read: its later moves are not ours
        entries = [e for e in await queries.load_log(self.engine, row.id) if e.seq <= row.version]
        if [e.seq for e in entries] != list(range(1, row.version + 1)):
            raise Damaged(f"the action log holds moves {entries[0].seq if entries else '-'}…"
                          f"{entries[-1].seq if entries else '-'} ({len(entries)}), the table is at version "
                          f"{row.version}")
        try:
            state = rules.replay(len(row.seats), row.options or row.ruleset, row.seed,
                                 [(e.seat, rules.decode_action(e.action)) for e in entries])
        except Exception as e:
            raise Damaged(f"the action log does not replay: {type(e).__name__}: {e}") from e
        encoded = rules.encode_state(state).decode()
        if row.snapshot != encoded:
            if row.snapshot is not None and not _same_state(rules, row.snapshot, encoded):
                log.warning("table %s: the snapshot differs from the replay of its log at version %s; rewritten",
                            row.id, row.version)
                self.replay_mismatches.append(row.id)
            elif row.snapshot is None and row.status in IN_PROGRESS:
                log.warning("table %s: no snapshot was stored at version %s; rebuilt from its log and written",
                            row.id, row.version)
            async with AsyncSession(self.engine) as session:
                await session.exec(update(TableRow).where(TableRow.id == row.id,
                                                                TableRow.version == row.version)
                                   .values(snapshot=encoded))
                await session.commit()
            row.snapshot = encoded
        return state

    async def _quarantine(self, row: TableRow, reason: str) -> None:
        log.error("table %s in chat %s is damaged and set aside: %s", row.id, row.chat_key, reason)
        damage = {"reason": reason[:500], "told": False, "was": row.status}
        await queries.update_table(self.engine, row.id, damage=damage)
        await queries.end_table(self.engine, row.id, "damaged")
        row.status, row.damage = "damaged", damage
        self.drop(row.id)
        self.damaged.append(row.id)
        self.on_damaged(row)
        return None

    async def refresh(self, live: LiveTable) -> LiveTable | None:
        """Bring a copy to the version the database holds (another process moved the table on)."""
        async with AsyncSession(self.engine) as session:
            row = await session.get(TableRow, live.row.id)
        if row is None:
            self.drop(live.row.id)
            return None
        if row.version == live.row.version and row.status == live.row.status:
            live.row = row  # seats, missed clocks and messages as stored
            return live
        self.drop(live.row.id)
        return await self.load(row)


def _same_state(rules: GameRules, snapshot: str, encoded: str) -> bool:
    """Does a stored snapshot hold the state the log builds, only written by an older version (a
    field added since, at its default, is missing from it)? Then it is rewritten, but no mismatch:
    a release that adds a rule option must not report every running table as damaged."""
    try:
        return rules.encode_state(rules.decode_state(snapshot)).decode() == encoded
    except Exception:  # a snapshot that does not decode differs
        return False
