"""Data migrations: a database at an older revision, with rows as the older code wrote them,
brought to head; the games in it then replay exactly as they were played."""

from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest
import sqlalchemy as sa
from alembic import command

from engine.core.errors import RuleError
from engine.deal import DEAL
from engine.deal.ai import choose
from engine.service.storage import database, migrate
from engine.service.tables import GameService
from tests.conftest import drop_everything
from tests.paths import ROOT

SEATS = [{"user": f"u{i}", "name": f"P{i}", "ai": False, "dm": None} for i in range(3)]
# the standard rules before 0006 (D-14 payment order and banked buildings, D-06 End turn)
PRE_0006 = {"ordered_payment": False, "buildings_to_bank": False, "rearrange_after_last_play": False}
NEW_IN_0006 = ("buildings_to_bank", "rearrange_after_last_play", "rebuild_at_one")


async def _upgrade(url: str, revision: str) -> None:
    """``alembic upgrade <revision>`` on the service's own kind of engine (SQLite or PostgreSQL)."""
    engine = database.make_db(url)

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
    engine = database.make_db(url)

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
    engine = database.make_db(url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT id, options FROM tables ORDER BY id"))).all()
    finally:
        await engine.dispose()
    return {i: json.loads(o) if isinstance(o, str) else o for i, o in rows}


def _log_rows(rules, log) -> list[dict]:
    """Table 1's action log as the ``actions`` rows the service wrote."""
    return [dict(table_id=1, seq=i + 1, seat=seat, action=rules.encode_action(action).decode(), at=0.0)
            for i, (seat, action) in enumerate(log)]


async def _restarts_as_played(url: str, rules, state) -> None:
    """The service's start-up rebuilds table 1 from its log to exactly ``state``: no mismatch with
    the snapshot, nothing set aside as damaged."""
    service = await GameService.open(url)
    try:
        assert rules.encode_state(service.cache.state(1)) == rules.encode_state(state)
        assert service.cache.replay_mismatches == [] and service.cache.damaged == []
    finally:
        await service.close()


def _old_game(seed: int):
    """A Deal game played with the Just Say No windows before 0005 (``open_answers`` off), up to
    the first move the new default would refuse; and its snapshot as the old code stored it."""
    state = DEAL.new_game(3, {"open_answers": False, **PRE_0006}, seed)
    log = []
    for _ in range(400):
        seat = DEAL.waiting_for(state)[0].seat
        action = choose(state, seat)
        DEAL.apply(state, seat, action)
        log.append((seat, action))
        if state.phase == "over":
            return None
        try:
            DEAL.replay(3, {"ruleset": "standard", **PRE_0006}, seed, log)
        except RuleError:
            encoded = json.loads(DEAL.encode_state(state))
            for name in ("open_answers", *NEW_IN_0006):  # the old code's DealOptions had no such fields
                del encoded["options"][name]
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
    ], _log_rows(DEAL, log))
    assert (await _options(db_url))[1] is None

    await _upgrade(db_url, "head")
    options = await _options(db_url)
    assert options[1] == {"ruleset": "standard", "open_answers": False, **PRE_0006}
    assert options[1]["open_answers"] is False
    assert options[2] == {"ruleset": "tournament", "match_minutes": 30, "open_answers": False, "rebuild_at_one": False}
    assert options[3] == {"ruleset": "tournament", "open_answers": False, "rebuild_at_one": False}
    assert options[4] == {"ruleset": "standard"}  # finished: never replayed to play on
    # not a Deal table (0007: no doubles lock; 0009: the old trading rules)
    assert options[5] == {"ruleset": "china", "doubles_lock": False, "received_mortgage_rulings": False}
    assert options[6] == {}  # a lobby starts with the new rules

    # without the option the log no longer replays: the new windows would wait for an answer
    with pytest.raises(RuleError):
        DEAL.replay(3, {"ruleset": "standard", **PRE_0006}, seed, log)
    service = await GameService.open(db_url)  # start-up rebuilds every table in progress from its log
    try:
        assert service.cache.row(1).status == "running"
        assert DEAL.encode_state(service.cache.state(1)) == DEAL.encode_state(state)
        assert service.cache.state(1).options.open_answers is False
        options = service.cache.state(2).options
        assert options.open_answers is False and options.match_minutes == 30
        assert service.cache.replay_mismatches == []  # the stored snapshot was given the option too
    finally:
        await service.close()


async def test_0005_downgrade_takes_the_option_out_again(db_url):
    await _upgrade(db_url, "0004")
    await _write(db_url, [
        dict(id=1, game="deal", ruleset="standard", status="running", seed=1, options={"ruleset": "standard"}),
    ], [])
    await _upgrade(db_url, "head")
    assert (await _options(db_url))[1] == {"ruleset": "standard", "open_answers": False, **PRE_0006}
    engine = database.make_db(db_url)

    def down(connection) -> None:
        cfg = migrate.config()
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "0004")

    try:
        async with engine.begin() as conn:
            await conn.run_sync(down)
    finally:
        await engine.dispose()
    # 0006's new options go too; the old rules know ``ordered_payment`` (off for standard then)
    assert (await _options(db_url))[1] == {"ruleset": "standard", "ordered_payment": False}


async def test_0006_running_deal_tables_keep_the_rules_their_log_was_played_with(db_url):
    """A standard game played before 0006 (payment in any order, no End turn after the last play)
    replays after the upgrade exactly as it was played: its row names the old values."""
    seed, log, state = 4, [], DEAL.new_game(3, {"ruleset": "standard", **PRE_0006}, 4)
    for _ in range(60):
        seat = DEAL.waiting_for(state)[0].seat
        action = choose(state, seat)
        DEAL.apply(state, seat, action)
        log.append((seat, action))
    encoded = json.loads(DEAL.encode_state(state))
    for name in NEW_IN_0006:
        del encoded["options"][name]
    await _upgrade(db_url, "0005")
    await _write(db_url, [
        dict(id=1, game="deal", ruleset="standard", status="running", seed=seed,
             options={"ruleset": "standard", "open_answers": True},
             snapshot=json.dumps(encoded, separators=(",", ":")), version=len(log)),
        dict(id=2, game="deal", ruleset="standard", status="lobby", seed=0, options={}),
    ], _log_rows(DEAL, log))
    await _upgrade(db_url, "head")
    options = await _options(db_url)
    assert options[1] == {"ruleset": "standard", "open_answers": True, **PRE_0006}
    assert options[2] == {}  # a lobby starts with the new rules
    service = await GameService.open(db_url)
    try:
        assert DEAL.encode_state(service.cache.state(1)) == DEAL.encode_state(state)
        assert service.cache.replay_mismatches == []
    finally:
        await service.close()


def _board_game_the_doubles_lock_refuses():
    """A china board game played before 0007 (no doubles lock), up to and including a move the
    lock refuses (a build or lift between a doubles roll and its extra roll)."""
    from engine.games import GAMES

    board, plug = GAMES["board"].rules, GAMES["board"]
    for seed in range(1, 40):
        old = {"ruleset": "china", "doubles_lock": False, "received_mortgage_rulings": False}  # before 0007
        state, log = board.new_game(3, old, seed), []
        while board.waiting_for(state) and len(log) < 4000:
            seat = board.waiting_for(state)[0].seat
            action = plug.choose(state, seat)
            board.apply(state, seat, action)
            log.append((seat, action))
            if len(log) % 25 == 0:
                try:
                    board.replay(3, {**old, "doubles_lock": True}, seed, log)
                except RuleError as e:
                    assert e.rule == "B-02"
                    return seed, log, state
    pytest.fail("no AI game built during a doubles window")


async def test_0007_running_china_board_tables_keep_building_between_doubles(db_url):
    """A board game whose log builds between a doubles roll and its extra roll (allowed before
    0007) replays after the upgrade exactly as it was played: its row turns the lock off."""
    from engine.games import GAMES

    board = GAMES["board"].rules
    seed, log, state = _board_game_the_doubles_lock_refuses()
    encoded = json.loads(board.encode_state(state))
    for name in ("doubles_lock", "rent_claim", "received_mortgage_rulings"):  # the old code's options had none
        encoded["options"].pop(name, None)
    await _upgrade(db_url, "0006")
    await _write(db_url, [
        dict(id=1, game="board", ruleset="china", status="running", seed=seed, options={"ruleset": "china"},
             snapshot=json.dumps(encoded, separators=(",", ":")), version=len(log)),
        dict(id=2, game="board", ruleset="classic", status="running", seed=seed, options={"ruleset": "classic"},
             snapshot=None, version=0),
    ], _log_rows(board, log))
    await _upgrade(db_url, "head")
    options = await _options(db_url)
    assert options[1] == {"ruleset": "china", "doubles_lock": False, "received_mortgage_rulings": False}
    assert options[2] == {"ruleset": "classic", "received_mortgage_rulings": False}  # classic never had the lock
    await _restarts_as_played(db_url, board, state)
    await _upgrade_down(db_url, "0006")
    assert (await _options(db_url))[1] == {"ruleset": "china"}


async def test_0009_running_board_tables_keep_the_old_trading_rules(db_url, monkeypatch):
    """A board game whose log holds a trade the B-15 ruling refuses (its receiver left unable to pay
    the 10 % at once, allowed before 0009) replays after the upgrade exactly as it was played: its
    row turns the rulings off. A lobby's table starts with them."""
    from engine.board import model as m
    from engine.games import GAMES

    board, plug_choice = GAMES["board"].rules, GAMES["board"].choose
    old = {"ruleset": "classic", "received_mortgage_rulings": False}
    state, log = board.new_game(3, old, 9), []  # three seats, as the rows' SEATS

    def play(seat, action):
        board.apply(state, seat, action)
        log.append((seat, action))

    while not any(o in (0, 1, 2) for o in state.owner):  # a deed bought; then mortgaged and traded
        seat = board.waiting_for(state)[0].seat
        play(seat, m.Buy() if state.stage == "buy" else plug_choice(state, seat))
    holder = next(o for o in state.owner if o in (0, 1, 2))
    deed = state.owner.index(holder)
    while board.waiting_for(state)[0].seat != holder or state.stage != "roll":
        seat = board.waiting_for(state)[0].seat
        play(seat, plug_choice(state, seat))
    other = (holder + 1) % 3
    play(holder, m.Mortgage(square=deed))
    play(other, m.ProposeTrade(target=holder, get=(deed,), give_cash=state.players[other].cash))  # 0 left
    play(holder, m.AcceptTrade(trade=state.trades[0].id))
    assert state.owner[deed] == other and state.debts  # the old rules: a debt the trade left behind
    with pytest.raises(RuleError):
        board.replay(3, {"ruleset": "classic"}, 9, log)
    encoded = json.loads(board.encode_state(state))
    encoded["options"].pop("received_mortgage_rulings")  # the old code's options had no such field
    await _upgrade(db_url, "0008")
    await _write(db_url, [
        dict(id=1, game="board", ruleset="classic", status="running", seed=9, options={"ruleset": "classic"},
             snapshot=json.dumps(encoded, separators=(",", ":")), version=len(log)),
        dict(id=2, game="board", ruleset="china", status="lobby", seed=0, options={}),
    ], _log_rows(board, log))
    await _upgrade(db_url, "head")
    options = await _options(db_url)
    assert options[1] == {"ruleset": "classic", "received_mortgage_rulings": False}
    assert options[2] == {}
    await _restarts_as_played(db_url, board, state)
    await _upgrade_down(db_url, "0008")
    assert (await _options(db_url))[1] == {"ruleset": "classic"}


async def _upgrade_down(url: str, revision: str) -> None:
    engine = database.make_db(url)

    def run(connection) -> None:
        cfg = migrate.config()
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)

    try:
        async with engine.begin() as conn:
            await conn.run_sync(run)
    finally:
        await engine.dispose()



@pytest.mark.parametrize("start", [None, "0007"])
async def test_processes_starting_together_on_one_database_migrate_it_one_after_the_other(start, db_url):
    """Three processes opening an empty database at once (a deploy, a compose file starting its
    replicas), or one a few revisions behind (issue 46, on PostgreSQL: "Online migration expected to
    match one row when updating '0007' to '0008'"): each would migrate at the same moment and all
    but one fail; they take turns instead (an advisory lock; on SQLite a lock file) and every one
    opens it."""
    url = db_url
    if start is not None:
        await _upgrade(url, start)
    script = ("import asyncio, sys\n"
              "from engine.service.storage import database, migrate\n"
              "async def main():\n"
              "    db = database.make_db(sys.argv[1])\n"
              "    try:\n"
              "        await migrate.upgrade(db)\n"
              "    finally:\n"
              "        await db.dispose()\n"
              "asyncio.run(main())\n")
    procs = [await asyncio.create_subprocess_exec(sys.executable, "-c", script, url, cwd=ROOT,
                                                  stderr=asyncio.subprocess.PIPE) for _ in range(3)]
    results = [(await p.wait(), (await p.stderr.read()).decode()) for p in procs]
    assert [(code, err[-500:]) for code, err in results if code != 0] == []
    engine = database.make_db(url)
    try:
        async with engine.connect() as conn:
            heads = (await conn.exec_driver_sql("SELECT version_num FROM alembic_version")).scalars().all()
        assert len(heads) == 1 and heads[0] == command_head()  # one head, written once, the newest
    finally:
        await engine.dispose()


def command_head() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(migrate.config()).get_current_head()


async def test_a_database_a_newer_release_migrated_is_served_as_it_is(db_url, caplog):
    """Rolling back, or a process of the previous release restarting mid-deploy: the database is at
    a revision this build does not know, with what that revision added (a column). The process
    starts, says so once, and plays (a release's migrations only add: the next test)."""
    await _upgrade(db_url, "head")
    engine = database.make_db(db_url)
    try:
        async with engine.begin() as conn:
            await conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN later INTEGER NOT NULL DEFAULT 0")
            await conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0099'")
    finally:
        await engine.dispose()
    service = await GameService.open(db_url)
    try:
        out = await service.lobby.new_table("chat:1", "deal", None, "u0", "Ann")
        assert (await service.lobby.join(out.table, "u1", "Bob")).ok
        assert (await service.lobby.start(out.table, "u0", seed=3)).ok
        seat = DEAL.waiting_for(service.cache.state(out.table))[0].seat
        assert (await service.act(f"u{seat}", service.buttons(out.table, seat)[0][1])).ok
    finally:
        await service.close()
    said = [r.getMessage() for r in caplog.records if "newer than this build" in r.getMessage()]
    assert len(said) == 1 and "0099" in said[0], said


# what a migration may not do in ``upgrade`` unless it says which release stopped using it
CONTRACTING = ("drop_column", "drop_table", "drop_index", "rename_table", "new_column_name", "DROP COLUMN",
               "DROP TABLE", "RENAME")


def test_migrations_from_0010_on_only_add_unless_they_say_which_release_stopped_using_what_they_drop():
    """Expand, then contract (docs/operations.md): from 0010 on, a migration's ``upgrade`` that drops
    or renames anything names, in ``CONTRACT``, the release whose code stopped using it, so the
    previous release (still running in a rolling deploy) never loses a column it reads."""
    import ast

    checked = 0
    for path in sorted((migrate.HERE / "versions").glob("*.py")):
        if path.name[:4] < "0010":
            continue
        tree = ast.parse(path.read_text())
        upgrade = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "upgrade")
        body = ast.get_source_segment(path.read_text(), upgrade)
        contract = any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "CONTRACT" for t in n.targets)
                       for n in tree.body)
        found = [word for word in CONTRACTING if word in body]
        assert not found or contract, f"{path.name} drops or renames ({found}) without CONTRACT"
        checked += 1
    assert checked >= 1


async def test_0010_holds_new_tables_at_format_1_on_a_database_older_processes_may_still_serve(db_url):
    """Processes of the build before 0010 register nothing: on a database that already holds
    tables, the migration holds new tables at format 1 (their rules) until the operator says they
    are gone; a new database holds nothing back."""
    from engine.service.storage import formats

    await _upgrade(db_url, "0009")
    await _write(db_url, [dict(id=1, game="deal", ruleset="standard", status="lobby", seed=0, options={})], [])
    await _upgrade(db_url, "head")
    service = await GameService.open(db_url)
    try:
        assert await formats.cap(service.db) == 1
        assert await service.core.formats.beat() == 1
        assert await formats.lift_cap(service.db) and await service.core.formats.beat() == formats.NEWEST
    finally:
        await service.close()
    if db_url.startswith("postgresql"):
        await drop_everything(db_url)
        fresh_url = db_url
    else:
        fresh_url = db_url.replace("tycoon.db", "fresh.db")
    fresh = await GameService.open(fresh_url)
    try:
        assert await formats.cap(fresh.db) is None and fresh.core.formats.for_new() == formats.NEWEST
    finally:
        await fresh.close()
