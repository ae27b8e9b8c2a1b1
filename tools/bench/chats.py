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
  own traffic caused (the injected wait's excluded); ``unanswered``: presses never answered;
  ``refused``: presses the service refused (a button from before another process's move, say).

With ``flood`` seconds, one Deal group is refused for that long from its first move after a quarter
of the run (as Telegram does to a group that went over; that move's table is the one held back):
its players stop pressing until they can see their table again. ``flood_others_visible_p99_ms`` is
the other groups' p99, ``flood_clocks_charged`` the moves at the penalised table while it could not
be seen (clocks that ran out on its players), ``flood_edits_after`` the calls that showed something
in that group from the wait's end until its table was shown again and its players went on (one per
message, each in its newest state).
"""

from __future__ import annotations

import asyncio
import contextlib
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
                          think: tuple[float, float] = (2.0, 8.0), seed: int = 44, processes: int = 1,
                          url: str | None = None) -> dict:
    """``processes`` > 1: that many bot processes share the token (``Limits.shared``), each with its
    own service on the PostgreSQL at ``url``; every press goes to one of them at random, as a
    balancer sends webhooks."""
    return asyncio.run(_run(groups, seconds, flood, think, seed, processes, url))


async def _run(groups: int, seconds: float, flood: float | None, think: tuple[float, float], seed: int,
               processes: int = 1, url: str | None = None) -> dict:
    from telegram import Update

    from bot.telegram_app.app import build_application
    from bot.telegram_app.lanes import Limits
    from engine.games import GAMES
    from engine.service.tables import GameService
    from tests.fakes.telegram_limits import FloodLimits
    from tests.fakes.telegram_server import BOT_TOKEN, BotAPIServer

    rng = random.Random(seed)
    server = BotAPIServer(flood=FloodLimits())
    port = await server.start()
    if processes > 1:  # one database, a process per service; chats and people of this run alone
        services = [await GameService.open(url) for _ in range(processes)]
        for sv in services:  # each hears which tables the others moved (as ``tycoon run`` does)
            sv.notices.start()
            await asyncio.wait_for(sv.notices.ready.wait(), 30)
        first = 10**9 + time.time_ns() // 1000 % 10**8 * 100
    else:
        folder = tempfile.mkdtemp(prefix="tycoon-chat-bench-")
        services, first = [await GameService.open(f"sqlite:///{Path(folder) / 'bench.db'}")], 5000
    service = services[0]
    apps = [build_application(sv, BOT_TOKEN, base_url=f"http://127.0.0.1:{port}/p{i}/bot", lang="zh-Hans", seed=seed,
                              limits=Limits().shared(processes)) for i, sv in enumerate(services)]
    group_of_user: dict[int, int] = {}
    answered: dict[str, float] = {}
    told: set[str] = set()
    group_calls: dict[int, list[float]] = {}  # chat -> when Telegram took a call there
    taken = {"all": 0, "groups": 0, "deal": 0, "board": 0}
    query_chat: dict[str, int] = {}  # a press's id -> its group
    playing: list[float] = []  # when the games began: the lobbies' calls are not counted per move

    def watch(call, ok: bool) -> None:
        if not ok:
            return
        if call.method == "answerCallbackQuery":
            answered[call.params["callback_query_id"]] = call.at
            if call.params.get("text"):  # a refusal says why; a move taken is answered silently
                told.add(call.params["callback_query_id"])
        chat = call.params.get("chat_id")
        if chat is not None and int(chat) < 0 and call.method != "editMessageReplyMarkup":
            group_calls.setdefault(int(chat), []).append(call.at)  # a call that shows something
        if playing and call.at >= playing[0]:
            taken["all"] += 1
            taken["groups"] += chat is not None and int(chat) < 0
            # whose table the call was for: a group's own, a player's private chat, a press's answer
            group = (int(chat) if int(chat) < 0 else group_of_user.get(int(chat))) if chat is not None \
                else query_chat.get(call.params.get("callback_query_id"))
            if group is not None:
                taken[games_of[group]] += 1

    server.watchers.append(watch)
    ids = iter(range(1, 10**9))

    def user(uid: int) -> dict:
        return {"id": uid, "is_bot": False, "first_name": f"P{uid}"}

    async def send(update: dict, process: int = 0) -> None:
        await apps[process].process_update(Update.de_json(update, apps[process].bot))

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
    chats = [-(first + g) for g in range(groups)]
    games_of = {chat: "deal" if g % 2 == 0 else "board" for g, chat in enumerate(chats)}
    penalised = chats[0]
    flood_window: list[float] = []
    resumed: list[float] = []  # when the waiting group's table was shown again and its players went on
    flood_due = asyncio.Event()  # from a quarter of the run on: the penalised group's next move meets the wait
    flooded_at_version: list[int] = []
    charged, refused = {"n": 0}, {"n": 0}
    edits_after = {"n": None}

    async def open_table(chat: int, game: str) -> int:
        base = 100 * (abs(chat) - first + 1) + (first - 5000) * 1000
        group_of_user.update({base + k: chat for k in (1, 2, 3, 4)})
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
        while time.monotonic() < until:
            await asyncio.sleep(local.uniform(*think))
            process = local.randrange(processes)  # where the balancer sends this press
            service = services[process]
            live = await service.cache.get(table)  # read again when another process moved it
            if live is None or live.row.status != "running":
                break
            if flood_window and chat == penalised and time.monotonic() >= flood_window[0] and not resumed:
                if time.monotonic() < flood_window[1] or any(a.bot_data["front"].tables.behind(table) for a in apps):
                    continue  # its players cannot see the table: they wait until it is shown again
                resumed.append(time.monotonic())
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
            await send(update, process)
            if flooding:
                flooded_at_version.append(service.cache.row(table).version)
            if update["callback_query"]["id"] in told or service.cache.row(table).version <= version:
                refused["n"] += 1
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

    async def caught_up() -> None:
        for sv, app in zip(services, apps, strict=True):
            await sv.idle()
            await app.bot_data["front"].tables.caught_up()

    async with contextlib.AsyncExitStack() as stack:
        for app in apps:
            await stack.enter_async_context(app)
        games = [games_of[chat] for chat in chats]
        tables = list(await asyncio.gather(*(open_table(chat, game) for chat, game in zip(chats, games, strict=True))))
        await caught_up()
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
            charged["n"] = (await service.cache.get(tables[0])).row.version - flooded_at_version[0]
        await asyncio.gather(*tasks)
        await caught_up()
        if flood:  # what the waiting group was shown from the wait's end until its players went on
            end = resumed[0] if resumed else float("inf")
            edits_after["n"] = len([w for w in group_calls.get(penalised, []) if flood_window[1] <= w < end])
        ours = [r for r in server.flood.refusals if not r[3]]
        if processes > 1:  # a shared database: no later process brings this run's tables back
            from tools.bench.load import end_tables

            await end_tables(service, tables)
    for sv in services:
        await sv.close()
    await server.stop()
    name = f"tg{groups}_" + (f"{processes}p_" if processes > 1 else "") + ("flood_" if flood else "")
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
        f"{name}refused": refused["n"],
    }
    if flood:
        out.update({f"{name}others_visible_p99_ms": _pct(others_visible, 0.99),
                    f"{name}clocks_charged": charged["n"], f"{name}edits_after": edits_after["n"]})
    return out


if __name__ == "__main__":
    import sys

    from tools.bench.load import bench_database_url

    # python -m tools.bench.chats [groups] [seconds] [flood seconds or 0] [least think] [most think]
    #   [processes: 2 and more need TEST_DATABASE_URL or TYCOON_BENCH_DATABASE_URL, a PostgreSQL]
    groups = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 90.0
    flood = float(sys.argv[3]) if len(sys.argv) > 3 and float(sys.argv[3]) > 0 else None
    think = (float(sys.argv[4]), float(sys.argv[5])) if len(sys.argv) > 5 else (2.0, 8.0)
    processes = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    print(json.dumps(bench_telegram_groups(groups, seconds, flood, think, processes=processes,
                                           url=bench_database_url())))
