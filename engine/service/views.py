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

import asyncio
from typing import Any

import msgspec

from engine.games import GAMES
from engine.play.history import Story, game_story
from engine.service import pace, tokens
from engine.service.core import Core
from engine.service.outcome import is_ai_user
from engine.service.storage import queries
from engine.service.updates import Ask, Choice, Note, PrivateView, PublicView, Seat, Snapshot, due_of, snapshot_of


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


def digests(rules, state, actions: list) -> list[str]:
    """Each action's digest in its turn, for its token (``tokens.action_digest``)."""
    turn = getattr(state, "turn_number", 0) or 0
    return [tokens.action_digest(rules.encode_action(a), turn) for a in actions]


def _choices(secret: bytes, snap: Snapshot, seat: int) -> list[Choice]:
    if snap.state is None or snap.row.status != "running":
        return []
    legal = snap.rules.legal_actions(snap.state, seat)
    tokens_ = tokens.encode_all(secret, snap.table, snap.version, seat, digests(snap.rules, snap.state, legal))
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
        settings=msgspec.to_builtins(state.options) if state is not None else {}, pace=pace.pace_of(row))


def _answering(snap: Snapshot, choices: list[Choice], asks: list[Ask]) -> list[Choice]:
    """The choices, those that answer one of ``asks`` marked."""
    actions = [c.action for c in choices]
    wanted = [a for ask in asks for a in snap.rules.answers(ask.decision, actions)]
    return [msgspec.structs.replace(c, answers=True) if c.action in wanted else c for c in choices]


def private_view(secret: bytes, snap: Snapshot, seat: int, asks: list[Ask], events=(), timed_out=()) -> PrivateView:
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
        events=shown.events_for(events, seat), ai_keeps=away, own_from_start=shown.hand_from_start,
        timed_out=list(timed_out))


def private_views(secret: bytes, snap: Snapshot, asks: list[Ask], events=(), timed_out=()) -> dict[int, PrivateView]:
    """Every person's own view (also a seat the AI keeps while its player is away); ``timed_out``:
    the seats whose clock made this update's moves."""
    return {i: private_view(secret, snap, i, asks, events, timed_out) for i, s in enumerate(snap.row.seats)
            if not is_ai_user(s["user"])}


class TableViews:
    """A table as it stands, as one audience sees it, for screens drawn on request (a press of "My
    hand", a page that opens, the end screen's chart); the loop's updates carry the same views."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def buttons(self, table: int | Snapshot, seat: int) -> list[tuple[Any, str]]:
        """Every choice ``seat`` has at the table (now, or as a snapshot shows it), each with the
        token its button carries."""
        snap = table if isinstance(table, Snapshot) else None
        if snap is None:
            live = self.core.cache.peek(table)
            if live is None or live.state is None or live.row.status != "running":
                return []
            state = live.committed()
            legal = live.rules.legal_actions(state, seat) if live.moving else live.legal(seat)
            table_id, version, rules = live.row.id, live.row.version, live.rules
        else:
            if snap.state is None or snap.row.status != "running":
                return []
            state, rules = snap.state, snap.rules
            table_id, version, legal = snap.table, snap.version, snap.rules.legal_actions(snap.state, seat)
        signed = self.core.keys.tokens(table_id, version, seat, digests(rules, state, legal))
        return list(zip(legal, signed, strict=True))

    async def of(self, table_id: int, seats=None) -> tuple[PublicView, dict[int, PrivateView]] | None:
        """The table as it stands, as the group sees it and as each of ``seats`` (default every
        person) sees it: for screens drawn on request (a press of "My hand", a page that opens)."""
        live = await self.core.cache.get(table_id)
        if live is None:
            return None
        async with self.core.cache.lock(table_id):
            snap = snapshot_of(live)
            asks = asks_of(snap, due_of(live))
            ends = live.match_ends_at
        public = public_view(self.core.keys.secret, snap, asks, match_ends_at=ends)
        if seats is None:
            return public, private_views(self.core.keys.secret, snap, asks)
        return public, {s: private_view(self.core.keys.secret, snap, s, asks) for s in seats
                        if 0 <= s < len(snap.row.seats)}

    async def public(self, table_id: int) -> PublicView | None:
        """The table as the group sees it (None when there is no such table)."""
        both = await self.of(table_id, seats=())
        return both[0] if both is not None else None

    async def seat(self, table_id: int, user: str) -> tuple[PublicView, PrivateView] | None:
        """The table as the group sees it and as ``user``'s seat sees it; None when they play no
        seat there (or there is no such table)."""
        public = await self.public(table_id)
        seat = public.seat_of(user) if public is not None else None
        if seat is None:
            return None
        both = await self.of(table_id, seats=[seat])
        return (both[0], both[1][seat]) if both is not None and seat in both[1] else None

    async def story(self, table_id: int) -> Story | None:
        """The game so far replayed from its stored log: each seat's worth at the start of every
        turn and now (the end screen's chart), and the achievements earned (``engine/service/feats.py``);
        None when there is no such game."""
        live = await self.core.cache.get(table_id)
        if live is None or live.state is None:
            return None
        async with self.core.cache.lock(table_id):
            row, rules = live.row, live.rules
            seats, options, seed, version = len(row.seats), row.options or row.ruleset, row.seed, row.version
        entries = [e for e in await queries.load_log(self.core.db, table_id) if e.seq <= version]
        log = [(e.seat, rules.decode_action(e.action)) for e in entries]
        return await asyncio.to_thread(game_story, rules, seats, options, seed, log)

    async def worth_series(self, table_id: int) -> dict[int, list[int]]:
        """Each seat's worth at the start of every turn so far, and now (``story``)."""
        told = await self.story(table_id)
        return told.series if told is not None else {}

    async def history(self, table_id: int, viewer: int | None = None) -> list:
        """Every event of the table's game so far, from its stored log, as ``viewer`` (a seat, or None
        for the group) may see them: the whole story for whoever comes late to it."""
        live = await self.core.cache.get(table_id)
        if live is None or live.state is None:
            return []
        async with self.core.cache.lock(table_id):
            row, rules = live.row, live.rules
            seats, options, seed, version = len(row.seats), row.options or row.ruleset, row.seed, row.version
        entries = [e for e in await queries.load_log(self.core.db, table_id) if e.seq <= version]
        events = rules.replay_events(seats, options, seed, [(e.seat, rules.decode_action(e.action)) for e in entries])
        return GAMES[row.game].presentation.events_for(events, viewer)
