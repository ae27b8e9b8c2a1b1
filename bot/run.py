"""``tycoon run`` with chat tokens: the Telegram bot, the Discord bot or both in one process,
around one ``GameService`` and one clock sweeper (two sweepers would race for the same clocks and
each table's moves are serialised by the one service's locks).

Each front end shows only what the clock did in its own chats (``tg:`` or ``dc:`` chat keys).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

from engine.service.tables import GameService

log = logging.getLogger(__name__)


def choose_bots(environ) -> tuple[str | None, str | None]:
    """The tokens that are set: (Telegram, Discord); both ``None`` means the local game."""
    return environ.get("TELEGRAM_TOKEN") or None, environ.get("DISCORD_TOKEN") or None


async def run_bots(telegram_token: str | None, discord_token: str | None, database_url: str | None,
                   lang: str = "zh-Hans", api_url: str | None = None, stop: asyncio.Event | None = None,
                   telegram_request=None, heartbeat: str | None = None) -> None:
    from bot.telegram_app.run import HEARTBEAT, _beat

    service = await GameService.open(database_url)
    stop = stop or asyncio.Event()
    heartbeat = HEARTBEAT if heartbeat is None else heartbeat
    app = discord_bot = None
    if telegram_token:
        from bot.telegram_app.app import build_application

        base_url = f"{api_url.rstrip('/')}/bot" if api_url else None
        app = build_application(service, telegram_token, base_url=base_url, request=telegram_request, lang=lang)
    if discord_token:
        from bot.discord_app.app import TycoonBot

        discord_bot = TycoonBot(service, lang, sync_commands=True)

    async def report(outcomes) -> None:  # clocks that ran out change tables: each bot shows its own
        fronts = []
        if app is not None:
            fronts.append(lambda: app.bot_data["front"].on_clock(app.bot, outcomes))
        if discord_bot is not None:
            fronts.append(lambda: discord_bot.front.on_clock(outcomes))
        for show in fronts:
            try:
                await show()
            except Exception:  # one platform's failure must not hide the clock from the other
                log.exception("showing the clock's outcomes failed")

    tasks: list[asyncio.Task] = []
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(service.close)
        if app is not None:
            from bot.telegram_app.app import register_commands

            await stack.enter_async_context(app)
            await register_commands(app.bot)
            await app.start()
            await app.updater.start_polling()
            stack.push_async_callback(app.stop)
            stack.push_async_callback(app.updater.stop)
        if discord_bot is not None:
            await stack.enter_async_context(discord_bot)  # closes the gateway and the HTTP session on exit
            await discord_bot.login(discord_token)  # runs setup_hook: buttons, translator, command sync
            gateway = asyncio.create_task(discord_bot.connect(), name="discord-gateway")
            gateway.add_done_callback(lambda _: stop.set())  # a dead gateway ends the process (restart it)
            tasks.append(gateway)
        tasks.append(asyncio.create_task(service.run_clock(every=1.0, on_outcomes=report, stop=stop), name="clock"))
        if heartbeat:
            tasks.append(asyncio.create_task(_beat(heartbeat, stop), name="heartbeat"))
        try:
            await stop.wait()
        finally:
            stop.set()
            if discord_bot is not None:
                await discord_bot.close()
            for task in tasks:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await task


def main_from_env(lang: str | None = None) -> None:
    logging.basicConfig(level=logging.INFO)
    telegram, discord = choose_bots(os.environ)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C or SIGINT from docker stop: a clean exit
        asyncio.run(run_bots(telegram, discord, os.environ.get("DATABASE_URL"),
                             lang or os.environ.get("TYCOON_LANG", "zh-Hans"), os.environ.get("TELEGRAM_API_URL")))
