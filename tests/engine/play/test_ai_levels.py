"""AI seats at three strengths (``engine.games.LEVELS``): chosen per seat in a chat's lobby, on the
web and on the command line, listed with their level, and played by the service at that level."""

from __future__ import annotations

import json
import threading

import aiohttp
import pytest

from bot.web.hub import Hub
from bot.web.server import make_app, start_site
from engine.games import GAMES
from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI, _app, _send, command, press, shown_now
from tests.engine.service.test_service import play_out


def _recording(monkeypatch, game: str) -> dict[str, list]:
    """Each level's policy wrapped to note the seats and threads it played for (the strong one
    plays as the heuristic here: the suite's time)."""
    plug = GAMES[game]
    calls: dict[str, list] = {"basic": [], "strong": []}

    def wrap(level, inner):
        def policy(state, seat):
            calls[level].append((seat, threading.current_thread() is threading.main_thread()))
            return inner(state, seat)
        return policy

    monkeypatch.setitem(plug.policies, "basic", wrap("basic", plug.policies["basic"]))
    monkeypatch.setitem(plug.policies, "strong", wrap("strong", plug.choose))
    return calls


async def test_a_telegram_lobby_adds_ai_seats_of_each_level_and_lists_them(tmp_path, monkeypatch):
    calls = _recording(monkeypatch, "deal")
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="zh-Hans", seed=0)
    try:
        async with app:
            await _send(app, command("/newgame deal", 1))
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            assert {f"l:{table}:ai:basic", f"l:{table}:ai", f"l:{table}:ai:strong"} <= set(shown_now(api, GROUP))
            await _send(app, press(f"l:{table}:ai:strong", 1))
            await _send(app, press(f"l:{table}:ai:basic", 1))
            await _send(app, press(f"l:{table}:ai", 1))
            assert [s.get("level") for s in service.cache.row(table).seats] == [None, "strong", "basic", "ai"]
            lobby = [p.get("text", "") for name, p in api.calls if name in ("sendMessage", "editMessageText")
                     and "AI 3" in p.get("text", "")][-1]
            assert "AI 1（高手）" in lobby and "AI 2（简单）" in lobby and "AI 3（普通）" in lobby
            assert (await service.lobby.op(table, "ai:genius", "tg:1", "Ann")).key == "service.bad_token"
            await _send(app, press(f"l:{table}:start", 1))
            await play_out(service, table)
    finally:
        await service.close()
    assert {seat for seat, _ in calls["strong"]} == {1} and {seat for seat, _ in calls["basic"]} == {2}
    # the search runs beside the event loop, so other tables and presses go on meanwhile
    assert not any(main for _, main in calls["strong"]) and all(main for _, main in calls["basic"])


async def test_an_unknown_level_is_refused_with_the_levels_to_choose_from(db_url):
    service = await GameService.open(db_url)
    try:
        out = await service.lobby.new_table("chat:1", "board", None, "u0", "Ann")
        refused = await service.lobby.add_ai(out.table, "u0", "genius")
        assert (refused.ok, refused.key, refused.params) == (False, "service.bad_ai_level",
                                                             {"choices": "basic, ai, strong"})
        assert len(service.cache.row(out.table).seats) == 1
    finally:
        await service.close()


@pytest.mark.parametrize("level, ok", [("strong", True), ("genius", False)])
async def test_the_web_front_page_opens_a_table_with_ai_seats_of_a_level(tmp_path, level, ok):
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    runner, address = await start_site(make_app(service, Hub(service), lang="en"), "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            await http.get(address + "/")  # the session cookie
            made = await http.post(address + "/api/tables", headers={"Origin": address},
                                   json={"name": "Ann", "game": "deal", "ai": 2, "level": level})
            body = await made.json()
        if ok:
            assert made.status == 200
            assert [s.get("level") for s in service.cache.row(body["table"]).seats] == [None, "strong", "strong"]
        else:
            assert made.status == 400 and "basic, ai, strong" in body["error"]
    finally:
        await runner.cleanup()
        await service.close()


def test_play_takes_the_ai_level_of_its_seats(tmp_path, monkeypatch):
    from bot.console.frontend import run_console

    calls = _recording(monkeypatch, "deal")
    out: list[str] = []
    code = run_console("deal", 2, 2, 5, "en", db=str(tmp_path / "c.db"), output=out.append,
                       input_fn=lambda _prompt: "", ai_level="basic", clock=lambda: 0.0)
    assert code == 0
    assert {seat for seat, _ in calls["basic"]} == {0, 1} and calls["strong"] == []


def test_a_web_page_may_ask_for_an_ai_seat_of_each_level_and_nothing_else():
    from bot.web.messages import parse_message

    for op in ("ai", "ai:basic", "ai:strong"):
        assert parse_message(json.dumps({"type": "lobby", "op": op, "name": "Ann"})) == (
            {"type": "lobby", "op": op, "name": "Ann"}, None)
    assert parse_message(json.dumps({"type": "lobby", "op": "ai:genius"})) == (None, "web.err.malformed")
