"""Inline mode: typing ``@<bot>`` in any chat (or pressing "Invite friends", which types it in a
chat the user picks) offers cards that bring people to a game without a typed command:

- **Play <game> here** (one per game): its message asks the chat to play and carries the link
  that adds the bot to a group and opens that game's lobby there (``invites.add_link`` with the
  game as payload). In a group (``chat_type`` group or supergroup) the bot may already be there:
  the card, sent via the bot, opens the lobby at once (``TelegramDoors.card``), and its text says
  what to tap when nothing opens (the bot is not in the group yet). Elsewhere (a private chat, the
  bot's own chat) the card invites to pick a group. None in a channel, where nobody plays.
- **Join my table** (one per open lobby or running game the user sits at,
  ``engine.service.seated``): the table's own link (the private chat's ``start=t<table>``, or the
  Mini App's ``startapp`` where the bot has one and the web table is served; a table of the web
  table's own, not a chat's, only then).

Answered in the user's language (``from_user.language_code``), personal (the tables differ per
user) and cached briefly, so that a table opened a moment ago shows up.
"""

from __future__ import annotations

import html

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.ext import ContextTypes

from bot.chat.context import PlatformContext
from bot.chat.inputs import clean_name
from bot.telegram_app.invites import PLAY, add_link, has_main_app, table_link, web_app_url
from bot.telegram_app.messenger import STYLES
from engine.games import GAMES
from engine.service.seated import tables_of
from words.i18n import game_name, normalise_lang, t

CACHE_SECONDS = 10  # a card for a table opened since comes up within seconds
GROUPS = ("group", "supergroup")
TABLES_SHOWN = 3  # "Join my table" cards at most


def wanted_games(query: str, lang: str) -> list[str]:
    """The games a query names (by key or by name in the user's language or English), else all."""
    words = query.strip().lower()
    if not words:
        return list(GAMES)
    named = [g for g in GAMES if g in words or game_name(g, lang).lower() in words
             or game_name(g, "en").lower() in words]
    return named or list(GAMES)


class TelegramInline:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service

    async def answer(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The cards for one inline query (see the module's docstring)."""
        query = update.inline_query
        user = query.from_user
        lang = normalise_lang(user.language_code)
        bot = context.bot
        name = html.escape(clean_name(user.full_name or user.username, str(user.id)), quote=False)
        results = []
        if query.chat_type != "channel":
            here = query.chat_type in GROUPS
            results += [self._play(bot.username, game, lang, name, here) for game in wanted_games(query.query, lang)]
        app = has_main_app(bot) and web_app_url(self.ctx.messenger.web_url) is not None
        for row in await tables_of(self.service.db, f"tg:{user.id}", TABLES_SHOWN):
            if app or row.chat_key.startswith("tg:"):  # a web table is joined in the Mini App only
                results.append(self._join(bot.username, row, lang, name, app))
        await query.answer(results, cache_time=CACHE_SECONDS, is_personal=True,
                           button=InlineQueryResultsButton(t(lang, "tg.inline.how"), start_parameter=PLAY))

    @staticmethod
    def _play(username: str, game: str, lang: str, name: str, here: bool) -> InlineQueryResultArticle:
        named = game_name(game, lang)
        add = t(lang, "tg.inline.btn.add")
        where = "here" if here else "elsewhere"
        return InlineQueryResultArticle(
            id=f"play:{game}", title=t(lang, f"tg.inline.play.title_{where}", game=named),
            description=t(lang, f"tg.inline.play.desc_{where}"),
            input_message_content=InputTextMessageContent(
                t(lang, f"tg.inline.play.text_{where}", name=name, game=named, button=add, bot=username),
                parse_mode="HTML"),
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton(
                add, url=add_link(username, game), style=STYLES["main"])]]))

    @staticmethod
    def _join(username: str, row, lang: str, name: str, app: bool) -> InlineQueryResultArticle:
        named = game_name(row.game, lang)
        lobby = row.status == "lobby"
        button = t(lang, "tg.inline.btn.join" if lobby else "tg.inline.btn.open")
        seated = sum(1 for s in row.seats if not str(s.get("user", "")).startswith("ai:"))
        return InlineQueryResultArticle(
            id=f"join:{row.id}", title=t(lang, "tg.inline.join.title", table=row.id, game=named),
            description=t(lang, "tg.inline.join.desc_lobby" if lobby else "tg.inline.join.desc_running",
                          count=seated),
            input_message_content=InputTextMessageContent(
                t(lang, "tg.inline.join.text", name=name, game=named, table=row.id, button=button),
                parse_mode="HTML"),
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton(
                button, url=table_link(username, row.id, app), style=STYLES["main"])]]))
