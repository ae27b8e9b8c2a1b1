"""Slow games (issue 48): a table whose creator chose a pace of 1, 8 or 24 hours a move, over a faked
clock. Its player owing a move is reminded once, privately, at half their clock; its group hears of
it once a day; one missed clock applies the rules' time-out and nothing else, the second one hands
the seat to the AI; everything holds across a restart and between two processes on one database."""

from __future__ import annotations

import asyncio

import pytest

from engine.games import GAMES
from engine.service import pace
from engine.service.outcome import Outcome
from engine.service.storage import queries
from engine.service.storage.rows import DeadlineRow
from engine.service.tables import GameService
from tests.engine.service.test_service import FakeClock

HALF, DAY = 12 * 3600, 24 * 3600


class Heard:
    """What a service told its subscribers: notices by key, updates by kind."""

    def __init__(self, service: GameService) -> None:
        self.notices: list[Outcome] = []
        self.updates: list = []
        service.subscribe(self.update, self.notice)

    async def update(self, update) -> None:
        self.updates.append(update)

    async def notice(self, outcome: Outcome) -> None:
        self.notices.append(outcome)

    def keys(self, key: str) -> list[Outcome]:
        return [n for n in self.notices if n.key == key]


async def slow_table(service: GameService, hours: int = 24, game: str = "deal", ais: int = 0, seed: int = 8,
                     chat: str = "chat:1") -> int:
    """Ann opens a table of ``hours`` a move, Bob joins (and AI seats), Ann starts it."""
    out = await service.lobby.new_table(chat, game, None, "u0", "Ann")
    assert (await service.lobby.join(out.table, "u1", "Bob")).ok
    for _ in range(ais):
        assert (await service.lobby.add_ai(out.table, "u0")).ok
    assert (await service.lobby.op(out.table, f"p:{hours}", "u0", "Ann")).ok
    assert (await service.lobby.start(out.table, "u0", seed=seed)).ok
    return out.table


async def sweep(*services: GameService, times: int = 3) -> list[Outcome]:
    """Every service sweeps, side by side, a few times; what their clocks did."""
    fired: list[Outcome] = []
    for _ in range(times):
        for batch in await asyncio.gather(*(s.sweep() for s in services)):
            fired += batch
        for s in services:
            await asyncio.wait_for(s.idle(), 20)
    return fired


def owing(service: GameService, table: int) -> int:
    return GAMES[service.cache.row(table).game].rules.waiting_for(service.cache.state(table))[0].seat


async def test_a_24_hour_table_reminds_once_sums_up_once_a_day_and_takes_a_seat_only_at_the_second_miss(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    heard = Heard(service)
    try:
        start = clock.now
        table = await slow_table(service)
        row = service.cache.row(table)
        assert pace.is_slow(row) and row.clocks["turn"] == DAY and row.clocks["pace"] == DAY
        clocks = {c.kind: c.due_at for c in await queries.open_clocks(service.db, table)}
        assert clocks == {"play": start + DAY, "remind:play": start + HALF, "summary": start + DAY}
        first = owing(service, table)

        clock.now = start + HALF - 1
        assert await sweep(service) == [] and heard.notices == []
        clock.now = start + HALF + 1
        await sweep(service, times=5)
        reminders = heard.keys("slow.reminder")
        assert len(reminders) == 1, "one reminder per clock, however often the clocks are swept"
        assert reminders[0].params["seat"] == first and reminders[0].params["due_at"] == start + DAY
        assert reminders[0].params["chat"] == "chat:1"

        clock.now = start + DAY + 1  # the clock runs out: one miss, the time-out only
        await sweep(service, times=5)
        row = service.cache.row(table)
        assert row.status == "running" and not row.seats[first]["ai"] and row.missed == {str(first): 1}
        assert owing(service, table) != first, "the rules' time-out ended the turn"
        notes = [n.key for u in heard.updates for n in u.public.notes]
        assert "service.timed_out" in notes and not any(k.endswith("ai_took_over") for k in notes)
        summaries = heard.keys("slow.summary")
        assert len(summaries) == 1 and summaries[0].params["since"] == 0
        upto = summaries[0].params["upto"]
        assert upto == row.version
        assert await service.slow.events(table, 0, upto), "the day's moves, for the summary's lines"

        # the second player makes their move in time; the first misses a second clock: the AI keeps the seat
        moves = [u for u in heard.updates if u.kind == "moves"]
        other = owing(service, table)
        token = service.buttons(table, other)[0][1]
        assert (await service.act(f"u{other}", token)).ok
        await asyncio.wait_for(service.idle(), 20)
        while owing(service, table) == other:  # their turn goes on until they end it
            assert (await service.act(f"u{other}", service.buttons(table, other)[-1][1])).ok
            await asyncio.wait_for(service.idle(), 20)
        assert len([u for u in heard.updates if u.kind == "moves"]) > len(moves)
        assert owing(service, table) == first
        turn_started = clock.now
        clock.now = turn_started + DAY + 1
        await sweep(service, times=5)
        row = service.cache.row(table)
        assert row.seats[first]["ai"], "the second miss in a row hands the seat to the AI"
        notes = [n.key for u in heard.updates for n in u.public.notes]
        assert "slow.ai_took_over" in notes and "service.ai_took_over" not in notes
        assert len(heard.keys("slow.reminder")) >= 2, "the second clock was reminded too"
        summaries = heard.keys("slow.summary")  # the second day ended too (its summary from the first's end)
        assert [s.params["since"] for s in summaries] == [0, upto], "one summary a day"

        clock.now = start + 3 * DAY - 1
        await sweep(service, times=5)
        assert len(heard.keys("slow.summary")) == 2
        clock.now = start + 3 * DAY + 1
        await sweep(service, times=5)
        assert len(heard.keys("slow.summary")) == 3
    finally:
        await service.close()


async def test_the_reminders_and_summaries_are_set_again_after_a_restart_and_said_once(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    start = clock.now
    table = await slow_table(service)
    await service.close()

    service = await GameService.open(db_url, clock)  # a restart: the clocks are found again
    heard = Heard(service)
    try:
        await service.startup()
        clock.now = start + HALF + 1
        await sweep(service)
        assert len(heard.keys("slow.reminder")) == 1
    finally:
        await service.close()

    service = await GameService.open(db_url, clock)  # restarted after the reminder: not said again
    heard = Heard(service)
    try:
        await service.startup()
        clocks = {c.kind for c in await queries.open_clocks(service.db, table)}
        assert "remind:play" not in clocks and "summary" in clocks
        clock.now = start + HALF + 3600
        await sweep(service)
        assert heard.notices == []
        clock.now = start + DAY - 1
        assert await sweep(service) == []
        clock.now = start + DAY + 1
        await sweep(service, times=5)
        assert len(heard.keys("slow.summary")) == 1
    finally:
        await service.close()

    service = await GameService.open(db_url, clock)  # restarted after the summary: the next one a day on
    heard = Heard(service)
    try:
        await service.startup()
        await sweep(service)
        assert heard.keys("slow.summary") == []
        assert service.cache.row(table).slow["summary_at"] == start + 2 * DAY
    finally:
        await service.close()


async def test_two_processes_on_one_database_remind_and_sum_up_once(pg_url):
    clock = FakeClock()
    first = await GameService.open(pg_url, clock)
    second = await GameService.open(pg_url, clock)
    heard = [Heard(first), Heard(second)]
    try:
        start = clock.now
        table = await slow_table(first)
        await second.startup()
        clock.now = start + HALF + 1
        await sweep(first, second, times=6)
        reminders = [n for h in heard for n in h.keys("slow.reminder")]
        assert len(reminders) == 1, reminders
        # a process whose copy was read before the reminder sets its clock again: it fires, says nothing
        row = first.cache.row(table)
        seat = reminders[0].params["seat"]
        await first.core.insert(DeadlineRow(table_id=table, version=row.version, seat=seat, kind="remind:play",
                                            due_at=clock.now))
        fired = await sweep(first, second, times=3)
        assert "slow.reminded" in [o.key for o in fired]
        assert len([n for h in heard for n in h.keys("slow.reminder")]) == 1
        clock.now = start + DAY + 1
        await sweep(first, second, times=8)
        summaries = [n for h in heard for n in h.keys("slow.summary")]
        assert len(summaries) == 1, summaries
        for service in (first, second):  # both read the table as stored: one miss, no AI
            live = await service.cache.refresh(await service.cache.get(table))
            assert live.row.missed and not any(s["ai"] for s in live.row.seats)
    finally:
        await second.close()
        await first.close()


async def test_a_pace_is_the_creators_choice_before_the_start_and_never_a_timed_match(db_url):
    service = await GameService.open(db_url, FakeClock())
    try:
        # the Deal tournament rule set: a 45-minute match, 10 seconds a card
        out = await service.lobby.new_table("chat:1", "deal", "tournament", "u0", "Ann")
        table = out.table
        assert (await service.lobby.join(table, "u1", "Bob")).ok
        refused = await service.lobby.op(table, "p:24", "u1", "Bob")
        assert not refused.ok and refused.key == "opt.creator_only"
        refused = await service.lobby.op(table, "p:5", "u0", "Ann")  # not a pace on offer (a forged button)
        assert not refused.ok and refused.key == "service.bad_token"
        chosen = await service.lobby.op(table, "p:8", "u0", "Ann")
        assert chosen.ok and chosen.params == {"hours": 8, "match_off": True}
        assert service.cache.row(table).options == {"pace": 8, "match_minutes": 0, "card_seconds": 0}
        timed = await service.lobby.op(table, "m:30", "u0", "Ann")
        assert timed.ok and timed.params == {"minutes": 30, "pace_off": True}
        assert service.cache.row(table).options == {"match_minutes": 30}
        assert (await service.lobby.op(table, "p:1", "u0", "Ann")).ok
        assert (await service.public_view(table)).pace == 3600
        assert (await service.lobby.start(table, "u0", seed=3)).ok
        row, state = service.cache.row(table), service.cache.state(table)
        assert state.options.match_minutes == 0 and state.options.card_seconds == 0
        assert "pace" not in row.options, "the rules know nothing of the pace"
        assert row.clocks["pace"] == 3600 and set(row.clocks.values()) == {3600}
        assert await service.clocks.match_ends_at(table) is None
        assert (await service.public_view(table)).pace == 3600

        back = await service.lobby.new_table("chat:2", "board", None, "u0", "Ann")
        assert (await service.lobby.op(back.table, "p:24", "u0", "Ann")).ok
        assert (await service.lobby.op(back.table, "p:0", "u0", "Ann")).ok  # back to the chat's clocks
        assert (await service.lobby.join(back.table, "u1", "Bob")).ok
        assert (await service.lobby.start(back.table, "u0", seed=3)).ok
        assert not pace.is_slow(service.cache.row(back.table)) and service.cache.row(back.table).slow is None

        tour = await service.lobby.new_table("chat:3#t1", "deal", None, "u0", "Ann")  # a tournament's table
        assert (await service.lobby.op(tour.table, "p:24", "u0", "Ann")).key == "slow.not_here"
        older = await service.lobby.new_table("chat:4", "deal", None, "u0", "Ann")
        service.cache.row(older.table).format = 2  # made while a process of the release before ran
        assert (await service.lobby.op(older.table, "p:24", "u0", "Ann")).key == "slow.needs_update"
    finally:
        await service.close()


@pytest.mark.parametrize("hours, waits", [(24, 2 * DAY), (8, DAY)])
async def test_a_slow_table_whose_people_are_away_waits_at_least_two_paces(tmp_path, hours, waits):
    """The everyone-away pause: a 24-hour game is not abandoned a day after its one person lost their
    seat (two missed clocks, two days), but after two of its paces; an 8-hour game after a day."""
    clock = FakeClock()
    service = await GameService.open(f"sqlite:///{tmp_path / 'away.db'}", clock)
    heard = Heard(service)
    try:
        out = await service.lobby.new_table("chat:1", "deal", None, "u0", "Ann")
        assert (await service.lobby.add_ai(out.table, "u0")).ok
        assert (await service.lobby.op(out.table, f"p:{hours}", "u0", "Ann")).ok
        assert (await service.lobby.start(out.table, "u0", seed=4)).ok
        table = out.table
        for _ in range(12):
            if service.cache.row(table).status != "running":
                break
            clock.now += hours * 3600 + 1
            await sweep(service, times=2)
        assert service.cache.row(table).status == "paused"
        paused_at = clock.now
        notes = [(n.key, n.params) for u in heard.updates for n in u.public.notes]
        assert ("slow.all_away", {"hours": waits // 3600}) in notes
        clock.now = paused_at + waits - 60
        await sweep(service)
        assert (await service.cache.get(table)).row.status == "paused"
        clock.now = paused_at + waits + 60
        await sweep(service)
        assert (await service.cache.get(table)).row.status == "cancelled"
    finally:
        await service.close()
