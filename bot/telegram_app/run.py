"""``tycoon run`` with ``TELEGRAM_TOKEN``: the bot, the service and its clock in one process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

from bot.telegram_app.app import build_application, register_commands
from engine.service.tables import GameService

log = logging.getLogger(__name__)


HEARTBEAT = os.environ.get("TYCOON_HEARTBEAT", "/tmp/tycoon-heartbeat")


async def _beat(path: str, stop: asyncio.Event, every: float = 30.0) -> None:
    """Touch a file while the process lives: the container's health check reads its age."""
    while not stop.is_set():
        with contextlib.suppress(OSError), open(path, "w") as f:
            f.write("ok")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every)


async def run_telegram(token: str, database_url: str | None, api_url: str | None = None,
                       lang: str = "zh-Hans", stop: asyncio.Event | None = None, request=None,
                       heartbeat: str | None = HEARTBEAT) -> None:
    service = await GameService.open(database_url)
    base_url = f"{api_url.rstrip('/')}/bot" if api_url else None
    app = build_application(service, token, base_url=base_url, request=request, lang=lang)
    front = app.bot_data["front"]
    stop = stop or asyncio.Event()

    async def report(outcomes) -> None:  # clocks that ran out change tables: show them
        await front.on_clock(app.bot, outcomes)

    async with app:
        await register_commands(app.bot)
        await app.start()
        await app.updater.start_polling()
        clock = asyncio.create_task(service.run_clock(every=1.0, on_outcomes=report, stop=stop), name="clock")
        beat = asyncio.create_task(_beat(heartbeat, stop), name="heartbeat") if heartbeat else None
        try:
            await stop.wait()
        finally:
            stop.set()
            with contextlib.suppress(Exception):
                await clock
            if beat is not None:
                await beat
            await app.updater.stop()
            await app.stop()
            await service.close()


def main_from_env() -> None:
    logging.basicConfig(level=logging.INFO)
    token = os.environ["TELEGRAM_TOKEN"]
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C or SIGINT from docker stop: a clean exit
        asyncio.run(run_telegram(token, os.environ.get("DATABASE_URL"), os.environ.get("TELEGRAM_API_URL"),
                                 os.environ.get("TYCOON_LANG", "zh-Hans")))
