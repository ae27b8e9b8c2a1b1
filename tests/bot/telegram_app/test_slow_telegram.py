"""A slow game over Telegram (issue 48), on the real application against the fake Bot API and a
faked clock: the lobby's pace button (its creator's), no group message for a move or a turn once
it runs, the reminder in the private chat at half time (in the group, mentioning them, for a
player the bot cannot write to), and one summary a day in the group."""

from __future__ import annotations

from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import (
    GROUP,
    ClosedDMs,
    FakeBotAPI,
    _app,
    _send,
    caption_of,
    command,
    press,
    press_first,
)
from words.i18n import t

HALF, DAY = 12 * 3600, 24 * 3600


def posted(api: FakeBotAPI, chat: int, since: int = 0) -> list[dict]:
    """The messages sent to ``chat`` (not edits) after the first ``since`` calls."""
    return [p for name, p in api.calls[since:] if name in ("sendMessage", "sendPhoto")
            and int(p.get("chat_id", 0) or 0) == chat]


def alerts(api: FakeBotAPI) -> list[str]:
    """What the presses were answered with (the alerts only their presser sees)."""
    return [p.get("text") for name, p in api.calls if name == "answerCallbackQuery"]


def text_of(params: dict) -> str:
    return str(params.get("text") or caption_of(params))


async def _slow_lobby(app, api: FakeBotAPI, service: GameService, now: list[float]) -> int:
    """Ann opens a Deal table, Bob joins, Ann makes it a 24-hour game (through 1 and 8 hours) and
    starts it."""
    await _send(app, command("/newgame deal", 1))
    table = int(api.keyboards(GROUP)[0].split(":")[1])
    lobby = next(p for name, p in api.calls if name == "sendMessage" and f"l:{table}:p:1" in str(p.get("reply_markup")))
    assert t("en", "ch.btn.pace", pace=t("en", "slow.pace_normal")) in str(lobby["reply_markup"])
    await _send(app, press(f"l:{table}:join", 2))
    await _send(app, press(f"l:{table}:p:1", 2))  # Bob did not open the table
    assert alerts(api)[-1] == t("en", "opt.creator_only")[:200]
    for hours in (1, 8, 24):
        await _send(app, press(f"l:{table}:p:{hours}", 1))
    assert service.cache.row(table).options == {"pace": 24, "match_minutes": 0, "card_seconds": 0}
    edited = [p for name, p in api.calls if name == "editMessageText"][-1]
    assert t("en", "ch.btn.pace", pace=t("en", "slow.pace_hours", n=24)) in str(edited["reply_markup"])
    assert f"l:{table}:p:0" in str(edited["reply_markup"]) and t("en", "slow.lobby_line", n=24) in edited["text"]
    await _send(app, press(f"l:{table}:m:30", 1))  # a timed match turns the pace off, and says so
    assert alerts(api)[-1] == t("en", "slow.pace_off")[:200]
    assert service.cache.row(table).options == {"match_minutes": 30}
    await _send(app, press(f"l:{table}:p:24", 1))  # and a pace the timed match
    assert alerts(api)[-1] == t("en", "slow.match_off")[:200]
    await _send(app, press(f"l:{table}:start", 1))
    assert service.cache.row(table).clocks["pace"] == DAY
    return table


async def test_a_slow_game_is_quiet_in_the_group_reminds_privately_and_sums_up_once_a_day(tmp_path):
    now = [1_700_000_000.0]
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}", clock=lambda: now[0])
    app = _app(service, api, lang="en")
    try:
        async with app:
            start = now[0]
            table = await _slow_lobby(app, api, service, now)
            assert len(posted(api, GROUP, 0)) >= 2  # the lobby, then the table at the start
            now[0] += 3600
            seen = len(api.calls)
            turns = service.cache.state(table).turn_number
            for _ in range(8):  # moves by both players, the turn passing at least once
                await press_first(app, api, service, table)
            assert service.cache.state(table).turn_number > turns
            assert posted(api, GROUP, seen) == [], "no group message for a move or a turn"
            assert [name for name, p in api.calls[seen:] if int(p.get("chat_id", 0) or 0) == GROUP
                    and name.startswith("edit")], "the table message is edited in place"

            row = service.cache.row(table)
            waiting = service.cache.waiting_for(table)[0]
            uid = int(row.seats[waiting.seat]["user"][3:])
            seen = len(api.calls)
            now[0] += HALF + 1  # half their clock
            await service.sweep()
            await service.idle()
            mine = posted(api, uid, seen)
            assert len(mine) == 1 and text_of(mine[0]).startswith("⏰ ") and f"table {table}" in text_of(mine[0])
            assert posted(api, GROUP, seen) == [], "the reminder is private"
            await service.sweep()
            await service.idle()
            assert len(posted(api, uid, seen)) == 1, "reminded once"

            seen = len(api.calls)
            now[0] = start + DAY + 1  # a day after the start: the summary
            await service.sweep()
            await service.idle()
            summary = posted(api, GROUP, seen)
            assert len(summary) == 1, summary
            text = summary[0]["text"]
            assert text.startswith(t("en", "slow.summary.head", game="Monopoly Deal", table=table))
            assert t("en", "slow.summary.standings") in text and f"tg://user?id={uid}" in text, text
            assert f"h:{table}" in str(summary[0]["reply_markup"])
            await service.sweep()
            await service.idle()
            assert len(posted(api, GROUP, seen)) == 1, "one summary a day"
    finally:
        await service.close()


async def test_a_player_the_bot_cannot_write_to_is_reminded_in_the_group(tmp_path):
    now = [1_700_000_000.0]
    api = ClosedDMs({1, 2})
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}", clock=lambda: now[0])
    app = _app(service, api, lang="en")
    try:
        async with app:
            table = await _slow_lobby(app, api, service, now)
            waiting = service.cache.waiting_for(table)[0]
            uid = int(service.cache.row(table).seats[waiting.seat]["user"][3:])
            seen = len(api.calls)
            now[0] += HALF + 1
            await service.sweep()
            await service.idle()
            told = posted(api, GROUP, seen)
            assert len(told) == 1 and f"tg://user?id={uid}" in told[0]["text"]
            assert told[0]["text"].startswith("⏰ ") and "start=t" in str(told[0]["reply_markup"])
    finally:
        await service.close()
