"""The ways into a game on Telegram that need no typed command: the links and greetings that bring
the bot into a group and people to a table.

- **Add to a group**: ``https://t.me/<bot>?startgroup=<payload>&admin=<rights>``. Telegram lets the
  user pick a group, adds the bot (asking for ``ADMIN_RIGHTS``) and sends ``/start@<bot> <payload>``
  in that group. A game's name as the payload (``deal``, ``board``: the inline cards' links) opens
  that game's lobby at once; any other (``play``: the private greeting's button) greets the group
  with the game choice (the ``n:<game>`` buttons of a bare /newgame). A bot added by hand gets no
  ``/start``, only a ``my_chat_member`` update: the group is greeted the same way, once. The two
  updates of one addition by link may come in either order, be handled at once, or by two
  processes (webhooks behind a load balancer): whichever comes second adds nothing (a game's
  ``/start`` opens the lobby in the greeting's place). What the group was told is noted in the
  database (``settings``, ``tg.greeted.<chat>``, claimed by one process), not in memory.
- **The private greeting** (``/start`` in the bot's chat, and the buttons under ``/help``): Add to a
  group, Invite friends (``switch_inline_query_chosen_chat``: the user picks a chat, and the inline
  cards of ``inline.py`` come up there), and the web table as a Mini App where there is one.
- **A table's own link**: ``https://t.me/<bot>?start=t<table>`` (the private chat: one's own screen,
  or a seat in the lobby for someone not yet at the table), or, where the bot has a Main Mini App
  and the web table is served over https, ``https://t.me/<bot>?startapp=t<table>`` (the web table
  inside Telegram, which reads the table from ``start_param``).
- **An inline card sent into a group** (a message "via @<bot>"; a bot in privacy mode still gets
  the messages sent via itself): a "Play … here" card opens that game's lobby in the group when the
  bot is there; the card's own button adds the bot first when it is not.
"""

from __future__ import annotations

import asyncio
import html
import logging
import weakref
from urllib.parse import parse_qs, urlsplit

from telegram import (
    ChatMember,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    SwitchInlineQueryChosenChat,
    Update,
    WebAppInfo,
)
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.chat.context import PlatformContext
from bot.chat.inputs import NEW_GAME, clean_name
from bot.chat.messenger import Text
from bot.chat.screens import Button
from bot.telegram_app.answers import CommandAnswer, chat_key, who, who_of
from bot.telegram_app.messenger import STYLES, rows, where
from engine.games import GAMES
from engine.service.storage import keyvalue
from words.i18n import game_name, t

log = logging.getLogger(__name__)

# The rights the bot asks for when added by its link: the only one it uses is making a forum topic
# for each table of a tournament round (``tournaments.py``); it deletes and edits only its own
# messages, which needs none. (Deep links: ``admin`` is a ``+``-separated list of rights.)
ADMIN_RIGHTS = "manage_topics"
PLAY = "play"  # the payload of a plain "Add to a group": the group chooses its game
# the web table's page the menu button and the greeting open: the Main Mini App's entry (the web
# lobby inside Telegram, signed in by initData; ``bot/web/miniapp.py``)
MENU_PATH = "/tg"
ADDITION = 120.0  # seconds within which Telegram's two updates of one addition to a group come


def add_link(bot_username: str, payload: str = PLAY) -> str:
    """The link that adds the bot to a group of the user's choice and starts it there with
    ``payload`` (1-64 of ``A-Za-z0-9_-``)."""
    return f"https://t.me/{bot_username}?startgroup={payload}&admin={ADMIN_RIGHTS}"


def table_link(bot_username: str, table: int, app: bool = False) -> str:
    """A table's link: the private chat with ``/start t<table>``, or (``app``) the Main Mini App
    opened on the table (``startapp``)."""
    return f"https://t.me/{bot_username}?{'startapp' if app else 'start'}=t{table}"


def payload_of(url: str | None) -> tuple[str, str] | None:
    """A link of ours taken apart: ``(kind, value)`` where kind is ``startgroup``, ``start`` or
    ``startapp``; None for any other address."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme != "https" or parts.netloc != "t.me":
        return None
    query = parse_qs(parts.query)
    for kind in ("startgroup", "startapp", "start"):
        if query.get(kind):
            return kind, query[kind][0]
    return None


def games_named(lang: str) -> str:
    return t(lang, "ui.list_sep").join(game_name(g, lang) for g in GAMES)


def has_main_app(bot) -> bool:
    """Whether getMe says the bot has a Main Mini App (set up with @BotFather), which ``startapp``
    links open."""
    try:
        return bool(getattr(bot.bot, "has_main_web_app", False))
    except RuntimeError:  # not initialised
        return False


def web_app_url(web_url: str | None) -> str | None:
    """The web table's page for a Mini App button (Telegram opens https only)."""
    if not web_url or not web_url.startswith("https://"):
        return None
    return web_url.rstrip("/") + MENU_PATH


def greeting_markup(bot_username: str, lang: str, web_url: str | None, invite: bool = True) -> InlineKeyboardMarkup:
    """The private greeting's buttons: Add to a group (the one expected, coloured), Invite friends
    (pick any chat and the inline cards come up there), the web table as a Mini App."""
    made = [InlineKeyboardButton(t(lang, "tg.btn.add_group"), url=add_link(bot_username), style=STYLES["main"])]
    if invite:
        made.append(InlineKeyboardButton(t(lang, "tg.btn.invite"), switch_inline_query_chosen_chat=(
            SwitchInlineQueryChosenChat(query="", allow_user_chats=True, allow_group_chats=True))))
    page = web_app_url(web_url)
    if page is not None:
        made.append(InlineKeyboardButton(t(lang, "tg.btn.web"), web_app=WebAppInfo(page)))
    return InlineKeyboardMarkup(rows(made, per_row=1))


class TelegramDoors:
    """The greetings and the links' landing places (see the module's docstring)."""

    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service, self.flows = ctx.service, ctx.flows
        # a group greeted since the bot was added to it is noted in the database (``_noted``), so
        # that the ``/start`` that follows an addition by link replaces the greeting with a lobby, or
        # is not answered twice, whichever process takes each of Telegram's two updates
        # Telegram's two updates of one addition may be handled at once (updates run concurrently):
        # a group's greeting and start are taken one at a time, in whichever order they come
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, chat: int) -> asyncio.Lock:
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = asyncio.Lock()
        return lock

    @property
    def messenger(self):
        return self.ctx.messenger

    # -- the private chat -----------------------------------------------------------------------

    async def private_start(self, update: Update, lang: str) -> None:
        """``/start`` in the bot's chat without a table: a greeting with the ways in."""
        user = update.effective_user
        name = html.escape(clean_name(user.full_name or user.username, ""), quote=False)
        bot = update.get_bot()
        await update.effective_message.reply_text(
            t(lang, "tg.greet.private", name=name, games=games_named(lang)), parse_mode="HTML",
            reply_markup=greeting_markup(bot.username, lang, self.messenger.web_url))

    async def help(self, update: Update, lang: str) -> None:
        """``/help``: how to play, with the buttons of the greeting (in a group: Add to a group and
        the web table's link only; inviting is the private chat's)."""
        private = update.effective_chat.type == "private"
        bot = update.get_bot()
        markup = greeting_markup(bot.username, lang, self.messenger.web_url if private else None, invite=private)
        await update.effective_message.reply_text(t(lang, "tg.help"), reply_markup=markup)

    async def join_by_link(self, update: Update, table: int, lang: str) -> None:
        """``/start t<table>`` from someone not seated there: a seat in the lobby (its message in
        the group shows them), else why not."""
        asker = who_of(update, lang)
        view = await self.service.public_view(table)
        if view is None or view.status != "lobby":
            await update.effective_message.reply_text(t(lang, "service.not_a_player"))
            return
        out = await self.service.lobby.op(table, "join", asker.user, asker.name)
        if not out.ok:
            await update.effective_message.reply_text(t(lang, out.key, **out.params))
            return
        await self.service.lobby.set_dm(table, asker.user, True)  # they opened this chat: cards come here
        await update.effective_message.reply_text(t(lang, "tg.joined_by_link", table=table,
                                                    game=game_name(view.game, lang)))
        if view.chat_key.startswith("tg:"):  # the lobby's message in its group (a web table's page follows by itself)
            await self.flows.show_lobby(table, await self.flows.lang_of(view.chat_key))

    # -- groups -----------------------------------------------------------------------------------

    def _choices(self, lang: str) -> list[Button]:
        return [Button(game_name(g, lang), f"{NEW_GAME}{g}", -1) for g in GAMES]

    # -- one addition, two updates: what a group was told, across processes --------------------------

    @staticmethod
    def _note(chat: int) -> str:
        return f"tg.greeted.{chat}"

    def _fresh(self, value: str | None) -> bool:
        """Whether a note is of the addition under way (Telegram's two updates come seconds apart)."""
        try:
            return value is not None and self.service.clock() - float(value.split(":", 1)[0]) < ADDITION
        except ValueError:
            return False

    async def _claim(self, chat: int) -> bool:
        """This process tells the group (no note of the addition under way is held)."""
        return await keyvalue.claim_value(self.service.db, self._note(chat), f"{self.service.clock()}:-",
                                          stale=lambda old: not self._fresh(old))

    async def _noted(self, chat: int) -> str | None:
        """The note of the addition under way, taken (it answers one update only): its time and
        the greeting's message id (``-`` while it is being posted); None without one."""
        value = await keyvalue.get_value(self.service.db, self._note(chat))
        await keyvalue.delete_value(self.service.db, self._note(chat))
        return value if self._fresh(value) else None

    async def _unsay(self, chat: int, noted: str | None) -> None:
        """The greeting a note names deleted (none while it is being posted)."""
        greeting = noted.split(":", 1)[1] if noted else "-"
        if greeting.isdigit():
            await self.messenger.delete(chat, int(greeting))

    async def _greet(self, chat: int, key: str) -> int:
        lang = await self.flows.lang_of(key)
        sent = await self.messenger.post(where(key), Text(t(lang, "tg.greet.group", games=games_named(lang))),
                                         self._choices(lang))
        await keyvalue.set_value(self.service.db, self._note(chat), f"{self.service.clock()}:{sent}")
        return sent

    async def group_start(self, update: Update, payload: str | None) -> None:
        """``/start[@bot] [payload]`` in a group (what Telegram sends after the add link): a game's
        name opens its lobby (in place of the greeting just posted, if any); anything else
        greets the group with the game choice, unless it was just greeted."""
        chat = update.effective_chat.id
        async with self._lock(chat):
            noted = await self._noted(chat)
            if payload in GAMES:
                await self._unsay(chat, noted)  # the lobby takes the greeting's place
                asker = await who(self.ctx, update)
                await self.flows.open_lobby(asker, payload, None, {}, CommandAnswer(update, self.messenger))
                # another process may have been posting the greeting meanwhile (it noted "-"): it goes too
                await self._unsay(chat, await self._noted(chat))
                return
            if noted is None and await self._claim(chat):  # (else greeted a moment ago, on the addition)
                await self._greet(chat, chat_key(update))

    async def member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot's own membership changed: added to a group (by its link or by hand), it greets
        the group with the game choice; removed, it forgets the greeting."""
        changed = update.my_chat_member
        if changed is None or changed.chat.type not in ("group", "supergroup"):
            return
        present = (ChatMember.MEMBER, ChatMember.ADMINISTRATOR, ChatMember.OWNER)
        was, now = changed.old_chat_member.status in present, changed.new_chat_member.status in present
        if was and now:  # rights changed: nothing to say
            return
        chat, key = changed.chat.id, f"tg:{changed.chat.id}"
        if not now:
            await keyvalue.delete_value(self.service.db, self._note(chat))
            return
        async with self._lock(chat):
            # the link's /start came first: its lobby is open, or the group was greeted (the note is
            # held, by this process or another)
            if await self.service.lobby.table_in_chat(key) is not None or not await self._claim(chat):
                await self._noted(chat)  # the addition's two updates are answered
                return
            try:
                sent = await self._greet(chat, key)
            except TelegramError as e:  # a group where the bot may not write: nothing to do
                log.info("could not greet group %s: %s", chat, e)
                return
            # the link's /start may have opened a lobby meanwhile in another process: it stands alone
            if await self.service.lobby.table_in_chat(key) is not None:
                await self.messenger.delete(chat, sent)

    async def card(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A message sent via this bot (an inline card chosen in some chat): in a group, a "Play …"
        card opens that game's lobby there; anything else (a "Join my table" card, a card in a
        private chat) speaks for itself with its button."""
        message = update.effective_message
        if message is None or message.via_bot is None or message.via_bot.id != context.bot.id:
            return
        if update.effective_chat.type not in ("group", "supergroup"):
            return
        links = [payload_of(b.url) for row in (message.reply_markup.inline_keyboard if message.reply_markup else ())
                 for b in row]
        game = next((value for kind, value in filter(None, links) if kind == "startgroup"), None)
        if game not in GAMES:
            return
        # the card opens the lobby: a greeting noted for an addition answers nothing more
        await keyvalue.delete_value(self.service.db, self._note(update.effective_chat.id))
        asker = await who(self.ctx, update)
        await self.flows.open_lobby(asker, game, None, {}, CommandAnswer(update, self.messenger))
