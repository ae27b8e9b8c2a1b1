"""One of the two processes of ``bench_two_processes`` (tools/bench/__init__.py): it opens a ``GameService``
on the shared PostgreSQL and presses moves on the same tables as the other process.

    python -m tools.bench.worker <database url> <process 0|1> <seconds> <tables as JSON>

``tables`` is a list of slots, each a list of table ids played one after the other (when a slot's
table is over its pressers go on with the next). This process runs one presser per slot. A presser
acts on its table whenever the table's version has this process's parity (so each table's moves
come from both processes in turn), pressing the first person's decision with the AI's choice
through ``service.act(user, token)``, exactly as a chat front end does with a press.

It prints ``ready`` once listening for the other process's moves, waits for a line on its standard
input (the go), presses for ``seconds`` and prints one JSON object: per-press latencies in ms,
moves made, refusals by kind, and the refusals "out of date" whose token was at the table's stored
version when pressed (``refused_current``: a press that should have been taken).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter

from sqlalchemy import text

from engine.games import GAMES
from engine.service.tables import GameService

POLL = 0.002  # seconds between two looks at a table that is the other process's to move
REFRESH_AFTER = 0.05  # a copy unchanged this long is read again (in case a notice is late)


async def stored_version(service: GameService, table_id: int) -> int:
    async with service.db.connect() as conn:
        return (await conn.execute(text("SELECT version FROM tables WHERE id = :id"), {"id": table_id})).scalar_one()


async def presser(service: GameService, parity: int, slot: list[int], until: float, out: dict) -> None:
    for table_id in slot:
        waited_since = time.monotonic()
        while time.monotonic() < until:
            live = await service.cache.get(table_id)
            if live is None or live.row.status != "running" or live.state is None:
                break  # over: the slot's next table
            if live.row.version % 2 != parity:  # the other process's move: wait for it
                if time.monotonic() - waited_since > REFRESH_AFTER:
                    async with service.cache.lock(table_id):
                        await service.cache.refresh(live)
                    waited_since = time.monotonic()
                await asyncio.sleep(POLL)
                continue
            plug = GAMES[live.row.game]
            seat = live.rules.waiting_for(live.state)[0].seat
            action = plug.choose_listed(live.state, seat)
            token = next(tok for a, tok in service.buttons(table_id, seat) if a == action)
            version = live.row.version
            current = await stored_version(service, table_id) == version
            t0 = time.perf_counter_ns()
            outcome = await service.act(live.row.seats[seat]["user"], token)
            out["latencies_ms"].append((time.perf_counter_ns() - t0) / 1e6)
            if outcome.ok:
                out["moves"] += 1
            else:
                out["refused"][outcome.key or "?"] += 1
                if outcome.key == "service.out_of_date" and current:
                    out["refused_current"] += 1
            waited_since = time.monotonic()
        if time.monotonic() >= until:
            return


async def run(url: str, parity: int, seconds: float, slots: list[list[int]]) -> dict:
    service = await GameService.open(url)
    try:
        service.notices.start()  # the other process's moves drop our copies
        await asyncio.wait_for(service.notices.ready.wait(), 30)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        out = {"process": parity, "latencies_ms": [], "moves": 0, "refused": Counter(), "refused_current": 0}
        t0 = time.monotonic()
        until = t0 + seconds
        await asyncio.gather(*(presser(service, parity, slot, until, out) for slot in slots))
        out["seconds"] = time.monotonic() - t0
        await service.idle()
        return out
    finally:
        await service.close()


def main(argv: list[str]) -> None:
    url, parity, seconds, slots = argv[0], int(argv[1]), float(argv[2]), json.loads(argv[3])
    print(json.dumps(asyncio.run(run(url, parity, seconds, slots))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
