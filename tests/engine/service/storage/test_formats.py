"""Issue 46: a rolling deploy never has a process meet a table it cannot read. A table's format is
fixed when it is made, in the newest version every running process reads (``storage/formats.py``);
a process that meets a newer table leaves it (its presses answered ``service.newer``, its clocks to
the processes that read it). Two services on one SQLite file stand for two processes: one of "the
release before" (reads 1 only) and one of this build (reads 1 to 3, writes 3: from 2 on a Deal match
settles what is in progress at time-out, D-16; 3 may be a slow game, engine/service/pace.py)."""

from __future__ import annotations

import sqlalchemy as sa

from engine.service.storage import formats
from engine.service.tables import GameService


def _release_before(service: GameService) -> None:
    """This service reads and writes format 1 only, as the release before did."""
    service.core.formats.reads = service.core.cache.reads = (1,)
    service.core.formats.newest = 1


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
    _release_before(old)
    await old.core.formats.beat()
    new = await GameService.open(url, lambda: now[0])
    try:
        assert await new.core.formats.beat() == 1, "a process that reads 1 only is running"
        first = await _two_players(new, "chat:1")
        assert await _stored_format(new, first) == 1
        assert "settle_at_time_up" not in new.cache.row(first).options, "format 1 plays by the old D-16"
        await old.close()  # it drains and leaves: it no longer has a say
        old = None
        assert await new.core.formats.beat() == formats.NEWEST
        second = await _two_players(new, "chat:2")
        assert await _stored_format(new, second) == formats.NEWEST
        assert new.cache.state(second).options.settle_at_time_up, "format 2 on settles at time-out (D-16)"

        # a process of the older release serves again (a rollback, or one cut off for a while)
        old = await GameService.open(url, lambda: now[0], lazy=True)  # (loads each table when it needs it)
        _release_before(old)
        await old.core.formats.beat()
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
        assert await _stored_format(new, second) == formats.NEWEST, "a table keeps its format to its end"
    finally:
        for service in (old, new):
            if service is not None:
                await service.close()


def test_tycoon_processes_lists_who_serves_the_database_and_the_format_new_tables_get(tmp_path, monkeypatch,
                                                                                     capsys):
    """The operator's view during a rolling deploy (docs/operations.md): each running process with
    its build and the formats it reads, the format new tables get; a database migrated while
    processes of a build older than the registry may run holds new tables at format 1 until the
    operator says they are gone (``--older-gone``)."""
    import asyncio

    from bot.process.cli import main
    from engine.service.storage import database, keyvalue, migrate

    url = f"sqlite:///{tmp_path / 'p.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("TYCOON_BUILD", "tycoon 2026.12.06-a")

    async def run(step) -> None:
        engine = database.make_db(url)
        try:
            await migrate.upgrade(engine)
            await step(engine)
        finally:
            await engine.dispose()

    asyncio.run(run(lambda engine: formats.Formats(engine, "host:42:abc").beat()))
    assert main(["processes"]) == 0
    out = capsys.readouterr().out
    assert "host:42:abc  tycoon 2026.12.06-a  reads formats 1,2,3" in out, out
    assert "1 process(es) running; new tables are made in format 3" in out, out

    asyncio.run(run(lambda engine: formats.Formats(engine, "host:7:old", reads=(1,), newest=1).beat()))
    assert main(["processes"]) == 0
    assert "2 process(es) running; new tables are made in format 1" in capsys.readouterr().out

    asyncio.run(run(lambda engine: formats.Formats(engine, "host:7:old").leave()))
    asyncio.run(run(lambda engine: keyvalue.set_value(engine, formats.CAP_KEY, "1")))  # as migration 0010 sets it
    assert main(["processes"]) == 0
    out = capsys.readouterr().out
    assert "held at format 1" in out and "new tables are made in format 1" in out, out
    assert main(["processes", "--older-gone"]) == 0
    out = capsys.readouterr().out
    assert "held" not in out.split("\n", 1)[1] and "new tables are made in format 3" in out, out
