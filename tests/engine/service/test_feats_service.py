"""Issue 48: the achievements of finished games, worked out once from the stored log, kept with the
result, counted per player; people only; once across processes (two services on one database)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service import feats
from engine.service.storage.rows import AchievementRow, ResultRow, TableRow
from engine.service.tables import GameService
from tests.engine.service.test_ratings import _play


async def _results(service: GameService) -> list[ResultRow]:
    async with AsyncSession(service.db) as session:
        return list((await session.exec(select(ResultRow).order_by(ResultRow.id))).all())


async def _counts(service: GameService) -> dict[tuple[str, str, str], int]:
    async with AsyncSession(service.db) as session:
        return {(r.user, r.game, r.key): r.count for r in (await session.exec(select(AchievementRow))).all()}


def _expected(results: list[ResultRow]) -> dict[tuple[str, str, str], int]:
    out: dict[tuple[str, str, str], int] = {}
    for r in results:
        for seat, keys in (r.feats or {}).items():
            for key in keys:
                k = (r.seats[int(seat)]["user"], r.game, key)
                out[k] = out.get(k, 0) + 1
    return out


async def test_each_finished_game_awards_what_its_log_shows_once(db_url):
    service = await GameService.open(db_url)
    try:
        for n, users in enumerate((["u0", "u1"], ["u0", "u1", "u2"], ["u1", "u2"])):
            await _play(service, "tg:1", users, seed=40 + n)
        await asyncio.wait_for(service.idle(), 60)
        results = await _results(service)
        assert [r.awarded for r in results] == [1, 1, 1], "the finished hook awarded each game"
        earned = 0
        for r in results:
            async with AsyncSession(service.db) as session:
                row = await session.get(TableRow, r.table_id)
            replayed = (await feats.story(service.db, row)).feats  # the log alone gives the same
            assert r.feats == {str(s): keys for s, keys in replayed.items() if keys}, r.table_id
            earned += sum(len(keys) for keys in r.feats.values())
        assert earned > 0, "these seeded games earn achievements"
        counts = await _counts(service)
        assert counts == _expected(results)
        assert await feats.award_pending(service.db) == 0, "nothing is awarded twice"
        mine = await service.chats.achievements("u0")
        assert {(e.game, e.key): e.count for e in mine} == {(g, k): c for (u, g, k), c in counts.items() if u == "u0"}
    finally:
        await service.close()


async def test_ai_seats_earn_nothing_and_two_processes_award_a_game_once(db_url):
    service = await GameService.open(db_url)
    second = await GameService.open(db_url)
    try:
        out = await service.lobby.new_table("tg:2", "deal", None, "u0", "u0")
        assert (await service.lobby.join(out.table, "u1", "u1")).ok
        await service.lobby.add_ai(out.table, "u0")
        await service.lobby.add_ai(out.table, "u0")
        assert (await service.lobby.start(out.table, "u0", seed=7)).ok
        from tests.engine.service.test_service import step
        while await step(service, out.table):
            pass
        await asyncio.wait_for(service.idle(), 60)
        [result] = [r for r in await _results(service) if r.table_id == out.table]
        people = {i for i, s in enumerate(result.seats) if not s["ai"]}
        assert result.awarded == 1 and set(map(int, result.feats)) <= people
        async with AsyncSession(service.db) as session:
            row = await session.get(TableRow, out.table)
        replayed = (await feats.story(service.db, row)).feats
        assert any(keys for s, keys in replayed.items() if s not in people), "the AI seats earned some in play"
        assert all(str(s) not in result.feats for s in replayed if s not in people), "but are given none"
        # both processes find the game unawarded at once: it is counted once
        async with service.db.begin() as conn:
            await conn.execute(text("UPDATE results SET awarded = 0, feats = NULL WHERE table_id = :t"),
                               {"t": out.table})
            await conn.execute(text('DELETE FROM achievements'))
        done = await asyncio.gather(feats.award_pending(service.db), feats.award_pending(second.db))
        assert sorted(done) == [0, 1], done
        after = await _counts(service)
        assert after == _expected(await _results(service))
        assert sum(after.values()) == sum(len(v) for v in result.feats.values())
    finally:
        await second.close()
        await service.close()
