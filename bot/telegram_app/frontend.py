"""Telegram updates in, the shared chat code out. What is Telegram's own stays here: a press's
callback query turned into ``Who`` and ``Answer`` for the press router (``bot/chat/presses.py``), a
player's own screen delivered as their one private message (or, without a private chat, an alert
and the deep link that opens one), the discard pile posted in the private chat, and the error
boundary hooked into python-telegram-bot. Commands are in ``commands.py``, the trade builder in
``trades.py``, tournaments in ``tournaments.py``; the table's messages go out through the table
channel and ``messenger.py``.

Callback data: ``n:<game>`` (choose a game), signed data (``bot.chat.inputs.PressKind``), anything
else a game token from the service (≤ 64 bytes). Every callback query is answered exactly once,
also when something breaks (``on_error``).
"""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.chat.channel import TableChannel
from bot.chat.context import PlatformContext
from bot.chat.flows import Flows
from bot.chat.inputs import Press, PressKind
from bot.chat.messenger import Text
from bot.chat.presses import PressRouter, failed
from bot.chat.screens import hand_line
from bot.telegram_app.amounts import TelegramAmounts
from bot.telegram_app.answers import PressAnswer, chat_key, who, who_of
from bot.telegram_app.commands import TelegramCommands
from bot.telegram_app.inline import TelegramInline
from bot.telegram_app.messenger import CAPTION_LIMIT, TelegramMessenger, units, where
from bot.telegram_app.topics import thread_of
from bot.telegram_app.tournaments import TelegramTournaments
from bot.telegram_app.trades import TelegramTrades
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from words.i18n import normalise_lang, t

log = logging.getLogger(__name__)


class TelegramFrontEnd:
    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None) -> None:
        self.service, self.lang = service, normalise_lang(lang)
        self.messenger = TelegramMessenger(service)
        self.tables = TableChannel(service, self.messenger)
        self.flows = Flows(service, self.tables, seed)
        self.flows.default_lang = self.lang
        self.ctx = PlatformContext(service, self.tables, self.flows, self.lang)
        self.commands = TelegramCommands(self.ctx)
        self.trades = TelegramTrades(self.ctx)
        self.tours = TelegramTournaments(self.ctx)
        self.amounts = TelegramAmounts(self.ctx)
        self.inline = TelegramInline(self.ctx)
        self.router = PressRouter(self.ctx, {
            PressKind.OWN: self.own_screen, PressKind.PILE: self.discard_pile, PressKind.TRADE: self.trades.press,
            PressKind.TOURNAMENT: self.tours.press, PressKind.AMOUNT: self.amounts.press})
        self._subscribed = False
        self._piles: dict[int, list[int]] = {}  # private chat -> the discard pile's messages shown there

    @property
    def bot(self):
        return self.messenger.bot

    @bot.setter
    def bot(self, bot) -> None:
        """Once there is a bot to send with, the Telegram chats' updates come straight to the
        shared flows (``Flows.on_update`` → the table channel → the messenger)."""
        self.messenger.bot = self.tours.bot = self.ctx.client = bot
        if bot is not None and not self._subscribed:
            self._subscribed = True
            self.service.subscribe(self.flows.on_update, self.on_notice, private=True, chats="tg:")

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press, through the press router; its callback query is answered once, whatever happens."""
        answer = PressAnswer(update, self.messenger)
        try:
            await self.router.route(await who(self.ctx, update), update.callback_query.data or "", answer, update)
        finally:
            if not answer.answered and update.callback_query is not None:
                with contextlib.suppress(TelegramError):
                    await answer.finish()

    async def own_screen(self, update: Update, asker, press: Press, answer: PressAnswer) -> None:
        """"My hand" / "My options": the player's one private message, brought up to date (made
        when it does not exist yet); a player whose seat the AI kept is back. Without a private
        chat (the player never started the bot) a private alert and the link that opens one."""
        table_id, lang = press.id("table"), asker.lang
        mine = await self.flows.own(who_of(update, lang), table_id)
        if mine is None:
            await answer.tell(t(lang, "service.not_a_player"))
            return
        seat = mine.public.seats[mine.own.seat]
        if seat.dm is not False and await self.tables.private(table_id, mine.own.seat, seat, mine.screen, lang,
                                                              version=mine.public.version):
            # always a word in answer (a press answered with nothing looks like a press that failed)
            chat = update.effective_chat
            in_private = chat is not None and chat.type == "private"
            await answer.note(t(lang, "service.welcome_back") if mine.back else
                              t(lang, "ch.own_current" if in_private else "ch.own_sent"))
            return
        await answer.tell(hand_line(mine.own, lang) or t(lang, "service.not_reachable"))
        await self.messenger.post(where(chat_key(update)), Text(self.messenger.private_note(table_id, lang)), [])

    async def typed(self, update: Update, context: ContextTypes.DEFAULT_TYPE | None = None) -> None:
        """Text in a private chat: a bid asked for, else an amount the trade builder asked for,
        else the help."""
        if update.effective_chat is None or update.effective_chat.type != "private":
            return
        if not await self.amounts.typed(update):
            await self.trades.typed(update, context)

    async def discard_pile(self, update: Update, asker, press: Press, answer: PressAnswer) -> None:
        """D-18: the discard pile listed for a player the rules let look through it (a message in
        the private chat the button is in; a private alert when the press came from elsewhere);
        anyone else, or the player off their turn, gets the refusal as an alert."""
        text, picture, allowed = await self.flows.pile(asker, press.id("table"))
        chat = update.effective_chat
        if not allowed or chat is None or chat.type != "private":
            await answer.tell(text)
            return
        await answer.done()
        # one pile in a private chat: the one shown before goes (else a photo a press piles up)
        for old in self._piles.pop(chat.id, []):
            await self.messenger.delete(chat.id, old)
        place = (chat.id, thread_of(update))  # in the game's private topic when pressed there
        if picture is None or units(text) > CAPTION_LIMIT:  # the picture, then the list below it
            shown = [await self.messenger.post(place, Text(""), [], picture, picture_name="discard.png")
                     ] if picture is not None else []
            shown.append(await self.messenger.post(place, Text(text), []))
        else:
            shown = [await self.messenger.post(place, Text(text), [], picture, picture_name="discard.png")]
        self._piles[chat.id] = shown

    async def on_notice(self, outcome: Outcome) -> None:
        if await self.flows.on_notice(outcome):
            await self.tours.on_notice(outcome)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The error boundary (``bot.chat.presses.failed``): a press is answered with an alert, a
        command with a reply."""
        if not isinstance(update, Update):
            await failed(self.ctx, context.error, "Telegram", None, None, self._nobody, logger=log)
            return
        query = update.callback_query

        async def tell(text: str) -> None:
            if query is not None:
                await query.answer(text[:200], show_alert=True)
            elif update.effective_message is not None:
                await update.effective_message.reply_text(text)

        key = chat_key(update) if update.effective_chat is not None else None
        await failed(self.ctx, context.error, "Telegram update", key, query.data if query else None, tell,
                     (TelegramError,), logger=log)

    @staticmethod
    async def _nobody(text: str) -> None:
        return None
