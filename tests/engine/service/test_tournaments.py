"""Tournaments: a whole team tournament on a simulated clock, several tables of a round at once, a
restart in the middle of a round, the admin's tools and who may do what.

SQLite only (the tournament tables ride on the service the other tests cover on PostgreSQL too).
"""

from __future__ import annotations

import pytest
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.games import GAMES
from engine.service.storage import queries
from engine.service.storage.rows import DeadlineRow, TableRow
from engine.service.tables import GameService
from engine.service.tournaments import draw, places, table_sizes
from tests.engine.service.test_service import FakeClock, step

CHAT = "chat:tour"


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'tour.db'}"


async def play(service: GameService, table: int, moves: int) -> None:
    """Up to ``moves`` moves while the table runs (people press the AI's choice as a button)."""
    for _ in range(moves):
        if service.cache.row(table).status != "running" or not await step(service, table):
            return


async def start_round(service: GameService, clock: FakeClock, at: float) -> list:
    clock.now = at
    notes = [n for n in await service.sweep() if n.key == "tour.round_started"]
    assert len(notes) == 1, notes
    return notes[0].params["tables"]


def test_balanced_tables_shared_places_and_a_reproducible_draw():
    assert table_sizes(7, 5) == [4, 3] and table_sizes(9, 8) == [5, 4] and table_sizes(11, 5) == [4, 4, 3]
    assert table_sizes(5, 5) == [5] and table_sizes(16, 8) == [8, 8]
    assert places([10, 7, 7, 3]) == [1, 2, 2, 4]  # seed 004: equal points share, the next place is skipped
    assert places([(3, 50), (3, 50), (3, 40), (1, 90)]) == [1, 1, 3, 4]
    first = draw(42, 1, list(range(1, 10)), 5)
    assert first == draw(42, 1, list(range(9, 0, -1)), 5)  # the order of sign-up does not matter
    assert sorted(e for t in first for e in t) == list(range(1, 10))
    assert [len(t) for t in first] == [5, 4]
    assert draw(42, 2, list(range(1, 10)), 5) != first  # each round a new draw


async def test_a_whole_team_tournament_with_representatives_corrections_and_shared_places(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 3600
        out = await tours.create(CHAT, "admin", True, "deal", "tournament", starts_at=start, rounds=6, mode="team",
                                 match_minutes=10, every_minutes=15, name="Cup", seed=5)
        assert out.ok, out
        tid = out.params["tournament"]
        teams = {}
        for letter in "ABCD":
            made = await tours.create_team(tid, f"{letter}1", f"{letter}-cap", f"Team {letter}")
            assert made.ok, made
            teams[letter] = made.params["team"]
            assert (await tours.join_team(tid, teams[letter], f"{letter}2", f"{letter}-two")).ok
        # the second members play matches 2 and 4 for their team; the rest falls to the captain
        for letter in "ABCD":
            for match in (2, 4):
                assert (await tours.name_representative(tid, f"{letter}1", teams[letter], match, f"{letter}2")).ok
        team_of = {f"{x}{i}": x for x in "ABCD" for i in (1, 2)}
        expected_points = dict.fromkeys("ABCD", 0)
        at = start
        for match in range(1, 7):
            tables = await start_round(service, clock, at)
            assert len(tables) == 1  # four teams, one representative each: one table of four
            table = tables[0]
            row = service.cache.row(table)
            assert row.chat_key == f"{CHAT}#t{tid}r{match}n1"
            assert sorted(s["user"] for s in row.seats) == sorted(
                f"{x}{2 if match in (2, 4) else 1}" for x in "ABCD")
            assert service.cache.state(table).options.match_minutes == 10 and row.clocks["card"] == 10
            await play(service, table, 25)
            clock.now = at + 10 * 60 + 1  # the match clock runs out: D-16 valuation
            await service.sweep()
            state = service.cache.state(table)
            assert service.cache.row(table).status == "over"
            for seat in GAMES["deal"].rules.result(state).winners:  # hand-computed: 1 point per match win
                expected_points[team_of[row.seats[seat]["user"]]] += 1
            at += 15 * 60
        assert sum(expected_points.values()) >= 6  # every match has at least one winner
        standing = await tours.standings(tid)
        assert standing["status"] == "over" and standing["played"] == 6
        got = {next(x for x in "ABCD" if teams[x] == e["entrant"]): e["points"] for e in standing["rows"]}
        assert got == expected_points
        ranked = sorted(expected_points.values(), reverse=True)
        assert [e["place"] for e in standing["rows"]] == places(ranked)

        # the referee rewrites every result: A wins 1-3, B 4, C 5, B and C share 6 -> 3, 2, 2, 0
        matches = await tours.matches(tid)
        winners = {1: "A", 2: "A", 3: "A", 4: "B", 5: "C", 6: "BC"}
        assert (await tours.correct(tid, "B1", False, matches[0].id, [teams["B"]], "mine")).key == "tour.admins_only"
        assert (await tours.correct(tid, "admin", True, matches[0].id, [teams["A"]], " ")).key == "tour.reason_needed"
        assert (await tours.correct(tid, "admin", True, matches[0].id, [999], "x")).key == "tour.bad_winners"
        for m in matches:
            out = await tours.correct(tid, "admin", True, m.id, [teams[x] for x in winners[m.round]],
                                      f"referee sheet, match {m.round}")
            assert out.ok
        standing = await tours.standings(tid)
        table = [(e["name"], e["points"], e["place"]) for e in standing["rows"]]
        assert table == [("Team A", 3, 1), ("Team B", 2, 2), ("Team C", 2, 2), ("Team D", 0, 4)]
        log = (await tours.get(tid)).log
        assert [e["reason"] for e in log if e["what"] == "correct"] == [f"referee sheet, match {i}"
                                                                         for i in range(1, 7)]
        assert len(await tours.corrections(tid)) == 6
    finally:
        await service.close()


async def test_several_tables_at_once_and_a_restart_in_the_middle_of_the_round(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    start = clock.now + 600
    out = await tours.create(CHAT, "admin", True, "board", "china", starts_at=start, rounds=2, match_minutes=30,
                             options={"no_trading": True}, clocks={"turn": 45}, seed=9)
    tid = out.params["tournament"]
    for i in range(9):
        assert (await tours.sign_up(tid, f"u{i}", f"P{i}")).ok
    tables = await start_round(service, clock, start)
    assert len(tables) == 2
    rows = [service.cache.row(t) for t in tables]
    assert sorted(len(r.seats) for r in rows) == [4, 5]
    assert {r.chat_key for r in rows} == {f"{CHAT}#t{tid}r1n1", f"{CHAT}#t{tid}r1n2"}
    seated = sorted(s["user"] for r in rows for s in r.seats)
    assert seated == sorted(f"u{i}" for i in range(9))  # everyone plays, once
    entrants = {e.captain: e.id for e in await tours.entrants(tid)}
    drawn = draw(9, 1, list(entrants.values()), 8)
    assert [[entrants[s["user"]] for s in r.seats] for r in rows] == drawn  # the seeded draw decides
    for table in tables:  # preliminary round: no trading (B-15), both tables on the match clock
        assert service.cache.state(table).options.no_trading is True
        assert await service.clocks.match_ends_at(table) == start + 30 * 60
        assert service.cache.row(table).clocks["turn"] == 45
    for table in tables:
        await play(service, table, 15)
    versions = {t: service.cache.row(t).version for t in tables}
    await service.db.dispose()  # the process dies in the middle of the round

    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        assert service.cache.replay_mismatches == []
        for table in tables:
            assert service.cache.row(table).status == "running" and service.cache.row(table).version == versions[table]
            await play(service, table, 10)  # the tables go on where they were
        clock.now = start + 30 * 60 + 1
        await service.sweep()
        for table in tables:
            assert service.cache.row(table).status == "over" and service.cache.state(table).end_reason == "time"
        standing = await tours.standings(tid)
        assert standing["played"] == 1 and all(e["played"] == 1 for e in standing["rows"])
        values = {}
        for table in tables:  # individual standings: wins first, then the B-17 valuation
            res = GAMES["board"].rules.result(service.cache.state(table))
            for seat, value in res.scores.items():
                values[service.cache.row(table).seats[seat]["user"]] = (int(seat in res.winners), value)
        expected = sorted(values.values(), key=lambda v: (-v[0], -v[1]))
        assert [(e["wins"], e["value"]) for e in standing["rows"]] == expected
        assert sum(e["wins"] for e in standing["rows"]) >= 2  # a winner at each table
        second = await start_round(service, clock, start + 40 * 60)  # the next round, after the restart
        assert len(second) == 2 and not set(second) & set(tables)
        assert (await tours.get(tid)).current_round == 2
    finally:
        await service.close()


async def test_pause_shifts_every_clock_and_stops_moves_then_resume_goes_on(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 60
        tid = (await tours.create(CHAT, "admin", True, "deal", "tournament", starts_at=start, rounds=2,
                                  match_minutes=20, every_minutes=30, seed=3)).params["tournament"]
        for i in range(3):
            await tours.sign_up(tid, f"u{i}", f"P{i}")
        [table] = await start_round(service, clock, start)
        await play(service, table, 5)
        clock.now = start + 5 * 60
        seat = GAMES["deal"].rules.waiting_for(service.cache.state(table))[0].seat
        user, token = service.cache.row(table).seats[seat]["user"], service.buttons(table, seat)[0][1]
        assert (await tours.pause(tid, "u0", False)).key == "tour.admins_only"
        assert (await tours.pause(tid, "admin", True)).ok
        assert service.cache.row(table).status == "paused"
        assert service.buttons(table, seat) == []  # no buttons while paused
        assert (await service.act(user, token)).key == "service.not_running"
        clock.now = start + 60 * 60  # long past the match end and the next round
        assert await service.sweep() == []
        version = service.cache.row(table).version
        await service.db.dispose()  # a restart while paused: the table and its held clocks come back
        service = await GameService.open(db_url, clock)
        tours = service.tournaments
        assert service.cache.row(table).status == "paused" and service.cache.replay_mismatches == []
        assert await service.sweep() == []
        assert (await tours.resume(tid, "admin", True)).ok  # paused for 55 minutes
        assert service.cache.row(table).status == "running" and service.cache.row(table).version == version
        assert await service.clocks.match_ends_at(table) == start + (20 + 55) * 60
        clock.now = start + (20 + 55) * 60 - 1
        await service.sweep()
        assert service.cache.row(table).status == "running"  # not yet: the pause is added to the match
        clock.now = start + (20 + 55) * 60 + 1
        await service.sweep()
        assert service.cache.row(table).status == "over"
        clock.now = start + (30 + 55) * 60  # round 2 moved by the pause too
        notes = await service.sweep()
        assert [n.params["round"] for n in notes if n.key == "tour.round_started"] == [2]
        assert [e["what"] for e in (await tours.get(tid)).log] == ["create", "pause", "resume", "round_over"]
    finally:
        await service.close()


async def test_admin_replaces_absent_players_and_cancels_a_table_or_the_tournament(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 60
        tid = (await tours.create(CHAT, "admin", True, "deal", None, starts_at=start, rounds=3,
                                  match_minutes=15, seed=1)).params["tournament"]
        for i in range(7):
            await tours.sign_up(tid, f"u{i}", f"P{i}")
        tables = await start_round(service, clock, start)
        matches = await tours.matches(tid, 1)
        first, second = matches
        # an absent player: the AI keeps the seat, still for the same entrant
        assert (await tours.replace(tid, "u1", False, first.id, 0)).key == "tour.admins_only"
        assert (await tours.replace(tid, "admin", True, first.id, 0)).ok
        assert service.cache.row(first.table_id).seats[0]["ai"] is True
        # a substitute takes another seat and can press its buttons
        gone = service.cache.row(first.table_id).seats[1]["user"]
        assert (await tours.replace(tid, "admin", True, first.id, 1, "sub", "Sub")).ok
        seats = service.cache.row(first.table_id).seats
        assert seats[1] == {"user": "sub", "name": "Sub", "ai": False} and gone not in [s["user"] for s in seats]
        await play(service, first.table_id, 30)
        # a broken table is called off: it counts for nobody
        assert (await tours.cancel_table(tid, "admin", True, second.id, "a player's connection died")).ok
        assert service.cache.row(second.table_id).status == "cancelled"
        clock.now = start + 15 * 60 + 1
        await service.sweep()
        standing = await tours.standings(tid)
        by_entrant = {e["entrant"]: e for e in standing["rows"]}
        assert all(by_entrant[e]["played"] == 1 for e in first.entrants)
        assert all(by_entrant[e]["played"] == 1 and by_entrant[e]["wins"] == 0 for e in second.entrants)
        won = GAMES["deal"].rules.result(service.cache.state(first.table_id)).winners
        assert {first.entrants[s] for s in won} == {e for e, v in by_entrant.items() if v["wins"]}
        # the whole tournament is called off: no more rounds
        assert (await tours.cancel(tid, "u0", False)).key == "tour.admins_only"
        assert (await tours.cancel(tid, "admin", True, " the hall closes ")).ok
        assert (await tours.get(tid)).log[-1]["reason"] == "the hall closes"
        clock.now = start + 3 * 3600
        assert [n for n in await service.sweep() if n.key == "tour.round_started"] == []
        assert (await tours.get(tid)).status == "cancelled" and tables
    finally:
        await service.close()


async def test_who_may_do_what(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 3600
        refused = await tours.create(CHAT, "u1", False, "deal", None, starts_at=start, rounds=2)
        assert refused.key == "tour.admins_only" and await tours.in_chat(CHAT) == []
        assert (await tours.create(CHAT, "admin", True, "deal", None, starts_at=clock.now - 1)).key == "tour.bad_setup"
        assert (await tours.create(CHAT, "admin", True, "board", None, starts_at=start,
                                   options={"flying": True})).key == "tour.bad_option"
        assert (await tours.create(CHAT, "admin", True, "deal", None, starts_at=start,
                                   mode="pairs")).key == "tour.bad_mode"
        solo = (await tours.create(CHAT, "admin", True, "deal", None, starts_at=start,
                                   signup_until=start - 600)).params["tournament"]
        assert (await tours.sign_up(solo, "u1", "Ann", user="u2")).key == "tour.only_yourself"
        assert (await tours.sign_up(solo, "u1", "Ann")).ok
        assert (await tours.sign_up(solo, "u1", "Ann")).key == "tour.already_entered"
        assert (await tours.sign_up(solo, "admin", "Ref", user="u9", is_admin=True)).ok  # an admin may enter others
        assert (await tours.create_team(solo, "u3", "Cy", "Reds")).key == "tour.solo_only"
        clock.now = start - 300
        assert (await tours.sign_up(solo, "u4", "Di")).key == "tour.signup_closed"

        team = (await tours.create(CHAT, "admin", True, "deal", None, starts_at=start + 7200, rounds=3,
                                   mode="team")).params["tournament"]
        assert (await tours.sign_up(team, "u1", "Ann")).key == "tour.teams_only"
        reds = (await tours.create_team(team, "u1", "Ann", "Reds")).params["team"]
        assert (await tours.create_team(team, "u5", "Eve", "reds")).key == "tour.team_name_taken"
        blues = (await tours.create_team(team, "u5", "Eve", "Blues")).params["team"]
        assert (await tours.join_team(team, reds, "u2", "Bob")).ok
        assert (await tours.join_team(team, blues, "u2", "Bob")).key == "tour.already_entered"
        # only the captain names the team's player, and only a member of the team
        assert (await tours.name_representative(team, "u2", reds, 1, "u2")).key == "tour.captain_only"
        assert (await tours.name_representative(team, "u5", reds, 1, "u5")).key == "tour.captain_only"
        assert (await tours.name_representative(team, "u1", reds, 1, "u5")).key == "tour.not_a_member"
        assert (await tours.name_representative(team, "u1", reds, 9, "u2")).key == "tour.round_closed"
        assert (await tours.name_representative(team, "u1", reds, 1, "u2")).ok
        assert (await tours.pause(team, "u1", False)).key == "tour.admins_only"
        assert (await tours.resume(team, "admin", True)).key == "tour.not_paused"
        teams = {e.name: e for e in await tours.entrants(team)}
        assert teams["Reds"].representatives == {"1": "u2"} and len(teams["Reds"].members) == 2
    finally:
        await service.close()


async def test_too_few_entrants_call_the_tournament_off(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        tid = (await tours.create(CHAT, "admin", True, "board", None, starts_at=clock.now + 60)).params["tournament"]
        await tours.sign_up(tid, "u1", "Ann")
        clock.now += 61
        notes = await service.sweep()
        assert [n.key for n in notes] == ["tour.too_few"]
        assert (await tours.get(tid)).status == "cancelled"
        async with AsyncSession(service.db) as session:
            tables = (await session.exec(select(TableRow))).all()
        assert tables == []
    finally:
        await service.close()


async def test_a_process_that_never_spoke_of_tournaments_starts_their_rounds(db_url):
    """A plain ``tycoon web`` process runs the clock task but no chat's tournament commands: the
    round a bot's process set up still starts on time there (every service keeps the tournaments'
    clocks)."""
    clock = FakeClock()
    bot = await GameService.open(db_url, clock)
    try:
        tours = bot.tournaments
        tid = (await tours.create(CHAT, "admin", True, "deal", None, starts_at=clock.now + 60)).params["tournament"]
        for n in range(3):
            assert (await tours.sign_up(tid, f"u{n}", f"P{n}")).ok
    finally:
        await bot.close()
    web = await GameService.open(db_url, clock)  # a fresh process: nobody asked it about tournaments
    try:
        clock.now += 61
        notes = await web.sweep()
        assert [n.key for n in notes if n.key.startswith("tour.")] == ["tour.round_started"]
        assert (await web.tournaments.get(tid)).status == "running"
    finally:
        await web.close()


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
@pytest.mark.parametrize("mode", ["team", "solo"])
def test_the_standings_picture_shows_shared_places_in_every_language(lang, mode):
    from render.fonts import missing_glyphs
    from render.standings import render_standings
    from words.i18n import CATALOGUES

    rows = [{"entrant": 11, "name": "紅隊 Reds", "played": 10, "wins": 10, "points": 10, "value": 520, "place": 1},
            {"entrant": 12, "name": "藍隊", "played": 10, "wins": 7, "points": 7, "value": 610, "place": 2},
            {"entrant": 13, "name": "Greens 🍀", "played": 10, "wins": 7, "points": 7, "value": 300, "place": 2},
            {"entrant": 14, "name": "黄队", "played": 10, "wins": 3, "points": 3, "value": 100, "place": 4}]
    standings = {"tournament": 3, "name": "港大杯", "game": "deal", "mode": mode, "status": "over", "rounds": 10,
                 "round": 10, "played": 10, "rows": rows}
    img, texts = render_standings(standings, lang)
    assert img.size[0] == 900 and img.size[1] > 130 + 4 * 44
    # after the title, the line under it and five column heads: place, name, played, score, assets per row
    assert texts[7::5] == ["1", "2", "2", "4"]  # 10, 7, 7, 3: 1st, 2nd, 2nd, 4th (no 3rd)
    assert texts[10::5] == ["10", "7", "7", "3"] and texts[8] == "#11 紅隊 Reds"
    assert missing_glyphs("".join(texts), lang) == set()  # the emoji was left out, every other glyph drawn
    title = CATALOGUES[lang]["tour.standings.title"].split("{")[0] or CATALOGUES[lang]["tour.standings.title"][-2:]
    assert any(title.strip(" —") in s for s in texts)
    assert any(CATALOGUES[lang]["tour.col.points" if mode == "team" else "tour.col.wins"] == s for s in texts)


def test_tournament_words_exist_in_all_three_languages():
    from words.i18n import CATALOGUES

    keys = {lang: {k for k in cat if k.startswith("tour.")} for lang, cat in CATALOGUES.items()}
    assert keys["en"] == keys["zh-Hans"] == keys["zh-Hant"] and len(keys["en"]) > 40
    import re

    from tests.paths import ROOT as root
    files = [*sorted((root / "engine/service/tournaments").glob("*.py")), root / "bot/chat/tournament_screens.py"]
    assert len(files) > 2  # the package's parts
    source = "".join(f.read_text(encoding="utf-8") for f in files)
    used = set(re.findall(r'"(tour\.[a-z_.]+)"', source)) - {"tour.round", "tour.remind"}  # the clocks' kinds
    assert used <= keys["en"], used - keys["en"]


async def test_a_process_dying_while_it_seats_a_round_leaves_a_retry_that_finishes_it(db_url, monkeypatch):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    start = clock.now + 60
    tid = (await tours.create(CHAT, "admin", True, "deal", None, starts_at=start, rounds=2, match_minutes=15,
                              seed=4)).params["tournament"]
    for i in range(8):
        await tours.sign_up(tid, f"u{i}", f"P{i}")
    real_start, calls = service.lobby.start, []

    async def dies_at_the_second_table(*args, **kwargs):
        calls.append(args[0])
        if len(calls) == 2:
            raise ConnectionError("the process is killed")
        return await real_start(*args, **kwargs)

    monkeypatch.setattr(service.lobby, "start", dies_at_the_second_table)
    clock.now = start
    with pytest.raises(ConnectionError):  # the clock is given back, the sweep's supervisor backs off
        await service.sweep()  # and nothing is announced
    await service.db.dispose()

    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        clock.now = start + 61
        notes = [n for n in await service.sweep() if n.key == "tour.round_started"]
        assert len(notes) == 1 and notes[0].params["round"] == 1
        tables = notes[0].params["tables"]
        assert tables[0] == calls[0] and len(tables) == 2  # the first table kept, the second made once
        assert [service.cache.row(t).status for t in tables] == ["running", "running"]
        assert len(await tours.matches(tid)) == 2
        async with AsyncSession(service.db) as session:
            rows = (await session.exec(select(TableRow))).all()
        assert sorted(r.id for r in rows) == sorted(tables)
        seated = sorted(s["user"] for t in tables for s in service.cache.row(t).seats)
        assert seated == sorted(f"u{i}" for i in range(8))
        clock.now += 120
        assert [n for n in await service.sweep() if n.key == "tour.round_started"] == []  # no second start
    finally:
        await service.close()


async def test_after_a_restart_the_clock_task_lets_waiting_ai_seats_answer_first(db_url, monkeypatch):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    monkeypatch.setattr(service.core.outbox, "wake", lambda *args, **kwargs: None)  # this process dies before settling
    out = await service.lobby.new_table(CHAT, "deal", None, "u0", "Ann")
    await service.lobby.add_ai(out.table, "u0")
    await service.lobby.start(out.table, "u0", seed=2)
    rules = GAMES["deal"].rules
    for _ in range(200):  # the person plays until it is the AI seat's turn; nobody lets the AI answer
        seat = rules.waiting_for(service.cache.state(out.table))[0].seat
        if seat == 1:
            break
        action = GAMES["deal"].choose_listed(service.cache.state(out.table), seat)
        token = next(t for a, t in service.buttons(out.table, seat) if a == action)
        assert (await service.act("u0", token)).ok
    version = service.cache.row(out.table).version
    await service.db.dispose()  # killed before the AI seat moved

    service = await GameService.open(db_url, clock)
    try:
        assert rules.waiting_for(service.cache.state(out.table))[0].seat == 1
        await service.startup()  # what the clock task does first
        await service.idle()
        assert service.cache.row(out.table).version > version
        over = service.cache.row(out.table).status == "over"
        assert over or rules.waiting_for(service.cache.state(out.table))[0].seat == 0
    finally:
        await service.close()


async def test_a_dead_process_s_ai_seat_is_answered_by_another_process_s_sweep(db_url, monkeypatch):
    """The process that made the move dies before its AI seat answers; another process, which
    never touched the table, answers for the AI once the seat's safety-net clock runs out."""
    clock = FakeClock()
    first = await GameService.open(db_url, clock)
    other = await GameService.open(db_url, clock)
    monkeypatch.setattr(first.core.outbox, "wake", lambda *args, **kwargs: None)  # dies before settling
    try:
        out = await first.lobby.new_table(CHAT, "deal", None, "u0", "Ann")
        await first.lobby.add_ai(out.table, "u0")
        await first.lobby.start(out.table, "u0", seed=2)
        rules = GAMES["deal"].rules
        while rules.waiting_for(first.cache.state(out.table))[0].seat != 1:
            seat = rules.waiting_for(first.cache.state(out.table))[0].seat
            action = GAMES["deal"].choose_listed(first.cache.state(out.table), seat)
            token = next(t for a, t in first.buttons(out.table, seat) if a == action)
            assert (await first.act("u0", token)).ok
        version = first.cache.row(out.table).version
        assert await other.sweep() == []  # not yet: the AI's own process has AI_GRACE to answer
        clock.now += 11
        fired = [o for o in await other.sweep() if o.ok]
        assert len(fired) == 1 and fired[0].table == out.table
        await other.idle()
        assert other.cache.row(out.table).version > version
        log = await queries.load_log(other.db, out.table)
        assert log[version].seat == 1 and log[version].deadline_id is not None
    finally:
        await first.close()
        await other.close()


async def test_the_last_table_of_a_round_ends_the_round_once(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 600
        out = await tours.create(CHAT, "admin", True, "deal", "standard", starts_at=start, rounds=2,
                                 match_minutes=20, every_minutes=30, seed=4)
        tid = out.params["tournament"]
        for i in range(6):
            assert (await tours.sign_up(tid, f"u{i}", f"P{i}")).ok
        notices = []

        async def heard(outcome):
            notices.append(outcome)

        service.subscribe(on_notice=heard)
        first, second = await start_round(service, clock, start)
        outside = (await service.lobby.new_table("chat:other", "deal", None, "x", "X")).table
        assert await tours.table_finished(outside) is None  # not a tournament table
        match = next(m for m in await tours.matches(tid, 1) if m.table_id == first)
        assert (await tours.cancel_table(tid, "admin", True, match.id)).ok
        await service.idle()
        assert await tours.table_finished(first) is None  # the other table still plays
        assert not [n for n in notices if n.key == "tour.round_over"]
        clock.now = start + 20 * 60 + 1
        await service.sweep()  # the match clock ends the second table
        await service.idle()  # its last update is out: the service tells the round is over, once
        assert service.cache.row(second).status == "over"
        over = [n for n in notices if n.key == "tour.round_over"]
        assert len(over) == 1
        assert over[0].params == {"tournament": tid, "chat": CHAT, "round": 1, "last": False}
        assert await tours.table_finished(second) is None and await tours.table_finished(first) is None  # once
        log = (await tours.get(tid)).log
        assert [e["round"] for e in log if e["what"] == "round_over"] == [1]
    finally:
        await service.close()


async def test_an_admin_corrects_a_result_after_the_last_round(db_url):
    from bot.chat import tournament_screens as screens

    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 600
        out = await tours.create(CHAT, "admin", True, "deal", "standard", starts_at=start, rounds=1,
                                 match_minutes=20, seed=4)
        tid = out.params["tournament"]
        for i in range(3):
            assert (await tours.sign_up(tid, f"u{i}", f"P{i}")).ok
        [table] = await start_round(service, clock, start)
        clock.now = start + 20 * 60 + 1
        await service.sweep()
        assert (await tours.sync(tid)).status == "over"
        [match] = await tours.matches(tid)
        assert sorted(match.winners) == sorted(match.entrants)  # nobody moved: equal valuations share the win
        winner = match.entrants[0]
        out, text = await screens.admin_command(tours, CHAT, "admin", True,
                                                ["correct", str(match.id), str(winner), "a", "late", "appeal"], "en")
        assert out.ok, text
        assert [c.reason for c in await tours.corrections(tid)] == ["a late appeal"]
        wins = {e["entrant"]: e["wins"] for e in (await tours.standings(tid))["rows"]}
        assert wins == {e: int(e == winner) for e in match.entrants}
        out, _ = await screens.admin_command(tours, CHAT, "admin", True, ["pause"], "en")
        assert not out.ok and out.key == "tour.no_tournament"  # only corrections reach a finished one
    finally:
        await service.close()


async def test_a_reminder_goes_out_five_minutes_before_each_round(db_url):
    from sqlmodel import select
    from sqlmodel.ext.asyncio.session import AsyncSession

    from engine.service.tournaments import REMIND_KIND

    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 600
        out = await tours.create(CHAT, "admin", True, "deal", "standard", starts_at=start, rounds=2, mode="team",
                                 match_minutes=20, every_minutes=30, seed=4)
        tid = out.params["tournament"]
        for captain in ("a", "b"):
            assert (await tours.create_team(tid, captain, captain.upper(), f"Team {captain}")).ok
        late = await tours.create("chat:late", "admin", True, "deal", starts_at=clock.now + 180, rounds=1,
                                  match_minutes=20)
        async with AsyncSession(service.db) as session:  # three minutes ahead: too close to remind
            reminders = (await session.exec(select(DeadlineRow).where(
                DeadlineRow.tournament_id == late.params["tournament"],
                DeadlineRow.kind == REMIND_KIND))).all()
        assert reminders == []
        clock.now = start - 5 * 60
        notes = [n for n in await service.sweep() if n.params.get("tournament") == tid]
        assert [(n.ok, n.key) for n in notes] == [(True, "tour.round_soon_team")]
        assert notes[0].params == {"tournament": tid, "chat": CHAT, "round": 1, "minutes": 5, "entrants": 2}
        clock.now = start
        assert [n.key for n in await service.sweep() if n.params.get("tournament") == tid] == ["tour.round_started"]
        clock.now = start + 25 * 60  # round 2 is due 30 minutes after round 1 began
        assert [n.key for n in await service.sweep() if n.params.get("tournament") == tid] == ["tour.round_soon_team"]
        assert (await tours.cancel(tid, "admin", True)).ok
        clock.now = start + 60 * 60
        assert [n for n in await service.sweep() if n.params.get("tournament") == tid] == []  # called off: silent
    finally:
        await service.close()


def test_the_short_form_sets_clocks_sign_up_and_the_time_between_rounds():
    from bot.chat.tournament_screens import parse_create

    when = {"+30": 1800.0}.get
    request = parse_create(["deal", "team", "10", "+30", "45", "tournament", "turn=30", "card=10", "signup=20",
                            "every=60", "no_trading"], when)
    assert (request.game, request.mode, request.rounds, request.starts_at) == ("deal", "team", 10, 1800.0)
    assert request.match_minutes == 45 and request.ruleset == "tournament"
    assert request.clocks == {"turn": 30, "card": 10} and request.signup_minutes == 20
    assert request.every_minutes == 60 and request.options == {"no_trading": True}
    assert parse_create(["deal", "solo", "2", "+30", "turn=soon"], when) is None  # a setting needs a number
    assert parse_create(["deal", "solo", "2", "later"], when) is None


async def test_a_tournament_made_from_the_short_form_keeps_its_settings(db_url):
    from bot.chat import tournament_screens as screens

    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        request = screens.parse_create(["board", "solo", "3", "+30", "20", "turn=45", "signup=10", "every=40"],
                                       lambda text: clock.now + 1800)
        out = await screens.create(tours, CHAT, "admin", True, request, name="Cup")
        assert out.ok, out
        row = await tours.get(out.params["tournament"])
        assert row.clocks == {"turn": 45} and row.every_minutes == 40 and row.match_minutes == 20
        assert row.signup_until == clock.now + 600 and row.starts_at == clock.now + 1800
        request.clocks["turn"] = 1  # a clock of one second: refused with the reason, nothing made
        assert not (await screens.create(tours, "chat:2", "admin", True, request)).ok
    finally:
        await service.close()
