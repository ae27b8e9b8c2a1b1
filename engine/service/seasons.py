"""The end of a season (issue 48). A chat's season is a calendar month in UTC
(``ratings.season_scope``); on the first sweep in a new month, each chat that played rated games in
the month before is told its final standings, once across all processes (the first process to
store ``season.told.<chat>.<month>`` in ``settings`` tells it), and the new season starts by itself:
its ratings begin afresh, the chat's all-time ones go on.
"""

from __future__ import annotations

import time

from sqlalchemy import exc, text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.games import GAMES
from engine.service import ratings
from engine.service.outcome import Outcome

SHOWN = 10  # players in a season's final standings, per game


def previous(season: str) -> str:
    """The month before ``2026-12`` (``2026-11``)."""
    year, month = (int(x) for x in season.split("-"))
    return f"{year - 1}-12" if month == 1 else f"{year}-{month - 1:02d}"


class Seasons:
    def __init__(self, db: AsyncEngine) -> None:
        self.db = db
        self._checked: str | None = None  # the month this process has already looked at

    async def ended(self, now: float | None = None) -> list[Outcome]:
        """The final standings of the season that ended, for each chat not told yet (one notice a
        chat: ``ratings.season_over``, its ``standings`` per game as (name, rating, wins, games))."""
        season = ratings.season_of(time.time() if now is None else now)
        if season == self._checked:
            return []
        last = previous(season)
        async with self.db.connect() as conn:
            scopes = (await conn.execute(text("SELECT DISTINCT scope FROM ratings WHERE scope LIKE :s"),
                                         {"s": f"%@{last}"})).scalars().all()
        out = []
        for scope in sorted(scopes):
            chat = scope.rsplit("@", 1)[0]
            if not await self._claim(f"season.told.{chat}.{last}"):
                continue
            standings = {}
            for game in GAMES:
                best = await ratings.board(self.db, scope, game, SHOWN)
                if best:
                    standings[game] = [(r.name, round(r.shown, 1), r.wins, r.games) for r in best]
            out.append(Outcome(True, "ratings.season_over", params={"chat": chat, "season": last,
                                                                   "standings": standings}))
        self._checked = season
        return out

    async def _claim(self, key: str) -> bool:
        """Whether this process is the one to tell (it stored the key first)."""
        try:
            async with self.db.begin() as conn:
                await conn.execute(text("INSERT INTO settings (key, value) VALUES (:k, :v)"),
                                   {"k": key, "v": repr(time.time())})
        except exc.IntegrityError:
            return False
        return True
