"""Telegram updates in, service calls out; the service's table updates in, messages out.

Callback data: ``n:<game>`` (choose a game), ``l:<table>:<op>`` (lobby buttons), ``h:<table>``
(my hand, my options), ``b:<table>`` (take my seat back), ``e:<table>:y|n`` (end the game: the
confirmation), ``s:<schedule>`` (sign up), ``T:…`` (tournaments), anything else is a game token
from the service (≤ 64 bytes). A press by someone who may not act gets a short private alert; every
callback query is answered, also when something breaks (``on_error``). The front end subscribes to
the service's table updates (``on_update``) and notices (``on_notice``); ``messages.py`` turns them
into messages. The lobby message is edited as players come and go and loses its buttons at Start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram import ForceReply, Update
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot import option_screens, signups, trade_builder
from bot import tournament_screens as tour_screens
from bot.channel import TableChannel
from bot.inputs import SIGNED, clean_name, number, parse_press
from bot.messenger import Text
from bot.presenter import (
    discard_pile_answer,
    discard_pile_picture,
    start_time,
    table_of,
)
from bot.screens import Button, hand_line, private_screen, refusal_text
from bot.telegram_app.messenger import CAPTION_LIMIT, TelegramMessenger, where
from bot.updates import damaged_text
from engine.service.loop import TableUpdate
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from engine.service.tournaments import Tournaments, base_chat
from words.i18n import game_name, normalise_lang, ruleset_name, t

log = logging.getLogger(__name__)


def chat_key(update: Update) -> str:
    """One table per chat, or per forum topic."""
    message = update.effective_message
    key = f"tg:{update.effective_chat.id}"
    if message is not None and message.is_topic_message and message.message_thread_id:
        key += f":{message.message_thread_id}"
    return key


def _user(update: Update) -> tuple[str, str]:
    """Who pressed or typed: their id (who they are) and their name, cleaned for screens."""
    u = update.effective_user
    return f"tg:{u.id}", clean_name(u.full_name or u.username, str(u.id))


class TelegramFrontEnd:
    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None) -> None:
        self.service = service
        self.tours = Tournaments.of(service)
        self.lang = normalise_lang(lang)
        self.seed = seed  # tests fix the deal; in play every game gets a fresh random seed
        self._bot = None  # set by the application that runs this front end
        self.messenger = TelegramMessenger(service)
        self.tables = TableChannel(service, self.messenger)
        service.subscribe(self.on_update, self.on_notice, private=True)

    @property
    def bot(self):
        return self._bot

    @bot.setter
    def bot(self, bot) -> None:
        self._bot = self.messenger.bot = bot

    async def _chat_lang(self, key: str) -> str:
        return normalise_lang((await self.service.chats.settings(base_chat(key))).lang or self.lang)

    # -- commands ------------------------------------------------------------------------------

    async def newgame(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/newgame [deal|board] [rule set] [option=on|off …]: open a lobby (or say where the current
        game is); options typed here start switched as typed, an unknown one is refused."""
        key = chat_key(update)
        lang = await self._chat_lang(key)
        args = context.args or []
        if not args:
            await update.effective_message.reply_text(
                t(lang, "tg.choose_game"),
                reply_markup=self.messenger.markup([(game_name(g, lang), f"n:{g}") for g in ("deal", "board")]))
            return
        game, ruleset, options, refusal, params = option_screens.parse_newgame(args)
        if refusal is not None:
            await update.effective_message.reply_text(t(lang, refusal, **params))
            return
        await self._open_lobby(update, key, lang, game, ruleset, options)

    async def _open_lobby(self, update: Update, key: str, lang: str, game: str, ruleset: str | None,
                          options: dict | None = None) -> None:
        user, name = _user(update)
        out = await self.service.lobby.new_table(key, game, ruleset, user, name, options=options)
        if not out.ok:
            await update.effective_message.reply_text(t(lang, out.key, **out.params))
            return
        await self._show_lobby(update, out.table, lang, new=True)

    def _lobby_text(self, bot, table_id: int, lang: str) -> str:
        row = self.service.table(table_id)
        seats = "\n".join(f"{i + 1}. {s['name']}" for i, s in enumerate(row.seats))
        key = "tg.lobby" if row.status == "lobby" else "tg.lobby_started"
        text = t(lang, key, game=game_name(row.game, lang), ruleset=ruleset_name(row.ruleset, lang), seats=seats)
        options = option_screens.on_line(row, lang)  # what the group chose stays in view after the start
        if options:
            text += "\n" + options
        if row.status != "lobby":
            return text
        if row.game == "deal":  # hands come by DM: players who never opened a chat with the bot need the link
            text += "\n" + t(lang, "tg.open_dm", link=self.deep_link(bot, table_id))
        return text

    def _lobby_buttons(self, table_id: int, lang: str) -> list[Button]:
        """The lobby's buttons, then the rule options (only the creator's presses of those count)."""
        if self.service.table(table_id).status != "lobby":
            return []  # started or ended: the lobby's buttons have nothing left to do
        ops = [("join", "tg.btn.join"), ("leave", "tg.btn.leave"), ("ai", "tg.btn.add_ai"),
               ("noai", "tg.btn.remove_ai"), ("start", "tg.btn.start"), ("cancel", "tg.btn.cancel")]
        buttons = [Button(t(lang, label), f"l:{table_id}:{op}", -1) for op, label in ops]
        return buttons + [Button(label, data, -1) for label, data in
                          option_screens.lobby_buttons(self.service.table(table_id), lang)]

    async def _show_lobby(self, update: Update, table_id: int, lang: str, new: bool = False) -> None:
        """The lobby's one message: posted when the lobby opens, edited as it changes (also for
        /join and /leave typed in the chat), posted again only when it can no longer be edited."""
        bot = update.get_bot()
        self.messenger.bot = self.messenger.bot or bot
        text = Text(self._lobby_text(bot, table_id, lang))
        buttons = self._lobby_buttons(table_id, lang)
        row = self.service.table(table_id)
        message = None if new else (row.messages or {}).get("tg_lobby")
        place = where(row.chat_key)
        if message is not None and await self.tables.edit(place, message, text, buttons, None):
            return
        sent = await self.tables.post(place, text, buttons)
        await self.service.lobby.set_messages(table_id, tg_lobby=sent)

    # -- buttons -------------------------------------------------------------------------------

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: a move token, or signed data of a known shape (``bot.inputs``); anything
        else, and a press carried into another chat, gets a clear private notice and changes nothing."""
        query = update.callback_query
        data = query.data or ""
        user, name = _user(update)
        key = chat_key(update)
        lang = await self._chat_lang(key)
        if data in ("n:deal", "n:board"):
            await query.answer()
            await self._open_lobby(update, key, lang, data[2:], None)
            return
        if data[:2] not in SIGNED:  # a move: the service checks its token
            await self._move(query, user, data, lang)
            return
        unsigned = self.service.unsign(data)
        press = parse_press(unsigned) if unsigned is not None else None
        if press is None:
            await query.answer(t(lang, "service.bad_token")[:200], show_alert=True)
            return
        table = press.id("table")
        if press.kind in ("l", "e") and not await self._in_chat(table, key):
            await query.answer(t(lang, "service.other_chat")[:200], show_alert=True)
            return
        if press.kind == "l":
            await self._lobby_press(update, table, press.fields["op"], user, name, lang)
        elif press.kind == "h":
            await self._my_hand(update, context, table, user, lang)
        elif press.kind == "p":
            await self._discard_pile(update, context, table, user, lang)
        elif press.kind == "t":
            await self._trade_press(update, context, table, press.fields["op"], user)
        elif press.kind == "b":
            out = await self.service.lobby.back(table, user)
            await query.answer(t(lang, "service.welcome_back") if out.ok else t(lang, out.key, **out.params)[:200],
                               show_alert=not out.ok)
        elif press.kind == "e":
            await self._end_press(update, table, press.fields["answer"], user, name, lang)
        elif press.kind == "T":
            await self._tournament_press(update, press, user, name, lang)
        else:
            await self._sign_up(query, press.id("schedule"), user, name, key, lang)

    async def _in_chat(self, table_id: int, key: str) -> bool:
        """Whether a table belongs to the chat (or forum topic) a press came from."""
        live = await self.service.live(table_id)
        return live is not None and live.row.chat_key == key

    async def _move(self, query, user: str, token: str, lang: str) -> None:
        outcome = await self.service.act(user, token)
        if not outcome.ok:
            names = self._names(outcome.table) if outcome.table else {}
            row = self.service.table(outcome.table) if outcome.table else None
            text = refusal_text(outcome, lang, row.game if row else None, row.ruleset if row else "", names)
            await query.answer(text[:200], show_alert=True)
            return
        await query.answer()  # the table update that follows shows the move to everyone

    async def _sign_up(self, query, schedule_id: int, user: str, name: str, key: str, lang: str) -> None:
        chat = await self.service.schedules.chat_of(schedule_id)
        if chat is not None and base_chat(chat) != base_chat(key):
            await query.answer(t(lang, "service.other_chat")[:200], show_alert=True)
            return
        out = await self.service.schedules.sign_up(schedule_id, user, name)
        await query.answer(t(lang, "tg.signed_up") if out.ok else t(lang, out.key, **out.params)[:200],
                           show_alert=not out.ok)

    async def _lobby_press(self, update: Update, table_id: int, op: str, user: str, name: str, lang: str) -> None:
        query = update.callback_query
        service = self.service
        live = await service.live(table_id)
        if live is not None and live.row.status != "lobby":  # a lobby message from before the start
            await query.answer(t(lang, "tg.lobby_closed")[:200], show_alert=True)
            await self._show_lobby(update, table_id, lang)
            return
        admin = op == "cancel" and await self._is_admin(update)
        out = await service.lobby.op(table_id, op, user, name, is_admin=admin, seed=self.seed)
        if not out.ok:
            await query.answer(t(lang, out.key, **out.params)[:200], show_alert=True)
            return
        await query.answer()
        if service.table(table_id).status in ("lobby", "running", "over"):  # the game is shown by its updates
            await self._show_lobby(update, table_id, lang)
        else:
            await query.edit_message_text(t(lang, "tg.cancelled"))

    async def _end_press(self, update: Update, table: int, answer: str, user: str, name: str, lang: str) -> None:
        """The answer to /endgame's question: only the game's creator or a chat admin ends it."""
        query = update.callback_query
        if answer != "y":
            await query.answer()
            await query.edit_message_text(t(lang, "tg.game_goes_on"))
            return
        out = await self.service.lobby.cancel(table, user, is_admin=await self._is_admin(update), name=name)
        if not out.ok:
            await query.answer(t(lang, out.key, **out.params)[:200], show_alert=True)
            return
        await query.answer()
        await query.edit_message_text(t(lang, "service.ended_by", by=name))

    async def _my_hand(self, update: Update, context, table_id: int, user: str, lang: str) -> None:
        """"My hand" / "My options": the player's one private message, brought up to date (made
        when it does not exist yet); a player whose seat the AI kept is back. Without a private
        chat (the player never started the bot) a private alert and the link that opens one."""
        query = update.callback_query
        back = await self._back_in_person(table_id, user)
        mine = await self._own_view(table_id, user)
        if mine is None:
            await query.answer(t(lang, "service.not_a_player"), show_alert=True)
            return
        public, own = mine
        if public.seats[own.seat].dm is not False and await self._private(table_id, public, own, lang):
            await query.answer(t(lang, "service.welcome_back") if back else None)
            return
        text = hand_line(own, lang) or t(lang, "service.not_reachable")
        await query.answer(text[:200], show_alert=True)
        await context.bot.send_message(update.effective_chat.id, t(lang, "tg.open_dm", link=self.deep_link(
            context.bot, table_id)), message_thread_id=where(chat_key(update))[1])

    async def _discard_pile(self, update: Update, context, table_id: int, user: str, lang: str) -> None:
        """D-18: the discard pile listed for a player the rules let look through it (a message in
        the private chat the button is in; a private alert when it fits or the press came from
        elsewhere); anyone else, or the player off their turn, gets the refusal as an alert."""
        query = update.callback_query
        mine = await self._own_view(table_id, user)
        cards, text = discard_pile_answer(mine[1] if mine else None, mine[0].names if mine else {}, lang)
        chat = update.effective_chat
        if cards is None or chat is None or chat.type != "private":
            await query.answer(text[:200], show_alert=True)
            return
        await query.answer()
        picture = await asyncio.to_thread(discard_pile_picture, cards, lang)
        if picture is None:  # an empty pile: the line that says so
            await context.bot.send_message(chat.id, text[:4000])
        elif len(text) <= CAPTION_LIMIT:
            await context.bot.send_photo(chat.id, picture, caption=text)
        else:  # the picture, then the list (a caption holds 1,024 characters)
            await context.bot.send_photo(chat.id, picture)
            await context.bot.send_message(chat.id, text[:4000])

    # -- the trade builder (B-15), in the player's private chat -------------------------------------

    async def _trade_lang(self, table_id: int) -> str:
        row = self.service.table(table_id)
        return await self._chat_lang(row.chat_key) if row is not None else self.lang

    async def _trade_press(self, update: Update, context, table_id: int, op: str, user: str) -> None:
        """A press on "Propose a trade", "Counter" or the builder itself: a new builder message for
        the first two (the previous one loses its buttons), the builder edited for the rest; a
        refusal is a private alert and the draft stays as it was."""
        query = update.callback_query
        lang = await self._trade_lang(table_id)
        before = await trade_builder.load(self.service, table_id, user)
        shown = await trade_builder.press(self.service, table_id, user, op, lang)
        await query.answer(shown.alert[:200] if shown.alert else None, show_alert=bool(shown.alert))
        if not shown.text:
            return
        chat_id = update.effective_chat.id
        buttons = [] if shown.closed or shown.controls is None else self._trade_buttons(table_id, shown.controls, lang)
        text = Text(shown.text)
        if op == "n" or op[0] == "k":
            if before is not None and before.message:
                await self.tables.strip(chat_id, before.message)
            message = await self.tables.post(chat_id, text, buttons)
            shown.draft.message = message
            await trade_builder.save(self.service, table_id, user, shown.draft)
        elif query.message is not None:
            await self.tables.edit(chat_id, query.message.message_id, text, buttons, None)
        if shown.typing:
            await context.bot.send_message(chat_id, shown.prompt, reply_markup=ForceReply(selective=True))

    def _trade_buttons(self, table_id: int, controls, lang: str) -> list[Button]:
        return [Button(label, f"t:{table_id}:{op}", -1) for row in trade_builder.button_rows(controls, lang)
                for label, op in row]

    async def text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Text in a private chat: an amount for a trade builder that asked for one (anything else
        there gets the help, so a player is never left without an answer)."""
        message = update.effective_message
        if message is None or update.effective_chat is None or update.effective_chat.type != "private":
            return
        user, _ = _user(update)
        waiting = await trade_builder.typing_table(self.service, user)
        # the builder speaks its table's language, as when it was opened
        lang = await self._trade_lang(waiting) if waiting is not None else \
            normalise_lang(update.effective_user.language_code)
        found = await trade_builder.typed_amount(self.service, user, message.text or "", lang)
        if found is None:
            await message.reply_text(t(lang, "tg.help"))
            return
        table_id, shown = found
        if shown.alert:
            await message.reply_text(shown.alert, reply_markup=ForceReply(selective=True))
            return
        text = Text(shown.text)
        buttons = self._trade_buttons(table_id, shown.controls, lang)
        chat_id = update.effective_chat.id
        if not (shown.draft.message and await self.tables.edit(chat_id, shown.draft.message, text, buttons, None)):
            shown.draft.message = await self.tables.post(chat_id, text, buttons)
            await trade_builder.save(self.service, table_id, user, shown.draft)

    async def _own_view(self, table_id: int, user: str):
        """(the table's public view, the user's own view), or None when they play no seat there."""
        views = await self.service.views(table_id, seats=())
        seat = views[0].seat_of(user) if views else None
        if seat is None or views[0].status not in ("running", "paused", "over"):
            return None
        public, own = await self.service.views(table_id, seats=[seat])
        return public, own[seat]

    async def _private(self, table_id: int, public, own, lang: str) -> bool:
        """The player's private message brought up to date; False when it cannot be sent."""
        screen = await asyncio.to_thread(private_screen, own, public.names, lang)
        return await self.tables.private(table_id, own.seat, public.seats[own.seat], screen, lang,
                                          version=public.version)

    async def _back_in_person(self, table_id: int, user: str) -> bool:
        """A player who asks for their hand is here: a seat the AI kept for them is theirs again."""
        live = await self.service.live(table_id)
        seat = live.seat_of(user) if live else None
        if seat is None or not live.row.seats[seat]["ai"]:
            return False
        return (await self.service.lobby.back(table_id, user)).ok

    @staticmethod
    def deep_link(bot, table_id: int) -> str:
        return f"https://t.me/{bot.username}?start=t{table_id}"

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start t<table> from the deep link: the player can now get DMs; send the hand at once."""
        user, _ = _user(update)
        lang = normalise_lang(update.effective_user.language_code)
        args = context.args or []
        table_id = number(args[0][1:]) if args and args[0].startswith("t") else None
        if table_id is None:  # /start on its own, or a deep link that is not one of ours
            await update.effective_message.reply_text(t(lang, "tg.help"))
            return
        await self.service.lobby.set_dm(table_id, user, True)
        if await self._back_in_person(table_id, user):
            await update.effective_message.reply_text(t(lang, "service.welcome_back"))
        mine = await self._own_view(table_id, user)
        if mine is None:
            await update.effective_message.reply_text(t(lang, "service.not_a_player"))
            return
        await self._private(table_id, *mine, lang)

    async def join_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._command_op(update, "join")

    async def leave_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._command_op(update, "leave")

    async def endgame(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._command_op(update, "cancel")

    async def _command_op(self, update: Update, op: str) -> None:
        key = chat_key(update)
        lang = await self._chat_lang(key)
        row = await self.service.lobby.table_in_chat(key)
        if row is None:
            await update.effective_message.reply_text(t(lang, "service.no_lobby"))
            return
        user, name = _user(update)
        if op == "cancel" and row.status == "running":  # a running game ends only when asked twice
            allowed = await self.service.lobby.may_cancel(row.id, user, is_admin=await self._is_admin(update))
            if not allowed.ok:  # told now, not after answering "yes"
                await update.effective_message.reply_text(t(lang, allowed.key, **allowed.params))
                return
            answers = [(t(lang, "tg.btn.endgame_yes"), f"e:{row.id}:y"),
                       (t(lang, "tg.btn.endgame_no"), f"e:{row.id}:n")]
            await update.effective_message.reply_text(t(lang, "tg.endgame_confirm"),
                                                      reply_markup=self.messenger.markup(answers))
            return
        if op == "join":  # in a running game: a player whose seat the AI kept takes it back
            out = await self.service.lobby.join(row.id, user, name)
        elif op == "leave":
            out = await self.service.lobby.leave(row.id, user)
        else:
            out = await self.service.lobby.cancel(row.id, user, is_admin=await self._is_admin(update), name=name)
        if not out.ok:
            await update.effective_message.reply_text(t(lang, out.key, **out.params))
        elif out.key == "service.seat_back":
            await update.effective_message.reply_text(t(lang, "service.welcome_back"))
        elif row.status == "lobby" and op != "cancel":  # the lobby message shows who is in
            await self._show_lobby(update, row.id, lang)
        elif row.status == "lobby":
            await update.effective_message.reply_text(t(lang, "tg.cancelled"))
            message = (self.service.table(row.id).messages or {}).get("tg_lobby")
            if message:
                await self.tables.edit(where(key), message, Text(t(lang, "tg.cancelled")), [], None)

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(t(await self._chat_lang(chat_key(update)), "tg.help"))

    async def rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/rules: the help, and for the chat's open table its rule set and options, on or off."""
        key = chat_key(update)
        lang = await self._chat_lang(key)
        row = await self.service.lobby.table_in_chat(key)
        text = t(lang, "tg.help")
        if row is not None:
            text = f"{game_name(row.game, lang)}\n{option_screens.rules_text(row, lang)}\n\n{text}"
        await update.effective_message.reply_text(text)

    async def lang_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/lang zh-Hans|zh-Hant|en: the chat's language (chat admins only in groups)."""
        key = chat_key(update)
        args = context.args or []
        if update.effective_chat.type != "private" and not await self._is_admin(update):
            await update.effective_message.reply_text(t(await self._chat_lang(key), "tg.admins_only"))
            return
        if not args:
            await update.effective_message.reply_text(t(await self._chat_lang(key), "tg.lang_usage"))
            return
        lang = normalise_lang(args[0])
        await self.service.chats.set_settings(key, lang=lang)
        await update.effective_message.reply_text(t(lang, "tg.done"))

    async def stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        key = chat_key(update)
        lang = await self._chat_lang(key)
        table = await self.service.chats.standings(key)
        lines = [f"{i + 1}. {e['name']}: {e['wins']}/{e['games']}" for i, e in enumerate(table[:20])]
        await update.effective_message.reply_text("\n".join([t(lang, "tg.standings"), *lines]) if lines
                                                  else t(lang, "tg.no_results"))

    async def schedule_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/schedule <deal|board> <+minutes|HH:MM> <length in minutes> [rule set] [AI seats]
        (chat admins only; HH:MM is Beijing time, UTC+8)."""
        key = chat_key(update)
        lang = await self._chat_lang(key)
        if not await self._is_admin(update):
            await update.effective_message.reply_text(t(lang, "tg.admins_only"))
            return
        args = context.args or []
        start = start_time(args[1], self.service.clock()) if len(args) >= 3 else None
        length = number(args[2], 1, 24 * 60) if len(args) >= 3 else None
        extra = args[3:]
        ai = number(extra[-1], 0, 8) if extra else None
        ruleset = extra[0] if extra and number(extra[0]) is None else None
        if start is None or length is None or (extra and ai is None and ruleset is None) or len(extra) > 2:
            await update.effective_message.reply_text(t(lang, "tg.schedule_usage"))
            return
        user, _ = _user(update)
        out = await self.service.schedules.schedule(key, user, args[0], ruleset, start, length, ai_fill=ai or 0)
        if not out.ok:
            await update.effective_message.reply_text(t(lang, out.key, **out.params))
            return
        sid = out.params["schedule"]
        minutes = max(0, int(start - self.service.clock()) // 60)
        sent = await update.effective_message.reply_text(
            t(lang, "tg.scheduled", game=game_name(args[0], lang), minutes=minutes, length=args[2]),
            reply_markup=self.messenger.markup([(t(lang, "tg.btn.sign_up"), f"s:{sid}")]))
        await self._remember_signup(f"s{sid}", sent)

    async def _remember_signup(self, what: str, sent) -> None:
        """A message with sign-up buttons, to be closed when sign-up is over (``bot.signups``)."""
        await signups.remember(self.service, "tg", what, f"{sent.chat_id}:{sent.message_id}")

    async def _close_signup(self, bot, what: str) -> None:
        for ref in await signups.take(self.service, "tg", what):
            chat_id, message_id = (int(x) for x in ref.split(":"))
            try:
                await bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=None)
            except TelegramError as e:  # deleted meanwhile, or already without buttons
                log.info("sign-up message %s not closed: %s", ref, e)

    # -- tournaments (the screens are shared with the other adapters: bot/tournament_screens.py) --

    async def _tour_key(self, update: Update) -> str:
        """The chat a tournament command is about: a command typed in a table's forum topic is about
        the tournament of the whole group."""
        key = chat_key(update)
        if await tour_screens.current(self.tours, key, active_only=False) is None:
            return f"tg:{update.effective_chat.id}"
        return key

    async def tournament_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/tournament <deal|board> <solo|team> <rounds> <+minutes|HH:MM> [minutes] [rule set] [options]
        sets one up; /tournament pause|resume|cancel|correct|replace … runs it (chat admins only)."""
        key = chat_key(update)
        if context.args and context.args[0] in tour_screens.ADMIN_OPS:
            key = await self._tour_key(update)
        lang = await self._chat_lang(key)
        args = context.args or []
        user, _ = _user(update)
        reply = update.effective_message.reply_text
        if args and args[0] in tour_screens.ADMIN_OPS:
            replied = update.effective_message.reply_to_message
            substitute = None
            if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
                u = replied.from_user
                substitute = (f"tg:{u.id}", u.full_name or u.username or str(u.id))
            before = await tour_screens.current(self.tours, key)
            out, text = await tour_screens.admin_command(self.tours, key, user, await self._is_admin(update), args,
                                                         lang, substitute)
            if before is not None and (await self.tours.get(before.id)).status == "cancelled":
                await self._close_signup(context.bot, f"T{before.id}")  # called off: its sign-up buttons go
            await reply(text)  # the tables it touched are shown again by their own updates
            return
        if not await self._is_admin(update):
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
        sent = await reply(screen.text, reply_markup=self.messenger.markup([(b.label, b.token)
                                                                             for b in screen.buttons]))
        await self._remember_signup(f"T{out.params['tournament']}", sent)

    async def _tournament_press(self, update: Update, press, user: str, name: str, lang: str) -> None:
        query = update.callback_query
        data = ":".join(["T", press.fields["tournament"], press.fields["op"]] +
                        ([press.fields["team"]] if "team" in press.fields else []))
        out = await tour_screens.press(self.tours, data, user, name, chat=chat_key(update))
        if not out.ok:
            await query.answer(t(lang, out.key, **out.params)[:200], show_alert=True)
            return
        await query.answer(t(lang, "tour.signed_up") if press.fields["op"] != "w" else t(lang, "tg.done"))
        screen = await tour_screens.signup_screen(self.tours, press.id("tournament"), lang, self.service.clock())
        with contextlib.suppress(BadRequest):  # "message is not modified"
            await query.edit_message_text(screen.text, reply_markup=self.messenger.markup(
                [(b.label, b.token) for b in screen.buttons]))

    async def team_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/team <name>: a captain signs a team up."""
        key = await self._tour_key(update)
        lang = await self._chat_lang(key)
        user, name = _user(update)
        text = await tour_screens.team_command(self.tours, key, user, name, " ".join(context.args or []), lang)
        await update.effective_message.reply_text(text)
        row = await tour_screens.current(self.tours, key)
        if row is not None and row.mode == "team" and row.status == "signup":
            screen = await tour_screens.signup_screen(self.tours, row.id, lang, self.service.clock())
            sent = await update.effective_message.reply_text(screen.text, reply_markup=self.messenger.markup(
                [(b.label, b.token) for b in screen.buttons]))
            await self._remember_signup(f"T{row.id}", sent)

    async def rep_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/rep <match> <member number>: the captain names the team's player for that match."""
        key = await self._tour_key(update)
        lang = await self._chat_lang(key)
        user, _ = _user(update)
        await update.effective_message.reply_text(
            await tour_screens.rep_command(self.tours, key, user, context.args or [], lang))

    async def standings_cmd(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/standings: the chat's latest tournament as a picture, the lines as its caption."""
        key = await self._tour_key(update)
        lang = await self._chat_lang(key)
        screen = await tour_screens.standings_screen(self.tours, key, lang)
        if screen is None:
            await update.effective_message.reply_text(t(lang, "tour.none"))
            return
        await update.effective_message.reply_photo(screen.picture, caption=screen.text[:CAPTION_LIMIT - 24])

    async def _round_started(self, bot, outcome: Outcome) -> None:
        """A round began: one announcement in the chat, then a forum topic for every table (when the
        group is a forum); each table then appears there (or under the announcement) with its first
        update."""
        chat = outcome.params["chat"]
        lang = await self._chat_lang(chat)
        row = await self.tours.get(outcome.params["tournament"])
        chat_id, thread = where(chat)
        await bot.send_message(chat_id, tour_screens.round_text(self.service, outcome, row, lang),
                               message_thread_id=thread)
        for n, table in enumerate(outcome.params["tables"], 1):
            try:
                topic = await bot.create_forum_topic(chat_id, tour_screens.topic_title(
                    row, outcome.params["round"], n, lang))
            except (BadRequest, Forbidden):  # not a forum, or no right to make topics
                return
            await self.service.lobby.set_messages(table, tg_thread=topic.message_thread_id)

    async def on_notice(self, outcome: Outcome) -> None:
        """What the service's clocks did outside a table, shown in the chat it belongs to:
        announcements, a match called off, tournament rounds starting, waiting or over."""
        chat = (outcome.params or {}).get("chat")
        if self.bot is None or not chat or not chat.startswith("tg:"):
            return
        bot = self.bot
        lang = await self._chat_lang(chat)
        chat_id, thread = where(chat)
        closed = signups.of_outcome(outcome)
        if closed is not None:  # sign-up is over: its messages lose the button
            await self._close_signup(bot, closed)
        if outcome.key == "tour.round_started":
            await self._round_started(bot, outcome)
        elif outcome.key == "tour.round_over":
            screen = await tour_screens.round_over_screen(self.tours, outcome, lang)
            if screen is not None:
                await bot.send_photo(chat_id, screen.picture, caption=screen.text[:CAPTION_LIMIT - 24],
                                     message_thread_id=thread)
        elif outcome.key == "service.match_announced":
            sent = await bot.send_message(chat_id, t(lang, "service.match_announced"), message_thread_id=thread,
                                          reply_markup=self.messenger.markup([(t(lang, "tg.btn.sign_up"),
                                                                   f"s:{outcome.params['schedule']}")]))
            await self._remember_signup(f"s{outcome.params['schedule']}", sent)
        elif outcome.key and (outcome.key.startswith("tour.") or outcome.key == "service.schedule_too_few"):
            # called off for too few entrants, or a round waiting for the last one
            await bot.send_message(chat_id, t(lang, outcome.key, **outcome.params), message_thread_id=thread)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Every press and command gets an answer, also when handling it broke: the user a short
        "something went wrong, nothing changed" (the move, if any, either happened or not, as the
        database says), the log the table and the traceback."""
        error = context.error
        if not isinstance(update, Update):
            log.error("Telegram: %s", error, exc_info=error)
            return
        query = update.callback_query
        table = table_of(query.data or "", self.service._secret) if query is not None else None
        key = chat_key(update) if update.effective_chat is not None else None
        log.error("Telegram update failed (chat %s, table %s): %s", key, table, error, exc_info=error)
        lang = self.lang
        with contextlib.suppress(Exception):  # the database may be what failed
            lang = await self._chat_lang(key) if key else self.lang
        text = t(lang, "service.error")
        try:
            if query is not None:
                await query.answer(text[:200], show_alert=True)
            elif update.effective_message is not None:
                await update.effective_message.reply_text(text)
        except TelegramError as e:  # already answered, or Telegram unreachable: the log has it
            log.info("could not tell the user about the error: %s", e)

    async def _is_admin(self, update: Update) -> bool:
        try:
            member = await update.effective_chat.get_member(update.effective_user.id)
        except Exception:  # private chats and missing rights: not an admin
            return False
        return member.status in ("creator", "administrator")

    # -- the service's table updates ----------------------------------------------------------

    def _names(self, table_id: int) -> dict[int, str]:
        row = self.service.table(table_id)
        return {i: s["name"] for i, s in enumerate(row.seats)} if row else {}

    async def on_update(self, update: TableUpdate) -> None:
        """A table changed: show it in its own chat (or forum topic), wherever the press came from
        (a button pressed in a private chat with the bot must not post the table there)."""
        if self.bot is None or not update.chat_key.startswith("tg:"):
            return
        lang = await self._chat_lang(update.chat_key)
        chat_id, thread = where(update.chat_key)
        if update.kind == "damaged":
            await self.bot.send_message(chat_id, damaged_text(update, lang), message_thread_id=thread)
            return
        await self.tables.show(update, lang)

