"""``tycoon run`` start-up speaks plainly (bot/process/run.py): a database, Telegram Bot API or Discord that
cannot be reached is tried again, one warning line per attempt and no traceback, and the bots start
once it answers; a token the platform refuses ends ``run_bots`` at once with status 2 and one error
line naming the variable to fix; ``tycoon run`` hands that status on as the process's exit status.

Offline throughout: Telegram talks to the fake Bot API of tests/bot/telegram_app/test_telegram.py; Discord
is the fake Discord on 127.0.0.1 (tests/fakes/discord_server.py: discord.py's own login, command sync
and gateway over HTTP and a WebSocket, with ``DISCORD_API_URL`` pointing at it), an outage being
its 503 and an unreachable Discord a port where nothing listens; the database that cannot be
reached is a PostgreSQL URL on port 1, where nothing listens.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Callable

import discord.http
import pytest
from telegram.error import NetworkError

from bot.process import cli
from bot.process import run as run_module
from tests.bot.discord_app.harness import fake_discord
from tests.bot.telegram_app.test_telegram import FakeBotAPI

SAFETY = 20.0  # seconds: a start-up that hangs fails the test instead of the whole run


class FlakyBotAPI(FakeBotAPI):
    """The fake Bot API, but ``unreachable`` calls of method ``down`` fail as a refused connection
    first, and a ``refuse``d token gets Telegram's 401 for getMe."""

    def __init__(self, unreachable: int = 0, down: str = "getMe", refuse: bool = False) -> None:
        super().__init__()
        self.unreachable, self.down, self.refuse = unreachable, down, refuse

    async def do_request(self, url, method, request_data=None, **kwargs):
        api = url.rsplit("/", 1)[-1]
        if self.refuse and api == "getMe":
            self.calls.append((api, {}))
            return 401, json.dumps({"ok": False, "error_code": 401, "description": "Unauthorized"}).encode()
        if api == self.down and self.unreachable > 0:
            self.unreachable -= 1
            self.calls.append((api, {}))
            raise NetworkError("connection refused")
        return await super().do_request(url, method, request_data, **kwargs)

    def count(self, api: str) -> int:
        return sum(1 for name, _ in self.calls if name == api)


def _lines(caplog, level: int, *words: str) -> list[logging.LogRecord]:
    """bot.process.run's records at ``level`` whose message holds every one of ``words``."""
    return [r for r in caplog.records if r.name == "bot.process.run" and r.levelno == level
            and all(w in r.getMessage() for w in words)]


def _no_tracebacks(caplog) -> None:
    with_trace = [r.getMessage() for r in caplog.records if r.name == "bot.process.run" and r.exc_info is not None]
    assert with_trace == [], "start-up problems are one plain line each, never a traceback"


async def _stop_when(condition: Callable[[], bool], stop: asyncio.Event) -> None:
    while not condition():
        await asyncio.sleep(0.01)
    stop.set()


async def _run_until(condition: Callable[[], bool], stop: asyncio.Event, *args, **kwargs) -> int:
    """``run_bots(*args, stop=stop, **kwargs)``, with ``stop`` set as soon as ``condition()`` holds."""
    watcher = asyncio.create_task(_stop_when(condition, stop))
    try:
        return await asyncio.wait_for(run_module.run_bots(*args, stop=stop, **kwargs), SAFETY)
    finally:
        watcher.cancel()


def _logins(server) -> list[str | None]:
    """The token of each login attempt the fake Discord saw (discord.py's login asks ``/users/@me`` first)."""
    return [token for method, path, token in server.requests if (method, path) == ("GET", "/users/@me")]


async def test_an_unreachable_telegram_bot_api_is_tried_again_until_it_answers(tmp_path, caplog):
    api, stop = FlakyBotAPI(unreachable=3), asyncio.Event()
    status = await _run_until(lambda: api.count("getUpdates") > 0, stop, "123:TEST", None,
                              f"sqlite:///{tmp_path / 'tg.db'}", telegram_request=api, heartbeat="",
                              retry_first=0.01)
    assert status == 0
    waits = _lines(caplog, logging.WARNING, "Telegram Bot API", "cannot be reached")
    assert len(waits) == 3, [r.getMessage() for r in caplog.records]
    assert all(r.exc_info is None for r in waits)
    assert api.count("getMe") == 4, "three refused connections, then the answer"
    assert api.count("getUpdates") > 0, "then it polls"
    assert _lines(caplog, logging.ERROR) == []
    _no_tracebacks(caplog)


async def test_a_refused_telegram_token_ends_at_once_with_status_2_naming_the_variable(tmp_path, caplog):
    api = FlakyBotAPI(refuse=True)
    status = await asyncio.wait_for(
        run_module.run_bots("123:TEST", None, f"sqlite:///{tmp_path / 'tg.db'}", telegram_request=api,
                            heartbeat="", retry_first=0.01), SAFETY)
    assert status == 2
    errors = [r for r in caplog.records if r.name == "bot.process.run" and r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "TELEGRAM_TOKEN" in errors[0].getMessage(), [r.getMessage() for r in errors]
    assert not any("123:TEST" in r.getMessage() for r in caplog.records), "the token itself is never logged"
    _no_tracebacks(caplog)
    assert _lines(caplog, logging.WARNING, "cannot be reached") == [], "a refused token is not tried again"
    assert api.count("getMe") == 1
    assert api.count("getUpdates") == 0, "no polling with a refused token"


async def test_a_refused_discord_token_ends_at_once_with_status_2_naming_the_variable(tmp_path, caplog, monkeypatch):
    async with fake_discord(monkeypatch, token="D") as server:  # Discord answers "bad" with 401
        status = await asyncio.wait_for(
            run_module.run_bots(None, "bad", f"sqlite:///{tmp_path / 'dc.db'}", heartbeat="", retry_first=0.01,
                                discord_api_url=server.api_url), SAFETY)
    assert status == 2
    assert _logins(server) == ["bad"], "tried once, through discord.py's own Client.login"
    errors = [r for r in caplog.records if r.name == "bot.process.run" and r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "DISCORD_TOKEN" in errors[0].getMessage(), [r.getMessage() for r in errors]
    _no_tracebacks(caplog)
    assert _lines(caplog, logging.WARNING, "cannot be reached") == []
    assert server.gateway_connections == 0, "no gateway with a refused token"


class _DiscordComesBack(logging.Handler):
    """Discord is back after ``failures`` start-up warnings: discord.py's REST base (``Route.BASE``,
    read for every request; ``run_bots`` set it from ``DISCORD_API_URL``) moves from a port where
    nothing listens to the fake Discord. Done as the warning is logged, before the retry's wait
    begins, so the test does not depend on how fast the machine is."""

    def __init__(self, url: str, failures: int) -> None:
        super().__init__(logging.WARNING)
        self.url, self.left = url, failures

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "bot.process.run" and "cannot be reached" in record.getMessage():
            self.left -= 1
            if self.left == 0:
                discord.http.Route.BASE = self.url


async def test_an_unreachable_discord_is_tried_again_until_it_answers(tmp_path, caplog, monkeypatch):
    with socket.socket() as nobody:  # bound, never listening: every connection to it is refused
        nobody.bind(("127.0.0.1", 0))
        unreachable = f"http://127.0.0.1:{nobody.getsockname()[1]}/api/v10"
        async with fake_discord(monkeypatch, token="D") as server:
            comes_back = _DiscordComesBack(server.api_url, failures=2)
            logging.getLogger("bot.process.run").addHandler(comes_back)
            try:
                stop = asyncio.Event()
                status = await _run_until(server.identified.is_set, stop, None, "D", f"sqlite:///{tmp_path / 'dc.db'}",
                                          heartbeat="", retry_first=0.01, discord_api_url=unreachable)
            finally:
                logging.getLogger("bot.process.run").removeHandler(comes_back)
    assert status == 0
    waits = _lines(caplog, logging.WARNING, "Discord", "cannot be reached")
    assert len(waits) == 2, [r.getMessage() for r in caplog.records]
    assert all(r.exc_info is None for r in waits)
    assert _logins(server) == ["D"], "refused twice, then logged in once Discord answered"
    assert any(url.endswith("/applications/42/commands") for _, url, _ in server.api.calls), \
        "the real Client.login went on: application info, then setup_hook synced the slash commands"
    assert _lines(caplog, logging.ERROR) == []
    _no_tracebacks(caplog)


async def test_an_unreachable_database_is_tried_again_and_a_stop_still_ends_it(caplog):
    stop = asyncio.Event()
    status = await _run_until(lambda: len(_lines(caplog, logging.WARNING, "database", "cannot be reached")) >= 2,
                              stop, None, None, "postgresql://postgres@127.0.0.1:1/test", heartbeat="",
                              retry_first=0.01)
    assert status == 0, "a requested stop while waiting for the database is a clean exit"
    assert len(_lines(caplog, logging.WARNING, "database", "cannot be reached")) >= 2
    _no_tracebacks(caplog)


@pytest.mark.parametrize("status", [1, 2])
def test_tycoon_run_exits_with_the_status_of_run_bots(monkeypatch, status):
    seen: list[tuple] = []

    async def fake_run_bots(telegram, discord_token, database_url, lang="zh-Hans", api_url=None, **kwargs):
        seen.append((telegram, discord_token))
        return status

    monkeypatch.setattr(run_module, "run_bots", fake_run_bots)
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:TEST")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["run"]) == status
    assert seen == [("123:TEST", None)]


# --- two ways start-up used to crash instead of retrying or stopping cleanly ---

async def test_a_stop_while_telegram_polling_cannot_start_is_a_clean_exit(tmp_path):
    api, stop = FlakyBotAPI(unreachable=10**6, down="deleteWebhook"), asyncio.Event()
    status = await _run_until(lambda: api.count("deleteWebhook") >= 2, stop, "123:TEST", None,
                              f"sqlite:///{tmp_path / 'tg.db'}", telegram_request=api, heartbeat="",
                              retry_first=0.01)
    assert status == 0


async def test_a_command_sync_that_fails_once_is_tried_again(tmp_path, caplog, monkeypatch):
    async with fake_discord(monkeypatch, token="D") as server:
        server.unavailable["/applications/42/commands"] = 1  # Discord's first answer to the sync: 503
        stop = asyncio.Event()
        status = await _run_until(server.identified.is_set, stop, None, "D", f"sqlite:///{tmp_path / 'dc.db'}",
                                  heartbeat="", retry_first=0.01, discord_api_url=server.api_url)
    assert status == 0
    syncs = [method for method, path, _ in server.requests if path == "/applications/42/commands"]
    assert len(syncs) == 2
    assert len(_lines(caplog, logging.WARNING, "slash commands", "cannot be reached")) == 1, "tried again by tycoon run"
