"""Persistence with sqlmodel: tables (one row per chat game, with its snapshot and version), the
append-only action log, and the service's settings (the token secret).

A move is one transaction: append the action at ``version + 1`` and store the new snapshot only
if the version is still the one read (``UPDATE … WHERE version = :old``); two racing presses of
one button cannot both land. SQLite (WAL) by default, any SQLAlchemy URL otherwise.
"""

from __future__ import annotations

import secrets
import time

from sqlalchemy import BigInteger, Column, Integer, Text, event, update
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlmodel import JSON, Field, SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession


class TableRow(SQLModel, table=True):
    __tablename__ = "tables"

    id: int | None = Field(default=None, primary_key=True)
    chat_key: str = Field(index=True)  # "tg:<chat>[:<topic>]", "dc:<guild>:<channel>", "console"
    game: str
    ruleset: str
    status: str = Field(default="lobby", index=True)  # lobby | running | over | cancelled
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))  # up to 2**63
    creator: str = ""
    seats: list = Field(default_factory=list, sa_column=Column(JSON))  # [{"user", "name", "ai", "dm"}]
    messages: dict = Field(default_factory=dict, sa_column=Column(JSON))  # the adapter's public message ids
    options: dict = Field(default_factory=dict, sa_column=Column(JSON))  # the rule set and its options
    clocks: dict = Field(default_factory=dict, sa_column=Column(JSON))  # seconds per decision policy
    missed: dict = Field(default_factory=dict, sa_column=Column(JSON))  # seat -> deadlines missed in a row
    snapshot: str | None = Field(default=None, sa_column=Column(Text))
    version: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0))
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)


class ActionRow(SQLModel, table=True):
    __tablename__ = "actions"

    table_id: int = Field(primary_key=True, foreign_key="tables.id")
    seq: int = Field(primary_key=True)  # the version this action produced (1, 2, …)
    seat: int
    action: str = Field(sa_column=Column(Text, nullable=False))
    at: float = Field(default_factory=time.time)


class DeadlineRow(SQLModel, table=True):
    """A clock: when it runs out, the rules' ``timeout_action`` (or the match's end) is applied.

    Stored, not only scheduled in memory, so a restarted process or another worker finds it; the
    ``pending -> done`` update is the claim, so it fires exactly once.
    """

    __tablename__ = "deadlines"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int | None = Field(default=None, index=True, foreign_key="tables.id")
    schedule_id: int | None = Field(default=None, index=True, foreign_key="schedules.id")
    tournament_id: int | None = Field(default=None, index=True, foreign_key="tournaments.id")
    version: int = 0  # the table version it was set for; a later move makes it moot
    seat: int = -1  # -1 for the match clock and scheduled matches
    kind: str  # the decision's kind, "match", "announce" / "begin" for a scheduled match, "tour.round"
    due_at: float = Field(index=True)
    status: str = Field(default="pending", index=True)  # pending | done | moot | held (a paused tournament)


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
    engine = create_async_engine(database_url(url))
    if engine.dialect.name == "sqlite":
        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn, _record):  # WAL: readers never wait for the one writer
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    return engine


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


async def append_move(engine: AsyncEngine, table_id: int, old_version: int, seat: int, action_json: str,
                      snapshot: str, status: str, deadlines: list[DeadlineRow] | None = None,
                      result: ResultRow | None = None) -> bool:
    """One move, one transaction: the log line, the snapshot at ``version + 1`` (only if the version
    is still ``old_version``), and the new clocks. False when someone else moved first."""
    async with AsyncSession(engine) as session:
        updated = await session.exec(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.version == old_version)
            .values(snapshot=snapshot, version=old_version + 1, status=status, updated_at=time.time())
        )
        if updated.rowcount != 1:
            await session.rollback()
            return False
        session.add(ActionRow(table_id=table_id, seq=old_version + 1, seat=seat, action=action_json))
        clear = update(DeadlineRow).where(DeadlineRow.table_id == table_id, DeadlineRow.status == "pending")
        if status == "running":
            clear = clear.where(DeadlineRow.kind != "match")
        await session.exec(clear.values(status="moot"))
        for row in deadlines or ():
            session.add(row)
        if result is not None:
            session.add(result)
        await session.commit()
        return True


async def load_log(engine: AsyncEngine, table_id: int) -> list[ActionRow]:
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq))
        return list(rows)


async def claim(engine: AsyncEngine, deadline_id: int) -> bool:
    """Take a due deadline for this process; False when another already did."""
    async with AsyncSession(engine) as session:
        result = await session.exec(
            update(DeadlineRow).where(DeadlineRow.id == deadline_id, DeadlineRow.status == "pending")
            .values(status="done")
        )
        await session.commit()
        return result.rowcount == 1


async def due(engine: AsyncEngine, now: float) -> list[DeadlineRow]:
    async with AsyncSession(engine) as session:
        rows = await session.exec(select(DeadlineRow).where(DeadlineRow.status == "pending",
                                                            DeadlineRow.due_at <= now).order_by(DeadlineRow.due_at))
        return list(rows)


async def replace_deadlines(engine: AsyncEngine, table_id: int, rows: list[DeadlineRow],
                            keep_match: bool = True) -> None:
    """Make earlier turn clocks moot and set the new ones (the match clock stays)."""
    async with AsyncSession(engine) as session:
        query = update(DeadlineRow).where(DeadlineRow.table_id == table_id, DeadlineRow.status == "pending")
        if keep_match:
            query = query.where(DeadlineRow.kind != "match")
        await session.exec(query.values(status="moot"))
        for row in rows:
            session.add(row)
        await session.commit()
