"""What each audience of a table may see: one public view for the group and one private view per
person, plain data (msgspec Structs), made by the service for every update (boardgame.io's
``playerView`` and ``redactLog``). Front ends, pages, pictures and logs are drawn from these only:
a subscriber never receives the game's state, and the public view holds no hand.

- ``PublicView``: the seats (names, who plays now, who the AI keeps), the rules' public view of
  the table, whose turn, every decision pending with where it is answered
  (``engine.core.presentation``) and its clock, the buttons answered on the table message (with
  their signed tokens), each seat's worth, the events since the last view as the group may see
  them, the service's notes, the match clock, and the result once it is over.
- ``PrivateView``: one seat's own view (its hand), its decisions, every choice it has as a signed
  button, its controls beside the moves (``extras``), the events as it may see them, and whether
  the AI keeps its seat while its player is away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from engine.core.contract import Decision
from engine.games import GAMES
from engine.service import tokens

if TYPE_CHECKING:
    from engine.service.loop import Snapshot


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


def is_ai_user(user: str) -> bool:
    return user.startswith("ai:")


def seats_of(row) -> list[Seat]:
    return [Seat(s["name"], s["user"], bool(s["ai"]), not is_ai_user(s["user"]), s.get("dm"),
                 s.get("level", "ai") if is_ai_user(s["user"]) else None) for s in row.seats]


def asks_of(snap: Snapshot, clocks: dict[tuple[int, str], float] | None = None) -> list[Ask]:
    """The decisions pending at a running table, with where each is answered and its clock."""
    if snap.row.status != "running" or snap.state is None:
        return []
    shown = GAMES[snap.game].presentation
    clocks = clocks or {}
    out = []
    for d in snap.rules.waiting_for(snap.state):
        ai = bool(snap.row.seats[d.seat]["ai"])
        out.append(Ask(d.seat, d.kind, shown.where(d), d.policy, None if ai else clocks.get((d.seat, d.kind)), ai, d))
    return out


def _choices(secret: bytes, snap: Snapshot, seat: int) -> list[Choice]:
    if snap.state is None or snap.row.status != "running":
        return []
    legal = snap.rules.legal_actions(snap.state, seat)
    tokens_ = tokens.encode_all(secret, snap.table, snap.version, seat, len(legal))
    return [Choice(a, tok, seat) for a, tok in zip(legal, tokens_, strict=True)]


def public_view(secret: bytes, snap: Snapshot, asks: list[Ask], events=(), notes=(),
                match_ends_at: float | None = None) -> PublicView:
    """The group's view: answers on the table only from people who play their seat now."""
    row, state, shown = snap.row, snap.state, GAMES[snap.game].presentation
    choices: list[Choice] = []
    for ask in asks:
        if ask.where != "table" or ask.ai:
            continue
        own = _choices(secret, snap, ask.seat)
        wanted = snap.rules.answers(ask.decision, [c.action for c in own])
        choices += [c for c in own if c.action in wanted and c not in choices]
    board = snap.rules.view(state, None) if state is not None else {}
    result = snap.rules.result(state) if state is not None else None
    return PublicView(
        table=snap.table, version=snap.version, chat_key=row.chat_key, game=snap.game, ruleset=row.ruleset,
        status=row.status, seats=seats_of(row), board=board, turn=getattr(state, "turn_number", None),
        current=board.get("current"), asks=asks, choices=choices,
        worth=shown.worth(state) if state is not None else {}, events=shown.events_for(events, None),
        notes=[Note(n.key, dict(n.params)) for n in notes], match_ends_at=match_ends_at,
        winners=list(result.winners) if result is not None and result.over else [],
        messages=dict(row.messages or {}), creator=row.creator, options=dict(row.options or {}),
        min_players=snap.rules.min_players, max_players=snap.rules.max_players,
        own_from_start=shown.hand_from_start,
        settings=msgspec.to_builtins(state.options) if state is not None else {})


def _answering(snap: Snapshot, choices: list[Choice], asks: list[Ask]) -> list[Choice]:
    """The choices, those that answer one of ``asks`` marked."""
    actions = [c.action for c in choices]
    wanted = [a for ask in asks for a in snap.rules.answers(ask.decision, actions)]
    return [msgspec.structs.replace(c, answers=True) if c.action in wanted else c for c in choices]


def private_view(secret: bytes, snap: Snapshot, seat: int, asks: list[Ask], events=()) -> PrivateView:
    """One seat's own view; a seat the AI keeps for its away player offers only "take it back"."""
    row, state, shown = snap.row, snap.state, GAMES[snap.game].presentation
    board = snap.rules.view(state, seat) if state is not None else {}
    running = row.status == "running" and state is not None
    away = bool(row.seats[seat]["ai"]) and running
    return PrivateView(
        table=snap.table, version=snap.version, game=snap.game, ruleset=row.ruleset, status=row.status, seat=seat,
        board=board, asks=[a for a in asks if a.seat == seat],
        choices=[] if away else _answering(snap, _choices(secret, snap, seat), [a for a in asks if a.seat == seat]),
        extras=shown.extras(state, board, seat) if running and not away else [],
        events=shown.events_for(events, seat), ai_keeps=away, own_from_start=shown.hand_from_start)


def private_views(secret: bytes, snap: Snapshot, asks: list[Ask], events=()) -> dict[int, PrivateView]:
    """Every person's own view (also a seat the AI keeps while its player is away)."""
    return {i: private_view(secret, snap, i, asks, events) for i, s in enumerate(snap.row.seats)
            if not is_ai_user(s["user"])}
