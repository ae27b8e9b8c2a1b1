"""Achievements in the service (issue 48): each finished game's feats, worked out once from its
stored log (``engine.play.history.game_story``: the game replayed from its seed, so a restart, a
second process or a rebuild awards exactly the same), kept with its result (``results.feats``) and
counted per player, game and feat (``achievements``: how often, and where first).

Only people who held their seat at the end earn them (as for ratings, ``ratings.placings``): an AI
seat, and a seat the AI kept at the end, do not. Results are awarded after the game's end message
is out (the loop's finished hook, then start-up for what a stopped process left): the message
names the feats from the same replay, so it never waits for this.

**Once across processes**: a result's feats are stored and counted in one transaction that first
claims the result (``awarded`` 0 -> 1); a process that finds it claimed stores nothing.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from sqlalchemy import JSON, bindparam, text
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.games import GAMES
from engine.play.history import Story, game_story
from engine.service.outcome import is_ai_user
from engine.service.storage import queries
from engine.service.storage.rows import AchievementRow, ResultRow, TableRow

BATCH = 20  # results awarded a call: a backlog is worked through over several game ends


def earners(seats: list[dict]) -> set[int]:
    """The seats whose feats count: people who held them at the end."""
    return {i for i, s in enumerate(seats) if not is_ai_user(s.get("user", "")) and not s.get("ai")}


async def story(db: AsyncEngine, row: TableRow, upto: int | None = None) -> Story:
    """A table's game replayed from its stored log (up to version ``upto``): its worth series and feats."""
    rules = GAMES[row.game].rules
    entries = [e for e in await queries.load_log(db, row.id) if upto is None or e.seq <= upto]
    log = [(e.seat, rules.decode_action(e.action)) for e in entries]
    return await asyncio.to_thread(game_story, rules, len(row.seats), row.options or row.ruleset, row.seed, log)


@dataclass(frozen=True)
class Earned:
    """A feat a player has: how often and where first."""

    game: str
    key: str
    count: int
    first_table: int
    first_at: float


async def award_pending(db: AsyncEngine, now: float | None = None) -> int:
    """The feats of finished games not awarded yet (up to ``BATCH``, oldest first); how many
    results this process awarded."""
    async with AsyncSession(db) as session:
        pending = (await session.exec(select(ResultRow).where(ResultRow.awarded == 0)
                                      .order_by(ResultRow.id).limit(BATCH))).all()
        tables = {r.table_id: await session.get(TableRow, r.table_id) for r in pending}
    done = 0
    for result in pending:
        row = tables.get(result.table_id)
        feats: dict[str, list[str]] = {}
        if row is not None and row.game in GAMES:
            found = (await story(db, row)).feats
            feats = {str(seat): list(keys) for seat, keys in found.items() if keys and seat in earners(result.seats)}
        done += await _store(db, result, feats, time.time() if now is None else now)
    return done


async def _store(db: AsyncEngine, result: ResultRow, feats: dict[str, list[str]], now: float) -> int:
    async with db.begin() as conn:
        claim = text("UPDATE results SET awarded = 1, feats = :f WHERE id = :id AND awarded = 0").bindparams(
            bindparam("f", type_=JSON))
        claimed = await conn.execute(claim, {"f": feats, "id": result.id})
        if claimed.rowcount != 1:  # another process awarded it
            return 0
        for seat, keys in feats.items():
            player = result.seats[int(seat)]
            for key in keys:
                await conn.execute(text(
                    'INSERT INTO achievements ("user", game, "key", name, count, first_table, first_at, last_at) '
                    'VALUES (:user, :game, :key, :name, 1, :table, :now, :now) '
                    'ON CONFLICT ("user", game, "key") DO UPDATE SET count = achievements.count + 1, '
                    'name = excluded.name, last_at = excluded.last_at'),
                    {"user": player["user"], "game": result.game, "key": key, "name": player.get("name", ""),
                     "table": result.table_id, "now": now})
    return 1


async def of_player(db: AsyncEngine, user: str, game: str | None = None) -> list[Earned]:
    """The feats a player has, per game in its catalogue's order."""
    async with AsyncSession(db) as session:
        query = select(AchievementRow).where(AchievementRow.user == user)
        if game is not None:
            query = query.where(AchievementRow.game == game)
        rows = (await session.exec(query)).all()
    order = {(g, k): i for g, spec in GAMES.items() if spec.feats for i, k in enumerate(spec.feats.keys)}
    rows = sorted(rows, key=lambda r: (r.game, order.get((r.game, r.key), 999), r.key))
    return [Earned(r.game, r.key, r.count, r.first_table, r.first_at) for r in rows]
