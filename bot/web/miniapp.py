"""The web table as the bot's Main Mini App (issue 49): the way in from a ``startapp`` link, and the
invite a player sends from inside Telegram.

Why a module of its own: the table page already works inside Telegram when the bot's own button
opens it on one table (``/tg/<table>``, signed in by ``initData``: ``auth.py``); the Main Mini App is
opened instead on one address for everything (its URL in @BotFather: ``<TYCOON_WEB_URL>/tg``), from
the bot's profile, its menu button or a ``t.me/<bot>?startapp=<param>`` link, and must find the table
by itself. Inviting friends from inside Telegram goes through the Bot API (a prepared inline
message the client then offers to send, ``shareMessage``), which needs the bot's token: server side.

Routes:

- ``GET /tg`` (and ``/tg/``): the entry page (``server.py``: the web lobby in the Mini App's dress),
  whose script posts the ``initData`` to
- ``POST /api/tg/start`` ``{"init_data": "<Telegram.WebApp.initData>"}`` → ``{"session", "name",
  "lang", "start", "go", "note"}``: the signed ``initData`` checked (a forged, unsigned or stale one:
  403 ``{"error"}``), a Telegram session (also as a cookie), and where to go, read from the signed
  ``start_param`` only (``auth.start_of``): ``t<table>`` → ``/tg/<table>`` (an unknown table's page
  is the "missing" page), ``new_<game>`` → ``/tg/<id>`` of a new web lobby of that game with the
  player seated (their own open lobby of that game again, when they have one, so that opening the
  link twice makes one table), nothing → ``/tg?lobby=1`` (the lobby, which then stays put), any other
  parameter → the lobby with ``note`` saying the link opens nothing. ``go`` carries ``lang=``: the
  player's Telegram language unless they chose one here;
- ``POST /api/tg/share`` ``{"session": "<from /api/tg/start or /api/tg/auth>", "table": <id> | null}``
  → ``{"id": "<prepared message id>", "link": "https://t.me/<bot>?startapp=t<id>"}``: a Telegram
  session only (403 otherwise); a web table in its lobby or game (a chat's table: 403, its players
  join it in their chat; an ended one: 409), or, with no table, the app itself. The message (an
  ``InlineQueryResultArticle`` with one URL button opening the ``startapp`` link) is saved with
  ``savePreparedInlineMessage`` for that user, to be sent to private chats and groups; the page hands
  its id to ``Telegram.WebApp.shareMessage``. A Bot API failure: 502.

The Bot API is reached with python-telegram-bot's ``Bot`` at ``telegram_api_url`` (Telegram's own by
default; the tests' fake otherwise), made on the first invite (its ``getMe`` gives the username the
links need) and closed with the application.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

from aiohttp import web
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.web import auth
from bot.web.activity import ACTIVITY
from bot.web.api import _json_body, _post_guard, signed_in, telegram_user
from bot.web.context import LANG_COOKIE, SERVICE, SETTINGS, lang_of, refuse
from engine.games import GAMES
from engine.service.storage.rows import TableRow
from words.i18n import normalise_lang, t

log = logging.getLogger("bot.web.server")

HOME = "/tg?lobby=1"  # the Mini App's lobby: the entry page told to stay, whatever the link said
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"  # where Telegram serves it, always current
# what a page of the Mini App adds to its head: Telegram's script first (it must run before ours),
# then the Mini App's own styles (safe areas, tap targets)
HEAD = f'<script src="{TELEGRAM_SCRIPT}"></script>\n<link rel="stylesheet" href="/static/miniapp.css">\n'
OPEN = ("lobby", "running", "paused")  # a table one can still be invited to


def dress(html: str) -> str:
    """A page as the Mini App shows it: Telegram's script and our styles in its head, and its links
    to the front page pointed at the Mini App's lobby instead (the plain web lobby would leave it)."""
    return html.replace("</head>", HEAD + "</head>", 1).replace(' href="/"', f' href="{HOME}"')


class TelegramBot:
    """The Bot API client of the invites, made once on first use and closed with the application."""

    def __init__(self) -> None:
        self.bot = None
        self._lock = asyncio.Lock()

    async def get(self, token: str, api_url: str | None):
        from telegram import Bot

        async with self._lock:
            if self.bot is None:
                base = f"{api_url.rstrip('/')}/bot" if api_url else "https://api.telegram.org/bot"
                bot = Bot(token, base_url=base)
                try:
                    await bot.initialize()  # getMe: the username every startapp link names
                except BaseException:
                    with contextlib.suppress(Exception):
                        await bot.shutdown()
                    raise
                self.bot = bot
            return self.bot

    async def close(self, app: web.Application | None = None) -> None:
        bot, self.bot = self.bot, None
        if bot is not None:
            with contextlib.suppress(Exception):
                await bot.shutdown()


BOT = web.AppKey("telegram_bot", TelegramBot)


def _go(path: str, lang: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"


async def _own_lobby(service, user: str, name: str, game: str) -> int | None:
    """The player's open web lobby of ``game`` (the newest), else a new one with them seated."""
    async with AsyncSession(service.db) as session:
        mine = (await session.exec(select(TableRow.id).where(
            TableRow.chat_key.startswith("web:"), TableRow.status == "lobby", TableRow.game == game,
            TableRow.creator == user).order_by(TableRow.id.desc()).limit(1))).first()
    if mine is not None:
        return mine
    outcome = await service.lobby.new_table(f"web:{secrets.token_hex(6)}", game, None, user, name)
    return outcome.table if outcome.ok else None


async def _seat(app: web.Application, table: int, user: str, name: str) -> None:
    """A chat's table's link (the "Join my table" card) opened by someone not seated at its lobby:
    a seat, as the bot's ``/start t<table>`` gives one (one seat per person whatever the door; the
    page of a chat's table has no Join of its own, a web table's page has). The group's lobby
    message shows them at its next change (the web process may run without the bot)."""
    service = app[SERVICE]
    view = await service.public_view(table)
    if (view is not None and view.status == "lobby" and not view.chat_key.startswith("web:")
            and view.seat_of(user) is None):
        out = await service.lobby.op(table, "join", user, name)
        if not out.ok:
            log.info("a Mini App link to table %s seated nobody: %s", table, out.key)
            return
        shown = app[ACTIVITY].chat_lobby  # the chat bots of this process (bot/process/run.py)
        if shown is not None:
            try:
                await shown(table)
            except Exception:  # the seat is taken all the same; the lobby message follows at its next change
                log.exception("table %s: the group's lobby message could not show a Mini App join", table)


async def start(request: web.Request) -> web.Response:
    """``POST /api/tg/start``: the Main Mini App opened; who it is, and where its link goes."""
    user, refused = await telegram_user(request)
    if refused:
        return refused
    lang, service = lang_of(request), request.app[SERVICE]
    chosen = LANG_COOKIE in request.cookies or "lang" in request.query
    if not chosen and user.lang:
        lang = normalise_lang(user.lang)
    place, note, go = auth.start_of(user.start_param), None, HOME
    if place is not None and place.kind == "table":
        await _seat(request.app, place.table, f"tg:{user.id}", user.name)
        go = auth.telegram_path(place.table)
    elif place is not None and place.kind == "new" and place.game in GAMES:
        table = await _own_lobby(service, f"tg:{user.id}", user.name, place.game)
        if table is not None:
            go = auth.telegram_path(table)
    elif place is None or place.kind == "new":
        log.info("Mini App opened with a parameter no link of ours makes: %r", user.start_param)
        note = t(lang, "web.tg.bad_link")
    return signed_in(request, user.id, {"name": user.name, "lang": lang, "start": user.start_param or "",
                                        "go": _go(go, lang), "note": note})


def _message(view, lang: str) -> dict[str, str]:
    """The invite's words: its card's title and line, the message, and its button."""
    if view is None:
        return {"title": t(lang, "web.tg.msg.app_title"), "description": t(lang, "web.tg.msg.app_description"),
                "text": t(lang, "web.tg.msg.app_text"), "button": t(lang, "web.tg.msg.app_button")}
    game = t(lang, f"web.game.{view.game}")
    names = t(lang, "web.list_sep").join(s.name for s in view.seats)
    kind = "join" if view.status == "lobby" else "watch"
    params = {"game": game, "table": view.table, "names": names, "seated": len(view.seats),
              "max": view.max_players}
    return {key: t(lang, f"web.tg.msg.{kind}_{key}", **params) for key in ("title", "description", "text", "button")}


async def share(request: web.Request) -> web.Response:
    """``POST /api/tg/share``: an invite to a table (or to the app) prepared for ``shareMessage``."""
    from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InlineQueryResultArticle, InputTextMessageContent
    from telegram.error import TelegramError

    refused = _post_guard(request)
    if refused:
        return refused
    lang, settings, service = lang_of(request), request.app[SETTINGS], request.app[SERVICE]
    if not settings.get("bot_token"):
        return refuse(404, lang, "web.err.no_telegram")
    body = await _json_body(request)
    if body is None:
        return refuse(400, lang, "web.err.malformed")
    signed = body.get("session")
    user = auth.user_of(service.unsign, signed if isinstance(signed, str) else
                        request.cookies.get(auth.SESSION_COOKIE))
    if user is None or not user.startswith("tg:"):  # only a Telegram user can send a Telegram message
        return refuse(403, lang, "web.err.init_data")
    table = body.get("table")
    if table is not None and (isinstance(table, bool) or not isinstance(table, int) or not 0 < table < 10**16):
        return refuse(400, lang, "web.err.malformed")
    view = None
    if table is not None:
        view = await service.public_view(table)
        if view is None:
            return refuse(404, lang, "web.say.service.no_table")
        if not view.chat_key.startswith("web:"):  # a chat's table is joined in its chat
            return refuse(403, lang, "web.tg.share_chat")
        if view.status not in OPEN:
            return refuse(409, lang, "web.tg.share_over")
    words = _message(view, lang)
    try:
        bot = await request.app[BOT].get(settings["bot_token"], settings.get("telegram_api_url"))
        link = auth.startapp_link(bot.username, table)
        article = InlineQueryResultArticle(
            id=f"tycoon-{table or 0}-{secrets.token_hex(4)}", title=words["title"],
            description=words["description"], input_message_content=InputTextMessageContent(words["text"]),
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton(words["button"], url=link)]]))
        prepared = await bot.save_prepared_inline_message(int(user.removeprefix("tg:")), article,
                                                          allow_user_chats=True, allow_group_chats=True)
    except TelegramError as e:
        log.warning("an invite could not be prepared (table %s): %s", table, e)
        return refuse(502, lang, "web.tg.share_failed")
    return web.json_response({"id": prepared.id, "link": link})


def add_routes(app: web.Application) -> None:
    """The Mini App's API routes (its entry page, ``/tg``, is ``server.py``'s), and its Bot API client."""
    app[BOT] = TelegramBot()
    app.on_cleanup.append(app[BOT].close)
    app.router.add_post("/api/tg/start", start)
    app.router.add_post("/api/tg/share", share)
