"""``engine.service.seated``: the open and running tables a person sits at, on SQLite and PostgreSQL
(its seats are a JSON column, matched as text first)."""

from __future__ import annotations

from engine.service.seated import tables_of
from engine.service.tables import GameService


async def test_the_tables_a_person_sits_at_newest_first_and_no_one_elses(db_url):
    service = await GameService.open(db_url, lazy=False)
    try:
        lobby = service.lobby
        first = (await lobby.new_table("tg:-1", "deal", None, "tg:12", "Ann")).table
        second = (await lobby.new_table("tg:-2", "board", None, "tg:123", "Bob")).table  # an id that extends hers
        await lobby.join(second, "tg:12", "Ann")
        third = (await lobby.new_table("tg:-3", "deal", None, "tg:99", "Cy")).table
        await lobby.join(third, "tg:12", "Ann")
        await lobby.join(third, "tg:123", "Bob")
        await lobby.op(third, "start", "tg:99", "Cy")
        ended = (await lobby.new_table("tg:-4", "deal", None, "tg:12", "Ann")).table
        await lobby.cancel(ended, "tg:12")
        assert service.cache.row(third).status == "running"
        assert [row.id for row in await tables_of(service.db, "tg:12")] == [third, second, first]
        assert [row.id for row in await tables_of(service.db, "tg:123")] == [third, second]
        assert [row.id for row in await tables_of(service.db, "tg:1")] == []  # a prefix of hers matches nothing
        assert [row.id for row in await tables_of(service.db, "tg:12", limit=1)] == [third]
        assert await tables_of(service.db, "tg:%") == [] and await tables_of(service.db, "tg:_2") == []
    finally:
        await service.close()
