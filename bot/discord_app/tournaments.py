"""Tournaments in Discord: ``/tournament create|pause|resume|cancel|replace|correct``, ``/standings``,
``/team`` and ``/rep``, the sign-up and team buttons, and a round's start (each table in a thread of
its own when the bot may make threads, else its own message in the channel).

The screens, the parsing of admin commands and the service calls are shared with Telegram
(bot/chat/tournament_screens.py); this module only maps slash-command options and buttons onto them and
the outcomes onto messages. Button ids are the shared ``T:<tournament>:<op>[:<team>]``, parsed back
by a ``DynamicItem`` after a restart.
"""

from __future__ import annotations

import io

import discord

from bot.chat import tournament_screens as tour_screens
from bot.chat.context import PlatformContext
from bot.chat.presenter import start_time
from bot.discord_app import threads
from bot.discord_app.answers import can_manage, user_of, who
from bot.discord_app.items import ServiceButton
from bot.discord_app.messenger import TEXT, md
from engine.service.outcome import Outcome
from engine.service.tournaments import Tournaments, base_chat
from words.i18n import t


def tour_key(interaction: discord.Interaction) -> str:
    """The channel a tournament belongs to: a command typed in a table's thread is about the
    tournament of the channel the thread hangs off."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return f"dc:{interaction.guild_id or 0}:{channel.parent_id}"
    return f"dc:{interaction.guild_id or 0}:{interaction.channel_id}"


class TournamentFront:
    """The tournament part of the Discord front end (one per bot, next to ``Front``)."""

    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.tours = Tournaments.of(ctx.service)

    async def _lang(self, interaction: discord.Interaction) -> str:
        return (await who(self.ctx, interaction, tour_key(interaction))).lang

    async def _say(self, interaction: discord.Interaction, text: str, ephemeral: bool = True, **kwargs) -> None:
        """An answer shown as it is: entrants' and teams' names never turn into markdown."""
        await interaction.response.send_message(md(text)[:TEXT], ephemeral=ephemeral, **kwargs)

    async def _say_signup(self, interaction: discord.Interaction, text: str, screen, tid: int) -> None:
        """A public answer with the tournament's sign-up buttons, remembered so that it loses them
        when sign-up is over (``bot.chat.signups``)."""
        answer = await interaction.response.send_message(md(text)[:TEXT], view=self.signup_view(screen))
        if answer.message_id is not None:
            await self.ctx.flows.remember_signup(f"T{tid}", interaction.channel_id, answer.message_id)

    def signup_view(self, screen) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for button in screen.buttons[:25]:
            view.add_item(ServiceButton(self.service.sign(button.token), button.label))
        return view

    # -- setting up and running (Manage Server or Manage Events) -----------------------------------

    async def create(self, interaction: discord.Interaction, game: str, rounds: int, start: str, entry: str = "solo",
                     minutes: int | None = None, ruleset: str | None = None, no_trading: bool = False,
                     signup_minutes: int | None = None, every_minutes: int | None = None,
                     turn_seconds: int | None = None, card_seconds: int | None = None, name: str = "") -> None:
        lang = await self._lang(interaction)
        if not can_manage(interaction, events=True):
            await self._say(interaction, t(lang, "dc.tour_perm"))
            return
        now = self.service.clock()
        begins = start_time(start, now)
        if begins is None:
            await self._say(interaction, t(lang, "dc.schedule_usage"))
            return
        clocks = {k: v for k, v in (("turn", turn_seconds), ("card", card_seconds)) if v}
        user, _ = user_of(interaction)
        title = name or getattr(interaction.channel, "name", None) or ""
        out = await self.tours.create(
            tour_key(interaction), user, True, game, ruleset, starts_at=begins, rounds=rounds, mode=entry,
            match_minutes=minutes, options={"no_trading": True} if no_trading else {}, clocks=clocks,
            signup_until=None if signup_minutes is None else now + 60 * signup_minutes,
            every_minutes=every_minutes, name=title[:40])
        if not out.ok:
            await self._say(interaction, t(lang, out.key, **out.params))
            return
        screen = await tour_screens.signup_screen(self.tours, out.params["tournament"], lang, now)
        text = screen.text + f"\n<t:{int(begins)}:f> (<t:{int(begins)}:R>)"  # in each reader's time zone
        await self._say_signup(interaction, text, screen, out.params["tournament"])

    async def admin(self, interaction: discord.Interaction, args: list[str],
                    substitute: discord.abc.User | None = None) -> None:
        """pause, resume, cancel [match], replace <match> <seat> [player], correct <match> <winners> <reason>."""
        lang = await self._lang(interaction)
        sub = None
        if substitute is not None:
            sub = (f"dc:{substitute.id}", getattr(substitute, "display_name", None) or substitute.name)
        user, _ = user_of(interaction)
        before = await tour_screens.current(self.tours, tour_key(interaction))
        out, text = await tour_screens.admin_command(self.tours, tour_key(interaction), user,
                                                     can_manage(interaction, events=True), args, lang, sub)
        if before is not None and (await self.tours.get(before.id)).status == "cancelled":
            await self.ctx.flows.close_signup(f"T{before.id}")  # called off: its sign-up buttons go
        # the tables it touched are shown again by their own updates (paused, resumed, a new seat)
        await self._say(interaction, text, ephemeral=out.ok is False)

    # -- players ------------------------------------------------------------------------------------

    async def press(self, interaction: discord.Interaction, data: str) -> None:
        """A sign-up, withdraw or join-team button: whoever presses acts for themselves only."""
        lang = await self._lang(interaction)
        user, name = user_of(interaction)
        out = await tour_screens.press(self.tours, data, user, name, chat=tour_key(interaction))
        if not out.ok:
            await self._say(interaction, t(lang, out.key, **out.params))
            return
        screen = await tour_screens.signup_screen(self.tours, int(data.split(":")[1]), lang, self.service.clock())
        await interaction.response.edit_message(content=md(screen.text)[:TEXT], view=self.signup_view(screen))
        done = t(lang, "tour.signed_up") if data.split(":")[2] != "w" else t(lang, "ch.done")
        await interaction.followup.send(done, ephemeral=True)

    async def team(self, interaction: discord.Interaction, team_name: str) -> None:
        lang = await self._lang(interaction)
        user, name = user_of(interaction)
        key = tour_key(interaction)
        row = await tour_screens.current(self.tours, key)
        before = await self._teams(row)
        text = await tour_screens.team_command(self.tours, key, user, name, team_name, lang)
        if row is None or await self._teams(row) == before:  # refused: only the captain reads why
            await self._say(interaction, text)
            return
        screen = await tour_screens.signup_screen(self.tours, row.id, lang, self.service.clock())
        await self._say_signup(interaction, f"{text}\n\n{screen.text}", screen, row.id)

    async def _teams(self, row) -> int:
        return 0 if row is None else sum(e.status == "active" for e in await self.tours.entrants(row.id))

    async def rep(self, interaction: discord.Interaction, match: int, player: discord.abc.User) -> None:
        lang = await self._lang(interaction)
        user, _ = user_of(interaction)
        text = await tour_screens.rep_user_command(self.tours, tour_key(interaction), user, match,
                                                   f"dc:{player.id}", lang)
        await self._say(interaction, text, ephemeral=False)

    async def standings(self, interaction: discord.Interaction) -> None:
        """The chat's latest tournament: the picture, and its lines as the message."""
        lang = await self._lang(interaction)
        await interaction.response.defer(thinking=True)
        screen = await tour_screens.standings_screen(self.tours, tour_key(interaction), lang)
        if screen is None:
            await interaction.followup.send(t(lang, "tour.none"))
            return
        await interaction.followup.send(md(screen.text)[:TEXT],
                                        file=discord.File(io.BytesIO(screen.picture), "standings.png"))

    # -- the clock ----------------------------------------------------------------------------------

    async def on_notice(self, outcome: Outcome) -> None:
        """A round of a tournament in one of this bot's channels started (its tables then appear in
        their threads with their first updates) or ended; the rest of the clock's news is the
        shared flows'."""
        if outcome.key == "tour.round_started":
            await self.round_started(outcome)
        elif outcome.key == "tour.round_over":
            await self.round_over(outcome)

    async def round_started(self, outcome: Outcome) -> None:
        """One announcement in the channel, then a thread for every table; when the bot may not
        make threads (Forbidden) every table is its own message in the channel instead."""
        chat = outcome.params["chat"]
        lang = await self.ctx.flows.lang_of(chat)
        row = await self.tours.get(outcome.params["tournament"])
        channel = threads.channel(self.ctx, chat)
        await channel.send(content=md(tour_screens.round_text(self.service, outcome, row, lang))[:TEXT])
        for n, table in enumerate(outcome.params["tables"], 1):
            if not (self.service.cache.row(table).messages or {}).get("dc_thread"):
                title = tour_screens.topic_title(row, outcome.params["round"], n, lang)
                if await threads.open_thread(self.ctx, channel.id, table, title) is None:
                    return

    async def round_over(self, outcome: Outcome) -> None:
        """The last table of a round ended: the standings, picture and lines, in the channel (once)."""
        chat = base_chat(outcome.params["chat"])
        screen = await tour_screens.round_over_screen(self.tours, outcome, await self.ctx.flows.lang_of(chat))
        if screen is not None:
            await threads.channel(self.ctx, chat).send(content=md(screen.text)[:TEXT],
                                                file=discord.File(io.BytesIO(screen.picture), "standings.png"))
