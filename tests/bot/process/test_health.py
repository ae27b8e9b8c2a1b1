"""What an operator reads: ``/healthz`` (healthy once the clock task has swept), ``/metrics``
(Prometheus' text format: moves, refusals, clock lateness, database errors, send failures per
platform, open tables, and the process's own), and one structured log line per request and per
refused press. Over real HTTP, on the web table's server and on the metrics port of a process that
has only chat bots."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import aiohttp

from bot.process import health
from bot.web.server import make_app, start_site
from engine.games import GAMES
from engine.service.tables import GameService

SERIES = ("tycoon_moves_total", "tycoon_refusals_total", "tycoon_clock_lateness_seconds_bucket",
          "tycoon_database_errors_total", "tycoon_send_failures_total", "tycoon_tables_open",
          "tycoon_last_sweep_timestamp_seconds", "process_resident_memory_bytes")


def _value(text: str, name: str, **labels: str) -> float:
    """The value of one series in Prometheus' text format (0 when it is not there)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    pattern = rf"^{re.escape(name)}(?:\{{{re.escape(wanted)}\}})? ([0-9.e+-]+)$" if wanted else \
        rf"^{re.escape(name)} ([0-9.e+-]+)$"
    found = re.search(pattern, text, re.M)
    return float(found.group(1)) if found else 0.0


async def _play(service: GameService, table: int, moves: int) -> None:
    for _ in range(moves):
        decision = GAMES["deal"].rules.waiting_for(service.cache.state(table))[0]
        wanted = GAMES["deal"].choose_listed(service.cache.state(table), decision.seat)
        token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
        assert (await service.act(f"web:{decision.seat + 1}", token)).ok
        await service.idle()


async def test_healthz_and_metrics_on_the_web_table(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    service = await GameService.open(f"sqlite:///{tmp_path / 'h.db'}")
    stop = asyncio.Event()
    runner, address = await start_site(make_app(service, lang="en"), "127.0.0.1", 0)
    clock = None
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{address}/healthz") as r:
                assert r.status == 503, "no sweep yet: not healthy"
            before = await (await http.get(f"{address}/metrics")).text()
            clock = asyncio.create_task(service.run(stop=stop, heartbeat=str(tmp_path / "beat")))
            for _ in range(400):
                if service.health.swept_at is not None:
                    break
                await asyncio.sleep(0.02)
            async with http.get(f"{address}/healthz") as r:
                said = await r.json()
                assert r.status == 200 and said["ok"] is True and said["database"] == "ok", said
            service.health.refused_at = time.monotonic()  # the newest move was refused (a locked or full disk)
            async with http.get(f"{address}/healthz") as r:
                assert r.status == 503 and (await r.json())["database"] == "refusing writes"
            service.health.refused_at = float("-inf")

            out = await service.lobby.new_table("web:abc", "deal", None, "web:1", "Ann")
            await service.lobby.join(out.table, "web:2", "Bob")
            await service.lobby.start(out.table, "web:1", seed=3)
            await _play(service, out.table, 3)
            assert not (await service.act("web:9", "garbled")).ok  # a refusal, counted by its reason
            async with http.get(f"{address}/metrics") as r:
                assert r.status == 200 and r.headers["Content-Type"].startswith("text/plain")
                text = await r.text()
        for name in SERIES:
            assert re.search(rf"^{name}", text, re.M), name
        moved = _value(text, "tycoon_moves_total", game="deal", by="person") - \
            _value(before, "tycoon_moves_total", game="deal", by="person")
        assert moved == 3
        refused = _value(text, "tycoon_refusals_total", reason="service.bad_token") - \
            _value(before, "tycoon_refusals_total", reason="service.bad_token")
        assert refused == 1
        assert _value(text, "tycoon_send_failures_total", platform="telegram") >= 0  # shown from the start
        access = [r.getMessage() for r in caplog.records if r.name == "bot.access"]
        assert any(line.startswith("method=GET path=/healthz status=503") for line in access), access[:3]
        assert any("reason=service.bad_token" in r.getMessage() for r in caplog.records
                   if r.name == "engine.service.tables")
    finally:
        stop.set()
        if clock is not None:
            await clock
        await runner.cleanup()
        await service.close()


async def test_a_process_with_only_chat_bots_serves_them_on_the_metrics_port(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'm.db'}")
    runner = await health.start(service, "127.0.0.1", 0)
    try:
        port = runner.addresses[0][1]
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/metrics") as r:
                assert r.status == 200 and "tycoon_moves_total" in await r.text()
            async with http.get(f"http://127.0.0.1:{port}/") as r:
                assert r.status == 404, "nothing else there"
    finally:
        await runner.cleanup()
        await service.close()
