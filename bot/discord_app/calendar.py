"""A scheduled match in the server's calendar: a Guild Scheduled Event (external, in the channel)
made beside the match so that it shows in people's calendars, and deleted when the clock calls the
match off. Only an announcement: the service's clock starts and ends the match whatever happens
here, and a match stands without its event (the bot may lack Manage Events)."""

from __future__ import annotations

import datetime as dt
import logging

import discord

from bot.chat.context import PlatformContext
from bot.chat.presenter import start_time
from bot.discord_app.answers import can_manage
from engine.service.storage import keyvalue
from words.i18n import game_name, t

log = logging.getLogger(__name__)


def begins(start: str, now: float) -> float | None:
    """When a match typed as ``+30`` or ``20:30`` (Beijing time) starts; None when unreadable."""
    return start_time(start, now)


def when(at: float) -> str:
    """A moment as Discord shows it in each reader's own time zone, and how far off it is."""
    return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"


def may_schedule(interaction: discord.Interaction) -> bool:
    return can_manage(interaction, events=True)


def _key(schedule_id: int) -> str:
    return f"dc.event.{schedule_id}"


async def add_event(ctx: PlatformContext, interaction: discord.Interaction, lang: str, game: str, at: float,
                    minutes: int, schedule_id: int) -> bool:
    """The match's event in the server's calendar; False when the bot may not make one."""
    if not interaction.guild_id or not (interaction.app_permissions.manage_events
                                        or interaction.app_permissions.administrator):
        return False
    start = dt.datetime.fromtimestamp(at, dt.UTC)
    try:  # by id: the guild need not be in the cache (the bot asks for no guild intents)
        event = await ctx.client.http.create_guild_scheduled_event(
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
    await keyvalue.set_value(ctx.service.db, _key(schedule_id), f"{interaction.guild_id}:{event['id']}")
    return True


async def drop_event(ctx: PlatformContext, schedule_id: int) -> None:
    stored = await keyvalue.get_value(ctx.service.db, _key(schedule_id))
    if stored is None:
        return
    guild, event = stored.split(":")
    try:
        await ctx.client.http.delete_scheduled_event(int(guild), int(event))
    except discord.HTTPException as e:  # deleted by hand already, or the right was taken away
        log.info("scheduled event %s not deleted: %s", event, e)
    await keyvalue.delete_value(ctx.service.db, _key(schedule_id))
