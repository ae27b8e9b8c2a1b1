"""The service: lobby, the one door for moves, persistence, racing presses, tokens, resuming.

Runs on SQLite always and on PostgreSQL when ``TEST_DATABASE_URL`` is set (CI sets it).
"""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import SQLModel

from engine.games import GAMES
from engine.service import tokens
from engine.service.storage import formats, queries, writer
from engine.service.tables import GameService


async def lobby(service: GameService, game: str = "deal", humans: int = 1, ais: int = 2, seed: int = 7) -> int:
    out = await service.lobby.new_table("chat:1", game, None, "u0", "Ann")
    assert out.ok
    for i in range(1, humans):
        assert (await service.lobby.join(out.table, f"u{i}", f"P{i}")).ok
    for _ in range(ais):
        assert (await service.lobby.add_ai(out.table, "u0")).ok
    assert (await service.lobby.start(out.table, "u0", seed=seed)).ok
    return out.table


async def tables_of_two(service: GameService, count: int, seed: int = 0) -> list[int]:
    """``count`` running Deal tables of Ann and Bob, each in its own chat; their ids."""
    tables = []
    for i in range(count):
        out = await service.lobby.new_table(f"chat:{i}", "deal", None, "u0", "Ann")
        assert (await service.lobby.join(out.table, "u1", "Bob")).ok
        assert (await service.lobby.start(out.table, "u0", seed=seed + i)).ok
        tables.append(out.table)
    return tables


class Busy(Exception):
    """A press the database could not take: the presser was told to press again (issue 46)."""


async def step(service: GameService, table: int) -> bool:
    """One press by the first person who must act (the AI's choice, as a button); the service's
    loop moves the AI seats. False when nobody is left to act."""
    await service.idle()
    if service.cache.row(table) is None:
        await service.cache.get(table)
    rules = GAMES[service.cache.row(table).game].rules
    state = service.cache.state(table)
    decisions = rules.waiting_for(state) if service.cache.row(table).status == "running" else []
    if not decisions:
        return False
    seats = service.cache.row(table).seats
    assert not any(seats[d.seat]["ai"] for d in decisions), "the loop answers for AI seats before anyone else"
    seat = decisions[0].seat
    action = GAMES[rules.name].choose_listed(state, seat)
    token = next(t for a, t in service.buttons(table, seat) if a == action)
    out = await service.act(seats[seat]["user"], token)
    if out.key == "service.busy":
        raise Busy(out)
    assert out.ok, out
    await service.idle()
    return True


async def play_out(service: GameService, table: int, presses: int = 3000) -> None:
    """Press the AI's choice for the first person asked until the game is over (``step`` by step)."""
    for _ in range(presses):
        if not await step(service, table):
            break
    await service.idle()
    assert service.cache.row(table).status == "over"


def direct_run(game: str, players: int, seed: int, ai_seats: set[int] = frozenset()):
    """The same game straight on the rules, no service, no database (AI seats answer first, as
    the service's loop has them do), with the rules of a table the service makes now (its format's)."""
    plug = GAMES[game]
    options = {"ruleset": plug.rules.rulesets[0], **formats.rules_of(game, formats.NEWEST)}
    state = plug.rules.new_game(players, options, seed)
    while decisions := plug.rules.waiting_for(state):
        seat = next((d.seat for d in decisions if d.seat in ai_seats), decisions[0].seat)
        # AI seats play as the loop has them (offers of their own too); people press what is listed
        choose = plug.choose if seat in ai_seats else plug.choose_listed
        plug.rules.apply(state, seat, choose(state, seat))
    return state


async def test_lobby_rules(db_url):
    service = await GameService.open(db_url)
    try:
        out = await service.lobby.new_table("chat:9", "deal", "tournament", "u0", "Ann")
        again = await service.lobby.new_table("chat:9", "board", None, "u5", "Bob")
        assert not again.ok and again.key == "service.table_exists" and again.table == out.table
        assert (await service.lobby.new_table("chat:8", "chess", None, "u0", "Ann")).key == "service.unknown_game"
        assert (await service.lobby.new_table("chat:8", "deal", "blitz", "u0", "Ann")).key == "service.unknown_ruleset"
        assert (await service.lobby.start(out.table, "u0")).key == "service.too_few"
        assert (await service.lobby.join(out.table, "u0", "Ann")).key == "service.already_seated"
        assert (await service.lobby.join(out.table, "u1", "Bob")).ok
        assert (await service.lobby.leave(out.table, "u1")).ok
        assert len(service.cache.row(out.table).seats) == 1
        for _ in range(4):
            assert (await service.lobby.add_ai(out.table, "u0")).ok
        assert (await service.lobby.add_ai(out.table, "u0")).key == "service.table_full"
        assert (await service.lobby.start(out.table, "u0", seed=3)).ok
        assert service.cache.row(out.table).status == "running"
    finally:
        await service.close()


@pytest.mark.parametrize("game", ["deal", "board"])
async def test_a_whole_game_through_the_service_equals_the_rules_alone(db_url, game):
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, game, humans=2, ais=1, seed=11)
        presses = 0
        while await step(service, table):
            presses += 1
        log = await queries.load_log(service.db, table)
        assert service.cache.row(table).status == "over" and service.cache.row(table).version == len(log) > presses > 0
        assert {row.seat for row in log} >= {0, 1, 2}, "people and the AI seat both moved"
        expected = direct_run(game, 3, 11, ai_seats={2})
        assert GAMES[game].rules.encode_state(service.cache.state(table)) == GAMES[game].rules.encode_state(expected)
    finally:
        await service.close()


async def test_kill_and_resume_gives_the_same_game(db_url):
    service = await GameService.open(db_url)
    table = await lobby(service, "deal", humans=1, ais=3, seed=5)
    for _ in range(12):
        await step(service, table)
    version = service.cache.row(table).version
    assert version > 12
    await service.db.dispose()  # the process dies: no goodbye
    resumed = await GameService.open(db_url)
    try:
        assert resumed.cache.replay_mismatches == []
        assert resumed.cache.row(table).version == version
        while await step(resumed, table):
            pass
        expected = direct_run("deal", 4, 5, ai_seats={1, 2, 3})
        rules = GAMES["deal"].rules
        assert rules.encode_state(resumed.cache.state(table)) == rules.encode_state(expected)
    finally:
        await resumed.close()


async def test_racing_presses_apply_exactly_once(db_url):
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "board", humans=2, ais=0, seed=3)
        rules = GAMES["board"].rules
        seat = rules.waiting_for(service.cache.state(table))[0].seat
        user = service.cache.row(table).seats[seat]["user"]
        token = service.buttons(table, seat)[0][1]
        results = await asyncio.gather(*(service.act(user, token) for _ in range(12)))
        assert sum(r.ok for r in results) == 1
        assert {r.key for r in results if not r.ok} == {"service.out_of_date"}
        assert service.cache.row(table).version == 1
    finally:
        await service.close()


async def test_two_processes_on_one_database_cannot_both_apply(db_url):
    first = await GameService.open(db_url)
    table = await lobby(first, "deal", humans=2, ais=0, seed=2)
    second = await GameService.open(db_url)
    try:
        rules = GAMES["deal"].rules
        seat = rules.waiting_for(first.cache.state(table))[0].seat
        user = first.cache.row(table).seats[seat]["user"]
        token = first.buttons(table, seat)[0][1]
        a, b = await asyncio.gather(first.act(user, token), second.act(user, token))
        assert [a.ok, b.ok].count(True) == 1
        assert (a if not a.ok else b).key == "service.out_of_date"
        log = await queries.load_log(first.db, table)
        assert [row.seq for row in log] == [1]
    finally:
        await first.close()
        await second.close()


async def test_stale_foreign_forged_and_garbled_tokens_change_nothing(db_url):
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=4)
        rules = GAMES["deal"].rules
        state = service.cache.state(table)
        seat = rules.waiting_for(state)[0].seat
        other = 1 - seat
        users = [s["user"] for s in service.cache.row(table).seats]
        token = service.buttons(table, seat)[0][1]
        before = rules.encode_state(state)
        assert (await service.act(users[other], token)).key == "service.not_your_button"
        assert (await service.act("stranger", token)).key == "service.not_a_player"
        forged = token[:-1] + ("0" if token[-1] != "0" else "1")
        assert (await service.act(users[seat], forged)).key == "service.bad_token"
        for garbage in ("", "hello", "1.2.3", "a.b.c.d.e", "x" * 200):
            assert (await service.act(users[seat], garbage)).key == "service.bad_token"
        secret = service.keys.secret
        big = tokens.encode(secret, tokens.Token(table, 0, seat, 10_000))
        assert (await service.act(users[seat], big)).key == "service.bad_token"
        elsewhere = tokens.encode(secret, tokens.Token(table + 99, 0, seat, 0))
        assert (await service.act(users[seat], elsewhere)).key == "service.no_table"
        assert rules.encode_state(service.cache.state(table)) == before and service.cache.row(table).version == 0
        assert (await service.act(users[seat], token)).ok
        assert (await service.act(users[seat], token)).key == "service.out_of_date"  # yesterday's button
    finally:
        await service.close()


async def test_a_player_who_leaves_a_running_game_hands_the_seat_to_the_ai(db_url):
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=6)
        assert (await service.lobby.leave(table, "u1")).ok
        assert service.cache.row(table).seats[1]["ai"] is True and service.cache.row(table).status == "running"
        while await step(service, table):
            pass
        assert service.cache.row(table).status == "over"
    finally:
        await service.close()


def test_tokens_fit_telegram_and_round_trip():
    secret = b"k" * 32
    digest = tokens.action_digest(b'{"type":"Bid","amount":120}', 40)
    for tok in (tokens.Token(table=2**40, version=10**6, seat=7, index=500),
                tokens.Token(table=2**40, version=10**6, seat=7, index=500, digest=digest)):
        text = tokens.encode(secret, tok)
        assert len(text.encode()) <= 64 and tokens.decode(secret, text) == tok
        with pytest.raises(tokens.TokenError):
            tokens.decode(b"other" * 8, text)
    assert tokens.encode_all(secret, 2**40, 10**6, 7, [digest]) == [tokens.encode(secret, tokens.Token(
        2**40, 10**6, 7, 0, digest))]
    # the same action in another turn is another choice; a digest changed by hand breaks the MAC
    assert tokens.action_digest(b'{"type":"Bid","amount":120}', 41) != digest
    text = tokens.encode(secret, tokens.Token(1, 2, 0, 0, digest))
    forged = text.replace(digest, "000000" if digest != "000000" else "111111")
    with pytest.raises(tokens.TokenError):
        tokens.decode(secret, forged)


async def test_a_button_from_before_other_players_answered_is_still_the_same_choice(db_url):
    """Issue 44: three people owe an answer at once (a Deal charge on everyone). Bob's button was
    signed before Ann answered (a chat could not edit his screen yet): it is still his same choice,
    so it is applied on the newest state, not refused as out of date. Once Bob himself has moved,
    the old button is refused; so is an old button without the action's digest."""
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "deal", humans=4, ais=0, seed=11)
        rules = GAMES["deal"].rules
        for _ in range(2000):  # play on until at least two people must answer at once
            state = service.cache.state(table)
            seats = sorted({d.seat for d in rules.waiting_for(state)})
            if len(seats) >= 2:
                break
            assert await step(service, table)
        assert len(seats) >= 2, "a charge on everyone comes up"
        users = [s["user"] for s in service.cache.row(table).seats]
        first, second = seats[0], seats[1]
        version = service.cache.row(table).version
        wanted = GAMES["deal"].choose_listed(state, second)
        old_button = next(t for a, t in service.buttons(table, second) if a == wanted)
        index = next(i for i, (a, _) in enumerate(service.buttons(table, second)) if a == wanted)
        undigested = tokens.encode(service.keys.secret, tokens.Token(table, version, second, index))
        answer = GAMES["deal"].choose_listed(state, first)
        assert (await service.act(users[first], next(t for a, t in service.buttons(table, first)
                                                     if a == answer))).ok
        assert service.cache.row(table).version == version + 1
        assert wanted in rules.legal_actions(service.cache.state(table), second), "Bob still has that choice"
        assert (await service.act(users[second], undigested)).key == "service.out_of_date"
        out = await service.act(users[second], old_button)
        assert out.ok, out
        log = await queries.load_log(service.db, table)
        assert log[-1].seat == second and rules.decode_action(log[-1].action.encode()) == wanted
        again = await service.act(users[second], old_button)  # his own move since: refused
        assert again.key == "service.out_of_date"
    finally:
        await service.close()


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_missed_deadline_applies_the_timeout_once(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=8)
        assert await service.sweep() == []  # nothing due yet
        clock.now += 61
        outcomes = await service.sweep()
        assert [o.ok for o in outcomes] == [True] and service.cache.row(table).version == 1
        assert await service.sweep() == []  # it fired once
    finally:
        await service.close()


async def test_three_misses_hand_the_seat_to_the_ai_and_a_press_takes_it_back(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        table = await lobby(service, "board", humans=2, ais=0, seed=9)
        rules = GAMES["board"].rules
        taken = []
        for _ in range(30):
            clock.now += 61
            for outcome in await service.sweep():
                if outcome.key == "service.ai_took_over":
                    taken.append(outcome.params["seat"])
            if taken:
                break
        assert taken, "three misses in a row should hand a seat to the AI"
        seat = taken[0]
        info = service.cache.row(table).seats[seat]
        assert info["ai"] and service.cache.row(table).missed[str(seat)] >= 3
        while not any(d.seat == seat for d in rules.waiting_for(service.cache.state(table))):
            other = rules.waiting_for(service.cache.state(table))[0].seat
            token = service.buttons(table, other)[0][1]
            assert (await service.act(service.cache.row(table).seats[other]["user"], token)).ok
        token = next(t for a, t in service.buttons(table, seat)
                     if a == rules.timeout_action(service.cache.state(table), seat))
        assert (await service.act(info["user"], token)).ok
        assert service.cache.row(table).seats[seat]["ai"] is False and str(seat) not in service.cache.row(table).missed
    finally:
        await service.close()


async def test_clocks_survive_a_restart_and_fire_once_with_two_processes(db_url):
    clock = FakeClock()
    first = await GameService.open(db_url, clock)
    table = await lobby(first, "deal", humans=2, ais=0, seed=12)
    await first.db.dispose()  # killed while a clock runs
    a = await GameService.open(db_url, clock)
    b = await GameService.open(db_url, clock)
    try:
        clock.now += 61
        results = await asyncio.gather(a.sweep(), b.sweep())
        applied = [o for r in results for o in r if o.ok]
        assert len(applied) == 1
        log = await queries.load_log(a.db, table)
        assert [row.seq for row in log] == [1]
    finally:
        await a.close()
        await b.close()


async def test_the_match_clock_ends_the_game_by_valuation(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        out = await service.lobby.new_table("chat:t", "deal", "tournament", "u0", "Ann")
        await service.lobby.add_ai(out.table, "u0")
        await service.lobby.add_ai(out.table, "u0")
        await service.lobby.start(out.table, "u0", seed=4)
        assert service.cache.row(out.table).clocks["card"] == 10  # D-16: ten seconds a card
        clock.now += 44 * 60
        await service.sweep()
        assert service.cache.row(out.table).status == "running"
        clock.now += 2 * 60
        await service.sweep()
        state = service.cache.state(out.table)
        assert service.cache.row(out.table).status == "over" and state.end_reason == "time"
        assert GAMES["deal"].rules.result(state).scores
    finally:
        await service.close()


async def test_finished_games_feed_the_chat_standings(db_url):
    service = await GameService.open(db_url)
    try:
        winners = []
        for seed in (1, 2, 3):
            out = await service.lobby.new_table("chat:s", "deal", None, "u0", "Ann")
            await service.lobby.join(out.table, "u1", "Bob")
            await service.lobby.start(out.table, "u0", seed=seed)
            while await step(service, out.table):
                pass
            winners += GAMES["deal"].rules.result(service.cache.state(out.table)).winners
        table = await service.chats.standings("chat:s")
        assert [e["games"] for e in table] == [3, 3]
        assert sum(e["wins"] for e in table) == len(winners)
        assert table[0]["wins"] >= table[1]["wins"]
        assert await service.chats.standings("chat:other") == []
    finally:
        await service.close()


async def test_chat_settings_set_the_clocks(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        assert (await service.chats.set_settings("chat:c", clocks={"turn": 3})).key == "service.bad_clock"
        assert (await service.chats.set_settings("chat:c", clocks={"turn": 90}, lang="zh-Hant")).ok
        assert (await service.chats.settings("chat:c")).lang == "zh-Hant"
        out = await service.lobby.new_table("chat:c", "board", None, "u0", "Ann")
        await service.lobby.join(out.table, "u1", "Bob")
        await service.lobby.start(out.table, "u0", seed=1)
        assert service.cache.row(out.table).clocks["turn"] == 90
        clock.now += 61
        assert await service.sweep() == []  # 90 s here, not the default 60
        clock.now += 30
        assert [o.ok for o in await service.sweep()] == [True]
    finally:
        await service.close()


async def test_a_scheduled_match_is_announced_starts_with_who_signed_up_and_ends_on_its_clock(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        start_at = clock.now + 3600
        bad = await service.schedules.schedule("chat:m", "admin", "deal", "tournament", clock.now - 5, 45)
        assert bad.key == "service.bad_schedule"
        out = await service.schedules.schedule("chat:m", "admin", "deal", "tournament", start_at, 45, ai_fill=3)
        sid = out.params["schedule"]
        assert (await service.schedules.sign_up(sid, "u1", "Bob")).ok
        assert (await service.schedules.sign_up(sid, "u1", "Bob")).key == "service.already_seated"
        clock.now = start_at - 15 * 60
        notes = await service.sweep()
        assert [n.key for n in notes] == ["service.match_announced"]
        assert (await service.schedules.sign_up(sid, "u2", "Cy")).ok  # still open until the start
        clock.now = start_at
        notes = await service.sweep()
        assert [n.key for n in notes] == ["service.match_started"] and notes[0].ok
        table = notes[0].table
        seats = service.cache.row(table).seats
        assert [s["user"] for s in seats] == ["u1", "u2", "ai:1"]
        assert service.cache.state(table).options.match_minutes == 45
        for _ in range(5):  # people play a little, then the clock runs out
            await service.idle()
            if service.cache.row(table).status != "running":
                break
            clock.now += 11
            await service.sweep()
        clock.now = start_at + 45 * 60 + 1
        await service.sweep()
        assert service.cache.row(table).status == "over"
        assert (await service.chats.standings("chat:m"))[0]["games"] == 1
        # a restart in the middle would have found the same table: the log replays to the snapshot
        resumed = await GameService.open(db_url, clock)
        assert resumed.cache.replay_mismatches == []
        await resumed.close()
    finally:
        await service.close()


async def test_a_scheduled_match_without_enough_players_is_called_off(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        out = await service.schedules.schedule("chat:n", "admin", "board", None, clock.now + 60, 30)
        clock.now += 61
        notes = await service.sweep()
        assert [n.key for n in notes][-1] == "service.schedule_too_few"
        assert await service.lobby.table_in_chat("chat:n") is None
        assert out.ok
    finally:
        await service.close()


async def test_migrations_build_exactly_the_models_schema(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    service = await GameService.open(db_url)  # runs the migrations
    try:
        async with service.db.connect() as conn:
            diff = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), SQLModel.metadata))
        assert diff == []
        again = await GameService.open(db_url)  # a second start finds the schema up to date
        await again.close()
    finally:
        await service.close()


async def test_only_the_creator_or_an_admin_ends_a_game(db_url):
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=1)
        assert (await service.lobby.cancel(table, "u1")).key == "service.not_creator"
        assert (await service.lobby.cancel(table, "u1", is_admin=True)).ok
        assert service.cache.row(table).status == "cancelled"
        assert (await service.lobby.new_table("chat:1", "board", None, "u1", "Bob")).ok  # the chat is free again
    finally:
        await service.close()


async def test_the_clock_task_applies_timeouts_and_lets_ai_seats_answer(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    try:
        table = await lobby(service, "board", humans=1, ais=1, seed=2)
        await service.idle()
        version = service.cache.row(table).version
        clock.now += 61
        stop = asyncio.Event()
        seen: list = []

        async def report(update):
            seen.append(update)
            if any(getattr(e, "seat", None) == 1 for e in update.public.events):  # the AI seat has played too
                stop.set()
            clock.now += 61  # the person never answers

        service.subscribe(report)
        await asyncio.wait_for(service.run(every=0.01, stop=stop), timeout=20)
        assert seen and seen[0].table == table and service.cache.row(table).version > version + 1
        first = seen[0]  # the timeout's update says who must act next, and until when
        asks = first.public.asks
        assert asks and all(a.due_at == 1_000_061 + 60 for a in asks if not a.ai)
    finally:
        await service.close()


async def test_ai_seats_come_and_go_and_message_ids_and_dm_flags_are_kept(db_url):
    service = await GameService.open(db_url)
    try:
        out = await service.lobby.new_table("chat:a", "deal", None, "u0", "Ann")
        assert (await service.lobby.remove_ai(out.table, "u0")).key == "service.no_ai_seat"
        await service.lobby.add_ai(out.table, "u0")
        await service.lobby.add_ai(out.table, "u0")
        assert (await service.lobby.remove_ai(out.table, "u0")).ok
        assert [s["user"] for s in service.cache.row(out.table).seats] == ["u0", "ai:1"]
        await service.lobby.set_messages(out.table, telegram=[-100, 42])
        await service.lobby.set_dm(out.table, "u0", False)
        await service.lobby.start(out.table, "u0", seed=1)
        again = await GameService.open(db_url)
        try:
            row = await again.lobby.table_in_chat("chat:a")
            assert row.messages == {"telegram": [-100, 42]} and row.seats[0]["dm"] is False
        finally:
            await again.close()
    finally:
        await service.close()


async def test_a_failure_inside_the_transaction_loses_nothing(db_url, monkeypatch):
    """The commit fails at random moves: the live copy is dropped, the database stays right, and
    the game ends exactly as an uninterrupted one."""
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "deal", humans=1, ais=2, seed=13)
        real = writer.append_move
        calls = {"n": 0}

        async def flaky(*args, **kwargs):
            calls["n"] += 1
            if calls["n"] % 7 == 3:
                calls["failed"] = calls.get("failed", 0) + 1
                raise ConnectionError("the database went away mid-transaction")
            return await real(*args, **kwargs)

        monkeypatch.setattr(writer, "append_move", flaky)
        failures = 0
        for _ in range(5000):
            if service.cache.row(table) is None:
                await service.cache.get(table)
            if service.cache.row(table).status != "running":
                break
            try:
                if not await step(service, table):
                    break
            except Busy:  # told "the table is busy, press again": nothing changed
                failures += 1
        assert calls["failed"] > 3 and failures >= 1  # presses and the AI seats' moves both hit it
        expected = direct_run("deal", 3, 13, ai_seats={1, 2})
        rules = GAMES["deal"].rules
        assert rules.encode_state(service.cache.state(table)) == rules.encode_state(expected)
    finally:
        await service.close()


async def test_a_reader_never_sees_a_move_whose_commit_is_in_flight(db_url, monkeypatch):
    """Issue 32: while a press's move is being stored, the table's state, whom it waits for and the
    buttons signed for it are the stored ones; the commit fails, and a button signed meanwhile
    is applied as exactly the action it was signed for."""
    service = await GameService.open(db_url)
    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=21)
        await service.idle()
        rules = GAMES["deal"].rules
        seat = rules.waiting_for(service.cache.state(table))[0].seat
        user = service.cache.row(table).seats[seat]["user"]
        stored, waiting, signed = rules.encode_state(service.cache.state(table)), service.cache.waiting_for(table), \
            service.buttons(table, seat)
        started, go = asyncio.Event(), asyncio.Event()

        async def slow_then_failed(*args, **kwargs):
            started.set()
            await go.wait()
            raise ConnectionError("the database went away mid-transaction")

        monkeypatch.setattr(writer, "append_move", slow_then_failed)
        played = next((a, tok) for a, tok in signed if type(a).__name__ != "EndTurn")  # a card played
        press = asyncio.create_task(service.act(user, played[1]))
        await started.wait()
        assert rules.encode_state(service.cache.state(table)) == stored
        assert service.cache.waiting_for(table) == waiting
        during = service.buttons(table, seat)
        assert during == signed
        go.set()
        assert (await press).key == "service.busy"  # told to press again, no traceback
        monkeypatch.undo()
        await service.cache.get(table)
        last = during[-1]  # pressed now, it is the action its button showed
        assert (await service.act(user, last[1])).ok
        log = await queries.load_log(service.db, table)
        assert rules.decode_action(log[-1].action) == last[0]
    finally:
        await service.close()


async def test_rotating_the_secret_refuses_every_button_signed_before(db_url, monkeypatch):
    from bot.process import cli

    service = await GameService.open(db_url)
    table = await lobby(service, "deal", humans=2, ais=0, seed=3)
    seat = GAMES["deal"].rules.waiting_for(service.cache.state(table))[0].seat
    old_move, old_lobby = service.buttons(table, seat)[0][1], service.sign(f"h:{table}")
    await service.close()
    monkeypatch.setenv("DATABASE_URL", db_url)
    await asyncio.to_thread(cli.main, ["rotate-secret"])
    fresh = await GameService.open(db_url)
    try:
        user = fresh.cache.row(table).seats[seat]["user"]
        assert (await fresh.act(user, old_move)).key == "service.bad_token"
        assert fresh.unsign(old_lobby) is None and fresh.unsign(fresh.sign(f"h:{table}")) == f"h:{table}"
        assert (await fresh.act(user, fresh.buttons(table, seat)[0][1])).ok  # the buttons shown anew work
    finally:
        await fresh.close()


async def test_a_press_that_loses_the_race_to_another_player_is_applied_on_the_fresh_state(db_url):
    """Two processes, two players pressing at the same moment between rolls: one move wins the
    version race, the other player's button was current when pressed and their choice is still
    there, so it is applied on the fresh state. Nobody's current button is refused."""
    first = await GameService.open(db_url)
    second = await GameService.open(db_url)
    try:
        table = await lobby(first, "board", humans=3, ais=0, seed=5)
        rules = GAMES["board"].rules
        mortgage = None
        for _ in range(400):  # play on until two players who are not on turn may each mortgage a street
            state = first.cache.state(table)
            if state.stage == "roll":
                current = rules.waiting_for(state)[0].seat
                options = {seat: [a for a in rules.legal_actions(state, seat) if type(a).__name__ == "Mortgage"]
                           for seat in range(3) if seat != current}
                if all(options.values()):
                    mortgage = options
                    break
            assert await step(first, table)
        assert mortgage, "players own streets by now"
        await second.cache.get(table)  # the other process is at the same version
        users = [s["user"] for s in first.cache.row(table).seats]
        (a, acts_a), (b, acts_b) = mortgage.items()
        tok_a = next(t for x, t in first.buttons(table, a) if x == acts_a[0])
        tok_b = next(t for x, t in second.buttons(table, b) if x == acts_b[0])
        version = first.cache.row(table).version
        out_a, out_b = await asyncio.gather(first.act(users[a], tok_a), second.act(users[b], tok_b))
        assert out_a.ok and out_b.ok, (out_a, out_b)
        log = await queries.load_log(first.db, table)
        assert len(log) == version + 2 and {x.seat for x in log[-2:]} == {a, b}
        again = await second.act(users[b], tok_b)  # the same press once more: not applied twice
        assert again.key == "service.out_of_date"
    finally:
        await first.close()
        await second.close()


async def test_on_postgresql_the_other_process_hears_which_table_moved(pg_url):  # LISTEN/NOTIFY
    first = await GameService.open(pg_url)
    second = await GameService.open(pg_url)
    try:
        table = await lobby(first, "deal", humans=2, ais=0, seed=9)
        await second.cache.get(table)
        await second.startup()
        await asyncio.wait_for(second.notices.ready.wait(), 10)  # listening
        version = second.cache.row(table).version
        await step(first, table)  # a move in the other process
        for _ in range(100):
            if second.cache.peek(table) is None:
                break
            await asyncio.sleep(0.05)
        assert second.notices.heard >= 1 and second.cache.peek(table) is None, "the stale copy was dropped"
        assert (await second.cache.get(table)).row.version == first.cache.row(table).version > version  # read again
        await step(second, table)  # its own moves are not news to itself
        await asyncio.sleep(0.2)
        assert second.cache.peek(table) is not None
    finally:
        await first.close()
        await second.close()


async def test_B06_rent_left_unclaimed_is_no_missed_clock(db_url):
    """With rent claiming (B-06 ``rent_claim``) an owner who lets rent go by (its clock runs out)
    is choosing to, not away: three such clocks do not hand the seat to the AI."""
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    rules = GAMES["board"].rules
    try:
        out = await service.lobby.new_table("chat:1", "board", None, "u0", "Ann")
        assert (await service.lobby.join(out.table, "u1", "Bob")).ok
        assert (await service.lobby.start(out.table, "u0", seed=3, options={"rent_claim": True})).ok
        table = out.table
        lapsed: dict[int, int] = {}
        for _ in range(3000):
            await service.idle()
            state = service.cache.state(table)
            decisions = rules.waiting_for(state) if service.cache.row(table).status == "running" else []
            if not decisions or max(lapsed.values(), default=0) >= 3:
                break
            claims = [d for d in decisions if d.kind == "rent"]
            if claims:  # the owner lets it go: only the rent's clock (20 s) runs out, not the turn's (60 s)
                clock.now += 21
                fired = await service.sweep()
                assert fired and all(o.key != "service.ai_took_over" for o in fired)
                lapsed[claims[0].seat] = lapsed.get(claims[0].seat, 0) + 1
                continue
            seat = decisions[0].seat
            action = GAMES["board"].choose_listed(state, seat)
            token = next(t for a, t in service.buttons(table, seat) if a == action)
            assert (await service.act(service.cache.row(table).seats[seat]["user"], token)).ok
        owner = max(lapsed, key=lapsed.get)
        assert lapsed[owner] >= 3, lapsed
        assert service.cache.row(table).seats[owner]["ai"] is False
        assert service.cache.row(table).missed.get(str(owner), 0) == 0
    finally:
        await service.close()
