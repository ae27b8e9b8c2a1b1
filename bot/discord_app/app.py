"""The discord.py bot around the front end: the slash commands (named and described in the
server's language by a translator reading our catalogues) and the persistent buttons."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app import activity
from bot.discord_app.cogs import table_commands, tournament_commands
from bot.discord_app.frontend import Front
from bot.discord_app.items import DYNAMIC_ITEMS, guarded, item_for
from bot.discord_app.tournaments import TournamentFront
from bot.discord_app.waits import ChannelWaits
from engine.service import metrics
from engine.service.tables import GameService
from words.i18n import CATALOGUES

log = logging.getLogger(__name__)
# the bot speaks in text channels only: discord.py's two warnings about missing voice libraries
# would only worry an operator reading the start-up log
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False

# where the commands may be installed and used, unless a command says otherwise (issue 49)
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)

# Discord locales we translate into; any other locale sees the English default
LOCALES = {discord.Locale.chinese: "zh-Hans", discord.Locale.taiwan_chinese: "zh-Hant"}


class CatalogueTranslator(app_commands.Translator):
    """Discord asks once per string and locale when the commands are synced; the answer comes from
    data/locale like every other sentence of the bot."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        lang = LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or key is None:
            return None
        return CATALOGUES[lang].get(key)


def _counted(request):
    """discord.py's REST calls, counting the sends Discord did not take (an error status, or no
    answer) in ``tycoon_send_failures{platform="discord"}``; reading calls are not sends."""

    async def counted(route, *args, **kwargs):
        try:
            return await request(route, *args, **kwargs)
        except (discord.HTTPException, OSError, TimeoutError):
            if route.method != "GET":
                metrics.SEND_FAILURES.labels("discord").inc()
            raise

    return counted


class TycoonBot(commands.AutoShardedBot):
    """The Discord bot. Sharded when asked (``shard_count`` and this process's ``shard_ids``: a
    guild's interactions reach the process holding its shard; anything a process sends goes by REST,
    so clocks fire from any process); one shard, or as many as Discord advises, otherwise."""

    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None,
                 sync_commands: bool = False, shard_count: int | None = None,
                 shard_ids: list[int] | None = None) -> None:
        # no message of ours notifies anyone unless it says whom (a player's turn, a prompt)
        waits = ChannelWaits()  # a channel's 429 holds up its own table only (waits.py)
        # every command installable to a server and to a member's own account, usable in servers,
        # the bot's DM and group DMs unless it says otherwise (``cogs.server_only``): a game command
        # where no game can run says what to do instead (``doors.py``)
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         allowed_mentions=discord.AllowedMentions.none(), shard_count=shard_count,
                         shard_ids=shard_ids, http_trace=waits.trace, allowed_installs=EVERY_INSTALL,
                         allowed_contexts=EVERY_CONTEXT, tree_cls=activity.ActivityTree)
        self.front = Front(service, lang, seed, client=self)
        self.front.messenger.waits = waits
        self.tournaments = self.front.tournaments = TournamentFront(self.front.ctx)  # a round's news shown
        self.sync_commands = sync_commands  # the real process syncs at start; tests read the payload
        self._set_up = False
        self.http.request = _counted(self.http.request)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A submitted form (the trade builder's cash): taken from its signed id in any process,
        whether or not this process showed the form. A component whose id no item reads (made up,
        or from a version of the bot that named its buttons otherwise) still gets an answer."""
        if interaction.type == discord.InteractionType.modal_submit:
            await guarded(interaction, self._form(interaction))
        elif interaction.type == discord.InteractionType.component:
            custom_id = str((interaction.data or {}).get("custom_id", ""))
            if item_for(custom_id) is None:
                await guarded(interaction, self.front.refuse(interaction))

    async def _form(self, interaction: discord.Interaction) -> None:
        """A submitted form: a bid of one's own, else the trade builder's cash."""
        if not await self.front.amounts.submitted(interaction):
            await self.front.trades.form_submitted(interaction)

    async def setup_hook(self) -> None:
        if self._set_up:  # a login tried again: the buttons and commands are there already
            return
        self._set_up = True
        # buttons sent before a restart parse back from their ids
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogueTranslator())
        front = self.front

        @self.tree.error
        async def on_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            await front.on_error(interaction, getattr(error, "original", error))

        await self.add_cog(table_commands(front))
        await self.add_cog(tournament_commands(self.tournaments))
        activity.install(self)  # /play: the Activity's Entry Point command, in the sync too (issue 49)

    async def sync_tree(self) -> bool:
        """Send the slash commands to Discord (``tycoon run`` does it after logging in, with
        retries of its own for a network that fails).

        Discord refuses the whole list when one command breaks one of its limits. That is a mistake
        in our catalogue, not a reason to stop: the refusal is one line naming the command, option
        and limit, the commands Discord named are left out, and the rest are sent again, so the
        server gets every command that is valid (and the bot answers them)."""
        if not self.sync_commands:
            return True
        names = [c.name for c in self.tree.get_commands()]
        try:
            await self.tree.sync()
            return True
        except app_commands.CommandSyncFailure as e:
            refused = sorted({names[int(i)] for i in (e._errors or {}) if str(i).isdigit() and int(i) < len(names)})
            log.error("Discord refused the slash commands: %s", " ".join(line.strip() for line in str(e).splitlines()))
        if not refused or len(refused) == len(names):
            log.error("no slash command was updated; the ones Discord had before stay in use")
            return True
        for name in refused:
            self.tree.remove_command(name)
        try:
            await self.tree.sync()
            log.error("slash commands synced without /%s (fix the catalogue in data/locale)", ", /".join(refused))
        except app_commands.CommandSyncFailure as e:
            log.error("Discord refused the slash commands again: %s; the ones it had before stay in use",
                      " ".join(line.strip() for line in str(e).splitlines()))
        return True
