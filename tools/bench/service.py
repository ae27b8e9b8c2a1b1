"""``tycoon bench``: the service's figures in one process: moves through the service (and its
memory), clocks fired on time, and the memory a finished game leaves behind. Imported by
``tools.bench``, which runs every figure."""

from __future__ import annotations

import math
import time

from engine.games import GAMES


def bench_service(moves: int = 400, tables: int = 1000) -> dict:
    """p50/p99 of one move through the service with its SQLite commit; memory of open tables."""
    import asyncio
    import gc
    import tempfile
    import tracemalloc

    from engine.service.tables import GameService

    async def run(path: str) -> dict:
        service = await GameService.open(f"sqlite:///{path}")
        try:
            times: list[int] = []
            game_no = 0
            while len(times) < moves:  # as many two-player games as it takes
                game_no += 1
                out = await service.lobby.new_table(f"bench:moves:{game_no}", "deal", None, "u0", "A")
                await service.lobby.join(out.table, "u1", "B")
                await service.lobby.start(out.table, "u0", seed=game_no)
                plug = GAMES["deal"]
                while len(times) < moves and service.cache.row(out.table).status == "running":
                    state = service.cache.state(out.table)
                    seat = plug.rules.waiting_for(state)[0].seat
                    action = plug.choose(state, seat)
                    token = next(t for a, t in service.buttons(out.table, seat) if a == action)
                    t0 = time.perf_counter_ns()
                    await service.act(service.cache.row(out.table).seats[seat]["user"], token)
                    times.append(time.perf_counter_ns() - t0)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            for i in range(tables):
                game = "deal" if i % 2 else "board"
                t = await service.lobby.new_table(f"bench:{i}", game, None, "u0", "A")
                await service.lobby.add_ai(t.table, "u0")
                await service.lobby.add_ai(t.table, "u0")
                await service.lobby.add_ai(t.table, "u0")
                await service.lobby.start(t.table, "u0", seed=i)
            gc.collect()
            used = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
        finally:
            await service.close()
        times.sort()
        return {
            "service_move_p50_ms": round(times[len(times) // 2] / 1e6, 2),
            "service_move_p99_ms": round(times[math.ceil(len(times) * 0.99) - 1] / 1e6, 2),
            "service_moves_measured": len(times),
            "memory_1000_tables_mb": round(used / 2**20 * 1000 / tables, 1),
        }

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(f"{tmp}/bench.db"))


CLOCK_POLICIES = ("turn", "card", "response", "payment", "discard", "choice", "auction")


def bench_clocks(tables: int = 200, seconds: float = 30.0, clock_seconds: int = 5, keep_seats: bool = False) -> dict:
    """How late clocks fire under load: ``tables`` tables (board and Deal), two people who never
    press and one AI seat each, every clock at ``clock_seconds`` (the shortest a chat may set).
    People's clocks run out again and again, after three misses the AI keeps their seats, and
    AI seats play on, all in one process with its supervised clock task, for ``seconds``. With
    ``keep_seats`` people never lose their seats to the AI: every table's clocks keep running out
    (a steady ``tables / clock_seconds`` clocks a second: the load of people who stepped away).
    Lateness is the time from a clock's due time to the move that answered it (budget: p99 1.5 s),
    counted for the clocks due once every table is open (the clock task runs from the start)."""
    import asyncio
    import tempfile

    from engine.service.storage import queries
    from engine.service.tables import GameService

    async def run(path: str) -> dict:
        service = await GameService.open(f"sqlite:///{path}")
        stop = asyncio.Event()
        task = asyncio.create_task(service.run(stop=stop))  # clocks fire while the tables open too
        try:
            for i in range(tables):
                out = await service.lobby.new_table(f"bench:clock:{i}", "deal" if i % 2 else "board", None, "u0", "A")
                await service.lobby.join(out.table, "u1", "B")
                await service.lobby.add_ai(out.table, "u0")
                clocks = dict.fromkeys(CLOCK_POLICIES, clock_seconds)
                await queries.update_table(service.db, out.table, clocks=clocks)
                service.cache.peek(out.table).row.clocks = clocks
                await service.lobby.start(out.table, "u0", seed=i)
            opened = service.clock()  # from here on every table is in play: the clocks due now count
            await asyncio.sleep(seconds)
            late = sorted(seconds for due, seconds in service.clocks.lateness if due >= opened)
        finally:
            stop.set()
            await task
            await service.close()
        return {
            "clock_lateness_p50_s": round(late[len(late) // 2], 3) if late else None,
            "clock_lateness_p99_s": round(late[math.ceil(len(late) * 0.99) - 1], 3) if late else None,
            "clock_lateness_max_s": round(late[-1], 3) if late else None,
            "clocks_fired": len(late),
            "clock_bench_tables": tables,
        }

    from engine.service import clocks as service_clocks

    kept = service_clocks.MISSES_BEFORE_AI
    if keep_seats:
        service_clocks.MISSES_BEFORE_AI = 10**9
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = asyncio.run(run(f"{tmp}/clocks.db"))
    finally:
        service_clocks.MISSES_BEFORE_AI = kept
    return {f"{k}_seats_kept" if keep_seats else k: v for k, v in out.items()}


def bench_finished_memory(games: int = 1000, checkpoint: int = 200) -> dict:
    """Memory the service keeps after ``games`` finished games (AI seats, one turn each, ended by
    the service's turn cap), against after ``checkpoint``: finished tables leave memory, so the
    two are about the same (flat)."""
    import asyncio
    import gc
    import tempfile
    import tracemalloc

    from engine.service.tables import GameService

    async def run(path: str) -> dict:
        service = await GameService.open(f"sqlite:///{path}")
        marks = {}
        try:
            gc.collect()
            tracemalloc.start()
            start = tracemalloc.get_traced_memory()[0]
            for i in range(games):
                out = await service.lobby.new_table(f"bench:done:{i}", "deal" if i % 2 else "board", None, "u0", "A")
                await service.lobby.add_ai(out.table, "u0")
                await service.lobby.add_ai(out.table, "u0")
                await service.lobby.leave(out.table, "u0")
                await service.lobby.start(out.table, "u0", seed=i, turn_cap=1)
                await service.idle()
                if i + 1 in (checkpoint, games):
                    gc.collect()
                    marks[i + 1] = tracemalloc.get_traced_memory()[0] - start
            tracemalloc.stop()
        finally:
            await service.close()
        return {
            f"memory_after_{games}_finished_games_mb": round(marks[games] / 2**20, 2),
            f"memory_after_{checkpoint}_finished_games_mb": round(marks[checkpoint] / 2**20, 2),
        }

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(f"{tmp}/done.db"))
