"""A bot process without chat platforms, for tests that kill processes: it opens the service on a
database and runs its supervised clock task until it is killed.

    python -m tests.clock_worker <database url> <game time at start> <wall time at start> <speed>
        [--freeze-after <clock id>]

Game time runs ``speed`` times faster than the wall clock from the given start, so several
processes (and the test) agree on it. With ``--freeze-after N``, once it has fired N clocks the process
hangs on about half of the clocks it takes, as a process stuck between taking a clock and applying
it would (then the test kills it with SIGKILL).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from engine.service.tables import GameService


def main(argv: list[str]) -> None:
    url, base, start, speed = argv[0], float(argv[1]), float(argv[2]), float(argv[3])
    freeze_after = int(argv[argv.index("--freeze-after") + 1]) if "--freeze-after" in argv else None

    def clock() -> float:
        return base + (time.time() - start) * speed

    async def run() -> None:
        service = await GameService.open(url, clock)
        if freeze_after is not None:
            real_fire = service.clocks.fire

            async def fire_or_freeze(deadline):
                if service.clocks.fired >= freeze_after and random.Random(deadline.id).random() < 0.5:
                    print(f"frozen {deadline.id}", flush=True)
                    await asyncio.Event().wait()
                return await real_fire(deadline)

            service.clocks.fire = fire_or_freeze
        print(f"owner {service.clocks.owner}", flush=True)
        await service.run(every=0.02)

    asyncio.run(run())


if __name__ == "__main__":
    main(sys.argv[1:])
