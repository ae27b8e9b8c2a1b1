"""The Discord Activity (issue 49): the web table inside Discord, in the frame Discord's client opens
in a channel (from the ``/play`` Entry Point command, the App Launcher, or "Open table" under a
table's message). Discord keeps one Activity instance per channel; each is joined to that channel's
table, the same table the bot's messages show, so a member has one seat whatever door they used.

Why the server does the signing in: the page cannot be trusted about who it is or where it runs
(Discord: "do not trust data coming from the Discord client"), so it only carries what Discord gave
it, and this module asks Discord itself:

1. The page (``table.html`` in mode ``dc``; ``static/activity.js`` with the Embedded App SDK from
   ``static/vendor``) does the SDK's handshake, ``ready()``, then ``authorize`` (scope ``identify``):
   an OAuth2 code.
2. ``POST /api/discord/token`` ``{"code", "instance_id"}``: the code is exchanged at Discord
   (``POST {api}/oauth2/token``: client id and secret, ``grant_type=authorization_code``), the user
   read with the access token (``GET {api}/users/@me``), and the Activity instance asked of Discord
   with the bot's token (``GET {api}/applications/{client id}/activity-instances/{instance}``,
   Discord's own way to check a client's claim): the user must be in it, and its location names the
   channel, whose chat key is the bot's (``dc:<guild or 0>:<channel>``; a thread's table is found as
   the bot finds it). The answer: the access token (for the SDK's ``authenticate``), a session
   signed as that Discord user (``auth.discord_session``: seat user ``dc:<id>``, the bot's), the
   user's language and its words, and the channel's table (``state``). A code Discord refuses: 403
   with ``web.err.dc_code``'s words.
3. ``GET /api/discord/state?s=<session>&instance=<id>`` (the page polls it while a lobby waits) and
   ``POST /api/discord/table`` ``{"session", "instance_id", "op", "game"?}`` with ``op`` one of
   ``open`` (a lobby of ``game`` in the channel, its opener seated), ``join``, ``leave``, ``ai``,
   ``start``: the instance checked again (remembered a few minutes), then the lobby's own rules
   (``engine.service.lobby``). Once the game runs, the page is the table page, over its WebSocket;
   a member without a seat watches it (``state["watch"]``: the spectator key).

A lobby changed here is shown in the channel's lobby message by ``chat_lobby``, when the Discord bot
runs in this process (``tycoon run`` sets it: ``bot/discord_app/activity.py``); elsewhere the
message catches up at the channel's next lobby press.

Settings (``DiscordSettings.from_env``): ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` (the
application's OAuth2 client; both, or no Activity), ``DISCORD_TOKEN`` (the bot's, for the instance
check), ``DISCORD_API_URL`` (Discord's API by default; a fake in the tests). Discord's proxy serves
the page at ``https://<client id>.discordsays.com``; its POSTs and WebSocket come with that origin,
which ``context.origin_ok`` accepts (``SETTINGS["origins"]``).
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp
from aiohttp import web

from bot.chat.inputs import clean_name
from bot.web import auth
from bot.web.api import _json_body, _post_guard
from bot.web.context import HUB, SERVICE, SETTINGS, lang_of, refuse
from engine.games import GAMES
from engine.service.lobby import runs
from engine.service.storage import keyvalue
from engine.service.tournaments import base_chat
from engine.service.views import PublicView
from words.i18n import normalise_lang

log = logging.getLogger("bot.web.server")

DISCORD_API = "https://discord.com/api/v10"
PROXY_DOMAIN = "discordsays.com"  # Discord's proxy serves an Activity at https://<client id>.<this>
SCOPES = ("identify",)  # who the member is; the channel comes from the instance, asked with the bot's token
SEEN_SECONDS = 300.0  # an instance checked with Discord is taken as checked this long (the page polls)
OPS = ("join", "leave", "ai", "start")  # what the Activity's lobby panel does besides opening a table
_SNOWFLAKE = re.compile(r"[1-9][0-9]{0,19}")
_CODE = re.compile(r"[A-Za-z0-9_-]{1,200}")
_INSTANCE = re.compile(r"[A-Za-z0-9_.:-]{1,200}")


@dataclass(frozen=True)
class DiscordSettings:
    """The Discord application whose Activity this is."""

    client_id: str
    client_secret: str
    bot_token: str | None = None
    api: str = DISCORD_API

    @classmethod
    def from_env(cls, environ) -> DiscordSettings | None:
        """``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` set: the Activity is on; else None."""
        client, secret = environ.get("DISCORD_CLIENT_ID") or "", environ.get("DISCORD_CLIENT_SECRET") or ""
        if not client or not secret:
            return None
        if not _SNOWFLAKE.fullmatch(client):
            log.error("DISCORD_CLIENT_ID is the application's id (digits), not %r: the Discord Activity is off",
                      client[:30])
            return None
        return cls(client, secret, environ.get("DISCORD_TOKEN") or None,
                   (environ.get("DISCORD_API_URL") or DISCORD_API).rstrip("/"))

    @property
    def origin(self) -> str:
        """The host Discord's proxy serves the Activity from (its requests' ``Origin``)."""
        return f"{self.client_id}.{PROXY_DOMAIN}"


class Refusal(Exception):
    """What to answer the page instead: a status and the catalogue key of its words."""

    def __init__(self, status: int, key: str) -> None:
        super().__init__(key)
        self.status, self.key = status, key


@dataclass(frozen=True)
class Member:
    """A Discord user as Discord confirmed them."""

    id: str
    name: str
    lang: str | None


class Activity:
    """Discord's side of the Activity: the code exchange, the user, the instance (with a short
    memory of instances already checked, and of each user's name), over one HTTP client."""

    def __init__(self, settings: DiscordSettings | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        # ``tycoon run`` with the Discord bot in this process: show a lobby changed here in its channel
        self.chat_lobby: Callable[[int], Awaitable[None]] | None = None
        self._http: aiohttp.ClientSession | None = None
        self._seen: dict[tuple[str, str], tuple[str, float]] = {}  # (instance, user) -> (chat key, until)
        self._names: dict[str, str] = {}  # user -> their name, as Discord last said

    async def close(self, _app=None) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    async def _call(self, method: str, path: str, **kwargs) -> tuple[int, dict]:
        """One request to Discord's API: (status, JSON body); Discord out of reach: a 502 refusal."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15),
                                               headers={"User-Agent": "DiscordBot (tycoon, 1)"})
        try:
            async with self._http.request(method, self.settings.api + path, **kwargs) as response:
                body = await response.json(content_type=None) if response.content_length != 0 else {}
                return response.status, body if isinstance(body, dict) else {}
        except (aiohttp.ClientError, TimeoutError, ValueError) as e:
            log.warning("Discord's API could not be reached for the Activity (%s %s): %s", method, path, e)
            raise Refusal(502, "web.err.dc_unavailable") from None

    async def exchange(self, code: str) -> str:
        """The access token Discord gives for an ``authorize`` code of this application."""
        s = self.settings
        status, body = await self._call("POST", "/oauth2/token", data={
            "client_id": s.client_id, "client_secret": s.client_secret, "grant_type": "authorization_code",
            "code": code})
        token = body.get("access_token")
        if status == 200 and isinstance(token, str) and token:
            if not set(SCOPES) <= set(str(body.get("scope", "")).split()):
                raise Refusal(403, "web.err.dc_code")
            return token
        if status == 401 or body.get("error") == "invalid_client":
            log.error("Discord refused the Activity's client (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET): %s", body)
            raise Refusal(503, "web.err.no_discord")
        if status == 400:  # invalid_grant: a made-up code, one used already, or another application's
            log.info("Discord refused an Activity's code: %s", body.get("error"))
            raise Refusal(403, "web.err.dc_code")
        log.warning("Discord answered the code exchange with %s: %s", status, body)
        raise Refusal(502, "web.err.dc_unavailable")

    async def member(self, access_token: str) -> Member:
        """Who an access token belongs to (``identify``): their id, name and Discord language."""
        status, body = await self._call("GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"})
        uid = body.get("id")
        if status == 401:
            raise Refusal(403, "web.err.dc_code")
        if status != 200 or not isinstance(uid, str) or not _SNOWFLAKE.fullmatch(uid):
            log.warning("Discord answered /users/@me with %s", status)
            raise Refusal(502, "web.err.dc_unavailable")
        name = body.get("global_name") or body.get("username")
        locale = body.get("locale")
        member = Member(uid, clean_name(name if isinstance(name, str) else None, uid),
                        locale if isinstance(locale, str) else None)
        if len(self._names) > 10_000:
            self._names.clear()
        self._names[uid] = member.name
        return member

    async def chat_of(self, instance: str, user: str) -> str:
        """The chat key of the channel ``instance`` runs in, once Discord says ``user`` is in it."""
        now = self.clock()
        seen = self._seen.get((instance, user))
        if seen is not None and seen[1] > now:
            return seen[0]
        s = self.settings
        if not s.bot_token:
            log.error("the Discord Activity needs DISCORD_TOKEN, the bot's, to check where an instance runs")
            raise Refusal(503, "web.err.no_discord")
        status, body = await self._call("GET", f"/applications/{s.client_id}/activity-instances/{instance}",
                                        headers={"Authorization": f"Bot {s.bot_token}"})
        if status in (401, 403):
            log.error("Discord refused the bot's token (DISCORD_TOKEN) for an Activity instance: %s", body)
            raise Refusal(503, "web.err.no_discord")
        where = body.get("location") if status == 200 else None
        users = body.get("users") if status == 200 else None
        if status == 404 or not isinstance(where, dict) or not isinstance(users, list) or user not in users \
                or str(body.get("application_id")) != s.client_id:
            log.info("an Activity instance refused: %s (status %s, user %s)", instance[:80], status, user)
            raise Refusal(403, "web.err.dc_instance")
        channel, guild = str(where.get("channel_id") or ""), str(where.get("guild_id") or "0")
        if not _SNOWFLAKE.fullmatch(channel) or not (guild == "0" or _SNOWFLAKE.fullmatch(guild)):
            raise Refusal(403, "web.err.dc_instance")
        chat = f"dc:{guild}:{channel}"
        if len(self._seen) > 10_000:
            self._seen.clear()
        self._seen[(instance, user)] = (chat, now + SEEN_SECONDS)
        return chat

    async def name_of(self, user: str, access_token: object) -> str:
        """A user's name for their seat: as Discord said at sign-in (this process), else asked again."""
        if user in self._names:
            return self._names[user]
        if not isinstance(access_token, str) or not access_token:
            raise Refusal(403, "web.err.dc_session")
        member = await self.member(access_token)
        if member.id != user:
            raise Refusal(403, "web.err.dc_session")
        return member.name


ACTIVITY = web.AppKey("discord_activity", Activity)


def thread_key(thread_id: str) -> str:
    """The note that a table plays in a thread: the bot's own (``bot/discord_app/threads.py``)."""
    return f"dc.thread.{thread_id}"


async def table_of(service, chat: str) -> PublicView | None:
    """The channel's open table, or the table playing in it when the channel is a table's thread."""
    row = await service.lobby.table_in_chat(chat)
    table = row.id if row is not None else None
    if table is None:
        stored = await keyvalue.get_value(service.db, thread_key(chat.rsplit(":", 1)[1]))
        table = int(stored) if stored and stored.isdigit() else None
    view = await service.public_view(table) if table is not None else None
    if view is None or view.status not in ("lobby", "running", "paused"):
        return None
    here = chat == base_chat(view.chat_key) or str(view.messages.get("dc_thread")) == chat.rsplit(":", 1)[1]
    return view if here else None


async def state(service, chat: str, user: str) -> dict:
    """What the Activity shows of the channel: no table (the games one may open), a lobby (its seats,
    whether the member sits there, runs it, could still sit down), or a game (to play, or to watch)."""
    view = await table_of(service, chat)
    if view is None:
        return {"table": None, "games": list(GAMES)}
    seat = view.seat_of(user)
    seats = [{"user": s.user, "ai": s.ai} for s in view.seats]
    out = {"table": view.table, "game": view.game, "status": view.status, "seated": seat is not None,
           "seats": [s.name for s in view.seats], "runs": runs(view.creator, seats, user),
           "full": len(view.seats) >= GAMES[view.game].rules.max_players}
    if seat is None and view.status != "lobby":
        out["watch"] = service.sign(f"v:{view.table}")
    return out


def _text(body: dict | None, field: str, shape: re.Pattern) -> str | None:
    value = (body or {}).get(field)
    return value if isinstance(value, str) and shape.fullmatch(value) else None


async def token(request: web.Request) -> web.Response:
    """``POST /api/discord/token``: an ``authorize`` code and the instance → who, where, a session."""
    refused = _post_guard(request)
    if refused:
        return refused
    lang, activity, service = lang_of(request), request.app[ACTIVITY], request.app[SERVICE]
    if activity.settings is None:
        return refuse(404, lang, "web.err.no_discord")
    body = await _json_body(request)
    code, instance = _text(body, "code", _CODE), _text(body, "instance_id", _INSTANCE)
    if code is None or instance is None:
        return refuse(400, lang, "web.err.malformed")
    try:
        access = await activity.exchange(code)
        member = await activity.member(access)
        chat = await activity.chat_of(instance, member.id)
    except Refusal as e:
        return refuse(e.status, lang, e.key)
    if "lang" not in request.query and member.lang:  # the page in the member's own Discord language
        lang = normalise_lang(member.lang)
    user = f"dc:{member.id}"
    log.info("Discord Activity sign-in: %s in %s", user, chat)
    return web.json_response({
        "access_token": access, "session": auth.discord_session(service.sign, int(member.id)),
        "user": {"id": member.id, "name": member.name}, "lang": lang, "words": request.app[WORDS](lang),
        "state": await state(service, chat, user)})


async def _signed_in(request: web.Request, session: object, instance: object) -> tuple[str, str]:
    """The Discord user a session names and the chat key of their instance's channel, or Refusal."""
    user = auth.user_of(request.app[SERVICE].unsign, session if isinstance(session, str) else None)
    if user is None or not user.startswith("dc:"):
        raise Refusal(403, "web.err.dc_session")
    if not isinstance(instance, str) or not _INSTANCE.fullmatch(instance):
        raise Refusal(400, "web.err.malformed")
    return user, await request.app[ACTIVITY].chat_of(instance, user[3:])


async def table_state(request: web.Request) -> web.Response:
    """``GET /api/discord/state?s=<session>&instance=<id>``: the channel's table as it is now."""
    lang, activity = lang_of(request), request.app[ACTIVITY]
    if activity.settings is None:
        return refuse(404, lang, "web.err.no_discord")
    try:
        user, chat = await _signed_in(request, request.query.get("s"), request.query.get("instance"))
    except Refusal as e:
        return refuse(e.status, lang, e.key)
    return web.json_response({"state": await state(request.app[SERVICE], chat, user)})


async def table_op(request: web.Request) -> web.Response:
    """``POST /api/discord/table``: open a lobby in the channel, or join, leave, add an AI seat to,
    start the channel's lobby; the lobby's rules decide, as for a press in the channel."""
    refused = _post_guard(request)
    if refused:
        return refused
    lang, activity, service = lang_of(request), request.app[ACTIVITY], request.app[SERVICE]
    if activity.settings is None:
        return refuse(404, lang, "web.err.no_discord")
    body = await _json_body(request) or {}
    op = body.get("op")
    if op != "open" and op not in OPS:
        return refuse(400, lang, "web.err.malformed")
    try:
        user, chat = await _signed_in(request, body.get("session"), body.get("instance_id"))
        name = await activity.name_of(user[3:], body.get("access_token"))
    except Refusal as e:
        return refuse(e.status, lang, e.key)
    view = await table_of(service, chat)
    if op == "open":
        game = body.get("game")
        if not isinstance(game, str) or game not in GAMES:
            return refuse(400, lang, "service.unknown_game", game=str(game)[:20])
        outcome = await service.lobby.new_table(chat, game, None, user, name)
    elif view is None or view.status != "lobby":
        return refuse(409, lang, "service.no_lobby")
    else:
        outcome = await service.lobby.op(view.table, op, user, name, seed=request.app[HUB].seed)
    if not outcome.ok:
        return refuse(409, lang, outcome.key, **outcome.params)
    await _shown_elsewhere(request.app, outcome.table)
    return web.json_response({"state": await state(service, chat, user)})


async def _shown_elsewhere(app: web.Application, table: int | None) -> None:
    """A lobby changed here: the channel's lobby message (the bot, when in this process) and the
    table's pages follow; neither failing undoes the change."""
    if table is None:
        return
    hook = app[ACTIVITY].chat_lobby
    if hook is not None:
        try:
            await hook(table)
        except Exception:
            log.exception("table %s: the channel's lobby message could not follow the Activity", table)
    if table in app[HUB].clients:
        with contextlib.suppress(Exception):
            await app[HUB].show(table)


WORDS = web.AppKey("discord_activity_words", Callable)


def add_routes(app: web.Application, settings: DiscordSettings | None, words: Callable[[str], dict]) -> None:
    """The Activity's API (its page is ``server.py``'s), its Discord client, and its origin allowed."""
    app[ACTIVITY] = Activity(settings)
    app[WORDS] = words
    app.on_cleanup.append(app[ACTIVITY].close)
    if settings is not None:
        app[SETTINGS].setdefault("origins", set()).add(settings.origin)
    app.router.add_post("/api/discord/token", token)
    app.router.add_get("/api/discord/state", table_state)
    app.router.add_post("/api/discord/table", table_op)


def launched(request: web.Request) -> bool:
    """A page asked by Discord's client for an Activity: its launch parameters in the address."""
    return "frame_id" in request.query and "instance_id" in request.query
