"""Issue 48: a rematch's lobby is set up like the ended game on every platform
(``Lobby.set_up_like``): its rule options, AI seats of the same levels, its timed match, the pace
of a slow game."""

from __future__ import annotations

import asyncio

from bot.chat import option_screens
from engine.service.tables import GameService
from tests.engine.service.test_service import step


async def _ended(service: GameService, chat: str, game: str, choose) -> int:
    out = await service.lobby.new_table(chat, game, None, "u0", "Ann")
    assert (await service.lobby.join(out.table, "u1", "Bob")).ok
    assert (await service.lobby.add_ai(out.table, "u0", "strong")).ok
    await choose(out.table)
    assert (await service.lobby.start(out.table, "u0", seed=3, turn_cap=1)).ok  # ended by valuation soon
    while await step(service, out.table):
        pass
    await asyncio.wait_for(service.idle(), 60)
    assert service.cache.row(out.table).status == "over"
    return out.table


async def _rematch(service: GameService, table: int, chat: str):
    ended = await service.public_view(table)
    opened = await service.lobby.new_table(chat, ended.game, ended.ruleset, "u1", "Bob",
                                           options=option_screens.values(ended))
    assert opened.ok
    await service.lobby.set_up_like(opened.table, ended, "u1", "Bob")
    return ended, await service.public_view(opened.table)


async def test_a_rematch_keeps_the_timed_match_the_options_and_the_ai_levels(db_url):
    service = await GameService.open(db_url)
    try:
        async def timed(table):
            assert (await service.lobby.set_match(table, "u0", 60)).ok
            assert (await service.lobby.toggle_option(table, "u0", "pot")).ok

        table = await _ended(service, "tg:9", "board", timed)
        ended, lobby = await _rematch(service, table, "tg:9")
        assert lobby.options.get("match_minutes") == 60
        assert option_screens.values(lobby) == option_screens.values(ended) and option_screens.values(lobby)[
            "free_parking_pot"]
        assert [(s.person, s.level) for s in lobby.seats] == [(True, None), (False, "strong")]
    finally:
        await service.close()


async def test_a_rematch_of_a_slow_game_is_slow(db_url):
    service = await GameService.open(db_url)
    try:
        async def slow(table):
            assert (await service.lobby.set_pace(table, "u0", 24)).ok

        table = await _ended(service, "tg:8", "deal", slow)
        ended, lobby = await _rematch(service, table, "tg:8")
        assert ended.pace == 24 * 3600
        assert lobby.options.get("pace") == 24, lobby.options
    finally:
        await service.close()
