"""Building and running the python-telegram-bot ``Application`` around the front end."""

from __future__ import annotations

import logging

from telegram import BotCommand, MenuButtonWebApp, WebAppInfo
from telegram.error import BadRequest, Forbidden
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    filters,
)
from telegram.request import HTTPXRequest

from bot.telegram_app.frontend import TelegramFrontEnd
from bot.telegram_app.invites import web_app_url
from bot.telegram_app.lanes import ChatLanes, Limits
from engine.service import metrics
from engine.service.tables import GameService
from words.i18n import t

# the command menu (Telegram shows the user's language): names, and descriptions from data/locale
COMMANDS = ("newgame", "join", "leave", "endgame", "top", "stats", "me", "season", "lang", "schedule", "tournament",
            "team", "rep", "standings", "help")
# Telegram tells menus apart by a two-letter language code only: "zh" gets simplified Chinese
MENU_LANGUAGES = {None: "en", "zh": "zh-Hans"}


def command_menu(lang: str) -> list[tuple[str, str]]:
    """The menu of commands with their descriptions in ``lang``."""
    return [(c, t(lang, f"tg.cmd.{c}")) for c in COMMANDS]


log = logging.getLogger(__name__)


async def register_commands(bot, front: TelegramFrontEnd | None = None) -> None:
    """The command menu in English (the default) and Chinese; with the front end, the menu button
    too (``register_menu``)."""
    for code, lang in MENU_LANGUAGES.items():
        await bot.set_my_commands([BotCommand(c, d) for c, d in command_menu(lang)], language_code=code)
    if front is not None:
        await register_menu(bot, front.messenger.web_url, front.lang)


async def register_menu(bot, web_url: str | None, lang: str) -> bool:
    """Where the web table is served over https, the bot's menu button (beside the message field of
    every private chat) opens it as a Mini App; otherwise the menu button is left as it is (one set
    up with @BotFather stays). A refusal is logged and the bot goes on; a network failure is raised,
    for the start-up's retries."""
    page = web_app_url(web_url)
    if page is None:
        return False
    try:
        await bot.set_chat_menu_button(menu_button=MenuButtonWebApp(t(lang, "tg.menu.button"), WebAppInfo(page)))
    except (BadRequest, Forbidden) as e:  # (python-telegram-bot's BadRequest is a NetworkError: first)
        log.warning("Telegram refused the menu button (%s); the bot runs without it", e)
        return False
    return True


class CountedRequest(HTTPXRequest):
    """python-telegram-bot's own HTTP layer, counting the calls Telegram did not take (an error
    status, or no answer) in ``tycoon_send_failures{platform="telegram"}``."""

    async def do_request(self, url, method, request_data=None, *args, **kwargs):
        try:
            status, body = await super().do_request(url, method, request_data, *args, **kwargs)
        except Exception:
            metrics.SEND_FAILURES.labels("telegram").inc()
            raise
        if status >= 400:
            metrics.SEND_FAILURES.labels("telegram").inc()
        return status, body


def build_application(service: GameService, token: str, base_url: str | None = None, request=None,
                      lang: str = "zh-Hans", seed: int | None = None, rate_limit: bool = True,
                      limits: Limits | None = None) -> Application:
    """``rate_limit`` keeps to Telegram's flood limits in a lane per chat (``lanes.py``: a 429 waits
    in its own chat only; ``limits``, default Telegram's less a margin); tests of whole games
    against a fake Bot API without limits switch it off, as waiting out real minutes proves
    nothing there, and tests of the limits pass them scaled down."""
    # updates from many chats run concurrently; the service serialises the moves of each table
    builder = ApplicationBuilder().token(token).concurrent_updates(True)
    if rate_limit:
        builder = builder.rate_limiter(ChatLanes(limits))
    if base_url:
        builder = builder.base_url(base_url)
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    else:  # the size python-telegram-bot gives its own, and the failures counted
        builder = builder.request(CountedRequest(connection_pool_size=256))
    front = TelegramFrontEnd(service, lang, seed)
    app = builder.build()
    app.add_handler(CommandHandler("newgame", front.commands.newgame))
    app.add_handler(CommandHandler("start", front.commands.start))
    app.add_handler(CommandHandler("join", front.commands.join))
    app.add_handler(CommandHandler("leave", front.commands.leave))
    app.add_handler(CommandHandler("endgame", front.commands.endgame))
    app.add_handler(CommandHandler("help", front.commands.help))
    app.add_handler(CommandHandler("rules", front.commands.rules))
    app.add_handler(CommandHandler("lang", front.commands.lang))
    app.add_handler(CommandHandler("stats", front.commands.stats))
    app.add_handler(CommandHandler("me", front.commands.me))
    app.add_handler(CommandHandler("top", front.commands.top))
    app.add_handler(CommandHandler("season", front.commands.season))
    app.add_handler(CommandHandler("schedule", front.commands.schedule))
    app.add_handler(CommandHandler("tournament", front.tours.command))
    app.add_handler(CommandHandler("team", front.tours.team))
    app.add_handler(CommandHandler("rep", front.tours.rep))
    app.add_handler(CommandHandler("standings", front.tours.standings))
    app.add_handler(CallbackQueryHandler(front.button))
    # the doors (``invites.py``, ``inline.py``): inline cards, the bot added to a group, a card sent via the bot
    app.add_handler(InlineQueryHandler(front.inline.answer))
    app.add_handler(ChatMemberHandler(front.commands.doors.member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.VIA_BOT, front.commands.doors.card))
    # typed amounts: a bid asked for (B-04), the trade builder's (B-15); other private text gets the help
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, front.typed))
    app.add_error_handler(front.on_error)
    app.bot_data["front"] = front
    front.bot = app.bot  # the service's table updates are sent with it
    return app
