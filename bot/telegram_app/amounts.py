"""An amount typed on Telegram (the board's own bid, ``bot.chat.amounts``): "✏️ Type a bid" under
the table asks the bidder in their private chat (a reply is forced: Telegram has no form), and the
number they send there is their bid, in whichever process gets it."""

from __future__ import annotations

from telegram import ForceReply, Update
from telegram.error import Forbidden

from bot.chat import amounts
from bot.chat.context import PlatformContext
from bot.chat.inputs import Press
from bot.telegram_app.answers import PressAnswer, user_of
from bot.telegram_app.topics import own_place
from words.i18n import t


class TelegramAmounts:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service

    async def press(self, update: Update, asker, press: Press, answer: PressAnswer) -> None:
        table, lang = press.id("table"), asker.lang
        ok, text = await amounts.question(self.service, asker.user, table, lang)
        if not ok:
            await answer.tell(text)
            return
        chat, thread = await own_place(self.service, table, asker.user)  # the game's private topic, if any
        try:
            await update.get_bot().send_message(chat, text, reply_markup=ForceReply(selective=True),
                                                message_thread_id=thread)
        except Forbidden:  # never opened a private chat with the bot
            await answer.tell(t(lang, "service.not_reachable"))
            return
        await amounts.expect(self.service, asker.user, table)
        chat = update.effective_chat
        await answer.note(t(lang, "amount.asked_privately") if chat is None or chat.type != "private" else "")

    async def typed(self, update: Update) -> bool:
        """A private message that is a bid asked for: made (or why not, asking again). False when no
        bid of the sender's is waiting (the text is for someone else: the trade builder, the help)."""
        message = update.effective_message
        user, _ = user_of(update)
        table = await amounts.expected(self.service, user)
        if message is None or table is None:
            return False
        view = await self.service.public_view(table)
        lang = await self.ctx.flows.lang_of(view.chat_key) if view is not None else self.ctx.lang
        made, why = await amounts.take(self.service, user, table, message.text or "", lang)
        if made:
            await message.reply_text(t(lang, "amount.done"))
        else:
            await message.reply_text(why, reply_markup=ForceReply(selective=True))
        return True

