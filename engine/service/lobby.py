"""A table's life outside the moves: the lobby (join, leave, AI seats), the start, seats that change
hands during the game (a player leaves, the AI keeps the seat, the player comes back), the end by
cancellation, and the adapter's notes on a table (its public message ids, whether a player can be
sent private messages).

Each change that players should see is published by the table loop (``seats``, ``started``,
``cancelled``); each change of seats re-derives the table's clocks.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine import options as table_options
from engine.core.values import SYSTEM
from engine.games import GAMES, LEVELS
from engine.service import away, pace
from engine.service.cache import LiveTable
from engine.service.chats import Chats
from engine.service.clock_rules import DEFAULT_CLOCKS, wanted_clocks
from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.outcome import ACTIVE, IN_PROGRESS, Outcome, game_and_ruleset, is_ai_user
from engine.service.storage import formats, queries
from engine.service.storage.rows import DeadlineRow, TableRow


def runs(creator: str, seats: list, user: str, is_admin: bool = False) -> bool:
    """Whether ``user`` runs a lobby (adds and removes AI seats, starts it): the player who opened
    it, or a chat admin; once its opener has left it, the first person still seated."""
    if user == creator or is_admin:
        return True
    people = [s["user"] for s in seats if not s.get("ai")]
    return creator not in people and bool(people) and people[0] == user

class Lobby:
    """Tables before and around their game: open, join, leave, AI seats, rule options, start,
    cancel; a seat the AI kept taken back."""

    def __init__(self, core: Core, clocks: Clocks, chats: Chats) -> None:
        self.core = core
        self.db = core.db
        self.cache = core.cache
        self.clocks = clocks
        self.chats = chats

    async def _lobby(self, table_id: int) -> tuple[LiveTable | None, Outcome | None]:
        live = await self.cache.get(table_id)
        if live is None or live.row.status != "lobby":
            return None, Outcome(False, "service.no_lobby", table=table_id)
        return live, None

    async def table_in_chat(self, chat_key: str) -> TableRow | None:
        async with AsyncSession(self.db) as session:
            return (await session.exec(select(TableRow).where(
                TableRow.chat_key == chat_key, TableRow.status.in_(ACTIVE)))).first()

    async def damaged_in_chat(self, chat_key: str) -> TableRow | None:
        """The chat's newest table, when it is one set aside as damaged (nothing newer opened since)."""
        async with AsyncSession(self.db) as session:
            row = (await session.exec(select(TableRow).where(TableRow.chat_key == chat_key)
                                      .order_by(TableRow.id.desc()).limit(1))).first()
        return row if row is not None and row.status == "damaged" else None

    async def new_table(self, chat_key: str, game: str, ruleset: str | None, user: str, name: str,
                        options: dict | None = None) -> Outcome:
        """A lobby; ``options`` are the rule options chosen on ``/newgame`` (``engine.options``),
        kept on the row until the start."""
        ruleset, refused = game_and_ruleset(game, ruleset)
        if refused:
            return refused
        bad = table_options.check(game, options)
        if bad is not None:
            return Outcome(False, bad.key, params=bad.params)
        existing = await self.table_in_chat(chat_key)
        if existing is not None:
            return Outcome(False, "service.table_exists", params={"table": existing.id, "game": existing.game},
                           table=existing.id)
        chosen = table_options.effective(game, ruleset, options)
        defaults = table_options.ruleset_defaults(game, ruleset)
        row = TableRow(chat_key=chat_key, game=game, ruleset=ruleset, creator=user, format=self.core.formats.for_new(),
                             seats=[{"user": user, "name": name, "ai": False}],
                             options={k: v for k, v in chosen.items() if v != defaults[k]})
        await self.core.insert(row)
        self.cache.put(LiveTable(row=row, rules=GAMES[game].rules))
        return Outcome(True, table=row.id, version=0)

    async def set_up_like(self, table_id: int, ended, user: str, name: str, seed: int | None = None) -> None:
        """A rematch's lobby set up like the ended game (``ended``: its public view), by ``user`` who
        opened it (every platform's Rematch): one AI seat of the same level for each of its AI
        seats, the same timed match, the same pace of a slow game (its rule options came with
        ``new_table``)."""
        for seat in ended.seats:
            if not seat.person:
                await self.op(table_id, "ai" if seat.level in (None, "ai") else f"ai:{seat.level}", user, name,
                              seed=seed)
        minutes = (ended.options or {}).get("match_minutes")
        if isinstance(minutes, int) and minutes > 0:
            await self.set_match(table_id, user, minutes)
        if ended.pace:
            await self.set_pace(table_id, user, ended.pace // 3600)

    async def op(self, table_id: int, op: str, user: str, name: str, is_admin: bool = False,
                 seed: int | None = None) -> Outcome:
        """A lobby button or command, whatever the platform: join, leave, ai (``ai:<level>``: of a
        level), noai, cancel, start, or
        ``o:<code>`` (the creator switches a rule option, ``engine.options``), ``m:<minutes>`` (a timed
        match), ``p:<hours>`` (a slow game's pace, ``pace.py``)."""
        if op.startswith("o:"):
            return await self.toggle_option(table_id, user, op[2:])
        if op.startswith("m:") and op[2:].isdigit():
            return await self.set_match(table_id, user, int(op[2:]))
        if op.startswith("p:") and op[2:].isdigit():
            return await self.set_pace(table_id, user, int(op[2:]))
        ops = {"join": lambda: self.join(table_id, user, name), "leave": lambda: self.leave(table_id, user),
               "ai": lambda: self.add_ai(table_id, user, is_admin=is_admin),
               "noai": lambda: self.remove_ai(table_id, user, is_admin=is_admin),
               **{f"ai:{level}": (lambda level=level: self.add_ai(table_id, user, level, is_admin=is_admin))
                  for level in LEVELS},
               "cancel": lambda: self.cancel(table_id, user, is_admin=is_admin, name=name),
               "start": lambda: self.start(table_id, user, seed=seed, is_admin=is_admin)}
        if op not in ops:
            return Outcome(False, "service.bad_token", table=table_id)
        return await ops[op]()

    def _follow(self, row: TableRow) -> None:
        """Our copy takes what was just stored (seats, message ids), or is read again when the
        table moved on meanwhile."""
        live = self.cache.peek(row.id)
        if live is None:
            return
        if live.row.version == row.version and live.row.status == row.status:
            live.row.seats, live.row.missed, live.row.messages = row.seats, row.missed, row.messages
            live.row.options = row.options
        else:
            self.cache.drop(row.id)

    async def _change_lobby(self, table_id: int, decide, column: str = "seats") -> Outcome:
        """A change of a lobby's seats (or its chosen ``options``), decided on the column as stored
        now (the row locked), so that joins taken by two processes at once are both kept.
        ``decide(live, value)`` answers the new value (or None) and the outcome."""
        answer: list[Outcome] = []
        live, refused = await self._lobby(table_id)
        if refused:
            return refused

        def change(row: TableRow) -> dict | None:
            if row.status != "lobby":
                answer.append(Outcome(False, "service.no_lobby", table=table_id))
                return None
            stored = getattr(row, column)
            value, outcome = decide(live, [dict(s) for s in stored] if column == "seats" else dict(stored or {}))
            answer.append(outcome)
            return None if value is None else {column: value}

        row = await queries.modify_table(self.db, table_id, change, notify=self.core.owner)
        if row is None:
            self.cache.drop(table_id)
            return Outcome(False, "service.no_lobby", table=table_id)
        if row.status != "lobby":
            self.cache.drop(table_id)
        else:
            self._follow(row)
        return answer[0]

    async def join(self, table_id: int, user: str, name: str) -> Outcome:
        """A seat in the lobby; in a running game, a player whose seat the AI keeps takes it back."""
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            if live is not None and live.row.status == "running" and live.seat_of(user) is not None:
                return await self._back(live, user)

            def decide(live: LiveTable, seats: list) -> tuple[list | None, Outcome]:
                if any(s["user"] == user for s in seats):
                    return None, Outcome(False, "service.already_seated", table=table_id)
                if len(seats) >= live.rules.max_players:
                    return None, Outcome(False, "service.table_full", params={"max": live.rules.max_players},
                                         table=table_id)
                return [*seats, {"user": user, "name": name, "ai": False}], Outcome(True, table=table_id)

            return await self._change_lobby(table_id, decide)

    async def add_ai(self, table_id: int, user: str, level: str = "ai", is_admin: bool = False) -> Outcome:
        """An AI seat of ``level`` (``engine.games.LEVELS``: basic, ai, strong) at the lobby, added by
        whoever runs it (``runs``)."""
        def decide(live: LiveTable, seats: list) -> tuple[list | None, Outcome]:
            if not runs(live.row.creator, seats, user, is_admin):
                return None, Outcome(False, "service.host_only", table=table_id)
            if level not in LEVELS:
                return None, Outcome(False, "service.bad_ai_level", params={"choices": ", ".join(LEVELS)},
                                     table=table_id)
            if len(seats) >= live.rules.max_players:
                return None, Outcome(False, "service.table_full", params={"max": live.rules.max_players},
                                     table=table_id)
            taken = {s["user"] for s in seats}
            n = next(n for n in range(1, len(seats) + 2) if f"ai:{n}" not in taken)
            seat = {"user": f"ai:{n}", "name": f"AI {n}", "ai": True, "level": level}
            return [*seats, seat], Outcome(True, table=table_id)

        async with self.cache.lock(table_id):
            return await self._change_lobby(table_id, decide)

    async def remove_ai(self, table_id: int, user: str, is_admin: bool = False) -> Outcome:
        """Take the last AI seat out of a lobby (whoever runs it: ``runs``)."""
        def decide(live: LiveTable, seats: list) -> tuple[list | None, Outcome]:
            if not runs(live.row.creator, seats, user, is_admin):
                return None, Outcome(False, "service.host_only", table=table_id)
            ai_seats = [i for i, s in enumerate(seats) if s["ai"]]
            if not ai_seats:
                return None, Outcome(False, "service.no_ai_seat", table=table_id)
            return [s for i, s in enumerate(seats) if i != ai_seats[-1]], Outcome(True, table=table_id)

        async with self.cache.lock(table_id):
            return await self._change_lobby(table_id, decide)

    async def toggle_option(self, table_id: int, user: str, code: str) -> Outcome:
        """The table's creator switches one rule option (by its button code) before the start; the
        lobby message then shows it. Decided on the options as stored now, like a join."""
        def decide(live: LiveTable, chosen: dict) -> tuple[dict | None, Outcome]:
            row = live.row
            toggle = table_options.by_code(row.game, code)
            if toggle is None:
                return None, Outcome(False, "service.bad_token", table=table_id)
            if user != row.creator:
                return None, Outcome(False, "opt.creator_only", table=table_id)
            chosen = table_options.flipped(row.game, row.ruleset, chosen, toggle.name)
            value = table_options.effective(row.game, row.ruleset, chosen)[toggle.name]
            return chosen, Outcome(True, params={"option": toggle.name, "value": value}, table=table_id)

        async with self.cache.lock(table_id):
            return await self._change_lobby(table_id, decide, column="options")

    async def set_match(self, table_id: int, user: str, minutes: int) -> Outcome:
        """The creator makes the game a timed match of ``minutes`` (one of ``MATCH_MINUTES``; 0: no
        clock) before the start; the valuation ends it (B-17, D-16). Kept with the chosen options."""
        def decide(live: LiveTable, chosen: dict) -> tuple[dict | None, Outcome]:
            if minutes not in table_options.MATCH_MINUTES:
                return None, Outcome(False, "service.bad_token", table=table_id)
            if user != live.row.creator:
                return None, Outcome(False, "opt.creator_only", table=table_id)
            # a timed match is not a slow game: a pace chosen before goes (said to the creator)
            chosen, slow = pace.without_pace(chosen, live.row.game) if minutes else (chosen, False)
            params = {"minutes": minutes, **({"pace_off": True} if slow else {})}
            return {**(chosen or {}), "match_minutes": minutes}, Outcome(True, params=params, table=table_id)

        async with self.cache.lock(table_id):
            return await self._change_lobby(table_id, decide, column="options")

    async def set_pace(self, table_id: int, user: str, hours: int) -> Outcome:
        """The creator makes the game a slow one of ``hours`` a move (one of ``pace.PACE_HOURS``; 0: the
        chat's clocks) before the start; a timed match is turned off with it (``pace.py``). Kept with
        the chosen options until the start."""
        def decide(live: LiveTable, chosen: dict) -> tuple[dict | None, Outcome]:
            ready = live.row.format >= pace.FORMAT  # else a process of an older release still serves
            options, refused, params = pace.choose(live.row, user, hours, chosen, ready)
            if refused:
                return None, Outcome(False, refused, table=table_id)
            return options, Outcome(True, params=params, table=table_id)

        async with self.cache.lock(table_id):
            return await self._change_lobby(table_id, decide, column="options")

    async def leave(self, table_id: int, user: str) -> Outcome:
        """In the lobby the seat goes; in a running game the AI takes it over (not the end)."""
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            if live is None or live.row.status not in ("lobby", *IN_PROGRESS):
                return Outcome(False, "service.no_table", table=table_id)
            seat = live.seat_of(user)
            if seat is None:
                return Outcome(False, "service.not_a_player", table=table_id)
            if live.row.status == "lobby":
                def decide(_live: LiveTable, seats: list) -> tuple[list | None, Outcome]:
                    if not any(s["user"] == user for s in seats):
                        return None, Outcome(False, "service.not_a_player", table=table_id)
                    return [s for s in seats if s["user"] != user], Outcome(True, table=table_id)

                return await self._change_lobby(table_id, decide)
            if live.row.seats[seat]["ai"]:
                return Outcome(True, table=table_id)  # already kept by the AI
            note = Outcome(True, "service.seat_left", params={"seat": seat})
            await self.change_seats(live, seat, lambda s: {**s, "ai": True}, note)
            live = self.cache.peek(table_id)
            if live is not None:  # the last person left: the table waits for someone to come back
                await away.pause(self.core, live)
            return Outcome(True, "service.seat_left", params={"seat": seat}, table=table_id)

    async def back(self, table_id: int, user: str) -> Outcome:
        """A player whose seat the AI kept (they left, or missed three clocks) plays it again."""
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            if live is None or live.row.status not in IN_PROGRESS:
                return Outcome(False, "service.not_running", table=table_id)
            if live.seat_of(user) is None:
                return Outcome(False, "service.not_a_player", table=table_id)
            return await self._back(live, user)

    async def _back(self, live: LiveTable, user: str) -> Outcome:
        seat = live.seat_of(user)
        if not live.row.seats[seat]["ai"] or is_ai_user(user):
            return Outcome(False, "service.already_seated", table=live.row.id)
        note = Outcome(True, "service.seat_back", params={"seat": seat})
        resumed = await away.resume(self.core, live)  # a table that waited for someone: it plays on
        await self.change_seats(live, seat, lambda s: {**s, "ai": False}, note)
        if resumed:
            self.core.outbox.kick(live.row.id, kind="resumed")
        return Outcome(True, "service.seat_back", params={"seat": seat}, table=live.row.id)

    async def change_seats(self, live: LiveTable, seat: int, edit, note: Outcome) -> None:
        """Change one seat of a game in progress (the caller holds the table's lock): ``edit(seat)``
        gives the new seat, applied to the seats as stored now; its missed clocks are forgotten, the
        clocks re-derived (an AI seat answers at once, a person gets their clock), and the loop
        settles and shows it."""
        before = self.core.outbox.asked_now(live)

        def change(row: TableRow) -> dict:
            seats = [dict(s) for s in row.seats]
            seats[seat] = edit(seats[seat])
            return {"seats": seats, "missed": {k: v for k, v in (row.missed or {}).items() if k != str(seat)}}

        row = await queries.modify_table(self.db, live.row.id, change, notify=self.core.owner)
        if row is None:
            return
        self._follow(row)
        live = self.cache.peek(live.row.id) or await self.cache.get(live.row.id)
        if live is None:
            return
        await self.clocks.reconcile(live)
        self.core.outbox.kick(live.row.id, notes=[note], kind="seats", before=before)

    async def start(self, table_id: int, user: str, seed: int | None = None, match_minutes: int = 0,
                    options: dict | None = None, turn_cap: int = 0, kick: bool = True,
                    is_admin: bool = False) -> Outcome:
        """Deal and go: the state, its clocks and the match clock are stored in one transaction,
        only if the table is still a lobby (two presses of Start, two processes: one game).
        ``kick`` False leaves showing the table to the caller (a tournament round announces
        itself first)."""
        async with self.cache.lock(table_id):
            live, refused = await self._lobby(table_id)
            if refused:
                return refused
            if not runs(live.row.creator, live.row.seats, user, is_admin):
                return Outcome(False, "service.host_only", table=table_id)
            if len(live.row.seats) < live.rules.min_players:
                return Outcome(False, "service.too_few", params={"min": live.rules.min_players}, table=table_id)
            seed = secrets.randbits(63) if seed is None else seed
            # the lobby's chosen options as stored now (another process may have switched one),
            # then the caller's (a tournament round's)
            stored = await queries.modify_table(self.db, table_id, lambda _row: None)
            chosen = stored.options if stored is not None and stored.status == "lobby" else live.row.options
            chosen = dict(chosen or {})
            hours = chosen.pop("pace", 0)  # the service's, not the rules': the table's clocks (``pace.py``)
            options = {"ruleset": live.row.ruleset, **(chosen or {}), **(options or {}),
                       **({"match_minutes": match_minutes} if match_minutes else {}),
                       **formats.rules_of(live.row.game, live.row.format)}  # what its format plays by
            state = live.rules.new_game(len(live.row.seats), options, seed)
            chat = await self.chats.settings(live.row.chat_key)
            clocks = {**DEFAULT_CLOCKS, **chat.clocks, **(live.row.clocks or {})}
            card = getattr(state.options, "card_seconds", 0)
            if card:
                clocks["card"] = card
            now = self.core.clock()
            minutes = getattr(state.options, "match_minutes", 0)
            slow = None  # a slow game: every clock at its pace, its first daily summary a day on
            if isinstance(hours, int) and hours in pace.PACE_HOURS and hours and not minutes and not card:
                clocks, slow = pace.started(hours * 3600, clocks, now)
            values = dict(seed=seed, snapshot=live.rules.encode_state(state).decode(), status="running",
                          clocks=clocks, options=options, turn_cap=turn_cap, slow=slow)
            trial = LiveTable(row=TableRow(**{**live.row.model_dump(), **values}), rules=live.rules, state=state)
            match = [DeadlineRow(table_id=table_id, version=0, seat=SYSTEM, kind="match",
                                       due_at=now + 60 * minutes)] if minutes else []
            if not await queries.start_table(self.db, table_id, values, match + wanted_clocks(trial, now),
                                           notify=self.core.owner):
                self.cache.drop(table_id)  # another process started it first
                return Outcome(False, "service.no_lobby", table=table_id)
            for key, value in values.items():
                setattr(live.row, key, value)
            live.state = state
            live.clocks = await queries.open_clocks(self.db, table_id)
            self.cache.put(live)
            if kick:
                self.core.outbox.kick(table_id, kind="started")
            return Outcome(True, table=table_id, version=live.row.version)

    async def may_cancel(self, table_id: int, user: str, is_admin: bool = False) -> Outcome:
        """Whether ``user`` may end this table (asked before the "are you sure?" question, so that
        someone who may not is told at once instead of after answering yes)."""
        live = await self.cache.get(table_id)
        if live is None or live.row.status not in ACTIVE:
            return Outcome(False, "service.no_table", table=table_id)
        if user != live.row.creator and not is_admin:
            return Outcome(False, "service.not_creator", table=table_id)
        return Outcome(True, table=table_id)

    async def cancel(self, table_id: int, user: str, is_admin: bool = False, name: str = "") -> Outcome:
        """End a lobby or a running game: its creator or a chat admin (the adapter checks who is;
        ``name`` is who they are, for the table's last message)."""
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            if live is None or live.row.status not in ACTIVE:
                return Outcome(False, "service.no_table", table=table_id)
            if user != live.row.creator and not is_admin:
                return Outcome(False, "service.not_creator", table=table_id)
            was = live.row.status
            await queries.end_table(self.db, table_id, "cancelled", notify=self.core.owner)
            live.row.status = "cancelled"
            live.clocks = []
            if was == "running":
                by = name or next((seat["name"] for seat in live.row.seats if seat["user"] == user), "?")
                self.core.outbox.kick(table_id, notes=[Outcome(True, "service.ended_by", params={"by": by})],
                                       kind="cancelled")
            else:
                self.cache.retire(live)
            return Outcome(True, table=table_id)

    async def set_messages(self, table_id: int, **messages: Any) -> None:
        """Remember some of the adapter's message ids (edited in place, found again after a restart),
        keeping what another process stored under other keys."""
        merged = await queries.merge_messages(self.db, table_id, messages)
        live = self.cache.peek(table_id)
        if live is not None and merged is not None:
            live.row.messages = merged

    async def swap_message(self, table_id: int, key: str, old: Any, new: Any) -> Any:
        """``new`` under ``key`` if it still holds ``old``; what the key holds afterwards."""
        held = await queries.swap_message(self.db, table_id, key, old, new)
        live = self.cache.peek(table_id)
        if live is not None:  # what is stored now, whoever won
            live.row.messages = {**(live.row.messages or {}), key: held}
        return held

    async def set_dm(self, table_id: int, user: str, reachable: bool) -> None:
        """Whether the bot can send this player private messages (else the adapter falls back)."""
        async with self.cache.lock(table_id):
            def change(row: TableRow) -> dict | None:
                seats = [dict(s) for s in row.seats]
                for s in seats:
                    if s["user"] == user and s.get("dm") is not reachable:
                        s["dm"] = reachable
                        return {"seats": seats}
                return None

            row = await queries.modify_table(self.db, table_id, change)
            if row is not None:
                self._follow(row)
