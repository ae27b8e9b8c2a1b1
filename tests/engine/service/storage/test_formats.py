"""Issue 46: a rolling deploy never has a process meet a table it cannot read. A table's format is
fixed when it is made, in the newest version every running process reads (``storage/formats.py``);
a process that meets a newer table leaves it (its presses answered ``service.newer``, its clocks to
the processes that read it). Two services on one SQLite file stand for two processes: one of "this
release" (reads 1) and one of "the next" (reads 1 and 2, writes 2)."""

from __future__ import annotations

import sqlalchemy as sa

from engine.service.storage import formats
from engine.service.tables import GameService


def _next_release(service: GameService) -> None:
    """This service reads format 2 as well, and writes it when everyone running reads it."""
    service.core.formats.reads = service.core.cache.reads = (1, 2)
    service.core.formats.newest = 2


async def _stored(service: GameService, table: int, column: str) -> int:
    async with service.db.connect() as conn:
        return (await conn.execute(sa.text(f"SELECT {column} FROM tables WHERE id = :t"), {"t": table})).scalar()


async def _stored_format(service: GameService, table: int) -> int:
    return await _stored(service, table, "format")


async def _two_players(service: GameService, chat: str) -> int:
    out = await service.lobby.new_table(chat, "deal", None, "u0", "Ann")
    assert (await service.lobby.join(out.table, "u1", "Bob")).ok
    assert (await service.lobby.start(out.table, "u0", seed=5)).ok
    return out.table


def test_the_format_agreed_is_the_newest_every_running_process_reads():
    assert formats.agreed((1, 2), 2, []) == 2  # alone
    assert formats.agreed((1, 2), 2, [[1]]) == 1  # an older process runs
    assert formats.agreed((1, 2), 2, [[1, 2], [1, 2, 3]]) == 2
    assert formats.agreed((1, 2, 3), 2, [[1, 2, 3]]) == 2  # never newer than this build writes
    assert formats.agreed((2,), 2, [[1]]) == formats.BASELINE  # nothing shared: the baseline


async def test_a_new_format_waits_for_the_last_process_that_cannot_read_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'formats.db'}"
    now = [1_000_000.0]
    old = await GameService.open(url, lambda: now[0])
    new = await GameService.open(url, lambda: now[0])
    _next_release(new)
    try:
        assert await new.core.formats.beat() == 1, "a process that reads 1 only is running"
        first = await _two_players(new, "chat:1")
        assert await _stored_format(new, first) == 1
        await old.close()  # it drains and leaves: it no longer has a say
        old = None
        assert await new.core.formats.beat() == 2
        second = await _two_players(new, "chat:2")
        assert await _stored_format(new, second) == 2

        # a process of the older release serves again (a rollback, or one cut off for a while)
        old = await GameService.open(url, lambda: now[0])
        assert [p.name for p in await formats.running(new.db)] == [new.core.owner, old.core.owner]
        assert await new.core.formats.beat() == 1, "new tables are made for both again"
        version = new.cache.row(second).version
        ann = new.buttons(second, 0)[0][1]
        refused = await old.act("u0", ann)
        assert not refused.ok and refused.key == "service.newer", refused
        played = await old.act("u0", new.buttons(first, 0)[0][1])  # a table it reads: played as ever
        assert played.ok, played
        now[0] += 3600  # every clock has run out
        await old.sweep()
        assert await _stored(old, second, "version") == version, "its clock is left alone"
        await new.sweep()
        assert await _stored(new, second, "version") > version, "the newer process fires it"
        assert await _stored_format(new, second) == 2, "a table keeps its format to its end"
    finally:
        for service in (old, new):
            if service is not None:
                await service.close()


def test_tycoon_processes_lists_who_serves_the_database_and_the_format_new_tables_get(tmp_path, monkeypatch,
                                                                                     capsys):
    """The operator's view during a rolling deploy (docs/operations.md): each running process with
    its build and the formats it reads; one that stopped cleanly is gone from the list."""
    import asyncio

    from bot.process.cli import main
    from engine.service.storage import database, migrate

    url = f"sqlite:///{tmp_path / 'p.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("TYCOON_BUILD", "tycoon 2026.12.06-a")

    async def register(leave: bool = False) -> None:
        engine = database.make_db(url)
        try:
            await migrate.upgrade(engine)
            said = formats.Formats(engine, "host:42:abc")
            await (said.leave() if leave else said.beat())
        finally:
            await engine.dispose()

    asyncio.run(register())
    assert main(["processes"]) == 0
    out = capsys.readouterr().out
    assert "host:42:abc  tycoon 2026.12.06-a  reads formats 1" in out, out
    assert "1 process(es) running; new tables are made in format 1" in out, out
    asyncio.run(register(leave=True))
    assert main(["processes"]) == 0
    assert "0 process(es) running" in capsys.readouterr().out
