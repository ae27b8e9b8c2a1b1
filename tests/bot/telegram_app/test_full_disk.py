"""Issue 46: a full disk, as a group on Telegram meets it. Every move the database refuses for want of
space is answered to its presser ("cannot save moves right now"), the group is told once what is
going on, nothing acknowledged is lost, and the first press once there is room again plays.

The disk fills as SQLite says so: the group commit's write raises the ``OperationalError`` "database
or disk is full" that SQLite raises (``tests/engine/service/test_outages.py`` fills a real file
with ``max_page_count``; ``storage/test_wal.py`` bounds the write-ahead log)."""

from __future__ import annotations

import asyncio
import sqlite3

from sqlalchemy import exc

from engine.service.storage import writer
from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI, _app, _open_for_two, _send, press, reach
from words.i18n import t


async def _refused(*_args, **_kwargs):
    raise exc.OperationalError("INSERT INTO actions …", {}, sqlite3.OperationalError("database or disk is full"))


def _group_texts(api: FakeBotAPI, key: str) -> list[dict]:
    text = t("en", key)
    return [params for name, params in api.calls if name == "sendMessage" and int(params["chat_id"]) == GROUP
            and params.get("text") == text]


async def _press_next(app, api, service, table: int) -> dict:
    """The member who must act presses the AI's choice for them; the answer to their press."""
    from engine.games import GAMES

    game = GAMES["deal"]
    state = service.cache.state(table) or (await service.cache.get(table)).state
    seat = game.rules.waiting_for(state)[0].seat
    uid = int(service.cache.row(table).seats[seat]["user"][3:])
    wanted = game.choose_listed(state, seat)
    token = next(tok for a, tok in service.buttons(table, seat) if a == wanted)
    token, where = await reach(app, api, service, table, uid, token)
    await _send(app, press(token, uid, chat=where))
    await asyncio.gather(*service.core._telling)  # the group's notice goes out beside the answer
    return next(params for name, params in reversed(api.calls) if name == "answerCallbackQuery")


async def test_a_full_disk_is_told_to_the_group_once_and_play_goes_on_when_there_is_room(tmp_path, monkeypatch):
    path = tmp_path / "full.db"
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{path}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            table = await _open_for_two(app, api, "deal")
            version = service.cache.row(table).version
            real = writer.append_move
            monkeypatch.setattr(writer, "append_move", _refused)
            answers = [await _press_next(app, api, service, table) for _ in range(3)]
            assert [a.get("text") for a in answers] == [t("en", "service.full")] * 3, answers
            assert len(_group_texts(api, "service.storage_full")) == 1, "the group is told once"
            assert (await service.cache.get(table)).row.version == version, "nothing was stored"

            monkeypatch.setattr(writer, "append_move", real)  # room again: the next press plays at once
            answer = await _press_next(app, api, service, table)
            assert not answer.get("text"), answer
            assert service.cache.row(table).version == version + 1
            for _ in range(20):  # and the game goes on
                await _press_next(app, api, service, table)
            assert service.cache.row(table).version > version + 10
            assert len(_group_texts(api, "service.storage_full")) == 1, "told once, not again once it played"
    finally:
        await service.close()
