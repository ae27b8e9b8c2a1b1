"""The web table's HTTP side (aiohttp): pages, the WebSocket of a table page, and the application
around them (the JSON API is ``api.py``, what every handler reads of its request ``context.py``).

Routes:

- ``/`` the lobby: open web tables (join or watch them) and a form to open one, either game, with
  AI seats; ``/t/<table>`` a table page (a lobby until it starts, then the game);
  ``/watch/<table>?k=<signed>`` a spectator's page of any table (the key is signed by the service,
  so only links it gave out work: a chat's table is not open to whoever guesses its number);
  ``/tg/<table>`` the Telegram Mini App page (it proves its user with ``initData`` first);
  ``/tg`` the bot's Main Mini App (``miniapp.py``: the lobby, sent on to the table its ``startapp``
  link names; ``POST /api/tg/start``, and ``POST /api/tg/share`` for an invite sent from Telegram);
  ``/activity`` (and ``/`` when Discord's client opens it) the Discord Activity: the table page
  signed in through Discord's SDK, on the table of the channel it runs in (``activity.py``:
  ``POST /api/discord/token``, ``GET /api/discord/state``, ``POST /api/discord/table``);
- ``/tournament/<id>?k=<signed>`` a tournament's standings and its round's tables, refreshed every
  few seconds (for a screen at the venue; the link is in the chat's ``/standings`` with
  ``TYCOON_WEB_URL``);
- ``/r/<table>?k=<signed>`` a finished game's page: the result, the chart and a replay to step
  through (``replay.py``: its data at ``/api/result/<table>``, its frames at ``/api/replay/<table>``,
  a rematch at ``POST /api/rematch/<table>``); ``/p/<user>?k=<signed>`` a player's profile page
  (``profile.py``, its data at ``/api/profile/<user>``);
- ``/api/tables`` (GET the list, POST a new table), ``/api/tg/auth`` (``initData`` → a session),
  ``/api/tournament/<id>?k=…`` (the tournament page's data);
- ``/ws/<table>`` the table's live screens and moves (``live.Hub``).

Every browser gets a signed session cookie on its first page (``auth.py``); chat key of a web
table: ``web:<random>``, user ``web:<id>``. POSTs and WebSockets must come from a page of this
server (their ``Origin`` is checked against the Host, or ``TYCOON_WEB_URL``, or the Activity's
``<client id>.discordsays.com``), and every address may
POST only a few times a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from pathlib import Path

from aiohttp import WSMsgType, web

from bot.process import health
from bot.web import activity, auth, doors, miniapp, profile, replay
from bot.web.api import POST_LIMITS, PostLimits, list_tables, new_table, telegram_auth, tournament_data
from bot.web.atlas import atlas
from bot.web.context import (
    HUB,
    LANG_COOKIE,
    SERVICE,
    SETTINGS,
    id_in_path,
    lang_of,
    origin_ok,
    refuse,
    user_of,
)
from bot.web.hub import Client, Hub
from bot.web.messages import say
from engine.games import GAMES
from engine.service.tables import GameService
from words.i18n import CATALOGUES, LANGS, normalise_lang, ruleset_name, t

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
DEFAULT_PORT = 8080
# the words a page needs besides its own (web.*): the lobby's buttons are the chat bots'
_SHARED_WORDS = ("ch.btn.join", "ch.btn.leave", "ch.btn.add_ai", "ch.btn.add_ai_basic", "ch.btn.add_ai_strong",
                 "ch.btn.remove_ai", "ch.btn.start", "ch.btn.cancel",
                 "ai.level.basic", "ai.level.ai", "ai.level.strong")

def _words(lang: str) -> dict[str, str]:
    keys = [k for k in CATALOGUES["en"] if k.startswith("web.")] + list(_SHARED_WORDS)
    return {k: t(lang, k) for k in keys}



# -- pages --------------------------------------------------------------------------------------


def _page(request: web.Request, name: str, **config) -> web.Response:
    lang = lang_of(request)
    # ``base``: the public address links to share are built from (TYCOON_WEB_URL), when configured
    base = (request.app[SETTINGS].get("public_url") or "").rstrip("/")
    config = {"lang": lang, "langs": list(LANGS), "words": _words(lang), "base": base, **config}
    html = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    blob = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    html = html.replace("__LANG__", lang).replace("__CONFIG__", blob).replace("__TITLE__", t(lang, "web.title"))
    if config.get("mode") == "tg":  # a page of the Telegram Mini App: Telegram's script, safe areas
        html = miniapp.dress(html)
    response = web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})
    if "lang" in request.query:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="Lax")
    if user_of(request) is None:
        response.set_cookie(auth.SESSION_COOKIE, auth.new_session(request.app[SERVICE].sign), max_age=365 * 86400,
                            httponly=True, samesite="Lax", secure=request.secure)
    return response


async def lobby_page(request: web.Request, mode: str | None = None) -> web.Response:
    if activity.launched(request):  # Discord's client opening the Activity at the root it maps to us
        return await activity_page(request)
    lang = lang_of(request)
    games = {g: [[rs, ruleset_name(rs, lang)] for rs in GAMES[g].rules.rulesets] for g in GAMES}
    limits = {g: [GAMES[g].rules.min_players, GAMES[g].rules.max_players] for g in games}
    return _page(request, "lobby", page="lobby", games=games, limits=limits, doors=await doors.links(request),
                 **({"mode": mode} if mode else {}))


async def activity_page(request: web.Request) -> web.Response:
    """``/activity`` (and ``/`` with Discord's launch parameters): the Discord Activity, the table page
    whose script signs in through Discord's SDK and shows the channel's table (``activity.py``)."""
    settings = request.app[activity.ACTIVITY].settings
    if settings is None:
        return await _missing(request, t(lang_of(request), "web.err.no_discord"))
    return _page(request, "table", page="table", mode="dc", table=None, client_id=settings.client_id)


async def telegram_entry(request: web.Request) -> web.Response:
    """``/tg``: the bot's Main Mini App; the lobby, whose script signs in and goes where the link said."""
    return await lobby_page(request, mode="tg")


async def _missing(request: web.Request, message: str | None = None, title: str | None = None,
                   **config) -> web.Response:
    """A table that does not exist: a page that says so, with the way back (not a page that waits);
    ``message`` and ``title`` say otherwise what is not there (a game not over yet, a bad link)."""
    response = _page(request, "missing", page="missing", message=message or say(lang_of(request), "service.no_table"),
                     title=title, **config)
    response.set_status(404)
    return response


async def _exists(request: web.Request, table: int | None) -> bool:
    return table is not None and await request.app[SERVICE].public_view(table) is not None


async def table_page(request: web.Request) -> web.Response:
    table = id_in_path(request)
    if not await _exists(request, table):
        return await _missing(request)
    return _page(request, "table", page="table", mode="play", table=table)


async def favicon(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "favicon.svg", headers={"Content-Type": "image/svg+xml",
                                                              "Cache-Control": "max-age=86400"})


async def watch_page(request: web.Request) -> web.Response:
    table = id_in_path(request)
    key = request.query.get("k", "")
    if table is None or request.app[SERVICE].unsign(key) != f"v:{table}":
        raise web.HTTPForbidden(text=t(lang_of(request), "web.err.watch_key"))
    return _page(request, "table", page="table", mode="watch", table=table, key=key)


async def telegram_page(request: web.Request) -> web.Response:
    table = id_in_path(request)
    if not await _exists(request, table):
        return await _missing(request, mode="tg")  # its way back leads to the Mini App's lobby
    return _page(request, "table", page="table", mode="tg", table=table)


async def picture(request: web.Request) -> web.Response:
    """The table as the chats see it, a PNG ("download picture"), for whoever has its watch key."""
    from bot.chat.screens import public_screen

    service, table = request.app[SERVICE], id_in_path(request)
    if table is None or service.unsign(request.query.get("k", "")) != f"v:{table}":
        raise web.HTTPForbidden(text=t(lang_of(request), "web.err.watch_key"))
    view = await service.public_view(table)
    if view is None or not view.board:  # a lobby, or one cancelled before its game: nothing to draw
        raise web.HTTPNotFound(text=t(lang_of(request), "web.err.no_such_page"))
    screen = await asyncio.to_thread(public_screen, view, lang_of(request), service.clock())
    return web.Response(body=screen.picture, content_type="image/png",
                        headers={"Content-Disposition": f'inline; filename="table-{table}.png"'})


async def tournament_page(request: web.Request) -> web.Response:
    tid = id_in_path(request)
    key = request.query.get("k", "")
    if tid is None or request.app[SERVICE].unsign(key) != f"W:{tid}":
        raise web.HTTPForbidden(text=t(lang_of(request), "web.err.watch_key"))
    return _page(request, "tournament", page="tournament", tournament=tid, key=key)


async def result_page(request: web.Request) -> web.Response:
    """A finished game's page (``replay.py``): only with its signed key, only once it is over."""
    lang, service, table = lang_of(request), request.app[SERVICE], id_in_path(request)
    key = request.query.get("k", "")
    if table is None or service.unsign(key) != f"R:{table}":
        return await _missing(request, t(lang, "web.err.result_key"), t(lang, "web.result.missing"))
    data = await replay.result_data(service, request.app[replay.REPLAYS], table, lang)
    if data is None:
        view = await service.public_view(table)
        if view is not None and view.status in ("lobby", "running", "paused"):  # its page opens once it ends
            return await _missing(request, t(lang, "web.result.not_over"), t(lang, "web.result.not_over_title"))
        return await _missing(request)  # no such table, or one that ended without a result (cancelled)
    response = _page(request, "result", page="result", table=table, key=key, result=data,
                     atlas=atlas(data["game"], data["ruleset"], lang))
    response.enable_compression()
    return response


async def profile_page(request: web.Request) -> web.Response:
    """A player's profile page (``profile.py``): only with its signed key."""
    lang, service = lang_of(request), request.app[SERVICE]
    user = profile.signed_user(service, request.match_info.get("user"), request.query.get("k"))
    if user is None:
        return await _missing(request, t(lang, "web.err.profile_key"), t(lang, "web.profile.missing"))
    response = _page(request, "profile", page="profile", profile=await profile.profile_data(service, user, lang))
    response.enable_compression()
    return response


# -- the WebSocket ------------------------------------------------------------------------------


async def table_socket(request: web.Request) -> web.StreamResponse:
    lang, service, hub = lang_of(request), request.app[SERVICE], request.app[HUB]
    if not origin_ok(request):
        return refuse(403, lang, "web.err.origin")
    table = id_in_path(request)
    if table is None:
        return refuse(404, lang, "service.no_table")
    user = user_of(request)
    key = request.query.get("watch")
    watch = key is not None
    if watch and service.unsign(key) != f"v:{table}":
        return refuse(403, lang, "web.err.watch_key")
    view = await service.public_view(table)
    if view is None:
        return refuse(404, lang, "service.no_table")
    # a chat's table: only its own players see it here (a spectator needs the key the chat got)
    if not watch and not view.chat_key.startswith("web:") and (user is None or view.seat_of(user) is None):
        return refuse(403, lang, "web.err.not_yours")
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=64 * 1024)
    await ws.prepare(request)
    client = Client(ws=ws, table=table, user=user, lang=lang, watch=watch)
    await hub.join(client)
    try:
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                await hub.receive(client, msg.data)
            elif msg.type == WSMsgType.BINARY:
                await hub.receive(client, None)
            else:
                break
    finally:
        hub.leave(client)
    return ws


# -- the application ----------------------------------------------------------------------------


@web.middleware
async def _headers(request: web.Request, handler):
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def make_app(service: GameService, hub: Hub | None = None, lang: str = "zh-Hans", bot_token: str | None = None,
             public_url: str | None = None, clock=time.time, telegram_api_url: str | None = None,
             discord: activity.DiscordSettings | None = None) -> web.Application:
    """``telegram_api_url``: a Bot API other than Telegram's (``TELEGRAM_API_URL``), for the invites;
    ``discord``: the Discord Activity's application (None: from the environment, ``activity.py``)."""
    app = web.Application(middlewares=[_headers], client_max_size=64 * 1024)
    app[SERVICE] = service
    app[HUB] = hub or Hub(service)
    app[SETTINGS] = {"lang": normalise_lang(lang), "bot_token": bot_token, "public_url": public_url, "clock": clock,
                     "telegram_api_url": telegram_api_url}
    app[POST_LIMITS] = PostLimits()
    app.router.add_get("/", lobby_page)
    app.router.add_get("/t/{table}", table_page)
    app.router.add_get("/watch/{table}", watch_page)
    app.router.add_get("/tg/{table}", telegram_page)
    app.router.add_get("/tg", telegram_entry)
    app.router.add_get("/tg/", telegram_entry)
    app.router.add_get("/picture/{table}", picture)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/tournament/{table}", tournament_page)
    app.router.add_get("/api/tournament/{table}", tournament_data)
    app.router.add_get("/api/tables", list_tables)
    app.router.add_post("/api/tables", new_table)
    app.router.add_post("/api/tg/auth", telegram_auth)
    app.router.add_get("/ws/{table}", table_socket)
    app.router.add_get("/r/{table}", result_page)
    app.router.add_get("/p/{user}", profile_page)
    replay.add_routes(app)
    profile.add_routes(app)
    miniapp.add_routes(app)
    activity.add_routes(app, discord if discord is not None else activity.DiscordSettings.from_env(os.environ), _words)
    app.router.add_get("/activity", activity_page)
    app.router.add_static("/static", STATIC)
    health.add_routes(app, service)
    return app


async def start_site(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, str]:
    """Serve ``app`` on host:port (0: any free port); the runner and the address it answers on."""
    runner = web.AppRunner(app, access_log=health.ACCESS_LOGGER, access_log_class=health.AccessLog)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    return runner, f"http://{shown}:{bound[1]}"


async def serve(host: str, port: int, database_url: str | None, lang: str, stop: asyncio.Event | None = None,
                bot_token: str | None = None, public_url: str | None = None, say=print,
                heartbeat: str | None = None, telegram_api_url: str | None = None) -> int:
    """``tycoon web``: the service, its clock task and the web server, until ``stop`` (or Ctrl-C)."""
    stop = stop or asyncio.Event()
    service = await GameService.open(database_url, lazy=True)
    hub = Hub(service)
    runner = None
    try:
        await service.startup()
        runner, address = await start_site(make_app(service, hub, lang, bot_token, public_url,
                                                    telegram_api_url=telegram_api_url), host, port)
        say(f"Tycoon web table: {address}  (Ctrl-C stops it)")
        # the same heartbeat as the bots': the image's health check reads it in every mode
        clock = asyncio.create_task(service.run(stop=stop, heartbeat=heartbeat), name="clock")
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait([clock, waiter], return_when=asyncio.FIRST_COMPLETED)
        stop.set()
        for task in (clock, waiter):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task
        return 1 if clock.done() and not clock.cancelled() and clock.exception() else 0
    finally:
        if runner is not None:
            await runner.cleanup()
        await service.idle()
        await service.close()
