"""Discord interactions in, service calls and screens out.

Button ids: ``g:<token>`` (a game move, the service's token), ``l:<table>:<op>`` (lobby),
``h:<table>`` (my hand). They are ``DynamicItem`` templates, so a button keeps working after a
restart: its id carries everything, the state comes from the database. Every interaction is
answered or deferred at once (Discord allows 3 s).
"""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands

from bot.presenter import alert_text, table_screens_with_pictures
from engine.service.tables import GameService
from words.i18n import normalise_lang, t

GAME_CHOICES = [app_commands.Choice(name="大富翁纸牌 Monopoly Deal", value="deal"),
                app_commands.Choice(name="地产大亨 Monopoly", value="board")]
LOBBY_OPS = [("join", "tg.btn.join"), ("leave", "tg.btn.leave"), ("ai", "tg.btn.add_ai"),
             ("noai", "tg.btn.remove_ai"), ("start", "tg.btn.start"), ("cancel", "tg.btn.cancel")]
PAGE = 25  # Discord: 5 rows of 5 buttons in one message


def chat_key(interaction: discord.Interaction) -> str:
    return f"dc:{interaction.guild_id or 0}:{interaction.channel_id}"


def user_of(interaction: discord.Interaction) -> tuple[str, str]:
    u = interaction.user
    return f"dc:{u.id}", getattr(u, "display_name", None) or u.name


def lang_of(interaction: discord.Interaction, default: str) -> str:
    locale = str(interaction.guild_locale or interaction.locale or "")
    return normalise_lang(locale) if locale else default


class Front:
    """The Discord side of the service; one per bot."""

    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None) -> None:
        self.service = service
        self.lang = normalise_lang(lang)
        self.seed = seed

    async def chat_lang(self, interaction: discord.Interaction) -> str:
        chosen = (await self.service.settings(chat_key(interaction))).lang
        return normalise_lang(chosen) if chosen else lang_of(interaction, self.lang)

    # -- lobby -----------------------------------------------------------------------------------

    def lobby_view(self, table_id: int, lang: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for op, label in LOBBY_OPS:
            view.add_item(LobbyButton(table_id, op, t(lang, label)))
        return view

    def lobby_text(self, table_id: int, lang: str) -> str:
        row = self.service.table(table_id)
        seats = "\n".join(f"{i + 1}. {s['name']}" for i, s in enumerate(row.seats))
        return t(lang, "tg.lobby", game=row.game, ruleset=row.ruleset, seats=seats)

    async def newgame(self, interaction: discord.Interaction, game: str, ruleset: str | None) -> None:
        lang = await self.chat_lang(interaction)
        user, name = user_of(interaction)
        out = await self.service.new_table(chat_key(interaction), game, ruleset, user, name)
        if not out.ok:
            await interaction.response.send_message(t(lang, out.key, **out.params), ephemeral=True)
            return
        await interaction.response.send_message(self.lobby_text(out.table, lang),
                                                view=self.lobby_view(out.table, lang))

    async def lobby_press(self, interaction: discord.Interaction, table_id: int, op: str) -> None:
        lang = await self.chat_lang(interaction)
        user, name = user_of(interaction)
        service = self.service
        perms = getattr(interaction.user, "guild_permissions", None)
        out = await service.lobby(table_id, op, user, name, is_admin=bool(perms and perms.manage_guild),
                                  seed=self.seed)
        if not out.ok:
            await interaction.response.send_message(t(lang, out.key, **out.params), ephemeral=True)
            return
        row = service.table(table_id)
        if row.status == "lobby":
            await interaction.response.edit_message(content=self.lobby_text(table_id, lang),
                                                    view=self.lobby_view(table_id, lang))
            return
        await interaction.response.defer()
        if row.status == "running":
            await service.run_ai(table_id)
            await self.publish(interaction, table_id, [], new=True)

    # -- moves -----------------------------------------------------------------------------------

    async def press(self, interaction: discord.Interaction, token: str) -> None:
        lang = await self.chat_lang(interaction)
        user, _ = user_of(interaction)
        outcome = await self.service.act(user, token)
        if not outcome.ok:
            row = self.service.table(outcome.table) if outcome.table else None
            names = {i: s["name"] for i, s in enumerate(row.seats)} if row else {}
            await interaction.response.send_message(
                alert_text(outcome, lang, row.game if row else "deal", row.ruleset if row else "", names),
                ephemeral=True)
            return
        await interaction.response.defer()
        turn = self.service.state(outcome.table).turn_number
        events = list(outcome.events)
        await self.service.run_ai(outcome.table)
        await self.publish(interaction, outcome.table, events,
                           new=self.service.state(outcome.table).turn_number != turn)

    async def my_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """The player's own screen, seen only by them (an ephemeral reply; no DM needed)."""
        lang = lang_of(interaction, self.lang)
        user, _ = user_of(interaction)
        live = await self.service.live(table_id)
        seat = live.seat_of(user) if live else None
        if seat is None or live.state is None:
            await interaction.response.send_message(t(lang, "service.not_a_player"), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        screens = await table_screens_with_pictures(self.service, table_id, (), lang)
        screen = screens.private[seat]
        buttons = [(b.label, b.token) for b in screen.buttons]
        pages = [buttons[i:i + PAGE] for i in range(0, len(buttons), PAGE)] or [[]]
        files = [discord.File(io.BytesIO(screen.picture), "hand.png")] if screen.picture else []
        await interaction.followup.send(screen.text[-1900:], files=files, view=_moves(pages[0]), ephemeral=True)
        for page in pages[1:]:
            await interaction.followup.send("…", view=_moves(page), ephemeral=True)

    async def publish(self, interaction: discord.Interaction, table_id: int, events: list, new: bool) -> None:
        """Edit the table's one public message, or post a new one when the turn passed."""
        lang = await self.chat_lang(interaction)
        row = self.service.table(table_id)
        screens = await table_screens_with_pictures(self.service, table_id, events, lang)
        public = screens.public
        buttons = [(b.label, b.token) for b in public.buttons][:PAGE - 1]
        view = _moves(buttons)
        view.add_item(HandButton(table_id, t(lang, "tg.btn.my_hand" if row.game == "deal" else "dc.btn.my_options")))
        file = discord.File(io.BytesIO(public.picture), "table.png")
        text = public.text[-1900:]
        channel = interaction.channel
        message_id = (row.messages or {}).get("dc")
        if message_id and not new:
            try:
                await channel.get_partial_message(message_id).edit(content=text, attachments=[file], view=view)
                return
            except discord.HTTPException:
                pass
        sent = await channel.send(content=text, file=file, view=view)
        await self.service.set_messages(table_id, dc=sent.id)


def _moves(buttons: list[tuple[str, str]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for label, token in buttons:
        view.add_item(MoveButton(token, label))
    return view


# -- persistent buttons: the id is the whole story -------------------------------------------------


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"g:(?P<token>[0-9a-z.]+)"):
    def __init__(self, token: str, label: str = "·") -> None:
        super().__init__(discord.ui.Button(label=label[:80], custom_id=f"g:{token}",
                                           style=discord.ButtonStyle.primary))
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.front.press(interaction, self.token)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"l:(?P<table>\d+):(?P<op>[a-z]+)"):
    def __init__(self, table: int, op: str, label: str = "·") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"l:{table}:{op}",
                                           style=discord.ButtonStyle.secondary))
        self.table, self.op = table, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(int(match["table"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.front.lobby_press(interaction, self.table, self.op)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"h:(?P<table>\d+)"):
    def __init__(self, table: int, label: str = "·") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"h:{table}", style=discord.ButtonStyle.success))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.front.my_hand(interaction, self.table)
