"""The web table's small JSON API: the open web tables (GET) and a new one (POST), a Telegram Mini
App's sign-in (``initData`` → a session), and a tournament page's data. Every POST must come from a
page of this server and every address may POST only a few times a second."""

from __future__ import annotations

import logging
import secrets

from aiohttp import web
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.chat.inputs import clean_name
from bot.web import auth
from bot.web.context import SERVICE, SETTINGS, id_in_path, lang_of, origin_ok, refuse, user_of, watch_path
from bot.web.hub import RateLimit
from engine.games import GAMES, LEVELS
from engine.service.storage.rows import TableRow
from words.i18n import normalise_lang, t

log = logging.getLogger("bot.web.server")


async def tournament_data(request: web.Request) -> web.Response:
    """Standings and the current round's tables (each with its spectator link)."""
    from engine.service.tournaments import Tournaments

    lang, service = lang_of(request), request.app[SERVICE]
    tid = id_in_path(request)
    if tid is None or service.unsign(request.query.get("k", "")) != f"W:{tid}":
        return refuse(403, lang, "web.err.watch_key")
    tours = Tournaments.of(service)
    standings = await tours.standings(tid)
    if standings is None:
        return refuse(404, lang, "web.err.no_such_page")
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
    lang = lang_of(request)
    if not origin_ok(request):
        return refuse(403, lang, "web.err.origin")
    if not request.app[POST_LIMITS].allow(request.remote or "?"):
        return refuse(429, lang, "web.err.too_fast")
    return None


async def list_tables(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    async with AsyncSession(service.db) as session:
        rows = (await session.exec(select(TableRow).where(
            TableRow.chat_key.startswith("web:"), TableRow.status.in_(("lobby", "running")))
            .order_by(TableRow.id.desc()).limit(50))).all()
    return web.json_response({"tables": [
        {"table": r.id, "game": r.game, "ruleset": r.ruleset, "status": r.status,
         "seats": [s["name"] for s in r.seats], "url": f"/t/{r.id}", "watch": watch_path(service, r.id)}
        for r in rows]})


async def new_table(request: web.Request) -> web.Response:
    refused = _post_guard(request)
    if refused:
        return refused
    lang, service = lang_of(request), request.app[SERVICE]
    user = user_of(request)
    body = await _json_body(request)
    if user is None:
        return refuse(403, lang, "web.err.no_session")
    if body is None:
        return refuse(400, lang, "web.err.malformed")
    game, ruleset, ai = body.get("game"), body.get("ruleset") or None, body.get("ai", 0)
    if not isinstance(game, str) or game not in GAMES or (ruleset is not None and not isinstance(ruleset, str)):
        return refuse(400, lang, "service.unknown_game", game=str(game)[:20])
    rules = GAMES[game].rules
    if not isinstance(ai, int) or isinstance(ai, bool) or not 0 <= ai < rules.max_players:
        return refuse(400, lang, "web.err.ai_seats", max=rules.max_players - 1)
    level = body.get("level", "ai")
    if level not in LEVELS:
        return refuse(400, lang, "service.bad_ai_level", choices=", ".join(LEVELS))
    name = body.get("name")
    name = clean_name(name if isinstance(name, str) else None, t(lang, "web.guest"))
    outcome = await service.lobby.new_table(f"web:{secrets.token_hex(6)}", game, ruleset, user, name)
    if not outcome.ok:
        return refuse(400, lang, outcome.key, **outcome.params)
    for _ in range(ai):
        await service.lobby.add_ai(outcome.table, user, level)
    return web.json_response({"table": outcome.table, "url": f"/t/{outcome.table}"})


async def telegram_user(request: web.Request):
    """A Mini App's sign-in: the Telegram user its signed ``init_data`` names, or the refusal to
    answer (a POST from elsewhere, no bot here, data forged, altered or stale)."""
    refused = _post_guard(request)
    if refused:
        return None, refused
    lang, settings = lang_of(request), request.app[SETTINGS]
    if not settings.get("bot_token"):
        return None, refuse(404, lang, "web.err.no_telegram")
    body = await _json_body(request)
    try:
        return auth.check_init_data(body.get("init_data") if body else None, settings["bot_token"],
                                    settings["clock"]()), None
    except auth.InitDataError as e:
        log.info("Mini App sign-in refused: %s", e)
        return None, refuse(403, lang, "web.err.init_data")


def signed_in(request: web.Request, user_id: int, answer: dict) -> web.Response:
    """``answer`` with the session of Telegram user ``user_id`` (also as the session cookie; in a
    frame the cookie may not come along, so the page keeps the session it is given)."""
    session = auth.telegram_session(request.app[SERVICE].sign, user_id)
    response = web.json_response({"session": session, **answer})
    response.set_cookie(auth.SESSION_COOKIE, session, max_age=86400, httponly=True,
                        samesite="None" if request.secure else "Lax", secure=request.secure)
    return response


async def telegram_auth(request: web.Request) -> web.Response:
    user, refused = await telegram_user(request)
    if refused:
        return refused
    return signed_in(request, user.id, {"name": user.name,
                                        "lang": normalise_lang(user.lang) if user.lang else lang_of(request)})
