"""The Discord Activity's doors on the bot's side (issue 49): how a member gets from Discord to the
web table inside Discord (``bot/web/activity.py`` serves it, on the table of the channel it runs
in), with no command typed, and where it cannot open, to the web link instead.

- ``/play``. With the Activity configured (``DISCORD_CLIENT_ID``: the bot's own application, with
  Activities turned on), it is the application's Entry Point command: type 4
  ``PRIMARY_ENTRY_POINT``, handler 2 ``DISCORD_LAUNCH_ACTIVITY`` (Discord opens the Activity in the
  channel itself and posts the message the others join it from), in the App Launcher, for server
  and user installs, in servers, DMs and group DMs. discord.py 2.7 knows no Entry Point commands:
  the command is added to the payload of its one call that sends the commands
  (``keep_entry_point``), and an Entry Point interaction that does reach the bot (a handler set to
  1, ``APP_HANDLER``, on Discord's side) is answered by ``ActivityTree`` before discord.py's tree
  looks for a command of that type: LAUNCH_ACTIVITY (callback type 12). Without the Activity,
  ``/play`` is a slash command that answers with the web link of the channel's table.
- An application whose Activities Discord turned on has an Entry Point command of Discord's making
  ("Launch"), and Discord refuses a bulk overwrite that leaves it out, whole (50240): the commands
  would never update. Ours takes its place (the same command, by its id); without ours, it is kept
  as it is.
- "Open table" under a table's message (``messenger.watch``: signed ``A:<table>``, a press like any
  other) answers LAUNCH_ACTIVITY; where Discord refuses (Activities off for the application, a client
  that cannot open one), the presser alone gets the table's web link.
- ``chat_lobby``: a lobby opened, joined or started in the Activity shows in the channel's lobby
  message, when the web table runs in the bot's process (``tycoon run`` sets it).
"""

from __future__ import annotations

import logging
import os

import discord
from discord import app_commands

from bot.chat.context import PlatformContext
from bot.discord_app import threads
from bot.discord_app.answers import chat_key, own_lang, say
from bot.discord_app.items import guarded
from bot.web.auth import watch_path
from words.i18n import CATALOGUES, t

log = logging.getLogger(__name__)

ENTRY_POINT, DISCORD_LAUNCH_ACTIVITY = 4, 2  # the command type, and the handler: Discord opens it
REMOVED = 50240  # Discord: "You cannot remove this app's Entry Point command in a bulk update operation"
GUILD_INSTALL, USER_INSTALL = 0, 1
IN_GUILD, IN_BOT_DM, IN_PRIVATE_CHANNEL = 0, 1, 2
LOCALES = {"zh-CN": "zh-Hans", "zh-TW": "zh-Hant"}  # Discord's locales we translate into
# what of an Entry Point command of Discord's making a bulk overwrite sends back unchanged
KEPT = ("id", "type", "name", "name_localizations", "description", "description_localizations", "handler",
        "integration_types", "contexts", "default_member_permissions", "nsfw")


def client_id() -> str | None:
    """``DISCORD_CLIENT_ID``: the application whose Activity the web table serves (the bot's own)."""
    return os.environ.get("DISCORD_CLIENT_ID") or None


def configured(client: discord.Client) -> bool:
    """The Activity is on: a client id, and it is this bot's application (another one's Activity
    could not be opened from here: said once in the log)."""
    wanted = client_id()
    if not wanted:
        return False
    if client.application_id is not None and str(client.application_id) != wanted:
        if not getattr(client, "_activity_mismatch", False):
            client._activity_mismatch = True
            log.error("DISCORD_CLIENT_ID %s is not this bot's application (%s): the Activity is off", wanted,
                      client.application_id)
        return False
    return True


def entry_point() -> dict:
    """``/play`` as the Entry Point command, named and described in every language we speak."""
    def each(key: str) -> dict[str, str]:
        return {locale: CATALOGUES[lang][key] for locale, lang in LOCALES.items() if CATALOGUES[lang].get(key)}

    return {"name": t("en", "dc.cmd.play"), "description": t("en", "dc.cmd.play.desc"), "type": ENTRY_POINT,
            "handler": DISCORD_LAUNCH_ACTIVITY, "name_localizations": each("dc.cmd.play"),
            "description_localizations": each("dc.cmd.play.desc"),
            "integration_types": [GUILD_INSTALL, USER_INSTALL], "contexts": [IN_GUILD, IN_BOT_DM, IN_PRIVATE_CHANNEL]}


def keep_entry_point(client: discord.Client) -> None:
    """The global commands' bulk overwrite (discord.py's one call that sends them) with the Entry
    Point command in it: ours when the Activity is on; the application's own, unchanged, when Discord
    refuses to drop it (50240). One call as before when nothing is in the way."""
    http = client.http
    upsert = http.bulk_upsert_global_commands

    async def with_entry_point(application_id, payload):
        ours = [entry_point()] if configured(client) else []
        try:
            return await upsert(application_id, payload=[*payload, *ours])
        except discord.HTTPException as e:
            if e.status != 400:
                raise
            if e.code == REMOVED:  # the application's own Entry Point ("Launch") was left out
                held = [c for c in await http.get_global_commands(application_id) if c.get("type") == ENTRY_POINT]
                if not held:
                    raise
                # an application has one Entry Point command: ours takes its place (its id), or it stays
                kept = [{**ours[0], "id": held[0]["id"]}] if ours else [{k: v for k, v in held[0].items() if k in KEPT}]
                return await upsert(application_id, payload=[*payload, *kept])
            if not ours or str(len(payload)) not in (getattr(e, "_errors", None) or {}):
                raise  # one of the slash commands: ``TycoonBot.sync_tree`` says which
            # Discord refused the Entry Point (Activities off for the application?): the slash
            # commands still go, so that they work; the log says what to fix
            log.error("Discord refused the Entry Point command /play (are Activities on for application %s?): %s",
                      application_id, " ".join(str(e).split()))
        return await upsert(application_id, payload=payload)

    http.bulk_upsert_global_commands = with_entry_point


class ActivityTree(app_commands.CommandTree):
    """discord.py's command tree, and the Entry Point command it does not know: its interaction
    (an application command of type 4) launches the Activity instead of being looked up."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        data = interaction.data or {}
        if interaction.type is discord.InteractionType.application_command and data.get("type") == ENTRY_POINT:
            await guarded(interaction, launch(interaction))
            return False
        return True


async def launch(interaction: discord.Interaction, table: int | None = None) -> None:
    """The Activity opened in the interaction's channel (LAUNCH_ACTIVITY); where it cannot be, the
    web link of ``table`` (or the channel's), to the presser alone."""
    client = interaction.client
    refused = False
    if configured(client):
        try:
            await interaction.response.launch_activity()
            return
        except discord.HTTPException as e:  # Activities off for the application, or not here
            log.info("Discord would not launch the Activity in channel %s: %s", interaction.channel_id, e)
            refused = True
    await web_way(client.front.ctx, interaction, table, refused)


async def web_way(ctx: PlatformContext, interaction: discord.Interaction, table: int | None,
                  refused: bool = False) -> None:
    """The way to the table without the Activity: its web page (the spectator's link), or how to
    open one; in the presser's own language, to them alone."""
    lang = own_lang(interaction, ctx.lang)
    view = await ctx.service.public_view(table) if table is not None else None
    if view is None or chat_key(interaction) not in threads.homes(view):  # only a table of this channel
        view = await threads.table_here(ctx, interaction)
    table = view.table if view is not None else None
    url = ctx.messenger.web_url
    url = url if url and url.startswith(("https://", "http://")) else None
    lines = [t(lang, "dc.play.refused")] if refused else []
    link = None
    if table is not None and url:
        link = url + watch_path(ctx.service.sign, table)
        lines.append(t(lang, "dc.play.table_web", url=link))
    elif table is not None:
        lines.append(t(lang, "dc.play.buttons"))
    elif url:
        link = url + "/"
        lines.append(t(lang, "dc.play.none_web", url=link))
    else:
        lines.append(t(lang, "dc.play.none"))
    buttons = discord.ui.View(timeout=None)
    if link:
        label = t(lang, "web.watch" if table is not None else "web.open_table")
        buttons.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label[:80], url=link))
    await say(interaction, "\n".join(lines), **({"view": buttons} if link else {}))


def play_command(ctx: PlatformContext) -> app_commands.Command:
    """``/play`` as a slash command, for a bot without the Activity: the web link instead."""

    async def play(interaction: discord.Interaction) -> None:
        await web_way(ctx, interaction, None)

    return app_commands.Command(name=app_commands.locale_str(t("en", "dc.cmd.play"), key="dc.cmd.play"),
                                description=app_commands.locale_str(t("en", "dc.cmd.play.desc"),
                                                                    key="dc.cmd.play.desc"),
                                callback=play)


def install(client: discord.Client) -> None:
    """The Activity's doors on a bot (``TycoonBot.setup_hook``): the Entry Point command kept in the
    sync; ``/play`` as a slash command when the Activity is off."""
    keep_entry_point(client)
    if not client_id():
        client.tree.add_command(play_command(client.front.ctx))


def chat_lobby(ctx: PlatformContext):
    """What shows a lobby changed in the Activity in its channel: the lobby's one message, posted
    there when the Activity opened the table (``bot/web/activity.py``, ``Activity.chat_lobby``)."""

    return ctx.flows.changed_elsewhere
