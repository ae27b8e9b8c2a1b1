"""The service's core, built first and handed to every part (boardgame.io's ``Master`` ports): the
database (``db``), the clock, the copies of tables (``cache``), the button secret (``keys``), this
process's name among others on one database (``owner``) and its say in which format new tables
are stored (``formats``), the outbox of changes waiting to be
published, who is told (``subscribers``), the health stamps the heartbeat reads, and the one place
a move is applied and stored (``apply``).

**A move.** Every move, a player's button, a clock's or the service's own, goes through
``apply`` (the caller holds the table's lock): the rules validate it, then one transaction stores
it (the action appended at ``version + 1``, the snapshot written only if the version is
unchanged, the old clocks retired and the ones the new state implies set, the clock that caused
it marked done; ``storage.writer``, group commit). Only then does the copy in memory move on, the
move's events go to the outbox and the table is woken to be settled (``loop.py``). A failure the
rules did not foresee, or of the database mid-move, throws the copy away: the database is right.

Parts receive the core and only the collaborators they use; none imports the service.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from engine.core.errors import RuleError
from engine.service import metrics, tokens
from engine.service.cache import LiveTable, TableCache
from engine.service.clock_rules import owner_name, wanted_infos
from engine.service.outcome import Outcome
from engine.service.storage import writer
from engine.service.storage.errors import DB_ERRORS, is_full
from engine.service.storage.formats import Formats
from engine.service.storage.rows import ResultRow
from engine.service.subscribers import Subscribers
from engine.service.updates import Snapshot, snapshot_of, waiting_of

log = logging.getLogger(__name__)


class Keys:
    """The database's secret, read at start-up: button tokens and other signed button data."""

    def __init__(self, secret: bytes = b"") -> None:
        self.secret = secret

    def sign(self, data: str) -> str:
        """Button data that is not a move (lobby, sign-up, …), signed with this database's secret."""
        return tokens.sign(self.secret, data)

    def unsign(self, text: str) -> str | None:
        """The data of a button signed here; None when garbled, forged or unsigned."""
        return tokens.unsign(self.secret, text)

    def tokens(self, table: int, version: int, seat: int, digests: list[str]) -> list[str]:
        """The move tokens of a seat's choices at a table's version, one per action digest."""
        return tokens.encode_all(self.secret, table, version, seat, digests)

    def decode(self, token: str) -> tokens.Token:
        return tokens.decode(self.secret, token)

    def table_named(self, data: str) -> int | None:
        """The table a button is about (signed data, or a move token, on Discord behind ``g:``), for
        the log when its press failed; None when it names none."""
        signed = self.unsign(data)
        if signed is not None:
            table = signed.split(":")[1] if ":" in signed else ""
            return int(table) if signed[0] in "lhbeptv" and table.isascii() and table.isdigit() else None
        try:
            return self.decode(data[2:] if data.startswith("g:") else data).table
        except tokens.TokenError:
            return None


@dataclass
class Pending:
    """What happened at a table since its last update, gathered under its lock."""

    kinds: list[str] = field(default_factory=list)
    events: list = field(default_factory=list)
    notes: list[Outcome] = field(default_factory=list)
    # the people's decisions pending before the first change of this update, as the table stood
    # then (in whichever process): the update asks only for those that are new since
    before: set | None = None


class Outbox:
    """Changes waiting to be published, per table; ``wake`` (the loop's) settles a table soon."""

    def __init__(self) -> None:
        self.pending: dict[int, Pending] = {}
        self.wake: Callable[[int], None] = lambda table_id: None

    def asked_now(self, live: LiveTable) -> set | None:
        """What people are asked at the table as it stands, to pass as ``before`` to the first
        ``record`` of an update (None when an update is already gathering: it has its own)."""
        if live.row.id in self.pending and self.pending[live.row.id].before is not None:
            return None
        return {(w.seat, w.kind) for w in waiting_of(live) if not w.ai}

    def record(self, table_id: int, events=(), notes=(), kind: str = "moves", before: set | None = None) -> None:
        """What a change did; called under the table's lock, so events keep the order they happened.
        ``before``: ``asked_now`` of the table before the change."""
        pending = self.pending.setdefault(table_id, Pending())
        if pending.before is None and not pending.kinds:
            pending.before = before
        pending.kinds.append(kind)
        pending.events.extend(events)
        pending.notes.extend(notes)

    def kick(self, table_id: int, events=(), notes=(), kind: str | None = None, before: set | None = None) -> None:
        """Settle the table soon, with what changed (if anything)."""
        if kind is not None or events or notes:
            self.record(table_id, events, notes, kind or "moves", before=before)
        else:
            self.pending.setdefault(table_id, Pending())
        self.wake(table_id)


RETELL_FULL = 600.0  # a chat told of a full disk is told again at most this often


class Health:
    """What the heartbeat reads: the last sweep that worked, the last move stored and refused."""

    def __init__(self) -> None:
        self.swept_at: float | None = None  # wall time of the clock task's last sweep that worked
        # monotonic times of the last move stored and the last one the database refused: while
        # the newest write failed (within a minute), the heartbeat is not touched (a full disk)
        self.stored_at = self.refused_at = float("-inf")
        self.full_told: dict[str, float] = {}  # chat -> when it was told the disk is full (monotonic)

    def tell_full(self, chat: str, now: float | None = None) -> bool:
        """Whether a chat whose move the full disk just refused is to be told so: once an outage
        (again only after a move was stored since, and ``RETELL_FULL`` seconds)."""
        now = time.monotonic() if now is None else now
        told = self.full_told.get(chat)
        if told is not None and (told > self.stored_at or now - told < RETELL_FULL):
            return False
        self.full_told[chat] = now
        return True

    def writes_failing(self, within: float = 60.0) -> bool:
        """Whether the newest move the database was asked to store was refused, less than
        ``within`` seconds ago (the heartbeat then stays stale: the service cannot keep games)."""
        return self.refused_at > self.stored_at and time.monotonic() - self.refused_at < within


class Core:
    def __init__(self, db, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self.cache = TableCache(db)
        self.keys = Keys()
        self.owner = owner_name()
        self.formats = Formats(db, self.owner)  # which format new tables get (a rolling deploy)
        self.cache.reads = self.formats.reads
        self.outbox = Outbox()
        self.subscribers = Subscribers()
        self.health = Health()
        self._telling: set[asyncio.Task] = set()

    def _told(self, notice: Outcome) -> None:
        """A notice for a chat, sent beside the move that failed (which raises on at once)."""
        task = asyncio.get_running_loop().create_task(self.subscribers.notice(notice))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def insert(self, row):
        """One new row in its own transaction, read back with its id."""
        async with AsyncSession(self.db) as session:
            session.add(row)
            await session.commit()
            await session.refresh(row)
            return row

    async def snapshot(self, table_id: int) -> Snapshot | None:
        """A copy of the table as it stands (loaded when needed)."""
        live = await self.cache.get(table_id)
        if live is None:
            return None
        async with self.cache.lock(table_id):
            return snapshot_of(live)

    async def apply(self, live: LiveTable, seat: int, action: Any, *, fired: tuple[int, str] | None = None,
                    seats: list | None = None, missed: dict | None = None, notes=()) -> Outcome:
        """Apply and store one move (the caller holds the table's lock). ``seats`` and ``missed``
        change with the move, in its transaction; ``fired`` is the clock that made it."""
        live.moving = True  # until stored (or dropped), readers without the lock see the stored state
        try:
            return await self._apply(live, seat, action, fired, seats, missed, notes)
        finally:
            live.moving = False

    async def _apply(self, live: LiveTable, seat: int, action: Any, fired, seats, missed, notes) -> Outcome:
        rules, row = live.rules, live.row
        old_version = row.version
        before = self.outbox.asked_now(live)
        try:
            events = rules.apply(live.state, seat, action)  # refused moves leave the state untouched
        except RuleError as e:
            return Outcome(False, e.key, rule=e.rule, params=e.params, table=row.id, version=old_version)
        except Exception:  # the rules failed half way: the copy may be half changed
            log.exception("table %s: the rules failed on %r by seat %s at version %s", row.id, action, seat,
                          old_version)
            self.cache.drop(row.id)
            return Outcome(False, "service.error", table=row.id, version=old_version)
        try:
            seats = row.seats if seats is None else seats
            missed = row.missed if missed is None else missed
            res = rules.result(live.state)
            status = "over" if res.over else "running"
            snapshot = rules.encode_state(live.state).decode()
            infos = wanted_infos(live, self.clock(), version=old_version + 1, seats=seats, status=status)
            result = None
            if res.over:
                result = ResultRow(table_id=row.id, chat_key=row.chat_key, game=row.game, ruleset=row.ruleset,
                                   reason=res.reason or "", seats=seats, winners=list(res.winners),
                                   scores={str(k): v for k, v in res.scores.items()})
            changed = {}
            if seats != row.seats:
                changed["seats"] = seats
            if missed != row.missed:
                changed["missed"] = missed
            stored = await writer.append_move(self.db, row.id, old_version, seat, rules.encode_action(action).decode(),
                                              snapshot, status, infos, result, row_values=changed, fired=fired,
                                              notify=self.owner)
        except BaseException as e:
            self.cache.drop(row.id)  # not stored (or not known to be): the database is right, not our copy
            if isinstance(e, DB_ERRORS):
                metrics.DATABASE_ERRORS.labels("move").inc()
                self.health.refused_at = time.monotonic()
                if is_full(e) and self.health.tell_full(row.chat_key):
                    self._told(Outcome(False, "service.storage_full", params={"chat": row.chat_key}, table=row.id))
            raise
        if not stored:  # another process moved first, or took over this clock: the database is right
            self.cache.drop(row.id)
            return Outcome(False, "service.out_of_date", table=row.id)
        row.version, row.snapshot = old_version + 1, snapshot
        self.health.stored_at = time.monotonic()
        for key, value in (("status", status), *changed.items()):  # an ORM row: each assignment costs
            if getattr(row, key) != value:
                setattr(row, key, value)
        live.clocks = [c for c in live.clocks if c.kind == "match" and status == "running"] + infos
        self.outbox.record(row.id, events, notes, before=before)
        self.outbox.wake(row.id)
        by = "clock" if fired else "service" if seat < 0 else "ai" if seats[seat]["ai"] else "person"
        metrics.MOVES.labels(row.game, by).inc()
        return Outcome(True, events=events, table=row.id, version=row.version)
