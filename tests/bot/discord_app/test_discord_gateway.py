"""``tycoon run`` against a Discord that checks its limits: the real discord.py client logs in over
HTTP on 127.0.0.1, syncs its slash commands (refused whole by Discord if one breaks a limit),
connects to the gateway and receives interactions there (``tests/fakes/discord_server.py``).

Members only press what the bot showed them: each press is built from a message the fake holds
(the channel's, a DM, or an ephemeral reply shown to that member), so a button the bot did not
show cannot be pressed, and a select menu is answered with values as Discord sends them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.discord_app.items import DYNAMIC_ITEMS
from bot.process import run as run_module
from engine.board.model import AcceptTrade
from engine.games import GAMES
from engine.service.storage import queries
from engine.service.tables import GameService
from tests.bot import stepping
from tests.bot.telegram_app.test_telegram_trades import _tradable
from tests.fakes.discord_api import CHANNEL, command_payload, every_component, text_of
from tests.fakes.discord_server import DiscordServer
from tests.paths import ROOT
from words.i18n import t

TOKEN = "discord-test-token"
ANN, BOB = 1, 2
TURN_CAP = 36  # the service ends the board game by valuation here: a whole game in a test's time


class _Log(logging.Handler):
    """Errors and tracebacks of the bot, discord.py and the service."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.bad: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot", "engine", "discord")) and (record.levelno >= logging.ERROR
                                                                   or record.exc_info):
            self.bad.append(record)


def _long_lived(task: asyncio.Task) -> bool:
    """Tasks that live past a press: the fake server's connections, an ephemeral view's timer, the
    clock task's sleep until its next sweep."""
    text = repr(task.get_coro())
    return "RequestHandler.start" in text or "timeout_task" in text or "Event.wait" in text


class Members:
    """The people of one channel, pressing what the bot shows them, one interaction at a time."""

    def __init__(self, server: DiscordServer, service: GameService) -> None:
        self.server, self.api, self.service = server, server.api, service

    async def send(self, payload: dict) -> None:
        before = set(asyncio.all_tasks())
        await self.server.deliver(payload)
        it = self.api.interactions[payload["token"]]
        for _ in range(3000):  # answered (or deferred) first: Discord allows 3 s
            if it.answers:
                break
            await asyncio.sleep(0.01)
        assert it.answers, ("no answer", payload.get("data"))
        for _ in range(3000):  # then everything the press caused is out
            pending = [x for x in asyncio.all_tasks() - before if not x.done() and not _long_lived(x)
                       and x is not asyncio.current_task()]
            if pending:
                await asyncio.wait(pending, timeout=0.05)
                continue
            await self.service.idle()
            if self.server.requests_in_flight == 0 and not [x for x in asyncio.all_tasks() - before
                                                           if not x.done() and not _long_lived(x)
                                                           and x is not asyncio.current_task()]:
                return
        raise AssertionError("the bot never settled")

    def find(self, uid: int, prefix: str, kind: int | None = None):
        """The newest component ``uid`` can use whose id (unsigned) starts with ``prefix``."""
        for key, component in self.api.pressable(uid):
            cid = component["custom_id"]
            if cid.startswith(prefix) and (kind is None or component["type"] == kind):
                return key, component
        return None

    async def press(self, uid: int, prefix: str, values: list[str] | None = None, kind: int | None = None) -> None:
        found = self.find(uid, prefix, kind)
        assert found is not None, (uid, prefix, [c["custom_id"] for _, c in self.api.pressable(uid)][:20])
        await self.send(self.api.press_payload(*found, uid, values))

    async def command(self, name: str, uid: int, **values) -> None:
        await self.send(command_payload(name, uid, **values))

    async def move(self, table: int) -> None:
        """The first decision the table waits for, answered as the AI would, by pressing its button
        (after "My options" when it is not on the table message or in the DM)."""
        state = self.service.cache.state(table)
        decision = GAMES["board"].rules.waiting_for(state)[0]
        uid = int(self.service.cache.row(table).seats[decision.seat]["user"][3:])
        wanted = GAMES["board"].choose_listed(state, decision.seat)
        token = next(tok for a, tok in self.service.buttons(table, decision.seat) if a == wanted)
        token, nodes = await stepping.plan(self.service, table, f"dc:{uid}", token, "en")
        for _ in range(12):  # through "My options" and the steps (whose, which) to the move's button
            if self.find(uid, f"g:{token}") is not None:
                break
            shown = [c["custom_id"].rsplit(".", 1)[0] for _, c in self.api.pressable(uid)]
            step = stepping.next_step(shown, nodes)
            await self.press(uid, step if step is not None else f"h:{table}")
        await self.press(uid, f"g:{token}")


@contextlib.asynccontextmanager
async def running(tmp_path, monkeypatch, log: _Log):
    """``run_bots`` with only DISCORD_TOKEN, against the fake Discord; yields it and the service."""
    server = DiscordServer(token=TOKEN)
    await server.start()
    services: list[GameService] = []
    real_open = GameService.open.__func__

    async def open_and_keep(cls, *args, **kwargs):
        services.append(await real_open(cls, *args, **kwargs))
        return services[-1]

    monkeypatch.setattr(GameService, "open", classmethod(open_and_keep))
    logging.getLogger().addHandler(log)
    stop = asyncio.Event()
    task = asyncio.create_task(run_module.run_bots(None, TOKEN, f"sqlite:///{tmp_path / 'gw.db'}", "en", stop=stop,
                                                   heartbeat="", discord_api_url=server.api_url))
    try:
        for _ in range(3000):
            if server.identified.is_set() and server.api.commands or task.done():
                break
            await asyncio.sleep(0.01)
        assert not task.done(), task.result()
        assert server.identified.is_set() and server.api.commands, "logged in, commands synced, on the gateway"
        yield server, services[0]
    finally:
        stop.set()
        status = await asyncio.wait_for(task, 60)
        logging.getLogger().removeHandler(log)
        await server.stop()
    assert status == 0


@pytest.mark.slow
async def test_tycoon_run_plays_a_board_game_with_a_trade_built_in_select_menus(tmp_path, monkeypatch):
    log = _Log()
    async with running(tmp_path, monkeypatch, log) as (server, service):
        api = server.api
        # the commands Discord accepted, in English with both Chinese translations
        newgame = next(c for c in api.commands if c["name"] == "newgame")
        assert newgame["name_localizations"] == {"zh-CN": "开局", "zh-TW": "開局"}
        assert all(set(c["description_localizations"]) == {"zh-CN", "zh-TW"} for c in api.commands)

        members = Members(server, service)
        await members.command("newgame", ANN, game="board")
        table = service.cache.row(int(members.find(ANN, "l:")[1]["custom_id"].split(":")[1])).id
        await members.press(BOB, f"l:{table}:join")
        await members.press(ANN, f"l:{table}:start")
        await queries.update_table(service.db, table, turn_cap=TURN_CAP)
        service.cache.peek(table).row.turn_cap = TURN_CAP

        # both play as the AI would until each holds a deed the other could take
        for _ in range(600):
            state = service.cache.state(table)
            if state.stage == "roll" and state.order[state.turn_index] == 0 and not state.trades \
                    and _tradable(state, 0) and _tradable(state, 1):
                break
            await members.move(table)
        else:
            pytest.fail("no position where both hold a tradable deed")
        give, get = _tradable(state, 0)[0], _tradable(state, 1)[0]

        # Ann builds the offer: My options → Propose a trade → the two deed menus → cash in a form → Send
        await members.press(ANN, f"h:{table}")
        await members.press(ANN, f"t:{table}:n")
        await members.press(ANN, f"v:{table}:m", [str(give)], kind=3)
        await members.press(ANN, f"v:{table}:y", [str(get)], kind=3)
        await members.press(ANN, f"t:{table}:xy")
        form = api.last_form(ANN)
        assert form is not None and form["custom_id"].startswith(f"t:{table}:xm."), "a form for the cash"
        await members.send(api.form_payload(form["custom_id"], ANN, {"you": "100", "them": ""}))
        await members.press(ANN, f"t:{table}:s")
        offer = service.cache.state(table).trades[0]
        assert (offer.give, offer.get, offer.give_cash) == ([give], [get], 100)

        # Bob accepts from his options
        await members.press(BOB, f"h:{table}")
        accept = next(tok for a, tok in service.buttons(table, 1) if isinstance(a, AcceptTrade))
        await members.press(BOB, f"g:{accept}")
        state = service.cache.state(table)
        assert state.owner[give] == 1 and state.owner[get] == 0, "the deeds changed hands"

        for _ in range(3000):  # to the end: the turn cap ends it by valuation
            if service.cache.row(table).status != "running":
                break
            await members.move(table)
        assert service.cache.row(table).status == "over"
        result = api.messages[(CHANNEL, service.cache.row(table).messages["dc"])]
        assert "<@1>" in text_of(result) and "<@2>" in text_of(result), "the result names both players"

        # every interaction answered exactly once; nothing Discord refused as malformed
        assert all(len(i.answers) == 1 for i in api.interactions.values()), \
            [(tok, i.answers) for tok, i in api.interactions.items() if len(i.answers) != 1]
        assert not [r for r in api.refusals if r[2] == 400], api.refusals[:3]
        # no button the bot showed was refused as invalid or broke (a second handler of one press would)
        said = [text_of(p.get("data") if isinstance(p.get("data"), dict) else p) for _, _, p in api.calls]
        assert not [x for x in said if x in (t("en", "service.bad_token"), t("en", "service.error"))]
        # every component the bot showed is read by exactly one of its items
        shown = {c["custom_id"] for _, path, p in api.calls if not (p.get("type") == 9 and path.endswith("/callback"))
                 for c in every_component(p.get("data") if isinstance(p.get("data"), dict) else p)
                 if c.get("type") in (2, 3)}
        readers = {cid: [i for i in DYNAMIC_ITEMS if i.__discord_ui_compiled_template__.fullmatch(cid)]
                   for cid in shown}
        assert {cid[0] for cid in shown} >= set("lhgtv") and all(len(r) == 1 for r in readers.values())
    assert not log.bad, [r.getMessage() for r in log.bad]


async def test_a_refused_command_sync_is_one_line_and_the_valid_commands_are_kept(tmp_path, monkeypatch, caplog):
    """A description one over Discord's limit: Discord refuses the whole list; the bot says which
    command, option and limit in one line, syncs the others, and plays on."""
    from words import i18n

    monkeypatch.setitem(i18n.CATALOGUES["en"], "dc.opt.options", "x" * 101)
    log = _Log()
    caplog.set_level(logging.INFO)
    async with running(tmp_path, monkeypatch, log) as (server, service):
        names = {c["name"] for c in server.api.commands}
        assert "newgame" not in names and {"join", "leave", "endgame", "hand", "stats"} <= names
        await Members(server, service).command("join", BOB)  # the bot answers the commands it kept
        assert server.api.last_reply()["content"] == t("en", "service.no_lobby")
    refused = [r for r in caplog.records if "refused the slash commands" in r.getMessage()]
    assert len(refused) == 1 and not refused[0].exc_info
    line = refused[0].getMessage()
    assert "newgame" in line and "options" in line and "between 1 and 100" in line and "\n" not in line
    assert any("without /newgame" in r.getMessage() for r in caplog.records)


async def test_the_tycoon_run_command_starts_against_a_strict_discord_and_stops_cleanly(tmp_path):
    """The command an operator types: ``DISCORD_TOKEN=… tycoon run`` (here with DISCORD_API_URL
    pointing at the fake). It logs in, syncs, connects, answers /newgame with a lobby, and ends
    with status 0 on SIGINT (what ``docker stop`` sends), without a traceback."""
    server = DiscordServer(token=TOKEN)
    await server.start()
    env = {**os.environ, "DISCORD_TOKEN": TOKEN, "DISCORD_API_URL": server.api_url, "TELEGRAM_TOKEN": "",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}", "TYCOON_HEARTBEAT": str(tmp_path / "beat"),
           "TYCOON_LANG": "en", "PYTHONUNBUFFERED": "1"}
    env.pop("TYCOON_WEB_URL", None)
    script = Path(sys.executable).with_name("tycoon")  # the command the project installs
    command = [str(script)] if script.exists() else [sys.executable, "-c", "import bot.process.entry as e; e.main()"]
    proc = await asyncio.create_subprocess_exec(*command, "run", cwd=ROOT, env=env,
                                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(1200):
            if server.identified.is_set() and server.api.commands or proc.returncode is not None:
                break
            await asyncio.sleep(0.05)
        assert server.identified.is_set() and server.api.commands, "it logged in, synced and connected"
        payload = command_payload("newgame", ANN, game="deal")
        await server.deliver(payload)
        for _ in range(600):
            if server.api.interactions[payload["token"]].answers and server.api.live(CHANNEL):
                break
            await asyncio.sleep(0.05)
        lobby = next(iter(server.api.live(CHANNEL).values()))
        assert any(i.startswith("l:") for i in lobby), "the lobby with its buttons"
        proc.send_signal(signal.SIGINT)
        status = await asyncio.wait_for(proc.wait(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
    output = (await proc.stdout.read()).decode()
    assert status == 0, output[-2000:]
    assert "Traceback" not in output, output[-3000:]
