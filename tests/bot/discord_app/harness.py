"""The real discord.py client against the fake Discord of ``tests/fakes/discord_server.py``, in the
test's own event loop, through the doors a bot uses with Discord and no others: REST at
``Route.BASE`` (what ``DISCORD_API_URL`` sets in ``tycoon run``), ``login`` with a token, the gateway
reached by ``connect``, interactions arriving as INTERACTION_CREATE frames and answered over HTTP.

Why a harness and not patches: a test that sets discord.py's private state or swaps its HTTP
methods breaks, or passes for the wrong reason, whenever discord.py changes what is behind them;
a test that only speaks Discord's wire protocol proves what production does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import discord
import discord.http

from tests.fakes.discord_api import DiscordAPI
from tests.fakes.discord_server import DiscordServer

TOKEN = "discord-test-token"
SAFETY = 60.0  # seconds: a bot that never gets there fails its test instead of hanging the run


async def until(condition: Callable[[], bool], what: str, timeout: float = SAFETY) -> None:
    """Until ``condition()`` holds (checked every few milliseconds), or fail naming ``what``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        await asyncio.sleep(0.005)


@contextlib.asynccontextmanager
async def fake_discord(monkeypatch, api: DiscordAPI | None = None, token: str = TOKEN):
    """A fake Discord on 127.0.0.1 over ``api``, and discord.py's REST base pointed at it (as
    ``DISCORD_API_URL`` points ``tycoon run``; ``monkeypatch`` puts Discord's own back after the test)."""
    server = DiscordServer(api, token)
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_url)
    try:
        yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def online(client: discord.Client, server: DiscordServer):
    """``client`` logged in with the server's token (discord.py's login: the bot user, the
    application, then ``setup_hook``) and connected to its gateway, READY read (discord.py's
    ``connect`` event); closed on the way out, its gateway task ended.

    It does not wait for discord.py's ``on_ready``: discord.py holds that back until no guild has
    arrived for ``guild_ready_timeout`` (2 s, an option ``TycoonBot`` does not take), and nothing
    needs it: the gateway is one ordered stream, so an interaction delivered later is read after
    READY and GUILD_CREATE, with the bot user and the guild known (``serving`` tells ``handled``
    which of discord.py's tasks are its wait for the guilds, not work of an interaction)."""
    await client.login(server.token)
    connected = asyncio.ensure_future(client.wait_for("connect", timeout=SAFETY))
    gateway = asyncio.create_task(client.connect(reconnect=False), name="discord-gateway")
    try:
        await asyncio.wait([connected, gateway], return_when=asyncio.FIRST_COMPLETED)
        if not connected.done():
            gateway.result()  # what ended it
            raise AssertionError("the gateway connection ended before READY")
        connected.result()
        yield client
    finally:
        connected.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(gateway, SAFETY)


def serving(task: asyncio.Task) -> bool:
    """Tasks that outlive an interaction by design: the fake server's connections (aiohttp keeps
    one task per keep-alive connection), the timer of an ephemeral view (15 minutes),
    discord.py's wait for more guilds after READY (a queue read it gives up after 2 s, started
    again whenever a guild arrives), and a table's wait for a channel Discord asked to wait
    (``TableChannel.caught_up`` waits for those)."""
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", "")
    return name in ("RequestHandler.start", "Queue.get", "TableChannel._catch_up", "TableChannel._tidy_later") \
        or "timeout_task" in repr(coro)


async def handled(client: discord.Client, server: DiscordServer, payload: dict) -> None:
    """``payload`` delivered down the gateway, and everything the bot does with it finished: the
    interaction read (discord.py's ``interaction`` event: by then it has started the command's or
    the button's handler), then every task started since, its REST calls answered included."""
    wanted = int(payload["id"])
    read = asyncio.ensure_future(client.wait_for("interaction", check=lambda i: i.id == wanted, timeout=SAFETY))
    before = set(asyncio.all_tasks())
    try:
        await server.deliver(payload)
        await read
    finally:
        read.cancel()  # done already, unless the delivery failed
    me, loop = asyncio.current_task(), asyncio.get_running_loop()
    deadline = loop.time() + SAFETY
    while loop.time() < deadline:
        pending = [t for t in asyncio.all_tasks() - before if t is not me and not t.done() and not serving(t)]
        if pending:
            await asyncio.wait(pending, timeout=0.05)
        elif server.requests_in_flight:
            await asyncio.sleep(0.005)
        else:
            return
    raise AssertionError(f"the bot was still busy with {payload.get('data')} after {SAFETY:.0f} s")
