"""Telegram's commands onto the shared flows (``bot/chat/flows.py``): each reads what Telegram
gives (the typed arguments, the chat, whether the asker is an admin) and calls one flow. The
commands are registered in ``app.py``; the answers go out through ``answers.py``."""

from __future__ import annotations

from telegram import Update
from telegram.error import Forbidden
from telegram.ext import ContextTypes

from bot.chat import option_screens
from bot.chat.context import PlatformContext
from bot.chat.inputs import number
from bot.chat.presenter import start_time
from bot.chat.screens import Button
from bot.telegram_app.answers import CommandAnswer, chat_key, manages, who, who_of
from bot.telegram_app.invites import TelegramDoors
from engine.games import GAMES
from words.i18n import game_name, normalise_lang, t


class TelegramCommands:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.flows, self.service = ctx.flows, ctx.service
        self.doors = TelegramDoors(ctx)  # the greetings and the links' landing places (``invites.py``)

    def _answer(self, update: Update) -> CommandAnswer:
        return CommandAnswer(update, self.ctx.messenger)

    async def newgame(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/newgame [game] [rule set] [option=on|off …]: open a lobby (or say where the current
        game is); options typed here start switched as typed, an unknown one is refused."""
        asker, answer, args = await who(self.ctx, update), self._answer(update), context.args or []
        if not args:
            choices = [Button(game_name(g, asker.lang), f"n:{g}", -1) for g in GAMES]
            await answer.reply(t(asker.lang, "tg.choose_game"), choices)
            return
        game, ruleset, options, refusal, params = option_screens.parse_newgame(args)
        if refusal is not None:
            await answer.tell(t(asker.lang, refusal, **params))
            return
        await self.flows.open_lobby(asker, game, ruleset, options, answer)

    async def join(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.flows.command(await who(self.ctx, update), "join", self._answer(update))

    async def leave(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.flows.command(await who(self.ctx, update), "leave", self._answer(update))

    async def endgame(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.flows.command(await who(self.ctx, update), "cancel", self._answer(update))

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/help: how to play, with the buttons that add the bot to a group and invite friends."""
        await self.doors.help(update, await self.flows.lang_of(chat_key(update)))

    async def rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/rules: the games' rules in short; for the chat's table its rule set and options."""
        await update.effective_message.reply_text(await self.flows.rules(await who(self.ctx, update)))

    async def lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/lang zh-Hans|zh-Hant|en: the chat's language (chat admins only in groups)."""
        args = context.args or []
        await self.flows.set_lang(await who(self.ctx, update), args[0] if args else None, self._answer(update),
                                  private_chat=update.effective_chat.type == "private")

    async def stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(await self.flows.stats(await who(self.ctx, update)))

    async def top(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/top: this chat's leaderboard, a page at a time (``bot.chat.leaderboards``)."""
        await self.flows.boards.top(await who(self.ctx, update), self._answer(update))

    async def season(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/season: how long this chat's seasons last (admins choose with a button)."""
        await self.flows.boards.season(await who(self.ctx, update), self._answer(update))

    async def me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/me: the asker's ratings and latest games, in their private chat with the bot (the group
        is told it went there, or how to open that chat when the bot may not write to them yet)."""
        asker = await who(self.ctx, update)
        text = await self.flows.me(asker)
        if update.effective_chat.type == "private":
            await update.effective_message.reply_text(text)
            return
        try:
            await context.bot.send_message(update.effective_user.id, text)
        except Forbidden:  # they never opened a chat with the bot
            await update.effective_message.reply_text(t(asker.lang, "ch.me.open_private", bot=context.bot.username))
            return
        await update.effective_message.reply_text(t(asker.lang, "ch.me.sent"))

    async def schedule(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/schedule <game> <+minutes|HH:MM> <length in minutes> [rule set] [AI seats]
        (chat admins only; HH:MM is Beijing time, UTC+8)."""
        asker, answer, args = await who(self.ctx, update), self._answer(update), context.args or []
        if not await manages(update):
            await answer.tell(t(asker.lang, "ch.admins_only"))
            return
        now = self.service.clock()
        start = start_time(args[1], now) if len(args) >= 3 else None
        length = number(args[2], 1, 24 * 60) if len(args) >= 3 else None
        extra = args[3:]
        ai = number(extra[-1], 0, 8) if extra else None
        ruleset = extra[0] if extra and number(extra[0]) is None else None
        if start is None or length is None or (extra and ai is None and ruleset is None) or len(extra) > 2:
            await answer.tell(t(asker.lang, "tg.schedule_usage"))
            return
        minutes = max(0, int(start - now) // 60)
        await self.flows.schedule(asker, args[0], start, length, ruleset, ai or 0, answer,
                                  when=t(asker.lang, "ch.in_minutes", minutes=minutes))

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start t<table> from the deep link: the player can now get private messages; their own
        screen comes at once (and a seat the AI kept for them is theirs again); someone not at the
        table yet gets a seat in its lobby. /start on its own (or any other payload) greets; in a
        group (what the "Add to a group" link sends) it greets or opens the game it names."""
        lang = normalise_lang(update.effective_user.language_code)
        args = context.args or []
        if update.effective_chat.type != "private":
            await self.doors.group_start(update, args[0] if args else None)
            return
        table_id = number(args[0][1:]) if args and args[0].startswith("t") else None
        if table_id is None:  # /start on its own, or a deep link that is not a table's
            await self.doors.private_start(update, lang)
            return
        asker = who_of(update, lang)
        await self.service.lobby.set_dm(table_id, asker.user, True)
        mine = await self.flows.own(asker, table_id)
        if mine is None:
            await self.doors.join_by_link(update, table_id, lang)
            return
        if mine.back:
            await update.effective_message.reply_text(t(lang, "service.welcome_back"))
        await self.ctx.channel.private(table_id, mine.own.seat, mine.public.seats[mine.own.seat], mine.screen, lang,
                                       version=mine.public.version)
