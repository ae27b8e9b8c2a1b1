"""Issue 49: the web lobby's doors into the chats. Where this site runs the Telegram bot, the lobby
offers "Add to a Telegram group" (the bot's own add link, naming it as its ``getMe`` says); where a
Discord application is set, "Add to a Discord server"; neither when neither runs here."""

from __future__ import annotations

import json
import re

import aiohttp

from bot.discord_app.doors import install_url
from bot.telegram_app.invites import add_link
from bot.web.activity import DiscordSettings
from bot.web.hub import Hub
from bot.web.server import make_app, start_site
from engine.service.tables import GameService
from tests.bot.web.test_web_miniapp import BOT_TOKEN, BOT_USERNAME, FakeBotAPI


def _config(html: str) -> dict:
    return json.loads(re.search(r"window\.TYCOON = (\{.*?\});</script>", html, re.S).group(1))


async def _lobby(service, **settings) -> dict:
    runner, address = await start_site(make_app(service, Hub(service), lang="en", **settings), "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http, http.get(address + "/") as response:
            assert response.status == 200
            return _config(await response.text())
    finally:
        await runner.cleanup()


async def test_the_lobby_offers_the_doors_of_the_bots_this_site_runs(tmp_path):
    api = FakeBotAPI()
    api_url = await api.start()
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    try:
        assert (await _lobby(service))["doors"] == {"telegram": None, "discord": None}
        config = await _lobby(service, bot_token=BOT_TOKEN, telegram_api_url=api_url,
                              discord=DiscordSettings("4242", "secret"))
        assert config["doors"] == {"telegram": add_link(BOT_USERNAME), "discord": install_url(4242)}
        assert config["doors"]["telegram"].startswith(f"https://t.me/{BOT_USERNAME}?startgroup=")
        assert config["words"]["web.doors.telegram"]
    finally:
        await api.stop()
        await service.close()


async def test_a_bot_api_that_does_not_answer_leaves_the_button_out(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    try:
        config = await _lobby(service, bot_token=BOT_TOKEN, telegram_api_url="http://127.0.0.1:9")  # nobody there
        assert config["doors"]["telegram"] is None
    finally:
        await service.close()
