"""Issue 48: a player's profile page (``/p/<user>?k=<signed>``, bot/web/profile.py): per game their
rating and rank in every chat together and in each chat (this season, all time), games, wins and
win streaks, and their latest games, each linking to its finished game's page.

- ``/api/profile`` gives the figures of a few stored results (the ratings the service moved);
  chats are shown by a neutral label of their platform, numbered when there are several, the web's
  tables as one; the place for achievements is there, empty.
- A bad, unsigned or forged link, or one signed for someone else: the "missing" page, 404.
- In Chromium at 390 × 844: the result page's player name opens the profile; nothing is wider than
  the screen, its links are 44 px tall, a latest game opens its result page, and axe finds nothing
  serious in either scheme at either size.
"""

from __future__ import annotations

import calendar
import json

import aiohttp
import pytest

from bot.web.auth import profile_path, result_path
from bot.web.hub import Hub
from bot.web.server import make_app, start_site
from engine.service import ratings
from engine.service.tables import GameService
from tests.bot.web.conftest import CHROMIUM
from tests.engine.service.test_profiles import GAMES, store
from words.i18n import t

START = calendar.timegm((2026, 6, 15, 12, 0, 0))  # the games' month


@pytest.fixture
async def served(db_url):
    service = await GameService.open(db_url)
    app = make_app(service, Hub(service, seed=11), lang="en")
    runner, address = await start_site(app, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            yield service, address, http
    finally:
        await runner.cleanup()
        await service.idle()
        await service.close()


async def test_the_profile_api_gives_ratings_ranks_games_wins_and_streaks(served):
    service, address, http = served
    await store(service, GAMES, START)
    path = profile_path(service.sign, "tg:1")
    assert path.startswith("/p/tg:1?k=")
    async with http.get(address + path.replace("/p/", "/api/profile/") + "&lang=en") as response:
        assert response.status == 200
        found = await response.json()
    assert found["user"] == "tg:1" and found["name"] == "1"
    deal, board = found["games"]
    assert (deal["game"], deal["game_name"], board["game"]) == ("deal", t("en", "ui.game.deal"), "board")
    everywhere = deal["everywhere"]
    assert (everywhere["games"], everywhere["wins"], everywhere["streak"], everywhere["best_streak"]) == (6, 5, 3, 3)
    rating, rank, of = await ratings.standing(service.db, ratings.EVERYWHERE, "deal", "tg:1")
    assert everywhere["rating"] == {"rating": round(rating.shown, 1), "rank": rank, "of": of, "games": 5, "wins": 4}
    chats = deal["chats"]
    assert [(c["kind"], c["label"]) for c in chats] == [("tg", "Telegram chat"), ("web", "Web tables"),
                                                        ("dc", "Discord channel")]
    assert all(c["name"] is None for c in chats)  # a chat's name: the service keeps none
    assert (chats[0]["games"], chats[0]["wins"], chats[0]["streak"], chats[0]["best_streak"]) == (3, 3, 3, 3)
    assert chats[0]["rating"]["rank"] == 1 and chats[1]["rating"] is None and chats[2]["rating"]["of"] == 2
    assert "tg:-100" not in json.dumps(found)  # a chat's id is not shown
    assert [(c["label"], c["games"], c["wins"]) for c in board["chats"]] == [("Telegram chat", 2, 1)]
    recent = found["recent"]
    assert [r["table"] for r in recent] == [8, 7, 6, 5, 4, 3, 2, 1]
    assert recent[0]["won"] and recent[0]["where"] == "Telegram chat"
    assert recent[0]["url"] == result_path(service.sign, 8)
    assert found["achievements"] == []  # none earned yet
    async with service.db.begin() as conn:  # one earned twice, first at table 3 (engine/service/feats.py)
        await conn.exec_driver_sql(
            'INSERT INTO achievements ("user", game, "key", name, count, first_table, first_at, last_at) '
            "VALUES ('tg:1', 'deal', 'deal.hat_trick', '1', 2, 3, 0, 0)")
    async with http.get(address + path.replace("/p/", "/api/profile/") + "&lang=en") as response:
        [earned] = (await response.json())["achievements"]
    assert earned == {"game": "deal", "key": "deal.hat_trick", "name": t("en", "feat.deal.hat_trick"),
                      "how": t("en", "feat.deal.hat_trick.how"), "count": 2, "first_table": 3,
                      "first_url": result_path(service.sign, 3)}
    # two Telegram chats: numbered
    await store(service, [("tg:-300", "deal", ["tg:1", "tg:2"], [1])], START + 3600)
    async with http.get(address + path.replace("/p/", "/api/profile/") + "&lang=zh-Hant") as response:
        deal = (await response.json())["games"][0]
    chats = deal["chats"]
    assert [c["label"] for c in chats if c["kind"] == "tg"] == ["Telegram 群組 1", "Telegram 群組 2"]
    assert chats[0]["streak"] == 3 and deal["everywhere"]["streak"] == 0 and deal["everywhere"]["best_streak"] == 3


async def test_a_bad_or_unsigned_profile_link_gets_the_missing_page(served):
    service, address, http = served
    good = profile_path(service.sign, "tg:1")
    key = good.split("?k=")[1]
    for what, path in {"unsigned": "/p/tg:1", "forged": good[:-1] + ("0" if good[-1] != "0" else "1"),
                       "someone else's key": f"/p/tg:2?k={key}",
                       "a result page's key": "/p/tg:1?k=" + result_path(service.sign, 1).split("?k=")[1]}.items():
        async with http.get(f"{address}{path}{'&' if '?' in path else '?'}lang=en") as response:
            text = await response.text()
            assert response.status == 404, what
            assert 'data-status="missing"' in text and t("en", "web.err.profile_key") in text, what
        async with http.get(address + path.replace("/p/", "/api/profile/", 1)) as response:
            assert response.status == 404, what
    async with http.get(f"{address}{good}&lang=en") as response:
        assert response.status == 200 and "profile.js" in await response.text()  # no games yet: a page all the same
    assert profile_path(service.sign, "ai:1") is None and profile_path(service.sign, "Web:ABC") is None


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
@pytest.mark.slow
async def test_the_profile_page_on_a_phone_from_the_result_page(web, artifacts):
    from tests.bot.web.test_web_a11y import _axe
    from tests.bot.web.test_web_result_page import LAYOUT, _finished

    service, address, browser = web
    table = await _finished(service, "deal", 2, 7)
    await store(service, [("tg:-100", "deal", ["web:ann", "tg:2"], [0]),
                          ("dc:7", "board", ["tg:2", "web:ann"], [1])], START)
    page = await browser.new_page()
    await page.phone()
    await page.goto(address + result_path(service.sign, table) + "&lang=en")
    await page.wait("document.body.dataset.frame === '0'")
    await page.eval("document.querySelector('#ranking a.profile-link').click()")
    await page.wait("location.pathname === '/p/web:ann' && document.getElementById('name').textContent === 'Ann'")
    cards = await page.eval("[...document.querySelectorAll('.game-record')].map(c => [c.dataset.game, c.textContent])")
    assert [game for game, _ in cards] == ["deal", "board"], cards
    assert "Rating" in cards[0][1] and "Win streak" in cards[0][1] and "Telegram chat" in cards[0][1]
    assert "Web tables" in cards[0][1] and "Discord channel" in cards[1][1]
    links = await page.eval("[...document.querySelectorAll('#recent a')].map(a => a.getAttribute('href'))")
    assert result_path(service.sign, table) in links and len(links) == 3
    seen = await page.eval(LAYOUT.replace(".profile-link", "#recent a"))
    assert not seen["wide"] and all(h >= 44 for _, h, _w in seen["controls"]), seen
    small = await page.eval("[...document.querySelectorAll('main *')].filter(e => e.getClientRects().length && "
                            "[...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))"
                            ".map(e => parseFloat(getComputedStyle(e).fontSize)).filter(s => s < 14)")
    assert small == []
    await page.screenshot(artifacts / "web-profile-phone.png", 390, 844, mobile=True)
    await page.phone()
    found: list[str] = []
    await _axe(page, "a player's profile", found)
    assert not found, "\n".join(found)
    await page.phone()
    await page.eval(f"document.querySelector('#recent li[data-table=\"{table}\"] a').click()")
    await page.wait(f"location.pathname === '/r/{table}' && document.body.dataset.frame === '0'")
    assert not page.errors, page.errors
