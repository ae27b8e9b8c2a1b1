"""``tycoon run``: the chat bots whose tokens are set, the web table when asked, and health and
metrics, in one process around one ``GameService`` and its one supervised clock task.

Every part is a task of its own (``bot/process/platforms.py``): Telegram and Discord are each started and
retried on their own, so one that cannot be reached never keeps the other (or the clocks) waiting.
Each front end subscribes to the service's table updates and shows those of its own chats.

Exit status: 0 after a requested stop (SIGINT, Ctrl-C); 1 when the process should be started again
(the database gone too long, the Discord client closed by itself); 2 for a refused token or a
setting the process cannot start with, with one line naming the variable to fix.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from dataclasses import dataclass

from bot.process.platforms import FIRST_RETRY, GatewayGone, TokenRefused, Webhook, keep_discord, keep_telegram, retrying
from bot.process.stopping import stop_on_signals
from engine.service.runner import ServiceDown, describe
from engine.service.storage.errors import DB_ERRORS
from engine.service.tables import GameService

log = logging.getLogger(__name__)

HEARTBEAT = os.environ.get("TYCOON_HEARTBEAT", "/tmp/tycoon-heartbeat")
OK, GAVE_UP, BAD_SETTING = 0, 1, 2
BAD_TOKEN = BAD_SETTING  # the name older callers use


class SettingError(ValueError):
    """An environment variable the process cannot start with: the message names it."""


def choose_bots(environ) -> tuple[str | None, str | None]:
    """The tokens that are set: (Telegram, Discord); both ``None`` means the web table."""
    return environ.get("TELEGRAM_TOKEN") or None, environ.get("DISCORD_TOKEN") or None


def shard_ids(text: str | None) -> list[int] | None:
    """``DISCORD_SHARD_IDS``: "0-3", "0,2,5" or a mix; None when unset."""
    if not text:
        return None
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, _, high = part.partition("-")
        out += list(range(int(low), int(high or low) + 1))
    return out


def _port(environ, name: str, default: str | None) -> int | None:
    text = environ.get(name) or default
    if text is None:
        return None
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise SettingError(f"{name} is a port number such as 8080, not {text!r}")
    return int(text)


def web_from_env(environ) -> tuple[str, int, str] | None:
    """With ``TYCOON_WEB_URL`` (the web table's public address) the bots' process serves it too,
    on ``TYCOON_WEB_HOST``:``TYCOON_WEB_PORT`` (default 0.0.0.0:8080, behind the proxy that URL names),
    unless ``TYCOON_SERVE_WEB=off`` (another process serves it; the bots only link to it)."""
    url = environ.get("TYCOON_WEB_URL")
    if not url or environ.get("TYCOON_SERVE_WEB", "on").lower() in ("off", "0", "no", "false"):
        return None
    return environ.get("TYCOON_WEB_HOST", "0.0.0.0"), _port(environ, "TYCOON_WEB_PORT", "8080"), url.rstrip("/")


@dataclass(frozen=True)
class Settings:
    """What ``tycoon run`` reads from the environment (the README's table lists each variable)."""

    telegram: str | None
    discord: str | None
    database_url: str | None
    lang: str
    telegram_api_url: str | None
    webhook: Webhook | None
    shard_count: int | None
    shards: list[int] | None
    flood_limits: bool
    web: tuple[str, int, str] | None
    discord_api_url: str | None
    metrics: tuple[str, int] | None
    telegram_processes: int = 1  # processes sharing one bot token: each keeps its share of the limits

    @classmethod
    def from_env(cls, environ, lang: str | None = None) -> Settings:
        telegram, discord = choose_bots(environ)
        count = environ.get("DISCORD_SHARD_COUNT")
        try:
            shards = shard_ids(environ.get("DISCORD_SHARD_IDS"))
            count_n = int(count) if count else None
        except ValueError:
            raise SettingError("DISCORD_SHARD_COUNT and DISCORD_SHARD_IDS are numbers: a count, and ids like 0-3 "
                               "or 0,2,5") from None
        if shards and (count_n is None or max(shards) >= count_n):
            raise SettingError(f"DISCORD_SHARD_IDS {shards} needs DISCORD_SHARD_COUNT above its largest id")
        metrics_port = _port(environ, "TYCOON_METRICS_PORT", None)
        try:
            processes = int(environ.get("TELEGRAM_PROCESSES") or 1)
        except ValueError:
            processes = 0
        if processes < 1:
            raise SettingError("TELEGRAM_PROCESSES is how many processes serve one Telegram bot: a whole number, "
                               "1 or more")
        return cls(telegram, discord, environ.get("DATABASE_URL"), lang or environ.get("TYCOON_LANG", "zh-Hans"),
                   environ.get("TELEGRAM_API_URL"), Webhook.from_env(environ, telegram), count_n, shards,
                   # off only for a Bot API of one's own without Telegram's limits (tests)
                   environ.get("TELEGRAM_FLOOD_LIMITS", "on") != "off", web_from_env(environ),
                   environ.get("DISCORD_API_URL") or None,
                   (environ.get("TYCOON_METRICS_HOST", "0.0.0.0"), metrics_port) if metrics_port else None,
                   processes)


async def run_bots(telegram_token: str | None, discord_token: str | None, database_url: str | None,
                   lang: str = "zh-Hans", api_url: str | None = None, stop: asyncio.Event | None = None,
                   telegram_request=None, heartbeat: str | None = None, retry_first: float = FIRST_RETRY,
                   webhook: Webhook | None = None, shard_count: int | None = None,
                   shards: list[int] | None = None, flood_limits: bool = True,
                   web: tuple[str, int, str] | None = None, discord_api_url: str | None = None,
                   metrics: tuple[str, int] | None = None, telegram_processes: int = 1) -> int:
    """Run until ``stop`` is set or something cannot go on; the process's exit status. ``web``:
    (host, port, public URL) to serve the web table too (Mini App, spectators) on this service;
    ``metrics``: (host, port) for ``/healthz`` and ``/metrics`` when the web table is not served.
    ``discord_api_url``: a Discord-compatible REST API instead of Discord's own (a shared
    rate-limit proxy, or the tests' fake Discord); the gateway's address comes from it.
    ``telegram_processes``: how many processes serve the Telegram bot (each keeps that share of
    Telegram's limits, so that together they stay under them)."""
    stop = stop or asyncio.Event()
    heartbeat = HEARTBEAT if heartbeat is None else heartbeat
    service = await retrying("the database", lambda: GameService.open(database_url, lazy=True), DB_ERRORS, stop,
                             first=retry_first)
    if service is None:
        return OK
    tasks: list[asyncio.Task] = []
    lobbies = []  # each bot's lobby messages, for lobbies changed on the web (the Mini App, the Activity)
    runners = []
    try:
        if telegram_token:
            from bot.telegram_app.app import build_application
            from bot.telegram_app.lanes import Limits

            base_url = f"{api_url.rstrip('/')}/bot" if api_url else None
            app = build_application(service, telegram_token, base_url=base_url, request=telegram_request, lang=lang,
                                    rate_limit=flood_limits, limits=Limits().shared(telegram_processes))
            tasks.append(asyncio.create_task(keep_telegram(app, stop, retry_first, webhook, service.drain),
                                             name="telegram"))
            lobbies.append(app.bot_data["front"].flows.changed_elsewhere)
        if discord_token:
            import discord.http

            from bot.discord_app.activity import chat_lobby
            from bot.discord_app.app import TycoonBot

            if discord_api_url:
                discord.http.Route.BASE = discord_api_url.rstrip("/")
            bot = TycoonBot(service, lang, sync_commands=True, shard_count=shard_count, shard_ids=shards)
            lobbies.append(chat_lobby(bot.front.ctx))
            tasks.append(asyncio.create_task(keep_discord(bot, discord_token, stop, retry_first, service.drain),
                                             name="discord"))
        try:
            runners += await _serve_http(service, lang, telegram_token, web, metrics, api_url, lobbies)
        except OSError as e:  # the port is taken, or the address is not this machine's
            log.error("cannot serve HTTP (%s); set TYCOON_WEB_PORT or TYCOON_METRICS_PORT to a free port",
                      e.strerror or e)
            return BAD_SETTING
        tasks.append(asyncio.create_task(service.run(stop=stop, every=1.0, heartbeat=heartbeat or None),
                                         name="clock"))
        return await _until_done(tasks, stop)
    finally:
        stop.set()
        for task in tasks:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task
        for runner in runners:
            await runner.cleanup()
        await service.idle()
        await service.close()


async def _serve_http(service, lang: str, bot_token: str | None, web, metrics, api_url: str | None = None,
                      lobbies=None) -> list:
    """The web table (with /healthz and /metrics), or only those two on the metrics port; ``api_url``:
    the Bot API the bot uses (the Mini App's invites go through it too); ``lobbies``: how each chat
    bot of this process shows, in its chat, a lobby changed through the web (the Telegram Mini App,
    the Discord Activity)."""
    from bot.process import health

    runners = []
    if web is not None:  # in this process: the pages follow the moves of this service at once
        from bot.web.activity import ACTIVITY
        from bot.web.server import make_app, start_site

        app = make_app(service, lang=lang, bot_token=bot_token, public_url=web[2], telegram_api_url=api_url)
        if lobbies:
            async def shown(table: int) -> None:
                for show in lobbies:  # each platform's own tables only
                    await show(table)

            app[ACTIVITY].chat_lobby = shown
        runner, address = await start_site(app, web[0], web[1])
        runners.append(runner)
        log.info("the web table on %s (public address %s)", address, web[2])
    if metrics is not None and (web is None or metrics[1] != web[1]):
        runners.append(await health.start(service, *metrics))
        log.info("/healthz and /metrics on %s:%s", *metrics)
    return runners


async def _until_done(tasks: list[asyncio.Task], stop: asyncio.Event) -> int:
    """Wait for a stop, or for a part that cannot go on; the exit status."""
    waiter = asyncio.create_task(stop.wait(), name="stop")
    running = [*tasks, waiter]
    try:
        while running:
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                running.remove(task)
                if task is waiter or task.cancelled():
                    return OK
                error = task.exception()
                if error is None:  # a platform that ended because the stop came
                    if stop.is_set():
                        return OK
                    continue
                if isinstance(error, TokenRefused):
                    log.error("%s", error)
                    return BAD_SETTING
                if isinstance(error, ServiceDown):
                    log.error("the clock task gave up: %s; exiting so that the process is started again", error)
                elif isinstance(error, GatewayGone):
                    log.error("%s; exiting so that the process is started again", error)
                else:
                    log.error("%s ended: %s", task.get_name(), describe(error), exc_info=error)
                return GAVE_UP
        return OK
    finally:
        waiter.cancel()


def main_from_env(lang: str | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        s = Settings.from_env(os.environ, lang)
    except SettingError as e:
        log.error("%s", e)
        return BAD_SETTING
    async def until_stopped() -> int:
        stop = asyncio.Event()
        stop_on_signals(stop)  # SIGTERM and SIGINT: drain, then exit 0
        return await run_bots(s.telegram, s.discord, s.database_url, s.lang, s.telegram_api_url, stop=stop,
                              webhook=s.webhook, shard_count=s.shard_count, shards=s.shards,
                              flood_limits=s.flood_limits, web=s.web, discord_api_url=s.discord_api_url,
                              metrics=s.metrics, telegram_processes=s.telegram_processes)

    try:
        return asyncio.run(until_stopped())
    except KeyboardInterrupt:  # a second Ctrl-C while draining: stop at once
        return OK
