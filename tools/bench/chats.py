"""``tycoon bench``'s figures for many Telegram groups at once under Telegram's documented limits
(issue 44): the real python-telegram-bot application, with its lanes (``bot/telegram_app/lanes.py``),
over the fake Bot API on 127.0.0.1 (``tests/fakes/telegram_server.py``) that keeps the flood limits
(``tests/fakes/telegram_limits.FloodLimits``: a burst then one a second per chat, 20 a minute per
group, 30 a second in all, 429 with ``retry_after``). The fakes are test doubles from ``tests/``:
this folder is not installed, and runs from the checkout.

``groups`` tables play at once, half Deal and half board, four people each. In every group a
player presses what the AI would pick among their buttons, a person's pause after they can see
the table (``think`` seconds, drawn from a seeded generator), for ``seconds``. Figures, prefixed
``tg<groups>_`` (``…_flood_`` for the run with one group's flood wait):

- ``answer_p50_ms`` / ``answer_p99_ms``: a press until Telegram has its answer (answerCallbackQuery);
- ``visible_p50_ms`` / ``visible_p99_ms``: a press until the group's chat gets the next call that
  Telegram takes and that shows something (the table in a state with the move; taking the buttons
  off a replaced message does not count);
- ``moves``: presses that moved a table; ``calls_per_move`` and ``group_calls_per_move``: the calls
  Telegram took once the games began (the lobbies' are left out), all and in the groups, per move;
  ``deal_calls_per_move`` and ``board_calls_per_move``: all calls for each game's tables (a group's,
  its players' private chats', the answers to its presses) per move there; ``429s``: refusals our
  own traffic caused (the injected wait's excluded); ``unanswered``: presses never answered.

With ``flood`` seconds, one Deal group is refused for that long from its first move after a quarter
of the run (as Telegram does to a group that went over; that move's table is the one held back):
its players stop pressing until they can see their table again. ``flood_others_visible_p99_ms`` is
the other groups' p99, ``flood_clocks_charged`` the moves at the penalised table while it could not
be seen (clocks that ran out on its players), ``flood_edits_after`` the calls that showed something
in that group in the second after the wait ended (one per message, each in its newest state).
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from pathlib import Path


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * (len(values) - 1)))] * 1000, 1)


def bench_telegram_groups(groups: int = 30, seconds: float = 90.0, flood: float | None = None,
                          think: tuple[float, float] = (1.0, 4.0), seed: int = 44) -> dict:
    return asyncio.run(_run(groups, seconds, flood, think, seed))


async def _run(groups: int, seconds: float, flood: float | None, think: tuple[float, float], seed: int) -> dict:
    from telegram import Update

    from bot.telegram_app.app import build_application
    from engine.games import GAMES
    from engine.service.tables import GameService
    from tests.fakes.telegram_limits import FloodLimits
    from tests.fakes.telegram_server import BOT_TOKEN, BotAPIServer

    rng = random.Random(seed)
    server = BotAPIServer(flood=FloodLimits())
    port = await server.start()
    folder = tempfile.mkdtemp(prefix="tycoon-chat-bench-")
    service = await GameService.open(f"sqlite:///{Path(folder) / 'bench.db'}")
    app = build_application(service, BOT_TOKEN, base_url=f"http://127.0.0.1:{port}/p0/bot", lang="zh-Hans",
                            seed=seed)
    answered: dict[str, float] = {}
    group_calls: dict[int, list[float]] = {}  # chat -> when Telegram took a call there
    taken = {"all": 0, "groups": 0, "deal": 0, "board": 0}
    query_chat: dict[str, int] = {}  # a press's id -> its group
    playing: list[float] = []  # when the games began: the lobbies' calls are not counted per move

    def watch(call, ok: bool) -> None:
        if not ok:
            return
        if call.method == "answerCallbackQuery":
            answered[call.params["callback_query_id"]] = call.at
        chat = call.params.get("chat_id")
        if chat is not None and int(chat) < 0 and call.method != "editMessageReplyMarkup":
            group_calls.setdefault(int(chat), []).append(call.at)  # a call that shows something
        if playing and call.at >= playing[0]:
            taken["all"] += 1
            taken["groups"] += chat is not None and int(chat) < 0
            # whose table the call was for: a group's own, a player's private chat, a press's answer
            group = (int(chat) if int(chat) < 0 else -(5000 + int(chat) // 100 - 1)) if chat is not None \
                else query_chat.get(call.params.get("callback_query_id"))
            if group is not None:
                taken[games_of[group]] += 1

    server.watchers.append(watch)
    ids = iter(range(1, 10**9))

    def user(uid: int) -> dict:
        return {"id": uid, "is_bot": False, "first_name": f"P{uid}"}

    async def send(update: dict) -> None:
        await app.process_update(Update.de_json(update, app.bot))

    def command(text: str, uid: int, chat: int) -> dict:
        n = next(ids)
        return {"update_id": n, "message": {"message_id": n, "date": 0, "chat": {"id": chat, "type": "supergroup"},
                                            "from": user(uid), "text": text, "entities": [
                                                {"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]}}

    def press(data: str, uid: int, chat: int) -> dict:
        n = next(ids)
        query_chat[str(n)] = chat
        return {"update_id": n, "callback_query": {
            "id": str(n), "from": user(uid), "chat_instance": "c", "data": data,
            "message": {"message_id": 1, "date": 0, "chat": {"id": chat, "type": "supergroup"}, "text": "x"}}}

    answers, visible, others_visible, presses = [], [], [], []
    moves = {"n": 0, "deal": 0, "board": 0}
    chats = [-(5000 + g) for g in range(groups)]
    games_of = {chat: "deal" if g % 2 == 0 else "board" for g, chat in enumerate(chats)}
    penalised = chats[0]
    flood_window: list[float] = []
    flood_due = asyncio.Event()  # from a quarter of the run on: the penalised group's next move meets the wait
    flooded_at_version: list[int] = []
    charged = {"n": 0}
    edits_after = {"n": None}

    async def open_table(chat: int, game: str) -> int:
        base = 100 * (abs(chat) - 4999)
        await send(command(f"/newgame {game}", base + 1, chat))
        await service.idle()
        table = (await service.lobby.table_in_chat(f"tg:{chat}")).id
        for uid in (base + 2, base + 3, base + 4):
            await send(press(service.sign(f"l:{table}:join"), uid, chat))
        await send(press(service.sign(f"l:{table}:start"), base + 1, chat))
        await service.idle()
        return table

    async def play(chat: int, table: int, game: str, until: float) -> None:
        plug, local = GAMES[game], random.Random(rng.random())
        while time.monotonic() < until and service.cache.row(table).status == "running":
            await asyncio.sleep(local.uniform(*think))
            if flood_window and chat == penalised and flood_window[0] <= time.monotonic() < flood_window[1] + 0.5:
                continue  # its players cannot see the table: they wait for it
            waiting = service.cache.waiting_for(table)
            if not waiting:
                continue
            seat = waiting[0].seat
            state = service.cache.state(table)
            wanted = plug.choose_listed(state, seat)
            token = next((tok for a, tok in service.buttons(table, seat) if a == wanted), None)
            if token is None:
                continue
            uid = int(service.cache.row(table).seats[seat]["user"][3:])
            version = service.cache.row(table).version
            update = press(token, uid, chat)
            flooding = bool(flood) and chat == penalised and flood_due.is_set() and not flood_window
            if flooding:  # the wait begins as this move is to be shown: its table waits for the group
                server.flood.flood(penalised, flood)
                flood_window[:] = [time.monotonic(), time.monotonic() + flood]
            began = time.monotonic()
            presses.append(update["callback_query"]["id"])
            await send(update)
            if flooding:
                flooded_at_version.append(service.cache.row(table).version)
            if service.cache.row(table).version <= version:
                continue
            moves["n"] += 1
            moves[game] += 1
            answer = answered.get(update["callback_query"]["id"])
            if answer is not None:
                answers.append(answer - began)
            for _ in range(600):  # the group's next taken call after the press
                seen = [w for w in group_calls.get(chat, []) if w >= began]
                if seen:
                    visible.append(seen[0] - began)
                    if chat != penalised:
                        others_visible.append(seen[0] - began)
                    break
                await asyncio.sleep(0.05)

    async with app:
        games = [games_of[chat] for chat in chats]
        tables = list(await asyncio.gather(*(open_table(chat, game) for chat, game in zip(chats, games, strict=True))))
        await app.bot_data["front"].tables.caught_up()
        began = time.monotonic()
        playing.append(began)
        until = began + seconds
        tasks = [asyncio.create_task(play(c, t, g, until)) for c, t, g in zip(chats, tables, games, strict=True)]
        if flood:
            await asyncio.sleep(seconds / 4)
            flood_due.set()
            while not flooded_at_version:
                await asyncio.sleep(0.05)
            await asyncio.sleep(flood_window[1] - time.monotonic())
            charged["n"] = service.cache.row(tables[0]).version - flooded_at_version[0]
            await asyncio.sleep(1.0)
            edits_after["n"] = len([w for w in group_calls.get(penalised, []) if w >= flood_window[1]])
        await asyncio.gather(*tasks)
        await service.idle()
        await app.bot_data["front"].tables.caught_up()
        ours = [r for r in server.flood.refusals if not r[3]]
    await service.close()
    await server.stop()
    name = f"tg{groups}_flood_" if flood else f"tg{groups}_"
    out = {
        f"{name}moves": moves["n"],
        f"{name}answer_p50_ms": _pct(answers, 0.5), f"{name}answer_p99_ms": _pct(answers, 0.99),
        f"{name}visible_p50_ms": _pct(visible, 0.5), f"{name}visible_p99_ms": _pct(visible, 0.99),
        f"{name}429s": len(ours),
        f"{name}calls_per_move": round(taken["all"] / max(1, moves["n"]), 2),
        f"{name}group_calls_per_move": round(taken["groups"] / max(1, moves["n"]), 2),
        f"{name}deal_calls_per_move": round(taken["deal"] / max(1, moves["deal"]), 2),
        f"{name}board_calls_per_move": round(taken["board"] / max(1, moves["board"]), 2),
        f"{name}unanswered": len([p for p in presses if p not in answered]),
    }
    if flood:
        out.update({f"{name}others_visible_p99_ms": _pct(others_visible, 0.99),
                    f"{name}clocks_charged": charged["n"], f"{name}edits_after": edits_after["n"]})
    return out


if __name__ == "__main__":
    import sys

    # python -m tools.bench.chats [groups] [seconds] [flood seconds or 0] [least think] [most think]
    groups = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 90.0
    flood = float(sys.argv[3]) if len(sys.argv) > 3 and float(sys.argv[3]) > 0 else None
    think = (float(sys.argv[4]), float(sys.argv[5])) if len(sys.argv) > 5 else (1.0, 4.0)
    print(json.dumps(bench_telegram_groups(groups, seconds, flood, think)))
