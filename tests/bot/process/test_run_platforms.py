"""``tycoon run`` with both tokens, one platform unreachable: the other plays, the unreachable one
is tried again with one plain line per attempt, and nothing prints a traceback. Real processes,
real HTTP: the reachable platform is a fake on 127.0.0.1 (``tests/fakes``), the unreachable one a
port where nothing listens. The processes try again after 0.05 s, then 0.1 s… (``TYCOON_FIRST_RETRY``,
``bot/process/platforms.py``): the tests wait until two tries are logged, not for seconds.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes.discord_api import CHANNEL, command_payload
from tests.fakes.discord_server import DiscordServer
from tests.fakes.telegram_server import BOT_TOKEN, BotAPIServer
from tests.paths import ROOT

DISCORD_TOKEN = "discord-test-token"
GROUP = -100123


def _closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Running:
    """A ``tycoon run`` process and what it has printed so far (read as it comes)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc, self.lines = proc, []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while line := await self.proc.stdout.readline():
            self.lines.append(line.decode(errors="replace"))

    @property
    def output(self) -> str:
        return "".join(self.lines)


async def _start(tmp_path: Path, **env: str) -> Running:
    full = {**os.environ, "TELEGRAM_TOKEN": BOT_TOKEN, "DISCORD_TOKEN": DISCORD_TOKEN, "TYCOON_LANG": "en",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}", "TYCOON_HEARTBEAT": str(tmp_path / "beat"),
            "TELEGRAM_FLOOD_LIMITS": "off", "PYTHONUNBUFFERED": "1", "TYCOON_FIRST_RETRY": "0.05", **env}
    full.pop("TYCOON_WEB_URL", None)
    script = Path(sys.executable).with_name("tycoon")
    command = [str(script)] if script.exists() else [sys.executable, "-c", "import bot.process.entry as e; e.main()"]
    return Running(await asyncio.create_subprocess_exec(*command, "run", cwd=ROOT, env=full, stdout=subprocess.PIPE,
                                                        stderr=subprocess.STDOUT))


async def _stop(running: Running) -> tuple[int, str]:
    proc = running.proc
    if proc.returncode is None:
        proc.send_signal(signal.SIGINT)
    try:
        status = await asyncio.wait_for(proc.wait(), 60)
    except TimeoutError:
        proc.kill()
        status = await proc.wait()
    await running.reader
    return status, running.output


async def _until(condition, seconds: float = 60.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await asyncio.sleep(0.05)
    return False


def _tried_again(output: str, platform: str) -> list[str]:
    return [line for line in output.splitlines() if platform in line and "cannot be reached" in line]


@pytest.mark.slow
async def test_discord_plays_while_telegram_cannot_be_reached(tmp_path):
    server = DiscordServer(token=DISCORD_TOKEN)
    await server.start()
    proc = await _start(tmp_path, DISCORD_API_URL=server.api_url,
                        TELEGRAM_API_URL=f"http://127.0.0.1:{_closed_port()}")
    try:
        assert await _until(lambda: server.identified.is_set() and server.api.commands), "Discord started"
        payload = command_payload("newgame", 1, game="deal")
        await server.deliver(payload)
        assert await _until(lambda: server.api.live(CHANNEL)), "the lobby is posted on Discord"
        assert await _until(lambda: len(_tried_again(proc.output, "Telegram")) >= 2), "Telegram is tried again"
    finally:
        status, output = await _stop(proc)
        await server.stop()
    assert status == 0, output[-2000:]
    assert "Traceback" not in output, output[-3000:]
    assert len(_tried_again(output, "Telegram")) >= 2, output[-3000:]


@pytest.mark.slow
async def test_telegram_plays_while_discord_cannot_be_reached(tmp_path):
    api = BotAPIServer()
    port = await api.start()
    proc = await _start(tmp_path, TELEGRAM_API_URL=f"http://127.0.0.1:{port}/p0",
                        DISCORD_API_URL=f"http://127.0.0.1:{_closed_port()}/api/v10")
    try:
        assert await _until(lambda: any(c.method == "getUpdates" for c in api.calls)), "Telegram polls"
        api.push({"message": {"message_id": 1, "date": 0, "chat": {"id": GROUP, "type": "supergroup"},
                              "from": {"id": 1, "is_bot": False, "first_name": "Ann"}, "text": "/newgame deal",
                              "entities": [{"type": "bot_command", "offset": 0, "length": 8}]}})
        assert await _until(lambda: api.live(GROUP)), "the lobby is posted on Telegram"
        assert await _until(lambda: len(_tried_again(proc.output, "Discord")) >= 2), "Discord is tried again"
    finally:
        status, output = await _stop(proc)
        await api.stop()
    assert status == 0, output[-2000:]
    assert "Traceback" not in output, output[-3000:]
    assert len(_tried_again(output, "Discord")) >= 2, output[-3000:]


@pytest.mark.slow
async def test_sigterm_answers_every_update_the_process_took_then_exits_cleanly(tmp_path):
    """Issue 46: SIGTERM (systemd, Kubernetes, Docker without our STOPSIGNAL) while commands
    arrive: every update the bot had fetched is answered before it exits (status 0, no traceback);
    it used to die at once, dropping what it had taken."""
    api = BotAPIServer()
    port = await api.start()
    proc = await _start(tmp_path, TELEGRAM_API_URL=f"http://127.0.0.1:{port}/p0",
                        DISCORD_API_URL=f"http://127.0.0.1:{_closed_port()}/api/v10")
    groups = [GROUP - n for n in range(6)]
    try:
        assert await _until(lambda: any(c.method == "getUpdates" for c in api.calls)), "Telegram polls"
        for n, group in enumerate(groups):
            api.push({"message": {"message_id": 1, "date": 0, "chat": {"id": group, "type": "supergroup"},
                                  "from": {"id": 1 + n, "is_bot": False, "first_name": f"P{n}"},
                                  "text": "/newgame board",
                                  "entities": [{"type": "bot_command", "offset": 0, "length": 8}]}})
        assert await _until(lambda: len(api.delivered) == len(groups), 30), "the bot fetched them all"
        proc.proc.send_signal(signal.SIGTERM)  # at once: most of them are still being answered
        await asyncio.wait_for(proc.proc.wait(), 60)  # by itself (no SIGINT after it from ``_stop``)
    finally:
        status, output = await _stop(proc)
        await api.stop()
    assert status == 0, output[-2000:]
    assert "Traceback" not in output and "stopping (SIGTERM)" in output, output[-3000:]
    answered = {int(c.params.get("chat_id", 0)) for c in api.calls if c.method == "sendMessage"}
    assert set(groups) <= answered, (sorted(set(groups) - answered), output[-2000:])


@pytest.mark.slow
async def test_sigterm_answers_every_discord_interaction_the_process_took_then_exits_cleanly(tmp_path):
    """Issue 46, Discord: interactions the gateway had delivered when SIGTERM came (a rolling
    deploy) are each answered before the client closes, and their table updates are shown; the
    process then exits 0 without a traceback."""
    server = DiscordServer(token=DISCORD_TOKEN)
    await server.start()
    proc = await _start(tmp_path, DISCORD_API_URL=server.api_url,
                        TELEGRAM_API_URL=f"http://127.0.0.1:{_closed_port()}")
    tokens = []
    try:
        assert await _until(lambda: server.identified.is_set() and server.api.commands), "Discord started"
        for n, game in enumerate(("deal", "board", "deal", "board")):  # one opens the table, the others are told
            payload = command_payload("newgame", 10 + n, game=game)
            tokens.append(payload["token"])
            await server.deliver(payload)
        proc.proc.send_signal(signal.SIGTERM)  # at once: they are still being answered
        await asyncio.wait_for(proc.proc.wait(), 60)
    finally:
        status, output = await _stop(proc)
        await server.stop()
    assert status == 0, output[-2000:]
    assert "Traceback" not in output and "stopping (SIGTERM)" in output, output[-3000:]
    unanswered = [token for token in tokens if not server.api.interactions[token].answers]
    assert unanswered == [], (unanswered, output[-2000:])
    assert server.api.live(CHANNEL), "the lobby the first one opened is shown"
