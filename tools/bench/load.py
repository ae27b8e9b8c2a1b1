"""``tycoon bench``: the service under load: a crowd of pressers on one process (SQLite and
PostgreSQL), and two processes pressing the same tables on one PostgreSQL. Imported by
``tools.bench``, which runs every figure."""

from __future__ import annotations

import math
import time

from engine.games import GAMES


async def end_tables(service, tables) -> None:
    """The bench's tables ended, so that no later process brings them back."""
    for table in tables:
        live = await service.cache.get(table)
        if live is not None and live.row.status in ("lobby", "running", "paused"):
            await service.lobby.cancel(table, live.row.creator)
    await service.idle()


TWO_PROCESS_FIGURES = ("two_process_moves_per_second", "two_process_press_p50_ms", "two_process_press_p99_ms",
                       "two_process_refused_current", "two_process_pressers")


def bench_database_url(environ=None) -> str | None:
    """The PostgreSQL the two-process figures need: TYCOON_BENCH_DATABASE_URL, else TEST_DATABASE_URL."""
    import os

    environ = os.environ if environ is None else environ
    url = environ.get("TYCOON_BENCH_DATABASE_URL") or environ.get("TEST_DATABASE_URL") or None
    return url if url and url.startswith(("postgresql://", "postgres://", "postgresql+asyncpg://")) else None


def bench_two_processes(url: str | None, pressers: int = 32, seconds: float = 10.0, games_per_presser: int = 3) -> dict:
    """Moves through two processes on one PostgreSQL: ``pressers`` two-player Deal tables (people
    only) played at once, each pressed by both processes in turn (tools/bench/worker.py: a process
    acts on a table whenever its version has that process's parity, reading the table again when
    the other process moved it), for ``seconds``; a slot whose game ends goes on with its next
    table (``games_per_presser`` of them are dealt). Reports moves per second (both processes),
    p50/p99 of one press (``service.act``, from the press to its stored move), refusals by kind and
    ``two_process_refused_current``: presses refused as out of date although their token was at the
    table's stored version (should be 0). Without a PostgreSQL URL every figure is None."""
    import asyncio
    import json
    import subprocess
    import sys
    from collections import Counter
    from pathlib import Path

    if not url:
        return {**dict.fromkeys(TWO_PROCESS_FIGURES), "two_process_refused": None, "two_process_moves": None}

    from engine.service.tables import GameService

    run_id = f"{time.time_ns() % 10**12:x}"

    async def deal() -> list[list[int]]:
        service = await GameService.open(url)
        try:
            slots: list[list[int]] = [[] for _ in range(pressers)]
            for n in range(pressers * games_per_presser):
                out = await service.lobby.new_table(f"bench2:{run_id}:{n}", "deal", None, f"bench:{n}:a", "A")
                await service.lobby.join(out.table, f"bench:{n}:b", "B")
                await service.lobby.start(out.table, f"bench:{n}:a", seed=n)
                slots[n % pressers].append(out.table)
            return slots
        finally:
            await service.close()

    async def clear(slots: list[list[int]]) -> None:
        """The bench's tables are ended, so that no later process brings them back."""
        service = await GameService.open(url)
        try:
            await end_tables(service, [t for slot in slots for t in slot])
        finally:
            await service.close()

    slots = asyncio.run(deal())
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "tools.bench.worker", url]
    workers = [subprocess.Popen([*command, str(p), str(seconds), json.dumps(slots)], cwd=root, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True) for p in (0, 1)]
    try:
        for worker in workers:
            line = worker.stdout.readline().strip()
            if line != "ready":
                raise RuntimeError(f"a bench worker did not start ({line!r})")
        for worker in workers:  # both start pressing at once
            worker.stdin.write("go\n")
            worker.stdin.flush()
        reports = []
        for worker in workers:
            out, _ = worker.communicate(timeout=seconds + 120)
            if worker.returncode != 0:
                raise RuntimeError(f"a bench worker failed (status {worker.returncode})")
            reports.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
        asyncio.run(clear(slots))
    latencies = sorted(ms for r in reports for ms in r["latencies_ms"])
    moves = sum(r["moves"] for r in reports)
    elapsed = max(r["seconds"] for r in reports)
    refused = Counter()
    for r in reports:
        refused.update(r["refused"])
    return {
        "two_process_moves_per_second": round(moves / elapsed, 1) if elapsed else None,
        "two_process_press_p50_ms": round(latencies[len(latencies) // 2], 2) if latencies else None,
        "two_process_press_p99_ms": round(latencies[math.ceil(len(latencies) * 0.99) - 1], 2) if latencies else None,
        "two_process_refused_current": sum(r["refused_current"] for r in reports),
        "two_process_pressers": pressers,
        "two_process_moves": moves,
        "two_process_refused": dict(refused),
    }


CROWD_FIGURES = ("moves_per_second", "press_p50_ms", "press_p99_ms", "cpu_us_per_move", "moves", "refused",
                 "pressers")


def bench_crowd(url: str | None = None, pressers: int = 32, seconds: float = 4.0, warmup: float = 0.5,
                games_per_presser: int = 4) -> dict:
    """A crowd on one service: ``pressers`` two-player Deal tables (people only), each pressed by
    its own task in one process, all at once, for ``seconds`` (after ``warmup``). A press is
    ``service.act(user, token)`` from the press to its stored (committed) move; the presser picks
    the AI's choice among the buttons, outside the timing. ``games_per_presser`` tables are dealt
    to each presser beforehand (a game lasts about 60 moves); one that runs out deals more as it
    goes. ``url``: None for a new SQLite file (figures ``crowd_sqlite_*``), a PostgreSQL URL for
    ``crowd_pg_*`` (the bench's tables are cancelled afterwards). Issue 20's budget: ≥ 1,500
    moves/s and p99 ≤ 100 ms on both."""
    import asyncio
    import tempfile

    from engine.service.tables import GameService

    run_id = f"{time.time_ns() % 10**12:x}"
    plug = GAMES["deal"]

    async def run(db_url: str) -> dict:
        service = await GameService.open(db_url)
        made: list[int] = []
        latencies: list[int] = []
        counted = {"moves": 0, "refused": 0}
        measuring = {"on": False}

        async def new_table(slot: int) -> int:
            n = len(made)
            out = await service.lobby.new_table(f"crowd:{run_id}:{slot}:{n}", "deal", None, f"crowd:{n}:a", "A")
            await service.lobby.join(out.table, f"crowd:{n}:b", "B")
            await service.lobby.start(out.table, f"crowd:{n}:a", seed=n)
            made.append(out.table)
            return out.table

        async def presser(slot: int, tables: list[int], until: float) -> None:
            table_id = tables.pop(0)
            while time.monotonic() < until:
                live = service.cache.peek(table_id) or await service.cache.get(table_id)
                if live is None or live.row.status != "running" or live.state is None:
                    table_id = tables.pop(0) if tables else await new_table(slot)
                    continue
                seat = live.rules.waiting_for(live.state)[0].seat
                action = plug.choose_listed(live.state, seat)
                token = next(tok for a, tok in service.buttons(table_id, seat) if a == action)
                t0 = time.perf_counter_ns()
                outcome = await service.act(live.row.seats[seat]["user"], token)
                elapsed = time.perf_counter_ns() - t0
                if measuring["on"]:
                    latencies.append(elapsed)
                    counted["moves" if outcome.ok else "refused"] += 1

        try:
            slots = [[await new_table(slot) for _ in range(games_per_presser)] for slot in range(pressers)]
            await service.idle()
            start = time.monotonic()
            until = start + warmup + seconds

            async def measure() -> tuple[float, float]:
                await asyncio.sleep(warmup)
                measuring["on"] = True
                t0, cpu0 = time.monotonic(), time.process_time()
                await asyncio.sleep(seconds)
                measuring["on"] = False
                return time.monotonic() - t0, time.process_time() - cpu0

            measured = asyncio.create_task(measure())
            await asyncio.gather(*(presser(slot, tables, until) for slot, tables in enumerate(slots)))
            elapsed, cpu = await measured
            await service.idle()
            await end_tables(service, made)  # so that no later process brings them back
        finally:
            await service.close()
        latencies.sort()
        return {
            "moves_per_second": round(counted["moves"] / elapsed, 1),
            "press_p50_ms": round(latencies[len(latencies) // 2] / 1e6, 2) if latencies else None,
            "press_p99_ms": round(latencies[math.ceil(len(latencies) * 0.99) - 1] / 1e6, 2) if latencies else None,
            # this process's CPU (all its threads; not the database server's) per stored move, the
            # pressers' own choices included: steadier than the rates on a shared machine
            "cpu_us_per_move": round(cpu / counted["moves"] * 1e6) if counted["moves"] else None,
            "moves": counted["moves"],
            "refused": counted["refused"],  # presses of a current button refused: should be 0
            "pressers": pressers,
        }

    if url is None:
        with tempfile.TemporaryDirectory() as tmp:
            figures = asyncio.run(run(f"sqlite:///{tmp}/crowd.db"))
        prefix = "crowd_sqlite"
    else:
        figures = asyncio.run(run(url))
        prefix = "crowd_pg" if "postgres" in url.split("://", 1)[0] else "crowd_sqlite"
    return {f"{prefix}_{k}": v for k, v in figures.items()}


def bench_crowds(pg_url: str | None, pressers: int = 32, seconds: float = 4.0) -> dict:
    """``bench_crowd`` on SQLite, and on PostgreSQL when there is one (else its figures are None)."""
    pg = bench_crowd(pg_url, pressers, seconds) if pg_url else {f"crowd_pg_{k}": None for k in CROWD_FIGURES}
    return {**bench_crowd(None, pressers, seconds), **pg}
