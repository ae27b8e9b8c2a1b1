"""Discord interactions in, the shared flows (``bot/chat/flows.py``) out; what is Discord's own stays
here: a game in a thread of its own, a player's screen as an ephemeral reply only they see (no DM
needed), the server's calendar for a scheduled match, and the server's language for a channel
that never chose one. The slash commands are in ``cogs.py``, the components in ``items.py``, the
trade builder in ``trades.py``, tournaments in ``tournaments.py``.

Component ids: ``g:<token>`` (a game move, the service's token), ``l:<table>:<op>`` (lobby),
``h:<table>[:<seat>]`` (my hand, my options, a player's answers), ``p:<table>`` (the discard pile),
``t:<table>:<op>`` and ``v:<table>:<menu>`` (the trade builder), ``b:<table>`` (take my seat back),
``e:<table>:y|n`` (end the game: the confirmation), ``s:<schedule>`` (sign up for a scheduled
match), ``T:…`` (tournaments). Every interaction is answered or deferred at once (Discord allows
3 s), also when handling it broke (``on_error``).
"""

from __future__ import annotations

import io
import logging

import discord

from bot.chat import option_screens
from bot.chat.asker import Who
from bot.chat.channel import TableChannel
from bot.chat.flows import Flows
from bot.chat.inputs import parse_press
from bot.chat.messenger import pages
from bot.discord_app import calendar
from bot.discord_app.answers import InteractionAnswer, chat_key, lang_of, own_lang, say, who_of
from bot.discord_app.items import view_of
from bot.discord_app.messenger import PAGE, TEXT, DiscordMessenger, md
from bot.discord_app.trades import DiscordTrades
from engine.service.outcome import Outcome
from engine.service.storage import keyvalue
from engine.service.tables import GameService
from engine.service.tournaments import base_chat
from engine.service.updates import TableUpdate
from engine.service.views import PublicView
from words.i18n import game_name, normalise_lang, t

log = logging.getLogger(__name__)
THREAD_NAME = 100  # Discord's limit for a thread's name
ARCHIVE_MINUTES = 1440  # a thread left alone for a day is archived; a game is far shorter


def thread_key(thread_id: int) -> str:
    """The stored note that a table plays in this thread (``engine.service.storage.keyvalue``)."""
    return f"dc.thread.{thread_id}"


class Front:
    """The Discord side of the service; one per bot."""

    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None,
                 client: discord.Client | None = None) -> None:
        self.service = service
        self.lang = normalise_lang(lang)
        self.client = client
        self.messenger = DiscordMessenger(self)
        self.tables = TableChannel(service, self.messenger)
        self.flows = Flows(service, self.tables, seed)
        self.flows.default_lang = self.lang
        self.flows.admins_only = "dc.manage_only"
        self.trades = DiscordTrades(self)
        self.tournaments = None  # the bot's TournamentFront, which shows a round's start and end
        service.subscribe(self.on_update, self.on_notice, private=True)

    async def who(self, interaction: discord.Interaction, key: str | None = None) -> Who:
        """Who asks, in the channel's language (its server's when the channel never chose one)."""
        key = base_chat(key or chat_key(interaction))
        self.flows.learnt[key] = lang_of(interaction, self.lang)
        return who_of(interaction, await self.flows.lang_of(key), key)

    async def chat_lang(self, interaction: discord.Interaction) -> str:
        return (await self.who(interaction)).lang

    def channel(self, key: str) -> discord.PartialMessageable:
        _, guild, channel = base_chat(key).split(":")[:3]
        return self.client.get_partial_messageable(int(channel), guild_id=int(guild) or None)

    async def table_here(self, interaction: discord.Interaction) -> PublicView | None:
        """The table of this channel, or of this thread when a table plays in it."""
        row = await self.service.lobby.table_in_chat(chat_key(interaction))
        table = row.id if row is not None else None
        if table is None and isinstance(interaction.channel, discord.Thread):
            stored = await keyvalue.get_value(self.service.db, thread_key(interaction.channel_id))
            table = int(stored) if stored else None
        views = await self.service.views(table, seats=()) if table is not None else None
        view = views[0] if views is not None else None
        return view if view is not None and view.status in ("lobby", "running", "paused") else None

    async def refuse(self, interaction: discord.Interaction) -> None:
        """A press or form this bot cannot read: "this button is not valid", to the presser alone."""
        log.info("Discord component with an unknown id refused (channel %s): %.100s", interaction.channel_id,
                 (interaction.data or {}).get("custom_id"))
        await say(interaction, t(lang_of(interaction, self.lang), "service.bad_token"))

    async def on_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Every press and command gets an answer, also when handling it broke: a short "something
        went wrong, nothing changed" to the user alone, the table and the traceback to the log."""
        data = interaction.data or {}
        custom_id = data.get("custom_id") or ""
        table = self.service.keys.table_named(custom_id) if custom_id else None
        what = custom_id or f"/{data.get('name', '?')}"
        log.error("Discord interaction %s failed (channel %s, table %s): %s", what, interaction.channel_id, table,
                  error, exc_info=error)
        try:
            await say(interaction, t(lang_of(interaction, self.lang), "service.error"))
        except discord.HTTPException as e:  # the interaction expired, or Discord is unreachable
            log.info("could not tell the user about the error: %s", e)

    # -- the lobby, in the channel or a thread of its own ----------------------------------------

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
        await keyvalue.set_value(self.service.db, thread_key(thread_id), str(table_id))
        return thread_id

    async def newgame(self, interaction: discord.Interaction, game: str, ruleset: str | None,
                      thread: bool = False, options: str | None = None) -> None:
        """A lobby in this channel, or with ``thread`` in a thread of its own where the whole game
        then plays (the channel keeps one table at a time either way). ``options`` as typed:
        ``income_tax_choice=on rent_claim=off`` (an unknown one is refused, naming the valid ones)."""
        asker = await self.who(interaction)
        answer = InteractionAnswer(interaction, asker.lang)
        chosen, refusal = option_screens.parse_options(game, options or "")
        if refusal is not None:
            await answer.tell(t(asker.lang, refusal.key, **refusal.params))
            return
        if not thread or isinstance(interaction.channel, discord.Thread):
            await self.flows.open_lobby(asker, game, ruleset, chosen, answer)
            return
        table = await self.flows.open_lobby(asker, game, ruleset, chosen, answer, post=False)
        if table is None:
            return
        await interaction.response.defer()  # making the thread is one more call to Discord
        home = await self.open_thread(interaction.channel_id, table,
                                      t(asker.lang, "dc.thread_name", game=game_name(game, asker.lang), table=table))
        if home is None:
            await self.flows.post_lobby(table, asker.lang, answer)
            await answer.tell(t(asker.lang, "dc.no_thread"))  # for the asker only
            return
        await self.flows.show_lobby(table, asker.lang)  # in the thread
        await interaction.followup.send(t(asker.lang, "dc.game_in_thread", thread=f"<#{home}>"))

    async def command(self, interaction: discord.Interaction, op: str) -> None:
        """/join, /leave and /endgame on this channel's (or thread's) table."""
        asker = await self.who(interaction)
        await self.flows.command(asker, op, InteractionAnswer(interaction, asker.lang),
                                 view=await self.table_here(interaction))

    async def set_lang(self, interaction: discord.Interaction, code: str) -> None:
        """/lang: the channel's language (Manage Server in a server)."""
        asker = await self.who(interaction)
        await self.flows.set_lang(asker, code, InteractionAnswer(interaction, asker.lang),
                                  private_chat=not interaction.guild_id)

    # -- presses -----------------------------------------------------------------------------------

    async def service_press(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A button other than a move: signed data of a known shape (``bot.chat.inputs``), taken only
        in the chat its table, match or tournament belongs to; anything else gets a clear private
        notice and changes nothing."""
        data = self.service.unsign(custom_id)
        press = parse_press(data) if data is not None else None
        asker = await self.who(interaction)
        answer = InteractionAnswer(interaction, asker.lang)
        if press is None:
            await answer.tell(t(asker.lang, "service.bad_token"))
            return
        table = press.id("table")
        if press.kind in ("l", "e") and not await self._in_chat(interaction, table):
            await answer.tell(t(asker.lang, "service.other_chat"))
        elif press.kind == "l":
            await interaction.response.defer()  # the answer edits the lobby message once the service answered
            await self.flows.lobby_press(asker, table, press.fields["op"], answer)
        elif press.kind == "h":
            await self.my_hand(interaction, table)
        elif press.kind == "p":
            await self.discard_pile(interaction, table)
        elif press.kind == "t":
            await self.trades.press(interaction, table, press.fields["op"])
        elif press.kind == "b":
            await self.flows.seat_back(asker, table, InteractionAnswer(interaction, own_lang(interaction, self.lang)))
        elif press.kind == "e":
            await self.flows.end_answer(asker, table, press.fields["answer"] == "y", answer)
        elif press.kind == "s":
            await self.flows.sign_up(asker, press.id("schedule"), answer)
        else:
            await self.tournaments.press(interaction, data)

    async def _in_chat(self, interaction: discord.Interaction, table_id: int) -> bool:
        """Whether a table belongs to the channel (or the table's own thread) a press came from."""
        views = await self.service.views(table_id, seats=())
        if views is None:
            return False
        thread = views[0].messages.get("dc_thread")
        return views[0].chat_key == chat_key(interaction) or (thread is not None and thread == interaction.channel_id)

    async def move(self, interaction: discord.Interaction, token: str) -> None:
        """A move button: deferred at once (the move, the AI's answers and the picture may take
        a moment); a refusal is followed up privately; the table update shows the move."""
        await interaction.response.defer()
        asker = await self.who(interaction)
        await self.flows.move(asker, token, InteractionAnswer(interaction, asker.lang))

    async def my_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """The player's own screen, seen only by them (an ephemeral reply; no DM needed), in their
        own Discord language. A player whose seat the AI kept is back: the seat is theirs again."""
        lang = own_lang(interaction, self.lang)
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = await self.flows.own(who_of(interaction, lang), table_id)
        if mine is None:
            await say(interaction, t(lang, "service.not_a_player"))
            return
        public, own, screen, back = mine
        notes = [t(lang, "service.welcome_back")] if back else []
        if public.seats[own.seat].dm is False:
            notes.append(t(lang, "dc.dm_closed"))
        note = "\n".join(notes)
        text = md(screen.text[-(TEXT - len(note) - 100):]) + (f"\n\n{md(note)}" if note else "")
        files = [discord.File(io.BytesIO(screen.picture), "hand.png")] if screen.picture else []
        paged = pages(screen.buttons, PAGE)
        sign = self.service.sign
        sent = await interaction.followup.send(text, files=files, view=view_of(sign, paged[0]), ephemeral=True,
                                               wait=True)
        if len(paged) == 1:  # kept current while Discord lets it be edited (later pages are not: they are rare)
            await self.messenger.remember_reply(table_id, own.seat, interaction.token, sent.id, screen)
        for n, page in enumerate(paged[1:], 2):  # more choices than one message holds
            await interaction.followup.send(f"({n}/{len(paged)})", view=view_of(sign, page), ephemeral=True)

    async def discard_pile(self, interaction: discord.Interaction, table_id: int) -> None:
        """D-18: the discard pile, seen only by the one who pressed (an ephemeral reply), when the
        rules let them look through it; else the refusal, as privately."""
        await interaction.response.defer(ephemeral=True)
        text, picture, _ = await self.flows.pile(who_of(interaction, own_lang(interaction, self.lang)), table_id)
        if picture is None:
            await say(interaction, text)
            return
        await interaction.followup.send(md(text)[:TEXT], file=discord.File(io.BytesIO(picture), "discard.png"),
                                        ephemeral=True)

    # -- scheduled matches ---------------------------------------------------------------------------

    async def schedule(self, interaction: discord.Interaction, game: str, start: str, minutes: int,
                       ruleset: str | None = None, ai: int = 0) -> None:
        """A timed match in the service; and, when the bot may, an event in the server's calendar."""
        asker = await self.who(interaction)
        answer = InteractionAnswer(interaction, asker.lang)
        begins = calendar.begins(start, self.service.clock())
        if not calendar.may_schedule(interaction):
            await answer.tell(t(asker.lang, "dc.schedule_perm"))
            return
        if begins is None:
            await answer.tell(t(asker.lang, "dc.schedule_usage"))
            return

        async def announce(schedule_id: int) -> str | None:
            await interaction.response.defer()  # the calendar is one more call to Discord
            made = await calendar.add_event(self, interaction, asker.lang, game, begins, minutes, schedule_id)
            return None if made else t(asker.lang, "dc.no_event")

        await self.flows.schedule(asker, game, begins, minutes, ruleset, ai, answer, when=calendar.when(begins),
                                  note=announce)

    # -- the service ---------------------------------------------------------------------------------

    async def on_update(self, update: TableUpdate) -> None:
        """A table changed: shown in its own channel or thread, wherever the press came from."""
        if self.client is not None and update.chat_key.startswith("dc:"):
            await self.flows.on_update(update)

    async def on_notice(self, outcome: Outcome) -> None:
        """What the clocks did outside a table: a scheduled match announced or called off (and its
        calendar entry with it), a tournament's rounds."""
        if self.client is None or not await self.flows.on_notice(outcome):
            return
        if outcome.key == "service.schedule_too_few":
            await calendar.drop_event(self, outcome.params["schedule"])
        if self.tournaments is not None:
            await self.tournaments.on_notice(outcome)

    async def hand_here(self, interaction: discord.Interaction) -> None:
        """``/hand``: the asker's own screen at this channel's (or thread's) table."""
        view = await self.table_here(interaction)
        if view is None:
            await say(interaction, t(await self.chat_lang(interaction), "service.no_lobby"))
            return
        await self.my_hand(interaction, view.table)
