"""What a game's end costs the service (issue 48): the end message's replay of the log (the
net-worth chart and the achievements), the ratings moved (``ratings.rate_pending``) and the
achievements stored (``feats.award_pending``), per finished game, medians in ms.

Workload: seeded games of both kinds between two people (their moves chosen by the AI and
pressed as buttons, so the games are rated), played to their end through the service on SQLite.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time

from engine.games import GAMES
from engine.service import feats, ratings
from engine.service.tables import GameService


async def _play(service: GameService, game: str, seed: int, turn_cap: int) -> int:
    out = await service.lobby.new_table(f"bench:end:{seed}", game, None, "p0", "P0")
    await service.lobby.join(out.table, "p1", "P1")
    await service.lobby.start(out.table, "p0", seed=seed, turn_cap=turn_cap)
    rules = GAMES[game].rules
    while True:
        await service.idle()
        row = service.cache.row(out.table)
        decisions = rules.waiting_for(service.cache.state(out.table)) if row.status == "running" else []
        if not decisions:
            return out.table
        seat = decisions[0].seat
        action = GAMES[game].choose_listed(service.cache.state(out.table), seat)
        token = next(t for a, t in service.buttons(out.table, seat) if a == action)
        await service.act(row.seats[seat]["user"], token)


TURN_CAP = 100  # a board game between two people ends here by valuation (B-17), if not before


def bench_game_end(games: int = 6, seed: int = 480) -> dict:
    async def run(path: str) -> dict:
        service = await GameService.open(f"sqlite:///{path}")
        figures: dict[str, dict[str, list[float]]] = {}
        moves: dict[str, list[int]] = {}  # each game's length in stored moves (what the replay goes through)
        try:
            for n in range(games):
                game = "deal" if n % 2 else "board"
                table = await _play(service, game, seed + n, turn_cap=TURN_CAP)
                await service.idle()
                # what the hooks already did at the end is undone so that it is measured here
                async with service.db.begin() as conn:
                    await conn.exec_driver_sql("UPDATE results SET awarded = 0, rated = 0 WHERE table_id = ?",
                                               (table,))
                times = figures.setdefault(game, {"story": [], "ratings": [], "feats": []})
                moves.setdefault(game, []).append(service.cache.row(table).version)
                t0 = time.perf_counter()
                await service.seen.story(table)
                t1 = time.perf_counter()
                await ratings.rate_pending(service.db)
                t2 = time.perf_counter()
                await feats.award_pending(service.db)
                t3 = time.perf_counter()
                times["story"].append((t1 - t0) * 1000)
                times["ratings"].append((t2 - t1) * 1000)
                times["feats"].append((t3 - t2) * 1000)
        finally:
            await service.close()
        out = {}
        for game, times in figures.items():
            for part, values in times.items():
                out[f"game_end_{game}_{part}_median_ms"] = round(statistics.median(values), 1)
            total = [sum(v) for v in zip(*times.values(), strict=True)]
            out[f"game_end_{game}_total_median_ms"] = round(statistics.median(total), 1)
            out[f"game_end_{game}_moves_median"] = statistics.median(moves[game])
        return out

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(f"{tmp}/end.db"))
