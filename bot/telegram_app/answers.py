"""How the Telegram bot answers the one who typed or pressed (``bot.chat.flows.Answer``), and who they
are (``bot.chat.flows.Who``). A command is answered in the chat it was typed in (Telegram has no message
only one member of a group sees); a press is answered by the callback query itself: an alert for
the presser alone, or nothing, and every query is answered exactly once."""

from __future__ import annotations

from telegram import Update

from bot.chat.asker import Who
from bot.chat.inputs import clean_name
from bot.chat.messenger import Text
from bot.chat.screens import Button
from bot.telegram_app.messenger import KEPT, TelegramMessenger, where


def chat_key(update: Update) -> str:
    """One table per chat, or per forum topic of a group. A private chat is one chat whatever topic
    a message is in (the bot's own topics there, one per game, are places within it: ``topics.py``)."""
    message = update.effective_message
    chat = update.effective_chat
    key = f"tg:{chat.id}"
    if message is not None and message.is_topic_message and message.message_thread_id and chat.type != "private":
        key += f":{message.message_thread_id}"
    return key


def place_of(update: Update) -> tuple[int, int | None]:
    """Where an answer goes: the chat (and forum topic) of the key, or the private topic the
    message is in."""
    chat, thread = where(chat_key(update))
    if thread is None and update.effective_chat.type == "private":
        message = update.effective_message
        if message is not None and message.is_topic_message:
            thread = message.message_thread_id
    return chat, thread


def user_of(update: Update) -> tuple[str, str]:
    """Who pressed or typed: their id (who they are) and their name, cleaned for screens."""
    u = update.effective_user
    return f"tg:{u.id}", clean_name(u.full_name or u.username, str(u.id))


async def manages(update: Update) -> bool:
    """An admin of the chat (never in a private chat, nor when Telegram cannot tell)."""
    try:
        member = await update.effective_chat.get_member(update.effective_user.id)
    except Exception:  # private chats and missing rights: not an admin
        return False
    return member.status in ("creator", "administrator")


def who_of(update: Update, lang: str, key: str | None = None) -> Who:
    user, name = user_of(update)
    return Who(user, name, key or chat_key(update), lang, lambda: manages(update))


async def who(ctx, update: Update, key: str | None = None) -> Who:
    """Who typed or pressed, in the language of the chat (``key``, else the one it came from)."""
    key = key or chat_key(update)
    return who_of(update, await ctx.flows.lang_of(key), key)


class CommandAnswer:
    """A command typed in a chat: answered there, under it."""

    def __init__(self, update: Update, messenger: TelegramMessenger) -> None:
        self.update, self.messenger = update, messenger

    @property
    def place(self):
        return place_of(self.update)

    async def tell(self, text: str) -> None:
        await self.reply(text)

    async def reply(self, text: str | Text, buttons: list[Button] | None = None) -> int | None:
        under = self.update.effective_message.message_id
        body = Text(text) if isinstance(text, str) else text
        return await self.messenger.post(self.place, body, buttons or [], reply_to=under)

    async def ask(self, text: str, buttons: list[Button]) -> None:
        await self.reply(text, buttons)

    async def update(self, text: str) -> None:  # a command has no pressed message to change
        await self.reply(text)

    async def menu(self, text: str, buttons: list[Button], note: str | None = None) -> None:
        await self.reply(f"{note}\n\n{text}" if note else text, buttons)

    async def done(self) -> None:
        return None

    async def defer(self) -> None:
        return None


class PressAnswer:
    """A button pressed: the callback query is answered once (``finish`` answers it when nothing
    else did); a message in answer goes to the chat the button is in."""

    def __init__(self, update: Update, messenger: TelegramMessenger) -> None:
        self.update, self.messenger = update, messenger
        self.query = update.callback_query
        self.answered = False

    @property
    def place(self):
        return place_of(self.update) if self.update.effective_chat is not None else None

    async def _answer(self, text: str | None = None, alert: bool = False) -> None:
        if not self.answered:
            self.answered = True
            await self.query.answer(text[:200] if text else None, show_alert=alert)

    async def tell(self, text: str) -> None:
        await self._answer(text, alert=True)

    async def note(self, text: str) -> None:
        """A short word that needs no "OK" (a small toast, not an alert)."""
        await self._answer(text)

    async def reply(self, text: str | Text, buttons: list[Button] | None = None) -> int | None:
        await self._answer()
        return await self.messenger.post(self.place, Text(text) if isinstance(text, str) else text, buttons or [])

    async def ask(self, text: str, buttons: list[Button]) -> None:
        await self.reply(text, buttons)

    async def update(self, text: str) -> None:
        await self._answer()
        if self.query.message is not None:
            await self.messenger.edit(self.place, self.query.message.message_id, Text(text), [], None, False)

    async def menu(self, text: str, buttons: list[Button], note: str | None = None) -> None:
        await self._answer(note, alert=note is not None)
        message = self.query.message
        if message is not None:  # a photo's caption, or a message's text, with the new buttons
            kept = KEPT if getattr(message, "photo", None) else None  # a photo keeps its picture
            await self.messenger.edit(self.place, message.message_id, Text(text), buttons, kept, False)

    async def done(self) -> None:
        await self._answer()

    async def defer(self) -> None:  # the callback query is answered with the outcome, within its time
        return None

    async def finish(self) -> None:
        await self._answer()
