"""The web table's HTTP side (aiohttp): pages, a small JSON API, the WebSocket of a table page.

Routes:

- ``/`` the lobby: open web tables (join or watch them) and a form to open one, either game, with
  AI seats; ``/t/<table>`` a table page (a lobby until it starts, then the game);
  ``/watch/<table>?k=<signed>`` a spectator's page of any table (the key is signed by the service,
  so only links it gave out work: a chat's table is not open to whoever guesses its number);
  ``/tg/<table>`` the Telegram Mini App page (it proves its user with ``initData`` first);
- ``/tournament/<id>?k=<signed>`` a tournament's standings and its round's tables, refreshed every
  few seconds (for a screen at the venue; the link is in the chat's ``/standings`` with
  ``TYCOON_WEB_URL``);
- ``/api/tables`` (GET the list, POST a new table), ``/api/tg/auth`` (``initData`` → a session),
  ``/api/tournament/<id>?k=…`` (the tournament page's data);
- ``/ws/<table>`` the table's live screens and moves (``live.Hub``).

Every browser gets a signed session cookie on its first page (``auth.py``); chat key of a web
table: ``web:<random>``, user ``web:<id>``. POSTs and WebSockets must come from a page of this
server (their ``Origin`` is checked against the Host, or ``TYCOON_WEB_URL``), and every address may
POST only a few times a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import health
from bot.inputs import clean_name, number
from bot.web import auth
from bot.web.live import Client, Hub, RateLimit
from engine.games import GAMES
from engine.service import metrics, store
from engine.service.tables import GameService
from words.i18n import CATALOGUES, LANGS, normalise_lang, t

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
LANG_COOKIE = "tycoon_lang"
DEFAULT_PORT = 8080
# the words a page needs besides its own (web.*): the lobby's buttons are the chat bots'
_SHARED_WORDS = ("tg.btn.join", "tg.btn.leave", "tg.btn.add_ai", "tg.btn.remove_ai", "tg.btn.start",
                 "tg.btn.cancel")

HUB = web.AppKey("hub", Hub)
SERVICE = web.AppKey("service", GameService)
SETTINGS = web.AppKey("settings", dict)


def watch_path(service: GameService, table: int) -> str:
    return auth.watch_path(service.sign, table)


def _lang(request: web.Request) -> str:
    asked = request.query.get("lang") or request.cookies.get(LANG_COOKIE)
    if asked:
        return normalise_lang(asked)
    return request.app[SETTINGS]["lang"]


def _words(lang: str) -> dict[str, str]:
    keys = [k for k in CATALOGUES["en"] if k.startswith("web.")] + list(_SHARED_WORDS)
    return {k: t(lang, k) for k in keys}


def _origin_ok(request: web.Request) -> bool:
    """A browser's request made by a page of this server (or of the configured public address)."""
    origin = request.headers.get("Origin")
    if not origin:
        return False
    host = urlsplit(origin).netloc
    allowed = {request.host}
    public = request.app[SETTINGS].get("public_url")
    if public:
        allowed.add(urlsplit(public).netloc)
    return host in allowed


def _user(request: web.Request) -> str | None:
    service = request.app[SERVICE]
    return auth.user_of(service.unsign, request.query.get("s") or request.cookies.get(auth.SESSION_COOKIE))


def _refuse(status: int, lang: str, key: str, **params) -> web.Response:
    """A request refused: the page is told why; the operator gets a counted, structured line."""
    metrics.REFUSALS.labels(key).inc()
    log.info("refused web request: reason=%s status=%s", key, status)
    return web.json_response({"error": t(lang, key, **params)}, status=status)


# -- pages --------------------------------------------------------------------------------------


def _page(request: web.Request, name: str, **config) -> web.Response:
    lang = _lang(request)
    config = {"lang": lang, "langs": list(LANGS), "words": _words(lang), **config}
    html = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    blob = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    html = html.replace("__LANG__", lang).replace("__CONFIG__", blob).replace("__TITLE__", t(lang, "web.title"))
    response = web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})
    if "lang" in request.query:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="Lax")
    if _user(request) is None:
        response.set_cookie(auth.SESSION_COOKIE, auth.new_session(request.app[SERVICE].sign), max_age=365 * 86400,
                            httponly=True, samesite="Lax", secure=request.secure)
    return response


def _table_id(request: web.Request) -> int | None:
    return number(request.match_info.get("table"), 1)


async def lobby_page(request: web.Request) -> web.Response:
    games = {g: list(GAMES[g].rulesets) for g in ("deal", "board")}
    limits = {g: [GAMES[g].min_players, GAMES[g].max_players] for g in games}
    return _page(request, "lobby", page="lobby", games=games, limits=limits)


async def table_page(request: web.Request) -> web.Response:
    table = _table_id(request)
    if table is None:
        raise web.HTTPNotFound(text=t(_lang(request), "web.err.no_such_page"))
    return _page(request, "table", page="table", mode="play", table=table)


async def watch_page(request: web.Request) -> web.Response:
    table = _table_id(request)
    key = request.query.get("k", "")
    if table is None or request.app[SERVICE].unsign(key) != f"v:{table}":
        raise web.HTTPForbidden(text=t(_lang(request), "web.err.watch_key"))
    return _page(request, "table", page="table", mode="watch", table=table, key=key)


async def telegram_page(request: web.Request) -> web.Response:
    table = _table_id(request)
    if table is None:
        raise web.HTTPNotFound(text=t(_lang(request), "web.err.no_such_page"))
    return _page(request, "table", page="table", mode="tg", table=table)


async def tournament_page(request: web.Request) -> web.Response:
    tid = _table_id(request)
    key = request.query.get("k", "")
    if tid is None or request.app[SERVICE].unsign(key) != f"W:{tid}":
        raise web.HTTPForbidden(text=t(_lang(request), "web.err.watch_key"))
    return _page(request, "tournament", page="tournament", tournament=tid, key=key)


async def tournament_data(request: web.Request) -> web.Response:
    """Standings and the current round's tables (each with its spectator link)."""
    from engine.service.tournaments import Tournaments

    lang, service = _lang(request), request.app[SERVICE]
    tid = _table_id(request)
    if tid is None or service.unsign(request.query.get("k", "")) != f"W:{tid}":
        return _refuse(403, lang, "web.err.watch_key")
    tours = Tournaments.of(service)
    standings = await tours.standings(tid)
    if standings is None:
        return _refuse(404, lang, "web.err.no_such_page")
    names = {e.id: e.name for e in await tours.entrants(tid)}
    matches = await tours.matches(tid, standings["round"]) if standings["round"] else []
    score = "points" if standings["mode"] == "team" else "wins"
    return web.json_response({
        "name": standings["name"] or t(lang, "tour.default_name", id=tid), "status": standings["status"],
        "round": standings["round"], "rounds": standings["rounds"], "game": standings["game"],
        "rows": [{"place": e["place"], "name": e["name"], "score": e[score], "value": e["value"],
                  "played": e["played"]} for e in standings["rows"]],
        "tables": [{"table_no": m.table_no, "status": m.status, "names": [names.get(e, "?") for e in m.entrants],
                    "watch": watch_path(service, m.table_id) if m.table_id else None} for m in matches]})


# -- API ----------------------------------------------------------------------------------------


class PostLimits:
    """A few POSTs a second per address (a page never needs more)."""

    def __init__(self) -> None:
        self.buckets: dict[str, RateLimit] = {}

    def allow(self, address: str) -> bool:
        if len(self.buckets) > 10_000:
            self.buckets.clear()
        return self.buckets.setdefault(address, RateLimit(rate=2.0, burst=8.0)).allow()


POST_LIMITS = web.AppKey("post_limits", PostLimits)


async def _json_body(request: web.Request) -> dict | None:
    if request.content_length is None or request.content_length > 8192:
        return None
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def _post_guard(request: web.Request) -> web.Response | None:
    lang = _lang(request)
    if not _origin_ok(request):
        return _refuse(403, lang, "web.err.origin")
    if not request.app[POST_LIMITS].allow(request.remote or "?"):
        return _refuse(429, lang, "web.err.too_fast")
    return None


async def list_tables(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    async with AsyncSession(service.engine) as session:
        rows = (await session.exec(select(store.TableRow).where(
            store.TableRow.chat_key.startswith("web:"), store.TableRow.status.in_(("lobby", "running")))
            .order_by(store.TableRow.id.desc()).limit(50))).all()
    return web.json_response({"tables": [
        {"table": r.id, "game": r.game, "ruleset": r.ruleset, "status": r.status,
         "seats": [s["name"] for s in r.seats], "url": f"/t/{r.id}", "watch": watch_path(service, r.id)}
        for r in rows]})


async def new_table(request: web.Request) -> web.Response:
    refused = _post_guard(request)
    if refused:
        return refused
    lang, service = _lang(request), request.app[SERVICE]
    user = _user(request)
    body = await _json_body(request)
    if user is None:
        return _refuse(403, lang, "web.err.no_session")
    if body is None:
        return _refuse(400, lang, "web.err.malformed")
    game, ruleset, ai = body.get("game"), body.get("ruleset") or None, body.get("ai", 0)
    if game not in ("deal", "board") or (ruleset is not None and not isinstance(ruleset, str)):
        return _refuse(400, lang, "service.unknown_game", game=str(game)[:20])
    rules = GAMES[game]
    if not isinstance(ai, int) or isinstance(ai, bool) or not 0 <= ai < rules.max_players:
        return _refuse(400, lang, "web.err.ai_seats", max=rules.max_players - 1)
    name = body.get("name")
    name = clean_name(name if isinstance(name, str) else None, t(lang, "web.guest"))
    outcome = await service.lobby.new_table(f"web:{secrets.token_hex(6)}", game, ruleset, user, name)
    if not outcome.ok:
        return _refuse(400, lang, outcome.key, **outcome.params)
    for _ in range(ai):
        await service.lobby.add_ai(outcome.table, user)
    return web.json_response({"table": outcome.table, "url": f"/t/{outcome.table}"})


async def telegram_auth(request: web.Request) -> web.Response:
    refused = _post_guard(request)
    if refused:
        return refused
    lang, settings = _lang(request), request.app[SETTINGS]
    if not settings.get("bot_token"):
        return _refuse(404, lang, "web.err.no_telegram")
    body = await _json_body(request)
    try:
        user = auth.check_init_data(body.get("init_data") if body else None, settings["bot_token"],
                                    settings["clock"]())
    except auth.InitDataError as e:
        log.info("Mini App sign-in refused: %s", e)
        return _refuse(403, lang, "web.err.init_data")
    session = auth.telegram_session(request.app[SERVICE].sign, user.id)
    response = web.json_response({"session": session, "name": user.name,
                                  "lang": normalise_lang(user.lang) if user.lang else lang})
    response.set_cookie(auth.SESSION_COOKIE, session, max_age=86400, httponly=True,
                        samesite="None" if request.secure else "Lax", secure=request.secure)
    return response


# -- the WebSocket ------------------------------------------------------------------------------


async def table_socket(request: web.Request) -> web.StreamResponse:
    lang, service, hub = _lang(request), request.app[SERVICE], request.app[HUB]
    if not _origin_ok(request):
        return _refuse(403, lang, "web.err.origin")
    table = _table_id(request)
    if table is None:
        return _refuse(404, lang, "service.no_table")
    user = _user(request)
    key = request.query.get("watch")
    watch = key is not None
    if watch and service.unsign(key) != f"v:{table}":
        return _refuse(403, lang, "web.err.watch_key")
    views = await service.views(table, seats=())
    if views is None:
        return _refuse(404, lang, "service.no_table")
    view = views[0]
    # a chat's table: only its own players see it here (a spectator needs the key the chat got)
    if not watch and not view.chat_key.startswith("web:") and (user is None or view.seat_of(user) is None):
        return _refuse(403, lang, "web.err.not_yours")
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
             public_url: str | None = None, clock=time.time) -> web.Application:
    app = web.Application(middlewares=[_headers], client_max_size=64 * 1024)
    app[SERVICE] = service
    app[HUB] = hub or Hub(service)
    app[SETTINGS] = {"lang": normalise_lang(lang), "bot_token": bot_token, "public_url": public_url, "clock": clock}
    app[POST_LIMITS] = PostLimits()
    app.router.add_get("/", lobby_page)
    app.router.add_get("/t/{table}", table_page)
    app.router.add_get("/watch/{table}", watch_page)
    app.router.add_get("/tg/{table}", telegram_page)
    app.router.add_get("/tournament/{table}", tournament_page)
    app.router.add_get("/api/tournament/{table}", tournament_data)
    app.router.add_get("/api/tables", list_tables)
    app.router.add_post("/api/tables", new_table)
    app.router.add_post("/api/tg/auth", telegram_auth)
    app.router.add_get("/ws/{table}", table_socket)
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
                heartbeat: str | None = None) -> int:
    """``tycoon web``: the service, its clock task and the web server, until ``stop`` (or Ctrl-C)."""
    stop = stop or asyncio.Event()
    service = await GameService.open(database_url)
    hub = Hub(service)
    runner = None
    try:
        await service.startup()
        runner, address = await start_site(make_app(service, hub, lang, bot_token, public_url), host, port)
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
