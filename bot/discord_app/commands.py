"""Discord's slash commands onto the shared flows (``bot/chat/flows.py``): each reads what the
interaction gives (its options, the channel or thread, Manage Server) and calls one flow; the
commands themselves are declared in ``cogs.py``. What is Discord's own: a game in a thread of its
own, a scheduled match also put in the server's calendar (``calendar.py``), and a game command
where no game can run (a DM, a group DM, a server that has not added the bot: ``doors.py``)
answered with what to do instead."""

from __future__ import annotations

import discord

from bot.chat import option_screens
from bot.chat.context import PlatformContext
from bot.discord_app import calendar, doors, private, threads
from bot.discord_app.answers import InteractionAnswer, own_lang, say, who
from bot.discord_app.autocomplete import ruleset_code
from words.i18n import game_name, t


class DiscordCommands:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.flows, self.service = ctx.flows, ctx.service

    async def hosts(self, interaction: discord.Interaction) -> bool:
        """A game command's first question: can a table run here? Where it cannot, the asker alone
        is told why and given the doors (add Tycoon to a server, the web table)."""
        if doors.hosts_games(interaction):
            return True
        await doors.elsewhere(interaction, own_lang(interaction, self.ctx.lang), self.ctx.messenger.web_url)
        return False

    async def newgame(self, interaction: discord.Interaction, game: str, ruleset: str | None,
                      thread: bool = False, options: str | None = None) -> None:
        """A lobby in this channel, or with ``thread`` in a thread of its own where the whole game
        then plays (the channel keeps one table at a time either way). ``ruleset`` as chosen from
        its suggestions or typed (a rule set's name in any language is taken); ``options`` as typed
        or completed: ``income_tax_choice=on rent_claim=off`` (an unknown one is refused, naming
        the valid ones)."""
        if not await self.hosts(interaction):
            return
        ruleset = ruleset_code(game, ruleset)
        asker = await who(self.ctx, interaction)
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
        name = t(asker.lang, "dc.thread_name", game=game_name(game, asker.lang), table=table)
        home = await threads.open_thread(self.ctx, interaction.channel_id, table, name)
        if home is None:
            await self.flows.post_lobby(table, asker.lang, answer)
            await answer.tell(t(asker.lang, "dc.no_thread"))  # for the asker only
            return
        await self.flows.show_lobby(table, asker.lang)  # in the thread
        await interaction.followup.send(t(asker.lang, "dc.game_in_thread", thread=f"<#{home}>"))

    async def command(self, interaction: discord.Interaction, op: str) -> None:
        """/join, /leave and /endgame on this channel's (or thread's) table."""
        if not await self.hosts(interaction):
            return
        asker = await who(self.ctx, interaction)
        await self.flows.command(asker, op, InteractionAnswer(interaction, asker.lang),
                                 view=await threads.table_here(self.ctx, interaction))

    async def set_lang(self, interaction: discord.Interaction, code: str) -> None:
        """/lang: the channel's language (Manage Server in a server)."""
        asker = await who(self.ctx, interaction)
        await self.flows.set_lang(asker, code, InteractionAnswer(interaction, asker.lang),
                                  private_chat=not interaction.guild_id)

    async def rules(self, interaction: discord.Interaction) -> None:
        asker = await who(self.ctx, interaction)
        await say(interaction, await self.flows.rules(asker, await threads.table_here(self.ctx, interaction)))

    async def stats(self, interaction: discord.Interaction) -> None:
        await say(interaction, await self.flows.stats(await who(self.ctx, interaction)))

    async def top(self, interaction: discord.Interaction) -> None:
        """/top: this channel's leaderboard, a page at a time (``bot.chat.leaderboards``)."""
        asker = await who(self.ctx, interaction)
        await self.flows.boards.top(asker, InteractionAnswer(interaction, asker.lang))

    async def season(self, interaction: discord.Interaction) -> None:
        """/season: how long this channel's seasons last (those who manage the server choose)."""
        asker = await who(self.ctx, interaction)
        await self.flows.boards.season(asker, InteractionAnswer(interaction, asker.lang))

    async def me(self, interaction: discord.Interaction) -> None:
        """/me: the asker's ratings and latest games, seen by them alone (ephemeral)."""
        await say(interaction, await self.flows.me(await who(self.ctx, interaction)), ephemeral=True)

    async def help(self, interaction: discord.Interaction) -> None:
        """How to play, with the doors one tap away: add Tycoon to a server, to one's own account
        (its commands in every DM and group), the web table."""
        lang = (await who(self.ctx, interaction)).lang
        await say(interaction, t(lang, "dc.help"), view=doors.links(interaction, lang, self.ctx.messenger.web_url,
                                                                    mine=True))

    async def hand(self, interaction: discord.Interaction) -> None:
        """``/hand``: the asker's own screen at this channel's (or thread's) table."""
        if not await self.hosts(interaction):
            return
        view = await threads.table_here(self.ctx, interaction)
        if view is None:
            await say(interaction, t((await who(self.ctx, interaction)).lang, "service.no_lobby"))
            return
        await private.own_screen(self.ctx, interaction, view.table)

    async def schedule(self, interaction: discord.Interaction, game: str, start: str, minutes: int,
                       ruleset: str | None = None, ai: int = 0) -> None:
        """A timed match in the service; and, when the bot may, an event in the server's calendar."""
        if not await self.hosts(interaction):
            return
        ruleset = ruleset_code(game, ruleset)
        asker = await who(self.ctx, interaction)
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
            made = await calendar.add_event(self.ctx, interaction, asker.lang, game, begins, minutes, schedule_id)
            return None if made else t(asker.lang, "dc.no_event")

        await self.flows.schedule(asker, game, begins, minutes, ruleset, ai, answer, when=calendar.when(begins),
                                  note=announce)
