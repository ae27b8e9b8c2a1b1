"""Issue 48 over the Telegram fake: ``/top`` shows a chat's leaderboard in pages (season and all
time, per game), ``/season`` lets the chat's admins choose how long seasons last, and a season's end
posts its final standings once, as a picture with the text."""

from __future__ import annotations

import calendar
import time

from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service import ratings
from engine.service.storage.rows import ResultRow, TableRow
from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import GROUP, AdminIsAnn, FakeBotAPI, _app, _send, command, press
from words.i18n import game_name, t

CHAT = f"tg:{GROUP}"


async def store_results(service: GameService, pairs: list[tuple[str, str]], game: str = "deal",
                        chat: str = CHAT, at: float | None = None) -> None:
    """Finished games between two people each (the first won), as the service stores them, rated."""
    async with AsyncSession(service.db) as session:
        for winner, loser in pairs:
            table = TableRow(chat_key=chat, game=game, ruleset="standard", status="over")
            session.add(table)
            await session.flush()
            seats = [{"user": f"tg:{u}", "name": f"P{u}", "ai": False} for u in (winner, loser)]
            session.add(ResultRow(table_id=table.id, chat_key=chat, game=game, ruleset="standard", reason="sets",
                                  seats=seats, winners=[0], finished_at=at or time.time()))
        await session.commit()
    await ratings.rate_pending(service.db)


def lines_of(api: FakeBotAPI) -> list[str]:
    return api.calls[-1][1]["text"].splitlines()


def sent_buttons(api: FakeBotAPI) -> dict[str, str]:
    """The last message's buttons: their data without the signature -> the data as sent."""
    import json
    markup = api.calls[-1][1]["reply_markup"]
    markup = json.loads(markup) if isinstance(markup, str) else markup
    return {b["callback_data"].rsplit(".", 1)[0]: b["callback_data"] for row in markup["inline_keyboard"] for b in row}


async def test_top_pages_through_the_chats_season_and_all_time(tmp_path):
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            # thirteen players in a chain, each beaten by the one before: more than a page
            await store_results(service, [(str(i), str(i + 1)) for i in range(1, 13)])
            await _send(app, command("/top", 5))
            text = lines_of(api)
            season = ratings.season_of(time.time())
            head = t("en", "ch.top.season", game=game_name("deal", "en"), season=season)
            assert text[0] == f"{head} · {t('en', 'ch.top.page', page=1, pages=2)}", text
            assert [line.split(".")[0] for line in text[1:11]] == [str(n) for n in range(1, 11)]
            assert text[1].startswith("1. P1: ") and text[1].endswith("(1/1)"), "the one who only won leads"
            buttons = sent_buttons(api)
            assert set(buttons) == {"R:deal:s:1", "R:deal:a:0", "R:board:s:0"}, buttons
            await _send(app, press(buttons["R:deal:s:1"], 5, signed=False, message_id=api.next_id))
            page2 = api.messages[(GROUP, api.next_id)]["text"].splitlines()
            assert page2[0].endswith(t("en", "ch.top.page", page=2, pages=2))
            assert [line.split(".")[0] for line in page2[1:4]] == ["11", "12", "13"]
            assert page2[3].startswith("13. P13: ") and page2[3].endswith("(0/1)"), "the one who only lost is last"
            assert "R:deal:s:0" in {b.rsplit(".", 1)[0] for b in api.messages[(GROUP, api.next_id)]["buttons"]}
            # all time: the same players (a first season), under its own head
            all_time = next(b for b in api.messages[(GROUP, api.next_id)]["buttons"] if b.startswith("R:deal:a:0"))
            await _send(app, press(all_time, 5, signed=False, message_id=api.next_id))
            shown = api.messages[(GROUP, api.next_id)]["text"].splitlines()
            assert shown[0].startswith(t("en", "ch.top.all_time", game=game_name("deal", "en")))
            assert shown[1:11] == text[1:11]
            # the other game has no rated games yet: it says what counts
            board = next(b for b in api.messages[(GROUP, api.next_id)]["buttons"] if b.startswith("R:board:a:0"))
            await _send(app, press(board, 5, signed=False, message_id=api.next_id))
            assert t("en", "ch.top.empty") in api.messages[(GROUP, api.next_id)]["text"]
            # forged data changes nothing
            await _send(app, press("R:deal:s:0.deadbeef", 5, signed=False, message_id=api.next_id))
            name, params = api.calls[-1]
            assert name == "answerCallbackQuery" and params["text"] == t("en", "service.bad_token")
    finally:
        await service.close()


async def test_admins_choose_how_long_seasons_last_and_a_seasons_end_is_posted_once_with_its_picture(tmp_path):
    now = [time.time()]
    api = AdminIsAnn()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}", clock=lambda: now[0])
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/season", 2))
            assert lines_of(api)[0] == t("en", "ch.season.now", length=t("en", "ch.season.len.month"))
            buttons = sent_buttons(api)
            assert set(buttons) == {f"Z:{length}" for length in ratings.LENGTHS}
            menu = api.next_id
            await _send(app, press(buttons["Z:week"], 2, signed=False, message_id=menu))  # Bob is no admin
            assert api.calls[-1][1]["text"] == t("en", "ch.admins_only")
            assert await service.chats.season_length(CHAT) == "month"
            await _send(app, press(buttons["Z:week"], 1, signed=False, message_id=menu))  # Ann is
            assert await service.chats.season_length(CHAT) == "week"
            shown = api.messages[(GROUP, menu)]
            assert shown["text"].splitlines()[0] == t("en", "ch.season.changed", name="Ann")
            assert any(b.startswith("Z:week") for b in shown["buttons"])
            # a game this week counts in this week's season
            await store_results(service, [("1", "2")], at=now[0])
            week = ratings.season_of(now[0], "week")
            assert await service.chats.ratings(CHAT, "deal", week), "this week's season"
            # the week ends: the season's standings, once, with a picture; sweeping again says nothing
            now[0] += 8 * 86400
            before = len(api.calls)
            await service.sweep()
            await service.sweep()
            await service.idle()
            posted = [(name, p) for name, p in api.calls[before:] if name in ("sendPhoto", "sendMessage")
                      and int(p["chat_id"]) == GROUP]
            assert len(posted) == 1 and posted[0][0] == "sendPhoto", posted
            caption = posted[0][1]["caption"].splitlines()
            assert caption[0] == t("en", "ch.season_over", season=week.replace("-W", " W"))
            assert caption[2].startswith("1. P1: ")
            assert not await service.chats.ratings(CHAT, "deal", ratings.season_of(now[0], "week")), "a fresh season"
            # turning seasons off: /top shows all time only, without a season button
            await service.chats.set_season_length(CHAT, "off")
            await _send(app, command("/top", 1))
            assert lines_of(api)[0] == t("en", "ch.top.all_time", game=game_name("deal", "en"))
            assert not any(":s:" in b for b in sent_buttons(api))
    finally:
        await service.close()


def test_a_season_is_named_by_its_length():
    at = calendar.timegm((2026, 12, 6, 12, 0, 0))
    assert ratings.season_of(at) == "2026-12"
    assert ratings.season_of(at, "week") == "2026-W49"
    assert ratings.season_of(at, "quarter") == "2026-Q4"
    assert ratings.season_of(at, "off") is None


async def test_me_links_the_players_own_page_when_there_is_a_web_table(tmp_path, monkeypatch):
    from bot.web.auth import profile_path

    monkeypatch.setenv("TYCOON_WEB_URL", "https://play.example/")
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            await store_results(service, [("1", "2")])
            await _send(app, command("/me", 1))
            private = [p for name, p in api.calls if name == "sendMessage" and int(p["chat_id"]) == 1][-1]
            url = "https://play.example" + profile_path(service.sign, "tg:1")
            assert t("en", "ch.me.page", url=url) in private["text"].splitlines(), private["text"]
            assert service.unsign(url.split("k=")[1]) == "P:tg:1"  # the key the profile page checks
    finally:
        await service.close()
