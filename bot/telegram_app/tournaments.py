"""Tournaments in Telegram: ``/tournament``, ``/team``, ``/rep``, ``/standings``, the sign-up and
team buttons (``T:<tournament>:<op>[:<team>]``), and a round's start (a forum topic for every table
when the group is a forum). The screens, the parsing of admin commands and the service calls are
shared with Discord (``bot/chat/tournament_screens.py``); this module maps Telegram's commands, replies
and topics onto them."""

from __future__ import annotations

import contextlib

from telegram import Update
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes

from bot.chat import tournament_screens as tour_screens
from bot.chat.asker import Who
from bot.chat.context import PlatformContext
from bot.chat.presenter import start_time
from bot.telegram_app.answers import PressAnswer, chat_key, manages, user_of
from bot.telegram_app.messenger import CAPTION_LIMIT, where
from engine.service.outcome import Outcome
from engine.service.tournaments import Tournaments
from words.i18n import t


class TelegramTournaments:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.tours = Tournaments.of(ctx.service)
        self.bot = None  # the application's bot, set once it runs

    def markup(self, screen):
        return self.ctx.messenger.markup([(b.label, b.token) for b in screen.buttons])

    async def _key(self, update: Update) -> str:
        """The chat a tournament command is about: a command typed in a table's forum topic is about
        the tournament of the whole group."""
        key = chat_key(update)
        if await tour_screens.current(self.tours, key, active_only=False) is None:
            return f"tg:{update.effective_chat.id}"
        return key

    async def _signup_reply(self, update: Update, screen, tournament: int) -> None:
        """The sign-up screen under the command, remembered so that it loses its buttons when
        sign-up is over (``bot.chat.signups``)."""
        sent = await update.effective_message.reply_text(screen.text, reply_markup=self.markup(screen))
        await self.ctx.flows.remember_signup(f"T{tournament}", sent.chat_id, sent.message_id)

    async def command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/tournament <deal|board> <solo|team> <rounds> <+minutes|HH:MM> [minutes] [rule set] [options]
        sets one up; /tournament pause|resume|cancel|correct|replace … runs it (chat admins only)."""
        args = context.args or []
        admin_op = bool(args) and args[0] in tour_screens.ADMIN_OPS
        key = await self._key(update) if admin_op else chat_key(update)
        lang = await self.ctx.flows.lang_of(key)
        user, _ = user_of(update)
        reply = update.effective_message.reply_text
        if admin_op:
            replied = update.effective_message.reply_to_message
            substitute = None
            if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
                u = replied.from_user
                substitute = (f"tg:{u.id}", u.full_name or u.username or str(u.id))
            before = await tour_screens.current(self.tours, key)
            out, text = await tour_screens.admin_command(self.tours, key, user, await manages(update), args, lang,
                                                         substitute)
            if before is not None and (await self.tours.get(before.id)).status == "cancelled":
                await self.ctx.flows.close_signup(f"T{before.id}")  # called off: its sign-up buttons go
            await reply(text)  # the tables it touched are shown again by their own updates
            return
        if not await manages(update):
            await reply(t(lang, "tour.admins_only"))
            return
        request = tour_screens.parse_create(args, lambda text: start_time(text, self.service.clock()))
        if request is None:
            await reply(t(lang, "tour.usage"))
            return
        title = update.effective_chat.title or ""
        out = await tour_screens.create(self.tours, key, user, True, request, name=title[:40])
        if not out.ok:
            await reply(t(lang, out.key, **out.params))
            return
        screen = await tour_screens.signup_screen(self.tours, out.params["tournament"], lang, self.service.clock())
        await self._signup_reply(update, screen, out.params["tournament"])

    async def press(self, update: Update, who: Who, press, answer: PressAnswer) -> None:
        """A sign-up, withdraw or join-team button: whoever presses acts for themselves only."""
        data = ":".join(["T", press.fields["tournament"], press.fields["op"]] +
                        ([press.fields["team"]] if "team" in press.fields else []))
        out = await tour_screens.press(self.tours, data, who.user, who.name, chat=who.chat)
        if not out.ok:
            await answer.tell(t(who.lang, out.key, **out.params))
            return
        await answer.note(t(who.lang, "tour.signed_up") if press.fields["op"] != "w" else t(who.lang, "ch.done"))
        screen = await tour_screens.signup_screen(self.tours, press.id("tournament"), who.lang, self.service.clock())
        with contextlib.suppress(BadRequest):  # "message is not modified"
            await update.callback_query.edit_message_text(screen.text, reply_markup=self.markup(screen))

    async def team(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/team <name>: a captain signs a team up."""
        key = await self._key(update)
        lang = await self.ctx.flows.lang_of(key)
        user, name = user_of(update)
        text = await tour_screens.team_command(self.tours, key, user, name, " ".join(context.args or []), lang)
        await update.effective_message.reply_text(text)
        row = await tour_screens.current(self.tours, key)
        if row is not None and row.mode == "team" and row.status == "signup":
            await self._signup_reply(update, await tour_screens.signup_screen(self.tours, row.id, lang,
                                                                               self.service.clock()), row.id)

    async def rep(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/rep <match> <member number>: the captain names the team's player for that match."""
        key = await self._key(update)
        user, _ = user_of(update)
        await update.effective_message.reply_text(await tour_screens.rep_command(
            self.tours, key, user, context.args or [], await self.ctx.flows.lang_of(key)))

    async def standings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/standings: the chat's latest tournament as a picture, the lines as its caption."""
        key = await self._key(update)
        lang = await self.ctx.flows.lang_of(key)
        screen = await tour_screens.standings_screen(self.tours, key, lang)
        if screen is None:
            await update.effective_message.reply_text(t(lang, "tour.none"))
            return
        await update.effective_message.reply_photo(screen.picture, caption=screen.text[:CAPTION_LIMIT - 24])

    # -- the clock ----------------------------------------------------------------------------------

    async def on_notice(self, outcome: Outcome) -> None:
        """A round of a tournament in one of this bot's chats started or ended (the rest of the
        clock's news is the shared flows')."""
        bot = self.bot
        chat = outcome.params["chat"]
        lang = await self.ctx.flows.lang_of(chat)
        chat_id, thread = where(chat)
        if outcome.key == "tour.round_started":
            row = await self.tours.get(outcome.params["tournament"])
            await bot.send_message(chat_id, tour_screens.round_text(self.service, outcome, row, lang),
                                   message_thread_id=thread)
            for n, table in enumerate(outcome.params["tables"], 1):  # a forum topic for every table
                try:
                    topic = await bot.create_forum_topic(chat_id, tour_screens.topic_title(
                        row, outcome.params["round"], n, lang))
                except (BadRequest, Forbidden):  # not a forum, or no right to make topics
                    return
                await self.service.lobby.set_messages(table, tg_thread=topic.message_thread_id)
        elif outcome.key == "tour.round_over":
            screen = await tour_screens.round_over_screen(self.tours, outcome, lang)
            if screen is not None:
                await bot.send_photo(chat_id, screen.picture, caption=screen.text[:CAPTION_LIMIT - 24],
                                     message_thread_id=thread)
