"""Issue 47: a move a clock made is said as a time-out, in the log every audience reads and to the
player whose time ran out; an offer its target let run out is "not answered in time", not
"declined"."""

from __future__ import annotations

import asyncio

from bot.chat.screens import public_screen
from engine.board.model import Trade, TradeClosed
from engine.games import GAMES
from engine.service.storage import queries
from engine.service.tables import GameService
from tests.engine.service.test_service import FakeClock, lobby
from words import board_text
from words.i18n import t


async def test_a_turn_the_clock_ended_is_said_as_a_time_out_to_everyone_and_to_the_player(tmp_path):
    clock = FakeClock()
    service = await GameService.open(f"sqlite:///{tmp_path / 't.db'}", clock)
    updates = []

    async def seen(update):
        updates.append((update, dict(update.private)))

    try:
        table = await lobby(service, "deal", humans=2, ais=0, seed=8)
        service.subscribe(seen, private=True)
        seat = service.cache.state(table).order[service.cache.state(table).turn_index]
        clock.now += 61  # the turn's minute passes
        await service.sweep()
        await asyncio.wait_for(service.idle(), 10)
        update, private = next((u, p) for u, p in updates if u.public.notes)
        assert [(n.key, n.params) for n in update.public.notes] == [("service.timed_out", {"seat": seat})]
        text = public_screen(update.public, "en", clock.now, pictures=False).text
        assert t("en", "service.timed_out", name=update.public.names[seat]) in text
        assert private[seat].timed_out == [seat] and private[1 - seat].timed_out == [seat]

        updates.clear()  # a move of the player's own is no time-out
        other = 1 - seat
        token = service.buttons(table, other)[0][1]
        assert (await service.act(f"u{other}", token)).ok
        await asyncio.wait_for(service.idle(), 10)
        pressed = [n.key for u, _p in updates for n in u.public.notes]
        assert "service.timed_out" not in pressed
    finally:
        await service.close()


def test_an_offer_its_target_let_run_out_lapsed_it_was_not_declined():
    names = {0: "Ann", 1: "Bob"}
    closed = TradeClosed(trade=3, outcome="rejected", deal=Trade(id=3, proposer=0, target=1, give_cash=100, get=[1]))
    declined = board_text.news_lines([closed], 0, "en", names, "china")
    lapsed = board_text.news_lines([closed], 0, "en", names, "china", timed_out=[1])
    assert declined and "declined" in declined[0]
    assert lapsed and "did not answer" in lapsed[0] and "declined" not in lapsed[0]
    assert board_text.news_lines([closed], 1, "en", names, "china", timed_out=[1]) == []  # the target knows


async def _decision_clocks(service: GameService, table: int) -> dict:
    """The table's pending decision clocks as stored: (seat, kind) -> when each runs out."""
    return {(c.seat, c.kind): c.due_at for c in await queries.open_clocks(service.db, table) if c.kind != "match"}


async def test_a_40_second_downtime_leaves_the_acting_player_the_time_they_had(tmp_path):
    """The whole service is down for 40 s (every process stopped): the first process back moves the
    pending decision clocks on by the downtime, once, so the player whose turn it is keeps the
    time they had; the chats and the web page read those clocks. A restart of a few seconds moves
    nothing."""
    import time

    import sqlalchemy as sa

    from engine.service.storage import downtime

    url = f"sqlite:///{tmp_path / 'down.db'}"
    clock = FakeClock()
    service = await GameService.open(url, clock)
    table = await lobby(service, "deal", humans=2, ais=0, seed=8)
    due = await _decision_clocks(service, table)
    await service.close()

    async def last_seen(seconds_ago: float) -> None:
        engine = sa.ext.asyncio.create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'down.db'}")
        async with engine.begin() as conn:
            await downtime.note_seen(conn, time.time() - seconds_ago)
        await engine.dispose()

    await last_seen(3)  # a quick restart: nothing moves
    service = await GameService.open(url, clock)
    try:
        assert await _decision_clocks(service, table) == due
    finally:
        await service.close()

    await last_seen(40)  # the whole service was down for 40 s
    service = await GameService.open(url, clock)
    second = await GameService.open(url, clock)  # a second process starting just after: no second move
    try:
        moved = await _decision_clocks(service, table)
        assert moved.keys() == due.keys()
        assert all(40 <= moved[k] - due[k] < 45 for k in due), (moved, due)
        clock.now = max(due.values()) + 1  # when the turn would have timed out without the downtime
        assert await service.sweep() == [] and await second.sweep() == []
        clock.now = max(moved.values()) + 1
        assert [o.table for o in await service.sweep()] == [table]
    finally:
        await second.close()
        await service.close()


async def _until_everyone_is_away(service: GameService, clock: FakeClock, table: int) -> None:
    """The only person misses their clocks until the AI keeps their seat."""
    for _ in range(12):
        if service.cache.row(table).status != "running":
            return
        clock.now += 61
        await service.sweep()
        await asyncio.wait_for(service.idle(), 10)
    raise AssertionError("the AI never took the seat")


async def _results(service: GameService) -> list:
    import sqlalchemy as sa

    async with service.db.connect() as conn:
        return (await conn.execute(sa.text("SELECT table_id FROM results"))).all()


async def test_a_table_whose_people_are_all_away_pauses_and_ends_unplayed_counting_nowhere(tmp_path):
    """Issue 47: the AI took the only person's seat and finished the game in seconds, "winning" it
    for someone absent. Now the table pauses (said in the chat), nothing moves however long it waits,
    and after a day with nobody back it ends unplayed: no result, so no standings."""
    clock = FakeClock()
    service = await GameService.open(f"sqlite:///{tmp_path / 'away.db'}", clock)
    notes = []

    async def seen(update):
        notes.extend(n.key for n in (update.public.notes if update.public else []))

    try:
        table = await lobby(service, "deal", humans=1, ais=1, seed=4)
        service.subscribe(seen)
        await _until_everyone_is_away(service, clock, table)
        assert service.cache.row(table).status == "paused" and service.cache.row(table).seats[0]["ai"]
        assert "service.ai_took_over" in notes and notes[-1] == "service.all_away"
        version = service.cache.row(table).version
        for _ in range(5):  # hours pass: no machine-speed game
            clock.now += 3600
            await service.sweep()
            await asyncio.wait_for(service.idle(), 10)
        assert service.cache.row(table).version == version
        clock.now += 24 * 3600
        await service.sweep()
        await asyncio.wait_for(service.idle(), 10)
        row = (await service.cache.get(table)).row
        assert row.status == "cancelled" and row.version == version and "service.abandoned" in notes
        assert await _results(service) == [], "an abandoned game counts in no standings"
    finally:
        await service.close()


async def test_a_player_who_comes_back_to_a_paused_table_plays_on(tmp_path):
    clock = FakeClock()
    service = await GameService.open(f"sqlite:///{tmp_path / 'back.db'}", clock)
    try:
        table = await lobby(service, "deal", humans=1, ais=1, seed=4)
        await _until_everyone_is_away(service, clock, table)
        clock.now += 3 * 3600
        assert (await service.lobby.back(table, "u0")).ok
        await asyncio.wait_for(service.idle(), 10)
        row = service.cache.row(table)
        assert row.status == "running" and not row.seats[0]["ai"]
        clocks = await queries.open_clocks(service.db, table)
        assert clocks and all(c.status == "pending" and c.kind != "abandon" for c in clocks)
        seat = GAMES["deal"].rules.waiting_for(service.cache.state(table))[0].seat
        if seat == 0:  # their turn: a press plays
            assert (await service.act("u0", service.buttons(table, 0)[0][1])).ok
        else:  # the AI's turn: it answers at once, as before the pause
            await asyncio.wait_for(service.idle(), 10)
            assert service.cache.row(table).version > row.version
    finally:
        await service.close()
