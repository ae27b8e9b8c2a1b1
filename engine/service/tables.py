"""Tables and the one door for moves: ``GameService.act(user, token)``.

A table is a chat's game: a lobby (join, leave, AI seats, start), then the running game, then the
result. Every move, a player's button or an AI seat's or a clock's, goes through ``_apply``: the
rules validate it, the database stores it in one transaction with the version check, and only then
does the live copy move on. Moves of one table are serialised by a per-table lock; several
processes on one PostgreSQL are kept apart by the version check.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.core.contract import GameRules
from engine.core.errors import RuleError
from engine.core.values import EndMatch
from engine.games import GAMES, PLUGS
from engine.service import migrate, store, tokens

ACTIVE = ("lobby", "running")
LIVE = ("running", "paused")  # a game in progress; "paused": a tournament admin stopped its clocks
SYSTEM = -1
MISSES_BEFORE_AI = 3
# seconds per decision policy (a chat may set its own); the Deal tournament's card clock comes
# from its rule set (D-16)
DEFAULT_CLOCKS = {"turn": 60, "card": 10, "response": 20, "payment": 60, "discard": 30, "choice": 30,
                  "auction": 30}


@dataclass
class Outcome:
    """What happened to a request: applied (with events), or refused with a translatable reason."""

    ok: bool
    key: str | None = None  # message key when refused ("service.out_of_date", "deal.err.…")
    rule: str | None = None  # the rule id when the rules refused
    params: dict = field(default_factory=dict)
    events: list = field(default_factory=list)
    table: int | None = None
    version: int | None = None


def game_and_ruleset(game: str, ruleset: str | None) -> tuple[str, Outcome | None]:
    """The rule set to play (the game's first when none is named), or why not."""
    if game not in GAMES:
        return "", Outcome(False, "service.unknown_game", params={"game": game})
    rulesets = GAMES[game].rulesets
    ruleset = ruleset or rulesets[0]
    if ruleset not in rulesets:
        return ruleset, Outcome(False, "service.unknown_ruleset", params={"ruleset": ruleset,
                                                                         "choices": ", ".join(rulesets)})
    return ruleset, None


@dataclass
class LiveTable:
    row: store.TableRow
    rules: GameRules
    state: Any = None

    def seat_of(self, user: str) -> int | None:
        for i, seat in enumerate(self.row.seats):
            if seat["user"] == user:
                return i
        return None


class GameService:
    def __init__(self, engine: AsyncEngine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self._secret = b""
        self._live: dict[int, LiveTable] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.replay_mismatches: list[int] = []

    @classmethod
    async def open(cls, url: str | None, clock: Callable[[], float] = time.time) -> GameService:
        """Connect, make the schema, and bring back every running table (verified by replay)."""
        service = cls(store.make_engine(url), clock)
        await migrate.upgrade(service.engine)
        service._secret = await store.secret(service.engine)
        async with AsyncSession(service.engine) as session:
            rows = (await session.exec(select(store.TableRow).where(store.TableRow.status.in_(LIVE)))).all()
        for row in rows:
            await service._restore(row)
        return service

    async def close(self) -> None:
        await self.engine.dispose()

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _restore(self, row: store.TableRow) -> LiveTable:
        """Load a running table; the log is the truth, the snapshot must equal its replay."""
        rules = GAMES[row.game]
        log = await store.load_log(self.engine, row.id)
        replayed = rules.replay(len(row.seats), row.options or row.ruleset, row.seed,
                                [(a.seat, rules.decode_action(a.action)) for a in log])
        if row.snapshot is not None and rules.encode_state(replayed) != row.snapshot.encode():
            self.replay_mismatches.append(row.id)
        live = LiveTable(row=row, rules=rules, state=replayed)
        self._live[row.id] = live
        return live

    async def _load(self, table_id: int) -> LiveTable | None:
        live = self._live.get(table_id)
        if live is not None:
            return live
        async with AsyncSession(self.engine) as session:
            row = await session.get(store.TableRow, table_id)
        if row is None:
            return None
        if row.status in LIVE or (row.status == "over" and row.snapshot):
            return await self._restore(row)
        live = LiveTable(row=row, rules=GAMES[row.game])
        self._live[table_id] = live
        return live

    async def _insert_row(self, row: store.TableRow) -> None:
        async with AsyncSession(self.engine) as session:
            session.add(row)
            await session.commit()
            await session.refresh(row)

    async def _update_row(self, table_id: int, **values: Any) -> None:
        """Change named columns only: never write back a snapshot or version read earlier."""
        async with AsyncSession(self.engine) as session:
            await session.exec(update(store.TableRow).where(store.TableRow.id == table_id).values(**values))
            await session.commit()

    # -- lobby ---------------------------------------------------------------------------------

    async def table_in_chat(self, chat_key: str) -> store.TableRow | None:
        async with AsyncSession(self.engine) as session:
            return (await session.exec(select(store.TableRow).where(
                store.TableRow.chat_key == chat_key, store.TableRow.status.in_(ACTIVE)))).first()

    async def new_table(self, chat_key: str, game: str, ruleset: str | None, user: str, name: str) -> Outcome:
        ruleset, refused = game_and_ruleset(game, ruleset)
        if refused:
            return refused
        existing = await self.table_in_chat(chat_key)
        if existing is not None:
            return Outcome(False, "service.table_exists", params={"table": existing.id, "game": existing.game},
                           table=existing.id)
        row = store.TableRow(chat_key=chat_key, game=game, ruleset=ruleset, creator=user,
                             seats=[{"user": user, "name": name, "ai": False}])
        await self._insert_row(row)
        self._live[row.id] = LiveTable(row=row, rules=GAMES[game])
        return Outcome(True, table=row.id, version=0)

    async def join(self, table_id: int, user: str, name: str) -> Outcome:
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live is None or live.row.status != "lobby":
                return Outcome(False, "service.no_lobby", table=table_id)
            if live.seat_of(user) is not None:
                return Outcome(False, "service.already_seated", table=table_id)
            if len(live.row.seats) >= live.rules.max_players:
                return Outcome(False, "service.table_full", params={"max": live.rules.max_players}, table=table_id)
            live.row.seats = [*live.row.seats, {"user": user, "name": name, "ai": False}]
            await self._update_row(table_id, seats=live.row.seats)
            return Outcome(True, table=table_id)

    async def add_ai(self, table_id: int, user: str) -> Outcome:
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live is None or live.row.status != "lobby":
                return Outcome(False, "service.no_lobby", table=table_id)
            if len(live.row.seats) >= live.rules.max_players:
                return Outcome(False, "service.table_full", params={"max": live.rules.max_players}, table=table_id)
            n = sum(1 for s in live.row.seats if s["ai"]) + 1
            live.row.seats = [*live.row.seats, {"user": f"ai:{n}", "name": f"AI {n}", "ai": True}]
            await self._update_row(table_id, seats=live.row.seats)
            return Outcome(True, table=table_id)

    async def lobby(self, table_id: int, op: str, user: str, name: str, is_admin: bool = False,
                    seed: int | None = None) -> Outcome:
        """A lobby button, whatever the platform: join, leave, ai, noai, cancel or start."""
        await self.live(table_id)
        if op == "join":
            return await self.join(table_id, user, name)
        if op == "leave":
            return await self.leave(table_id, user)
        if op == "ai":
            return await self.add_ai(table_id, user)
        if op == "noai":
            return await self.remove_ai(table_id, user)
        if op == "cancel":
            return await self.cancel(table_id, user, is_admin=is_admin)
        if op == "start":
            return await self.start(table_id, user, seed=seed)
        return Outcome(False, "service.bad_token", table=table_id)

    async def remove_ai(self, table_id: int, user: str) -> Outcome:
        """Take the last AI seat out of a lobby."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live is None or live.row.status != "lobby":
                return Outcome(False, "service.no_lobby", table=table_id)
            ai_seats = [i for i, s in enumerate(live.row.seats) if s["ai"]]
            if not ai_seats:
                return Outcome(False, "service.no_ai_seat", table=table_id)
            seats = [dict(s) for i, s in enumerate(live.row.seats) if i != ai_seats[-1]]
            live.row.seats = seats
            await self._update_row(table_id, seats=seats)
            return Outcome(True, table=table_id)

    async def set_messages(self, table_id: int, **messages: Any) -> None:
        """Remember the adapter's public message ids (edited in place, found again after a restart)."""
        live = await self._load(table_id)
        if live is not None:
            live.row.messages = {**(live.row.messages or {}), **messages}
            await self._update_row(table_id, messages=live.row.messages)

    async def set_dm(self, table_id: int, user: str, reachable: bool) -> None:
        """Whether the bot can send this player private messages (else the adapter falls back)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = live.seat_of(user) if live else None
            if seat is not None:
                seats = [dict(s) for s in live.row.seats]
                seats[seat]["dm"] = reachable
                live.row.seats = seats
                await self._update_row(table_id, seats=seats)

    async def leave(self, table_id: int, user: str) -> Outcome:
        """In the lobby the seat goes; in a running game the AI takes it over (not the end)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live is None:
                return Outcome(False, "service.no_table", table=table_id)
            seat = live.seat_of(user)
            if seat is None:
                return Outcome(False, "service.not_a_player", table=table_id)
            seats = [dict(s) for s in live.row.seats]
            if live.row.status == "lobby":
                del seats[seat]
            else:
                seats[seat]["ai"] = True
            live.row.seats = seats
            await self._update_row(table_id, seats=seats)
            return Outcome(True, table=table_id)

    async def start(self, table_id: int, user: str, seed: int | None = None, match_minutes: int = 0,
                    options: dict | None = None) -> Outcome:
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live is None or live.row.status != "lobby":
                return Outcome(False, "service.no_lobby", table=table_id)
            if live.seat_of(user) is None and user != live.row.creator:
                return Outcome(False, "service.not_a_player", table=table_id)
            if len(live.row.seats) < live.rules.min_players:
                return Outcome(False, "service.too_few", params={"min": live.rules.min_players}, table=table_id)
            live.row.seed = secrets.randbits(63) if seed is None else seed
            options = {"ruleset": live.row.ruleset, **(options or {}),
                       **({"match_minutes": match_minutes} if match_minutes else {})}
            live.row.options = options
            live.state = live.rules.new_game(len(live.row.seats), options, live.row.seed)
            live.row.snapshot = live.rules.encode_state(live.state).decode()
            live.row.status = "running"
            chat = await self.settings(live.row.chat_key)
            live.row.clocks = {**DEFAULT_CLOCKS, **chat.clocks, **(live.row.clocks or {})}
            card = getattr(live.state.options, "card_seconds", 0)
            if card:
                live.row.clocks["card"] = card
            await self._update_row(table_id, seed=live.row.seed, snapshot=live.row.snapshot, status="running",
                                   clocks=live.row.clocks, options=options)
            minutes = getattr(live.state.options, "match_minutes", 0)
            match = [store.DeadlineRow(table_id=table_id, version=0, seat=SYSTEM, kind="match",
                                       due_at=self.clock() + 60 * minutes)] if minutes else []
            await store.replace_deadlines(self.engine, table_id, match + self._turn_clocks(live), keep_match=False)
            return Outcome(True, table=table_id, version=live.row.version)

    async def cancel(self, table_id: int, user: str, is_admin: bool = False) -> Outcome:
        """End a lobby or a running game: its creator or a chat admin (the adapter checks who is)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live is None or live.row.status not in ACTIVE:
                return Outcome(False, "service.no_table", table=table_id)
            if user != live.row.creator and not is_admin:
                return Outcome(False, "service.not_creator", table=table_id)
            await self._update_row(table_id, status="cancelled")
            live.row.status = "cancelled"
            async with AsyncSession(self.engine) as session:
                await session.exec(update(store.DeadlineRow).where(store.DeadlineRow.table_id == table_id,
                                                                   store.DeadlineRow.status == "pending")
                                   .values(status="moot"))
                await session.commit()
            return Outcome(True, table=table_id)

    async def run_clock(self, every: float = 1.0, on_outcomes: Callable[[list[Outcome]], Any] | None = None,
                        stop: asyncio.Event | None = None) -> None:
        """The one sweeper task of a process: applies due clocks, lets AI seats answer, reports."""
        stop = stop or asyncio.Event()
        for table_id in [t for t, live in self._live.items() if live.row.status == "running"]:
            await self.run_ai(table_id)  # a restart can fall between a move and the AI seats' answer
        while not stop.is_set():
            outcomes = await self.sweep()
            for outcome in outcomes:  # a tournament round starts several tables at once
                for table in ([outcome.table] if outcome.table is not None else []) + outcome.params.get("tables", []):
                    await self.run_ai(table)
            if outcomes and on_outcomes is not None:
                await on_outcomes(outcomes)
            with contextlib.suppress(TimeoutError):  # woken by the interval or by stop
                await asyncio.wait_for(stop.wait(), timeout=every)

    # -- moves ---------------------------------------------------------------------------------

    def buttons(self, table_id: int, seat: int) -> list[tuple[Any, str]]:
        """Every choice ``seat`` has now, each with the token its button carries."""
        live = self._live.get(table_id)
        if live is None or live.state is None or live.row.status != "running":
            return []
        legal = live.rules.legal_actions(live.state, seat)
        return [(a, tokens.encode(self._secret, tokens.Token(table_id, live.row.version, seat, i)))
                for i, a in enumerate(legal)]

    async def act(self, user: str, token: str) -> Outcome:
        """A button press: who pressed what. Refusals say why, privately; nothing changes then."""
        try:
            tok = tokens.decode(self._secret, token)
        except tokens.TokenError:
            return Outcome(False, "service.bad_token")
        async with self._lock(tok.table):
            live = await self._load(tok.table)
            if live is None:
                return Outcome(False, "service.no_table")
            if live.row.status != "running":
                return Outcome(False, "service.not_running", table=tok.table)
            seat = live.seat_of(user)
            if seat is None:
                return Outcome(False, "service.not_a_player", table=tok.table)
            if tok.seat != seat:
                return Outcome(False, "service.not_your_button", table=tok.table)
            if tok.version != live.row.version:
                return Outcome(False, "service.out_of_date", table=tok.table, version=live.row.version)
            legal = live.rules.legal_actions(live.state, seat)
            if tok.index >= len(legal):
                return Outcome(False, "service.bad_token", table=tok.table)
            outcome = await self._apply(live, seat, legal[tok.index])
            if outcome.ok:
                await self._back_in_person(live, seat)
            return outcome

    async def act_as(self, table_id: int, seat: int, action: Any) -> Outcome:
        """A move made for a seat by the service itself (an AI seat, a timeout, the clock)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live is None or live.row.status != "running":
                return Outcome(False, "service.not_running", table=table_id)
            return await self._apply(live, seat, action)

    async def _apply(self, live: LiveTable, seat: int, action: Any) -> Outcome:
        rules = live.rules
        old_version = live.row.version
        try:
            events = rules.apply(live.state, seat, action)  # refused moves leave the state untouched
        except RuleError as e:
            return Outcome(False, e.key, rule=e.rule, params=e.params, table=live.row.id, version=old_version)
        status = "over" if rules.result(live.state).over else "running"
        snapshot = rules.encode_state(live.state).decode()
        live.row.version, live.row.status = old_version + 1, status  # what the clocks are set for
        clocks = self._turn_clocks(live)
        live.row.version, live.row.status = old_version, "running"
        result = None
        if status == "over":
            res = rules.result(live.state)
            result = store.ResultRow(table_id=live.row.id, chat_key=live.row.chat_key, game=live.row.game,
                                     ruleset=live.row.ruleset, reason=res.reason or "", seats=live.row.seats,
                                     winners=list(res.winners), scores={str(k): v for k, v in res.scores.items()})
        try:
            stored = await store.append_move(self.engine, live.row.id, old_version, seat,
                                             rules.encode_action(action).decode(), snapshot, status, clocks, result)
        except Exception:
            self._live.pop(live.row.id, None)  # the move is not stored: the database is right, not our copy
            raise
        if not stored:  # another process moved first: forget our copy, the database is right
            self._live.pop(live.row.id, None)
            return Outcome(False, "service.out_of_date", table=live.row.id)
        live.row.version = old_version + 1
        live.row.snapshot = snapshot
        live.row.status = status
        return Outcome(True, events=events, table=live.row.id, version=live.row.version)

    # -- clocks and AI seats ----------------------------------------------------------------------

    def _turn_clocks(self, live: LiveTable) -> list[store.DeadlineRow]:
        """A deadline per decision a person must make now (AI seats move at once instead)."""
        if live.row.status != "running":
            return []
        now = self.clock()
        out = []
        for decision in live.rules.waiting_for(live.state):
            if live.row.seats[decision.seat]["ai"]:
                continue
            seconds = live.row.clocks.get(decision.policy, DEFAULT_CLOCKS.get(decision.policy, 60))
            out.append(store.DeadlineRow(table_id=live.row.id, version=live.row.version, seat=decision.seat,
                                         kind=decision.kind, due_at=now + seconds))
        return out

    async def _back_in_person(self, live: LiveTable, seat: int) -> None:
        """A press by a player resets their missed clocks and takes back a seat the AI was keeping."""
        info = live.row.seats[seat]
        if live.row.missed.get(str(seat)) or (info["ai"] and not info["user"].startswith("ai:")):
            live.row.missed = {k: v for k, v in live.row.missed.items() if k != str(seat)}
            seats = [dict(s) for s in live.row.seats]
            seats[seat]["ai"] = info["user"].startswith("ai:")
            live.row.seats = seats
            await self._update_row(live.row.id, missed=live.row.missed, seats=seats)

    async def sweep(self) -> list[Outcome]:
        """Apply every clock that has run out, each exactly once (also across processes)."""
        outcomes = []
        for deadline in await store.due(self.engine, self.clock()):
            if not await store.claim(self.engine, deadline.id):
                continue  # another process took it
            outcomes.append(await self._expire(deadline))
        return outcomes

    async def _expire(self, deadline: store.DeadlineRow) -> Outcome:
        if deadline.schedule_id is not None:
            return await self._scheduled(deadline)
        if deadline.tournament_id is not None:
            from engine.service import tournaments  # the tournaments sit on top of this module

            return await tournaments.Tournaments(self).fire(deadline)
        async with self._lock(deadline.table_id):
            live = await self._load(deadline.table_id)
            if live is None or live.row.status != "running":
                return Outcome(False, "service.not_running", table=deadline.table_id)
            if deadline.kind == "match":  # D-16 / B-17: the match clock ends the game by valuation
                return await self._apply(live, SYSTEM, EndMatch(reason="time"))
            if deadline.version != live.row.version:
                return Outcome(False, "service.out_of_date", table=live.row.id)
            action = live.rules.timeout_action(live.state, deadline.seat)
            if action is None:
                return Outcome(False, "service.nothing_to_do", table=live.row.id)
            outcome = await self._apply(live, deadline.seat, action)
            if outcome.ok:
                missed = dict(live.row.missed)
                missed[str(deadline.seat)] = missed.get(str(deadline.seat), 0) + 1
                live.row.missed = missed
                seats = live.row.seats
                if missed[str(deadline.seat)] >= MISSES_BEFORE_AI and not seats[deadline.seat]["ai"]:
                    seats = [dict(s) for s in seats]
                    seats[deadline.seat]["ai"] = True  # three in a row: the AI keeps the seat warm
                    live.row.seats = seats
                    outcome.key = "service.ai_took_over"
                    outcome.params = {"seat": deadline.seat}
                await self._update_row(live.row.id, missed=missed, seats=seats)
            return outcome

    # -- chat settings, standings, scheduled matches ------------------------------------------------

    async def settings(self, chat_key: str) -> store.ChatSettingsRow:
        async with AsyncSession(self.engine) as session:
            row = await session.get(store.ChatSettingsRow, chat_key)
            return row or store.ChatSettingsRow(chat_key=chat_key)

    async def set_settings(self, chat_key: str, lang: str | None = None, rulesets: dict | None = None,
                           clocks: dict | None = None) -> Outcome:
        bad = [p for p, v in (clocks or {}).items() if p not in DEFAULT_CLOCKS or not 5 <= int(v) <= 3600]
        if bad:
            return Outcome(False, "service.bad_clock", params={"policies": ", ".join(sorted(DEFAULT_CLOCKS))})
        for game, ruleset in (rulesets or {}).items():
            if game not in GAMES or ruleset not in GAMES[game].rulesets:
                return Outcome(False, "service.unknown_ruleset", params={"ruleset": ruleset, "choices": ", ".join(
                    r for g in GAMES.values() for r in g.rulesets)})
        async with AsyncSession(self.engine) as session:
            row = await session.get(store.ChatSettingsRow, chat_key) or store.ChatSettingsRow(chat_key=chat_key)
            if lang is not None:
                row.lang = lang
            if rulesets:
                row.rulesets = {**row.rulesets, **rulesets}
            if clocks:
                row.clocks = {**row.clocks, **{k: int(v) for k, v in clocks.items()}}
            session.add(row)
            await session.commit()
        return Outcome(True)

    async def standings(self, chat_key: str, game: str | None = None) -> list[dict]:
        """Per player in a chat: games finished, wins (a shared win counts for each), best first."""
        async with AsyncSession(self.engine) as session:
            query = select(store.ResultRow).where(store.ResultRow.chat_key == chat_key)
            if game is not None:
                query = query.where(store.ResultRow.game == game)
            results = (await session.exec(query)).all()
        table: dict[str, dict] = {}
        for r in results:
            for i, seat in enumerate(r.seats):
                entry = table.setdefault(seat["user"], {"user": seat["user"], "name": seat["name"], "games": 0,
                                                         "wins": 0})
                entry["games"] += 1
                entry["wins"] += i in r.winners
        return sorted(table.values(), key=lambda e: (-e["wins"], e["games"], e["name"]))

    async def schedule(self, chat_key: str, admin: str, game: str, ruleset: str | None, start_at: float,
                       minutes: int, ai_fill: int = 0, announce_ahead: float = 15 * 60) -> Outcome:
        """Set up a timed match; the caller has checked that ``admin`` may (chat admins only)."""
        if game not in GAMES:
            return Outcome(False, "service.unknown_game", params={"game": game})
        rules = GAMES[game]
        ruleset = ruleset or rules.rulesets[0]
        if ruleset not in rules.rulesets:
            return Outcome(False, "service.unknown_ruleset", params={"ruleset": ruleset,
                                                                      "choices": ", ".join(rules.rulesets)})
        if start_at <= self.clock() or not 1 <= minutes <= 24 * 60:
            return Outcome(False, "service.bad_schedule")
        row = store.ScheduleRow(chat_key=chat_key, game=game, ruleset=ruleset, start_at=start_at, minutes=minutes,
                                ai_fill=min(ai_fill, rules.max_players), created_by=admin)
        async with AsyncSession(self.engine) as session:
            session.add(row)
            await session.commit()
            await session.refresh(row)
            schedule_id = row.id
            session.add(store.DeadlineRow(schedule_id=schedule_id, kind="announce",
                                          due_at=max(self.clock(), start_at - announce_ahead)))
            session.add(store.DeadlineRow(schedule_id=schedule_id, kind="begin", due_at=start_at))
            await session.commit()
        return Outcome(True, params={"schedule": schedule_id})

    async def sign_up(self, schedule_id: int, user: str, name: str) -> Outcome:
        async with AsyncSession(self.engine) as session:
            row = await session.get(store.ScheduleRow, schedule_id)
            if row is None or row.status not in ("scheduled", "open"):
                return Outcome(False, "service.no_schedule")
            if any(s["user"] == user for s in row.signup):
                return Outcome(False, "service.already_seated")
            if len(row.signup) >= GAMES[row.game].max_players:
                return Outcome(False, "service.table_full", params={"max": GAMES[row.game].max_players})
            row.signup = [*row.signup, {"user": user, "name": name}]
            session.add(row)
            await session.commit()
        return Outcome(True, params={"schedule": schedule_id})

    async def _scheduled(self, deadline: store.DeadlineRow) -> Outcome:
        async with AsyncSession(self.engine) as session:
            row = await session.get(store.ScheduleRow, deadline.schedule_id)
        if row is None or row.status == "cancelled":
            return Outcome(False, "service.no_schedule")
        if deadline.kind == "announce":
            await self._update_schedule(row.id, status="open")
            return Outcome(True, "service.match_announced", params={"schedule": row.id, "chat": row.chat_key,
                                                                     "game": row.game, "start_at": row.start_at})
        # begin: a table with whoever signed up, AI seats to fill, and the match clock
        rules = GAMES[row.game]
        seats = [{"user": s["user"], "name": s["name"], "ai": False} for s in row.signup]
        n = 0
        while len(seats) < max(row.ai_fill, rules.min_players if row.ai_fill else 0):
            n += 1
            seats.append({"user": f"ai:{n}", "name": f"AI {n}", "ai": True})
        if len(seats) < rules.min_players:
            await self._update_schedule(row.id, status="cancelled")
            return Outcome(False, "service.schedule_too_few", params={"schedule": row.id, "chat": row.chat_key,
                                                                       "min": rules.min_players})
        existing = await self.table_in_chat(row.chat_key)
        if existing is not None:  # a casual game is still going: it ends to make room
            await self._update_row(existing.id, status="cancelled")
            self._live.pop(existing.id, None)
        options = {"ruleset": row.ruleset, "match_minutes": row.minutes}
        table = store.TableRow(chat_key=row.chat_key, game=row.game, ruleset=row.ruleset, creator=row.created_by,
                               seats=seats)
        await self._insert_row(table)
        self._live[table.id] = LiveTable(row=table, rules=rules)
        await self._update_schedule(row.id, status="started", table_id=table.id)
        outcome = await self.start(table.id, row.created_by, match_minutes=row.minutes)
        outcome.key = "service.match_started"
        outcome.params = {"schedule": row.id, "chat": row.chat_key, "options": options}
        return outcome

    async def _update_schedule(self, schedule_id: int, **values: Any) -> None:
        async with AsyncSession(self.engine) as session:
            await session.exec(update(store.ScheduleRow).where(store.ScheduleRow.id == schedule_id).values(**values))
            await session.commit()

    async def run_ai(self, table_id: int, limit: int = 100_000) -> int:
        """Let every AI seat make the decisions it faces, until a person must act or the game ends."""
        moves = 0
        while moves < limit:
            live = await self._load(table_id)
            if live is None or live.row.status != "running":
                break
            decisions = [d for d in live.rules.waiting_for(live.state) if live.row.seats[d.seat]["ai"]]
            if not decisions:
                break
            seat = decisions[0].seat
            outcome = await self.act_as(table_id, seat, PLUGS[live.row.game].choose(live.state, seat))
            if not outcome.ok:
                break
            moves += 1
        return moves

    async def match_ends_at(self, table_id: int) -> float | None:
        """When the running match clock of a table runs out, if one runs."""
        async with AsyncSession(self.engine) as session:
            row = (await session.exec(select(store.DeadlineRow).where(
                store.DeadlineRow.table_id == table_id, store.DeadlineRow.kind == "match",
                store.DeadlineRow.status == "pending"))).first()
        return row.due_at if row else None

    async def live(self, table_id: int) -> LiveTable | None:
        """A table as the service holds it (loaded from the database when needed)."""
        return await self._load(table_id)

    def rules(self, table_id: int) -> GameRules | None:
        live = self._live.get(table_id)
        return live.rules if live else None

    def waiting_for(self, table_id: int) -> list:
        """The decisions a running table waits for (empty when it is not running)."""
        live = self._live.get(table_id)
        if live is None or live.state is None or live.row.status != "running":
            return []
        return live.rules.waiting_for(live.state)

    def state(self, table_id: int) -> Any:
        live = self._live.get(table_id)
        return live.state if live else None

    def table(self, table_id: int) -> store.TableRow | None:
        live = self._live.get(table_id)
        return live.row if live else None
