"""The Telegram bot, offline: the real python-telegram-bot Application against a fake Bot API.

Several simulated users play a whole game from /newgame to the winner by pressing the buttons
the bot sent them; nothing sent to the group shows a hand.
"""

from __future__ import annotations

import hashlib
import json
import time

import pytest
from telegram import Update
from telegram.request import BaseRequest

from bot.telegram_app.app import build_application
from engine.games import GAMES
from engine.service.tables import GameService
from engine.service.updates import snapshot_of
from tests.board_builders import tables_start_at
from tests.bot import stepping
from tests.fakes import telegram_limits
from words.i18n import game_name, t

GROUP = -1001
LATE_TURN = 940  # where a board game that need not be whole starts (``tables_start_at``)
WHOLE_BOARD_SEED = 58  # a whole board game (Ann, Bob, an AI seat) that a person wins by bankruptcy in 85 turns


class FakeBotAPI(BaseRequest):
    """Answers every Bot API call like Telegram would, and remembers them. It also keeps what each
    message shows now (text or caption, buttons, picture), refuses an edit that changes nothing as
    Telegram does ("message is not modified", counted in ``identical``) and counts pictures sent
    again unchanged (``reuploads``)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []
        self.next_id = 500
        self.messages: dict[tuple[int, int], dict] = {}
        self.identical: list[tuple[str, dict]] = []
        self.reuploads = 0
        self.refused: list[tuple[str, str]] = []  # calls over Telegram's limits: (method, description)

    @property
    def read_timeout(self) -> float:
        return 1.0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    @staticmethod
    def _buttons(markup) -> list[str]:
        if not markup:
            return []
        markup = json.loads(markup) if isinstance(markup, str) else markup
        return [b["callback_data"] for row in markup.get("inline_keyboard", ()) for b in row if "callback_data" in b]

    @staticmethod
    def _picture(request_data, name: str = "photo") -> str | None:
        files = request_data.multipart_data if request_data is not None and request_data.contains_files else {}
        part = files.get(name) if files else None
        return hashlib.sha1(part[1]).hexdigest() if part else None

    def _edit(self, api: str, params: dict, request_data) -> tuple[int, dict] | None:
        """A message's new look; None (and a 400) when nothing changes, as Telegram answers."""
        key = (int(params["chat_id"]), int(params["message_id"]))
        old = self.messages.get(key)
        if old is None:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message to edit not found"}
        new = dict(old)
        if api == "editMessageText":
            new["text"] = params["text"]
        elif api == "editMessageCaption":
            new["text"] = params.get("caption", "")
        elif api == "editMessageMedia":
            media = params["media"]
            media = json.loads(media) if isinstance(media, str) else media
            new["text"] = media.get("caption", "")
            attached = str(media.get("media", ""))
            picture = self._picture(request_data, attached.removeprefix("attach://"))
            if picture == old.get("picture"):
                self.reuploads += 1
            new["picture"] = picture
        new["buttons"] = self._buttons(params.get("reply_markup"))
        if new == old:
            self.identical.append((api, params))
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message is not modified"}
        self.messages[key] = new
        return None

    async def do_request(self, url, method, request_data=None, read_timeout=None, write_timeout=None,
                         connect_timeout=None, pool_timeout=None):
        api = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data else {}
        self.calls.append((api, params))
        problem = telegram_limits.check_call(api, params)
        if problem is not None:  # what Telegram refuses, refused as Telegram does
            self.refused.append((api, problem))
            return 400, json.dumps({"ok": False, "error_code": 400, "description": problem}).encode()
        if api == "getMe":
            result = {"id": 999, "is_bot": True, "first_name": "Tycoon", "username": "tycoon_bot"}
        elif api in ("sendMessage", "sendPhoto"):
            self.next_id += 1
            chat = int(params.get("chat_id", GROUP))
            self.messages[(chat, self.next_id)] = {
                "text": params.get("text", params.get("caption", "")), "buttons": self._buttons(params.get(
                    "reply_markup")), "picture": self._picture(request_data) if api == "sendPhoto" else None}
            result = {"message_id": self.next_id, "date": 0,
                      "chat": {"id": chat, "type": "supergroup" if chat < 0 else "private"}}
        elif api in ("editMessageMedia", "editMessageText", "editMessageCaption", "editMessageReplyMarkup"):
            refused = self._edit(api, params, request_data)
            if refused is not None:
                return refused[0], json.dumps(refused[1]).encode()
            chat = int(params["chat_id"])
            result = {"message_id": int(params["message_id"]), "date": 0,
                      "chat": {"id": chat, "type": "supergroup" if chat < 0 else "private"}}
        elif api == "deleteMessage":
            self.messages.pop((int(params["chat_id"]), int(params["message_id"])), None)
            result = True
        elif api == "getUpdates":
            result = []
        elif api == "getChatMember":
            result = {"status": "member", "user": {"id": int(params["user_id"]), "is_bot": False, "first_name": "x"}}
        else:
            result = True
        return 200, json.dumps({"ok": True, "result": result}).encode()

    def live(self, chat: int) -> dict[int, list[str]]:
        """The messages of ``chat`` that have buttons now: message id -> their callback data."""
        return {mid: m["buttons"] for (c, mid), m in self.messages.items() if c == chat and m["buttons"]}

    def keyboards(self, chat: int) -> list[str]:
        """Every callback button the bot sent to ``chat``, newest first."""
        out = []
        for _api, params in reversed(self.calls):
            if int(params.get("chat_id", 0) or 0) != chat or "reply_markup" not in params:
                continue
            markup = params["reply_markup"]
            markup = json.loads(markup) if isinstance(markup, str) else markup
            out += [b["callback_data"] for row in markup.get("inline_keyboard", ()) for b in row
                    if "callback_data" in b]
        return out


USERS = {1: "Ann", 2: "Bob"}
_update_id = [0]


SIGNER: dict = {}  # the service of the application under test signs what ``press`` carries


def _app(service, api, **options):
    """The real application over the fake Bot API, flood limits off (tests need no real waits)."""
    SIGNER["sign"] = service.sign
    return build_application(service, "123:TEST", request=api, rate_limit=False, **options)


def _user(uid: int) -> dict:
    return {"id": uid, "is_bot": False, "first_name": USERS.get(uid, f"U{uid}")}


def command(text: str, uid: int) -> dict:
    _update_id[0] += 1
    word = text.split()[0]
    return {"update_id": _update_id[0], "message": {
        "message_id": _update_id[0], "date": 0, "chat": {"id": GROUP, "type": "supergroup"}, "from": _user(uid),
        "text": text, "entities": [{"type": "bot_command", "offset": 0, "length": len(word)}]}}


SIGNS = ("l:", "h:", "b:", "e:", "s:", "T:", "m:", "a:")  # what the bot signs (``bot.chat.inputs.SIGNED``)


def press(data: str, uid: int, chat: int = GROUP, signed: bool = True, message_id: int = 1,
          photo: bool = False) -> dict:
    """A press of a button whose data is ``data``; lobby, hand, sign-up… data is signed as the bot
    signs what it shows (``signed=False``: exactly as given, as a forger would send it)."""
    if signed and data[:2] in SIGNS and "." not in data and "sign" in SIGNER:
        data = SIGNER["sign"](data)
    _update_id[0] += 1
    message = {"message_id": message_id, "date": 0,
               "chat": {"id": chat, "type": "supergroup" if chat < 0 else "private"}}
    if photo:
        message["photo"] = [{"file_id": "p", "file_unique_id": "p", "width": 1, "height": 1}]
        message["caption"] = "x"
    else:
        message["text"] = "x"
    return {"update_id": _update_id[0], "callback_query": {
        "id": str(_update_id[0]), "from": _user(uid), "chat_instance": "c", "data": data, "message": message}}


def press_on(api: FakeBotAPI, data: str, uid: int, chat: int) -> dict:
    """A press of the button ``data`` (unsigned) on the message of ``chat`` that shows it now."""
    for mid, buttons in api.live(chat).items():
        signed = next((b for b in buttons if b == data or b.rsplit(".", 1)[0] == data), None)
        if signed is not None:
            return press(signed, uid, chat=chat, signed=False, message_id=mid,
                         photo=api.messages[(chat, mid)]["picture"] is not None)
    raise AssertionError(f"{data} is not shown in {chat}")


async def press_first(app, api: FakeBotAPI, service, table: int, pick=None):
    """The first decision the table waits for, answered by its member through the buttons (the
    steps included): with ``pick(state, decision)``'s move, else the AI's. The decision."""
    game = GAMES[service.cache.row(table).game]
    state = service.cache.state(table)
    decision = game.rules.waiting_for(state)[0]
    uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
    wanted = pick(state, decision) if pick is not None else None
    wanted = game.choose_listed(state, decision.seat) if wanted is None else wanted
    token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
    token, where = await reach(app, api, service, table, uid, token)
    await _send(app, press(token, uid, chat=where))
    return decision


async def reach(app, api: FakeBotAPI, service, table: int, uid: int, token: str) -> tuple[str, int]:
    """Presses through the steps of ``uid``'s choices (``bot.chat.steps``) until the move ``token``
    makes is a button in their private chat or the group: (the token shown, the chat it is in)."""
    token, nodes = await stepping.plan(service, table, f"tg:{uid}", token, "en")
    for _ in range(12):
        for chat in (uid, GROUP):
            if token in shown_now(api, chat):
                return token, chat
        step = stepping.next_step(shown_now(api, uid), nodes)
        if step is None:  # "My options" / "My hand": the private message with the first step
            await _send(app, press(f"h:{table}", uid))
        else:
            await _send(app, press_on(api, step, uid, uid))
    raise AssertionError(f"no way through the steps to {token}")


def shown_now(api: FakeBotAPI, chat: int) -> list[str]:
    """The buttons ``chat`` can press now (on messages that still have them), lobby, hand, seat…
    data without the bot's signature (``press`` signs it again)."""
    return [data.rsplit(".", 1)[0] if data[:2] in SIGNS else data
            for buttons in api.live(chat).values() for data in buttons]


def caption_of(params: dict) -> str:
    """The caption a photo message was sent or edited with (an edit carries it inside ``media``)."""
    if "media" in params:
        media = params["media"]
        return str((json.loads(media) if isinstance(media, str) else media).get("caption", ""))
    return str(params.get("caption", ""))


async def open_game(app, api, game: str, ai: bool = False) -> int:
    """/newgame by Ann, Bob joins (and an AI seat), Ann starts: the running table's id."""
    await _send(app, command(f"/newgame {game}", 1))
    table = int(api.keyboards(GROUP)[0].split(":")[1])
    await _send(app, press(f"l:{table}:join", 2))
    if ai:
        await _send(app, press(f"l:{table}:ai", 1))
    await _send(app, press(f"l:{table}:start", 1))
    return table


async def _send(app, update: dict) -> None:
    """An update as Telegram delivers it; then the service's loop settles what it changed (AI seats,
    table updates), as it would before the next member presses anything."""
    await app.process_update(Update.de_json(update, app.bot))
    await app.bot_data["front"].service.idle()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["deal", "board"])
async def test_a_whole_game_from_newgame_to_the_winner_by_button_presses(tmp_path, game):
    """The board game is dealt from a seed whose game ends by bankruptcy (seed 58: 85 turns, auctions,
    trades, debts, a person wins), not at the 1,000-turn cap by valuation, where most seeds end."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=0 if game == "deal" else WHOLE_BOARD_SEED)  # a deal with JSN windows
    try:
        async with app:
            await _send(app, command(f"/newgame {game}", 1))
            assert api.keyboards(GROUP)[0].startswith("l:")
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            await _send(app, press(f"l:{table}:join", 2))
            await _send(app, press(f"l:{table}:ai", 1))
            await _send(app, press(f"l:{table}:start", 1))
            rules = GAMES[game].rules
            presses = 0
            windows = 0
            while service.cache.row(table).status == "running" and presses < 3000:
                state = service.cache.state(table)
                decision = rules.waiting_for(state)[0]
                if decision.kind in ("respond", "counter"):
                    windows += 1
                    replies = [p for name, p in api.calls if name == "sendMessage"
                               and (p.get("reply_to_message_id") or p.get("reply_parameters"))]
                    assert replies, "a Just Say No window is asked right under the attack"
                info = service.cache.row(table).seats[decision.seat]
                assert not info["ai"], "AI seats move by themselves"
                uid = int(info["user"][3:])
                wanted = GAMES[game].choose_listed(state, decision.seat)
                token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
                token, _chat = await reach(app, api, service, table, uid, token)  # "the bot showed that button"
                await _send(app, press(token, uid, chat=uid))
                presses += 1
            assert service.cache.row(table).status == "over"
            if game == "deal":
                assert windows > 0  # this deal has Just-Say-No chains between the two people
            group = [p for api_name, p in api.calls if int(p.get("chat_id", 0) or 0) == GROUP]
            hand_marker = t("en", "deal.ui.hand_line", count=0, cards="").split("(")[0]
            assert all(hand_marker not in caption_of(p) for p in group)
            turns = service.cache.state(table).turn_number
            photos = sum(1 for name, p in api.calls if name == "sendPhoto" and int(p["chat_id"]) == GROUP)
            assert photos <= turns + 2  # one new group message a turn (and the result)
            # presses came from private chats: the table is still shown (and edited) in the group only;
            # what goes to a player privately is their own screen
            pictures = [p for name, p in api.calls if name in ("sendPhoto", "editMessageMedia")]
            assert any(int(p["chat_id"]) == GROUP for p in pictures)
            table_text = t("en", "deal.ui.piles", draw=0, discard=0).split(":")[0]  # "Draw pile"
            assert all(table_text not in caption_of(p) for p in pictures if int(p["chat_id"]) != GROUP)
            answered = sum(1 for name, _ in api.calls if name == "answerCallbackQuery")
            assert answered >= presses  # every press answered
            assert api.refused == [], api.refused[:5]  # nothing over Telegram's limits
            # issue 48: the achievements the people earned, from the same replay, in one line of the end
            # message (names, no mentions), each once
            seats = service.cache.row(table).seats
            earned = {s: keys for s, keys in (await service.seen.story(table)).feats.items()
                      if keys and not seats[s]["ai"]}
            assert earned, "this seeded game earns its people achievements"
            ending = next(caption_of(p) for name, p in reversed(api.calls)
                          if name == "sendPhoto" and int(p["chat_id"]) == GROUP)
            feat_lines = [line for line in ending.splitlines() if line.startswith("🏅")]
            assert len(feat_lines) == 1, ending
            for s, keys in earned.items():
                named = t("en", "ui.list_sep").join(t("en", f"feat.{k}") for k in keys)
                assert t("en", "end.feats_of", name=seats[s]["name"], feats=named) in feat_lines[0]
            # the game between two people (and an AI seat, not rated) moved their ratings
            await _send(app, command("/stats", 1))
            stats = api.calls[-1][1]["text"].splitlines()
            season = time.strftime("%Y-%m", time.gmtime())
            assert stats[0] == t("en", "ch.ratings_season", game=game_name(game, "en"), season=season), stats
            assert stats[3] == t("en", "ch.ratings", game=game_name(game, "en")) and stats[4:6] == stats[1:3]
            rated = stats[1:3]
            assert len(rated) == 2 and all(line.endswith(("(1/1)", "(0/1)")) for line in rated), stats
            seats, winners = service.cache.row(table).seats, service.cache.state(table).winners
            if len(winners) == 1 and not seats[winners[0]]["user"].startswith("ai:"):  # a person won
                assert rated[0].startswith(f"1. {seats[winners[0]]['name']}:") and rated[0].endswith("(1/1)")
            # /me in the group: the profile goes to Ann privately, the group is told where it went
            await _send(app, command("/me", 1))
            private = [p for name, p in api.calls if name == "sendMessage" and int(p["chat_id"]) == 1][-1]
            profile = private["text"].splitlines()
            assert profile[0].startswith("📊 ") and t("en", "ch.me.game", game=game_name(game, "en")) in profile
            assert any(line.strip().startswith("in every chat:") and "of 2" in line for line in profile), profile
            assert f"#{table} {game_name(game, 'en')}" in profile[-1]  # her latest game here
            ann = next(s for s, info in enumerate(seats) if info["user"] == "tg:1")
            mine = [line for line in profile if line.startswith("🏅")]
            if ann in earned:  # her achievements, listed in her profile
                assert len(mine) == 1 and all(t("en", f"feat.{k}") in mine[0] for k in earned[ann]), profile
            else:
                assert mine == [], profile
            assert api.calls[-1][1]["text"] == t("en", "ch.me.sent") and int(api.calls[-1][1]["chat_id"]) == GROUP
    finally:
        await service.close()


async def _open_for_two(app, api, game: str) -> int:
    """Ann opens a ``game`` table in the group, Bob joins, Ann starts it: its id."""
    await _send(app, command(f"/newgame {game}", 1))
    table = int(api.keyboards(GROUP)[0].split(":")[1])
    await _send(app, press(f"l:{table}:join", 2))
    await _send(app, press(f"l:{table}:start", 1))
    return table


async def test_a_non_player_pressing_gets_a_private_alert(tmp_path):
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            table = await _open_for_two(app, api, "board")
            token = api.keyboards(GROUP)[0]
            before = service.cache.row(table).version
            await _send(app, press(token, 77))
            name, params = api.calls[-1]
            assert name == "answerCallbackQuery" and params.get("show_alert") in (True, "true")
            assert "not playing" in params["text"]
            assert service.cache.row(table).version == before
            await _send(app, command("/newgame deal", 2))  # one game per chat: it says where
            assert "already open" in api.calls[-1][1]["text"]
    finally:
        await service.close()


async def test_the_bot_process_starts_polls_sweeps_and_stops(tmp_path):
    import asyncio

    from bot.process.run import run_bots

    api = FakeBotAPI()
    stop = asyncio.Event()
    beat = tmp_path / "heartbeat"

    async def later():
        # stop once the first sweep has touched the heartbeat and the bot polls, however long a busy
        # machine takes to get there (not after a fixed time); the assertions below say what was missing
        for _ in range(600):
            if beat.exists() and any(name == "getUpdates" for name, _ in api.calls):
                break
            await asyncio.sleep(0.1)
        stop.set()

    status, _ = await asyncio.gather(run_bots("123:TEST", None, f"sqlite:///{tmp_path / 'run.db'}", stop=stop,
                                              telegram_request=api, heartbeat=str(beat)), later())
    assert status == 0
    assert beat.exists()  # what the container's health check reads
    names = [name for name, _ in api.calls]
    assert "getMe" in names and "getUpdates" in names and "setMyCommands" in names


class ClosedDMs(FakeBotAPI):
    """Telegram refuses messages to users who never started the bot."""

    def __init__(self, closed: set[int]) -> None:
        super().__init__()
        self.closed = closed

    async def do_request(self, url, method, request_data=None, **kwargs):
        api = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data else {}
        if api in ("sendMessage", "sendPhoto") and int(params.get("chat_id", 0) or 0) in self.closed:
            self.calls.append((api + ":refused", params))
            body = {"ok": False, "error_code": 403,
                    "description": "Forbidden: bot can't initiate conversation with a user"}
            return 403, json.dumps(body).encode()
        return await super().do_request(url, method, request_data, **kwargs)


async def test_me_from_a_member_the_bot_may_not_write_to_says_how_to_open_the_private_chat(tmp_path):
    """Issue 48: ``/me`` answers privately; a member who never started the bot is told, in the
    group, how to open that chat (and nothing is lost: they ask again there)."""
    api = ClosedDMs({3})
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/me", 3))
            assert [name for name, _ in api.calls if name.endswith(":refused")] == ["sendMessage:refused"]
            told = api.calls[-1][1]
            assert int(told["chat_id"]) == GROUP and told["text"] == t("en", "ch.me.open_private", bot="tycoon_bot")
            api.closed.clear()  # they open the private chat and ask there
            await _send(app, {**command("/me", 3), "message": {**command("/me", 3)["message"],
                                                                "chat": {"id": 3, "type": "private"}}})
            answer = api.calls[-1][1]
            assert int(answer["chat_id"]) == 3 and t("en", "ch.me.none") in answer["text"]  # no rated game yet
    finally:
        await service.close()


async def test_a_player_with_closed_dms_gets_the_deep_link_and_then_the_hand(tmp_path):
    api = ClosedDMs({2})
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/newgame deal", 1))
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            await _send(app, command("/join", 2))
            await _send(app, press(f"l:{table}:start", 1))
            await _send(app, press(f"h:{table}", 2))  # Bob's DMs are closed: "My hand"
            assert service.cache.row(table).seats[1]["dm"] is False
            alert = [p for name, p in api.calls if name == "answerCallbackQuery"][-1]
            assert alert.get("show_alert") in (True, "true") and "Your hand" in alert["text"]
            link = [p for name, p in api.calls if name == "sendMessage" and "start=t" in str(p.get("text"))]
            assert link, "the group was given the link that opens a chat with the bot"
            api.closed.clear()  # Bob follows the link and presses Start
            update = command(f"/start t{table}", 2)
            update["message"]["chat"] = {"id": 2, "type": "private"}
            await _send(app, update)
            assert service.cache.row(table).seats[1]["dm"] is True
            sent = [p for name, p in api.calls if name in ("sendPhoto", "sendMessage")]
            assert any(int(p.get("chat_id", 0) or 0) == 2 for p in sent)
    finally:
        await service.close()


async def test_commands_stats_lang_and_endgame(tmp_path):
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/stats", 1))
            assert "No finished games" in api.calls[-1][1]["text"]
            await _send(app, command("/lang zh-Hant", 1))  # not an admin in a group
            assert "admins" in api.calls[-1][1]["text"]
            await _send(app, command("/newgame board", 1))
            await _send(app, command("/endgame", 2))
            assert "Only the player who opened" in api.calls[-1][1]["text"]
            await _send(app, command("/endgame", 1))
            assert await service.lobby.table_in_chat(f"tg:{GROUP}") is None
            table = await open_game(app, api, "deal")  # a running game: only its creator is asked
            await _send(app, command("/endgame", 2))
            name, params = api.calls[-1]
            assert "Only the player who opened" in params["text"] and "reply_markup" not in params
            await _send(app, command("/endgame", 1))
            assert f"e:{table}:y" in api.keyboards(GROUP)[0] and service.cache.row(table).status == "running"
            await _send(app, command("/help", 1))
            assert "/newgame" in api.calls[-1][1]["text"]
    finally:
        await service.close()


async def test_a_restart_in_the_middle_and_old_buttons_still_work(tmp_path):
    db = f"sqlite:///{tmp_path / 'tg.db'}"
    api = FakeBotAPI()
    service = await GameService.open(db)
    app = _app(service, api, lang="en", seed=3)
    async with app:
        await _send(app, command("/newgame board", 1))
        table = int(api.keyboards(GROUP)[0].split(":")[1])
        await _send(app, press(f"l:{table}:join", 2))
        await _send(app, press(f"l:{table}:start", 1))
        for _ in range(15):
            state = service.cache.state(table)
            decision = GAMES["board"].rules.waiting_for(state)[0]
            uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
            wanted = GAMES["board"].choose_listed(state, decision.seat)
            token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
            await _send(app, press(token, uid))
        version = service.cache.row(table).version
        last_buttons = {uid: api.keyboards(uid) + api.keyboards(GROUP) for uid in (1, 2)}
    await service.db.dispose()  # the process is killed

    service = await GameService.open(db)  # a new process on the same database
    app = _app(service, api, lang="en")
    try:
        async with app:
            await service.cache.get(table)
            assert service.cache.row(table).version == version and service.cache.replay_mismatches == []
            state = service.cache.state(table)
            decision = GAMES["board"].rules.waiting_for(state)[0]
            uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
            token = next(tok for tok in last_buttons[uid] if tok in dict(
                (t_, a) for a, t_ in service.buttons(table, decision.seat)))
            await _send(app, press(token, uid))  # a button sent before the restart
            assert service.cache.row(table).version > version
    finally:
        await service.close()


class AdminIsAnn(FakeBotAPI):
    async def do_request(self, url, method, request_data=None, **kwargs):
        status, body = await super().do_request(url, method, request_data, **kwargs)
        if url.endswith("getChatMember") and int(request_data.parameters["user_id"]) == 1:
            doc = json.loads(body)
            doc["result"]["status"] = "administrator"
            doc["result"].update({"can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
                                  "can_delete_messages": True, "can_manage_video_chats": True,
                                  "can_restrict_members": True, "can_promote_members": False,
                                  "can_change_info": True, "can_invite_users": True, "can_post_stories": False,
                                  "can_edit_stories": False, "can_delete_stories": False})
            body = json.dumps(doc).encode()
        return status, body


async def test_a_scheduled_match_from_the_chat(tmp_path):
    now = [1_700_000_000.0]
    api = AdminIsAnn()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}", clock=lambda: now[0])
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/schedule deal +30 45 tournament 3", 2))  # Bob is no admin
            assert "admins" in api.calls[-1][1]["text"]
            await _send(app, command("/schedule deal soon", 1))
            assert "/schedule deal" in api.calls[-1][1]["text"]  # how to write it
            await _send(app, command("/schedule deal +30 45 tournament 3", 1))
            assert "starts in 30 minutes" in api.calls[-1][1]["text"]
            signup = api.keyboards(GROUP)[0]
            assert signup.startswith("s:")
            await _send(app, press(signup, 2))
            assert "signed up" in api.calls[-1][1]["text"]
            now[0] += 16 * 60
            await service.sweep()
            await service.idle()  # announced ahead
            assert any("sign up now" in str(p.get("text", "")).lower() for _, p in api.calls)
            now[0] += 15 * 60
            await service.sweep()
            await service.idle()  # the match starts
            row = await service.lobby.table_in_chat(f"tg:{GROUP}")
            assert row is not None and row.status == "running" and [s["user"] for s in row.seats][0] == "tg:2"
            assert any(name == "sendPhoto" and int(p["chat_id"]) == GROUP for name, p in api.calls)
    finally:
        await service.close()


async def test_long_lists_of_choices_come_in_pages_and_the_lobby_has_the_dm_link(tmp_path):
    from bot.chat.screens import Button, Screen
    from bot.telegram_app.messenger import PAGE

    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    front = app.bot_data["front"]
    try:
        async with app:
            await _send(app, command("/newgame deal", 1))
            lobby = [p for name, p in api.calls if name == "sendMessage"][-1]
            assert "https://t.me/tycoon_bot?start=t" in lobby["text"]
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            await _send(app, press(f"l:{table}:join", 2))
            await _send(app, press(f"l:{table}:start", 1))
            screen = Screen("hand", [Button(f"choice {i}", f"tok{i}", 0) for i in range(PAGE * 2 + 5)])
            before = len(api.calls)
            public, _ = await service.views(table, seats=())
            await front.tables.private(table, 0, public.seats[0], screen, "en")
            sent = [p for name, p in api.calls[before:] if int(p.get("chat_id", 0) or 0) == 1]
            assert len(sent) == 3 and len(api.keyboards(1)) >= PAGE * 2 + 5
    finally:
        await service.close()


async def test_forum_topics_each_have_their_own_table(tmp_path):
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")

    def in_topic(update: dict, topic: int) -> dict:
        update["message"].update({"message_thread_id": topic, "is_topic_message": True})
        return update

    try:
        async with app:
            await _send(app, in_topic(command("/newgame board", 1), 7))
            await _send(app, in_topic(command("/newgame deal", 2), 8))  # another topic, another table
            assert await service.lobby.table_in_chat(f"tg:{GROUP}:7") is not None
            assert await service.lobby.table_in_chat(f"tg:{GROUP}:8") is not None
            row = await service.lobby.table_in_chat(f"tg:{GROUP}:7")
            start, join = press(f"l:{row.id}:start", 1), press(f"l:{row.id}:join", 2)
            for update in (start, join):  # the lobby's buttons are pressed in its topic
                update["callback_query"]["message"].update({"message_thread_id": 7, "is_topic_message": True})
            await _send(app, join)
            await _send(app, start)
            photos = [p for name, p in api.calls if name == "sendPhoto" and int(p["chat_id"]) == GROUP]
            assert photos and all(int(p["message_thread_id"]) == 7 for p in photos)
    finally:
        await service.close()


class ForumAdminIsAnn(AdminIsAnn):
    """Ann is an admin; the group is a forum when ``forum`` is set (else topics are refused)."""

    def __init__(self, forum: bool) -> None:
        super().__init__()
        self.forum = forum
        self.topics = 0

    async def do_request(self, url, method, request_data=None, **kwargs):
        if url.endswith("createForumTopic"):
            params = dict(request_data.parameters)
            self.calls.append(("createForumTopic", params))
            if not self.forum:
                return 400, json.dumps({"ok": False, "error_code": 400,
                                        "description": "Bad Request: the chat is not a forum"}).encode()
            self.topics += 1
            return 200, json.dumps({"ok": True, "result": {"message_thread_id": 900 + self.topics,
                                                           "name": params["name"], "icon_color": 7322096}}).encode()
        return await super().do_request(url, method, request_data, **kwargs)


@pytest.mark.parametrize("forum", [True, False])
async def test_a_tournament_from_the_chat_sign_up_round_start_and_standings(tmp_path, forum):

    now = [1_700_000_000.0]
    api = ForumAdminIsAnn(forum)
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}", clock=lambda: now[0])
    app = _app(service, api, lang="en", seed=1)
    tours = service.tournaments
    try:
        async with app:
            await _send(app, command("/tournament deal solo 2 +30 20", 2))  # Bob is no admin
            assert "admins" in api.calls[-1][1]["text"]
            await _send(app, command("/tournament deal solo", 1))
            assert "/tournament <deal|board>" in api.calls[-1][1]["text"]  # how to write it
            await _send(app, command("/tournament deal solo 2 +30 20 flying", 1))
            assert "Unknown rule option: flying" in api.calls[-1][1]["text"]
            await _send(app, command("/tournament deal solo 2 +30 20", 1))
            assert "sign up now" in api.calls[-1][1]["text"]
            signup = api.keyboards(GROUP)[0]
            assert signup.startswith("T:") and signup.rsplit(".", 1)[0].endswith(":s")  # signed by the bot
            for uid in (1, 2, 3, 4, 5, 6, 7):
                await _send(app, press(signup, uid))
            assert api.calls[-1][0] == "editMessageText" and "Entered (7)" in api.calls[-1][1]["text"]
            await _send(app, press(signup, 2))  # twice
            alert = [p for name, p in api.calls if name == "answerCallbackQuery"][-1]
            assert "already entered" in alert["text"] and alert["show_alert"]
            [row] = await tours.in_chat(f"tg:{GROUP}")
            assert len(await tours.entrants(row.id)) == 7

            now[0] += 30 * 60  # the first round: seven players, two Deal tables (4 + 3)
            await service.sweep()
            await service.idle()
            announce = next(p for name, p in api.calls if name == "sendMessage" and "Round 1 of 2" in p["text"])
            assert "Table 1:" in announce["text"] and "Table 2:" in announce["text"]
            matches = await tours.matches(row.id, 1)
            assert len(matches) == 2
            photos = [p for name, p in api.calls if name == "sendPhoto" and int(p["chat_id"]) == GROUP]
            assert len(photos) == 2  # each table its own public message
            topics = [p for name, p in api.calls if name == "createForumTopic"]
            if forum:
                assert [p["name"] for p in topics] == [f"Tournament {row.id} · R1 · T{n}" for n in (1, 2)]
                assert sorted(int(p["message_thread_id"]) for p in photos) == [901, 902]
                assert [service.cache.row(m.table_id).messages["tg_thread"] for m in matches] == [901, 902]
            else:
                assert len(topics) == 1  # tried once, then each table is its own message in the group
                assert all(p.get("message_thread_id") is None for p in photos)

            # a player's move at a tournament table is shown at that table, not in the main chat
            table = matches[0].table_id
            seat = GAMES["deal"].rules.waiting_for(service.cache.state(table))[0].seat
            uid = int(service.cache.row(table).seats[seat]["user"][3:])
            before = len(api.calls)
            await _send(app, press(service.buttons(table, seat)[0][1], uid, chat=uid))
            assert service.cache.row(table).version >= 1
            shown = [p for name, p in api.calls[before:] if name in ("editMessageMedia", "sendPhoto")
                     and int(p["chat_id"]) == GROUP]
            assert shown  # the table's own message, edited or (a new turn) sent again in its topic
            assert all(int(p["message_id"]) == service.cache.row(table).messages["tg"] for p in shown
                       if "message_id" in p)
            assert all(p.get("message_thread_id") == (901 if forum else None) for p in shown if "message_id" not in p)

            # an absent player: the admin answers the substitute's message
            second = matches[1]
            said = command("hello", 8)
            reply = command(f"/tournament replace {second.id} 1", 1)
            reply["message"]["reply_to_message"] = said["message"]
            await _send(app, reply)
            assert "played by U8" in [p for name, p in api.calls if name == "sendMessage"][-1]["text"]
            assert service.cache.row(second.table_id).seats[0]["user"] == "tg:8"
            await _send(app, command(f"/tournament replace {second.id} 1", 1))  # no one answered, no "ai"
            assert "/tournament replace <match> <seat> ai" in api.calls[-1][1]["text"]
            now[0] += 20 * 60 + 1  # both match clocks run out
            before = len(api.calls)
            await service.sweep()
            await service.idle()
            posted = [p for name, p in api.calls[before:] if name == "sendPhoto"
                      and str(p.get("caption", "")).startswith("Round 1 is over")]
            assert len(posted) == 1 and int(posted[0]["chat_id"]) == GROUP  # once, in the main chat
            assert posted[0].get("message_thread_id") is None
            await _send(app, command("/standings", 3))
            sent = api.calls[-1]
            assert sent[0] == "sendPhoto" and "standings" in sent[1]["caption"]
            standing = await tours.standings(row.id)
            first = standing["rows"][0]
            assert f"#{first['entrant']} {first['name']}" in sent[1]["caption"]
            assert sum(e["played"] for e in standing["rows"]) == 7

            await _send(app, command("/tournament pause", 2))
            assert "Only chat admins" in api.calls[-1][1]["text"]
            await _send(app, command("/tournament pause", 1))
            assert "paused" in api.calls[-1][1]["text"] and (await tours.get(row.id)).status == "paused"
    finally:
        await service.close()


async def test_team_captains_sign_up_by_command_and_members_by_button(tmp_path):

    now = [1_700_000_000.0]
    api = ForumAdminIsAnn(False)
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}", clock=lambda: now[0])
    app = _app(service, api, lang="en")
    tours = service.tournaments
    try:
        async with app:
            await _send(app, command("/tournament board team 3 +60 30 no_trading", 1))
            assert "Captains: /team <name>" in api.calls[-1][1]["text"]
            await _send(app, command("/team Reds", 2))
            assert "Team Reds is in" in [p for name, p in api.calls if name == "sendMessage"][-2]["text"]
            join = next(d for d in api.keyboards(GROUP) if d.startswith("T:") and ":j:" in d)
            await _send(app, press(join, 3))  # Cy joins the Reds
            await _send(app, command("/rep 1 2", 3))  # Cy is no captain
            assert "Only the captain" in api.calls[-1][1]["text"]
            await _send(app, command("/rep 1 2", 2))
            assert "U3 plays match 1 for Reds" in api.calls[-1][1]["text"]
            [row] = await tours.in_chat(f"tg:{GROUP}")
            [team] = await tours.entrants(row.id)
            assert team.representatives == {"1": "tg:3"} and row.options == {"no_trading": True}
    finally:
        await service.close()


async def test_the_bot_keeps_to_telegrams_flood_limits_by_default(tmp_path):
    from bot.telegram_app.lanes import ChatLanes, Limits

    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    try:
        limiter = build_application(service, "123:TEST").bot.rate_limiter
        assert isinstance(limiter, ChatLanes) and limiter.limits == Limits()  # a lane per chat, Telegram's limits
        assert _app(service, FakeBotAPI()).bot.rate_limiter is None
    finally:
        await service.close()


class FloodedBotAPI(FakeBotAPI):
    """Telegram's answer to a bot that sends too fast: 429 with ``retry_after``, once per message."""

    def __init__(self) -> None:
        super().__init__()
        self.refused = 0

    async def do_request(self, url, method, request_data=None, **kwargs):
        api = url.rsplit("/", 1)[-1]
        if api in ("sendMessage", "sendPhoto") and self.refused <= len([c for c in self.calls if c[0] == api]):
            self.refused += 1
            self.calls.append(("429:" + api, dict(request_data.parameters) if request_data else {}))
            return 429, json.dumps({"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1",
                                    "parameters": {"retry_after": 1}}).encode()
        return await super().do_request(url, method, request_data, **kwargs)


async def test_a_flood_refusal_is_retried_and_the_game_goes_on(tmp_path):
    """With the flood limiter on (as in production), a 429 is waited out and the message still goes."""
    api = FloodedBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = build_application(service, "123:TEST", request=api, lang="en")
    try:
        async with app:
            await _send(app, command("/newgame deal", 1))
            sent = [p for name, p in api.calls if name == "sendMessage"]
            refused = [p for name, p in api.calls if name == "429:sendMessage"]
            assert refused and len(sent) == 1 and sent[0]["text"] == refused[0]["text"]  # the same message, again
            assert api.keyboards(GROUP)[0].startswith("l:")  # and the lobby is there
            assert service.cache.row(int(api.keyboards(GROUP)[0].split(":")[1])).status == "lobby"
    finally:
        await service.close()


async def test_a_press_or_command_that_breaks_is_still_answered_and_logged_with_its_table(tmp_path, monkeypatch,
                                                                                         caplog):
    import logging

    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            table = await open_game(app, api, "board")
            seat = service.cache.waiting_for(table)[0].seat
            token = service.buttons(table, seat)[0][1]

            async def broken(*args, **kwargs):
                raise RuntimeError("a bug between the press and the move")

            monkeypatch.setattr(service, "act", broken)
            caplog.set_level(logging.ERROR)
            await _send(app, press(token, seat + 1))
            name, params = api.calls[-1]
            assert name == "answerCallbackQuery" and params["text"] == t("en", "service.error")
            assert params.get("show_alert") in (True, "true")
            failed = [r for r in caplog.records if r.name == "bot.telegram_app.frontend"]
            assert failed and f"table {table}" in failed[-1].getMessage() and failed[-1].exc_info
            monkeypatch.setattr(service.chats, "standings", broken)
            await _send(app, command("/stats", 1))
            assert api.calls[-1][0] == "sendMessage" and api.calls[-1][1]["text"] == t("en", "service.error")
            assert service.cache.row(table).version == 0  # nothing changed
    finally:
        await service.close()


async def test_a_player_who_left_comes_back_with_my_hand_or_join(tmp_path):
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=2)
    try:
        async with app:
            table = await open_game(app, api, "deal")
            await _send(app, command("/leave", 2))
            assert service.cache.row(table).seats[1]["ai"] is True
            captions = [str(p.get("caption", "")) for _, p in api.calls if int(p.get("chat_id", 0) or 0) == GROUP]
            assert any(t("en", "service.seat_left", name="Bob") in c for c in captions), "the group heard it"
            await _send(app, press(f"h:{table}", 2, chat=GROUP))  # "My hand": Bob is here again
            answer = [p for name, p in api.calls if name == "answerCallbackQuery"][-1]
            assert answer.get("text") == t("en", "service.welcome_back")
            assert service.cache.row(table).seats[1]["ai"] is False
            assert [p for name, p in api.calls if name in ("sendPhoto", "sendMessage")
                    and int(p.get("chat_id", 0) or 0) == 2], "his hand and buttons, by private message"
            await _send(app, command("/leave", 2))
            await _send(app, command("/join", 2))  # or /join, in the group
            replies = [p["text"] for name, p in api.calls if name == "sendMessage" and "text" in p]
            assert replies[-1] == t("en", "service.welcome_back")
            assert service.cache.row(table).seats[1]["ai"] is False
    finally:
        await service.close()


async def test_a_game_that_cannot_be_restored_is_announced_in_its_group_once(tmp_path):
    from sqlalchemy import update
    from sqlmodel.ext.asyncio.session import AsyncSession

    from engine.service.storage.rows import TableRow

    db = f"sqlite:///{tmp_path / 'tg.db'}"
    api = FakeBotAPI()
    service = await GameService.open(db)
    app = _app(service, api, lang="en")
    async with app:
        await service.chats.set_settings(f"tg:{GROUP}", lang="zh-Hant")
        table = await open_game(app, api, "deal")
    async with AsyncSession(service.db) as session:
        await session.exec(update(TableRow).where(TableRow.id == table).values(version=3))
        await session.commit()  # the log no longer matches its table
    await service.close()
    for restart in range(2):
        api = FakeBotAPI()
        service = await GameService.open(db)
        app = _app(service, api, lang="en")
        try:
            async with app:
                await service.startup()
                await service.idle()
                told = [p for name, p in api.calls if name == "sendMessage"
                        and p["text"] == t("zh-Hant", "service.table_damaged", table=table)]
                assert len(told) == (1 if restart == 0 else 0) and all(int(p["chat_id"]) == GROUP for p in told)
                await _send(app, command("/newgame board", 1))  # the group can play again
                assert api.keyboards(GROUP) and api.keyboards(GROUP)[0].startswith("l:")
                await _send(app, command("/endgame", 1))
        finally:
            await service.close()


def _one_life(api: FakeBotAPI, service, table: int, members) -> None:
    """Only the current table message, the open prompts and each player's one private message
    have buttons; a Deal player's private message shows the hand they hold now."""
    import html as html_lib

    from bot.chat.screens import hand_line

    record = service.cache.row(table).messages or {}
    current = {record.get("tg")} | {p["id"] for p in record.get("tg_prompts", []) if p["buttons"]}
    assert set(api.live(GROUP)) <= current, (api.live(GROUP).keys(), current)
    dms = record.get("tg_dm", {})
    for seat, uid in enumerate(members):
        where, ids = dms.get(str(seat), [uid, []])
        assert set(api.live(uid)) <= set(ids), (uid, api.live(uid).keys(), dms)
        if service.cache.row(table).game == "deal" and ids:
            line = hand_line(_own_view(service, table, seat), "en")
            shown = api.messages[(uid, ids[0])]["text"]
            assert html_lib.escape(line, quote=False) in shown, "the private hand is current"


def _own_view(service, table: int, seat: int):
    """A seat's own view as the table stands in this process (for checks, without waiting)."""
    from engine.service.views import asks_of, private_view

    snap = snapshot_of(service.cache.peek(table))
    return private_view(service.keys.secret, snap, seat, asks_of(snap))


@pytest.mark.parametrize("game", ["deal", "board"])
async def test_four_members_play_a_whole_game_and_every_message_has_one_life(tmp_path, monkeypatch, game):
    """Four people, one of whom leaves and comes back: one new table message per turn (plus the
    start and the result), nothing but the current messages with buttons, no edit that changes
    nothing and no picture sent twice, every private hand current after every move. The board
    game starts at turn 940 (its last sixty turns; a whole one is played by the test above)."""
    if game == "board":
        tables_start_at(monkeypatch, LATE_TURN)
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=1)
    members = (1, 2, 3, 4)
    new_messages = []

    async def heard(update):
        if update.kind == "started" or update.turn_passed or update.over:
            new_messages.append(update.kind)

    service.subscribe(heard)
    try:
        async with app:
            await _send(app, command(f"/newgame {game}", 1))
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            for uid in members[1:]:
                await _send(app, command("/join", uid))  # the lobby message is updated, not posted again
            lobby = service.cache.row(table).messages["tg_lobby"]
            assert [m for (c, m) in api.messages if c == GROUP] == [lobby]
            assert "U4" in api.messages[(GROUP, lobby)]["text"]
            started = len(api.calls)
            await _send(app, press(f"l:{table}:start", 1))
            assert (GROUP, lobby) not in {(GROUP, m) for m in api.live(GROUP)}, "the lobby lost its buttons"
            first_turn = service.cache.state(table).turn_number
            if game == "deal":  # everyone has their hand privately from the start
                assert all(any(chat == uid for chat, _ in api.messages) for uid in members)
            rules, presses, left, back = GAMES[game].rules, 0, False, False
            while service.cache.row(table).status == "running" and presses < 4000:
                _one_life(api, service, table, members)
                if presses == 8 and not left:
                    await _send(app, command("/leave", 3))  # Cy has to go; the AI keeps the seat
                    left = True
                    continue
                if left and not back and presses == 20:
                    assert f"b:{table}" in shown_now(api, 3), "Cy is offered the seat back"
                    await _send(app, press(f"b:{table}", 3, chat=3))
                    back = service.cache.row(table).seats[2]["ai"] is False
                    assert back
                    continue
                state = service.cache.state(table)
                decision = rules.waiting_for(state)[0]
                uid = members[decision.seat]
                wanted = GAMES[game].choose_listed(state, decision.seat)
                token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
                token, where = await reach(app, api, service, table, uid, token)  # every choice is shown
                await _send(app, press(token, uid, chat=where))
                presses += 1
            assert service.cache.row(table).status == "over" and left and back
            # about one new group message a turn, the prompts for answers under the table included
            posts = [n for n, p in api.calls[started:] if n in ("sendPhoto", "sendMessage")
                     and int(p.get("chat_id", 0) or 0) == GROUP]
            turns = service.cache.state(table).turn_number - first_turn + 1  # the turns played through the chat
            # (each player newly asked to answer out of turn gets a message of their own that mentions them)
            assert 0.8 <= len(posts) / turns <= 1.8, (len(posts), turns)
            assert api.identical == [], api.identical[:3]
            assert api.refused == [], api.refused[:5]  # nothing over Telegram's limits
            assert api.reuploads == 0
            photos = [p for name, p in api.calls if name == "sendPhoto" and int(p["chat_id"]) == GROUP]
            assert len(photos) == len(new_messages) <= turns + 2
            assert new_messages[0] == "started" and new_messages[-1] == "over" and new_messages.count("started") == 1
            (end, after), = api.live(GROUP).items()  # what next, under the result only
            assert [b.rsplit(".", 1)[0] for b in after] == [f"l:{table}:again", f"l:{table}:stats",
                                                             f"l:{table}:n:deal", f"l:{table}:n:board"]
            assert not any(api.live(uid) for uid in members), "no private buttons after the end"
            result = photos[-1]["caption"]
            assert all(f'tg://user?id={uid}' in result for uid in members), "the result mentions everyone"
            view = await service.public_view(table)
            ranked = [line for line in result.split("\n") if line[:3] in ("1. ", "2. ", "3. ", "4. ")]
            assert len(ranked) == len(view.seats) and ranked[0].startswith("1. 🏆 ")  # everyone, the winner first
            await _send(app, press_on(api, f"l:{table}:again", members[1], GROUP))  # a rematch, by another member
            again = await service.lobby.table_in_chat(f"tg:{GROUP}")
            assert again is not None, [p for n, p in api.calls[-4:]]
            lobby = await service.public_view(again.id)
            assert lobby.status == "lobby" and lobby.game == game and lobby.ruleset == view.ruleset
            assert [s.person for s in lobby.seats] == [True] + [False] * sum(not s.person for s in view.seats)
            called = api.calls[-1][1] if api.calls[-1][0] == "sendMessage" else next(
                p for n, p in reversed(api.calls) if n == "sendMessage" and int(p["chat_id"]) == GROUP)
            assert called["text"].startswith(t("en", "end.again_by", name=USERS.get(members[1], f"U{members[1]}")))
            # the last game's other players are called once, by a mention that notifies them
            others = [int(s.user[3:]) for s in view.seats if s.person and s.user != f"tg:{members[1]}"]
            assert [called["text"].count(f"tg://user?id={uid}") for uid in others] == [1] * len(others), called
            assert f"tg://user?id={members[1]}" not in called["text"].split("\n")[-1]
            await _send(app, press(f"l:{table}:again", members[2]))  # pressed again: one lobby at a time
            alert = [p for name, p in api.calls if name == "answerCallbackQuery"][-1]
            assert alert["show_alert"] and str(again.id) in alert["text"]  # "table N is open here"
            assert (await service.lobby.table_in_chat(f"tg:{GROUP}")).id == again.id
    finally:
        await service.close()


async def test_every_bidder_can_bid_in_an_eight_player_auction(tmp_path):
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=1)
    members = tuple(range(1, 9))
    rules = GAMES["board"].rules
    try:
        async with app:
            await _send(app, command("/newgame board", 1))
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            for uid in members[1:]:
                await _send(app, command("/join", uid))
            await _send(app, press(f"l:{table}:start", 1))
            for _ in range(400):
                decisions = rules.waiting_for(service.cache.state(table))
                if sum(d.kind == "bid" for d in decisions) >= 7:
                    break
                seat = decisions[0].seat
                wanted = decisions[0].timeout if decisions[0].kind == "buy" else GAMES["board"].choose_listed(
                    service.cache.state(table), seat)  # a declined street goes to auction
                token = next(tok for a, tok in service.buttons(table, seat) if a == wanted)
                await _send(app, press(token, members[seat]))
            else:
                pytest.fail("a declined street goes to an auction among everyone")
            for d in [d for d in decisions if d.kind == "bid"]:
                answers = {tok for a, tok in service.buttons(table, d.seat) if a in rules.answers(d, [a])}
                reachable = set(shown_now(api, GROUP)) | set(shown_now(api, members[d.seat]))
                if not answers <= reachable:
                    await _send(app, press(f"h:{table}", members[d.seat]))
                    reachable |= set(shown_now(api, members[d.seat]))
                assert answers and answers <= reachable, f"every bid of seat {d.seat}, one or two presses away"
    finally:
        await service.close()


async def test_only_the_tables_opener_or_an_admin_runs_its_lobby(tmp_path):
    """Issue 45, as the README says: the player who opened a table adds and removes AI seats and
    starts it, or a chat admin does. Another member, seated or not, is told so and changes nothing;
    once the opener has left the table, the first player still seated runs it."""
    api = AdminIsAnn()  # Ann (1) is the chat's admin; Bob (2), Cy (3) and Dee (4) are members
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/newgame deal", 2))  # Bob opens it
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            await _send(app, press(f"l:{table}:join", 3))
            for op in ("ai", "ai:strong", "start"):  # Cy, seated, and Dee, an onlooker
                for uid in (3, 4):
                    before = service.cache.row(table).seats if service.cache.peek(table) else None
                    await _send(app, press(f"l:{table}:{op}", uid))
                    assert api.calls[-1][0] == "answerCallbackQuery"
                    assert api.calls[-1][1]["text"] == t("en", "service.host_only"), (op, uid)
                    row = await service.lobby.table_in_chat(f"tg:{GROUP}")
                    assert row.status == "lobby" and not any(s["ai"] for s in row.seats), (op, uid, before)
            await _send(app, press(f"l:{table}:ai", 2))  # Bob may
            await _send(app, press(f"l:{table}:noai", 1))  # and so may the admin
            row = await service.lobby.table_in_chat(f"tg:{GROUP}")
            assert [s["user"] for s in row.seats] == ["tg:2", "tg:3"]
            await _send(app, press(f"l:{table}:leave", 2))  # Bob goes: Cy, first seated, runs it now
            await _send(app, press(f"l:{table}:ai", 3))
            await _send(app, press(f"l:{table}:start", 3))
            assert service.cache.row(table).status == "running"
    finally:
        await service.close()


def test_a_telegram_clock_says_the_time_of_day_it_runs_out(monkeypatch):
    """Issue 45: a Telegram message does not count down, so the clock also says when it runs out,
    as a time of day (China's time for Chinese chats, UTC marked for English, or TYCOON_TIMEZONE)."""
    from bot.telegram_app.messenger import TelegramMessenger

    due = 1_767_225_600.0 + 90  # 2026-01-01 00:01:30 UTC
    when = TelegramMessenger.when(None, due, due - 60, "en")
    assert when == t("en", "ui.clock.until", seconds=60, time="00:01:30 UTC")
    assert TelegramMessenger.when(None, due, due - 60, "zh-Hans") == t("zh-Hans", "ui.clock.until", seconds=60,
                                                                         time="08:01:30")
    monkeypatch.setenv("TYCOON_TIMEZONE", "America/New_York")
    assert "19:01:30" in TelegramMessenger.when(None, due, due - 60, "en")
    monkeypatch.setenv("TYCOON_TIMEZONE", "Not/AZone")
    assert "00:01:30 UTC" in TelegramMessenger.when(None, due, due - 60, "en"), "an unknown zone: the default"


async def test_my_hand_pressed_in_the_group_always_says_where_it_went(tmp_path):
    """Issue 45: "My hand" in the group brings the player's private message up to date and says so
    (a small toast), never an empty answer that looks like a press that failed."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            table = await _open_for_two(app, api, "deal")
            await _send(app, press(f"h:{table}", 2))
            answer = [p for name, p in api.calls if name == "answerCallbackQuery"][-1]
            assert answer.get("text") == t("en", "ch.own_sent") and not answer.get("show_alert")
    finally:
        await service.close()


async def test_the_discard_pile_is_one_message_in_a_private_chat(tmp_path):
    """Issue 45: the discard pile (D-18) pressed again in a private chat replaces the one shown
    before, instead of piling up a photo a press."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    rules = GAMES["deal"].rules
    try:
        async with app:
            table = await _open_for_two(app, api, "deal")
            for _ in range(400):  # played until something lies on the discard pile
                state = service.cache.state(table)
                if state.discard_pile:
                    break
                decision = rules.waiting_for(state)[0]
                uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
                wanted = GAMES["deal"].choose_listed(state, decision.seat)
                token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
                await _send(app, press(token, uid, chat=uid))
            assert service.cache.state(table).discard_pile, "a card was discarded"
            piles = []
            for _ in range(3):
                before = set(api.messages)
                await _send(app, press(service.sign(f"p:{table}"), 1, chat=1))
                piles.append(set(api.messages) - before)
            assert all(piles), "the pile was shown each time"
            left = [key for key in api.messages if key[0] == 1 and any(key in p for p in piles)]
            assert left and all(key in piles[-1] for key in left), "only the newest pile is left in the chat"
    finally:
        await service.close()


async def test_a_step_of_ones_choices_opens_in_place_and_a_step_that_is_gone_starts_again(tmp_path):
    """The first player's hand: a card with more than one use opens its uses on the same private
    message (its picture kept, the way there said under it, a Back to the hand); a step whose
    choices are gone (the table moved on) shows the choices from the start and says why."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=0)
    try:
        async with app:
            table = await open_game(app, api, "deal")
            seat = service.cache.waiting_for(table)[0].seat
            uid = int(service.cache.row(table).seats[seat]["user"][3:])
            await _send(app, press(f"h:{table}", uid))
            (mid, first), = api.live(uid).items()
            steps = [d for d in shown_now(api, uid) if d.startswith(f"m:{table}:")]
            assert steps, "a card with more than one use is a step"
            picture = api.messages[(uid, mid)]["picture"]
            await _send(app, press_on(api, steps[0], uid, uid))
            shown = api.messages[(uid, mid)]
            assert shown["picture"] == picture and shown["buttons"] != first  # the same message, new buttons
            assert "▸ " in shown["text"] and api.calls[-1][0] == "editMessageCaption"
            back = shown_now(api, uid)[-1]
            assert back == f"m:{table}:r:0"
            await _send(app, press_on(api, back, uid, uid))
            assert api.messages[(uid, mid)]["buttons"] == first  # back at the hand
            await _send(app, press(f"m:{table}:0123456789:0", uid, chat=uid, message_id=mid, photo=True))
            alert = [p for name, p in api.calls if name == "answerCallbackQuery"][-1]
            assert alert["text"] == t("en", "ch.step.changed")
            assert api.messages[(uid, mid)]["buttons"] == first
            assert api.refused == []
    finally:
        await service.close()


async def test_every_player_newly_asked_to_answer_gets_a_message_that_mentions_them(tmp_path):
    """A Just Say No chain between two people (seed 0): whenever a press leaves a player newly asked
    to answer (the target, then the attacker asked about the "no"), the group gets a new message
    under the table that mentions them; no edit adds a name (an edit notifies nobody)."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=0)
    rules = GAMES["deal"].rules
    try:
        async with app:
            table = await _open_for_two(app, api, "deal")
            asked = 0
            for _ in range(800):
                if service.cache.row(table).status != "running":
                    break
                before = {(d.seat, d.kind) for d in rules.waiting_for(service.cache.state(table))}
                mark = len(api.calls)
                await press_first(app, api, service, table)
                for d in rules.waiting_for(service.cache.state(table)):
                    if d.kind in ("respond", "counter") and (d.seat, d.kind) not in before:
                        asked += 1
                        who = service.cache.row(table).seats[d.seat]["user"][3:]
                        posts = [p for name, p in api.calls[mark:] if name == "sendMessage"
                                 and int(p["chat_id"]) == GROUP
                                 and (p.get("reply_to_message_id") or p.get("reply_parameters"))]
                        assert any(f"tg://user?id={who}" in p["text"] for p in posts), (d, posts)
                edits = [p for name, p in api.calls[mark:] if name == "editMessageText" and int(p["chat_id"]) == GROUP]
                assert not any("tg://user?id=" in p["text"] for p in edits), "no edit adds a mention"
            assert asked >= 2  # the target and, after a "no", the attacker
    finally:
        await service.close()


async def test_B04_a_bidder_types_a_bid_of_their_own_in_the_private_chat(tmp_path):
    """"✏️ Type a bid" under the table: the bidder is asked privately (a forced reply), a word that
    is not a number is asked again, a bid under the least allowed is refused with the rule's
    reason, and a number within the rules is their bid; someone not bidding is told so."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=3)
    rules = GAMES["board"].rules
    try:
        async with app:
            table = await _open_for_two(app, api, "board")
            for _ in range(200):  # to the first street bought or declined: declined, it goes to auction
                await press_first(app, api, service, table,
                                  lambda state, decision: decision.timeout if decision.kind == "buy" else None)
                if service.cache.state(table).stage == "auction":
                    break
            state = service.cache.state(table)
            assert state.stage == "auction"
            bidder = rules.waiting_for(state)[0].seat
            uid = int(service.cache.row(table).seats[bidder]["user"][3:])
            assert f"a:{table}" in shown_now(api, GROUP), "a button to type a bid, under the table"
            await _send(app, press_on(api, f"a:{table}", 9, GROUP))  # someone not at the table
            alert = [p for name, p in api.calls if name == "answerCallbackQuery"][-1]
            assert alert["text"] == t("en", "service.not_a_player")
            await _send(app, press_on(api, f"a:{table}", uid, GROUP))
            asked = [p for name, p in api.calls if name == "sendMessage" and int(p["chat_id"]) == uid][-1]
            assert "force_reply" in str(asked.get("reply_markup")) and str(state.auction.opening) in asked["text"]
            await _send(app, _typed("lots", uid))
            assert api.calls[-1][1]["text"] == t("en", "amount.not_a_number")
            await _send(app, _typed("5", uid))  # below the opening bid: B-04 says why
            low = service.cache.state(table).auction
            assert "B-04" in api.calls[-1][1]["text"] and low.high_bidder < 0
            await _send(app, _typed("1,230", uid))
            auction = service.cache.state(table).auction
            assert auction.high_bid == 1230 and auction.high_bidder == bidder
            said = [p["text"] for name, p in api.calls if name == "sendMessage" and int(p["chat_id"]) == uid]
            assert t("en", "amount.done") in said[-3:]
            await _send(app, _typed("1500", uid))  # nothing waits for a bid of theirs any more: the help
            assert api.calls[-1][1]["text"] == t("en", "tg.help")
            assert service.cache.state(table).auction is None or service.cache.state(table).auction.high_bid == 1230
    finally:
        await service.close()


def _typed(text: str, uid: int) -> dict:
    _update_id[0] += 1
    return {"update_id": _update_id[0], "message": {
        "message_id": _update_id[0], "date": 0, "chat": {"id": uid, "type": "private"}, "from": _user(uid),
        "text": text}}
