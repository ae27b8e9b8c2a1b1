"""A slow game's pace chosen on the web lobby (issue 48): the lobby tells every page the pace and the
choices, its creator picks one (a timed match then goes off), and the started game runs at it."""

from __future__ import annotations

import json

from tests.bot.web.test_web import site  # noqa: F401 (the fixture)


async def test_the_creator_makes_a_web_table_a_slow_game_from_the_lobby(site):  # noqa: F811
    service, address, http = site
    made = await http.post(address + "/api/tables", json={"name": "Ann", "game": "board", "ai": 1},
                           headers={"Origin": address})
    table = (await made.json())["table"]
    ws = await http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
    lobby = json.loads((await ws.receive()).data)
    assert lobby["pace"] == {"hours": 0, "choices": [0, 1, 8, 24]}
    await ws.send_str(json.dumps({"type": "lobby", "op": "p:5"}))
    assert json.loads((await ws.receive()).data)["type"] == "error"  # not a pace on offer
    await ws.send_str(json.dumps({"type": "lobby", "op": "p:999"}))
    assert json.loads((await ws.receive()).data)["type"] == "error"  # malformed
    await ws.send_str(json.dumps({"type": "lobby", "op": "m:30"}))
    assert json.loads((await ws.receive()).data)["match"]["minutes"] == 30
    await ws.send_str(json.dumps({"type": "lobby", "op": "p:8"}))
    lobby = json.loads((await ws.receive()).data)
    assert lobby["pace"]["hours"] == 8 and lobby["match"]["minutes"] == 0, "a slow game is no timed match"
    await ws.send_str(json.dumps({"type": "lobby", "op": "start"}))
    while json.loads((await ws.receive()).data)["type"] != "table":
        pass
    row = service.cache.row(table)
    assert row.clocks["pace"] == 8 * 3600 and row.clocks["turn"] == 8 * 3600
    await ws.close()
