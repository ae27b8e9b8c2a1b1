"""Issue 44 on Telegram: a lane per chat (``bot/telegram_app/lanes.py``), over a fake Bot API that
keeps Telegram's documented flood limits (``tests/fakes/telegram_limits.FloodLimits``: 429 with
``retry_after``). One group's flood wait holds up no other group and no answer to a press; the
group that waited gets its table in its newest state, one edit, when the wait ends; its players'
clocks run their full time from then; our own traffic never meets a 429.

The limits are scaled down (a group's minute is 3 s) so that a test reaches them in seconds; an
injected flood wait is real seconds. Nothing here measures speed: the assertions are about which
calls were made, refused, and in which order around the wait.
"""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from telegram import Update

from bot.chat import channel as channel_module
from bot.chat.messenger import Behind, chore, deferrable
from bot.telegram_app.app import build_application
from bot.telegram_app.lanes import ChatLanes, Lane, Limits
from engine.games import GAMES
from engine.service.storage import queries
from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import FakeBotAPI
from tests.fakes.telegram_limits import FloodLimits, too_many
from words.i18n import t

SCALE = 0.05
GROUP_A, GROUP_B = -2001, -2002
NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}


class LimitedBotAPI(FakeBotAPI):
    """``FakeBotAPI`` behind Telegram's flood control: every call is timed and checked first."""

    def __init__(self, flood: FloodLimits) -> None:
        super().__init__()
        self.flood = flood
        self.timed: list[tuple[float, str, int | None, float | None]] = []  # (when, method, chat, retry_after)

    async def do_request(self, url, method, request_data=None, **kwargs):
        api = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data else {}
        retry = self.flood.check(api, params)
        chat = params.get("chat_id")
        self.timed.append((time.monotonic(), api, int(chat) if chat is not None else None, retry))
        if retry is not None:
            return 429, json.dumps(too_many(retry)).encode()
        return await super().do_request(url, method, request_data, **kwargs)

    def made(self, chat: int | None = None, method: str | None = None, since: float = 0.0, until: float = 1e18):
        """The calls taken (not refused), as (when, method, chat)."""
        return [(w, m, c) for w, m, c, r in self.timed if r is None and since <= w < until
                and (chat is None or c == chat) and (method is None or m == method)]


_ids = [0]


def _next() -> int:
    _ids[0] += 1
    return _ids[0]


def _user(uid: int) -> dict:
    return {"id": uid, "is_bot": False, "first_name": NAMES[uid]}


def command(text: str, uid: int, chat: int) -> dict:
    n = _next()
    return {"update_id": n, "message": {"message_id": n, "date": 0, "chat": {"id": chat, "type": "supergroup"},
                                        "from": _user(uid), "text": text,
                                        "entities": [{"type": "bot_command", "offset": 0,
                                                      "length": len(text.split()[0])}]}}


def press(data: str, uid: int, chat: int) -> dict:
    n = _next()
    return {"update_id": n, "callback_query": {
        "id": str(n), "from": _user(uid), "chat_instance": "c", "data": data,
        "message": {"message_id": 1, "date": 0, "chat": {"id": chat, "type": "supergroup"}, "text": "x"}}}


async def send(app, update: dict) -> None:
    await app.process_update(Update.de_json(update, app.bot))
    await app.bot_data["front"].service.idle()


async def open_deal(app, api, service, chat: int, first: int, second: int) -> int:
    await send(app, command("/newgame deal", first, chat))
    table = int(next(d for d in api.keyboards(chat) if d.startswith("l:")).split(":")[1])
    await send(app, press(service.sign(f"l:{table}:join"), second, chat))
    await send(app, press(service.sign(f"l:{table}:start"), first, chat))
    assert service.cache.row(table).status == "running"
    return table


async def play_one(app, service, table: int, chat: int) -> str:
    """The player to act presses what the AI would pick among their buttons; the press's id."""
    state, decision = service.cache.state(table), service.cache.waiting_for(table)[0]
    uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
    wanted = GAMES["deal"].choose_listed(state, decision.seat)
    token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
    version = service.cache.row(table).version
    update = press(token, uid, chat)
    await send(app, update)
    assert service.cache.row(table).version > version
    return update["callback_query"]["id"]


def test_a_lane_keeps_a_chats_burst_gap_and_a_groups_window():
    """The schedule alone: two calls at once, then one per gap; a group's 20th call in a window
    waits for the first to leave it; a paused lane gives no slot before its pause ends."""
    limits = Limits()
    lane = Lane(group=True, limits=limits)
    times = []
    for _ in range(limits.group_calls + 1):
        when = lane.slot(0.0)
        lane.take(when)
        times.append(when)
    assert times[:2] == [0.0, 0.0] and times[2] == pytest.approx(limits.chat_gap)
    assert all(b - a >= limits.chat_gap - 1e-9 for a, b in zip(times[2:-1], times[3:-1], strict=False))
    assert times[-1] >= times[0] + limits.group_window  # never group_calls + 1 in one window
    gap = limits.group_window / limits.group_calls  # past the group's burst, its calls are spread evenly
    assert all(b - a >= gap - 1e-9 for a, b in zip(times[limits.group_burst + 1:-1], times[limits.group_burst + 2:-1],
                                                    strict=False))
    private = Lane(group=False, limits=limits)
    for _ in range(limits.group_calls + 1):
        private.take(private.slot(0.0))
    assert private.slot(0.0) < limits.group_window  # no group window in a private chat
    private.paused_until = 500.0
    assert private.slot(0.0) == 500.0


async def test_tidying_in_a_group_waits_for_room_to_spare_while_news_goes_at_once():
    """Taking the buttons off a replaced message (``chore``) spends a group's budget only while it
    has more than ``group_spare`` calls left in its window; a table or a prompt goes at once."""
    now = [100.0]
    limits = Limits()
    lanes = ChatLanes(limits, clock=lambda: now[0])
    went: list[tuple[float, bool]] = []

    async def call(tidy: bool) -> None:
        async def callback():
            went.append((now[0], tidy))
            return True
        with deferrable(), chore() if tidy else contextlib.nullcontext():
            await lanes.process_request(callback, (), {}, "editMessageMedia", {"chat_id": GROUP_A}, None)

    await call(True)
    assert went == [(100.0, True)], "a quiet group is tidied at once"
    while len(lanes.lane(GROUP_A).sent) < limits.group_calls - limits.group_spare:
        now[0] += limits.group_window / limits.group_calls + 0.01  # spaced as the group's bucket allows
        await call(False)
    with pytest.raises(Behind) as behind:
        await call(True)
    assert behind.value.until > now[0] and went[-1][1] is False, "no room to spare: the tidying waits"
    await call(False)
    assert went[-1] == (now[0], False), "news goes at once all the same"
    with pytest.raises(Behind) as behind:
        await call(True)
    now[0] = behind.value.until
    await call(True)
    assert went[-1] == (now[0], True), "once the window has room again, it is tidied"
    sent = [w for w, _ in went]
    assert all(len([x for x in sent if w - limits.group_window < x <= w]) <= limits.group_calls for w in sent)


async def test_outside_a_group_tidying_waits_for_nothing_more():
    now = [100.0]
    lanes = ChatLanes(Limits(), clock=lambda: now[0])
    with deferrable(), chore():
        for _ in range(2):
            assert await lanes.process_request(_true, (), {}, "editMessageReplyMarkup", {"chat_id": 7}, None)


async def _true():
    return True


@pytest.fixture
async def two_groups(tmp_path, monkeypatch):
    """Two Deal tables (Ann and Bob in group A, Cy and Dee in group B) on a bot with lanes, over
    the flood-limited fake; the service's clock stands still unless a test moves it."""
    now = [1_000_000.0]
    service = await GameService.open(f"sqlite:///{tmp_path / 'lanes.db'}", clock=lambda: now[0])
    api = LimitedBotAPI(FloodLimits(scale=SCALE))
    app = build_application(service, "123:TEST", request=api, lang="en", seed=3, limits=Limits().scaled(SCALE))
    monkeypatch.setattr(channel_module, "TOLD_AFTER", 1.0)
    async with app:
        front = app.bot_data["front"]
        a = await open_deal(app, api, service, GROUP_A, 1, 2)
        b = await open_deal(app, api, service, GROUP_B, 3, 4)
        await front.tables.caught_up()
        yield app, api, service, front.tables, now, (a, b)
    await service.close()


async def test_one_groups_flood_wait_holds_up_no_other_group_and_no_answer(two_groups):
    app, api, service, tables, now, (a, b) = two_groups
    assert not [r for r in api.timed if r[3] is not None], "our own traffic met no 429 while opening"
    flooded_at = time.monotonic()
    api.flood.flood(GROUP_A, 2.0)
    presses_a = [await play_one(app, service, a, GROUP_A) for _ in range(2)]
    assert tables.behind(a), "group A waits for its lane"
    for _ in range(2):
        await play_one(app, service, b, GROUP_B)
    during = time.monotonic()
    assert during < flooded_at + 2.0, "the presses took no flood wait (else the test proves nothing)"
    # group B was written to while A waited, and every press was answered at once
    assert api.made(GROUP_B, since=flooded_at), "group B's table was shown during A's wait"
    answered = {c[1]["callback_query_id"] for c in api.calls if c[0] == "answerCallbackQuery"}
    assert set(presses_a) <= answered
    # the players of A got their private screens meanwhile (their private chats have lanes of their own)
    assert api.made(1, since=flooded_at, until=during) or api.made(2, since=flooded_at, until=during)
    await tables.caught_up()
    assert not tables.behind(a)
    refused = [r for r in api.timed if r[3] is not None]
    assert refused and {r[2] for r in refused} == {GROUP_A}, refused  # only the flooded group, only while flooded
    assert all(r[0] < flooded_at + 2.0 for r in refused)
    assert len(refused) == 1, "a chat in its wait is not written to again until the wait ends"
    # when the wait ended: the table message edited once, to the newest state, saying it was held back
    after = [c for c in api.made(GROUP_A, since=flooded_at) if c[1].startswith("edit")]
    assert len(after) == 1, after
    table_message = service.cache.row(a).messages["tg"]
    shown = api.messages[(GROUP_A, table_message)]["text"]
    assert t("en", "ch.held_back", seconds=2) in shown
    view = await service.public_view(a)
    assert view.version == service.cache.row(a).version


async def test_a_players_clock_runs_its_full_time_from_when_the_held_back_table_is_shown(two_groups):
    app, api, service, tables, now, (a, b) = two_groups
    api.flood.flood(GROUP_A, 1.5)
    await play_one(app, service, a, GROUP_A)
    await play_one(app, service, b, GROUP_B)
    await tables.caught_up()
    due_a = {(c.seat, c.kind): c.due_at for c in await queries.open_clocks(service.db, a) if not c.ai}
    due_b = {(c.seat, c.kind): c.due_at for c in await queries.open_clocks(service.db, b) if not c.ai}
    turn = 60  # the Deal turn's default clock (``DEFAULT_CLOCKS``)
    assert due_b and all(d == now[0] + turn for d in due_b.values()), due_b  # B was never held
    assert due_a and all(d > now[0] + turn for d in due_a.values()), due_a  # A's runs from when it was seen
    version = service.cache.row(a).version
    now[0] += turn + 0.5  # past the clock as it was set, before the one held for the wait
    await service.sweep()
    await service.idle()
    assert service.cache.row(a).version == version, "no player was timed out on a prompt they could not see"
    assert service.cache.row(b).version > service.cache.row(b).version - 1
    now[0] = max(due_a.values()) + 0.1
    await service.sweep()
    await service.idle()
    assert service.cache.row(a).version > version, "the clock still runs out once its full time has passed"
    await tables.caught_up()


class SlowJoinEdits(FakeBotAPI):
    """Telegram answering slowly the lobby edits that still carry a Join button (a busy data centre):
    an edit made first reaches Telegram after one made later, unless the bot waits for it."""

    def __init__(self) -> None:
        super().__init__()
        self.slow_edit_sent = None  # set (an asyncio.Event) while a slow edit is on its way

    async def do_request(self, url, method, request_data=None, **kwargs):
        import asyncio

        api = url.rsplit("/", 1)[-1]
        markup = str((dict(request_data.parameters) if request_data else {}).get("reply_markup") or "")
        if api == "editMessageText" and ":join" in markup and self.slow_edit_sent is not None:
            self.slow_edit_sent.set()
            await asyncio.sleep(0.3)
        return await super().do_request(url, method, request_data, **kwargs)


@pytest.mark.parametrize("attempt", range(5))
async def test_a_slow_join_edit_never_gives_the_started_lobby_its_buttons_back(tmp_path, attempt):
    """Issue 44: Bob's Join redraws the lobby (its edit slow to reach Telegram), Ann presses Start
    meanwhile. The lobby's redraws are made one after the other, each of the lobby as it stands:
    whatever order the presses' work runs in, the lobby ends without buttons, every time."""
    import asyncio

    service = await GameService.open(f"sqlite:///{tmp_path / 'lobby.db'}")
    api = SlowJoinEdits()
    app = build_application(service, "123:TEST", request=api, lang="en", rate_limit=False)
    try:
        async with app:
            await send(app, command("/newgame deal", 1, GROUP_A))
            table = int(next(d for d in api.keyboards(GROUP_A) if d.startswith("l:")).split(":")[1])
            lobby = service.cache.row(table).messages["tg_lobby"]
            api.slow_edit_sent = asyncio.Event()
            join = asyncio.create_task(app.process_update(Update.de_json(
                press(service.sign(f"l:{table}:join"), 2, GROUP_A), app.bot)))
            await asyncio.wait_for(api.slow_edit_sent.wait(), 10)  # the Join's edit is on its way
            await app.process_update(Update.de_json(press(service.sign(f"l:{table}:start"), 1, GROUP_A), app.bot))
            await join
            await service.idle()
            assert service.cache.row(table).status == "running"
            assert api.messages[(GROUP_A, lobby)]["buttons"] == [], "the started lobby kept its buttons"
    finally:
        await service.close()


@pytest.mark.parametrize("processes", [1, 2, 3])
def test_processes_sharing_one_bot_together_keep_telegrams_limits(processes):
    """``TELEGRAM_PROCESSES``: each process keeps its share (``Limits.shared``). Every process
    writing to one group as fast as its lane allows, for five minutes: Telegram (the fake's flood
    control, on the same clock) refuses none of their calls taken together."""
    limits = Limits().shared(processes)
    lanes = [Lane(group=True, limits=limits) for _ in range(processes)]
    calls = []
    for lane in lanes:
        when = 0.0
        while when < 300:
            when = lane.slot(when)
            lane.take(when)
            calls.append(when)
    now = [0.0]
    telegram = FloodLimits(clock=lambda: now[0])
    for when in sorted(calls):
        now[0] = when + 0.2  # each call reaches Telegram a moment after it was counted
        assert telegram.check("editMessageText", {"chat_id": GROUP_A}) is None, (processes, when)
    assert len(calls) >= 4 * 300 / 61 * 19 * 0.8 / 4, "the share still lets a group's calls through"
