"""A player's record (issue 48), for their profile page: per game, how many games they finished and
won, their current and best run of wins, everywhere and in each chat they played in, with their
ratings and ranks (``ratings.standing``: this chat's season, the chat all time, every chat), and
their latest games.

Games and wins count every finished game the player sat in (``results``), against people or the
AI, a shared win a win; a rating counts only the rated ones (``ratings.placings``). A streak is a
run of wins in a row, oldest to newest by when the games finished: the current one ends with the
latest game (0 when it was lost), the best is the longest ever.

Chats are the ratings' scopes (``ratings.scope_of``: a tournament's tables count for their chat);
every web table is its own chat (``web:…``), so those are counted together as one place, "the web",
without a chat's ratings.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from sqlalchemy import String, cast
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service import ratings
from engine.service.storage.rows import ResultRow

WEB = "web"  # every web table's chat, counted as one place


def streaks(won: Iterable[bool]) -> tuple[int, int]:
    """(current, best) runs of wins in ``won`` (oldest first): the run the last game ends, and the
    longest."""
    current = best = 0
    for w in won:
        current = current + 1 if w else 0
        best = max(best, current)
    return current, best


@dataclass
class Record:
    games: int = 0
    wins: int = 0
    streak: int = 0
    best_streak: int = 0


def record(won: list[bool]) -> Record:
    """Games, wins and streaks of a player's games in order (``True``: won)."""
    current, best = streaks(won)
    return Record(len(won), sum(won), current, best)


def place_of(chat_key: str) -> str:
    """Where a result counts in a profile: its chat (the ratings' scope), the web's tables as one."""
    scope = ratings.scope_of(chat_key)
    return WEB if scope.startswith("web:") else scope


def seat_of(result: ResultRow, user: str) -> int | None:
    return next((i for i, s in enumerate(result.seats) if s.get("user") == user), None)


async def results_of(db: AsyncEngine, user: str) -> list[ResultRow]:
    """Every finished game ``user`` sat in, oldest first (by when it finished, then by id)."""
    # the seats are JSON: the rows that name the user somewhere are found by their text, then checked
    named = f"%{json.dumps(user)}%"
    async with AsyncSession(db) as session:
        rows = (await session.exec(select(ResultRow).where(cast(ResultRow.seats, String).like(named))
                                   .order_by(ResultRow.finished_at, ResultRow.id))).all()
    return [r for r in rows if seat_of(r, user) is not None]


def _standing(found: tuple | None) -> dict | None:
    if found is None:
        return None
    rating, rank, of = found
    return {"rating": round(rating.shown, 1), "rank": rank, "of": of, "games": rating.games, "wins": rating.wins}


async def profile(db: AsyncEngine, user: str, now: float | None = None, recent: int = 10) -> dict:
    """A player's record, as plain data::

        {"user", "name", "games": [{"game", "everywhere": {games, wins, streak, best_streak, "rating"},
                                    "chats": [{"place", games, wins, streak, best_streak, "season", "rating"}]}],
         "recent": [{"table", "game", "place", "won", "players", "finished_at"}]}

    where each ``rating`` (every chat's, the chat's all time) and ``season`` (the chat's this month)
    is ``{"rating", "rank", "of", "games", "wins"}`` or None (unrated there; none for the web's
    place). Games most played first; a game's chats most played first; the latest games newest first.
    """
    now = time.time() if now is None else now
    season = ratings.season_of(now)
    results = await results_of(db, user)
    name = next((s.get("name", "") for r in reversed(results) for s in r.seats if s.get("user") == user), "")
    by_game: dict[str, list[ResultRow]] = {}
    for r in results:
        by_game.setdefault(r.game, []).append(r)
    games = []
    for game, rows in sorted(by_game.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        won = [seat_of(r, user) in r.winners for r in rows]
        everywhere = {**asdict(record(won)),
                      "rating": _standing(await ratings.standing(db, ratings.EVERYWHERE, game, user))}
        places: dict[str, list[bool]] = {}
        for r, w in zip(rows, won, strict=True):
            places.setdefault(place_of(r.chat_key), []).append(w)
        chats = []
        for place, of_place in sorted(places.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            rated = place != WEB
            chats.append({"place": place, **asdict(record(of_place)),
                          "season": _standing(await ratings.standing(db, ratings.season_scope(place, season), game,
                                                                     user)) if rated else None,
                          "rating": _standing(await ratings.standing(db, place, game, user)) if rated else None})
        games.append({"game": game, "everywhere": everywhere, "chats": chats})
    latest = [{"table": r.table_id, "game": r.game, "place": place_of(r.chat_key), "won": seat_of(r, user) in r.winners,
               "players": len(r.seats), "finished_at": r.finished_at} for r in reversed(results[-recent:])]
    return {"user": user, "name": name, "games": games, "recent": latest}
