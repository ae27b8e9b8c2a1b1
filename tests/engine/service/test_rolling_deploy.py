"""Issue 46: a rolling deploy from the previous release to this one, on one PostgreSQL, while games
are played through both processes.

Two bot processes of the previous release (its source taken from git at ``PREVIOUS``, run with this
environment's packages) serve by webhook; games start. Then each is replaced in turn, as
docs/operations.md says: SIGTERM right after its webhook took a press (the press is in flight: the
stopping process must answer it), a process of this build started on the same port (it migrates the
database while the other, older one keeps serving), and presses go on to both. Afterwards: every
game played to its end, every press answered exactly once, no process printed a traceback, every
clock that fired made one move, the table messages of the older processes edited by the newer ones.

``PREVIOUS`` moves on with every release that changes what processes share (docs/operations.md,
"Rolling deploys"): the test then plays the swap from the release before it.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import tarfile
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.engine.service.test_two_processes import (
    HOOK_SECRET,
    SHORT_CLOCKS,
    Harness,
    Played,
    _free_port,
    _serves,
    _spawn,
)
from tests.fakes.telegram_server import BotAPIServer
from tests.paths import ROOT

DB_URL = os.environ.get("TEST_DATABASE_URL")
pytestmark = [pytest.mark.skipif(not DB_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)"),
              pytest.mark.slow,
              pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")]

# the last commit of the release before table formats (migration 0010): main's own history
PREVIOUS = "ea89ab95b8c85f0939db2344e7e8e32f340e5b27"
GAMES_PLAYED = [  # group, game, members, members who never press, 5-second clocks
    (-2001, "deal", (51, 52, 53), (), False),
    (-2002, "deal", (61, 62), (62,), True),
]
SWAPS = (6, 40)  # after this many presses process 1, then process 0, is replaced (a mixed stretch between)


def _previous_build(into: Path) -> Path:
    """The previous release's source tree, from this repository's history."""
    found = subprocess.run(["git", "archive", "--format=tar", PREVIOUS], cwd=ROOT, capture_output=True)
    assert found.returncode == 0, ("the previous release is read from git history; this clone lacks commit "
                                   f"{PREVIOUS} (a shallow clone?): {found.stderr.decode()[-300:]}")
    with tarfile.open(fileobj=io.BytesIO(found.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


class Deploy(Harness):
    """The harness of two processes, one of which may be down while it is replaced."""

    def __init__(self, api, ports, played, tmp: Path, api_port: int) -> None:
        super().__init__(api, ports, None, played)
        self.tmp, self.api_port = tmp, api_port
        self.bots: list[subprocess.Popen] = []
        self.logs: list[str] = []  # every process's log file, old and new
        self.down: set[int] = set()
        self.swap_next: int | None = None  # the process to stop right after it takes its next press
        self.swaps: list[asyncio.Task] = []
        self.statuses: list[int] = []  # exit statuses of the replaced processes
        self.answered_by_old_after_migration = 0
        self.migrated = False
        self.names = ["old", "old"]  # the build each process runs now
        self.swapped = 0
        self.made: list[tuple[str, str, int, int]] = []  # (build, method, chat, message id) of each send and edit
        api.watchers.append(self._note)

    def _note(self, call, ok: bool) -> None:
        build = self.names[int(call.process[1:])]
        if ok and call.method in ("sendMessage", "sendPhoto"):
            self.made.append((build, "send", int(call.params["chat_id"]), self.api.next_id))
        elif ok and call.method.startswith("editMessage"):
            self.made.append((build, "edit", int(call.params["chat_id"]), int(call.params["message_id"])))

    async def deliver(self, update: dict, to: int | None = None) -> int:
        process = self.turn % 2 if to is None else to
        if to is None:
            self.turn += 1
        while process in self.down:  # being replaced: the other one takes it (a load balancer)
            process = 1 - process
        self.played.deliveries[process] += 1
        url = f"http://127.0.0.1:{self.ports[process]}/tg"
        secret = {"X-Telegram-Bot-Api-Secret-Token": HOOK_SECRET}
        async with self.session.post(url, json=update, headers=secret) as answer:
            assert answer.status == 200, (answer.status, await answer.text())
        if self.migrated and process in self.old_processes():
            self.answered_by_old_after_migration += 1
        if process == self.swap_next and "callback_query" in update:  # taken, not yet answered: stop it now
            self.swap_next = None
            self.down.add(process)
            self.bots[process].send_signal(signal.SIGTERM)
            self.swaps.append(asyncio.create_task(self.replace(process)))
        return process

    def old_processes(self) -> set[int]:
        return {i for i, name in enumerate(self.names) if name == "old"}

    async def replace(self, process: int) -> None:
        """The stopped process drains and exits; one of this build takes its port."""
        status = await asyncio.to_thread(self.bots[process].wait, 60)
        self.statuses.append(status)
        hooks = sum(1 for c in self.api.calls if c.method == "setWebhook" and c.process == f"p{process}")
        name = f"bot{process}-new.log"
        self.names[process] = "new"
        self.bots[process] = _spawn(process, self.api_port, self.ports[process], self.tmp, log_name=name)
        self.logs.append(name)
        await self.until(lambda: self.bots[process].poll() is not None or (_serves(self.ports[process]) and sum(
            1 for c in self.api.calls if c.method == "setWebhook" and c.process == f"p{process}") > hooks),
            90, f"the new process {process} to serve")
        assert self.bots[process].poll() is None, (self.tmp / name).read_text()[-3000:]
        self.migrated = True
        self.down.discard(process)

    async def press(self, data: str, uid: int, chat: int, message_id: int, to: int | None = None):
        count = len(self.played.presses)
        if self.swap_next is None and not self.down:
            for n, at in enumerate(SWAPS):
                if count >= at and self.swapped < n + 1:
                    self.swapped = n + 1
                    self.swap_next = 1 - n  # process 1 first, then process 0
        return await super().press(data, uid, chat, message_id, to)


async def _deploy(tmp: Path) -> tuple[Played, Deploy]:
    import aiohttp
    import asyncpg

    from engine.service.storage.database import asyncpg_dsn
    from tests.conftest import drop_everything

    previous = _previous_build(tmp / "previous")
    played = Played()
    await drop_everything(DB_URL)
    api = BotAPIServer()
    played.api = api
    api_port = await api.start()
    ports = [_free_port(), _free_port()]
    harness = Deploy(api, ports, played, tmp, api_port)
    harness.bots = [_spawn(i, api_port, ports[i], tmp, build=previous) for i in range(2)]
    harness.logs = ["bot0.log", "bot1.log"]
    pool = None
    try:
        for i, bot in enumerate(harness.bots):
            await harness.until(lambda i=i, bot=bot: bot.poll() is not None or (
                _serves(ports[i]) and any(c.method == "setWebhook" and c.process == f"p{i}" for c in api.calls)),
                90, f"previous-release process {i} to serve")
            assert bot.poll() is None, (tmp / f"bot{i}.log").read_text()[-3000:]
        pool = await asyncpg.create_pool(asyncpg_dsn(DB_URL), min_size=1, max_size=4)
        harness.pool = pool
        async with pool.acquire() as conn:
            harness.secret = bytes.fromhex(await conn.fetchval("SELECT value FROM settings WHERE key = 'token_secret'"))
            for group, *_rest, short in GAMES_PLAYED:
                if short:
                    await conn.execute("INSERT INTO chat_settings (chat_key, lang, rulesets, clocks) "
                                       "VALUES ($1, '', '{}', $2)", f"tg:{group}", json.dumps(SHORT_CLOCKS))
        async with aiohttp.ClientSession() as session:
            harness.session = session
            await asyncio.wait_for(asyncio.gather(*(
                harness.play(group, game, members, away, n % 2)
                for n, (group, game, members, away, _short) in enumerate(GAMES_PLAYED))), 300)
            await asyncio.gather(*harness.swaps)
            await harness.until(lambda: time.monotonic() - max(api.touched.values()) > 1.0, 30, "quiet")
        async with pool.acquire() as conn:
            played.fired = [tuple(r) for r in await conn.fetch(
                "SELECT id, table_id, seat, kind FROM deadlines WHERE status = 'done' AND table_id IS NOT NULL")]
            played.clock_moves = [tuple(r) for r in await conn.fetch(
                "SELECT table_id, seq, deadline_id FROM actions WHERE deadline_id IS NOT NULL")]
            played.errors = [str(await conn.fetchval("SELECT version_num FROM alembic_version")),
                             str(sorted({r[0] for r in await conn.fetch("SELECT format FROM tables")})),
                             str(await conn.fetchval("SELECT value FROM settings WHERE key = 'formats.cap'"))]
    finally:
        for bot in harness.bots:
            if bot.poll() is None:
                bot.send_signal(signal.SIGTERM)
        for bot in harness.bots:
            try:
                harness.statuses.append(bot.wait(30))
            except subprocess.TimeoutExpired:
                bot.kill()
                bot.wait(10)
        if pool is not None:
            await pool.close()
        await api.stop()
        played.logs = [(tmp / name).read_text(errors="replace") for name in harness.logs]
    return played, harness


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    return asyncio.run(_deploy(tmp_path_factory.mktemp("deploy")))


def test_games_are_played_to_the_end_across_a_rolling_deploy_from_the_previous_release(deployed):
    played, harness = deployed
    assert played.statuses == {group: "over" for group, *_ in GAMES_PLAYED}, played.statuses
    assert harness.names == ["new", "new"] and len(harness.logs) == 4, "both processes were replaced"
    assert harness.answered_by_old_after_migration >= 5, "the old process served beside the migrated one"
    # migrated; the tables in the format both read; new ones held there until the operator says the
    # processes older than the registry are gone (``tycoon processes --older-gone``)
    from alembic.script import ScriptDirectory

    from engine.service.storage import migrate

    head = ScriptDirectory.from_config(migrate.config()).get_current_head()
    assert played.errors == [head, "[1]", "1"], played.errors
    assert harness.statuses == [0, 0, 0, 0], harness.statuses  # every process drained and exited cleanly
    tracebacks = [log[-3000:] for log in played.logs if "Traceback" in log]
    assert not tracebacks, tracebacks[:1]


def test_every_press_is_answered_once_even_the_ones_in_flight_during_a_swap(deployed):
    played, _harness = deployed
    answers = Counter(c.params.get("callback_query_id") for c in played.api.calls
                      if c.method == "answerCallbackQuery")
    assert played.presses and all(p.answer is not None for p in played.presses)
    assert [q for q, n in answers.items() if n != 1] == []
    refused = [(p.group, p.version, p.answer.get("text")) for p in played.presses
               if p.stored == p.version and p.answer.get("text")
               and (p.table, p.version + 1) not in {(t, s) for t, s, _d in played.clock_moves}]
    assert not refused, refused[:5]


def test_every_clock_fires_once_across_the_swap(deployed):
    played, _harness = deployed
    deadline_ids = [d for _table, _seq, d in played.clock_moves]
    assert deadline_ids, "the away member's clocks fired"
    assert len(deadline_ids) == len(set(deadline_ids)), "a clock made two moves"
    assert {d for d, *_ in played.fired} == set(deadline_ids)


def test_the_newer_processes_edit_the_messages_the_older_ones_posted(deployed):
    """The message record the older processes stored is read by the newer ones: a hand or a table
    message an old process posted is edited in place by a new one (no second copy, no edit to what
    it already shows)."""
    played, harness = deployed
    api = played.api
    posted_by_old = {(chat, mid) for build, what, chat, mid in harness.made if build == "old" and what == "send"}
    edited_by_new = {(chat, mid) for build, what, chat, mid in harness.made if build == "new" and what == "edit"}
    assert posted_by_old & edited_by_new, "no message of the older processes was edited by a newer one"
    assert api.identical == [] and api.refused == [], (api.identical[:3], api.refused[:3])
