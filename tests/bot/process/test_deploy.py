"""The image and the compose file work as written (no Docker engine runs here, so they are read
and their commands run as the image would run them):

- the Dockerfile installs exactly what ``make run`` installs (plain Python, nothing compiled),
  serves the web table on 0.0.0.0 with ``EXPOSE``, and its health check passes in web-only mode
  (the command ``CMD`` runs, without tokens, with the image's environment: the heartbeat is touched);
- the package built from the tree holds the web pages and the catalogues (the image installs it);
- compose runs PostgreSQL, two bot processes, the web table (the Mini App's address wired into the
  bots) and a proxy that finds the replicas again, routing Telegram to the bots, the rest to the web.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import aiohttp
import pytest
import yaml

from tests.paths import ROOT
from tests.test_setup import _clone

DOCKERFILE = (ROOT / "Dockerfile").read_text()


def _instructions(name: str) -> list[str]:
    """The Dockerfile's instructions of one kind, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line.split(None, 1)[1] for line in text.splitlines() if line.split(None, 1)[:1] == [name]]


def _env() -> dict[str, str]:
    out = {}
    for line in _instructions("ENV"):
        for part in shlex.split(line):
            key, _, value = part.partition("=")
            out[key] = value
    return out


def test_the_image_installs_plain_python_and_exposes_the_web_table():
    assert "EXPOSE 8080 9090" in DOCKERFILE
    env = _env()
    assert env["TYCOON_WEB_HOST"] == "0.0.0.0" and env["TYCOON_WEB_PORT"] == "8080"
    assert env["TYCOON_METRICS_PORT"] == "9090" and env["DATABASE_URL"].startswith("sqlite")
    runs = " ".join(_instructions("RUN"))
    assert "pip install --only-binary=:all: ." in runs
    for compiler in ("gcc", "cython", "compile", "build-essential"):
        assert compiler not in runs.lower(), compiler
    assert _instructions("CMD") == ['["tycoon", "run"]']
    assert _instructions("USER") == ["tycoon"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
async def test_the_health_check_passes_in_web_only_mode(tmp_path):
    """``CMD`` without tokens is the web table; its clock task touches the heartbeat the image's
    HEALTHCHECK reads, and /healthz and /metrics answer on the web port. SIGTERM (Docker without
    our STOPSIGNAL, systemd, Kubernetes) stops it as SIGINT does: drained, status 0 (issue 46)."""
    port = _free_port()
    env = {**os.environ, **_env(), "DATABASE_URL": f"sqlite:///{tmp_path / 'web.db'}",
           "TYCOON_HEARTBEAT": str(tmp_path / "heartbeat"), "TYCOON_WEB_PORT": str(port)}
    for name in ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "TYCOON_WEB_URL"):
        env.pop(name, None)
    script = Path(sys.executable).with_name("tycoon")
    command = [str(script)] if script.exists() else [sys.executable, "-c", "import bot.process.entry as e; e.main()"]
    proc = await asyncio.create_subprocess_exec(*command, "run", cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                                stderr=subprocess.STDOUT)
    try:
        for _ in range(600):
            if (tmp_path / "heartbeat").exists():
                break
            await asyncio.sleep(0.05)
        check = _instructions("HEALTHCHECK")[0].split("CMD", 1)[1].strip()
        healthy = subprocess.run(check, shell=True, env=env, timeout=30)
        assert healthy.returncode == 0, "the image's own health check"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                assert r.status == 200
            async with http.get(f"http://127.0.0.1:{port}/metrics") as r:
                assert "tycoon_tables_open" in await r.text()
            async with http.get(f"http://127.0.0.1:{port}/") as r:
                assert r.status == 200, "the web table itself"
    finally:
        proc.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(proc.wait(), 60)
        output = (await proc.stdout.read()).decode()
    assert status == 0 and "Traceback" not in output, output[-2000:]
    assert "stopping (SIGTERM)" in output, output[-2000:]
    assert "0.0.0.0" in output or f":{port}" in output


@pytest.mark.slow
def test_the_package_the_image_installs_holds_the_pages_and_the_catalogues(tmp_path):
    tree = tmp_path / "tree"  # a copy, as the image's build context: no build files left in the clone
    _clone(tree)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(tree)],
                   check=True, timeout=300)
    wheel = next(tmp_path.glob("tycoon-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("bot/web/static/table.js", "bot/web/static/table.html", "data/locale/zh-Hans.json",
                   "engine/service/storage/migrations/env.py", "bot/process/entry.py"):
        assert needed in names, needed
    assert not [n for n in names if n.endswith((".so", ".c", ".pxd"))], "nothing compiled"
    assert not [n for n in names if n.startswith(("tools/", "tests/"))], "the tooling and the tests are not installed"


def test_compose_runs_the_database_two_bots_the_web_table_and_a_proxy():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "bot", "web", "proxy"}
    bot, web, proxy = services["bot"], services["web"], services["proxy"]
    assert bot["deploy"]["replicas"] == 2 and bot["command"] == ["tycoon", "run"]
    assert web["command"] == ["tycoon", "web"] and web["environment"]["TYCOON_WEB_HOST"] == "0.0.0.0"
    for service in (bot, web):
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgresql://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["TYCOON_WEB_URL"] == "${PUBLIC_URL:?set PUBLIC_URL}", "the Mini App's address"
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
    assert bot["environment"]["TELEGRAM_WEBHOOK_URL"] == "${PUBLIC_URL}/telegram"
    assert bot["environment"]["TYCOON_SERVE_WEB"] == "off" and bot["environment"]["TYCOON_METRICS_PORT"] == "9090"
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    assert set(proxy["depends_on"]) == {"bot", "web"}

    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"^resolver 127\.0\.0\.11 valid=\d+s", nginx, re.M), "replicas looked up again"
    assert not re.search(r"^\s*upstream ", nginx, re.M), "an upstream block resolves its names once"
    assert "set $bots bot:8443;" in nginx and "proxy_pass http://$bots;" in nginx
    assert "set $web web:8080;" in nginx and "proxy_pass http://$web;" in nginx
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx, "table pages' WebSockets pass"
    assert bot["environment"]["PORT"] == "8443" and "8080" in web["expose"]
