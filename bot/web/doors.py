"""The web lobby's doors into the chats (issue 49): "Add to a Telegram group" and "Add to a Discord
server", each one tap, shown where the operator runs that bot (a Telegram bot token, a Discord
application id). The links are the ones the bots themselves offer (``bot.telegram_app.invites``,
``bot.discord_app.doors``), so every door lands in the same service and table.

The Telegram link names the bot, which only its ``getMe`` tells: asked once (the Mini App's Bot API
client, ``miniapp.BOT``) and kept; a Bot API that does not answer leaves the button out rather than
holding the page.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from bot.discord_app.doors import install_url
from bot.telegram_app.invites import add_link
from bot.web import miniapp
from bot.web.activity import ACTIVITY
from bot.web.context import SETTINGS

log = logging.getLogger(__name__)
ASK_FOR = 3.0  # seconds the first lobby page waits for the bot's name


async def links(request: web.Request) -> dict[str, str | None]:
    """``{"telegram": the add-to-a-group link, "discord": the add-to-a-server link}``, None where
    that bot is not run here."""
    settings = request.app[SETTINGS]
    telegram = None
    if settings.get("bot_token"):
        try:
            bot = await asyncio.wait_for(request.app[miniapp.BOT].get(settings["bot_token"],
                                                                      settings.get("telegram_api_url")), ASK_FOR)
            telegram = add_link(bot.username)
        except Exception as e:  # the Bot API is away: the page goes out without the button
            log.warning("the lobby's Telegram button waits: %s", e)
    discord = request.app[ACTIVITY].settings
    return {"telegram": telegram, "discord": install_url(int(discord.client_id)) if discord else None}
