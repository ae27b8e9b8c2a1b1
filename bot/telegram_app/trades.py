"""The trade builder (B-15, ``bot/chat/trade_builder.py``) in a Telegram private chat: one message per
draft, edited as the player presses its buttons; "Propose a trade" and "Counter" start a new one
(the previous one loses its buttons); an amount is typed as a reply to the bot's question
(``ForceReply``), since Telegram has no form."""

from __future__ import annotations

from telegram import ForceReply, Update

from bot.chat import trade_builder
from bot.chat.context import PlatformContext
from bot.chat.inputs import Press
from bot.chat.messenger import Text
from bot.chat.screens import Button
from bot.telegram_app.answers import PressAnswer, user_of
from bot.telegram_app.topics import thread_of
from words.i18n import normalise_lang, t


class TelegramTrades:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service

    async def _lang(self, table_id: int) -> str:
        """The builder speaks its table's language, as when it was opened."""
        view = await self.service.public_view(table_id)
        return await self.ctx.flows.lang_of(view.chat_key) if view is not None else self.ctx.lang

    def buttons(self, table_id: int, controls, lang: str) -> list[Button]:
        return [Button(label, f"t:{table_id}:{op}", -1) for row in trade_builder.button_rows(controls, lang)
                for label, op in row]

    async def press(self, update: Update, asker, press: Press, answer: PressAnswer) -> None:
        """A press on "Propose a trade", "Counter" or the builder itself: a new builder message for
        the first two, the builder edited for the rest; a refusal is a private alert and the draft
        stays as it was."""
        table_id, op, user = press.id("table"), press.fields["op"], asker.user
        lang = await self._lang(table_id)
        before = await trade_builder.load(self.service, table_id, user)
        shown = await trade_builder.press(self.service, table_id, user, op, lang)
        if shown.alert:
            await answer.tell(shown.alert)
        else:
            await answer.done()
        if not shown.text:
            return
        chat_id = update.effective_chat.id
        place = (chat_id, thread_of(update))  # in the game's private topic when pressed there
        tables = self.ctx.channel
        buttons = [] if shown.closed or shown.controls is None else self.buttons(table_id, shown.controls, lang)
        if op == "n" or op[0] == "k":
            if before is not None and before.message:
                await tables.strip(chat_id, before.message)
            message = await tables.post(place, Text(shown.text), buttons)
            await trade_builder.save_message(self.service, table_id, user, message)
        elif update.callback_query.message is not None:
            await tables.edit(chat_id, update.callback_query.message.message_id, Text(shown.text), buttons, None)
        if shown.typing:
            await update.get_bot().send_message(chat_id, shown.prompt, reply_markup=ForceReply(selective=True),
                                                message_thread_id=place[1])

    async def typed(self, update: Update, context=None) -> None:
        """Text in a private chat: the amount a builder asked for, else the help."""
        message = update.effective_message
        if message is None or update.effective_chat is None or update.effective_chat.type != "private":
            return
        user, _ = user_of(update)
        waiting = await trade_builder.typing_table(self.service, user)
        lang = await self._lang(waiting) if waiting is not None else normalise_lang(
            update.effective_user.language_code)
        found = await trade_builder.typed_amount(self.service, user, message.text or "", lang)
        if found is None:
            await message.reply_text(t(lang, "tg.help"))
            return
        table_id, shown = found
        if shown.alert:
            await message.reply_text(shown.alert, reply_markup=ForceReply(selective=True))
            return
        text, buttons = Text(shown.text), self.buttons(table_id, shown.controls, lang)
        chat_id = update.effective_chat.id
        tables = self.ctx.channel
        if not (shown.draft.message and await tables.edit(chat_id, shown.draft.message, text, buttons, None)):
            message = await tables.post((chat_id, thread_of(update)), text, buttons)
            await trade_builder.save_message(self.service, table_id, user, message)
