"""``tycoon bench``'s figures for the web table (issue 31): what an update costs on the wire, how long
a tap takes to show, and what the web process keeps after many finished games that people watched.

- ``web_update_bytes_median_<game>``: one player and two AI seats over the table's WebSocket, the
  player pressing what the AI would; the median size of the table messages (the fixed parts, the
  ``atlas``, come once and are not counted).
- ``web_press_to_paint_ms_median``: a headless Chromium plays a Deal table by tapping; from the tap
  to the frame after the page drew the next version (None when Chromium is not installed).
- ``web_memory_growth_mb_<n>_games``: resident memory of this process after ``n`` AI tables, each
  followed to its end by a spectator page's WebSocket, against before them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import tempfile
from pathlib import Path

import aiohttp

from engine.games import GAMES

UPDATE_FIGURES = ("web_update_bytes_median_deal", "web_update_bytes_median_board")


def _resident_mb() -> float:
    """This process's resident memory now (Linux), in MB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def update_sizes(service, address: str, http: aiohttp.ClientSession, game: str, updates: int = 40
                       ) -> tuple[list[int], list[str], list[str]]:
    """One person and two AI seats at a new web table, the person pressing the AI's choice as soon as
    they are asked: the byte sizes of the first ``updates`` table messages, every message's type, and
    the table messages as they came."""
    made = await http.post(address + "/api/tables", json={"name": "Ann", "game": game, "ai": 2},
                           headers={"Origin": address})
    table = (await made.json())["table"]
    sizes, kinds, tables, plug, pressed = [], [], [], GAMES[game], set()
    async with http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address}) as ws:
        await ws.send_str(json.dumps({"type": "lobby", "op": "start"}))
        for _ in range(300):
            if len(sizes) >= updates or (sizes and service.cache.row(table).status != "running"):
                break
            try:
                raw = (await ws.receive(timeout=5)).data
            except TimeoutError:
                raw = None
            if isinstance(raw, str):
                message = json.loads(raw)
                kinds.append(message["type"])
                if message["type"] == "table":
                    sizes.append(len(raw.encode()))
                    tables.append(raw)
                elif message["type"] == "error":  # faster than a person (4 presses a second): again, later
                    pressed.clear()
                    await asyncio.sleep(0.5)
            await service.idle()
            row = service.cache.row(table)
            owing = [d.seat for d in service.cache.waiting_for(table) if not row.seats[d.seat]["ai"]]
            if owing and row.version not in pressed and row.status == "running":
                pressed.add(row.version)
                action = plug.choose_listed(service.cache.state(table), owing[0])
                token = next(tok for a, tok in service.buttons(table, owing[0]) if a == action)
                await ws.send_str(json.dumps({"type": "press", "token": token}))
    await service.lobby.cancel(table, service.cache.row(table).creator, is_admin=True)
    return sizes, kinds, tables


async def press_to_paint(service, address: str, presses: int, profile: Path) -> list[float]:
    """A Deal table against one AI seat, played by taps in headless Chromium: each tap's milliseconds
    to the painted next version (empty when Chromium is not installed)."""
    from tools.headless import TIMED_PRESS, Browser, find_chromium

    binary = find_chromium()
    if binary is None:
        return []
    browser = await Browser.launch(binary, profile)
    times: list[float] = []
    try:
        page = await browser.new_page(390, 844)
        await page.goto(f"{address}/?lang=en")
        table = await page.open_table("Ann", "deal", 1)
        await page.eval("document.querySelector('[data-op=start]').click()")
        await page.wait("document.body.dataset.status === 'running'")
        seat = next(i for i, s in enumerate(service.cache.row(table).seats) if not s["ai"])
        plug = GAMES["deal"]
        for _ in range(presses * 20):
            if len(times) >= presses or service.cache.row(table).status != "running":
                break
            await service.idle()
            if seat not in {d.seat for d in service.cache.waiting_for(table)}:
                await asyncio.sleep(0.01)
                continue
            version = service.cache.row(table).version
            await page.wait(f"Number(document.body.dataset.version) >= {version}")
            action = plug.choose_listed(service.cache.state(table), seat)
            token = next(tok for a, tok in service.buttons(table, seat) if a == action)
            await asyncio.sleep(0.3)  # a person's pace (the page takes 4 presses a second)
            took = await page.eval(f"{TIMED_PRESS}({json.dumps(token)})")
            if took is not None:
                times.append(round(took, 1))
    finally:
        await browser.close()
    return times


async def memory_growth(service, address: str, http: aiohttp.ClientSession, games: int) -> float:
    """MB of resident memory gained over ``games`` AI tables, each watched to its end by a spectator
    page's socket (which then closes, as a tab does)."""
    import gc

    from bot.web.context import watch_path

    gc.collect()
    before = _resident_mb()
    for i in range(games):
        out = await service.lobby.new_table(f"web:bench{i}", "deal" if i % 2 else "board", None, "web:b", "B")
        await service.lobby.add_ai(out.table, "web:b")
        await service.lobby.add_ai(out.table, "web:b")
        await service.lobby.leave(out.table, "web:b")
        key = watch_path(service, out.table).split("k=", 1)[1]
        query = {"watch": key, "lang": ("en", "zh-Hans", "zh-Hant")[i % 3]}  # as the spectator page asks
        async with http.ws_connect(f"{address}/ws/{out.table}", params=query, headers={"Origin": address}) as ws:
            await service.lobby.start(out.table, "web:b", seed=i, turn_cap=30)
            for _ in range(2000):
                await service.idle()
                if service.cache.row(out.table).status != "running":
                    break
                with contextlib.suppress(TimeoutError):
                    await ws.receive(timeout=0.2)
    gc.collect()
    await asyncio.sleep(0.1)
    return _resident_mb() - before


def bench_web(games: int = 50, presses: int = 30) -> dict:
    from bot.web.hub import Hub
    from bot.web.server import make_app, start_site
    from engine.service.tables import GameService

    async def run(tmp: str) -> dict:
        service = await GameService.open(f"sqlite:///{tmp}/web.db")
        runner, address = await start_site(make_app(service, Hub(service, seed=11), lang="en"), "127.0.0.1", 0)
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # an IP's cookies
                await http.get(address + "/")  # the session cookie, as a browser gets it
                out = {}
                for game in ("deal", "board"):
                    sizes, _, _ = await update_sizes(service, address, http, game)
                    out[f"web_update_bytes_median_{game}"] = statistics.median(sizes)
                times = await press_to_paint(service, address, presses, Path(tmp) / "profile")
                out["web_press_to_paint_ms_median"] = statistics.median(times) if times else None
                out["web_press_to_paint_ms_p90"] = (round(statistics.quantiles(times, n=10)[-1], 1)
                                                    if len(times) >= 10 else None)
                out[f"web_memory_growth_mb_{games}_games"] = round(
                    await memory_growth(service, address, http, games), 1)
                return out
        finally:
            await runner.cleanup()
            await service.idle()
            await service.close()

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(tmp))
