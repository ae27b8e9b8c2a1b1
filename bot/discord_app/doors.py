"""Where a game can run on Discord, and what someone is told where it cannot (issue 49).

Tycoon installs two ways, and its commands go with both: to a server (the bot is a member: it posts
the table message and edits it in place, writes the hands to DMs) and to a member's own account
(its commands then follow them into DMs, group DMs and servers that never added the bot). A game
needs the first. An app installed only to a user may answer an interaction, and follow up on it for
15 minutes, but it can neither read nor post in that channel on its own, so no table message could
be kept current there; a DM with the bot is one person's, not a table everyone sees.

So a game command used where the bot is not in the server (``authorizing_integration_owners``
without the server's install) or outside a server (a DM with the bot, a group DM) is answered to
the asker alone with what to do instead: add Tycoon to a server (the link opens Discord's install
screen, this server pre-selected when there is one) or play on the web table, each one tap. What
is the asker's own (``/me``, ``/top``, ``/rules``, ``/help``) works everywhere.
"""

from __future__ import annotations

import discord

from words.i18n import t

# what the table needs in a channel: see it, post and edit its messages with pictures, make a
# table's own thread, and (optional, for /schedule) put a match in the server's calendar
PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                  create_public_threads=True, embed_links=True, attach_files=True,
                                  read_message_history=True, manage_events=True)
AUTHORIZE = "https://discord.com/oauth2/authorize"
GUILD_INSTALL, USER_INSTALL = 0, 1  # Discord's application integration types


def install_url(app_id: int, guild: int | None = None) -> str:
    """Discord's screen that adds the bot to a server (``integration_type=0``), the server chosen
    already when ``guild`` is given (the one the asker is in)."""
    url = (f"{AUTHORIZE}?client_id={app_id}&permissions={PERMISSIONS.value}"
           f"&integration_type={GUILD_INSTALL}&scope=bot+applications.commands")
    return url + (f"&guild_id={guild}" if guild else "")


def user_install_url(app_id: int) -> str:
    """Discord's screen that adds Tycoon to one's own account (its commands in every DM and group)."""
    return f"{AUTHORIZE}?client_id={app_id}&integration_type={USER_INSTALL}&scope=applications.commands"


def hosts_games(interaction: discord.Interaction) -> bool:
    """Can a table run where this interaction came from: a server channel of a server that added
    the bot (Discord names the server's install in ``authorizing_integration_owners``)."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def why_not(interaction: discord.Interaction, lang: str) -> str:
    """Why no game runs here, in the asker's words: a DM with the bot, a group DM (or a DM between
    others), or a server that has not added the bot."""
    if interaction.guild_id is not None:
        return t(lang, "dc.where.guild")
    if interaction.context.dm_channel:
        return t(lang, "dc.where.dm")
    return t(lang, "dc.where.private")


def links(interaction: discord.Interaction, lang: str, web_url: str | None,
          mine: bool = False) -> discord.ui.View:
    """One tap each: add Tycoon to a server (this one when the asker is in one), the web table when
    it is served; ``mine``: also add Tycoon to one's own account (``/help``)."""
    app = interaction.application_id
    view = discord.ui.View(timeout=None)
    here = interaction.guild_id if interaction.guild_id is not None and not interaction.is_guild_integration() \
        else None
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=install_url(app, here),
                                    label=t(lang, "dc.btn.add_here" if here else "dc.btn.add_server")[:80]))
    if mine:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=user_install_url(app),
                                        label=t(lang, "dc.btn.add_mine")[:80]))
    if web_url and web_url.startswith(("https://", "http://")):
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=web_url + "/",
                                        label=t(lang, "dc.btn.web")[:80]))
    return view


async def elsewhere(interaction: discord.Interaction, lang: str, web_url: str | None) -> None:
    """The clear answer to a game command where no game can run: why, and the doors, to the asker
    alone (an ephemeral reply is the one thing every install may send anywhere)."""
    text = why_not(interaction, lang)
    if web_url and web_url.startswith(("https://", "http://")):
        text += "\n" + t(lang, "dc.where.web")
    await interaction.response.send_message(text, view=links(interaction, lang, web_url), ephemeral=True)
