"""Discord interactions in, the shared chat code out. What is Discord's own stays here: an
interaction turned into ``Who`` and ``Answer`` for the press router (``bot/chat/presses.py``),
answered or deferred at once (Discord allows 3 s), and the error boundary. The slash commands are
declared in ``cogs.py`` and worked out in ``commands.py``, the components in ``items.py``, what only
the presser sees in ``private.py``, threads in ``threads.py``, the trade builder in ``trades.py``,
tournaments in ``tournaments.py``; the table's messages go out through ``messenger.py``.

Component ids: ``g:<token>`` (a game move, the service's token), signed data of a kind of
``bot.chat.inputs.PressKind`` (``v:`` the trade builder's select menus), every one answered or
deferred at once, also when handling it broke (``on_error``).
"""

from __future__ import annotations

import logging

import discord

from bot.chat.channel import TableChannel
from bot.chat.context import PlatformContext
from bot.chat.flows import Flows
from bot.chat.inputs import Press, PressKind
from bot.chat.presses import PressRouter, failed
from bot.discord_app import activity, calendar, private, threads
from bot.discord_app.amounts import DiscordAmounts
from bot.discord_app.answers import InteractionAnswer, own_lang, refuse, say, who
from bot.discord_app.commands import DiscordCommands
from bot.discord_app.messenger import DiscordMessenger
from bot.discord_app.trades import DiscordTrades
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from words.i18n import normalise_lang

log = logging.getLogger(__name__)


class Front:
    """The Discord side of the service; one per bot."""

    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None,
                 client: discord.Client | None = None) -> None:
        self.service, self.lang = service, normalise_lang(lang)
        self.messenger = DiscordMessenger(service)
        self.tables = TableChannel(service, self.messenger)
        self.flows = Flows(service, self.tables, seed)
        self.flows.default_lang = self.lang
        self.flows.admins_only = "dc.manage_only"
        self.ctx = PlatformContext(service, self.tables, self.flows, self.lang)
        self.commands = DiscordCommands(self.ctx)
        self.trades = DiscordTrades(self.ctx)
        self.amounts = DiscordAmounts(self.ctx)
        self.tournaments = None  # the bot's TournamentFront, which shows a round's start and end
        self.router = PressRouter(self.ctx, {
            PressKind.OWN: self._own, PressKind.PILE: self._pile, PressKind.SEAT_BACK: self._seat_back,
            PressKind.TRADE: self._trade, PressKind.TOURNAMENT: self._tournament,
            PressKind.AMOUNT: self._amount, PressKind.ACTIVITY: self._activity}, homes=threads.homes,
            stale=self._stale)
        self._subscribed = False
        self.client = client

    @property
    def client(self) -> discord.Client | None:
        return self.ctx.client

    @client.setter
    def client(self, client: discord.Client | None) -> None:
        """Once there is a client to send with, the Discord channels' updates come straight to the
        shared flows (``Flows.on_update`` → the table channel → the messenger)."""
        self.ctx.client = self.messenger.client = client
        if client is not None and not self._subscribed:
            self._subscribed = True
            self.service.subscribe(self.flows.on_update, self.on_notice, private=True, chats="dc:")

    async def press(self, interaction: discord.Interaction, data: str) -> None:
        """A component's id (a move's token, or signed data), through the press router."""
        asker = await who(self.ctx, interaction)
        await self.router.route(asker, data, InteractionAnswer(interaction, asker.lang), interaction)

    async def _own(self, interaction, asker, press: Press, answer) -> None:
        await private.own_screen(self.ctx, interaction, press.id("table"))

    async def _stale(self, interaction, asker, table: int, refusal: str) -> None:
        """A press that came after the table moved on: the refusal, with the presser's choices as
        they are now (ephemeral, which no channel's wait holds up)."""
        await private.own_screen(self.ctx, interaction, table, refusal=refusal)

    async def _pile(self, interaction, asker, press: Press, answer) -> None:
        await private.discard_pile(self.ctx, interaction, press.id("table"))

    async def _seat_back(self, interaction, asker, press: Press, answer) -> None:
        """Answered in the presser's own Discord language (the note is theirs alone)."""
        await self.flows.seat_back(asker, press.id("table"), InteractionAnswer(interaction, own_lang(interaction,
                                                                                                     self.lang)))

    async def _activity(self, interaction, asker, press: Press, answer) -> None:
        """"Open table" under a table's message: the Activity in this channel, else the web link."""
        await activity.launch(interaction, press.id("table"))

    async def _amount(self, interaction, asker, press: Press, answer) -> None:
        await self.amounts.press(interaction, press.id("table"))

    async def _trade(self, interaction, asker, press: Press, answer) -> None:
        await self.trades.press(interaction, press.id("table"), press.fields["op"])

    async def _tournament(self, interaction, asker, press: Press, answer) -> None:
        await self.tournaments.press(interaction, self.service.unsign((interaction.data or {})["custom_id"]))

    async def refuse(self, interaction: discord.Interaction) -> None:
        await refuse(self.ctx, interaction)

    async def on_notice(self, outcome: Outcome) -> None:
        """What the clocks did outside a table: a scheduled match announced or called off (and its
        calendar entry with it), a tournament's rounds."""
        if not await self.flows.on_notice(outcome):
            return
        if outcome.key == "service.schedule_too_few":
            await calendar.drop_event(self.ctx, outcome.params["schedule"])
        if self.tournaments is not None:
            await self.tournaments.on_notice(outcome)

    async def on_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """The error boundary (``bot.chat.presses.failed``), the answer to the user alone."""
        data = interaction.data or {}
        custom_id = data.get("custom_id") or ""
        what = f"Discord interaction {custom_id or '/' + str(data.get('name', '?'))}"
        await failed(self.ctx, error, what, f"dc:{interaction.guild_id or 0}:{interaction.channel_id}", custom_id,
                     lambda text: say(interaction, text), (discord.HTTPException,), logger=log)
