"""The slash commands, as two Cogs: the table's (``/newgame`` … ``/help``) and the tournaments'
(``/tournament …``, ``/standings``, ``/team``, ``/rep``). Names, descriptions, option names and
choices are catalogue keys (``_``), English by default and translated when the commands are synced
(``app.CatalogueTranslator``); each handler only maps its options onto the front end.

Where each command may be used (issue 49): the tree's default (``app.py``) is everywhere Discord
allows, installed to a server or to a member's own account, in servers, the bot's DM and group
DMs; a game command used where no game can run says what to do instead (``doors.py``). What
configures a server's channel or runs its tournaments is ``server_only``. ``ruleset`` and
``options`` are suggested as they are typed (``autocomplete.py``), in the typer's language."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app import autocomplete
from bot.discord_app.answers import own_lang
from bot.discord_app.frontend import Front
from bot.discord_app.tournaments import TournamentFront
from engine.games import GAMES
from words.i18n import t


def _(key: str) -> app_commands.locale_str:
    """A command's name or description: English by default, the other languages at sync time."""
    return app_commands.locale_str(t("en", key), key=key)


def named(*params: str):
    """Options named in the server's language (``/开局 游戏:…``); Discord still sends each option
    under its English name, so the handlers' parameters stay as they are."""
    return app_commands.rename(**{p: _(f"dc.optname.{p}") for p in params})


# the choices of /newgame; their names are translated by the tree's translator (``key``)
GAME_CHOICES = [app_commands.Choice(name=_(f"dc.choice.{g}"), value=g) for g in GAMES]
LANG_CHOICES = [app_commands.Choice(name=name, value=code)
                for code, name in (("zh-Hans", "简体中文"), ("zh-Hant", "繁體中文"), ("en", "English"))]
ENTRY_CHOICES = [app_commands.Choice(name=_("tour.mode.solo"), value="solo"),
                 app_commands.Choice(name=_("tour.mode.team"), value="team")]
SERVER = {"allowed_installs": app_commands.AppInstallationType(guild=True, user=False),
          "allowed_contexts": app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)}


def server_only(f):
    """Installed to a server and used there only: a command that sets up a server's channel or its
    tournaments has nothing to do in a DM, a group DM or a server without the bot."""
    return app_commands.allowed_installs(guilds=True, users=False)(
        app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(f))


async def suggest_ruleset(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """``ruleset`` as it is typed: the rule sets of the game chosen in the same command."""
    game = getattr(interaction.namespace, "game", None)
    return autocomplete.ruleset_choices(game, current, own_lang(interaction, "en"))


async def suggest_options(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """``options`` as it is typed: the game's switchable rule options not named yet."""
    space = interaction.namespace
    return autocomplete.option_choices(getattr(space, "game", None), getattr(space, "ruleset", None), current,
                                       own_lang(interaction, "en"))


def table_commands(front: Front) -> commands.Cog:
    """The table's commands. Made when the bot starts, so that names and descriptions are the
    catalogue's as it is then."""

    class TableCommands(commands.Cog, name="table"):
        def __init__(self) -> None:
            self.front = front

        @app_commands.command(name=_("dc.cmd.newgame"), description=_("dc.cmd.newgame.desc"))
        @named("game", "ruleset", "thread", "options")
        @app_commands.describe(game=_("dc.opt.game"), ruleset=_("dc.opt.ruleset"), thread=_("dc.opt.thread"),
                               options=_("dc.opt.options"))
        @app_commands.choices(game=GAME_CHOICES)
        @app_commands.autocomplete(ruleset=suggest_ruleset, options=suggest_options)
        async def newgame(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                          ruleset: app_commands.Range[str, 1, 100] | None = None, thread: bool = False,
                          options: app_commands.Range[str, 1, 200] | None = None) -> None:
            await self.front.commands.newgame(interaction, game.value, ruleset, thread, options)

        @app_commands.command(name=_("dc.cmd.join"), description=_("dc.cmd.join.desc"))
        async def join(self, interaction: discord.Interaction) -> None:
            await self.front.commands.command(interaction, "join")

        @app_commands.command(name=_("dc.cmd.leave"), description=_("dc.cmd.leave.desc"))
        async def leave(self, interaction: discord.Interaction) -> None:
            await self.front.commands.command(interaction, "leave")

        @app_commands.command(name=_("dc.cmd.endgame"), description=_("dc.cmd.endgame.desc"))
        async def endgame(self, interaction: discord.Interaction) -> None:
            await self.front.commands.command(interaction, "cancel")  # the service refuses all but creator and admins

        @app_commands.command(name=_("dc.cmd.hand"), description=_("dc.cmd.hand.desc"))
        async def hand(self, interaction: discord.Interaction) -> None:
            await self.front.commands.hand(interaction)  # in a table's own thread too

        @app_commands.command(name=_("dc.cmd.rules"), description=_("dc.cmd.rules.desc"))
        async def rules(self, interaction: discord.Interaction) -> None:
            await self.front.commands.rules(interaction)

        @app_commands.command(name=_("dc.cmd.lang"), description=_("dc.cmd.lang.desc"))
        @named("language")
        @app_commands.describe(language=_("dc.opt.language"))
        @app_commands.choices(language=LANG_CHOICES)
        async def lang(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
            await self.front.commands.set_lang(interaction, language.value)

        @app_commands.command(name=_("dc.cmd.stats"), description=_("dc.cmd.stats.desc"))
        async def stats(self, interaction: discord.Interaction) -> None:
            await self.front.commands.stats(interaction)

        @app_commands.command(name=_("dc.cmd.top"), description=_("dc.cmd.top.desc"))
        async def top(self, interaction: discord.Interaction) -> None:
            await self.front.commands.top(interaction)

        @app_commands.command(name=_("dc.cmd.season"), description=_("dc.cmd.season.desc"))
        @server_only
        async def season(self, interaction: discord.Interaction) -> None:
            await self.front.commands.season(interaction)

        @app_commands.command(name=_("dc.cmd.me"), description=_("dc.cmd.me.desc"))
        async def me(self, interaction: discord.Interaction) -> None:
            await self.front.commands.me(interaction)

        @app_commands.command(name=_("dc.cmd.schedule"), description=_("dc.cmd.schedule.desc"))
        @named("game", "start", "minutes", "ruleset", "ai")
        @app_commands.describe(game=_("dc.opt.game"), start=_("dc.opt.start"), minutes=_("dc.opt.minutes"),
                               ruleset=_("dc.opt.ruleset"), ai=_("dc.opt.ai"))
        @app_commands.choices(game=GAME_CHOICES)
        @app_commands.autocomplete(ruleset=suggest_ruleset)
        @server_only
        async def schedule(self, interaction: discord.Interaction, game: app_commands.Choice[str], start: str,
                           minutes: app_commands.Range[int, 1, 1440],
                           ruleset: app_commands.Range[str, 1, 100] | None = None,
                           ai: app_commands.Range[int, 0, 8] = 0) -> None:
            await self.front.commands.schedule(interaction, game.value, start, minutes, ruleset, ai)

        @app_commands.command(name=_("dc.cmd.help"), description=_("dc.cmd.help.desc"))
        async def help_(self, interaction: discord.Interaction) -> None:
            await self.front.commands.help(interaction)

    return TableCommands()


def tournament_commands(tours: TournamentFront) -> commands.Cog:
    """The tournaments' commands (made when the bot starts, like the table's)."""

    class TournamentCommands(commands.Cog, name="tournaments"):
        """``/tournament create`` and the admin's sub-commands; Discord hides nothing from members, so
        each sub-command checks Manage Server or Manage Events itself."""

        tournament = app_commands.Group(name=_("dc.cmd.tournament"), description=_("dc.cmd.tournament.desc"),
                                        guild_only=True, **SERVER)

        def __init__(self) -> None:
            self.tours = tours

        @tournament.command(name=_("dc.cmd.tour_create"), description=_("dc.cmd.tour_create.desc"))
        @named("game", "rounds", "start", "entry", "minutes", "ruleset", "no_trading", "signup", "every",
               "turn_seconds", "card_seconds", "name")
        @app_commands.describe(game=_("dc.opt.game"), rounds=_("dc.opt.rounds"), start=_("dc.opt.start"),
                               entry=_("dc.opt.entry"), minutes=_("dc.opt.minutes"), ruleset=_("dc.opt.ruleset"),
                               no_trading=_("dc.opt.no_trading"), signup=_("dc.opt.signup"), every=_("dc.opt.every"),
                               turn_seconds=_("dc.opt.turn_seconds"), card_seconds=_("dc.opt.card_seconds"),
                               name=_("dc.opt.tour_name"))
        @app_commands.choices(game=GAME_CHOICES, entry=ENTRY_CHOICES)
        @app_commands.autocomplete(ruleset=suggest_ruleset)
        async def create(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                         rounds: app_commands.Range[int, 1, 50], start: str,
                         entry: app_commands.Choice[str] | None = None,
                         minutes: app_commands.Range[int, 1, 1440] | None = None,
                         ruleset: app_commands.Range[str, 1, 100] | None = None, no_trading: bool = False,
                         signup: app_commands.Range[int, 1, 10080] | None = None,
                         every: app_commands.Range[int, 1, 10080] | None = None,
                         turn_seconds: app_commands.Range[int, 5, 3600] | None = None,
                         card_seconds: app_commands.Range[int, 5, 3600] | None = None,
                         name: app_commands.Range[str, 1, 40] | None = None) -> None:
            await self.tours.create(interaction, game.value, rounds, start, entry.value if entry else "solo", minutes,
                                    autocomplete.ruleset_code(game.value, ruleset), no_trading, signup, every,
                                    turn_seconds, card_seconds, name or "")

        @tournament.command(name=_("dc.cmd.tour_pause"), description=_("dc.cmd.tour_pause.desc"))
        async def pause(self, interaction: discord.Interaction) -> None:
            await self.tours.admin(interaction, ["pause"])

        @tournament.command(name=_("dc.cmd.tour_resume"), description=_("dc.cmd.tour_resume.desc"))
        async def resume(self, interaction: discord.Interaction) -> None:
            await self.tours.admin(interaction, ["resume"])

        @tournament.command(name=_("dc.cmd.tour_cancel"), description=_("dc.cmd.tour_cancel.desc"))
        @named("match", "reason")
        @app_commands.describe(match=_("dc.opt.match"), reason=_("dc.opt.reason"))
        async def cancel(self, interaction: discord.Interaction, match: int | None = None, reason: str = "") -> None:
            await self.tours.admin(interaction, ["cancel"] + ([str(match)] if match else []) + reason.split())

        @tournament.command(name=_("dc.cmd.tour_replace"), description=_("dc.cmd.tour_replace.desc"))
        @named("match", "seat", "player")
        @app_commands.describe(match=_("dc.opt.match"), seat=_("dc.opt.seat"), player=_("dc.opt.substitute"))
        async def replace(self, interaction: discord.Interaction, match: int, seat: app_commands.Range[int, 1, 8],
                          player: discord.User | None = None) -> None:
            args = ["replace", str(match), str(seat)] + ([] if player else ["ai"])
            await self.tours.admin(interaction, args, player)

        @tournament.command(name=_("dc.cmd.tour_correct"), description=_("dc.cmd.tour_correct.desc"))
        @named("match", "winners", "reason")
        @app_commands.describe(match=_("dc.opt.match"), winners=_("dc.opt.winners"), reason=_("dc.opt.reason"))
        async def correct(self, interaction: discord.Interaction, match: int, winners: str, reason: str) -> None:
            await self.tours.admin(interaction, ["correct", str(match), winners.replace(" ", ""), *reason.split()])

        @app_commands.command(name=_("dc.cmd.standings"), description=_("dc.cmd.standings.desc"))
        @server_only
        async def standings(self, interaction: discord.Interaction) -> None:
            await self.tours.standings(interaction)

        @app_commands.command(name=_("dc.cmd.team"), description=_("dc.cmd.team.desc"))
        @server_only
        @named("name")
        @app_commands.describe(name=_("dc.opt.team_name"))
        async def team(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 40]) -> None:
            await self.tours.team(interaction, name)

        @app_commands.command(name=_("dc.cmd.rep"), description=_("dc.cmd.rep.desc"))
        @server_only
        @named("match", "player")
        @app_commands.describe(match=_("dc.opt.round"), player=_("dc.opt.player"))
        async def rep(self, interaction: discord.Interaction, match: app_commands.Range[int, 1, 50],
                      player: discord.User) -> None:
            await self.tours.rep(interaction, match, player)

    return TournamentCommands()
