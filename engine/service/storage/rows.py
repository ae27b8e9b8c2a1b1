"""The service's tables as sqlmodel rows: one row per chat game (its snapshot and version), the
append-only action log, the clocks (deadlines) and the ``ClockInfo`` a table keeps of its live
ones, results, chat settings, scheduled matches, tournaments (entrants, matches, corrections), the
processes serving the database and the service's settings (the token secret)."""

from __future__ import annotations

import time
from typing import NamedTuple

from sqlalchemy import BigInteger, Column, Integer, String, Text
from sqlmodel import JSON, Field, SQLModel


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
    # the version of what processes share about this table (snapshot, log, message record, clocks,
    # tokens), fixed when it is made (storage/formats.py; migration 0010)
    format: int = Field(default=1, sa_column=Column(Integer, nullable=False, default=1, server_default="1"))
    damage: dict | None = Field(default=None, sa_column=Column(JSON))  # quarantine: {"reason", "told"}
    # a slow game's own state (engine/service/pace.py; migration 0013): when its next daily summary is
    # due, the version the last one told up to, whom it reminded at which version; None: not slow
    slow: dict | None = Field(default=None, sa_column=Column(JSON))
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
    # the order its ratings moved in (engine/service/ratings.py; 0: not yet), so they can be rebuilt
    rated: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0, server_default="0"))
    # the season it was rated in (engine/service/seasons.py; empty: none, or its month when rated earlier)
    season: str = Field(default="", sa_column=Column(String, nullable=False, default="", server_default=""))
    # the achievements each seat earned in it (engine/service/feats.py), once ``awarded`` is 1
    feats: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    awarded: int = Field(default=0, sa_column=Column(Integer, nullable=False, default=0, server_default="0"))


class RatingRow(SQLModel, table=True):
    """A player's rating at one game in one scope (a chat, or ``*``: every chat), openskill's
    Plackett-Luce ``mu`` and ``sigma`` (engine/service/ratings.py)."""

    __tablename__ = "ratings"

    scope: str = Field(primary_key=True)
    game: str = Field(primary_key=True)
    user: str = Field(primary_key=True)
    name: str = ""
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    updated_at: float = Field(default_factory=time.time)


class AchievementRow(SQLModel, table=True):
    """How often a player earned one achievement at one game, and where first
    (engine/service/feats.py)."""

    __tablename__ = "achievements"

    user: str = Field(primary_key=True)
    game: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    name: str = ""
    count: int = 0
    first_table: int
    first_at: float
    last_at: float


class ChatSettingsRow(SQLModel, table=True):
    """Per chat: the language of public messages, default rule sets, clocks in seconds."""

    __tablename__ = "chat_settings"

    chat_key: str = Field(primary_key=True)
    lang: str = ""  # empty: the bot's own default language
    rulesets: dict = Field(default_factory=dict, sa_column=Column(JSON))  # game -> rule set
    clocks: dict = Field(default_factory=dict, sa_column=Column(JSON))  # policy -> seconds
    season: str = Field(default="month", sa_column=Column(String, nullable=False, default="month",
                                                          server_default="month"))  # seasons.LENGTHS


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


class ProcessRow(SQLModel, table=True):
    """A process serving this database: the table formats it reads, and when it was last seen
    (storage/formats.py: new tables are made in a format every running process reads)."""

    __tablename__ = "processes"

    name: str = Field(primary_key=True)  # the process's owner name (clock leases)
    build: str = ""
    reads: list = Field(default_factory=list, sa_column=Column(JSON))  # table format versions
    started_at: float = Field(default_factory=time.time)
    seen_at: float = Field(default_factory=time.time)


class SettingRow(SQLModel, table=True):
    __tablename__ = "settings"

    key: str = Field(primary_key=True)
    value: str


# clocks that a move retires: whatever is set for the old version (the match clock stays)
OPEN_CLOCKS = ("pending", "claimed")


def clock_values(row: DeadlineRow | ClockInfo, table_id: int | None = None) -> dict:
    """A clock's columns, from its row or (a move's clock of ``table_id``) from its ``ClockInfo``."""
    if isinstance(row, ClockInfo):
        return {"table_id": table_id, "schedule_id": None, "tournament_id": None, "version": row.version,
                "seat": row.seat, "kind": row.kind, "due_at": row.due_at, "status": row.status, "ai": row.ai,
                "owner": None, "lease_until": None}
    return {"table_id": row.table_id, "schedule_id": row.schedule_id, "tournament_id": row.tournament_id,
            "version": row.version, "seat": row.seat, "kind": row.kind, "due_at": row.due_at,
            "status": row.status or "pending", "ai": bool(row.ai), "owner": row.owner, "lease_until": row.lease_until}


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
