"""What a chat keeps between games: its language, default rule sets and clocks, and its standings
(from the results of the games finished in it)."""

from __future__ import annotations

import time

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.games import GAMES
from engine.service import feats, ratings
from engine.service.clock_rules import DEFAULT_CLOCKS
from engine.service.outcome import Outcome
from engine.service.storage.rows import ChatSettingsRow, ResultRow

LANG_SECONDS = 30  # how long a process trusts the language it read for a chat (another may change it)


class Chats:
    def __init__(self, db) -> None:
        self.db = db
        self._langs: dict[str, tuple[str | None, float]] = {}  # chat -> (its language, read until)

    async def lang(self, chat_key: str) -> str | None:
        """The chat's chosen language (None: never chosen), read from the database at most every
        ``LANG_SECONDS``: every press and update asks for it, and it almost never changes."""
        held = self._langs.get(chat_key)
        if held is not None and held[1] > time.monotonic():
            return held[0]
        lang = (await self.settings(chat_key)).lang
        self._langs[chat_key] = (lang, time.monotonic() + LANG_SECONDS)
        return lang

    async def settings(self, chat_key: str) -> ChatSettingsRow:
        async with AsyncSession(self.db) as session:
            row = await session.get(ChatSettingsRow, chat_key)
            return row or ChatSettingsRow(chat_key=chat_key)

    async def set_settings(self, chat_key: str, lang: str | None = None, rulesets: dict | None = None,
                           clocks: dict | None = None) -> Outcome:
        bad = [p for p, v in (clocks or {}).items() if p not in DEFAULT_CLOCKS or not 5 <= int(v) <= 3600]
        if bad:
            return Outcome(False, "service.bad_clock", params={"policies": ", ".join(sorted(DEFAULT_CLOCKS))})
        for game, ruleset in (rulesets or {}).items():
            if game not in GAMES or ruleset not in GAMES[game].rules.rulesets:
                return Outcome(False, "service.unknown_ruleset", params={"ruleset": ruleset, "choices": ", ".join(
                    r for g in GAMES.values() for r in g.rules.rulesets)})
        async with AsyncSession(self.db) as session:
            row = await session.get(ChatSettingsRow, chat_key) or ChatSettingsRow(chat_key=chat_key)
            if lang is not None:
                row.lang = lang
            if rulesets:
                row.rulesets = {**row.rulesets, **rulesets}
            if clocks:
                row.clocks = {**row.clocks, **{k: int(v) for k, v in clocks.items()}}
            session.add(row)
            await session.commit()
        self._langs.pop(chat_key, None)  # this process sees its own change at once
        return Outcome(True)

    async def season_length(self, chat_key: str) -> str:
        """How long the chat's seasons last (``ratings.LENGTHS``; a tournament's table counts in its chat)."""
        length = (await self.settings(ratings.scope_of(chat_key))).season
        return length if length in ratings.LENGTHS else "month"

    async def season(self, chat_key: str, now: float | None = None) -> str | None:
        """The chat's season now (``2026-12``, ``2026-W49``, ``2026-Q4``; None: it has no seasons)."""
        return ratings.season_of(time.time() if now is None else now, await self.season_length(chat_key))

    async def set_season_length(self, chat_key: str, length: str) -> Outcome:
        """The chat's admins choose how long its seasons last (the caller checked who may); the
        season under way ends at once when it changes (``seasons.py`` tells its standings)."""
        if length not in ratings.LENGTHS:
            return Outcome(False, "ch.season.bad", params={"choices": ", ".join(ratings.LENGTHS)})
        async with AsyncSession(self.db) as session:
            key = ratings.scope_of(chat_key)
            row = await session.get(ChatSettingsRow, key) or ChatSettingsRow(chat_key=key)
            row.season = length
            session.add(row)
            await session.commit()
        return Outcome(True, params={"length": length})

    async def ratings(self, chat_key: str, game: str, season: str | None = None, limit: int = 10) -> list:
        """The chat's best ratings at ``game``, all time or of one ``season`` (``ratings.Rating``:
        name, shown, games, wins)."""
        scope = ratings.scope_of(chat_key) if season is None else ratings.season_scope(chat_key, season)
        return await ratings.board(self.db, scope, game, limit)

    async def profile(self, chat_key: str, user: str, game: str) -> dict[str, tuple | None]:
        """A player's rating at ``game`` with their rank: in this chat's season, all time, and
        everywhere (``ratings.standing``: (rating, rank, of), or None)."""
        season = await self.season(chat_key)
        scopes = {"chat": ratings.scope_of(chat_key), "everywhere": ratings.EVERYWHERE}
        if season is not None:
            scopes = {"season": ratings.season_scope(chat_key, season), **scopes}
        return {name: await ratings.standing(self.db, scope, game, user) for name, scope in scopes.items()}

    async def achievements(self, user: str, game: str | None = None) -> list[feats.Earned]:
        """The achievements a player has earned anywhere (``feats.py``), per game in catalogue order."""
        return await feats.of_player(self.db, user, game)

    async def recent(self, chat_key: str, user: str, count: int = 5) -> list[tuple[int, str, bool]]:
        """A player's latest finished games in this chat, newest first: (table, game, won)."""
        async with AsyncSession(self.db) as session:
            rows = (await session.exec(select(ResultRow).where(ResultRow.chat_key == chat_key)
                                       .order_by(ResultRow.id.desc()).limit(200))).all()
        out = []
        for r in rows:
            seat = next((i for i, s in enumerate(r.seats) if s["user"] == user), None)
            if seat is not None:
                out.append((r.table_id, r.game, seat in r.winners))
        return out[:count]

    async def standings(self, chat_key: str, game: str | None = None) -> list[dict]:
        """Per player in a chat: games finished, wins (a shared win counts for each), best first."""
        async with AsyncSession(self.db) as session:
            query = select(ResultRow).where(ResultRow.chat_key == chat_key)
            if game is not None:
                query = query.where(ResultRow.game == game)
            results = (await session.exec(query)).all()
        table: dict[str, dict] = {}
        for r in results:
            for i, seat in enumerate(r.seats):
                entry = table.setdefault(seat["user"], {"user": seat["user"], "name": seat["name"], "games": 0,
                                                         "wins": 0})
                entry["games"] += 1
                entry["wins"] += i in r.winners
        return sorted(table.values(), key=lambda e: (-e["wins"], e["games"], e["name"]))
