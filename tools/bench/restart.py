"""``tycoon bench``'s restart figure (issue 32): how long after a process starts on a database with
thousands of games in progress its first clock fires, when it restores them lazily (as the bots and
the web table do: the tables are rebuilt in the background) and when it restores them all first.

One Deal table is played a few dozen moves, then copied in SQL into ``tables`` games in progress
(row, action log, clocks); only the first table's clock is due when the process starts again.
"""

from __future__ import annotations

import asyncio
import tempfile
import time

from engine.games import GAMES


class _Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def _template(url: str, clock: _Clock, moves: int = 40) -> int:
    """One running Deal table between two people, ``moves`` presses in; its id."""
    from engine.service.tables import GameService

    service = await GameService.open(url, clock)
    try:
        out = await service.lobby.new_table("bench:0", "deal", None, "u0", "Ann")
        await service.lobby.join(out.table, "u1", "Bob")
        await service.lobby.start(out.table, "u0", seed=5)
        for _ in range(moves):
            await service.idle()
            if service.cache.row(out.table).status != "running":
                break
            seat = service.cache.waiting_for(out.table)[0].seat
            action = GAMES["deal"].choose_listed(service.cache.state(out.table), seat)
            token = next(tok for a, tok in service.buttons(out.table, seat) if a == action)
            await service.act(service.cache.row(out.table).seats[seat]["user"], token)
        await service.idle()
        return out.table
    finally:
        await service.close()


async def _copies(url: str, template: int, count: int, far: float) -> None:
    """``count`` - 1 copies of the template table, each with its log and clocks (clocks due ``far``)."""
    import sqlalchemy as sa

    from engine.service.storage import database
    from engine.service.storage.rows import ActionRow, DeadlineRow, TableRow

    tables = [c.name for c in TableRow.__table__.c if c.name not in ("id", "chat_key")]
    actions = [c.name for c in ActionRow.__table__.c if c.name != "table_id"]
    clocks = [c.name for c in DeadlineRow.__table__.c if c.name not in ("id", "table_id", "due_at")]
    engine = database.make_db(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text(
                f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count - 1}) "
                f"INSERT INTO tables (chat_key, {', '.join(tables)}) "
                f"SELECT 'bench:' || i, {', '.join('t.' + c for c in tables)} "
                f"FROM tables t, n WHERE t.id = {template}"))
            await conn.execute(sa.text(
                f"INSERT INTO actions (table_id, {', '.join(actions)}) "
                f"SELECT c.id, {', '.join('a.' + c for c in actions)} "
                f"FROM actions a, tables c WHERE a.table_id = {template} AND c.id != {template}"))
            await conn.execute(sa.text(
                f"INSERT INTO deadlines (table_id, due_at, {', '.join(clocks)}) "
                f"SELECT c.id, {far}, {', '.join('d.' + k for k in clocks)} FROM deadlines d, tables c "
                f"WHERE d.table_id = {template} AND d.status IN ('pending', 'claimed') AND c.id != {template}"))
    finally:
        await engine.dispose()


async def _first_clock(url: str, clock: _Clock, lazy: bool) -> float:
    """Seconds from opening the database to the first clock fired."""
    from engine.service.tables import GameService

    began = time.monotonic()
    service = await GameService.open(url, clock, lazy=lazy)
    try:
        await service.startup()
        while not [o for o in await service.sweep() if o.ok]:
            await asyncio.sleep(0.01)
        return time.monotonic() - began
    finally:
        await service.close()


def bench_restart(tables: int = 5000) -> dict:
    async def run(path: str) -> dict:
        url, clock = f"sqlite:///{path}", _Clock()
        template = await _template(url, clock)
        await _copies(url, template, tables, far=clock.now + 86_400)
        clock.now += 120  # the template's own clock has run out
        lazy = await _first_clock(url, clock, lazy=True)
        clock.now += 120  # its next one, for the start that restores everything first
        eager = await _first_clock(url, clock, lazy=False)
        return {f"restart_to_first_clock_s_{tables}_tables": round(lazy, 2),
                f"restart_to_first_clock_restoring_all_first_s_{tables}_tables": round(eager, 2)}

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(f"{tmp}/restart.db"))
