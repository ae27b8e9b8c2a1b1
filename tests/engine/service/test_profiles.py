"""Issue 48: a player's record for their profile page (``engine.service.profiles``): games, wins and
win streaks per game from the results, everywhere and per chat (the web's tables as one place),
their ratings and ranks, and their latest games."""

from __future__ import annotations

import calendar

from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service import profiles, ratings
from engine.service.storage.rows import ResultRow, TableRow
from engine.service.tables import GameService


def test_streaks_are_the_run_the_last_game_ends_and_the_longest():
    assert profiles.streaks([]) == (0, 0)
    assert profiles.streaks([False]) == (0, 0)
    assert profiles.streaks([True]) == (1, 1)
    assert profiles.streaks([True, True, False, True]) == (1, 2)
    assert profiles.streaks([True, False, True, True, True]) == (3, 3)
    assert profiles.streaks([True, True, True, False]) == (0, 3)
    assert profiles.streaks(iter([False, True, True, False, True, True])) == (2, 2)
    assert profiles.record([True, False, True]) == profiles.Record(games=3, wins=2, streak=1, best_streak=1)


def test_where_a_result_counts():
    assert profiles.place_of("tg:-100123") == "tg:-100123"
    assert profiles.place_of("tg:-100123#t4") == "tg:-100123"  # a tournament's table: its chat
    assert profiles.place_of("dc:456:789") == "dc:456:789"
    assert profiles.place_of("web:1a2b3c") == profiles.place_of("web:ffee00") == profiles.WEB


async def store(service: GameService, games: list[tuple[str, str, list[str], list[int]]], start: float) -> None:
    """Finished games (chat, game, users by seat, winning seats), a minute apart from ``start``,
    stored as the service stores them (a table, then its result), then rated."""
    async with AsyncSession(service.db) as session:
        for n, (chat, game, users, winners) in enumerate(games):
            seats = [{"user": u, "name": u.split(":")[-1].title(), "ai": u.startswith("ai:")} for u in users]
            table = TableRow(chat_key=chat, game=game, ruleset="standard", status="over", seats=seats)
            session.add(table)
            await session.flush()
            session.add(ResultRow(table_id=table.id, chat_key=chat, game=game, ruleset="standard", reason="sets",
                                  seats=seats, winners=winners, finished_at=start + 60 * n))
        await session.commit()
    await ratings.rate_pending(service.db)


GAMES = [  # Ann is tg:1, Bo tg:2; "tg:11" is someone else
    ("tg:-100", "deal", ["tg:1", "tg:2"], [0]),         # Ann wins
    ("tg:-100", "deal", ["tg:2", "tg:1"], [1]),         # Ann wins
    ("dc:7", "deal", ["tg:1", "tg:2", "ai:1"], [2]),     # the AI wins
    ("tg:-100", "deal", ["tg:1", "tg:11"], [0]),        # Ann wins
    ("web:aa", "deal", ["tg:1", "ai:1"], [0]),          # Ann wins, against the AI: unrated
    ("web:bb", "deal", ["tg:1", "tg:2"], [0]),          # Ann wins
    ("tg:-100", "board", ["tg:2", "tg:1"], [0]),        # Bo wins
    ("tg:-100#t3", "board", ["tg:1", "tg:2"], [0, 1]),  # a shared win, in a tournament of the chat
    ("tg:-200", "deal", ["tg:11", "tg:12"], [0]),       # not Ann's
]


async def test_a_profile_counts_games_wins_and_streaks_everywhere_and_per_chat(db_url):
    service = await GameService.open(db_url)
    try:
        start = calendar.timegm((2026, 6, 15, 12, 0, 0))  # mid-month: every game in one season
        await store(service, GAMES, start)
        mine = await profiles.results_of(service.db, "tg:1")
        assert [r.chat_key for r in mine] == [g[0] for g in GAMES if "tg:1" in g[2]]  # oldest first, only Ann's
        assert await profiles.results_of(service.db, "tg:3") == []
        found = await profiles.profile(service.db, "tg:1", now=start + 600)
        assert found["name"] == "1" and [g["game"] for g in found["games"]] == ["deal", "board"]
        deal, board = found["games"]
        everywhere = deal["everywhere"]
        assert {k: everywhere[k] for k in ("games", "wins", "streak", "best_streak")} == \
            {"games": 6, "wins": 5, "streak": 3, "best_streak": 3}
        stood = await ratings.standing(service.db, ratings.EVERYWHERE, "deal", "tg:1")
        assert everywhere["rating"] == {"rating": round(stood[0].shown, 1), "rank": stood[1], "of": stood[2],
                                        "games": 5, "wins": 4}  # rated: not the game against the AI alone
        chats = {c["place"]: c for c in deal["chats"]}
        assert list(chats) == ["tg:-100", profiles.WEB, "dc:7"]  # most played first
        assert (chats["tg:-100"]["games"], chats["tg:-100"]["wins"], chats["tg:-100"]["best_streak"]) == (3, 3, 3)
        assert chats["tg:-100"]["rating"]["rank"] == 1 and chats["tg:-100"]["season"]["games"] == 3
        assert (chats["dc:7"]["games"], chats["dc:7"]["wins"], chats["dc:7"]["streak"]) == (1, 0, 0)
        assert chats["dc:7"]["rating"]["of"] == 2
        assert (chats[profiles.WEB]["games"], chats[profiles.WEB]["streak"]) == (2, 2)
        assert chats[profiles.WEB]["rating"] is None and chats[profiles.WEB]["season"] is None
        assert [(c["place"], c["games"], c["wins"], c["streak"]) for c in board["chats"]] == [("tg:-100", 2, 1, 1)]
        assert board["everywhere"]["rating"]["games"] == 2
        # a later month: the chat's season starts afresh, its all-time rating goes on
        later = await profiles.profile(service.db, "tg:1", now=start + 40 * 86400)
        assert later["games"][0]["chats"][0]["season"] is None and later["games"][0]["chats"][0]["rating"] is not None
        recent = found["recent"]
        assert [r["game"] for r in recent][:2] == ["board", "board"] and len(recent) == 8
        assert recent[0]["won"] and not recent[1]["won"] and recent[0]["place"] == "tg:-100"
        assert recent[0]["finished_at"] > recent[-1]["finished_at"]
        assert len((await profiles.profile(service.db, "tg:1", recent=3))["recent"]) == 3
        nobody = await profiles.profile(service.db, "tg:404")
        assert nobody == {"user": "tg:404", "name": "", "games": [], "recent": []}
    finally:
        await service.close()
