"""Several bot processes on one database: Telegram updates by webhook (the secret-token header
checked), Discord shard ranges, and the compose file that runs two replicas behind a proxy."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request

import yaml

from bot.discord_app.app import TycoonBot
from bot.process import run as run_module
from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI, command
from tests.paths import ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(url: str, body: dict, secret: str | None) -> int:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as e:
        return e.code


def test_webhook_settings_come_from_the_environment():
    env = {"TELEGRAM_WEBHOOK_URL": "https://bot.example.com/telegram/hook", "PORT": "9000"}
    hook = run_module.Webhook.from_env(env, "123:T")
    assert hook.url == env["TELEGRAM_WEBHOOK_URL"] and hook.path == "telegram/hook" and hook.port == 9000
    assert hook.listen == "0.0.0.0" and len(hook.secret) == 64 and hook.secret.isalnum()
    assert run_module.Webhook.from_env({**env, "TELEGRAM_WEBHOOK_SECRET": "s3cret"}, "123:T").secret == "s3cret"
    assert run_module.Webhook.from_env({}, "123:T") is None  # no address: polling, as before
    assert run_module.shard_ids("0-3") == [0, 1, 2, 3] and run_module.shard_ids("0, 2,5-6") == [0, 2, 5, 6]
    assert run_module.shard_ids("") is None


def test_shard_settings_that_cannot_work_end_the_process_with_one_line(monkeypatch, caplog):
    monkeypatch.setenv("DISCORD_TOKEN", "D")
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0-3")
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "2")
    assert run_module.main_from_env() == run_module.BAD_TOKEN
    assert "DISCORD_SHARD_COUNT" in caplog.text
    monkeypatch.setenv("DISCORD_SHARD_IDS", "zero")
    assert run_module.main_from_env() == run_module.BAD_TOKEN


async def test_a_discord_process_runs_the_shards_it_is_given(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'dc.db'}")
    try:
        async with TycoonBot(service, shard_count=4, shard_ids=[2, 3]) as bot:
            assert bot.shard_count == 4 and bot.shard_ids == [2, 3]
    finally:
        await service.close()


async def test_telegram_updates_arrive_by_webhook_with_the_secret_only(tmp_path):
    api, stop = FakeBotAPI(), asyncio.Event()
    port = _free_port()
    hook = run_module.Webhook(f"https://bot.example.com/tg/{port}", "127.0.0.1", port, "the-secret")
    task = asyncio.create_task(run_module.run_bots("123:TEST", None, f"sqlite:///{tmp_path / 'wh.db'}", "en",
                                                   stop=stop, telegram_request=api, heartbeat="", webhook=hook))
    try:
        for _ in range(200):  # the webhook server is up once Telegram was told where it is
            if any(name == "setWebhook" for name, _ in api.calls):
                break
            await asyncio.sleep(0.05)
        set_hook = next(p for name, p in api.calls if name == "setWebhook")
        assert set_hook["url"] == hook.url and set_hook["secret_token"] == "the-secret"
        assert not any(name == "getUpdates" for name, _ in api.calls), "no polling in webhook mode"
        url = f"http://127.0.0.1:{port}/{hook.path}"
        for _ in range(100):
            try:
                status = await asyncio.to_thread(_post, url, command("/help", 1), "wrong")
                break
            except OSError:
                await asyncio.sleep(0.05)
        assert status == 403 and not [p for name, p in api.calls if name == "sendMessage"]
        assert await asyncio.to_thread(_post, url, command("/help", 1), "the-secret") == 200
        for _ in range(100):
            sent = [p for name, p in api.calls if name == "sendMessage"]
            if sent:
                break
            await asyncio.sleep(0.05)
        assert sent and int(sent[0]["chat_id"]) == GROUP and "/newgame" in sent[0]["text"]
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 30) == 0


def test_the_compose_file_runs_postgresql_and_two_webhook_replicas_behind_a_proxy():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert {"db", "bot", "proxy"} <= set(services)
    bot = services["bot"]
    assert bot["deploy"]["replicas"] == 2
    env = bot["environment"]
    assert env["DATABASE_URL"].startswith("postgresql://") and "@db:5432/" in env["DATABASE_URL"]
    assert env["TELEGRAM_WEBHOOK_URL"] and env["PORT"]
    assert bot["depends_on"]["db"]["condition"] == "service_healthy" and "healthcheck" in services["db"]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert f"bot:{env['PORT']}" in conf and "proxy_pass" in conf
    assert any(str(v).startswith("./deploy/nginx.conf") for v in services["proxy"]["volumes"])
