"""``tycoon run``: which bots start from which tokens, and both bots in one process around one
service and one clock sweeper. Offline: the Telegram side talks to the fake Bot API, the Discord
side logs in to the fake Discord on 127.0.0.1 and connects to its gateway, as it would to Discord."""

from __future__ import annotations

import asyncio

from bot.discord_app.app import TycoonBot
from bot.process import cli
from bot.process import run as run_module
from engine.service.tables import GameService
from tests.bot.discord_app.harness import fake_discord, until
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
    api = FakeBotAPI()
    stop, clock_started = asyncio.Event(), asyncio.Event()
    clocks: list[GameService] = []
    services: dict[str, GameService] = {}
    real_run, real_init = GameService.run, TycoonBot.__init__

    async def run_clock(self, *args, **kwargs):
        clocks.append(self)
        clock_started.set()
        await real_run(self, *args, **kwargs)

    def bot_init(self, service, *args, **kwargs):  # our bot's constructor, noting the service it is given
        services["discord"] = service
        real_init(self, service, *args, **kwargs)

    from bot.telegram_app import app as telegram_app
    real_build = telegram_app.build_application

    def build_application(service, *args, **kwargs):
        services["telegram"] = service
        return real_build(service, *args, **kwargs)

    monkeypatch.setattr(GameService, "run", run_clock)
    monkeypatch.setattr(TycoonBot, "__init__", bot_init)
    monkeypatch.setattr(telegram_app, "build_application", build_application)

    async with fake_discord(monkeypatch, token="D") as server:
        fake = server.api

        async def stop_when_running():
            # each platform starts on its own: stop once both are up (Discord on its gateway) and the clock runs
            await clock_started.wait()
            await until(lambda: any(name == "getUpdates" for name, _ in api.calls) and server.identified.is_set()
                        and any(u.endswith("/applications/42/commands") for _, u, _ in fake.calls),
                        "Telegram polling, Discord's commands synced and its gateway connected")
            stop.set()

        status, _ = await asyncio.gather(run_module.run_bots("123:TEST", "D", f"sqlite:///{tmp_path / 'both.db'}",
                                                             "en", stop=stop, telegram_request=api, heartbeat="",
                                                             discord_api_url=server.api_url),
                                         stop_when_running())
        await until(lambda: server.hung_up == 1, "the bot closed its gateway connection")
    assert status == 0
    assert services["telegram"] is services["discord"], "one service for both bots"
    assert clocks == [services["telegram"]], "one clock sweeper"
    assert server.hung_up == 1 and server.identifies == 1, "the Discord bot was closed on the way out"
    names = [name for name, _ in api.calls]
    assert "getMe" in names and "setMyCommands" in names
    assert any(u.endswith("/applications/42/commands") for _, u, _ in fake.calls), "slash commands synced"
