"""A part of the service stands on the core alone: built over a temporary SQLite file with only the
collaborators it names, no ``GameService`` around it (boardgame.io's ``Master`` from its ports)."""

from __future__ import annotations

from engine.games import GAMES
from engine.service.chats import Chats
from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.lobby import Lobby
from engine.service.storage import database, migrate, queries


async def test_a_lobby_and_a_move_on_a_core_over_a_temporary_database(tmp_path):
    db = database.make_db(f"sqlite:///{tmp_path / 'core.db'}")
    try:
        await migrate.upgrade(db)
        core = Core(db, clock=lambda: 1_000.0)
        core.keys.secret = await database.secret(db)
        woken: list[int] = []
        core.outbox.wake = woken.append  # no loop: the part says a table needs settling, nothing more
        clocks = Clocks(core)
        lobby = Lobby(core, clocks, Chats(db))
        out = await lobby.new_table("x:1", "deal", None, "u0", "Ann")
        assert out.ok and (await lobby.join(out.table, "u1", "Bob")).ok
        assert (await lobby.start(out.table, "u0", seed=3)).ok
        live = await core.cache.get(out.table)
        seat = GAMES["deal"].rules.waiting_for(live.state)[0].seat
        action = GAMES["deal"].choose_listed(live.state, seat)
        async with core.cache.lock(out.table):
            moved = await core.apply(live, seat, action)
        assert moved.ok and moved.version == 1 and out.table in woken
        assert [e.seq for e in await queries.load_log(db, out.table)] == [1]  # stored before it was told
        assert {c.seat for c in await queries.open_clocks(db, out.table)} == {
            d.seat for d in GAMES["deal"].rules.waiting_for(live.state)}  # the new state's clocks, set with it
        refused = await core.apply(live, seat, action)  # the same move again: the rules refuse it
        assert not refused.ok and refused.rule and (await core.cache.get(out.table)).row.version == 1
    finally:
        await db.dispose()
