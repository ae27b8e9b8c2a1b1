"""Timed matches an admin sets up in a chat: announced ahead (players sign up), started at their
time with whoever signed up and AI seats to fill, ended by their match clock.

Both steps are clocks the service's sweep fires (``announce``, ``begin``). Starting is safe to
repeat: the table and the schedule's link to it are stored together, so a process that dies half
way leaves a table that the next try starts rather than a second one.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.games import GAMES
from engine.service.cache import LiveTable
from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.lobby import Lobby
from engine.service.outcome import Outcome, game_and_ruleset
from engine.service.storage.rows import DeadlineRow, ScheduleRow, TableRow

ANNOUNCE_AHEAD = 15 * 60


class Schedules:
    """Timed matches: announced, signed up for, started by their clocks."""

    def __init__(self, core: Core, lobby: Lobby, clocks: Clocks) -> None:
        self.core = core
        self.db = core.db
        self.lobby = lobby
        clocks.handle("schedule", self.fire)

    async def schedule(self, chat_key: str, admin: str, game: str, ruleset: str | None, start_at: float,
                       minutes: int, ai_fill: int = 0, announce_ahead: float = ANNOUNCE_AHEAD) -> Outcome:
        """Set up a timed match; the caller has checked that ``admin`` may (chat admins only)."""
        ruleset, refused = game_and_ruleset(game, ruleset)
        if refused:
            return refused
        if start_at <= self.core.clock() or not 1 <= minutes <= 24 * 60:
            return Outcome(False, "service.bad_schedule")
        row = ScheduleRow(chat_key=chat_key, game=game, ruleset=ruleset, start_at=start_at, minutes=minutes,
                                ai_fill=min(ai_fill, GAMES[game].rules.max_players), created_by=admin)
        async with AsyncSession(self.db) as session:
            session.add(row)
            await session.flush()
            schedule_id = row.id
            session.add(DeadlineRow(schedule_id=schedule_id, kind="announce",
                                          due_at=max(self.core.clock(), start_at - announce_ahead)))
            session.add(DeadlineRow(schedule_id=schedule_id, kind="begin", due_at=start_at))
            await session.commit()
        return Outcome(True, params={"schedule": schedule_id})

    async def chat_of(self, schedule_id: int) -> str | None:
        """The chat a scheduled match belongs to (its sign-up is pressed there only)."""
        async with AsyncSession(self.db) as session:
            row = await session.get(ScheduleRow, schedule_id)
        return row.chat_key if row is not None else None

    async def sign_up(self, schedule_id: int, user: str, name: str) -> Outcome:
        async with AsyncSession(self.db) as session:
            row = await session.get(ScheduleRow, schedule_id)
            if row is None or row.status not in ("scheduled", "open"):
                return Outcome(False, "service.no_schedule")
            if any(s["user"] == user for s in row.signup):
                return Outcome(False, "service.already_seated")
            if len(row.signup) >= GAMES[row.game].rules.max_players:
                return Outcome(False, "service.table_full", params={"max": GAMES[row.game].rules.max_players})
            row.signup = [*row.signup, {"user": user, "name": name}]
            session.add(row)
            await session.commit()
        return Outcome(True, params={"schedule": schedule_id})

    async def _update(self, schedule_id: int, **values: Any) -> None:
        async with AsyncSession(self.db) as session:
            await session.exec(update(ScheduleRow).where(ScheduleRow.id == schedule_id).values(**values))
            await session.commit()

    async def fire(self, deadline: DeadlineRow) -> Outcome:
        """A schedule's clock: announce the match, or begin it."""
        async with AsyncSession(self.db) as session:
            row = await session.get(ScheduleRow, deadline.schedule_id)
        if row is None or row.status == "cancelled":
            return Outcome(False, "service.no_schedule")
        if deadline.kind == "announce":
            await self._update(row.id, status="open")
            return Outcome(True, "service.match_announced", params={"schedule": row.id, "chat": row.chat_key,
                                                                     "game": row.game, "start_at": row.start_at})
        return await self._begin(row)

    async def _begin(self, row: ScheduleRow) -> Outcome:
        """A table with whoever signed up, AI seats to fill, and the match clock."""
        rules = GAMES[row.game].rules
        lobby = self.lobby
        table_id = row.table_id
        if table_id is None:
            seats = [{"user": s["user"], "name": s["name"], "ai": False} for s in row.signup]
            n = 0
            while len(seats) < max(row.ai_fill, rules.min_players if row.ai_fill else 0):
                n += 1
                seats.append({"user": f"ai:{n}", "name": f"AI {n}", "ai": True})
            if len(seats) < rules.min_players:
                await self._update(row.id, status="cancelled")
                return Outcome(False, "service.schedule_too_few", params={"schedule": row.id, "chat": row.chat_key,
                                                                           "min": rules.min_players})
            existing = await lobby.table_in_chat(row.chat_key)
            if existing is not None:  # a casual game is still going: it ends to make room
                await lobby.cancel(existing.id, existing.creator, is_admin=True)
            table = TableRow(chat_key=row.chat_key, game=row.game, ruleset=row.ruleset, creator=row.created_by,
                                   seats=seats, format=self.core.formats.for_new())
            async with AsyncSession(self.db) as session:  # the table and the schedule's link together
                session.add(table)
                await session.flush()
                table_id = table.id
                await session.exec(update(ScheduleRow).where(ScheduleRow.id == row.id)
                                   .values(status="started", table_id=table_id))
                await session.commit()
                await session.refresh(table)
            self.core.cache.put(LiveTable(row=table, rules=rules))
        outcome = await lobby.start(table_id, row.created_by, match_minutes=row.minutes, kick=False)
        if not outcome.ok and outcome.key != "service.no_lobby":  # no_lobby: a retry finds it started
            return outcome
        return Outcome(True, "service.match_started", table=table_id,
                       params={"schedule": row.id, "chat": row.chat_key,
                               "options": {"ruleset": row.ruleset, "match_minutes": row.minutes}})
