"""``tycoon run``: which bots start from which tokens, and both bots in one process around one
service and one clock sweeper. Offline: the Telegram side talks to the fake Bot API, the Discord
side's login and gateway are replaced by the fake REST layer."""

from __future__ import annotations

import asyncio

import discord

from bot.discord_app.app import TycoonBot
from bot.process import cli
from bot.process import run as run_module
from engine.service.tables import GameService
from tests.bot.discord_app.test_discord import FakeDiscord
from tests.bot.telegram_app.test_telegram import FakeBotAPI


def test_tycoon_run_starts_the_bots_whose_tokens_are_set(monkeypatch):
    started: list[tuple] = []

    async def fake_run_bots(telegram, discord_token, database_url, lang="zh-Hans", api_url=None, **kwargs):
        started.append((telegram, discord_token, lang))
        return 0

    async def fake_web(host, port, database_url, lang, **kwargs):
        started.append(("web", host, port, lang))
        return 0

    monkeypatch.setattr(run_module, "run_bots", fake_run_bots)
    monkeypatch.setattr("bot.web.server.serve", fake_web)
    monkeypatch.delenv("TYCOON_WEB_PORT", raising=False)
    monkeypatch.delenv("TYCOON_WEB_HOST", raising=False)
    for telegram, discord_token in ((None, None), ("1:T", None), (None, "D"), ("1:T", "D")):
        for name, value in (("TELEGRAM_TOKEN", telegram), ("DISCORD_TOKEN", discord_token)):
            if value:
                monkeypatch.setenv(name, value)
            else:
                monkeypatch.delenv(name, raising=False)
        assert cli.main(["run", "--lang", "en"]) == 0
    # without a token: the web table on http://127.0.0.1:8080
    assert started == [("web", "127.0.0.1", 8080, "en"), ("1:T", None, "en"), (None, "D", "en"), ("1:T", "D", "en")]


async def test_both_bots_run_in_one_process_with_one_service_and_one_clock(tmp_path, monkeypatch):
    api, fake = FakeBotAPI(), FakeDiscord()
    stop, clock_started, closed = asyncio.Event(), asyncio.Event(), asyncio.Event()
    clocks: list[GameService] = []
    services: dict[str, GameService] = {}
    real_run, real_close = GameService.run, TycoonBot.close

    async def run_clock(self, *args, **kwargs):
        clocks.append(self)
        clock_started.set()
        await real_run(self, *args, **kwargs)

    async def login(self, token):  # what discord.py's login does, without the network
        assert token == "D"
        self._connection.user = discord.ClientUser(state=self._connection, data={
            "id": "99", "username": "tycoon", "discriminator": "0", "avatar": None, "bot": True})
        self._connection.application_id = 42
        self.http.request = fake.http
        services["discord"] = self.front.service
        await self.setup_hook()

    async def connect(self, reconnect=True):
        await closed.wait()

    async def close(self):
        closed.set()
        await real_close(self)

    from bot.telegram_app import app as telegram_app
    real_build = telegram_app.build_application

    def build_application(service, *args, **kwargs):
        services["telegram"] = service
        return real_build(service, *args, **kwargs)

    monkeypatch.setattr(GameService, "run", run_clock)
    monkeypatch.setattr(TycoonBot, "login", login)
    monkeypatch.setattr(TycoonBot, "connect", connect)
    monkeypatch.setattr(TycoonBot, "close", close)
    monkeypatch.setattr(telegram_app, "build_application", build_application)

    async def stop_when_running():
        # each platform starts on its own: stop once both are up and the clock runs
        await clock_started.wait()
        while not (any(name == "getUpdates" for name, _ in api.calls)
                   and any(u.endswith("/applications/42/commands") for _, u, _ in fake.calls)):
            await asyncio.sleep(0.01)
        stop.set()

    status, _ = await asyncio.gather(run_module.run_bots("123:TEST", "D", f"sqlite:///{tmp_path / 'both.db'}", "en",
                                                         stop=stop, telegram_request=api, heartbeat=""),
                                     stop_when_running())
    assert status == 0
    assert services["telegram"] is services["discord"], "one service for both bots"
    assert clocks == [services["telegram"]], "one clock sweeper"
    assert closed.is_set(), "the Discord bot was closed on the way out"
    names = [name for name, _ in api.calls]
    assert "getMe" in names and "setMyCommands" in names
    assert any(u.endswith("/applications/42/commands") for _, u, _ in fake.calls), "slash commands synced"
