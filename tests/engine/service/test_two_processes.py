"""Two real bot processes (``tycoon run``) on one PostgreSQL, fed by webhook, against one fake
Bot API served over HTTP: games played to the end with every second update going to each process.

The fake Bot API (``BotAPIServer``, aiohttp on 127.0.0.1) answers like Telegram and keeps what each
message shows (text or caption, buttons, picture hash); message ids are unique across both
processes; an edit that changes nothing is refused ("message is not modified") and counted. Each
process reaches it under a path prefix of its own (``/p0``, ``/p1`` in ``TELEGRAM_API_URL``), so
every call is known to come from one process or the other.

Members press what the bot showed them: the test reads the table from the database, works out the
AI's choice for the first person who owes a decision, waits until that exact button is on one of
the member's messages (the group's or their private one; "My hand" / "My options" is pressed first
when it is not) and presses it through the next process in turn. One member of one game (whose
chat has 5-second clocks) never presses: their clocks fire, three misses hand their seat to the AI.
Each played game's lobby (/newgame, joins, Start) goes to one process: a lobby whose updates
alternate would lose joins without care (a fourth group checks that it does not). The board game gets a turn cap of 60
(written to its row before the first move) so that it ends within the test's time.

Everything is played once (a module fixture, 20-30 seconds) and the tests below each check one
promise of several processes on one database.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.chat.steps import node_id
from engine.games import GAMES
from engine.service import tokens
from engine.service.views import digests
from tests.bot import stepping
from tests.fakes.telegram_server import BotAPIServer, Call, _caption, _json
from tests.paths import ROOT
from words.games import WORDS
from words.i18n import t

DB_URL = os.environ.get("TEST_DATABASE_URL")
pytestmark = [pytest.mark.skipif(not DB_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)"),
              pytest.mark.slow,
              # aiohttp's own multipart reader, reading python-telegram-bot's uploads in the fake Bot API
              pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")]


BOT_TOKEN = "123:TEST"
HOOK_SECRET = "two-processes-secret"
HOOK_URL = "https://bot.example.com/tg"  # the processes serve its path, /tg
SIGNED = ("l:", "h:", "b:", "e:", "s:", "T:", "m:")
SHORT_CLOCKS = dict.fromkeys(("turn", "card", "response", "payment", "discard", "choice", "auction"), 5)

# the games played at once: group, game, members (user ids), members who never press, 5-second clocks
GAMES_PLAYED = [
    (-1001, "deal", (11, 12, 13), (), False),
    (-1002, "board", (21, 22), (), False),
    (-1003, "deal", (31, 32, 33), (33,), True),
]
LOBBY_GROUP, LOBBY_MEMBERS = -1004, (41, 42, 43)  # a lobby whose every update alternates
BOARD_TURN_CAP = 60  # a board game between two AI-minded people runs to 1,000 turns: ended by valuation here


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Press:
    group: int
    table: int
    uid: int
    seat: int
    version: int  # the version the token is for
    stored: int  # the table's version in the database right before the press was posted
    process: int
    answer: dict
    posted_at: float  # wall clock


@dataclass
class Played:
    tables: dict[int, int] = field(default_factory=dict)  # group -> table id
    presses: list[Press] = field(default_factory=list)
    hand_presses: list[tuple] = field(default_factory=list)  # (group, version, decision kind, user, when)
    two_current: list[tuple] = field(default_factory=list)  # (group, version, message ids): 3+ tables with buttons
    statuses: dict[int, str] = field(default_factory=dict)  # group -> final status
    turns: dict[int, int] = field(default_factory=dict)  # group -> final turn number
    seated: dict[int, list[str]] = field(default_factory=dict)  # group -> users seated at the start
    lobby_seats: list[str] = field(default_factory=list)  # the alternating lobby's seats after the joins
    lobby_answers: list[dict] = field(default_factory=list)
    fired: list[tuple] = field(default_factory=list)  # (deadline id, table, seat, kind) of clocks done
    clock_moves: list[tuple] = field(default_factory=list)  # (table, seq, deadline id) of moves by clocks
    api: BotAPIServer | None = None
    deliveries: list[int] = field(default_factory=lambda: [0, 0])
    errors: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Harness:
    def __init__(self, api: BotAPIServer, ports: list[int], pool, played: Played) -> None:
        self.api, self.ports, self.pool, self.played = api, ports, pool, played
        self.update_id = 0
        self.turn = 0  # which process gets the next update
        self.secret = b""
        self.session = None

    async def deliver(self, update: dict, to: int | None = None) -> int:
        """POST an update to a process's webhook (the next in turn unless ``to``); which one."""
        process = self.turn % 2 if to is None else to
        if to is None:
            self.turn += 1
        self.played.deliveries[process] += 1
        url = f"http://127.0.0.1:{self.ports[process]}/tg"
        async with self.session.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": HOOK_SECRET}) \
                as answer:
            assert answer.status == 200, (answer.status, await answer.text())
        return process

    def _user(self, uid: int) -> dict:
        return {"id": uid, "is_bot": False, "first_name": f"U{uid}"}

    async def command(self, text: str, uid: int, chat: int, to: int | None = None) -> None:
        self.update_id += 1
        word = text.split()[0]
        await self.deliver({"update_id": self.update_id, "message": {
            "message_id": self.update_id, "date": int(time.time()), "chat": {"id": chat, "type": "supergroup"},
            "from": self._user(uid), "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(word)}]}}, to)

    async def press(self, data: str, uid: int, chat: int, message_id: int, to: int | None = None) -> tuple[dict, int]:
        """A press of a button the bot showed; its answerCallbackQuery (every press gets one)."""
        self.update_id += 1
        qid = f"q{self.update_id}"
        process = await self.deliver({"update_id": self.update_id, "callback_query": {
            "id": qid, "from": self._user(uid), "chat_instance": "c", "data": data,
            "message": {"message_id": message_id, "date": int(time.time()),
                        "chat": {"id": chat, "type": "supergroup" if chat < 0 else "private"}}}}, to)
        await self.until(lambda: qid in self.api.answers, 30, f"the answer to {uid}'s press of {data}")
        return self.api.answers[qid], process

    async def until(self, check, timeout: float, what: str):
        end = time.monotonic() + timeout
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError(f"waited {timeout} s for {what}")
            await self.api.wait_change(0.05)

    async def row(self, table: int) -> dict:
        async with self.pool.acquire() as conn:
            row = await conn.fetchrow("SELECT status, version, snapshot, seats, game FROM tables WHERE id = $1", table)
        return {**dict(row), "seats": _json(row["seats"])}

    # -- a game ----------------------------------------------------------------------------------

    async def open_lobby(self, group: int, game: str, members, to: int | None) -> tuple[int, int]:
        """/newgame and the members' joins; the table and its lobby message."""
        await self.command(f"/newgame {game}", members[0], group, to)
        data, lobby = await self.until(lambda: next(((d, m) for m, bs in self.api.live(group).items() for d in bs
                                                    if d.startswith("l:")), None), 30, f"the lobby in {group}")
        table = int(data.split(":")[1])
        for uid in members[1:]:
            join, mid = await self.until(lambda: self.api.find_prefix(f"l:{table}:join", group), 30, "the join button")
            answer, _ = await self.press(join, uid, group, mid, to)
            if to is None:
                self.played.lobby_answers.append(answer)
        return table, lobby

    async def play(self, group: int, game: str, members, away, to: int) -> None:
        """The lobby (all in one process: see ``test_a_lobby_whose_updates_alternate…``), then every
        press in turn between the processes, until the game is over."""
        table, _ = await self.open_lobby(group, game, members, to)
        self.played.tables[group] = table
        start, mid = await self.until(lambda: self.api.find_prefix(f"l:{table}:start", group), 30, "Start")
        await self.press(start, members[0], group, mid, to)
        row = await self.row(table)
        self.played.seated[group] = [s["user"] for s in row["seats"]]
        assert row["status"] == "running", (group, row["status"])
        if game == "board":  # the processes read it with the table (each reads it again after the other's move)
            async with self.pool.acquire() as conn:
                await conn.execute("UPDATE tables SET turn_cap = $1 WHERE id = $2", BOARD_TURN_CAP, table)
        rules, plug = GAMES[game].rules, GAMES[game]
        presses = 0
        while presses < 2500:
            row = await self.row(table)
            if row["status"] != "running":
                break
            state = rules.decode_state(row["snapshot"])
            seats = row["seats"]
            people = [d for d in rules.waiting_for(state)
                      if not seats[d.seat]["ai"] and int(seats[d.seat]["user"][3:]) not in away]
            if not people:  # an AI seat or the member who is away: their clock, or the AI, moves on
                await self.moved(table, row["version"], 30)
                continue
            decision = people[0]
            uid = int(seats[decision.seat]["user"][3:])
            wanted = plug.choose_listed(state, decision.seat)
            legal = rules.legal_actions(state, decision.seat)
            # the steps that lead to it (``bot.chat.steps``), as the bot words them ("en"); of two
            # moves alike (a twin card), the bot shows the first
            names = {i: s["name"] for i, s in enumerate(seats)}
            seen = rules.view(state, decision.seat)
            path = tuple(WORDS[game].steps(seen, wanted, "en", names, seen.get("ruleset")))
            index = next(i for i, a in enumerate(legal)
                         if tuple(WORDS[game].steps(seen, a, "en", names, seen.get("ruleset"))) == path)
            digest = digests(rules, state, [legal[index]])[0]  # what the bot signs with the button
            token = tokens.encode(self.secret, tokens.Token(table, row["version"], decision.seat, index, digest))
            nodes = [node_id(path[:n]) for n in range(1, len(path))]
            where = await self.shown(token, uid, group, table, row["version"], decision.kind, nodes)
            if where is None:
                continue  # the table moved on meanwhile (a clock): read it again
            tables_shown = [mid for mid, buttons in self.api.live(group).items()
                            if self.api.messages[(group, mid)]["picture"] is not None]
            if len(tables_shown) > 2:  # the newest, and the one it replaced while its buttons go
                self.played.two_current.append((group, row["version"], tables_shown))
            stored = (await self.row(table))["version"]
            posted_at = time.time()
            answer, process = await self.press(token, uid, where[0], where[1])
            self.played.presses.append(Press(group, table, uid, decision.seat, row["version"], stored, process,
                                             answer, posted_at))
            presses += 1
        row = await self.row(table)
        self.played.statuses[group] = row["status"]
        self.played.turns[group] = rules.decode_state(row["snapshot"]).turn_number

    async def moved(self, table: int, version: int, timeout: float) -> None:
        end = time.monotonic() + timeout
        while (await self.row(table))["version"] == version:
            if time.monotonic() > end:
                raise AssertionError(f"table {table} did not move past version {version} in {timeout} s")
            await asyncio.sleep(0.05)

    async def shown(self, token: str, uid: int, group: int, table: int, version: int, kind: str,
                    nodes: list[str]) -> tuple[int, int] | None:
        """Where the member sees the button (their private chat or the group), once the bot showed
        it; "My hand" / "My options" is pressed when the bot has gone quiet without showing it, and
        the steps that lead to it (``nodes``) once shown. None when the table moved on meanwhile."""
        chats = (uid, group)
        asked_at = None
        began = time.monotonic()
        end = began + 40
        stepped: dict[str, float] = {}  # a step pressed, and when (pressed again if shown again later)
        while time.monotonic() < end:
            where = self.api.find(token, chats)
            if where is not None:
                return where
            if (await self.row(table))["version"] != version:
                return None
            mine = [data.rsplit(".", 1)[0] for buttons in self.api.live(uid).values() for data in buttons]
            step = stepping.next_step([d for d in mine if time.monotonic() - stepped.get(d, -9.0) > 2.0], nodes)
            if step is not None:  # a step on the way: its keyboard replaces this one
                stepped[step] = time.monotonic()
                found = self.api.find_prefix(step, uid)
                await self.press(found[0], uid, uid, found[1])
                continue
            quiet = time.monotonic() - max(began, *(self.api.touched.get(c, 0.0) for c in chats))
            hand = self.api.find_prefix(f"h:{table}", group) if asked_at is None and quiet > 0.8 else None
            if hand is not None:  # (on a busy machine the bot may still be posting the table message)
                self.played.hand_presses.append((group, version, kind, uid, time.monotonic()))
                await self.press(hand[0], uid, group, hand[1])
                asked_at = time.monotonic()
            elif asked_at is not None and quiet > 10 and time.monotonic() - asked_at > 10:
                raise AssertionError(f"table {table} v{version}: {uid} was never shown {token}")
            await self.api.wait_change(0.1)
        raise AssertionError(f"table {table} v{version}: {uid} was not shown {token} in 40 s")

    async def alternating_lobby(self) -> None:
        """A lobby whose every update goes to the next process in turn; the seats it ends with."""
        table, _ = await self.open_lobby(LOBBY_GROUP, "deal", LOBBY_MEMBERS, None)
        self.played.tables[LOBBY_GROUP] = table
        self.played.lobby_seats = [s["user"] for s in (await self.row(table))["seats"]]
        cancel, mid = await self.until(lambda: self.api.find_prefix(f"l:{table}:cancel", LOBBY_GROUP), 30, "Cancel")
        await self.press(cancel, LOBBY_MEMBERS[0], LOBBY_GROUP, mid)


def _spawn(index: int, api_port: int, port: int, tmp: Path, build: Path = ROOT, log_name: str = "") -> subprocess.Popen:
    """A bot process fed by webhook on ``port``; ``build``: the source tree it runs (a previous
    release's, for a rolling deploy), its output in ``log_name`` (``bot<index>.log``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_", "TYCOON_"))}
    env.update(DATABASE_URL=DB_URL, TELEGRAM_TOKEN=BOT_TOKEN, TELEGRAM_API_URL=f"http://127.0.0.1:{api_port}/p{index}",
               TELEGRAM_WEBHOOK_URL=HOOK_URL, TELEGRAM_WEBHOOK_LISTEN="127.0.0.1", PORT=str(port),
               TELEGRAM_WEBHOOK_SECRET=HOOK_SECRET, TELEGRAM_FLOOD_LIMITS="off",
               TYCOON_HEARTBEAT=str(tmp / f"heartbeat{index}"), TYCOON_LANG="en", PYTHONUNBUFFERED="1")
    with open(tmp / (log_name or f"bot{index}.log"), "wb") as log:  # the process keeps its own copy of the file
        return subprocess.Popen([sys.executable, "-m", "bot.process.cli", "run"], cwd=build, env=env, stdout=log,
                                stderr=subprocess.STDOUT)


def _serves(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


async def _play_everything(tmp: Path) -> Played:
    import aiohttp
    import asyncpg

    from engine.service.storage.database import asyncpg_dsn
    from tests.conftest import drop_everything

    played = Played()
    began = time.monotonic()
    await drop_everything(DB_URL)
    api = BotAPIServer()
    played.api = api
    api_port = await api.start()
    ports = [_free_port(), _free_port()]
    bots = [_spawn(i, api_port, ports[i], tmp) for i in range(2)]
    pool = None
    try:
        harness = Harness(api, ports, None, played)
        for i, bot in enumerate(bots):  # both serve their webhook (both set it with Telegram)
            await harness.until(lambda i=i, bot=bot: bot.poll() is not None or (
                _serves(ports[i]) and any(c.method == "setWebhook" and c.process == f"p{i}" for c in api.calls)),
                60, f"bot process {i} to serve")
            assert bot.poll() is None, f"bot process {i} ended: {(tmp / f'bot{i}.log').read_text()[-3000:]}"
        pool = await asyncpg.create_pool(asyncpg_dsn(DB_URL), min_size=1, max_size=4)
        harness.pool = pool
        async with pool.acquire() as conn:
            harness.secret = bytes.fromhex(await conn.fetchval("SELECT value FROM settings WHERE key = 'token_secret'"))
            for group, *_rest, short in GAMES_PLAYED:
                if short:  # this chat's clocks: 5 s (the shortest a chat may set), so they fire during the test
                    await conn.execute("INSERT INTO chat_settings (chat_key, lang, rulesets, clocks) "
                                       "VALUES ($1, '', '{}', $2)", f"tg:{group}", json.dumps(SHORT_CLOCKS))
        async with aiohttp.ClientSession() as session:
            harness.session = session
            await harness.alternating_lobby()
            await asyncio.wait_for(asyncio.gather(*(
                harness.play(group, game, members, away, n % 2)
                for n, (group, game, members, away, _short) in enumerate(GAMES_PLAYED))), 240)
            # the last updates (the results) reach the groups: everything quiet for a second
            await harness.until(lambda: time.monotonic() - max(api.touched.values()) > 1.0, 30, "quiet")
        async with pool.acquire() as conn:
            played.fired = [tuple(r) for r in await conn.fetch(
                "SELECT id, table_id, seat, kind FROM deadlines WHERE status = 'done' AND table_id IS NOT NULL")]
            played.clock_moves = [tuple(r) for r in await conn.fetch(
                "SELECT table_id, seq, deadline_id FROM actions WHERE deadline_id IS NOT NULL")]
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.send_signal(signal.SIGTERM)
        for bot in bots:
            try:
                bot.wait(10)
            except subprocess.TimeoutExpired:
                bot.kill()
                bot.wait(10)
        if pool is not None:
            await pool.close()
        await api.stop()
        played.logs = [(tmp / f"bot{i}.log").read_text(errors="replace") for i in range(2)]
        played.seconds = time.monotonic() - began
    return played


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Played:
    return asyncio.run(_play_everything(tmp_path_factory.mktemp("two")))


def _group_photos(played: Played, group: int) -> list[Call]:
    return [c for c in played.api.calls if c.method == "sendPhoto" and int(c.params["chat_id"]) == group]


def test_every_game_is_played_to_the_end_with_presses_through_both_processes(played):
    assert played.statuses == {group: "over" for group, *_ in GAMES_PLAYED}, played.statuses
    for group, _game, members, _away, _short in GAMES_PLAYED:
        assert played.seated[group] == [f"tg:{uid}" for uid in members]
        by_process = {p.process for p in played.presses if p.group == group}
        assert by_process == {0, 1}, f"group {group}: presses reached one process only"
        moved_by = {c.process for c in _group_photos(played, group)}
        assert moved_by == {"p0", "p1"}, f"group {group}: one process made every new table message"
    assert abs(played.deliveries[0] - played.deliveries[1]) <= len(GAMES_PLAYED) * 8  # the lobbies aside, in turn
    assert not any("Traceback" in log for log in played.logs), [log[-3000:] for log in played.logs if
                                                                 "Traceback" in log][:1]


def test_no_press_of_a_current_button_is_refused(played):
    """A press whose token is at the table's stored version when it is posted is taken, whichever
    process gets it and whatever that process's copy of the table holds. (A press that a clock
    beat to it is refused rightly: its version had moved on.)"""
    assert played.presses and all(p.answer is not None for p in played.presses)
    out_of_date = t("en", "service.out_of_date")
    by_clock = {(table, seq) for table, seq, _deadline in played.clock_moves}
    current = [p for p in played.presses if p.stored == p.version and (p.table, p.version + 1) not in by_clock]
    assert not [p for p in current if p.answer.get("text") == out_of_date]
    refused = [(p.group, p.version, p.process, p.answer.get("text")) for p in current if p.answer.get("text")]
    assert not refused, refused[:5]  # nor for any other reason


def test_every_clock_that_fired_fired_once(played):
    away_table = played.tables[next(g for g, *_r, short in GAMES_PLAYED if short)]
    assert any(table == away_table for _id, table, _seat, _kind in played.fired), "the away member's clocks fired"
    deadline_ids = [d for _table, _seq, d in played.clock_moves]
    assert len(deadline_ids) == len(set(deadline_ids)), "a clock made two moves"
    assert {d for d, *_ in played.fired} == set(deadline_ids), "every clock marked done made exactly one move"


def test_each_group_sees_one_table_message_per_turn(played):
    """A new table message at the start, when the turn passes and at the end, sent once: no two
    alike, never more than the turns plus two (and, where only people play and every turn was
    pressed through, at least one a turn)."""
    for group, _game, _members, away, _short in GAMES_PLAYED:
        photos = _group_photos(played, group)
        captions = [_caption(c.params) for c in photos]
        assert len(set(zip(captions, [c.picture for c in photos], strict=True))) == len(photos), \
            f"group {group}: a table message was sent twice"
        assert len(set(captions)) == len(captions), f"group {group}: two table messages with one caption"
        turns = played.turns[group]
        assert 2 <= len(photos) <= turns + 2, (group, len(photos), turns)
        if not away:  # the AI never played several turns in one update here
            assert len(photos) >= turns, (group, len(photos), turns)


def test_the_table_message_a_new_one_replaces_loses_its_buttons(played):
    """The table message a new one replaces loses its buttons right after it (last of the update's
    calls, spending what the group's budget has to spare): a new table message never finds more
    than that one still with buttons, and none at all, in groups or private chats, is left with
    buttons once the games are over but the result's (a rematch, the standings, a new game)."""
    older = Counter((chat, new) for chat, data, _old, new in played.api.twice if data.count(":") == 1)
    tables_twice = [key for key, n in older.items() if n > 1]
    after = ("again", "stats", "n:deal", "n:board")
    ended = {chat: [mid for mid, ids in played.api.live(chat).items()
                    if [i.rsplit(".", 1)[0] for i in ids] != [f"l:{played.tables[chat]}:{op}" for op in after]]
             for chat in played.tables}
    left = {chat: played.api.live(chat) for group, _game, members, *_ in GAMES_PLAYED for chat in members
            if played.api.live(chat)} | {chat: mids for chat, mids in ended.items() if mids}
    assert not tables_twice and not played.two_current and not left, (tables_twice[:3], played.two_current[:3],
                                                                      {c: list(m) for c, m in left.items()})


def test_each_question_is_asked_once(played):
    """A player asked to answer out of turn (a Just Say No window) is pinged once: no prompt is
    posted with the answer button of a prompt that still shows it."""
    prompts_twice = [(chat, data, old, new) for chat, data, old, new in played.api.twice
                     if data.startswith("h:") and data.count(":") == 2]
    assert not prompts_twice, prompts_twice[:5]


def test_no_message_is_edited_to_what_it_already_shows(played):
    identical = [(c.process, c.method, c.params.get("chat_id"), c.params.get("message_id")) for c in
                 played.api.identical]
    assert identical == [] and played.api.reuploads == 0, (len(identical), identical[:5], played.api.reuploads)
    assert played.api.refused == [], played.api.refused[:5]  # nothing over Telegram's limits


def test_a_lobby_whose_updates_alternate_between_the_processes_seats_everyone(played):
    assert all(not a.get("text") for a in played.lobby_answers), played.lobby_answers
    assert played.lobby_seats == [f"tg:{uid}" for uid in LOBBY_MEMBERS]


# -- the causes, pinned with two services (two processes' worth) on one PostgreSQL ----------------


async def _two_services():
    from engine.service.tables import GameService
    from tests.conftest import drop_everything

    await drop_everything(DB_URL)
    a = await GameService.open(DB_URL)
    b = await GameService.open(DB_URL)
    for service in (a, b):
        service.notices.start()
        await asyncio.wait_for(service.notices.ready.wait(), 10)
    return a, b


async def _stored_messages(service, table: int) -> dict:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from engine.service.storage.rows import TableRow

    async with AsyncSession(service.db) as session:
        return (await session.get(TableRow, table)).messages


async def test_message_ids_stored_by_one_process_reach_the_other():
    """Process B reads a table (a press) just before process A stores the id of the table message
    it posted; B's front end must then still learn that id, and what B stores must keep it."""
    a, b = await _two_services()
    try:
        out = await a.lobby.new_table("tg:-9", "deal", None, "tg:1", "A")
        await a.lobby.join(out.table, "tg:2", "B")
        await a.lobby.start(out.table, "tg:1", seed=1)
        await b.cache.get(out.table)  # B's copy, read as A's front end is posting the first table message
        await a.lobby.set_messages(out.table, tg=101)  # what A's front end stores once posted
        await b.lobby.set_messages(out.table, tg_dm={"1": [7]})  # B's front end posts a private message
        assert (await _stored_messages(a, out.table)).get("tg") == 101, "B's write lost A's table message"
        assert (b.cache.row(out.table).messages or {}).get("tg") == 101, "B would post a second table message"
    finally:
        await a.close()
        await b.close()


async def test_a_player_asked_by_one_process_is_not_asked_again_by_the_other():
    """An auction asks every player for a bid (process A's update); one bids through process B:
    B's update must not ask the others again (each front end would ping them a second time)."""
    a, b = await _two_services()
    updates = {"a": [], "b": []}

    def keep(name):
        async def on_update(update):
            updates[name].append(update)
        return on_update

    a.subscribe(keep("a"))
    b.subscribe(keep("b"))
    users = ["tg:1", "tg:2", "tg:3"]
    rules = GAMES["board"].rules
    try:
        table = (await a.lobby.new_table("tg:-9", "board", None, users[0], "A")).table
        for user in users[1:]:
            await a.lobby.join(table, user, user)
        await a.lobby.start(table, users[0], seed=1)
        await a.idle()
        for _ in range(400):  # through A, until a street is declined and goes to auction
            decisions = rules.waiting_for(a.cache.state(table))
            if sum(d.kind == "bid" for d in decisions) >= 2:
                break
            d = decisions[0]
            wanted = d.timeout if d.kind == "buy" else GAMES["board"].choose_listed(a.cache.state(table), d.seat)
            token = next(tok for action, tok in a.buttons(table, d.seat) if action == wanted)
            assert (await a.act(users[d.seat], token)).ok
            await a.idle()
        else:
            pytest.fail("no auction")
        asked_by_a = {(w.seat, w.kind) for w in updates["a"][-1].asked}
        bidder = decisions[0].seat
        wanted = GAMES["board"].choose_listed(a.cache.state(table), bidder)
        token = next(tok for action, tok in a.buttons(table, bidder) if action == wanted)
        assert (await b.act(users[bidder], token)).ok
        await b.idle()
        asked_by_b = {(w.seat, w.kind) for w in updates["b"][-1].asked if w.seat != bidder}
        assert asked_by_a and not asked_by_a & asked_by_b, (asked_by_a, asked_by_b)
    finally:
        await a.close()
        await b.close()
