"""Each chat platform started and kept running on its own, for ``tycoon run`` (``bot/process/run.py``).

A platform that cannot be reached is tried again with back-off, one warning line per attempt and
never a traceback, while the other platform (and the web table, and the clocks) go on: one is a
task of its own. A token the platform refuses is not tried again: ``TokenRefused`` ends the process
with one line naming the variable to fix. A Discord gateway that drops is connected again the same
way.

The first retry comes after ``FIRST_RETRY`` seconds (1 s), each next one after twice as long, up to
``MAX_RETRY``. ``TYCOON_FIRST_RETRY`` (seconds) changes the first one when the process starts: it is
for tests, which watch a process try again several times without waiting seconds for it (it is no
operator's setting, and not in the README's table).
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

from engine.service.runner import describe

log = logging.getLogger("bot.process.run")  # the start-up log lines of ``tycoon run``, one logger for all
MAX_RETRY = 60.0
Drain = Callable[[], Awaitable[None]]  # the service's drain: its table updates go out before a client closes


def _first_retry(environ) -> float:
    """``TYCOON_FIRST_RETRY`` when it is a number of seconds above zero (tests), else 1 s."""
    try:
        seconds = float(environ.get("TYCOON_FIRST_RETRY") or 1.0)
    except ValueError:
        return 1.0
    return seconds if 0 < seconds <= MAX_RETRY else 1.0


FIRST_RETRY = _first_retry(os.environ)


class TokenRefused(Exception):
    """The platform refused a token: nothing to retry, the admin must fix the variable."""


class GatewayGone(Exception):
    """The Discord client closed for good without being asked to: the process should restart."""


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


# -- Telegram ---------------------------------------------------------------------------------------


async def keep_telegram(app, stop: asyncio.Event, retry_first: float = FIRST_RETRY,
                        webhook: Webhook | None = None, drain: Drain | None = None) -> None:
    """The Telegram bot from start-up until ``stop``: getMe until the Bot API answers, then the
    command menu, the webhook (or polling) and the handlers; stopped in reverse on the way out,
    and before its HTTP client closes, the table updates being shown go out (``drain``)."""
    from telegram.error import InvalidToken, NetworkError

    from bot.telegram_app.app import register_commands

    token = app.bot.token
    initialized = False

    async def initialize():
        nonlocal initialized
        try:
            await app.initialize()  # getMe: is the token good, is the Bot API there
        except InvalidToken as e:
            said = str(e).replace(token, "…")  # never the token in a log
            raise TokenRefused(f"TELEGRAM_TOKEN was refused by Telegram ({said}); set it to the token @BotFather "
                               f"gave the bot (or fix TELEGRAM_API_URL when it is set)") from None
        initialized = True
        return True

    async def begin():
        await register_commands(app.bot, app.bot_data.get("front"))  # and the menu button
        if webhook is None:
            await app.bot.delete_webhook()  # what start_polling does first, here with our own retries
        else:  # several processes may call this: they all set the same address and secret
            await app.bot.set_webhook(webhook.url, secret_token=webhook.secret)
        if not app.running:
            await app.start()
        if webhook is None:
            await app.updater.start_polling()
        else:
            await app.updater.start_webhook(listen=webhook.listen, port=webhook.port, url_path=webhook.path,
                                            webhook_url=webhook.url, secret_token=webhook.secret)
            log.info("Telegram updates by webhook on %s:%s/%s", webhook.listen, webhook.port, webhook.path)
        return True

    try:
        if await retrying("the Telegram Bot API", initialize, (NetworkError,), stop, first=retry_first) is None:
            return
        if await retrying("the Telegram Bot API", begin, (NetworkError,), stop, first=retry_first) is None:
            return
        log.info("Telegram bot @%s is running", app.bot.username)
        await stop.wait()
    finally:
        with contextlib.suppress(Exception):
            if app.updater is not None and app.updater.running:
                await app.updater.stop()
        with contextlib.suppress(Exception):
            if app.running:
                await app.stop()  # the updates taken are answered
        if drain is not None:  # their table updates too, while the bot can still send them
            await drain()
        if initialized:
            with contextlib.suppress(Exception):
                await app.shutdown()


# -- Discord ----------------------------------------------------------------------------------------

# the names discord.py gives the tasks that handle what the gateway delivered: events (an
# interaction among them), component and modal callbacks, dynamic items, slash commands
DISCORD_HANDLERS = ("discord.py: ", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-", "CommandTree-invoker")
HANDLERS_GRACE = 10.0  # seconds a stopping process gives them


async def handlers_done(grace: float = HANDLERS_GRACE) -> None:
    """Wait (at most ``grace`` seconds) until discord.py's handlers of delivered interactions have
    finished: closing the client under them would leave a player's press unanswered."""
    loop = asyncio.get_running_loop()
    end = loop.time() + grace
    while loop.time() < end:
        busy = [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(DISCORD_HANDLERS)
                and t is not asyncio.current_task()]
        if not busy:
            return
        await asyncio.wait(busy, timeout=end - loop.time())


def _discord_errors():
    import aiohttp
    import discord

    transient = (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.DiscordServerError,
                 discord.GatewayNotFound, discord.ConnectionClosed)
    return discord.LoginFailure, transient


async def keep_discord(bot, token: str, stop: asyncio.Event, retry_first: float = FIRST_RETRY,
                       drain: Drain | None = None) -> None:
    """The Discord bot from start-up until ``stop``: logged in once Discord answers (each attempt on
    a fresh HTTP session), its slash commands synced, and the gateway connected, again after any
    drop that discord.py does not recover from itself."""
    import discord
    from discord.utils import MISSING

    refused, transient = _discord_errors()

    def refusal(e: BaseException) -> TokenRefused:
        return TokenRefused(f"DISCORD_TOKEN was refused by Discord ({e}); set it to the bot token from the "
                            f"Discord developer portal")

    async def fresh_session() -> None:
        # a closed session closes its connector too: the next login must make a new one
        with contextlib.suppress(Exception):
            await bot.http.close()
        bot.http.connector = MISSING

    async def login():
        try:
            await bot.login(token)  # runs setup_hook: buttons, translator, commands
        except refused as e:
            raise refusal(e) from None
        except transient:
            await fresh_session()
            raise
        return True

    async def close_on_stop():
        await stop.wait()
        await handlers_done()  # the interactions delivered are answered…
        if drain is not None:  # …and the table updates they made shown, before the client closes
            await drain()
        await bot.close()

    closer = asyncio.create_task(close_on_stop(), name="discord-close")
    try:
        if await retrying("Discord", login, transient, stop, first=retry_first) is None:
            return
        if await retrying("Discord (slash commands)", bot.sync_tree, transient, stop, first=retry_first) is None:
            return
        delay = retry_first
        while not stop.is_set():
            try:
                await bot.connect(reconnect=True)
                if not stop.is_set():
                    raise GatewayGone("the Discord client closed by itself")
            except refused as e:
                raise refusal(e) from None
            except discord.ConnectionClosed as e:
                if e.code == 4004:  # authentication failed: the token was revoked
                    raise refusal(e) from None
                log.warning("the Discord gateway closed (%s); connecting again in %.0f s", describe(e), delay)
            except transient as e:
                log.warning("the Discord gateway cannot be reached (%s); trying again in %.0f s", describe(e), delay)
            if stop.is_set():
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=delay)
            delay = min(delay * 2, MAX_RETRY)
    finally:
        closer.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await closer
        with contextlib.suppress(Exception):
            await bot.close()
