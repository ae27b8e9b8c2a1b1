"""``tycoon bench``'s clocks fired by two processes (issue 32): two bot processes without chats run
their clock tasks on one PostgreSQL while this process opens ``tables`` tables (two people who never
press and an AI seat, every clock 5 s, the people keep their seats); once all are open, for
``seconds``, how late each clock's move was stored, read from the database afterwards (the move's
time against its clock's due time), and how many each process fired.

    python -m tools.bench.clock_processes <database url>     (one of the two processes)
"""

from __future__ import annotations

import asyncio
import math
import os
import signal
import subprocess
import sys
import time

from tools.bench.service import CLOCK_POLICIES


def _worker(url: str) -> None:
    """A process's clock task until SIGTERM, the people's seats never handed to the AI."""
    from engine.service import clocks as service_clocks
    from engine.service.tables import GameService

    service_clocks.MISSES_BEFORE_AI = 10**9

    async def run() -> None:
        service = await GameService.open(url, lazy=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        print("ready", flush=True)
        try:
            await service.run(stop=stop, every=0.05)
        finally:
            await service.close()

    asyncio.run(run())


def bench_clock_processes(url: str | None, tables: int = 200, seconds: float = 30.0, clock_seconds: int = 5) -> dict:
    names = ("two_process_clock_lateness_p50_s", "two_process_clock_lateness_p99_s",
             "two_process_clocks_fired", "two_process_clock_owners", "two_process_clocks_overdue_at_end")
    if url is None:
        return dict.fromkeys(names)
    from sqlalchemy import text

    from engine.service.storage import queries
    from engine.service.tables import GameService

    async def run() -> dict:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        workers = [subprocess.Popen([sys.executable, "-m", "tools.bench.clock_processes", url], env=env,
                                    stdout=subprocess.PIPE, text=True) for _ in range(2)]
        service = await GameService.open(url)
        made = []
        try:
            for worker in workers:
                assert worker.stdout.readline().strip() == "ready"
            for i in range(tables):
                out = await service.lobby.new_table(f"bench:clocks2:{i}:{time.time()}", "deal" if i % 2 else "board",
                                                    None, "u0", "A")
                await service.lobby.join(out.table, "u1", "B")
                await service.lobby.add_ai(out.table, "u0")
                clocks = dict.fromkeys(CLOCK_POLICIES, clock_seconds)
                await queries.update_table(service.db, out.table, clocks=clocks)
                service.cache.peek(out.table).row.clocks = clocks
                await service.lobby.start(out.table, "u0", seed=i, kick=False)
                made.append(out.table)
            opened = time.time()
            await asyncio.sleep(seconds)
            ended = time.time()
            async with service.db.connect() as conn:  # due over a second and a half ago, not yet fired
                overdue = (await conn.execute(text(
                    "SELECT count(*) FROM deadlines WHERE status IN ('pending', 'claimed') AND due_at >= :opened "
                    "AND due_at < :late AND table_id = ANY(:made)"),
                    {"opened": opened, "late": ended - 1.5, "made": made})).scalar()
        finally:
            for worker in workers:
                worker.send_signal(signal.SIGTERM)
            for worker in workers:
                worker.wait(30)
        try:
            async with service.db.connect() as conn:
                rows = (await conn.execute(text(
                    "SELECT a.at - d.due_at, d.owner FROM actions a JOIN deadlines d ON a.deadline_id = d.id "
                    "WHERE d.due_at >= :opened AND a.table_id = ANY(:made)"), {"opened": opened, "made": made})).all()
            late = sorted(max(0.0, r[0]) for r in rows)
            owners = {r[1] for r in rows}
            from tools.bench.load import end_tables
            await end_tables(service, made)
        finally:
            await service.close()
        return dict(zip(names, (round(late[len(late) // 2], 3) if late else None,
                                round(late[math.ceil(len(late) * 0.99) - 1], 3) if late else None,
                                len(late), len(owners), overdue), strict=True))

    return asyncio.run(run())


if __name__ == "__main__":
    _worker(sys.argv[1])
