"""Issue 48: ratings from openskill's Plackett-Luce model, moved once per finished game, rated or
not case by case, and rebuilt from the stored results alone to exactly the stored ratings."""

from __future__ import annotations

import asyncio

from engine.service import ratings
from engine.service.storage.rows import ResultRow
from engine.service.tables import GameService
from tests.engine.service.test_service import step


def _result(seats, winners, scores=None, chat="tg:1", game="deal") -> ResultRow:
    return ResultRow(table_id=1, chat_key=chat, game=game, ruleset="standard", reason="sets", seats=seats,
                     winners=winners, scores=scores or {})


def _seat(user: str, ai: bool = False) -> dict:
    return {"user": user, "name": user.upper(), "ai": ai}


def test_who_is_rated_case_by_case():
    # two people and an AI seat: rated among the people; the AI seat is an opponent, not rated
    placed = ratings.placings(_result([_seat("tg:1"), _seat("ai:1", True), _seat("tg:2")], winners=[1]))
    assert placed == [("tg:1", "TG:1", 2, False), ("tg:2", "TG:2", 2, False)]
    # one person against the AI: unrated
    assert ratings.placings(_result([_seat("tg:1"), _seat("ai:1", True)], winners=[0])) is None
    # a person whose seat the AI kept at the end (left, or missed clocks): not rated, nor is the game
    # when fewer than two people are left
    assert ratings.placings(_result([_seat("tg:1"), _seat("tg:2", ai=True)], winners=[1])) is None
    three = ratings.placings(_result([_seat("tg:1"), _seat("tg:2", ai=True), _seat("tg:3")], winners=[0]))
    assert [(u, p) for u, _n, p, _w in three] == [("tg:1", 1), ("tg:3", 2)]
    # a shared win is a tie; the others by their final score, equal scores tied
    timed = ratings.placings(_result([_seat(f"tg:{i}") for i in range(4)], winners=[0, 2],
                                     scores={"0": 9, "1": 3, "2": 9, "3": 5}))
    assert [p for _u, _n, p, _w in timed] == [1, 3, 1, 2]


def test_a_win_raises_a_rating_and_a_loss_lowers_it_in_the_chat_its_season_and_everywhere():
    result = _result([_seat("tg:1"), _seat("tg:2")], winners=[0])
    moved = ratings.rate({}, result)
    month = f"tg:1@{ratings.season_of(result.finished_at)}"  # the chat's season: this calendar month
    assert set(moved) == {(scope, "deal", user) for scope in ("tg:1", month, "*") for user in ("tg:1", "tg:2")}
    assert moved[("tg:1", "deal", "tg:1")].mu > 25 > moved[("tg:1", "deal", "tg:2")].mu
    assert moved[("*", "deal", "tg:1")].wins == 1 and moved[("*", "deal", "tg:2")].games == 1


async def _play(service: GameService, chat: str, users: list[str], seed: int) -> None:
    out = await service.lobby.new_table(chat, "deal", None, users[0], users[0])
    for user in users[1:]:
        assert (await service.lobby.join(out.table, user, user)).ok
    assert (await service.lobby.start(out.table, users[0], seed=seed)).ok
    while await step(service, out.table):
        pass


async def test_finished_games_move_ratings_once_and_the_results_alone_rebuild_them(db_url):
    service = await GameService.open(db_url)
    try:
        games = [("tg:1", ["u0", "u1"]), ("tg:1", ["u0", "u1", "u2"]), ("tg:2", ["u1", "u2"]), ("tg:1", ["u2", "u0"])]
        for n, (chat, users) in enumerate(games):
            await _play(service, chat, users, seed=20 + n)
        await asyncio.wait_for(service.idle(), 30)
        stored = await ratings.stored(service.db)
        results = await ratings.results(service.db)
        assert len(results) == len(games) and sorted(r.rated for r in results) == [1, 2, 3, 4]
        assert stored[("*", "deal", "u0")].games == 3 and stored[("tg:1", "deal", "u0")].games == 3
        assert stored[("*", "deal", "u1")].games == 3 and stored[("tg:1", "deal", "u1")].games == 2
        month = ratings.season_scope("tg:1", ratings.season_of(results[0].finished_at))  # this month's season
        assert stored[(month, "deal", "u0")] == stored[("tg:1", "deal", "u0")], "a first season: all time so far"
        assert sum(r.wins for k, r in stored.items() if k[0] == "*") == sum(len(r.winners) for r in results)
        assert ratings.rebuild(results) == stored, "the results alone give the stored ratings back"
        assert await ratings.rate_pending(service.db) == 0, "each game moved the ratings once"
        second = await GameService.open(db_url)  # another process starting: nothing left to rate
        try:
            await second.startup()
            assert await ratings.stored(second.db) == stored
        finally:
            await second.close()
    finally:
        await service.close()


async def test_a_new_month_tells_each_chat_its_seasons_final_standings_once(db_url):
    """The first sweep in a new month: the chat that played rated games last month is told that
    season's final standings (one notice, whichever process sweeps first; a second process, or a
    second sweep, tells nothing), and its new season starts empty."""
    import calendar
    import time

    from bot.chat import leaderboards
    from engine.service import seasons
    from words.i18n import t

    service = await GameService.open(db_url)
    second = await GameService.open(db_url)
    told = []

    async def heard(outcome):
        told.append(outcome)

    try:
        await _play(service, "tg:1", ["u0", "u1"], seed=20)
        await asyncio.wait_for(service.idle(), 30)
        season = ratings.season_of(time.time())
        year, month = (int(x) for x in season.split("-"))
        next_month = calendar.timegm((year + month // 12, month % 12 + 1, 2, 12, 0, 0))
        assert seasons.previous(ratings.season_of(next_month)) == season
        service.subscribe(on_notice=heard)
        second.subscribe(on_notice=heard)
        service.clock = second.clock = lambda: next_month
        assert await service.sweep() == [] and await second.sweep() == [] and await service.sweep() == []
        over = [o for o in told if o.key == "ratings.season_over"]
        assert len(over) == 1 and over[0].params["chat"] == "tg:1" and over[0].params["season"] == season
        [(first, _rating, wins, games), _other] = over[0].params["standings"]["deal"]
        assert games == 1 and first in ("u0", "u1")
        text = leaderboards.season_over(over[0].params, "en").splitlines()
        assert text[0] == t("en", "ch.season_over", season=season) and text[2].startswith(f"1. {first}: ")
        assert not await service.chats.ratings("tg:1", "deal", ratings.season_of(next_month)), "a fresh season"
        assert await service.chats.ratings("tg:1", "deal"), "all time goes on"
    finally:
        await second.close()
        await service.close()
