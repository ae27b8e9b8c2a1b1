"""Telegram updates in, the shared flows (``bot/chat/flows.py``) out; what is Telegram's own stays here:
commands typed with their arguments, the callback data of inline buttons, deep links into the
private chat (where a player's hand and options live), and the alerts that answer a press.

Callback data: ``n:<game>`` (choose a game), ``l:<table>:<op>`` (lobby buttons), ``h:<table>``
(my hand, my options), ``p:<table>`` (the discard pile), ``t:<table>:<op>`` (the trade builder,
``trades.py``), ``b:<table>`` (take my seat back), ``e:<table>:y|n`` (end the game: the
confirmation), ``s:<schedule>`` (sign up), ``T:…`` (tournaments, ``tournaments.py``); anything else
is a game token from the service (≤ 64 bytes). Every callback query is answered exactly once, also
when something breaks (``on_error``).
"""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.chat import option_screens
from bot.chat.channel import TableChannel
from bot.chat.flows import Flows
from bot.chat.inputs import SIGNED, number, parse_press
from bot.chat.messenger import Text
from bot.chat.presenter import start_time
from bot.chat.screens import Button, hand_line
from bot.telegram_app.answers import CommandAnswer, PressAnswer, chat_key, manages, user_of, who_of
from bot.telegram_app.messenger import CAPTION_LIMIT, TelegramMessenger, units, where
from bot.telegram_app.tournaments import TelegramTournaments
from bot.telegram_app.trades import TelegramTrades
from engine.games import GAMES
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from engine.service.updates import TableUpdate
from words.i18n import game_name, normalise_lang, t

log = logging.getLogger(__name__)


class TelegramFrontEnd:
    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None) -> None:
        self.service = service
        self.lang = normalise_lang(lang)
        self._bot = None  # set by the application that runs this front end
        self.messenger = TelegramMessenger(service)
        self.tables = TableChannel(service, self.messenger)
        self.flows = Flows(service, self.tables, seed)
        self.flows.default_lang = self.lang
        self.trades = TelegramTrades(self)
        self.tours = TelegramTournaments(self)
        service.subscribe(self.on_update, self.on_notice, private=True)

    @property
    def bot(self):
        return self._bot

    @bot.setter
    def bot(self, bot) -> None:
        self._bot = self.messenger.bot = bot

    async def chat_lang(self, key: str) -> str:
        return await self.flows.lang_of(key)

    async def who(self, update: Update, key: str | None = None):
        key = key or chat_key(update)
        return who_of(update, await self.chat_lang(key), key)

    # -- commands ------------------------------------------------------------------------------

    async def newgame(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/newgame [deal|board] [rule set] [option=on|off …]: open a lobby (or say where the current
        game is); options typed here start switched as typed, an unknown one is refused."""
        asker = await self.who(update)
        answer = CommandAnswer(update, self.messenger)
        args = context.args or []
        if not args:
            choices = [Button(game_name(g, asker.lang), f"n:{g}", -1) for g in GAMES]
            await answer.reply(t(asker.lang, "tg.choose_game"), choices)
            return
        game, ruleset, options, refusal, params = option_screens.parse_newgame(args)
        if refusal is not None:
            await answer.tell(t(asker.lang, refusal, **params))
            return
        await self.flows.open_lobby(asker, game, ruleset, options, answer)

    async def join_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.flows.command(await self.who(update), "join", CommandAnswer(update, self.messenger))

    async def leave_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.flows.command(await self.who(update), "leave", CommandAnswer(update, self.messenger))

    async def endgame(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.flows.command(await self.who(update), "cancel", CommandAnswer(update, self.messenger))

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(t(await self.chat_lang(chat_key(update)), "tg.help"))

    async def rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/rules: the games' rules in short; for the chat's table its rule set and options."""
        await update.effective_message.reply_text(await self.flows.rules(await self.who(update)))

    async def lang_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/lang zh-Hans|zh-Hant|en: the chat's language (chat admins only in groups)."""
        args = context.args or []
        await self.flows.set_lang(await self.who(update), args[0] if args else None,
                                  CommandAnswer(update, self.messenger),
                                  private_chat=update.effective_chat.type == "private")

    async def stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(await self.flows.stats(await self.who(update)))

    async def schedule_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/schedule <deal|board> <+minutes|HH:MM> <length in minutes> [rule set] [AI seats]
        (chat admins only; HH:MM is Beijing time, UTC+8)."""
        asker = await self.who(update)
        answer = CommandAnswer(update, self.messenger)
        if not await manages(update):
            await answer.tell(t(asker.lang, "tg.admins_only"))
            return
        args = context.args or []
        start = start_time(args[1], self.service.clock()) if len(args) >= 3 else None
        length = number(args[2], 1, 24 * 60) if len(args) >= 3 else None
        extra = args[3:]
        ai = number(extra[-1], 0, 8) if extra else None
        ruleset = extra[0] if extra and number(extra[0]) is None else None
        if start is None or length is None or (extra and ai is None and ruleset is None) or len(extra) > 2:
            await answer.tell(t(asker.lang, "tg.schedule_usage"))
            return
        minutes = max(0, int(start - self.service.clock()) // 60)
        await self.flows.schedule(asker, args[0], start, length, ruleset, ai or 0, answer,
                                  when=t(asker.lang, "ch.in_minutes", minutes=minutes))

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start t<table> from the deep link: the player can now get private messages; their own
        screen comes at once (and a seat the AI kept for them is theirs again)."""
        user, _ = user_of(update)
        lang = normalise_lang(update.effective_user.language_code)
        args = context.args or []
        table_id = number(args[0][1:]) if args and args[0].startswith("t") else None
        if table_id is None:  # /start on its own, or a deep link that is not one of ours
            await update.effective_message.reply_text(t(lang, "tg.help"))
            return
        await self.service.lobby.set_dm(table_id, user, True)
        mine = await self.flows.own(who_of(update, lang), table_id)
        if mine is None:
            await update.effective_message.reply_text(t(lang, "service.not_a_player"))
            return
        public, own, screen, back = mine
        if back:
            await update.effective_message.reply_text(t(lang, "service.welcome_back"))
        await self.tables.private(table_id, own.seat, public.seats[own.seat], screen, lang, version=public.version)

    # -- buttons -------------------------------------------------------------------------------

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: a move token, or signed data of a known shape (``bot.chat.inputs``); anything
        else, and a press carried into another chat, gets a clear private notice and changes nothing."""
        answer = PressAnswer(update, self.messenger)
        try:
            await self._press(update, answer)
        finally:
            if not answer.answered and update.callback_query is not None:
                with contextlib.suppress(TelegramError):
                    await answer.finish()

    async def _press(self, update: Update, answer: PressAnswer) -> None:
        data = update.callback_query.data or ""
        asker = await self.who(update)
        if data[:2] == "n:" and data[2:] in GAMES:
            await self.flows.open_lobby(asker, data[2:], None, {}, answer)
            return
        if data[:2] not in SIGNED:  # a move: the service checks its token
            await self.flows.move(asker, data, answer)
            return
        unsigned = self.service.unsign(data)
        press = parse_press(unsigned) if unsigned is not None else None
        if press is None:
            await answer.tell(t(asker.lang, "service.bad_token"))
            return
        table = press.id("table")
        if press.kind in ("l", "e") and not await self._in_chat(table, asker.chat):
            await answer.tell(t(asker.lang, "service.other_chat"))
        elif press.kind == "l":
            await self.flows.lobby_press(asker, table, press.fields["op"], answer)
        elif press.kind == "h":
            await self.my_hand(update, table, answer)
        elif press.kind == "p":
            await self.discard_pile(update, table, answer)
        elif press.kind == "t":
            await self.trades.press(update, table, press.fields["op"], answer)
        elif press.kind == "b":
            await self.flows.seat_back(asker, table, answer)
        elif press.kind == "e":
            await self.flows.end_answer(asker, table, press.fields["answer"] == "y", answer)
        elif press.kind == "T":
            await self.tours.press(update, press, asker, answer)
        else:
            await self.flows.sign_up(asker, press.id("schedule"), answer)

    async def _in_chat(self, table_id: int, key: str) -> bool:
        """Whether a table belongs to the chat (or forum topic) a press came from."""
        views = await self.service.views(table_id, seats=())
        return views is not None and views[0].chat_key == key

    async def my_hand(self, update: Update, table_id: int, answer: PressAnswer) -> None:
        """"My hand" / "My options": the player's one private message, brought up to date (made
        when it does not exist yet); a player whose seat the AI kept is back. Without a private
        chat (the player never started the bot) a private alert and the link that opens one."""
        lang = await self.chat_lang(chat_key(update))
        mine = await self.flows.own(who_of(update, lang), table_id)
        if mine is None:
            await answer.tell(t(lang, "service.not_a_player"))
            return
        public, own, screen, back = mine
        seat = public.seats[own.seat]
        if seat.dm is not False and await self.tables.private(table_id, own.seat, seat, screen, lang,
                                                              version=public.version):
            if back:
                await answer.note(t(lang, "service.welcome_back"))
            return
        await answer.tell(hand_line(own, lang) or t(lang, "service.not_reachable"))
        await self.messenger.post(where(chat_key(update)), Text(self.messenger.private_note(table_id, lang)), [])

    async def discard_pile(self, update: Update, table_id: int, answer: PressAnswer) -> None:
        """D-18: the discard pile listed for a player the rules let look through it (a message in
        the private chat the button is in; a private alert when the press came from elsewhere);
        anyone else, or the player off their turn, gets the refusal as an alert."""
        asker = await self.who(update)
        text, picture, allowed = await self.flows.pile(asker, table_id)
        chat = update.effective_chat
        if not allowed or chat is None or chat.type != "private":
            await answer.tell(text)
            return
        await answer.done()
        if picture is None or units(text) > CAPTION_LIMIT:  # the picture, then the list below it
            if picture is not None:
                await self.messenger.post(chat.id, Text(""), [], picture, picture_name="discard.png")
            await self.messenger.post(chat.id, Text(text), [])
        else:
            await self.messenger.post(chat.id, Text(text), [], picture, picture_name="discard.png")

    async def text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Text in a private chat: an amount for a trade builder that asked for one (anything else
        there gets the help, so a player is never left without an answer)."""
        await self.trades.typed(update)

    # -- the service ---------------------------------------------------------------------------

    async def on_update(self, update: TableUpdate) -> None:
        """A table changed: shown in its own chat (or forum topic), wherever the press came from
        (a button pressed in a private chat with the bot must not post the table there)."""
        if self.bot is not None and update.chat_key.startswith("tg:"):
            await self.flows.on_update(update)

    async def on_notice(self, outcome: Outcome) -> None:
        if self.bot is not None and await self.flows.on_notice(outcome):
            await self.tours.on_notice(outcome)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Every press and command gets an answer, also when handling it broke: the user a short
        "something went wrong, nothing changed" (the move, if any, either happened or not, as the
        database says), the log the table and the traceback."""
        error = context.error
        if not isinstance(update, Update):
            log.error("Telegram: %s", error, exc_info=error)
            return
        query = update.callback_query
        table = self.service.keys.table_named(query.data or "") if query is not None else None
        key = chat_key(update) if update.effective_chat is not None else None
        log.error("Telegram update failed (chat %s, table %s): %s", key, table, error, exc_info=error)
        lang = self.lang
        with contextlib.suppress(Exception):  # the database may be what failed
            lang = await self.chat_lang(key) if key else self.lang
        text = t(lang, "service.error")
        try:
            if query is not None:
                await query.answer(text[:200], show_alert=True)
            elif update.effective_message is not None:
                await update.effective_message.reply_text(text)
        except TelegramError as e:  # already answered, or Telegram unreachable: the log has it
            log.info("could not tell the user about the error: %s", e)
