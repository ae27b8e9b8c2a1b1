"""A Discord on 127.0.0.1 for ``tycoon run``: the REST API (answered by ``DiscordAPI``, as strict
as Discord) and the gateway (a WebSocket speaking Discord's gateway protocol: HELLO, IDENTIFY,
READY, GUILD_CREATE, heartbeats, RESUME), so that the real discord.py client logs in, syncs its
commands, connects and receives interactions exactly as it would from Discord.

The bot is pointed at it with ``DISCORD_API_URL`` (``Route.BASE``; in-process tests through
``tests/bot/discord_app/harness.py``); the gateway's address comes from ``GET /gateway/bot``, as from
Discord. ``deliver`` sends an interaction down the gateway; ``settled`` waits until the bot has
answered it and made no request for a moment.

For the failures start-up must survive, ``unavailable`` paths answer 503 (Discord's own outage)
a given number of times; ``flood`` makes a channel's messages answer 429 with ``retry_after`` for a
while (``rate_limited`` lists those answers); ``requests`` lists every request as it arrived, with the token it
carried, answered or not; ``gateway_connections`` and ``hung_up`` count the gateway connections
opened and those the bot closed itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time

from aiohttp import WSMsgType, web

from tests.fakes.discord_api import APP_ID, BOT_USER, CHANNEL, GUILD, DiscordAPI

HEARTBEAT_MS = 41_250


def guild_payload() -> dict:
    """The one server the bot is in, as GUILD_CREATE carries it."""
    return {"id": str(GUILD), "name": "Tycoon club", "icon": None, "owner_id": "1", "member_count": 8,
            "large": False, "unavailable": False, "features": [], "roles": [], "emojis": [], "stickers": [],
            "members": [], "voice_states": [], "presences": [], "threads": [], "stage_instances": [],
            "guild_scheduled_events": [], "preferred_locale": "en-US", "premium_tier": 0, "nsfw_level": 0,
            "verification_level": 0, "explicit_content_filter": 0, "default_message_notifications": 0,
            "mfa_level": 0, "system_channel_flags": 0, "afk_timeout": 300,
            "channels": [{"id": str(CHANNEL), "type": 0, "guild_id": str(GUILD), "name": "games", "position": 0,
                          "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                          "rate_limit_per_user": 0, "last_message_id": None}]}


class DiscordServer:
    """REST under ``/api/v10`` and the gateway at ``/gateway``, over one ``DiscordAPI``."""

    def __init__(self, api: DiscordAPI | None = None, token: str = "discord-test-token") -> None:
        self.api = api or DiscordAPI()
        self.token = token
        self.port = 0
        self.identified = asyncio.Event()  # a client logged in on the gateway
        self.identifies = 0
        self.requests_in_flight = 0
        self.last_request = 0.0
        self.requests: list[tuple[str, str, str | None]] = []  # (method, path, bot token), answered or not
        self.unavailable: dict[str, int] = {}  # path -> how many more times it answers 503
        self.floods: dict[int, float] = {}  # channel -> until when (monotonic) its messages answer 429
        self.rate_limited: list[tuple[float, str, str]] = []  # (when, method, path) answered 429
        self.gateway_connections = 0
        self.hung_up = 0  # gateway connections the bot closed itself
        self.oauth = None  # an Activity's sign-in and instances in front (``discord_oauth.DiscordOAuth.attach``)
        self._stopping = False
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = 0
        self._runner: web.AppRunner | None = None

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def start(self) -> str:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self.api.gateway_url = f"ws://127.0.0.1:{self.port}/gateway"
        return self.api_url

    async def stop(self) -> None:
        self._stopping = True
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- REST --------------------------------------------------------------------------------------

    @staticmethod
    def _json(body, status: int) -> web.Response:
        # exactly "application/json", as Discord sends it (discord.py reads anything else as text)
        return web.Response(body=json.dumps(body).encode(), status=status,
                            headers={"Content-Type": "application/json"})

    def flood(self, channel: int, seconds: float) -> None:
        """Discord makes the bot wait ``seconds`` before writing to ``channel`` again (its messages'
        routes answer 429, as Discord does to a bot over a channel's limit)."""
        self.floods[channel] = time.monotonic() + seconds

    @staticmethod
    def _too_many(wait: float) -> web.Response:
        """Discord's 429: the wait in the body and the headers; ``Via`` as Discord's edge sends it
        (discord.py reads a 429 without it as a Cloudflare ban)."""
        body = {"message": "You are being rate limited.", "retry_after": round(wait, 3), "global": False}
        return web.Response(body=json.dumps(body).encode(), status=429, headers={
            "Content-Type": "application/json", "Retry-After": f"{wait:.3f}", "X-RateLimit-Reset-After": f"{wait:.3f}",
            "X-RateLimit-Scope": "user", "Via": "1.1 google"})

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self.requests_in_flight += 1
        try:
            path = "/" + request.match_info["path"]
            authorization = request.headers.get("Authorization", "")
            self.requests.append((request.method, path, authorization.removeprefix("Bot ") or None))
            flooded = re.match(r"/channels/(\d+)/messages", path)
            wait = self.floods.get(int(flooded[1]), 0.0) - time.monotonic() if flooded else 0.0
            if wait > 0:
                self.rate_limited.append((time.monotonic(), request.method, path))
                return self._too_many(wait)
            if self.unavailable.get(path, 0) > 0:
                self.unavailable[path] -= 1
                return self._json({"message": "503: Service Unavailable", "code": 0}, 503)
            if self.oauth is not None and self.oauth.handles(request.method, path, authorization):
                # a member's OAuth2 code or token, or the bot asking about an Activity instance
                status, body = self.oauth.answer(request.method, path, authorization, request.content_type,
                                                 await request.read())
                return self._json(body, status)
            if authorization != f"Bot {self.token}" and "/webhooks/" not in request.path \
                    and "/interactions/" not in request.path:
                return self._json({"message": "401: Unauthorized", "code": 0}, 401)
            payload, files = None, []
            if request.content_type.startswith("multipart/"):
                reader = await request.multipart()
                async for part in reader:
                    if part.name == "payload_json":
                        payload = json.loads(await part.text())
                    elif part.filename:
                        files.append((part.filename, bytes(await part.read())))
            elif request.can_read_body:
                body = await request.read()
                payload = json.loads(body) if body else None
            status, body = self.api.handle(request.method, path, payload, files)
            if status == 200 and body is None:
                return web.Response(status=204)
            return self._json(body, status)
        finally:
            self.requests_in_flight -= 1
            self.last_request = time.monotonic()

    # -- the gateway ---------------------------------------------------------------------------------

    async def _send(self, ws: web.WebSocketResponse, op: int, data, event: str | None = None) -> None:
        seq = None
        if op == 0:
            self._seq += 1
            seq = self._seq
        await ws.send_str(json.dumps({"op": op, "d": data, "s": seq, "t": event}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.gateway_connections += 1
        self._sockets.append(ws)
        await self._send(ws, 10, {"heartbeat_interval": HEARTBEAT_MS})
        refused = False
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:  # heartbeat
                    await self._send(ws, 11, None)
                elif op == 2:  # identify
                    if data.get("token") != self.token:
                        refused = True
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    self.identifies += 1
                    shard = data.get("shard") or [0, 1]
                    await self._send(ws, 0, {
                        "v": 10, "user": dict(BOT_USER), "guilds": [{"id": str(GUILD), "unavailable": True}],
                        "session_id": f"session{self.identifies}", "resume_gateway_url": self.api.gateway_url,
                        "shard": shard, "application": {"id": str(APP_ID), "flags": 0}}, "READY")
                    await self._send(ws, 0, guild_payload(), "GUILD_CREATE")
                    self.identified.set()
                elif op == 6:  # resume
                    await self._send(ws, 0, None, "RESUMED")
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
            if not (self._stopping or refused):
                self.hung_up += 1
        return ws

    async def deliver(self, payload: dict) -> None:
        """An interaction, sent down the gateway as Discord sends it (INTERACTION_CREATE)."""
        self.api.issue(payload)
        assert self._sockets, "no bot is connected to the gateway"
        await self._send(self._sockets[-1], 0, payload, "INTERACTION_CREATE")

    async def settled(self, token: str, quiet: float = 0.3, timeout: float = 60.0) -> None:
        """Until the bot answered the interaction ``token`` and then sent nothing for ``quiet``
        seconds (its follow-ups, table messages and DMs are out)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            answered = bool(self.api.interactions[token].answers)
            idle = self.requests_in_flight == 0 and time.monotonic() - self.last_request >= quiet
            if answered and idle:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"interaction {token} not answered within {timeout} s")
