"""Discord interactions in, service calls and screens out.

Button ids: ``g:<token>`` (a game move, the service's token), ``l:<table>:<op>`` (lobby),
``h:<table>[:<seat>]`` (my hand, my options, a player's answers), ``b:<table>`` (take my seat
back), ``e:<table>:y|n`` (end the game: the confirmation), ``s:<schedule>`` (sign up for a
scheduled match). They are ``DynamicItem`` templates, so a button keeps working after a restart:
its id carries everything, the state comes from the database. Every interaction is answered or
deferred at once (Discord allows 3 s). The service's table updates become messages in
``messages.py``, always in the table's own channel or thread, wherever the press came from.
The lobby message is edited as players come and go and loses its buttons at Start.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
import re
from collections.abc import Awaitable

import discord
from discord import app_commands

from bot import option_screens, signups, trade_builder
from bot.channel import TableChannel
from bot.discord_app.messenger import NOBODY, PAGE, TEXT, DiscordMessenger, md
from bot.inputs import SIGNED, clean_name, parse_press
from bot.presenter import discard_pile_answer, discard_pile_picture, start_time, table_of
from bot.screens import Button, private_screen, refusal_text
from bot.updates import damaged_text
from engine.games import GAMES
from engine.service import keyvalue
from engine.service.loop import TableUpdate
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from engine.service.tournaments import base_chat
from words.i18n import game_name, normalise_lang, ruleset_name, t

log = logging.getLogger(__name__)
THREAD_NAME = 100  # Discord's limit for a thread's name
ARCHIVE_MINUTES = 1440  # a thread left alone for a day is archived; a game is far shorter


def thread_key(thread_id: int) -> str:
    """The stored note that a table plays in this thread (``engine.service.keyvalue``)."""
    return f"dc.thread.{thread_id}"
GAME_NAMES = {"deal": "大富翁纸牌 Monopoly Deal", "board": "地产大亨 Monopoly"}
LOBBY_OPS = [("join", "tg.btn.join"), ("leave", "tg.btn.leave"), ("ai", "tg.btn.add_ai"),
             ("noai", "tg.btn.remove_ai"), ("start", "tg.btn.start"), ("cancel", "tg.btn.cancel")]


def chat_key(interaction: discord.Interaction) -> str:
    return f"dc:{interaction.guild_id or 0}:{interaction.channel_id}"


def user_of(interaction: discord.Interaction) -> tuple[str, str]:
    """Who pressed or typed: their id (who they are) and their name, cleaned for screens."""
    u = interaction.user
    return f"dc:{u.id}", clean_name(getattr(u, "display_name", None) or u.name, str(u.id))


def lang_of(interaction: discord.Interaction, default: str) -> str:
    locale = str(interaction.guild_locale or interaction.locale or "")
    return normalise_lang(locale) if locale else default


def can_manage(interaction: discord.Interaction, events: bool = False) -> bool:
    """Manage Server (or, with ``events``, Manage Events) in this channel: Discord's own word for it."""
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild or (events and perms.manage_events))


class Front:
    """The Discord side of the service; one per bot."""

    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None,
                 client: discord.Client | None = None) -> None:
        self.service = service
        self.lang = normalise_lang(lang)
        self.seed = seed
        self.client = client
        self._langs: dict[str, str] = {}  # a channel's server language, learnt from its interactions
        self.messenger = DiscordMessenger(self)
        self.tables = TableChannel(service, self.messenger)
        service.subscribe(self.on_update, self.on_notice, private=True)

    async def chat_lang(self, interaction: discord.Interaction) -> str:
        key = chat_key(interaction)
        self._langs[key] = lang_of(interaction, self.lang)
        return await self.key_lang(key)

    async def key_lang(self, key: str) -> str:
        """The channel's chosen language, else its server's, else the bot's default (a tournament
        table speaks its channel's language)."""
        key = base_chat(key)
        chosen = (await self.service.chats.settings(key)).lang
        return normalise_lang(chosen) if chosen else self._langs.get(key, self.lang)

    def channel(self, key: str) -> discord.PartialMessageable:
        _, guild, channel = base_chat(key).split(":")[:3]
        return self.client.get_partial_messageable(int(channel), guild_id=int(guild) or None)

    def table_channel(self, row) -> discord.PartialMessageable:
        """Where a table is shown: its own thread (a tournament table), else its chat key's channel."""
        thread = (row.messages or {}).get("dc_thread")
        if thread:
            guild = int(base_chat(row.chat_key).split(":")[1]) or None
            return self.client.get_partial_messageable(int(thread), guild_id=guild,
                                                       type=discord.ChannelType.public_thread)
        return self.channel(row.chat_key)

    async def open_thread(self, channel_id: int, table_id: int, name: str) -> int | None:
        """A public thread of the channel for one table (its message, buttons and commands), or
        ``None`` when the bot may not make threads there (the table then plays in the channel)."""
        try:
            thread = await self.client.http.start_thread_without_message(
                channel_id, name=name[:THREAD_NAME], auto_archive_duration=ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread.value)
        except discord.HTTPException as e:  # no Create Public Threads, or a channel without threads
            log.info("no thread in channel %s: %s", channel_id, e)
            return None
        thread_id = int(thread["id"])
        await self.service.lobby.set_messages(table_id, dc_thread=thread_id)
        await keyvalue.set_value(self.service.engine, thread_key(thread_id), str(table_id))
        return thread_id

    async def table_here(self, interaction: discord.Interaction):
        """The table of this channel, or of this thread when a tournament table plays in it."""
        row = await self.service.lobby.table_in_chat(chat_key(interaction))
        if row is None and isinstance(interaction.channel, discord.Thread):
            table = await keyvalue.get_value(self.service.engine, thread_key(interaction.channel_id))
            row = self.service.table(int(table)) if table else None
        return row if row is not None and row.status in ("lobby", "running", "paused") else None

    async def _reply(self, interaction: discord.Interaction, text: str, ephemeral: bool = True, **kwargs) -> None:
        """Answer the interaction, or follow up when it was deferred already (the text shown as it
        is: a player's name never turns into markdown)."""
        text = md(text)[:TEXT]
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)

    async def refuse(self, interaction: discord.Interaction) -> None:
        """A press or form this bot cannot read: "this button is not valid", to the presser alone."""
        log.info("Discord component with an unknown id refused (channel %s): %.100s", interaction.channel_id,
                 (interaction.data or {}).get("custom_id"))
        await self._reply(interaction, t(lang_of(interaction, self.lang), "service.bad_token"))

    async def on_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Every press and command gets an answer, also when handling it broke: a short "something
        went wrong, nothing changed" to the user alone, the table and the traceback to the log."""
        data = interaction.data or {}
        custom_id = data.get("custom_id") or ""
        table = table_of(custom_id, self.service._secret) if custom_id else None
        what = custom_id or f"/{data.get('name', '?')}"
        log.error("Discord interaction %s failed (channel %s, table %s): %s", what, interaction.channel_id, table,
                  error, exc_info=error)
        lang = lang_of(interaction, self.lang)
        try:
            await self._reply(interaction, t(lang, "service.error"))
        except discord.HTTPException as e:  # the interaction expired, or Discord is unreachable
            log.info("could not tell the user about the error: %s", e)

    # -- lobby -----------------------------------------------------------------------------------

    def view_of(self, buttons: list[Button]) -> discord.ui.View:
        """A message's buttons: moves carry the service's token, everything else signed data."""
        view = discord.ui.View(timeout=None)
        for b in buttons:
            if b.token[:2] in SIGNED:
                view.add_item(ServiceButton(self.service.sign(b.token), b.label))
            else:
                view.add_item(MoveButton(b.token, b.label))
        return view

    def lobby_view(self, table_id: int, lang: str) -> discord.ui.View | None:
        if self.service.table(table_id).status != "lobby":
            return None  # started or ended: the lobby's buttons have nothing left to do
        row = self.service.table(table_id)
        # the rule options after the lobby's own buttons (only the creator's presses count)
        toggles = [Button(label, data, -1) for label, data in option_screens.lobby_buttons(row, lang)]
        return self.view_of([Button(t(lang, label), f"l:{table_id}:{op}", -1) for op, label in LOBBY_OPS] + toggles)

    def lobby_text(self, table_id: int, lang: str) -> str:
        row = self.service.table(table_id)
        seats = md("\n".join(f"{i + 1}. {s['name']}" for i, s in enumerate(row.seats)))
        key = "tg.lobby" if row.status == "lobby" else "tg.lobby_started"
        text = t(lang, key, game=game_name(row.game, lang), ruleset=ruleset_name(row.ruleset, lang), seats=seats)
        options = option_screens.on_line(row, lang)  # what the group chose stays in view after the start
        return f"{text}\n{options}" if options else text

    def rules_text(self, row, lang: str) -> str:
        """/rules: the game's rules in short; for the channel's table its rule set and options."""
        games = [row.game] if row else list(GAMES)
        text = "\n\n".join(t(lang, f"dc.rules.{g}") for g in games)
        return f"{text}\n\n{option_screens.rules_text(row, lang)}" if row else text

    async def show_lobby(self, table_id: int, lang: str) -> None:
        """The lobby's one message edited (for /join and /leave typed in the channel); posted again
        only when it can no longer be edited."""
        row = self.service.table(table_id)
        channel = self.table_channel(row)
        message = (row.messages or {}).get("dc_lobby")
        if message is not None:
            try:
                await channel.get_partial_message(message).edit(content=self.lobby_text(table_id, lang),
                                                                view=self.lobby_view(table_id, lang))
                return
            except discord.HTTPException as e:
                log.info("lobby message %s not edited (%s): a new one", message, e)
        sent = await channel.send(content=self.lobby_text(table_id, lang), view=self.lobby_view(table_id, lang),
                                  allowed_mentions=NOBODY)
        await self.service.lobby.set_messages(table_id, dc_lobby=sent.id)

    async def newgame(self, interaction: discord.Interaction, game: str, ruleset: str | None,
                      thread: bool = False, options: str | None = None) -> None:
        """A lobby in this channel, or with ``thread`` in a thread of its own where the whole game
        then plays (the channel keeps one table at a time either way). ``options`` as typed:
        ``income_tax_choice=on rent_claim=off`` (an unknown one is refused, naming the valid ones)."""
        lang = await self.chat_lang(interaction)
        user, name = user_of(interaction)
        chosen, refusal = option_screens.parse_options(game, options or "")
        if refusal is not None:
            await self._reply(interaction, t(lang, refusal.key, **refusal.params))
            return
        out = await self.service.lobby.new_table(chat_key(interaction), game, ruleset, user, name, options=chosen)
        if not out.ok:
            await self._reply(interaction, t(lang, out.key, **out.params))
            return
        home = None
        if thread and not isinstance(interaction.channel, discord.Thread):
            await interaction.response.defer()  # making the thread is one more call to Discord
            home = await self.open_thread(interaction.channel_id, out.table,
                                          t(lang, "dc.thread_name", game=game_name(game, lang), table=out.table))
        if home is None:
            text, view = self.lobby_text(out.table, lang), self.lobby_view(out.table, lang)
            if interaction.response.is_done():
                sent = await interaction.followup.send(text, view=view, wait=True)
                await interaction.followup.send(t(lang, "dc.no_thread"), ephemeral=True)  # for the asker only
                lobby = sent.id
            else:
                lobby = (await interaction.response.send_message(text, view=view)).message_id
            await self.service.lobby.set_messages(out.table, dc_lobby=lobby)
            return
        sent = await self.table_channel(self.service.table(out.table)).send(
            content=self.lobby_text(out.table, lang), view=self.lobby_view(out.table, lang), allowed_mentions=NOBODY)
        await self.service.lobby.set_messages(out.table, dc_lobby=sent.id)
        await interaction.followup.send(t(lang, "dc.game_in_thread", thread=f"<#{home}>"))

    async def lobby_press(self, interaction: discord.Interaction, table_id: int, op: str) -> None:
        await interaction.response.defer()  # the answer edits the lobby message once the service answered
        lang = await self.chat_lang(interaction)
        user, name = user_of(interaction)
        service = self.service
        live = await service.live(table_id)
        if live is not None and live.row.status != "lobby":  # a lobby message from before the start
            await self._reply(interaction, t(lang, "tg.lobby_closed"))
            await interaction.edit_original_response(content=self.lobby_text(table_id, lang), view=None)
            return
        out = await service.lobby.op(table_id, op, user, name, is_admin=can_manage(interaction), seed=self.seed)
        if not out.ok:
            await self._reply(interaction, t(lang, out.key, **out.params))
            return
        if service.table(table_id).status in ("lobby", "running", "over"):  # the game is shown by its updates
            await interaction.edit_original_response(content=self.lobby_text(table_id, lang),
                                                     view=self.lobby_view(table_id, lang))
        else:
            await interaction.edit_original_response(content=t(lang, "tg.cancelled"), view=None)

    async def command_op(self, interaction: discord.Interaction, op: str) -> None:
        """/join, /leave and /endgame: the lobby's operations on this channel's (or thread's) table;
        /join in a running game gives a player back the seat the AI kept for them; /endgame of a
        running game asks first."""
        lang = await self.chat_lang(interaction)
        row = await self.table_here(interaction)
        if row is None:
            await self._reply(interaction, t(lang, "service.no_lobby"))
            return
        user, name = user_of(interaction)
        if op == "cancel" and row.status == "running":  # a running game ends only when asked twice
            allowed = await self.service.lobby.may_cancel(row.id, user, is_admin=can_manage(interaction))
            if not allowed.ok:  # told now, not after answering "yes"
                await self._reply(interaction, t(lang, allowed.key, **allowed.params))
                return
            confirm = [Button(t(lang, "tg.btn.endgame_yes"), f"e:{row.id}:y", -1),
                       Button(t(lang, "tg.btn.endgame_no"), f"e:{row.id}:n", -1)]
            await self._reply(interaction, t(lang, "dc.endgame_confirm"), view=self.view_of(confirm))
            return
        out = await self.service.lobby.op(row.id, op, user, name, is_admin=can_manage(interaction))
        if not out.ok:  # e.g. /endgame by someone who neither opened the game nor manages the server
            await self._reply(interaction, t(lang, out.key, **out.params))
            return
        row = self.service.table(row.id)
        if out.key == "service.seat_back":
            await self._reply(interaction, t(lang, "service.welcome_back"))
        elif row.status == "lobby":  # the lobby message shows who is in
            await self._reply(interaction, t(lang, "tg.done"))
            await self.show_lobby(row.id, lang)
        elif row.status == "running":  # the table's update says who left; the AI plays the seat at once
            await self._reply(interaction, t(lang, "tg.done"))
        else:
            await interaction.response.send_message(t(lang, "tg.cancelled"))
            if (row.messages or {}).get("dc_lobby"):
                await self.show_lobby(row.id, lang)

    async def end_press(self, interaction: discord.Interaction, table_id: int, answer: str) -> None:
        """The answer to /endgame's question: only the game's creator or a manager ends it."""
        lang = await self.chat_lang(interaction)
        if answer != "y":
            await interaction.response.edit_message(content=t(lang, "tg.game_goes_on"), view=None)
            return
        await interaction.response.defer()
        user, name = user_of(interaction)
        out = await self.service.lobby.cancel(table_id, user, is_admin=can_manage(interaction), name=name)
        if not out.ok:
            await self._reply(interaction, t(lang, out.key, **out.params))
            return
        await interaction.edit_original_response(content=t(lang, "service.ended_by", by=name), view=None)

    async def seat_back(self, interaction: discord.Interaction, table_id: int) -> None:
        await interaction.response.defer(ephemeral=True)
        lang = normalise_lang(str(interaction.locale)) if interaction.locale else self.lang
        user, _ = user_of(interaction)
        out = await self.service.lobby.back(table_id, user)
        await self._reply(interaction, t(lang, "service.welcome_back") if out.ok else t(lang, out.key, **out.params))

    # -- moves -----------------------------------------------------------------------------------

    async def service_press(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A button other than a move: signed data of a known shape (``bot.inputs``), taken only
        in the chat its table, match or tournament belongs to; anything else gets a clear private
        notice and changes nothing."""
        data = self.service.unsign(custom_id)
        press = parse_press(data) if data is not None else None
        lang = lang_of(interaction, self.lang)
        if press is None:
            await self._reply(interaction, t(lang, "service.bad_token"))
            return
        table = press.id("table")
        if press.kind in ("l", "e") and not await self._in_chat(interaction, table):
            await self._reply(interaction, t(lang, "service.other_chat"))
        elif press.kind == "l":
            await self.lobby_press(interaction, table, press.fields["op"])
        elif press.kind == "h":
            await self.my_hand(interaction, table)
        elif press.kind == "p":
            await self.discard_pile(interaction, table)
        elif press.kind == "t":
            await self.trade_press(interaction, table, press.fields["op"])
        elif press.kind == "b":
            await self.seat_back(interaction, table)
        elif press.kind == "e":
            await self.end_press(interaction, table, press.fields["answer"])
        elif press.kind == "s":
            await self.sign_up(interaction, press.id("schedule"))
        else:
            await interaction.client.tournaments.press(interaction, data)

    async def _in_chat(self, interaction: discord.Interaction, table_id: int) -> bool:
        """Whether a table belongs to the channel (or the table's own thread) a press came from."""
        live = await self.service.live(table_id)
        if live is None:
            return False
        thread = (live.row.messages or {}).get("dc_thread")
        return live.row.chat_key == chat_key(interaction) or (thread is not None and thread == interaction.channel_id)

    async def press(self, interaction: discord.Interaction, token: str) -> None:
        """A move button: deferred at once (the move, the AI's answers and the picture may take
        a moment); a refusal is followed up privately; the table update shows the move."""
        await interaction.response.defer()
        user, _ = user_of(interaction)
        outcome = await self.service.act(user, token)
        if outcome.ok:
            return
        row = self.service.table(outcome.table) if outcome.table else None
        lang = await self.key_lang(row.chat_key) if row else lang_of(interaction, self.lang)
        names = {i: s["name"] for i, s in enumerate(row.seats)} if row else {}
        await self._reply(interaction, refusal_text(outcome, lang, row.game if row else None,
                                                  row.ruleset if row else "", names))

    async def my_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """The player's own screen, seen only by them (an ephemeral reply; no DM needed), in their
        own Discord language. A player whose seat the AI kept is back: the seat is theirs again."""
        lang = normalise_lang(str(interaction.locale)) if interaction.locale else self.lang
        user, _ = user_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        views = await self.service.views(table_id, seats=())
        seat = views[0].seat_of(user) if views else None
        if seat is None or views[0].status not in ("running", "paused", "over"):
            await self._reply(interaction, t(lang, "service.not_a_player"))
            return
        back = views[0].seats[seat].ai and (await self.service.lobby.back(table_id, user)).ok
        public, own = await self.service.views(table_id, seats=[seat])
        screen = await asyncio.to_thread(private_screen, own[seat], public.names, lang)
        notes = [t(lang, "service.welcome_back")] if back else []
        if public.seats[seat].dm is False:
            notes.append(t(lang, "dc.dm_closed"))
        note = "\n".join(notes)
        text = md(screen.text[-(TEXT - len(note) - 100):]) + (f"\n\n{md(note)}" if note else "")
        files = [discord.File(io.BytesIO(screen.picture), "hand.png")] if screen.picture else []
        pages = [screen.buttons[i:i + PAGE] for i in range(0, len(screen.buttons), PAGE)] or [[]]
        sent = await interaction.followup.send(text, files=files, view=self.view_of(pages[0]), ephemeral=True,
                                               wait=True)
        if len(pages) == 1:  # kept current while Discord lets it be edited (later pages are not: they are rare)
            await self.messenger.remember_reply(table_id, seat, sent, screen)
        for n, page in enumerate(pages[1:], 2):  # more choices than one message holds
            await interaction.followup.send(f"({n}/{len(pages)})", view=self.view_of(page), ephemeral=True)

    async def discard_pile(self, interaction: discord.Interaction, table_id: int) -> None:
        """D-18: the discard pile, seen only by the one who pressed (an ephemeral reply), when the
        rules let them look through it; else the refusal, as privately."""
        lang = normalise_lang(str(interaction.locale)) if interaction.locale else self.lang
        user, _ = user_of(interaction)
        await interaction.response.defer(ephemeral=True)
        views = await self.service.views(table_id, seats=())
        seat = views[0].seat_of(user) if views else None
        own = (await self.service.views(table_id, seats=[seat]))[1].get(seat) if seat is not None else None
        cards, text = discard_pile_answer(own, views[0].names if views else {}, lang)
        picture = await asyncio.to_thread(discard_pile_picture, cards, lang) if cards else None
        if picture is None:
            await self._reply(interaction, text)
            return
        await interaction.followup.send(md(text)[:TEXT], file=discord.File(io.BytesIO(picture), "discard.png"),
                                        ephemeral=True)

    # -- the trade builder (B-15): an ephemeral message only its player sees ---------------------------

    async def trade_press(self, interaction: discord.Interaction, table_id: int, op: str,
                          values: list[str] | None = None) -> None:
        """A press on "Propose a trade", "Counter", or the builder (its select menus carry
        ``values``): a new ephemeral builder for the first two, the builder edited in place for the
        rest, a form for typed amounts; a refusal is an ephemeral line and the draft stays."""
        lang = normalise_lang(str(interaction.locale)) if interaction.locale else self.lang
        user, _ = user_of(interaction)
        if op in ("xy", "xt"):  # a form answers at once (Discord allows no deferring before one)
            draft = await trade_builder.load(self.service, table_id, user)
            if draft is None:
                await self._reply(interaction, t(lang, "trade.closed"))
                return
            await interaction.response.send_modal(self.cash_form(table_id, draft, lang))
            return
        fresh = op == "n" or op[0] == "k"
        if fresh:
            await interaction.response.defer(ephemeral=True, thinking=True)
        shown = await trade_builder.press(self.service, table_id, user, op, lang, values)
        if not shown.text:
            await self._reply(interaction, shown.alert or t(lang, "service.bad_token"))
            return
        view = None if shown.closed else self.trade_view(table_id, shown.controls, lang)
        text = md(shown.text)
        if fresh:
            await interaction.followup.send(text, view=view or discord.utils.MISSING, ephemeral=True)
        elif interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.response.edit_message(content=text, view=view)
        if shown.alert:
            await interaction.followup.send(shown.alert, ephemeral=True)

    def trade_view(self, table_id: int, controls, lang: str) -> discord.ui.View:
        """Select menus for the partner and the deeds of both sides, buttons for cash, jail cards,
        the form and send (five rows at most, as Discord allows)."""
        sign = self.service.sign
        view = discord.ui.View(timeout=None)
        selects = [("p", "trade.pick_partner", [(label, str(seat), on) for label, seat, on in controls.partners], 1),
                   ("m", "trade.pick_give", [(label, str(sq), on) for label, sq, on in controls.mine], 0),
                   ("y", "trade.pick_get", [(label, str(sq), on) for label, sq, on in controls.theirs], 0)]
        row = 0
        for op, key, options, least in selects:
            if not options:
                continue
            options = options[:25]  # Discord's limit; nobody holds 25 tradable deeds
            view.add_item(TradeSelect(sign(f"v:{table_id}:{op}"), t(lang, key), options, least, row))
            row += 1
        buttons = [*controls.cash[:4], (t(lang, "trade.btn.type_you"), "xy")]
        rest = [*controls.cards, *[b for b in controls.typing if b[1] == "z"], *controls.finish]
        for line in (buttons, rest):
            for label, op in line[:5]:
                view.add_item(ServiceButton(sign(f"t:{table_id}:{op}"), label, row=min(row, 4)))
            row += 1
        return view

    def cash_form(self, table_id: int, draft, lang: str) -> discord.ui.Modal:
        """Both amounts in one form: what the player pays and what the partner pays."""
        snap = self.service.cache.peek(table_id)
        names = {i: s["name"] for i, s in enumerate(snap.row.seats)} if snap else {}
        form = discord.ui.Modal(title=t(lang, "trade.modal_title")[:45], custom_id=self.service.sign(
            f"t:{table_id}:xm"), timeout=600)
        mine = snap.state.players[draft.seat].cash if snap and snap.state else 0
        theirs = snap.state.players[draft.target].cash if snap and snap.state and draft.target >= 0 else 0
        form.add_item(discord.ui.TextInput(label=t(lang, "trade.modal_you", most=f"{mine:,}")[:45], custom_id="you",
                                           default=str(max(draft.cash, 0)), required=False, max_length=12))
        form.add_item(discord.ui.TextInput(
            label=t(lang, "trade.modal_them", name=names.get(draft.target, "?"), most=f"{theirs:,}")[:45],
            custom_id="them", default=str(max(-draft.cash, 0)), required=False, max_length=12))
        return form

    async def form_submitted(self, interaction: discord.Interaction) -> None:
        """A submitted cash form (any process takes it: its id is signed data, not a live object)."""
        data = interaction.data or {}
        press = parse_press(self.service.unsign(str(data.get("custom_id", ""))) or "")
        if press is None or press.kind != "t" or press.fields.get("op") != "xm":
            await self.refuse(interaction)
            return
        values = {c.get("custom_id"): c.get("value", "") for row in data.get("components", [])
                  for c in row.get("components", [])}
        await self.trade_press(interaction, press.id("table"), "xm", [values.get("you", ""), values.get("them", "")])

    # -- the service's table updates ---------------------------------------------------------------

    async def on_update(self, update: TableUpdate) -> None:
        """A table changed: shown in its own channel or thread, wherever the press came from."""
        if self.client is None or not update.chat_key.startswith("dc:"):
            return
        lang = await self.key_lang(update.chat_key)
        if update.kind == "damaged":
            await self.channel(update.chat_key).send(content=damaged_text(update, lang)[:TEXT],
                                                     allowed_mentions=NOBODY)
            return
        await self.tables.show(update, lang)

    async def on_notice(self, outcome: Outcome) -> None:
        """What the clocks did outside a table: a scheduled match announced or called off."""
        chat = (outcome.params or {}).get("chat")
        if self.client is None or not chat or not chat.startswith("dc:"):
            return
        closed = signups.of_outcome(outcome)
        if closed is not None:  # sign-up is over: its messages lose the button
            await self.close_signup(closed)
        if outcome.key == "service.schedule_too_few":
            await self.channel(chat).send(content=t(await self.key_lang(chat), outcome.key, **outcome.params))
            await self._drop_calendar_event(outcome.params["schedule"])
        elif outcome.key == "service.match_announced":
            lang = await self.key_lang(chat)
            view = self.view_of([Button(t(lang, "tg.btn.sign_up"), f"s:{outcome.params['schedule']}", -1)])
            sent = await self.channel(chat).send(content=t(lang, "service.match_announced"), view=view)
            await signups.remember(self.service, "dc", f"s{outcome.params['schedule']}", f"{sent.channel.id}:{sent.id}")

    async def close_signup(self, what: str) -> None:
        """The sign-up messages of a match or tournament lose their buttons (``bot.signups``)."""
        for ref in await signups.take(self.service, "dc", what):
            channel, message = (int(x) for x in ref.split(":"))
            try:
                await self.client.get_partial_messageable(channel).get_partial_message(message).edit(view=None)
            except discord.HTTPException as e:  # deleted by someone, or no longer ours to edit
                log.info("sign-up message %s not closed: %s", ref, e)

    # -- settings and scheduled matches ------------------------------------------------------------

    async def set_lang(self, interaction: discord.Interaction, lang: str) -> None:
        current = await self.chat_lang(interaction)
        if interaction.guild_id and not can_manage(interaction):
            await self._reply(interaction, t(current, "dc.manage_only"))
            return
        lang = normalise_lang(lang)
        await self.service.chats.set_settings(chat_key(interaction), lang=lang)
        await self._reply(interaction, t(lang, "dc.lang_set"), ephemeral=False)

    async def schedule(self, interaction: discord.Interaction, game: str, start: str, minutes: int,
                       ruleset: str | None = None, ai: int = 0) -> None:
        """A timed match in the service; and, when the bot may, an event in the server's calendar."""
        lang = await self.chat_lang(interaction)
        if not can_manage(interaction, events=True):
            await self._reply(interaction, t(lang, "dc.schedule_perm"))
            return
        begins = start_time(start, self.service.clock())
        if begins is None:
            await self._reply(interaction, t(lang, "dc.schedule_usage"))
            return
        user, _ = user_of(interaction)
        out = await self.service.schedules.schedule(chat_key(interaction), user, game, ruleset, begins, minutes,
                                                    ai_fill=ai)
        if not out.ok:
            await self._reply(interaction, t(lang, out.key, **out.params))
            return
        await interaction.response.defer()
        when = f"<t:{int(begins)}:f> (<t:{int(begins)}:R>)"  # each reader sees it in their own time zone
        text = t(lang, "dc.scheduled", game=game_name(game, lang), when=when, length=minutes)
        if not await self._calendar_event(interaction, lang, game, begins, minutes, out.params["schedule"]):
            text += "\n" + t(lang, "dc.no_event")
        view = self.view_of([Button(t(lang, "tg.btn.sign_up"), f"s:{out.params['schedule']}", -1)])
        sent = await interaction.followup.send(text, view=view, wait=True)
        await signups.remember(self.service, "dc", f"s{out.params['schedule']}", f"{interaction.channel_id}:{sent.id}")

    async def _calendar_event(self, interaction: discord.Interaction, lang: str, game: str, begins: float,
                              minutes: int, schedule_id: int) -> bool:
        """A Guild Scheduled Event (external, in this channel) so the match is in people's calendars.
        Only an announcement: the service's clock starts and ends the match whatever happens here."""
        if not interaction.guild_id or not (interaction.app_permissions.manage_events
                                            or interaction.app_permissions.administrator):
            return False
        start = dt.datetime.fromtimestamp(begins, dt.UTC)
        try:  # by id: the guild need not be in the cache (the bot asks for no guild intents)
            event = await self.client.http.create_guild_scheduled_event(
                interaction.guild_id, name=t(lang, "dc.event_name", game=game_name(game, lang))[:100],
                privacy_level=discord.PrivacyLevel.guild_only.value, entity_type=discord.EntityType.external.value,
                scheduled_start_time=start.isoformat(),
                scheduled_end_time=(start + dt.timedelta(minutes=minutes)).isoformat(),
                entity_metadata={"location": f"<#{interaction.channel_id}>"},
                description=t(lang, "dc.event_description", length=minutes)[:1000])
        except discord.HTTPException as e:  # Forbidden included: the match stands without the event
            log.info("no scheduled event in guild %s: %s", interaction.guild_id, e)
            return False
        # remembered so that a match the clock calls off takes its calendar entry with it
        stored = f"{interaction.guild_id}:{event['id']}"
        await keyvalue.set_value(self.service.engine, f"dc.event.{schedule_id}", stored)
        return True

    async def _drop_calendar_event(self, schedule_id: int) -> None:
        stored = await keyvalue.get_value(self.service.engine, f"dc.event.{schedule_id}")
        if stored is None:
            return
        guild, event = stored.split(":")
        try:
            await self.client.http.delete_scheduled_event(int(guild), int(event))
        except discord.HTTPException as e:  # deleted by hand already, or the right was taken away
            log.info("scheduled event %s not deleted: %s", event, e)
        await keyvalue.delete_value(self.service.engine, f"dc.event.{schedule_id}")

    async def sign_up(self, interaction: discord.Interaction, schedule_id: int) -> None:
        lang = await self.chat_lang(interaction)
        user, name = user_of(interaction)
        chat = await self.service.schedules.chat_of(schedule_id)
        if chat is not None and chat != chat_key(interaction):
            await self._reply(interaction, t(lang, "service.other_chat"))
            return
        out = await self.service.schedules.sign_up(schedule_id, user, name)
        await self._reply(interaction, t(lang, "tg.signed_up") if out.ok else t(lang, out.key, **out.params))


# -- persistent buttons: the id is the whole story -------------------------------------------------


async def guarded(interaction: discord.Interaction, work: Awaitable) -> None:
    """A button's work inside an error boundary: discord.py only logs what a dynamic button's
    callback raises, which would leave the user's press "thinking" for ever."""
    try:
        await work
    except Exception as e:
        await interaction.client.front.on_error(interaction, e)


# One grammar for every component id: the first letter says which item it is, and no two items
# share a letter (discord.py runs *every* item whose template matches an id, so two matches would
# answer one press twice). ``tests/test_discord_ids.py`` checks that the letters stay apart.


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"g:(?P<token>[0-9a-z.]+)"):
    KINDS = "g"

    def __init__(self, token: str, label: str = "·") -> None:
        super().__init__(discord.ui.Button(label=label[:80], custom_id=f"g:{token}",
                                           style=discord.ButtonStyle.primary))
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, interaction.client.front.press(interaction, self.token))


class ServiceButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"(?P<data>[lhbespTt]:[0-9a-z:]{1,40})(?:\.(?P<mac>[0-9a-f]{8}))?"):
    """Every button that is not a move: lobby, my hand, seat back, end game, sign-up, tournament,
    the discard pile, the trade builder's buttons.
    Its id is the signed data (``GameService.sign``); an id without a valid signature is refused
    when pressed, never trusted."""

    KINDS = "lhbespTt"
    STYLES = {"l": discord.ButtonStyle.secondary, "e": discord.ButtonStyle.danger}

    def __init__(self, custom_id: str, label: str = "·", row: int | None = None) -> None:
        style = self.STYLES.get(custom_id[0], discord.ButtonStyle.success)
        if custom_id.startswith("e:") and ":n." in custom_id:
            style = discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row))
        self.data = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, interaction.client.front.service_press(interaction, self.data))


class TradeSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"v:[0-9]{1,10}:[pmy]\.[0-9a-f]{8}"):
    """A select menu of the trade builder (the partner, my deeds, their deeds); its id is signed
    data like a service button's, its choice arrives as the interaction's values."""

    KINDS = "v"

    def __init__(self, custom_id: str, placeholder: str = "·", options=(), least: int = 0, row: int | None = None):
        choices = [discord.SelectOption(label=label[:100], value=value, default=on) for label, value, on in options]
        select = discord.ui.Select(custom_id=custom_id, placeholder=placeholder[:150], min_values=least,
                                   max_values=max(1, len(choices)) if least == 0 else 1,
                                   options=choices or [discord.SelectOption(label="·", value="-")], row=row)
        super().__init__(select)
        self.data = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match):
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        front = interaction.client.front
        press = parse_press(front.service.unsign(self.data) or "")
        if press is None or press.kind != "v":
            await guarded(interaction, front._reply(interaction, t(front.lang, "service.bad_token")))
            return
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        await guarded(interaction, front.trade_press(interaction, press.id("table"), f"v{press.fields['menu']}",
                                                     values))


DYNAMIC_ITEMS = (MoveButton, ServiceButton, TradeSelect)


def item_for(custom_id: str) -> type[discord.ui.DynamicItem] | None:
    """The one item whose template reads this id, or None (a made-up or outdated id)."""
    return next((item for item in DYNAMIC_ITEMS if item.__discord_ui_compiled_template__.fullmatch(custom_id)),
                None)


# the choices of /newgame; their names are translated by the tree's translator (``key``)
GAME_CHOICES = [app_commands.Choice(name=app_commands.locale_str(GAME_NAMES["deal"], key="dc.choice.deal"),
                                    value="deal"),
                app_commands.Choice(name=app_commands.locale_str(GAME_NAMES["board"], key="dc.choice.board"),
                                    value="board")]
LANG_CHOICES = [app_commands.Choice(name=name, value=code)
                for code, name in (("zh-Hans", "简体中文"), ("zh-Hant", "繁體中文"), ("en", "English"))]
# rule sets as choices (Discord cannot make one option's choices depend on another's: all games' sets,
# each named with its game; the service refuses a set of the other game)
RULESET_CHOICES = [app_commands.Choice(name=app_commands.locale_str(f"{rs} ({game})", key=f"dc.ruleset.{game}.{rs}"),
                                       value=rs) for game in GAMES for rs in GAMES[game].rulesets]
