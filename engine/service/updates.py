"""What the service publishes and what it reads a table as, in one leaf module every part may
import: the views (``PublicView`` for the group, ``PrivateView`` for one person, with their
``Seat``, ``Ask``, ``Choice`` and ``Note``; built by ``views.py``), a ``Snapshot`` (a table as it stood
at one version, a copy that never races a later move), a ``TableUpdate`` (what changed since the
last update: views only, never the state), a ``Waiting`` decision, and the helpers that read them
off a table's copy (``snapshot_of``, ``due_of``, ``waiting_of``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.core.contract import Decision, GameRules
from engine.service.storage.rows import TableRow


class Seat(msgspec.Struct, frozen=True):
    name: str
    user: str  # the platform's id ("tg:42", "dc:7", "web:…", "ai:1"): whom to write to or mention
    ai: bool  # the AI plays this seat now (an AI seat, or a person's seat it keeps while they are away)
    person: bool  # a person's seat (whether they play it now or the AI keeps it)
    dm: bool | None = None  # whether the bot may write to them privately (None: not known yet)
    level: str | None = None  # an AI seat's strength (``engine.games.LEVELS``); None for a person's seat


class Ask(msgspec.Struct, frozen=True):
    """A decision owed now: who, what, where it is answered, and when its clock runs out."""

    seat: int
    kind: str
    where: str  # "table", "prompt" or "private" (engine.core.presentation)
    policy: str
    due_at: float | None  # None: no clock (an AI seat answers at once)
    ai: bool
    decision: Decision


class Choice(msgspec.Struct, frozen=True):
    """A button: the game's action and the signed token it carries; ``answers``: it answers a
    decision the seat is asked now (not merely something it may also do)."""

    action: Any
    token: str
    seat: int
    answers: bool = False


class Note(msgspec.Struct, frozen=True):
    """Something the service says about the table (a seat left, came back, the AI took it)."""

    key: str
    params: dict = {}


class PublicView(msgspec.Struct):
    table: int
    version: int
    chat_key: str
    game: str
    ruleset: str
    status: str  # lobby, running, paused, over, cancelled
    seats: list[Seat]
    board: dict  # the rules' view of the table for everyone (no hand, no deck order)
    turn: int | None
    current: int | None  # whose turn it is
    asks: list[Ask]
    choices: list[Choice]  # the answers given on the table message, in front of everyone
    worth: dict[int, int]
    events: list
    notes: list[Note]
    match_ends_at: float | None
    winners: list[int]
    messages: dict  # the front ends' record of the table's messages (ids, what each shows)
    creator: str  # who opened the table (may switch its rule options, may end it)
    options: dict  # the rule options the table was opened with (or switched to in its lobby)
    min_players: int
    max_players: int
    own_from_start: bool  # every player keeps a private message from the start (a hand)
    settings: dict = {}  # the game's options in force: its rule set's, with what was chosen over them
    pace: int = 0  # a slow game's seconds a move (engine/service/pace.py); 0: the chat's clocks

    @property
    def id(self) -> int:
        return self.table

    @property
    def names(self) -> dict[int, str]:
        return {i: s.name for i, s in enumerate(self.seats)}

    @property
    def over(self) -> bool:
        return self.status == "over"

    @property
    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.person]

    def seat_of(self, user: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user == user), None)


class PrivateView(msgspec.Struct):
    table: int
    version: int
    game: str
    ruleset: str
    status: str
    seat: int
    board: dict  # the rules' view for this seat (with its hand)
    asks: list[Ask]  # what this seat is asked now
    choices: list[Choice]  # every choice it has, each a signed button
    extras: list[str]  # its controls beside the moves: "pile", "trade", "counter:<offer>"
    events: list
    ai_keeps: bool  # its player is away: the AI keeps the seat (the only button: take it back)
    own_from_start: bool  # the game keeps a private message for every player from the start (a hand)
    timed_out: list[int] = []  # seats whose clock ran out and made this update's move (an offer lapsed)



@dataclass(frozen=True)
class Waiting:
    """A decision someone owes now, with the time their clock runs out (``None``: no clock, e.g.
    an AI seat, which answers at once)."""

    seat: int
    kind: str
    policy: str
    due_at: float | None
    ai: bool


@dataclass(frozen=True)
class Snapshot:
    """A table as it stood at one version: a copy, so rendering never races a later move."""

    table: int
    version: int
    row: TableRow
    rules: GameRules
    state: Any

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def names(self) -> dict[int, str]:
        return {i: s["name"] for i, s in enumerate(self.row.seats)}

    def seat_of(self, user: str) -> int | None:
        return next((i for i, s in enumerate(self.row.seats) if s["user"] == user), None)


@dataclass
class TableUpdate:
    """What changed at a table since its last update; the one thing front ends render. It holds
    views only (``engine/service/views.py``), never the game's state: ``public`` for the group,
    ``private`` for each person's seat, to be shown to that person alone.

    ``kind``: ``started`` (the game began: a new public message), ``moves``, ``seats`` (someone
    left, came back, or the AI took a seat), ``paused``, ``resumed``, ``over``, ``cancelled``, or
    ``damaged`` (the table could not be restored; ``public`` is then None)."""

    table: int
    chat_key: str
    kind: str
    public: PublicView | None
    private: dict[int, PrivateView] = field(default_factory=dict)
    turn_passed: bool = False
    asked: list[Ask] = field(default_factory=list)  # people owing a decision the last update did not ask
    damage: str | None = None

    @property
    def over(self) -> bool:
        return self.public is not None and self.public.over


def snapshot_of(live) -> Snapshot:
    """A copy of a table as its copy in memory stands (its stored snapshot while a move is being
    stored). Seats and messages are copied too; a plain copy (no ORM state, read only): building an
    ORM row costs several times more, and this is done for every update."""
    row = TableRow.model_construct(**live.row.model_dump())
    state = live.rules.decode_state(live.row.snapshot) if live.row.snapshot else live.state
    return Snapshot(live.row.id, live.row.version, row, live.rules, state)


def due_of(live) -> dict[tuple[int, str], float]:
    """When each person's decision runs out, from the table's clocks at its version."""
    return {(c.seat, c.kind): c.due_at for c in live.clocks if c.version == live.row.version and not c.ai}


def waiting_of(live) -> list[Waiting]:
    """The decisions owed at a running table, each with its clock (none for an AI seat's)."""
    if live.row.status != "running" or live.state is None:
        return []
    due = due_of(live)
    out = []
    for d in live.rules.waiting_for(live.state):
        ai = bool(live.row.seats[d.seat]["ai"])
        out.append(Waiting(d.seat, d.kind, d.policy, None if ai else due.get((d.seat, d.kind)), ai))
    return out
