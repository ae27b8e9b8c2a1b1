"""Persistence with sqlmodel: tables (one row per chat game, with its snapshot and version), the
append-only action log, the clocks (deadlines), and the service's settings (the token secret).

A move is stored atomically: append the action at ``version + 1`` and store the new snapshot only
if the version is still the one read (``UPDATE … WHERE version = :old``), retire the table's old
clocks and set the ones the new state implies; a move caused by a clock also marks that clock
done in the same transaction, only if this process still holds its lease. Moves of other tables
waiting at the same time share that transaction (group commit, ``writer.py``); each is confirmed
only once it is committed. Two racing presses of
one button cannot both land, and a clock cannot fire twice nor be lost by a process that dies
between taking it and applying it (its lease runs out and another process takes it).
SQLite (WAL) by default, any SQLAlchemy URL otherwise.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any, NamedTuple

from sqlalchemy import BigInteger, Column, Integer, Text, and_, delete, event, exc, func, or_, update
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlmodel import JSON, Field, SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service import notices


class TableRow(SQLModel, table=True):
    __tablename__ = "tables"

    id: int | None = Field(default=None, primary_key=True)
    chat_key: str = Field(index=True)  # "tg:<chat>[:<topic>]", "dc:<guild>:<channel>", "console"
    game: str
    ruleset: str
    status: str = Field(default="lobby", index=True)  # lobby | running | paused | over | cancelled | damaged
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))  # up to 2**63
    creator: str = ""
    seats: list = Field(default_factory=list, sa_column=Column(JSON))  # [{"user", "name", "ai", "dm"}]
    messages: dict = Field(default_factory=dict, sa_column=Column(JSON))  # the adapter's public message ids
    options: dict = Field(default_factory=dict, sa_column=Column(JSON))  # the rule set and its options
    clocks: dict = Field(default_factory=dict, sa_column=Column(JSON))  # seconds per decision policy
    missed: dict = Field(default_factory=dict, sa_column=Column(JSON))  # seat -> deadlines missed in a row
    snapshot: str | None = Field(default=None, sa_column=Column(Text))
    version: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    turn_cap: int = 0  # the service ends the game by valuation past this turn (0: the game's default)
    damage: dict | None = Field(default=None, sa_column=Column(JSON))  # quarantine: {"reason", "told"}
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)


class ActionRow(SQLModel, table=True):
    __tablename__ = "actions"

    table_id: int = Field(primary_key=True, foreign_key="tables.id")
    seq: int = Field(primary_key=True)  # the version this action produced (1, 2, …)
    seat: int
    action: str = Field(sa_column=Column(Text, nullable=False))
    at: float = Field(default_factory=time.time)
    deadline_id: int | None = None  # the clock that made this move, if one did


class DeadlineRow(SQLModel, table=True):
    """A clock: when it runs out, the rules' ``timeout_action`` (or the match's end, or an AI seat's
    choice) is applied.

    Stored, not only scheduled in memory, so a restarted process or another worker finds it. A
    process takes a due clock with a lease (``pending -> claimed``, ``owner``, ``lease_until``) and
    applies it in the same transaction that marks it ``done``; a lease that runs out (its process
    died) is taken over by the next sweep, so every clock fires exactly once.
    """

    __tablename__ = "deadlines"
    __table_args__ = {"sqlite_autoincrement": True}  # an id is never reused (migration 0008)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int | None = Field(default=None, index=True, foreign_key="tables.id")
    schedule_id: int | None = Field(default=None, index=True, foreign_key="schedules.id")
    tournament_id: int | None = Field(default=None, index=True, foreign_key="tournaments.id")
    version: int = 0  # the table version it was set for; a later move makes it moot
    seat: int = -1  # -1 for the match clock and scheduled matches
    kind: str  # the decision's kind, "match", "announce" / "begin" for a scheduled match, "tour.round"
    due_at: float = Field(index=True)
    status: str = Field(default="pending", index=True)  # pending | claimed | done | moot | held (paused)
    ai: bool = False  # set for an AI seat's decision: a safety net, its own process answers at once
    owner: str | None = None  # the process holding the lease
    lease_until: float | None = None


class ResultRow(SQLModel, table=True):
    """A finished game, for the chat's standings."""

    __tablename__ = "results"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(index=True, foreign_key="tables.id")
    chat_key: str = Field(index=True)
    game: str
    ruleset: str
    reason: str
    seats: list = Field(default_factory=list, sa_column=Column(JSON))
    winners: list = Field(default_factory=list, sa_column=Column(JSON))  # seat numbers
    scores: dict = Field(default_factory=dict, sa_column=Column(JSON))
    finished_at: float = Field(default_factory=time.time)


class ChatSettingsRow(SQLModel, table=True):
    """Per chat: the language of public messages, default rule sets, clocks in seconds."""

    __tablename__ = "chat_settings"

    chat_key: str = Field(primary_key=True)
    lang: str = ""  # empty: the bot's own default language
    rulesets: dict = Field(default_factory=dict, sa_column=Column(JSON))  # game -> rule set
    clocks: dict = Field(default_factory=dict, sa_column=Column(JSON))  # policy -> seconds


class ScheduleRow(SQLModel, table=True):
    """A timed match an admin set up: announced ahead, started at its time, ended by its clock."""

    __tablename__ = "schedules"

    id: int | None = Field(default=None, primary_key=True)
    chat_key: str = Field(index=True)
    game: str
    ruleset: str
    start_at: float
    minutes: int
    ai_fill: int = 0  # fill up to this many seats with AI players
    signup: list = Field(default_factory=list, sa_column=Column(JSON))  # [{"user", "name"}]
    status: str = "scheduled"  # scheduled | open | started | cancelled
    table_id: int | None = None
    created_by: str = ""


class TournamentRow(SQLModel, table=True):
    """A tournament an admin set up in a chat: rounds of timed tables, individual or team entry."""

    __tablename__ = "tournaments"

    id: int | None = Field(default=None, primary_key=True)
    chat_key: str = Field(index=True)
    name: str = ""
    game: str
    ruleset: str
    options: dict = Field(default_factory=dict, sa_column=Column(JSON))  # rule options, e.g. no_trading
    clocks: dict = Field(default_factory=dict, sa_column=Column(JSON))  # seconds per decision policy
    match_minutes: int
    mode: str = "solo"  # solo | team
    rounds: int = 1  # rounds (solo) or matches (team)
    every_minutes: int = 0  # from one round's start to the next
    signup_until: float = 0.0
    starts_at: float = 0.0  # the first round
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    status: str = Field(default="signup", index=True)  # signup | running | paused | over | cancelled
    current_round: int = 0
    paused_at: float | None = None
    created_by: str = ""
    created_at: float = Field(default_factory=time.time)
    log: list = Field(default_factory=list, sa_column=Column(JSON))  # admin actions: [{"at", "by", "what", …}]


class EntrantRow(SQLModel, table=True):
    """A player (solo) or a team with its captain, members and named representatives."""

    __tablename__ = "tournament_entrants"

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(index=True, foreign_key="tournaments.id")
    name: str
    captain: str  # the player's own user id in solo mode
    members: list = Field(default_factory=list, sa_column=Column(JSON))  # [{"user", "name"}], captain first
    representatives: dict = Field(default_factory=dict, sa_column=Column(JSON))  # round -> user
    status: str = "active"  # active | withdrawn
    joined_at: float = Field(default_factory=time.time)


class MatchRow(SQLModel, table=True):
    """One table of one round: which entrant sits in which seat, and its result once over."""

    __tablename__ = "tournament_matches"

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(index=True, foreign_key="tournaments.id")
    round: int
    table_no: int
    table_id: int | None = Field(default=None, index=True, foreign_key="tables.id")
    entrants: list = Field(default_factory=list, sa_column=Column(JSON))  # entrant id per seat
    status: str = "running"  # running | over | cancelled
    winners: list = Field(default_factory=list, sa_column=Column(JSON))  # entrant ids
    scores: dict = Field(default_factory=dict, sa_column=Column(JSON))  # entrant id -> valuation


class CorrectionRow(SQLModel, table=True):
    """An admin's correction of a match result; the latest one counts, all stay with their reason."""

    __tablename__ = "tournament_corrections"

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(index=True, foreign_key="tournaments.id")
    match_id: int = Field(foreign_key="tournament_matches.id")
    winners: list = Field(default_factory=list, sa_column=Column(JSON))  # entrant ids
    reason: str
    by: str
    at: float = Field(default_factory=time.time)


class SettingRow(SQLModel, table=True):
    __tablename__ = "settings"

    key: str = Field(primary_key=True)
    value: str


# what a lost, restarting or unreachable database raises (the drivers' errors come wrapped in
# DBAPIError; a refused connection can come through as a plain OSError)
DB_ERRORS = (exc.DBAPIError, exc.TimeoutError, OSError, ConnectionError, asyncio.TimeoutError)

def describe(error: BaseException) -> str:
    """One line for the log: the error's kind and the first line of its message."""
    text = str(getattr(error, "orig", None) or error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200] if text else ''}"


OUTAGE_SPACING = 5.0  # seconds between two log lines about one kind of database failure
_outages: dict[str, list] = {}  # the failure's line -> [when it was last told, how many since]


def outage_told(error: BaseException, now: float | None = None) -> tuple[bool, int]:
    """Whether a database failure of this kind is told in the log now (at most once every
    ``OUTAGE_SPACING`` seconds: a full disk fails every table's move at once), and how many like
    it went untold since the last line."""
    now = time.monotonic() if now is None else now
    seen = _outages.setdefault(describe(error), [float("-inf"), 0])
    if now - seen[0] < OUTAGE_SPACING:
        seen[1] += 1
        return False, 0
    untold, seen[0], seen[1] = seen[1], now, 0
    return True, untold


# clocks that a move retires: whatever is set for the old version (the match clock stays)
LIVE_CLOCKS = ("pending", "claimed")


def database_url(url: str | None) -> str:
    """Accept plain ``sqlite:///`` / ``postgresql://`` URLs and pick the async drivers."""
    if not url:
        return "sqlite+aiosqlite:///tycoon.db"
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///"):]
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str | None) -> AsyncEngine:
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_async_engine(url, pool_size=1, max_overflow=0)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn, _record):  # WAL: readers never wait for the one writer
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
        return engine
    # a server that restarted leaves dead connections in the pool: test each before use; a process
    # that hangs in the middle of a transaction must not hold rows of a table for ever
    connect_args = {"server_settings": {"lock_timeout": "10000", "idle_in_transaction_session_timeout": "60000"}} \
        if url.startswith("postgresql+asyncpg") else {}
    return create_async_engine(url, pool_pre_ping=True, connect_args=connect_args)


async def secret(engine: AsyncEngine) -> bytes:
    """The token secret, made once per database so tokens survive restarts."""
    async with AsyncSession(engine) as session:
        row = await session.get(SettingRow, "token_secret")
        if row is None:
            session.add(SettingRow(key="token_secret", value=secrets.token_hex(32)))
            try:
                await session.commit()
            except Exception:  # another process made it first
                await session.rollback()
            row = await session.get(SettingRow, "token_secret")
        return bytes.fromhex(row.value)


async def rotate_secret(engine: AsyncEngine) -> None:
    """A new token secret: every button signed with the old one is refused from now on (the next
    update of each table shows buttons signed anew). Processes read the secret when they start."""
    async with AsyncSession(engine) as session:
        row = await session.get(SettingRow, "token_secret")
        if row is None:
            session.add(SettingRow(key="token_secret", value=secrets.token_hex(32)))
        else:
            row.value = secrets.token_hex(32)
            session.add(row)
        await session.commit()


def _retire_clocks(table_id: int, keep_match: bool):
    query = delete(DeadlineRow).where(DeadlineRow.table_id == table_id, DeadlineRow.status.in_(LIVE_CLOCKS))
    return query.where(DeadlineRow.kind != "match") if keep_match else query


async def append_move(engine: AsyncEngine, table_id: int, old_version: int, seat: int, action_json: str,
                      snapshot: str, status: str, deadlines: list[DeadlineRow | ClockInfo] | None = None,
                      result: ResultRow | None = None, row_values: dict | None = None,
                      fired: tuple[int, str] | None = None, notify: str | None = None) -> bool:
    """One move, stored atomically: the log line, the snapshot at ``version + 1`` (only if the
    version is still ``old_version``), other columns of the table that change with it (``row_values``:
    seats, missed clocks), the old clocks retired and the new ones set. ``fired`` (deadline id,
    owner): the clock this move answers, marked done only while ``owner`` still holds its lease.
    False when another press, process or clock moved first (nothing is written then). It returns
    only once the move is committed: moves of other tables waiting at the same time share its
    transaction (``writer.py``, group commit), and a failed transaction raises for every one."""
    if MOVE_WRITER is None:
        raise RuntimeError("engine.service.storage.writer is not imported: nothing stores moves")
    return await MOVE_WRITER(engine, (table_id, old_version, seat, action_json, snapshot, status,
                                      list(deadlines or ()), result, dict(row_values or {}), fired, notify))


# The group commit (engine/service/storage/writer.py) registers itself here when it is imported: it builds
# on this module's rows, so this module may not import it (no import cycles in the service).
MOVE_WRITER = None


def clock_values(row: DeadlineRow | ClockInfo, table_id: int | None = None) -> dict:
    """A clock's columns, from its row or (a move's clock of ``table_id``) from its ``ClockInfo``."""
    if isinstance(row, ClockInfo):
        return {"table_id": table_id, "schedule_id": None, "tournament_id": None, "version": row.version,
                "seat": row.seat, "kind": row.kind, "due_at": row.due_at, "status": row.status, "ai": row.ai,
                "owner": None, "lease_until": None}
    return {"table_id": row.table_id, "schedule_id": row.schedule_id, "tournament_id": row.tournament_id,
            "version": row.version, "seat": row.seat, "kind": row.kind, "due_at": row.due_at,
            "status": row.status or "pending", "ai": bool(row.ai), "owner": row.owner, "lease_until": row.lease_until}


async def load_log(engine: AsyncEngine, table_id: int) -> list[ActionRow]:
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq))
        return list(rows)


async def seat_of_move(engine: AsyncEngine, table_id: int, seq: int) -> int | None:
    """Who made the move that took a table to version ``seq``."""
    async with AsyncSession(engine) as session:
        row = await session.get(ActionRow, (table_id, seq))
        return row.seat if row is not None else None


async def claim(engine: AsyncEngine, ids: list[int], owner: str, now: float, lease: float) -> list[DeadlineRow]:
    """Take due clocks for this process: each still pending and due, or leased by a process whose
    lease ran out. The rows this process now holds, as they are stored now (another process may
    have taken some first; a clock changed since it was read is fired as it is now, or not at all
    when it is no longer due)."""
    if not ids:
        return []
    columns = DeadlineRow.__table__.c
    async with AsyncSession(engine) as session:
        result = await session.exec(
            update(DeadlineRow).where(DeadlineRow.id.in_(ids), or_(
                and_(DeadlineRow.status == "pending", DeadlineRow.due_at <= now),
                and_(DeadlineRow.status == "claimed", DeadlineRow.lease_until < now)))
            .values(status="claimed", owner=owner, lease_until=now + lease)
            .returning(*columns))
        taken = [DeadlineRow(**dict(row._mapping)) for row in result]
        await session.commit()
        return sorted(taken, key=lambda r: r.due_at)


async def release(engine: AsyncEngine, deadline_id: int, owner: str, status: str = "pending") -> bool:
    """Give a claimed clock back (``pending``: to be tried again), retire it (``moot``: it no longer
    applies) or close it (``done``), only while ``owner`` still holds it."""
    async with AsyncSession(engine) as session:
        result = await session.exec(update(DeadlineRow).where(
            DeadlineRow.id == deadline_id, DeadlineRow.status == "claimed", DeadlineRow.owner == owner)
            .values(status=status, **({"owner": None, "lease_until": None} if status == "pending" else {})))
        await session.commit()
        return result.rowcount == 1


async def due(engine: AsyncEngine, now: float, limit: int = 500) -> list[DeadlineRow]:
    """Clocks that have run out (oldest first), and clocks whose lease ran out with them."""
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(DeadlineRow).where(or_(
            and_(DeadlineRow.status == "pending", DeadlineRow.due_at <= now),
            and_(DeadlineRow.status == "claimed", DeadlineRow.lease_until < now)))
            .order_by(DeadlineRow.due_at).limit(limit))
        return list(rows)


async def count_open(engine: AsyncEngine) -> int:
    """Tables in a lobby, running or paused (a metric for the operator)."""
    async with AsyncSession(engine) as session:
        result = await session.exec(select(func.count()).select_from(TableRow).where(
            TableRow.status.in_(("lobby", "running", "paused"))))
        return int(result.one())


async def next_due(engine: AsyncEngine) -> float | None:
    """When the next pending clock runs out (the sweeper sleeps until then)."""
    async with AsyncSession(engine) as session:
        result = await session.exec(select(func.min(DeadlineRow.due_at)).where(DeadlineRow.status == "pending"))
        return result.one()


class ClockInfo(NamedTuple):
    """A table's clock as the service keeps it in memory (rows expire with their session)."""

    version: int
    seat: int
    kind: str
    ai: bool
    due_at: float
    status: str = "pending"


def info(row: DeadlineRow) -> ClockInfo:
    return ClockInfo(row.version, row.seat, row.kind, bool(row.ai), row.due_at, row.status or "pending")


async def reconcile(engine: AsyncEngine, table_id: int, version: int,
                    wanted: list[DeadlineRow]) -> list[ClockInfo] | None:
    """Make the table's decision clocks exactly ``wanted``: keep those already set (their due time
    stands), retire the stale, add the missing; the match clock stays. Only while the table is at
    ``version`` (the row is written first, which also holds off a move until this is done): a copy
    that another process has moved past must not retire the clocks of the newer state. Returns all
    the table's live clocks, or None when the table is no longer at ``version``."""
    wanted_info = [info(w) for w in wanted]
    async with AsyncSession(engine) as session:
        held = await session.exec(update(TableRow).where(TableRow.id == table_id, TableRow.version == version)
                                  .values(updated_at=time.time()))
        if held.rowcount != 1:
            await session.rollback()
            return None
        existing = list(await session.exec(select(DeadlineRow).where(
            DeadlineRow.table_id == table_id, DeadlineRow.status.in_((*LIVE_CLOCKS, "held")))))
        remaining = list(zip(wanted_info, wanted, strict=True))
        out = []
        for row in existing:
            key = info(row)
            match = next((w for w in remaining if w[0][:4] == key[:4]), None)
            if row.kind == "match" or row.status == "held":
                out.append(key)
            elif match is None:
                await session.delete(row)
            else:
                remaining.remove(match)
                out.append(key)
        for clock, row in remaining:
            session.add(row)
            out.append(clock)
        await session.commit()
        return out


async def live_clocks(engine: AsyncEngine, table_id: int) -> list[ClockInfo]:
    async with AsyncSession(engine) as session:
        return [info(r) for r in await session.exec(select(DeadlineRow).where(
            DeadlineRow.table_id == table_id, DeadlineRow.status.in_((*LIVE_CLOCKS, "held"))))]


async def purge(engine: AsyncEngine, before: float) -> int:
    """Forget clocks that fired or were retired before ``before`` (the log keeps what they did)."""
    async with AsyncSession(engine) as session:
        result = await session.exec(delete(DeadlineRow).where(DeadlineRow.status.in_(("done", "moot")),
                                                              DeadlineRow.due_at < before))
        await session.commit()
        return result.rowcount or 0


async def update_table(engine: AsyncEngine, table_id: int, notify: str | None = None, **values) -> None:
    """Change named columns of a table only: never write back a snapshot or version read earlier.
    ``notify``: this process's name, to tell the others (a change of seats, say)."""
    async with AsyncSession(engine) as session:
        await session.exec(update(TableRow).where(TableRow.id == table_id).values(**values))
        if notify is not None:
            await notices.send(session, table_id, -1, notify)
        await session.commit()


async def modify_table(engine: AsyncEngine, table_id: int, change, notify: str | None = None) -> TableRow | None:
    """Read, change and write one table's named columns in one transaction, the row locked while
    ``change(row)`` decides on what is stored now (``FOR UPDATE`` on PostgreSQL; SQLite has one
    writer). ``change`` returns the values to store, or None to store nothing. Two processes that
    change the seats or the message ids of one table at once both keep their change. The row as
    stored afterwards (detached), or None when there is no such table."""
    async with AsyncSession(engine, expire_on_commit=False) as session:
        row = (await session.exec(select(TableRow).where(TableRow.id == table_id).with_for_update())).first()
        if row is None:
            return None
        values = change(row)
        if values:
            await session.exec(update(TableRow).where(TableRow.id == table_id).values(**values))
            if notify is not None:
                await notices.send(session, table_id, -1, notify)
        await session.commit()
        session.expunge(row)
        for key, value in (values or {}).items():
            setattr(row, key, value)
        return row


async def merge_messages(engine: AsyncEngine, table_id: int, changed: dict, removed=()) -> dict | None:
    """Store some of a table's message ids (``changed`` keys set, ``removed`` keys dropped), keeping
    what another process stored under other keys meanwhile. The stored ids afterwards."""
    def change(row: TableRow) -> dict:
        merged = {k: v for k, v in {**(row.messages or {}), **changed}.items() if k not in removed}
        return {"messages": merged} if merged != (row.messages or {}) else None

    row = await modify_table(engine, table_id, change)
    return None if row is None else dict(row.messages or {})


async def swap_message(engine: AsyncEngine, table_id: int, key: str, old: Any, new: Any) -> Any:
    """Store ``new`` under ``key`` only if it still holds ``old`` (a message posted by two racing
    presses is recorded once); what the key holds afterwards (None: no such table)."""
    def change(row: TableRow) -> dict | None:
        messages = dict(row.messages or {})
        if messages.get(key) != old:
            return None
        messages[key] = new
        return {"messages": messages}

    row = await modify_table(engine, table_id, change)
    return None if row is None else (row.messages or {}).get(key)


async def read_messages(engine: AsyncEngine, table_id: int) -> dict | None:
    """A table's message ids as stored now (None: no such table)."""
    async with AsyncSession(engine) as session:
        found = (await session.exec(select(TableRow.id, TableRow.messages).where(TableRow.id == table_id))).first()
    return None if found is None else dict(found[1] or {})


async def start_table(engine: AsyncEngine, table_id: int, values: dict, clocks: list[DeadlineRow],
                      notify: str | None = None) -> bool:
    """A lobby becomes a running game with its first clocks, in one transaction; False when it is
    no longer a lobby (someone started or cancelled it first). ``notify``: this process's name, to
    tell the others (their pages of the lobby follow)."""
    async with AsyncSession(engine) as session:
        updated = await session.exec(update(TableRow).where(TableRow.id == table_id, TableRow.status == "lobby")
                                     .values(**values, updated_at=time.time()))
        if updated.rowcount != 1:
            await session.rollback()
            return False
        await session.exec(_retire_clocks(table_id, keep_match=False))
        for row in clocks:
            session.add(row)
        if notify is not None:
            await notices.send(session, table_id, -1, notify)
        await session.commit()
        return True


async def end_table(engine: AsyncEngine, table_id: int, status: str, notify: str | None = None) -> None:
    """A table stops (cancelled, damaged): its status and the end of all its clocks, together."""
    async with AsyncSession(engine) as session:
        if notify is not None:
            await notices.send(session, table_id, -1, notify)
        await session.exec(update(TableRow).where(TableRow.id == table_id).values(status=status,
                                                                                 updated_at=time.time()))
        await session.exec(delete(DeadlineRow).where(DeadlineRow.table_id == table_id,
                                                     DeadlineRow.status.in_((*LIVE_CLOCKS, "held"))))
        await session.commit()
