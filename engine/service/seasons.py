"""The end of a season (issue 48). A chat's season lasts what its admins chose (``ratings.LENGTHS``:
a calendar month in UTC unless they chose a week, a quarter, or none); its ratings are kept under
``<chat>@<season>`` (``ratings.season_scope``). A season is over once it is not the chat's current
one: its time ran out, or the admins changed the length or turned seasons off. The chat is then
told its final standings once across all processes (the first process to store
``season.told.<chat>.<season>`` in ``settings`` tells it), and the new season starts by itself:
its ratings begin afresh, the chat's all-time ones go on.

Looked at on the first sweep and then every ``CHECK_EVERY`` seconds: a season's end is told within
minutes, and a sweep (every second) costs no query.
"""

from __future__ import annotations

import time

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.games import GAMES
from engine.service import ratings
from engine.service.outcome import Outcome
from engine.service.storage import keyvalue

SHOWN = 10  # players in a season's final standings, per game
CHECK_EVERY = 300.0  # seconds between two looks for seasons that ended
RECENT = 120 * 86400  # seasons whose ratings last moved longer ago than this were told long ago (or never: too late)


def previous(season: str) -> str:
    """The month before ``2026-12`` (``2026-11``)."""
    year, month = (int(x) for x in season.split("-"))
    return f"{year - 1}-12" if month == 1 else f"{year}-{month - 1:02d}"


class Seasons:
    def __init__(self, db: AsyncEngine) -> None:
        self.db = db
        self._next = 0.0  # the clock's time of this process's next look

    async def ended(self, now: float | None = None) -> list[Outcome]:
        """The final standings of each season that is over and not told yet, one notice a season:
        ``ratings.season_over`` with its ``chat``, ``season``, ``length`` and ``standings`` per game as
        (name, rating, wins, games)."""
        now = time.time() if now is None else now
        if now < self._next:
            return []
        self._next = now + CHECK_EVERY
        async with self.db.connect() as conn:
            scopes = (await conn.execute(text(
                "SELECT scope FROM ratings WHERE scope LIKE '%@%' GROUP BY scope HAVING MAX(updated_at) > :since"),
                {"since": now - RECENT})).scalars().all()
            told = set((await conn.execute(text("SELECT key FROM settings WHERE key LIKE 'season.told.%'")))
                       .scalars().all())
            lengths = dict((await conn.execute(text("SELECT chat_key, season FROM chat_settings"))).all())
        out = []
        for scope in sorted(scopes):
            chat, season = scope.rsplit("@", 1)
            length = lengths.get(chat) if lengths.get(chat) in ratings.LENGTHS else "month"
            key = f"season.told.{chat}.{season}"
            if season == ratings.season_of(now, length) or key in told or not await keyvalue.claim_value(
                    self.db, key, repr(now)):
                continue
            standings = {}
            for game in GAMES:
                best = await ratings.board(self.db, scope, game, SHOWN)
                if best:
                    standings[game] = [(r.name, round(r.shown, 1), r.wins, r.games) for r in best]
            out.append(Outcome(True, "ratings.season_over", params={
                "chat": chat, "season": season, "length": length, "standings": standings}))
        return out
