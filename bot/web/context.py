"""What every handler of the web table reads from its request: the service, the hub and the
settings the application was made with, the reader's language, their session's user, whether a
POST or WebSocket comes from a page of this server, and how a refusal is answered."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from aiohttp import web

from bot.chat.inputs import number
from bot.web import auth
from bot.web.hub import Hub
from engine.service import metrics
from engine.service.tables import GameService
from words.i18n import normalise_lang, t

log = logging.getLogger("bot.web.server")
LANG_COOKIE = "tycoon_lang"

HUB = web.AppKey("hub", Hub)
SERVICE = web.AppKey("service", GameService)
SETTINGS = web.AppKey("settings", dict)


def watch_path(service: GameService, table: int) -> str:
    return auth.watch_path(service.sign, table)


def lang_of(request: web.Request) -> str:
    asked = request.query.get("lang") or request.cookies.get(LANG_COOKIE)
    if asked:
        return normalise_lang(asked)
    return request.app[SETTINGS]["lang"]


def origin_ok(request: web.Request) -> bool:
    """A browser's request made by a page of this server (or of the configured public address, or
    of the hosts that serve our pages through a proxy of theirs: ``SETTINGS["origins"]``, Discord's
    for the Activity, ``activity.py``)."""
    origin = request.headers.get("Origin")
    if not origin:
        return False
    host = urlsplit(origin).netloc
    allowed = {request.host, *request.app[SETTINGS].get("origins", ())}
    public = request.app[SETTINGS].get("public_url")
    if public:
        allowed.add(urlsplit(public).netloc)
    return host in allowed


def user_of(request: web.Request) -> str | None:
    service = request.app[SERVICE]
    return auth.user_of(service.unsign, request.query.get("s") or request.cookies.get(auth.SESSION_COOKIE))


def refuse(status: int, lang: str, key: str, **params) -> web.Response:
    """A request refused: the page is told why; the operator gets a counted, structured line."""
    metrics.REFUSALS.labels(key).inc()
    log.info("refused web request: reason=%s status=%s", key, status)
    return web.json_response({"error": t(lang, key, **params)}, status=status)


def id_in_path(request: web.Request) -> int | None:
    """The table (or tournament) number in the page's path."""
    return number(request.match_info.get("table"), 1)
