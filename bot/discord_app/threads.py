"""Where a Discord table plays: its channel, or a public thread of its own (``/newgame thread``, a
tournament's tables), remembered by the service so that any process finds the table of a thread."""

from __future__ import annotations

import logging

import discord

from bot.chat.context import PlatformContext
from bot.discord_app.answers import chat_key
from engine.service.storage import keyvalue
from engine.service.tournaments import base_chat
from engine.service.views import PublicView

log = logging.getLogger(__name__)
THREAD_NAME = 100  # Discord's limit for a thread's name
ARCHIVE_MINUTES = 1440  # a thread left alone for a day is archived; a game is far shorter


def thread_key(thread_id: int) -> str:
    """The stored note that a table plays in this thread (``engine.service.storage.keyvalue``)."""
    return f"dc.thread.{thread_id}"


def homes(view: PublicView) -> set[str]:
    """The chat keys a table plays in: its channel's, and its thread's when it has one."""
    thread = view.messages.get("dc_thread")
    guild = base_chat(view.chat_key).split(":")[1]
    return {view.chat_key} | ({f"dc:{guild}:{thread}"} if thread else set())


def channel(ctx: PlatformContext, key: str) -> discord.PartialMessageable:
    _, guild, channel_id = base_chat(key).split(":")[:3]
    return ctx.client.get_partial_messageable(int(channel_id), guild_id=int(guild) or None)


async def open_thread(ctx: PlatformContext, channel_id: int, table_id: int, name: str) -> int | None:
    """A public thread of the channel for one table (its message, buttons and commands), or
    ``None`` when the bot may not make threads there (the table then plays in the channel)."""
    try:
        thread = await ctx.client.http.start_thread_without_message(
            channel_id, name=name[:THREAD_NAME], auto_archive_duration=ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value)
    except discord.HTTPException as e:  # no Create Public Threads, or a channel without threads
        log.info("no thread in channel %s: %s", channel_id, e)
        return None
    thread_id = int(thread["id"])
    await ctx.service.lobby.set_messages(table_id, dc_thread=thread_id)
    await keyvalue.set_value(ctx.service.db, thread_key(thread_id), str(table_id))
    return thread_id


async def table_here(ctx: PlatformContext, interaction: discord.Interaction) -> PublicView | None:
    """The table of this channel, or of this thread when a table plays in it."""
    row = await ctx.service.lobby.table_in_chat(chat_key(interaction))
    table = row.id if row is not None else None
    if table is None and isinstance(interaction.channel, discord.Thread):
        stored = await keyvalue.get_value(ctx.service.db, thread_key(interaction.channel_id))
        table = int(stored) if stored else None
    view = await ctx.service.public_view(table) if table is not None else None
    return view if view is not None and view.status in ("lobby", "running", "paused") else None
