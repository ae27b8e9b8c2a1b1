"""How much room games take in the database (issue 46, for the README): seeded games played to
their end through the service on a fresh SQLite file, two people pressing what the AI would and an
AI seat, then the file's size (its write-ahead log folded in) over the games played.

``python -m tools.bench.space [games]``: per game kind, the bytes a finished game takes (its log,
snapshot, results and notes)."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from engine.games import GAMES
from engine.service.tables import GameService


async def _play(service: GameService, game: str, seed: int) -> int:
    out = await service.lobby.new_table(f"chat:{game}{seed}", game, None, "u0", "Ann")
    await service.lobby.join(out.table, "u1", "Bob")
    await service.lobby.add_ai(out.table, "u0")
    await service.lobby.start(out.table, "u0", seed=seed)
    plug, turns = GAMES[game], 0
    for _ in range(20000):
        await service.idle()
        row = service.cache.row(out.table)
        if row is None or row.status != "running":
            break
        state = service.cache.state(out.table)
        decision = plug.rules.waiting_for(state)[0]
        action = plug.choose_listed(state, decision.seat)
        token = next(t for a, t in service.buttons(out.table, decision.seat) if a == action)
        await service.act(row.seats[decision.seat]["user"], token)
        turns = plug.turn_of(state)
    return turns


async def figures(games: int = 3) -> dict:
    out = {}
    for game in ("deal", "board"):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "space.db"
            service = await GameService.open(f"sqlite:///{path}")
            empty = path.stat().st_size
            turns = [await _play(service, game, seed) for seed in range(games)]
            await service.close()  # the write-ahead log folded into the file
            out[f"{game}_bytes_per_game"] = (path.stat().st_size - empty) // games
            out[f"{game}_turns_per_game"] = sum(turns) // games
    return out


if __name__ == "__main__":
    for k, v in asyncio.run(figures(int(sys.argv[1]) if sys.argv[1:] else 3)).items():
        print(f"{k}: {v}")
