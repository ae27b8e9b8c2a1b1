"""The discord.py bot around the front end: the slash commands (named and described in the
server's language by a translator reading our catalogues) and the persistent buttons."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.frontend import (
    GAME_CHOICES,
    LANG_CHOICES,
    RULESET_CHOICES,
    Front,
    MoveButton,
    ServiceButton,
    TradeSelect,
    chat_key,
    guarded,
    item_for,
)
from bot.discord_app.messenger import md
from bot.discord_app.tournaments import TournamentFront
from engine.service import metrics
from engine.service.tables import GameService
from words.i18n import CATALOGUES, t

log = logging.getLogger(__name__)
# the bot speaks in text channels only: discord.py's two warnings about missing voice libraries
# would only worry an operator reading the start-up log
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False

# Discord locales we translate into; any other locale sees the English default
LOCALES = {discord.Locale.chinese: "zh-Hans", discord.Locale.taiwan_chinese: "zh-Hant"}


def _(key: str) -> app_commands.locale_str:
    """A command's name or description: English by default, the other languages at sync time."""
    return app_commands.locale_str(t("en", key), key=key)


def named(*params: str):
    """Options named in the server's language (``/开局 游戏:…``); Discord still sends each option
    under its English name, so the handlers' parameters stay as they are."""
    return app_commands.rename(**{p: _(f"dc.optname.{p}") for p in params})


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
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         allowed_mentions=discord.AllowedMentions.none(), shard_count=shard_count,
                         shard_ids=shard_ids)
        self.front = Front(service, lang, seed, client=self)
        self.tournaments = TournamentFront(self.front)
        self.sync_commands = sync_commands  # the real process syncs at start; tests read the payload
        self._set_up = False
        self.http.request = _counted(self.http.request)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A submitted form (the trade builder's cash): taken from its signed id in any process,
        whether or not this process showed the form. A component whose id no item reads (made up,
        or from a version of the bot that named its buttons otherwise) still gets an answer."""
        if interaction.type == discord.InteractionType.modal_submit:
            await guarded(interaction, self.front.form_submitted(interaction))
        elif interaction.type == discord.InteractionType.component:
            custom_id = str((interaction.data or {}).get("custom_id", ""))
            if item_for(custom_id) is None:
                await guarded(interaction, self.front.refuse(interaction))

    async def setup_hook(self) -> None:
        if self._set_up:  # a login tried again: the buttons and commands are there already
            return
        self._set_up = True
        # buttons sent before a restart parse back from their ids
        self.add_dynamic_items(MoveButton, ServiceButton, TradeSelect)
        await self.tree.set_translator(CatalogueTranslator())
        front = self.front
        tree = self.tree

        @tree.error
        async def on_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            await front.on_error(interaction, getattr(error, "original", error))

        @tree.command(name=_("dc.cmd.newgame"), description=_("dc.cmd.newgame.desc"))
        @named("game", "ruleset", "thread", "options")
        @app_commands.describe(game=_("dc.opt.game"), ruleset=_("dc.opt.ruleset"), thread=_("dc.opt.thread"),
                               options=_("dc.opt.options"))
        @app_commands.choices(game=GAME_CHOICES, ruleset=RULESET_CHOICES)
        async def newgame(interaction: discord.Interaction, game: app_commands.Choice[str],
                          ruleset: app_commands.Choice[str] | None = None, thread: bool = False,
                          options: app_commands.Range[str, 1, 200] | None = None) -> None:
            await front.newgame(interaction, game.value, ruleset.value if ruleset else None, thread, options)

        @tree.command(name=_("dc.cmd.join"), description=_("dc.cmd.join.desc"))
        async def join(interaction: discord.Interaction) -> None:
            await front.command_op(interaction, "join")

        @tree.command(name=_("dc.cmd.leave"), description=_("dc.cmd.leave.desc"))
        async def leave(interaction: discord.Interaction) -> None:
            await front.command_op(interaction, "leave")

        @tree.command(name=_("dc.cmd.endgame"), description=_("dc.cmd.endgame.desc"))
        async def endgame(interaction: discord.Interaction) -> None:
            await front.command_op(interaction, "cancel")  # the service refuses all but creator and admins

        @tree.command(name=_("dc.cmd.hand"), description=_("dc.cmd.hand.desc"))
        async def hand(interaction: discord.Interaction) -> None:
            row = await front.table_here(interaction)  # in a tournament table's thread too
            if row is None:
                await interaction.response.send_message(t(await front.chat_lang(interaction), "service.no_lobby"),
                                                        ephemeral=True)
                return
            await front.my_hand(interaction, row.id)

        @tree.command(name=_("dc.cmd.rules"), description=_("dc.cmd.rules.desc"))
        async def rules(interaction: discord.Interaction) -> None:
            lang = await front.chat_lang(interaction)
            row = await front.table_here(interaction)
            await interaction.response.send_message(front.rules_text(row, lang), ephemeral=True)

        @tree.command(name=_("dc.cmd.lang"), description=_("dc.cmd.lang.desc"))
        @named("language")
        @app_commands.describe(language=_("dc.opt.language"))
        @app_commands.choices(language=LANG_CHOICES)
        async def lang(interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
            await front.set_lang(interaction, language.value)

        @tree.command(name=_("dc.cmd.stats"), description=_("dc.cmd.stats.desc"))
        async def stats(interaction: discord.Interaction) -> None:
            lang = await front.chat_lang(interaction)
            table = await front.service.chats.standings(chat_key(interaction))
            lines = [f"{i + 1}. {e['name']}: {e['wins']}/{e['games']}" for i, e in enumerate(table[:20])]
            await interaction.response.send_message(md("\n".join([t(lang, "tg.standings"), *lines])) if lines
                                                    else t(lang, "tg.no_results"), ephemeral=True)

        @tree.command(name=_("dc.cmd.schedule"), description=_("dc.cmd.schedule.desc"))
        @named("game", "start", "minutes", "ruleset", "ai")
        @app_commands.describe(game=_("dc.opt.game"), start=_("dc.opt.start"), minutes=_("dc.opt.minutes"),
                               ruleset=_("dc.opt.ruleset"), ai=_("dc.opt.ai"))
        @app_commands.choices(game=GAME_CHOICES, ruleset=RULESET_CHOICES)
        async def schedule(interaction: discord.Interaction, game: app_commands.Choice[str], start: str,
                           minutes: app_commands.Range[int, 1, 1440], ruleset: app_commands.Choice[str] | None = None,
                           ai: app_commands.Range[int, 0, 8] = 0) -> None:
            await front.schedule(interaction, game.value, start, minutes, ruleset.value if ruleset else None, ai)

        tours = self.tournaments
        tree.add_command(tournament_group(tours))

        @tree.command(name=_("dc.cmd.standings"), description=_("dc.cmd.standings.desc"))
        async def standings(interaction: discord.Interaction) -> None:
            await tours.standings(interaction)

        @tree.command(name=_("dc.cmd.team"), description=_("dc.cmd.team.desc"))
        @named("name")
        @app_commands.describe(name=_("dc.opt.team_name"))
        async def team(interaction: discord.Interaction, name: app_commands.Range[str, 1, 40]) -> None:
            await tours.team(interaction, name)

        @tree.command(name=_("dc.cmd.rep"), description=_("dc.cmd.rep.desc"))
        @named("match", "player")
        @app_commands.describe(match=_("dc.opt.round"), player=_("dc.opt.player"))
        async def rep(interaction: discord.Interaction, match: app_commands.Range[int, 1, 50],
                      player: discord.User) -> None:
            await tours.rep(interaction, match, player)

        @tree.command(name=_("dc.cmd.help"), description=_("dc.cmd.help.desc"))
        async def help_(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(t(await front.chat_lang(interaction), "dc.help"),
                                                    ephemeral=True)

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


ENTRY_CHOICES = [app_commands.Choice(name=_("tour.mode.solo"), value="solo"),
                 app_commands.Choice(name=_("tour.mode.team"), value="team")]


def tournament_group(tours: TournamentFront) -> app_commands.Group:
    """``/tournament create`` and the admin's sub-commands; Discord hides nothing from members, so
    each sub-command checks Manage Server or Manage Events itself."""
    group = app_commands.Group(name=_("dc.cmd.tournament"), description=_("dc.cmd.tournament.desc"),
                               guild_only=True)

    @group.command(name=_("dc.cmd.tour_create"), description=_("dc.cmd.tour_create.desc"))
    @named("game", "rounds", "start", "entry", "minutes", "ruleset", "no_trading", "signup", "every", "turn_seconds",
           "card_seconds", "name")
    @app_commands.describe(game=_("dc.opt.game"), rounds=_("dc.opt.rounds"), start=_("dc.opt.start"),
                           entry=_("dc.opt.entry"), minutes=_("dc.opt.minutes"), ruleset=_("dc.opt.ruleset"),
                           no_trading=_("dc.opt.no_trading"), signup=_("dc.opt.signup"), every=_("dc.opt.every"),
                           turn_seconds=_("dc.opt.turn_seconds"), card_seconds=_("dc.opt.card_seconds"),
                           name=_("dc.opt.tour_name"))
    @app_commands.choices(game=GAME_CHOICES, entry=ENTRY_CHOICES, ruleset=RULESET_CHOICES)
    async def create(interaction: discord.Interaction, game: app_commands.Choice[str],
                     rounds: app_commands.Range[int, 1, 50], start: str,
                     entry: app_commands.Choice[str] | None = None,
                     minutes: app_commands.Range[int, 1, 1440] | None = None,
                     ruleset: app_commands.Choice[str] | None = None, no_trading: bool = False,
                     signup: app_commands.Range[int, 1, 10080] | None = None,
                     every: app_commands.Range[int, 1, 10080] | None = None,
                     turn_seconds: app_commands.Range[int, 5, 3600] | None = None,
                     card_seconds: app_commands.Range[int, 5, 3600] | None = None,
                     name: app_commands.Range[str, 1, 40] | None = None) -> None:
        await tours.create(interaction, game.value, rounds, start, entry.value if entry else "solo", minutes,
                           ruleset.value if ruleset else None, no_trading, signup, every, turn_seconds,
                           card_seconds, name or "")

    @group.command(name=_("dc.cmd.tour_pause"), description=_("dc.cmd.tour_pause.desc"))
    async def pause(interaction: discord.Interaction) -> None:
        await tours.admin(interaction, ["pause"])

    @group.command(name=_("dc.cmd.tour_resume"), description=_("dc.cmd.tour_resume.desc"))
    async def resume(interaction: discord.Interaction) -> None:
        await tours.admin(interaction, ["resume"])

    @group.command(name=_("dc.cmd.tour_cancel"), description=_("dc.cmd.tour_cancel.desc"))
    @named("match", "reason")
    @app_commands.describe(match=_("dc.opt.match"), reason=_("dc.opt.reason"))
    async def cancel(interaction: discord.Interaction, match: int | None = None, reason: str = "") -> None:
        await tours.admin(interaction, ["cancel"] + ([str(match)] if match else []) + reason.split())

    @group.command(name=_("dc.cmd.tour_replace"), description=_("dc.cmd.tour_replace.desc"))
    @named("match", "seat", "player")
    @app_commands.describe(match=_("dc.opt.match"), seat=_("dc.opt.seat"), player=_("dc.opt.substitute"))
    async def replace(interaction: discord.Interaction, match: int, seat: app_commands.Range[int, 1, 8],
                      player: discord.User | None = None) -> None:
        args = ["replace", str(match), str(seat)] + ([] if player else ["ai"])
        await tours.admin(interaction, args, player)

    @group.command(name=_("dc.cmd.tour_correct"), description=_("dc.cmd.tour_correct.desc"))
    @named("match", "winners", "reason")
    @app_commands.describe(match=_("dc.opt.match"), winners=_("dc.opt.winners"), reason=_("dc.opt.reason"))
    async def correct(interaction: discord.Interaction, match: int, winners: str, reason: str) -> None:
        await tours.admin(interaction, ["correct", str(match), winners.replace(" ", ""), *reason.split()])

    return group
