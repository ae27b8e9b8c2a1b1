"""Data migrations: a database at an older revision, with rows as the older code wrote them,
brought to head; the games in it then replay exactly as they were played."""

from __future__ import annotations

import json
import time

import pytest
import sqlalchemy as sa
from alembic import command

from engine.core.errors import RuleError
from engine.deal import DEAL
from engine.deal.ai import choose
from engine.service import migrate, store
from engine.service.tables import GameService

SEATS = [{"user": f"u{i}", "name": f"P{i}", "ai": False, "dm": None} for i in range(3)]


async def _upgrade(url: str, revision: str) -> None:
    """``alembic upgrade <revision>`` on the service's own kind of engine (SQLite or PostgreSQL)."""
    engine = store.make_engine(url)

    def run(connection) -> None:
        cfg = migrate.config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)

    try:
        async with engine.begin() as conn:
            await conn.run_sync(run)
    finally:
        await engine.dispose()


async def _write(url: str, tables: list[dict], actions: list[dict]) -> None:
    engine = store.make_engine(url)

    def run(connection) -> None:
        meta = sa.MetaData()
        rows = sa.Table("tables", meta, autoload_with=connection)
        log = sa.Table("actions", meta, autoload_with=connection)
        now = time.time()
        for row in tables:
            connection.execute(rows.insert().values({
                "chat_key": f"chat:{row['id']}", "creator": "u0", "seats": SEATS, "messages": {}, "clocks": {},
                "missed": {}, "version": 0, "snapshot": None, "created_at": now, "updated_at": now, **row}))
        if actions:
            connection.execute(log.insert(), actions)

    try:
        async with engine.begin() as conn:
            await conn.run_sync(run)
    finally:
        await engine.dispose()


async def _options(url: str) -> dict[int, object]:
    engine = store.make_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT id, options FROM tables ORDER BY id"))).all()
    finally:
        await engine.dispose()
    return {i: json.loads(o) if isinstance(o, str) else o for i, o in rows}


def _old_game(seed: int):
    """A Deal game played with the Just Say No windows before 0005 (``open_answers`` off), up to
    the first move the new default would refuse; and its snapshot as the old code stored it."""
    state = DEAL.new_game(3, {"open_answers": False}, seed)
    log = []
    for _ in range(400):
        seat = DEAL.waiting_for(state)[0].seat
        action = choose(state, seat)
        DEAL.apply(state, seat, action)
        log.append((seat, action))
        if state.phase == "over":
            return None
        try:
            DEAL.replay(3, "standard", seed, log)
        except RuleError:
            encoded = json.loads(DEAL.encode_state(state))
            del encoded["options"]["open_answers"]  # the old code's DealOptions had no such field
            return state, log, json.dumps(encoded, separators=(",", ":"))
    return None


async def test_0005_running_deal_tables_keep_the_old_just_say_no_windows(db_url):
    seed, game = next((s, g) for s in range(50) if (g := _old_game(s)) is not None)
    state, log, old_snapshot = game
    await _upgrade(db_url, "0004")
    await _write(db_url, [
        dict(id=1, game="deal", ruleset="standard", status="running", seed=seed, options=None,
             snapshot=old_snapshot, version=len(log)),
        dict(id=2, game="deal", ruleset="tournament", status="paused", seed=2,
             options={"ruleset": "tournament", "match_minutes": 30}),
        dict(id=3, game="deal", ruleset="tournament", status="running", seed=3, options={}),
        dict(id=4, game="deal", ruleset="standard", status="over", seed=4, options={"ruleset": "standard"}),
        dict(id=5, game="board", ruleset="china", status="running", seed=5, options={"ruleset": "china"}),
        dict(id=6, game="deal", ruleset="standard", status="lobby", seed=0, options={}),
    ], [dict(table_id=1, seq=i + 1, seat=seat, action=DEAL.encode_action(action).decode(), at=0.0)
        for i, (seat, action) in enumerate(log)])
    assert (await _options(db_url))[1] is None

    await _upgrade(db_url, "head")
    options = await _options(db_url)
    assert options[1] == {"ruleset": "standard", "open_answers": False}
    assert options[1]["open_answers"] is False
    assert options[2] == {"ruleset": "tournament", "match_minutes": 30, "open_answers": False}
    assert options[3] == {"ruleset": "tournament", "open_answers": False}
    assert options[4] == {"ruleset": "standard"}  # finished: never replayed to play on
    assert options[5] == {"ruleset": "china"}  # not a Deal table
    assert options[6] == {}  # a lobby starts with the new rules

    # without the option the log no longer replays: the new windows would wait for an answer
    with pytest.raises(RuleError):
        DEAL.replay(3, "standard", seed, log)
    service = await GameService.open(db_url)  # start-up rebuilds every table in progress from its log
    try:
        assert service.table(1).status == "running"
        assert DEAL.encode_state(service.state(1)) == DEAL.encode_state(state)
        assert service.state(1).options.open_answers is False
        assert service.state(2).options.open_answers is False and service.state(2).options.match_minutes == 30
        assert service.replay_mismatches == []  # the stored snapshot was given the option too
    finally:
        await service.close()


async def test_0005_downgrade_takes_the_option_out_again(db_url):
    await _upgrade(db_url, "0004")
    await _write(db_url, [
        dict(id=1, game="deal", ruleset="standard", status="running", seed=1, options={"ruleset": "standard"}),
    ], [])
    await _upgrade(db_url, "head")
    assert (await _options(db_url))[1] == {"ruleset": "standard", "open_answers": False}
    engine = store.make_engine(db_url)

    def down(connection) -> None:
        cfg = migrate.config()
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "0004")

    try:
        async with engine.begin() as conn:
            await conn.run_sync(down)
    finally:
        await engine.dispose()
    assert (await _options(db_url))[1] == {"ruleset": "standard"}
