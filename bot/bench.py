"""``tycoon bench``: the project's benchmarks, one JSON object of named figures.

Figures are medians or rates over a fixed, seeded workload, so two runs on one machine are
comparable; budgets live in DESIGN.md, not in tests (timings here are noisy).
"""

from __future__ import annotations

import statistics
import time

from engine.games import PLUGS
from engine.simulation import game_seeds, play_one


def bench_deal(games: int = 300, seed: int = 2026) -> dict:
    plug = PLUGS["deal"]
    rules = plug.rules
    apply_ns: list[int] = []
    legal_ns: list[int] = []
    choose_ns: list[int] = []

    def timed_apply(state, seat, action):
        t0 = time.perf_counter_ns()
        events = rules.apply(state, seat, action)
        apply_ns.append(time.perf_counter_ns() - t0)
        return events

    # per-call timings on a sample of games
    for s in game_seeds(seed, 40):
        state = rules.new_game(4, None, s)
        while state.phase != "over" and state.turn_number <= 200:
            seat = rules.waiting_for(state)[0].seat
            t0 = time.perf_counter_ns()
            actions = rules.legal_actions(state, seat)
            t1 = time.perf_counter_ns()
            action = plug.choose(state, seat, actions)
            t2 = time.perf_counter_ns()
            timed_apply(state, seat, action)
            legal_ns.append(t1 - t0)
            choose_ns.append(t2 - t1)

    # throughput: whole four-player games with the real AI, no checking
    turns = 0
    t0 = time.perf_counter()
    for s in game_seeds(seed + 1, games):
        state, _ = play_one(plug, 4, None, s, 200, check_every_action=False)
        turns += state.turn_number
    seconds = time.perf_counter() - t0
    return {
        "deal_apply_median_us": round(statistics.median(apply_ns) / 1000, 2),
        "deal_legal_actions_median_us": round(statistics.median(legal_ns) / 1000, 2),
        "deal_ai_choose_median_us": round(statistics.median(choose_ns) / 1000, 2),
        "deal_games_per_second_4p": round(games / seconds, 1),
        "deal_player_turns_per_second": round(turns / seconds, 1),
        "deal_bench_games": games,
    }


def bench_board(games: int = 60, seed: int = 2026, landing_rolls: int = 200_000) -> dict:
    from engine.board.landing import landing_frequencies

    plug = PLUGS["board"]
    rules = plug.rules
    apply_ns: list[int] = []

    def timed_apply(state, seat, action):
        t0 = time.perf_counter_ns()
        events = rules.apply(state, seat, action)
        apply_ns.append(time.perf_counter_ns() - t0)
        return events

    for s in game_seeds(seed, 10):
        play_one(plug, 4, None, s, None, check_every_action=False, on_action=timed_apply)
    turns = 0
    ended = {"last_player": 0, "turn_cap": 0}
    t0 = time.perf_counter()
    for s in game_seeds(seed + 1, games):
        state, _ = play_one(plug, 4, None, s, None, check_every_action=False)
        turns += state.turn_number
        ended[state.end_reason or "turn_cap"] = ended.get(state.end_reason or "turn_cap", 0) + 1
    seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    landing_frequencies("classic", landing_rolls, seed, "short")
    landing_seconds = time.perf_counter() - t1
    return {
        "board_apply_median_us": round(statistics.median(apply_ns) / 1000, 2),
        "board_games_per_second_4p": round(games / seconds, 1),
        "board_player_turns_per_second": round(turns / seconds, 1),
        "board_turns_mean": round(turns / games, 1),
        "board_games_by_bankruptcy": ended["last_player"],
        "board_games_by_turn_cap": ended["turn_cap"],
        "board_landing_rolls_per_second": round(landing_rolls / landing_seconds, 1),
        "board_bench_games": games,
    }


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
                plug = PLUGS["deal"]
                while len(times) < moves and service.table(out.table).status == "running":
                    state = service.state(out.table)
                    seat = plug.rules.waiting_for(state)[0].seat
                    action = plug.choose(state, seat)
                    token = next(t for a, t in service.buttons(out.table, seat) if a == action)
                    t0 = time.perf_counter_ns()
                    await service.act(service.table(out.table).seats[seat]["user"], token)
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
            "service_move_p99_ms": round(times[int(len(times) * 0.99) - 1] / 1e6, 2),
            "service_moves_measured": len(times),
            "memory_1000_tables_mb": round(used / 2**20 * 1000 / tables, 1),
        }

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(f"{tmp}/bench.db"))


CLOCK_POLICIES = ("turn", "card", "response", "payment", "discard", "choice", "auction")


def bench_clocks(tables: int = 200, seconds: float = 30.0, clock_seconds: int = 5) -> dict:
    """How late clocks fire under load: ``tables`` tables (board and Deal), two people who never
    press and one AI seat each, every clock at ``clock_seconds`` (the shortest a chat may set).
    People's clocks run out again and again, after three misses the AI keeps their seats, and
    AI seats play on, all in one process with its supervised clock task, for ``seconds``.
    Lateness is the time from a clock's due time to the move that answered it (budget: p99 1.5 s)."""
    import asyncio
    import tempfile

    from engine.service import store
    from engine.service.tables import GameService

    async def run(path: str) -> dict:
        service = await GameService.open(f"sqlite:///{path}")
        try:
            for i in range(tables):
                out = await service.lobby.new_table(f"bench:clock:{i}", "deal" if i % 2 else "board", None, "u0", "A")
                await service.lobby.join(out.table, "u1", "B")
                await service.lobby.add_ai(out.table, "u0")
                clocks = dict.fromkeys(CLOCK_POLICIES, clock_seconds)
                await store.update_table(service.engine, out.table, clocks=clocks)
                service.cache.peek(out.table).row.clocks = clocks
                await service.lobby.start(out.table, "u0", seed=i)
            stop = asyncio.Event()
            task = asyncio.create_task(service.run(stop=stop))
            await asyncio.sleep(seconds)
            stop.set()
            await task
            late = sorted(service.clocks.lateness)
        finally:
            await service.close()
        return {
            "clock_lateness_p50_s": round(late[len(late) // 2], 3) if late else None,
            "clock_lateness_p99_s": round(late[max(0, int(len(late) * 0.99) - 1)], 3) if late else None,
            "clock_lateness_max_s": round(late[-1], 3) if late else None,
            "clocks_fired": len(late),
            "clock_bench_tables": tables,
        }

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(f"{tmp}/clocks.db"))


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


def bench_render(frames: int = 30) -> dict:
    """Medians for a typical turn's picture, PNG included: milliseconds and kilobytes (budgets
    ≤ 10 ms and ≤ 60 KB for the board and the Deal table, issue 18). The board is drawn at
    ``frames`` successive positions of one game, as the chat sees them (net worth, last moves)."""
    from engine.board.rules import valuation
    from render import golden
    from render.board import render_board
    from render.png import png_bytes

    rules = PLUGS["board"].rules
    state = golden.snapshot("board", "china", 7, 100)
    positions = []
    for _ in range(frames):  # one position per move: what an edit of the board message shows
        seat = rules.waiting_for(state)[0].seat
        rules.apply(state, seat, PLUGS["board"].choose(state, seat))
        positions.append((rules.view(state, None), valuation(state)))
    events = golden.EVENTS["zh-Hans"]
    render_board(positions[0][0], "zh-Hans", golden.NAMES)  # the cached empty board is drawn once per process
    times, sizes = [], []
    for view, worth in positions:
        t0 = time.perf_counter_ns()
        sizes.append(len(png_bytes(render_board(view, "zh-Hans", golden.NAMES, None, "12:34", worth, events))))
        times.append(time.perf_counter_ns() - t0)
    out = {"board_render_median_ms": round(statistics.median(times) / 1e6, 2),
           "board_png_kb": round(statistics.median(sizes) / 1024, 1)}
    from render.deal import render_hand, render_table

    deal = PLUGS["deal"].rules
    views = []
    for seed in game_seeds(7, 12):  # a dozen positions of different games, each drawn once
        s = golden.snapshot("deal", "standard", seed, 10)
        views.append((deal.view(s, None), deal.view(s, 0)))
    render_table(views[0][0], "zh-Hans", golden.NAMES)  # card faces and labels drawn once per process
    for name, draw in (("deal_table", lambda pv, sv: render_table(pv, "zh-Hans", golden.NAMES)),
                       ("hand", lambda pv, sv: render_hand(sv, 0, "zh-Hans"))):
        times, sizes = [], []
        for public, seat in views:
            t0 = time.perf_counter_ns()
            sizes.append(len(png_bytes(draw(public, seat))))
            times.append(time.perf_counter_ns() - t0)
        out[f"{name}_render_median_ms"] = round(statistics.median(times) / 1e6, 2)
        out[f"{name}_png_kb"] = round(statistics.median(sizes) / 1024, 1)
    return out


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
    only) played at once, each pressed by both processes in turn (bot/bench_worker.py: a process
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
            for table in (t for slot in slots for t in slot):
                live = await service.live(table)
                if live is not None and live.row.status in ("lobby", "running", "paused"):
                    await service.lobby.cancel(table, live.row.creator)
            await service.idle()
        finally:
            await service.close()

    slots = asyncio.run(deal())
    root = Path(__file__).resolve().parent.parent
    command = [sys.executable, "-m", "bot.bench_worker", url]
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
        "two_process_press_p99_ms": round(latencies[max(0, int(len(latencies) * 0.99) - 1)], 2) if latencies else None,
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
    plug = PLUGS["deal"]

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
                live = service.cache.peek(table_id) or await service.live(table_id)
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
            for table in made:  # ended, so that no later process brings them back
                live = await service.live(table)
                if live is not None and live.row.status in ("lobby", "running", "paused"):
                    await service.lobby.cancel(table, live.row.creator)
            await service.idle()
        finally:
            await service.close()
        latencies.sort()
        return {
            "moves_per_second": round(counted["moves"] / elapsed, 1),
            "press_p50_ms": round(latencies[len(latencies) // 2] / 1e6, 2) if latencies else None,
            "press_p99_ms": round(latencies[max(0, int(len(latencies) * 0.99) - 1)] / 1e6, 2) if latencies else None,
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


def run_all() -> dict:
    return {**bench_deal(), **bench_board(), **bench_service(), **bench_clocks(),
            **bench_finished_memory(), **bench_render(),
            **bench_two_processes(bench_database_url()), **bench_crowds(bench_database_url())}
