"""``tycoon run`` with chat tokens: the Telegram bot, the Discord bot or both in one process,
around one ``GameService`` and its one supervised clock task.

Each front end subscribes to the service's table updates and notices and shows those of its own
chats (``tg:`` or ``dc:`` chat keys).

Start-up speaks plainly: a database, Bot API or Discord that cannot be reached is tried again with
back-off, one log line per attempt; a token the platform refuses ends the process at once with one
line naming the variable to fix. Exit status: 0 after a requested stop, 1 when the clock task or
the Discord gateway gave up (the supervisor should start the process again), 2 for a refused token.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from engine.service import store
from engine.service.runner import ServiceDown, describe
from engine.service.tables import GameService

log = logging.getLogger(__name__)

HEARTBEAT = os.environ.get("TYCOON_HEARTBEAT", "/tmp/tycoon-heartbeat")
FIRST_RETRY, MAX_RETRY = 1.0, 60.0
OK, GAVE_UP, BAD_TOKEN = 0, 1, 2  # BAD_TOKEN: also any setting the process cannot start with


class TokenRefused(Exception):
    """The platform refused a token: nothing to retry, the admin must fix the variable."""


def choose_bots(environ) -> tuple[str | None, str | None]:
    """The tokens that are set: (Telegram, Discord); both ``None`` means the local game."""
    return environ.get("TELEGRAM_TOKEN") or None, environ.get("DISCORD_TOKEN") or None


async def retrying(what: str, attempt: Callable[[], Awaitable], transient: tuple[type[BaseException], ...],
                   stop: asyncio.Event, first: float = FIRST_RETRY, cap: float = MAX_RETRY):
    """``attempt()`` until it works: each failure of a ``transient`` kind is one log line and a
    longer wait (up to ``cap``); anything else is raised. None when ``stop`` is set meanwhile."""
    delay = first
    while not stop.is_set():
        try:
            return await attempt()
        except transient as e:
            log.warning("%s cannot be reached (%s); trying again in %.0f s", what, describe(e), delay)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=delay)
        delay = min(delay * 2, cap)
    return None


def telegram_errors():
    from telegram.error import InvalidToken, NetworkError

    return InvalidToken, NetworkError


def discord_errors():
    import aiohttp
    import discord

    return discord.LoginFailure, (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.DiscordServerError)


@dataclass(frozen=True)
class Webhook:
    """Telegram updates by webhook (several processes behind one load balancer) instead of polling:
    ``url`` is the public address Telegram posts to; this process listens on ``listen``:``port``
    at the same path, and takes only requests carrying ``secret`` (Telegram's secret-token header)."""

    url: str
    listen: str = "0.0.0.0"
    port: int = 8443
    secret: str = ""

    @property
    def path(self) -> str:
        return urlsplit(self.url).path.lstrip("/")

    @classmethod
    def from_env(cls, environ, token: str | None) -> Webhook | None:
        url = environ.get("TELEGRAM_WEBHOOK_URL")
        if not url or not token:
            return None
        # the secret-token header allows 1-256 of A-Z a-z 0-9 _ -: by default one derived from the token
        secret = environ.get("TELEGRAM_WEBHOOK_SECRET") or hashlib.sha256(f"webhook:{token}".encode()).hexdigest()
        return cls(url, environ.get("TELEGRAM_WEBHOOK_LISTEN", "0.0.0.0"), int(environ.get("PORT", "8443")), secret)


def shard_ids(text: str | None) -> list[int] | None:
    """``DISCORD_SHARD_IDS``: "0-3", "0,2,5" or a mix; None when unset."""
    if not text:
        return None
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, _, high = part.partition("-")
        out += list(range(int(low), int(high or low) + 1))
    return out


async def run_bots(telegram_token: str | None, discord_token: str | None, database_url: str | None,
                   lang: str = "zh-Hans", api_url: str | None = None, stop: asyncio.Event | None = None,
                   telegram_request=None, heartbeat: str | None = None, retry_first: float = FIRST_RETRY,
                   webhook: Webhook | None = None, shard_count: int | None = None,
                   shards: list[int] | None = None, flood_limits: bool = True,
                   web: tuple[str, int, str] | None = None, discord_api_url: str | None = None) -> int:
    """Run until ``stop`` is set or something cannot go on; the process's exit status. ``web``:
    (host, port, public URL) to serve the web table too (Mini App, spectators) on this service.
    ``discord_api_url``: a Discord-compatible REST API instead of Discord's own (a shared
    rate-limit proxy, or the tests' fake Discord); the gateway's address comes from it."""
    if discord_token and discord_api_url:
        import discord.http

        discord.http.Route.BASE = discord_api_url.rstrip("/")
    stop = stop or asyncio.Event()
    heartbeat = HEARTBEAT if heartbeat is None else heartbeat
    service = await retrying("the database", lambda: GameService.open(database_url), store.DB_ERRORS, stop,
                             first=retry_first)
    if service is None:
        return OK
    app = discord_bot = None
    if telegram_token:
        from bot.telegram_app.app import build_application

        base_url = f"{api_url.rstrip('/')}/bot" if api_url else None
        app = build_application(service, telegram_token, base_url=base_url, request=telegram_request, lang=lang,
                                rate_limit=flood_limits)
    if discord_token:
        from bot.discord_app.app import TycoonBot

        discord_bot = TycoonBot(service, lang, sync_commands=True, shard_count=shard_count, shard_ids=shards)

    tasks: list[asyncio.Task] = []
    status = OK
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(service.close)
        try:
            if app is not None:
                await _start_telegram(app, stack, stop, retry_first, webhook)
            if discord_bot is not None:
                await stack.enter_async_context(discord_bot)  # closes the gateway and the HTTP session on exit
                await _login_discord(discord_bot, discord_token, stop, retry_first)
                if not stop.is_set():
                    tasks.append(asyncio.create_task(discord_bot.connect(), name="discord-gateway"))
        except TokenRefused as e:
            log.error("%s", e)
            return BAD_TOKEN
        if stop.is_set():
            return OK
        if web is not None:  # in this process: the pages follow the moves of this service at once
            from bot.web.server import make_app, start_site

            runner, address = await start_site(make_app(service, lang=lang, bot_token=telegram_token,
                                                        public_url=web[2]), web[0], web[1])
            stack.push_async_callback(runner.cleanup)
            log.info("the web table on %s (public address %s)", address, web[2])
        tasks.append(asyncio.create_task(service.run(stop=stop, every=1.0, heartbeat=heartbeat or None),
                                         name="clock"))
        waiter = asyncio.create_task(stop.wait(), name="stop")
        try:
            done, _ = await asyncio.wait([*tasks, waiter], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is waiter or task.cancelled():
                    continue
                error = task.exception()
                if isinstance(error, ServiceDown):
                    log.error("the clock task gave up: %s; exiting so that the process is started again", error)
                    status = GAVE_UP
                elif task.get_name() == "discord-gateway":
                    log.error("the Discord gateway closed (%s); exiting so that the process is started again",
                              describe(error) if error else "no error")
                    status = GAVE_UP
                elif error is not None:
                    log.error("%s ended: %s", task.get_name(), describe(error), exc_info=error)
                    status = GAVE_UP
        finally:
            stop.set()
            waiter.cancel()
            if discord_bot is not None:
                await discord_bot.close()
            for task in tasks:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await task
            await service.idle()
    return status


async def _start_telegram(app, stack: contextlib.AsyncExitStack, stop: asyncio.Event, retry_first: float,
                          webhook: Webhook | None = None) -> None:
    from bot.telegram_app.app import register_commands

    invalid, network = telegram_errors()
    token = app.bot.token

    async def initialize():
        try:
            await app.initialize()  # getMe: is the token good, is the Bot API there
        except invalid as e:
            said = str(e).replace(token, "…")  # never the token in a log
            raise TokenRefused(f"TELEGRAM_TOKEN was refused by Telegram ({said}); set it to the token @BotFather "
                               f"gave the bot (or fix TELEGRAM_API_URL when it is set)") from None
        return True

    if await retrying("the Telegram Bot API", initialize, (network,), stop, first=retry_first) is None:
        return
    stack.push_async_callback(app.shutdown)

    async def begin():
        await register_commands(app.bot)
        if webhook is None:
            await app.bot.delete_webhook()  # what start_polling does first, here with our own retries
        else:  # several processes may call this: they all set the same address and secret
            await app.bot.set_webhook(webhook.url, secret_token=webhook.secret)
        if not app.running:
            await app.start()
            stack.push_async_callback(app.stop)
        if webhook is None:
            await app.updater.start_polling()
        else:
            await app.updater.start_webhook(listen=webhook.listen, port=webhook.port, url_path=webhook.path,
                                            webhook_url=webhook.url, secret_token=webhook.secret)
            log.info("Telegram updates by webhook on %s:%s/%s", webhook.listen, webhook.port, webhook.path)
        stack.push_async_callback(app.updater.stop)
        return True

    await retrying("the Telegram Bot API", begin, (network,), stop, first=retry_first)


async def _login_discord(bot, token: str, stop: asyncio.Event, retry_first: float) -> None:
    refused, transient = discord_errors()

    async def login():
        try:
            await bot.login(token)  # runs setup_hook: buttons, translator, commands
        except refused as e:
            raise TokenRefused(f"DISCORD_TOKEN was refused by Discord ({e}); set it to the bot token from the "
                               f"Discord developer portal") from None
        except transient:
            await bot.http.close()  # the next attempt opens a session of its own
            raise
        return True

    if await retrying("Discord", login, transient, stop, first=retry_first) is None:
        return
    await retrying("Discord (slash commands)", bot.sync_tree, transient, stop, first=retry_first)


def web_from_env(environ) -> tuple[str, int, str] | None:
    """With ``TYCOON_WEB_URL`` (the web table's public address) the bots' process serves it too,
    on ``TYCOON_WEB_HOST``:``TYCOON_WEB_PORT`` (default 0.0.0.0:8080, behind the proxy that URL names)."""
    url = environ.get("TYCOON_WEB_URL")
    port = environ.get("TYCOON_WEB_PORT") or "8080"
    if not url or not port.isdigit():
        return None
    return environ.get("TYCOON_WEB_HOST", "0.0.0.0"), int(port), url.rstrip("/")


def log_engine_build() -> None:
    """The start-up line that says whether the rules run compiled (``engine/compiled.py``)."""
    import engine.games  # noqa: F401  (the rules, so that the line counts them)
    from engine import compiled

    logging.getLogger("tycoon").info("%s", compiled.summary())


def main_from_env(lang: str | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log_engine_build()
    telegram, discord = choose_bots(os.environ)
    count = os.environ.get("DISCORD_SHARD_COUNT")
    try:
        shards = shard_ids(os.environ.get("DISCORD_SHARD_IDS"))
        count_n = int(count) if count else None
    except ValueError:
        log.error("DISCORD_SHARD_COUNT and DISCORD_SHARD_IDS are numbers: a count, and ids like 0-3 or 0,2,5")
        return BAD_TOKEN
    if shards and (count_n is None or max(shards) >= count_n):
        log.error("DISCORD_SHARD_IDS %s needs DISCORD_SHARD_COUNT above its largest id", shards)
        return BAD_TOKEN
    try:
        return asyncio.run(run_bots(telegram, discord, os.environ.get("DATABASE_URL"),
                                    lang or os.environ.get("TYCOON_LANG", "zh-Hans"),
                                    os.environ.get("TELEGRAM_API_URL"),
                                    webhook=Webhook.from_env(os.environ, telegram),
                                    shard_count=count_n, shards=shards,
                                    # off only for a Bot API of one's own without Telegram's limits (tests)
                                    flood_limits=os.environ.get("TELEGRAM_FLOOD_LIMITS", "on") != "off",
                                    web=web_from_env(os.environ),
                                    discord_api_url=os.environ.get("DISCORD_API_URL") or None))
    except KeyboardInterrupt:  # Ctrl-C or SIGINT from docker stop: a clean exit
        return OK
