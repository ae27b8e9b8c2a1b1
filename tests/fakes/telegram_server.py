"""A fake Telegram Bot API over HTTP on 127.0.0.1 (aiohttp), for bot processes that reach it by
``TELEGRAM_API_URL``: it answers like Telegram, refuses what Telegram refuses (``telegram_limits``)
and keeps what each message shows (text or caption, buttons, picture hash). Message ids are unique
across processes; an edit that changes nothing is refused ("message is not modified") and counted.
Each process may reach it under a path prefix of its own (``/p0``, ``/p1`` in ``TELEGRAM_API_URL``),
so every call is known to come from one process or the other.

With ``flood`` (``telegram_limits.FloodLimits``) it keeps Telegram's flood limits too: a call over
them is answered 429 with ``retry_after`` (listed in ``flood.refusals``) and not carried out.

``getUpdates`` long-polls as Telegram does: it answers the updates queued by ``push`` (from the
offset asked for), or after a short wait an empty list.

What a bot sees of itself is ``getMe``'s answer (``ME``, with ``me`` merged in: a test that needs
topics in private chats, Bot API 9.3, passes ``me={"has_topics_enabled": True}``; a Main Mini App,
``has_main_web_app``). Then ``createForumTopic`` in a private chat makes a topic (9.4) and a message
sent to a private chat with a ``message_thread_id`` must name one of that chat's topics ("message
thread not found" otherwise, also after ``delete_topic``); without topics a private chat is no forum.
An inline query is answered once, within its life: ``inline_query`` makes the update (and knows its
id), ``answerInlineQuery`` for an id it does not know, or a second time, is refused as Telegram
refuses a query that is too old. ``setChatMenuButton`` is kept in ``menu_buttons`` (chat, or None
for the bot's default).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from dataclasses import dataclass

from tests.fakes import telegram_limits

BOT_TOKEN = "123:TEST"
BOT_ID, BOT_USERNAME = 999, "tycoon_bot"
# getMe as Telegram answers it for a bot with inline mode on (set with @BotFather) and nothing else
ME = {"id": BOT_ID, "is_bot": True, "first_name": "Tycoon", "username": BOT_USERNAME, "can_join_groups": True,
      "can_read_all_group_messages": False, "supports_inline_queries": True, "can_connect_to_business": False,
      "has_main_web_app": False, "has_topics_enabled": False}
POLL_WAIT = 0.5  # seconds an empty getUpdates waits (Telegram waits up to the "timeout" asked for)


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def _buttons(markup) -> list[str]:
    """The callback data of a message's buttons."""
    return [b["callback_data"] for b in _keys(markup) if "callback_data" in b]


def _keys(markup) -> list[dict]:
    """Every button of an inline keyboard as sent (its text, kind, style)."""
    markup = _json(markup) if markup else None
    return [b for row in markup.get("inline_keyboard", ()) for b in row] if markup else []


def _caption(params: dict) -> str:
    if "media" in params:
        return str(_json(params["media"]).get("caption", ""))
    return str(params.get("caption", params.get("text", "")))


@dataclass
class Call:
    process: str  # "p0" or "p1": which bot process sent it
    method: str
    params: dict
    picture: str | None  # sha1 of the uploaded picture, if one came
    at: float


class BotAPIServer:
    """A fake Telegram Bot API over HTTP for both processes (``/<process>/bot<token>/<method>``)."""

    def __init__(self, token: str = BOT_TOKEN, flood: telegram_limits.FloodLimits | None = None,
                 me: dict | None = None) -> None:
        self.token = token
        self.flood = flood
        self.me = {**ME, **(me or {})}
        self.topics: dict[int, dict[int, str]] = {}  # private chat -> its topics: thread id -> name
        self.inline_queries: dict[str, dict] = {}  # inline query id -> the query, until answered
        self.inline_answers: dict[str, dict] = {}  # inline query id -> answerInlineQuery's parameters
        self.menu_buttons: dict[int | None, dict] = {}  # chat (None: the default) -> its menu button
        self.watchers: list = []  # callables told of every call answered (``Call``, taken), for benches
        self.calls: list[Call] = []
        self.messages: dict[tuple[int, int], dict] = {}
        self.next_id = 1000
        self.identical: list[Call] = []
        self.reuploads = 0
        self.answers: dict[str, dict] = {}  # callback query id -> answerCallbackQuery's parameters
        # a message sent to a group with a button another message there still shows: (chat, data, old, new)
        self.twice: list[tuple[int, str, int, int]] = []
        self.touched: dict[int, float] = {}  # chat -> when the bot last sent or edited something there
        self.changed = asyncio.Event()
        self.refused: list[tuple[str, str]] = []  # calls over Telegram's limits: (method, description)
        self.updates: list[dict] = []  # what getUpdates delivers (polling), in order
        self.delivered: set[int] = set()  # the update ids a getUpdates answer has handed to the bot
        self._update_id = 0
        self._runner = None
        self.port = 0

    async def start(self) -> int:
        from aiohttp import web

        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_post("/{process}/{bot}/{method}", self._handle)
        app.router.add_get("/{process}/{bot}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def wait_change(self, timeout: float) -> None:
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)

    @staticmethod
    async def _read(request) -> tuple[dict, dict]:
        params, files = {}, {}
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.filename:
                    files[part.name] = bytes(await part.read())
                else:
                    params[part.name] = await part.text()
        elif request.can_read_body:
            params = dict(await request.post())
        return params, files

    def _answer(self, result=None, error: str | None = None):
        from aiohttp import web

        if error is not None:
            return web.json_response({"ok": False, "error_code": 400, "description": error}, status=400)
        return web.json_response({"ok": True, "result": result})

    @staticmethod
    def _message(chat: int, message_id: int, thread: int | None = None) -> dict:
        message = {"message_id": message_id, "date": int(time.time()),
                   "chat": {"id": chat, "type": "supergroup" if chat < 0 else "private"}}
        if thread is not None:
            message.update(message_thread_id=thread, is_topic_message=True)
        return message

    async def _handle(self, request):
        process, method = request.match_info["process"], request.match_info["method"]
        if request.match_info["bot"] != f"bot{self.token}":
            from aiohttp import web

            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        params, files = await self._read(request)
        picture = None
        if method == "sendPhoto" and "photo" in files:
            picture = hashlib.sha1(files["photo"]).hexdigest()
        elif method == "editMessageMedia":
            attached = str(_json(params.get("media", "{}")).get("media", "")).removeprefix("attach://")
            picture = hashlib.sha1(files[attached]).hexdigest() if attached in files else None
        call = Call(process, method, params, picture, time.monotonic())
        self.calls.append(call)
        if method == "getUpdates":
            return await self._poll(params)
        if self.flood is not None:
            retry = self.flood.check(method, params)
            if retry is not None:
                from aiohttp import web

                return web.json_response(telegram_limits.too_many(retry), status=429)
        try:
            response = self._reply(call)
        finally:
            self.changed.set()
        for watch in self.watchers:
            watch(call, response.status == 200)
        return response

    def push(self, update: dict) -> None:
        """An update for the bot to fetch with getUpdates (its ``update_id`` is set here)."""
        self._update_id += 1
        self.updates.append({**update, "update_id": self._update_id})

    async def _poll(self, params: dict):
        offset = int(params.get("offset") or 0)
        for _ in range(int(POLL_WAIT / 0.02)):
            pending = [u for u in self.updates if u["update_id"] >= offset]
            if pending:
                self.delivered.update(u["update_id"] for u in pending)
                return self._answer(pending)
            await asyncio.sleep(0.02)
        return self._answer([])

    def _reply(self, call: Call):
        method, params = call.method, call.params
        problem = telegram_limits.check_call(method, params)
        if problem is not None:  # what Telegram refuses, refused as Telegram does
            self.refused.append((method, problem))
            return self._answer(error=problem)
        if "chat_id" in params:
            self.touched[int(params["chat_id"])] = call.at
        if method == "getMe":
            return self._answer(dict(self.me))
        if method in ("sendMessage", "sendPhoto"):
            chat = int(params["chat_id"])
            thread = int(params["message_thread_id"]) if params.get("message_thread_id") else None
            if chat > 0 and thread is not None and thread not in self.topics.get(chat, {}):
                return self._refuse(method, "Bad Request: message thread not found")
            self.next_id += 1
            if chat < 0:
                for data in _buttons(params.get("reply_markup")):
                    self.twice += [(chat, data, mid, self.next_id) for mid, shown in self.live(chat).items()
                                   if data in shown]
            self.messages[(chat, self.next_id)] = {
                "text": _caption(params), "buttons": _buttons(params.get("reply_markup")), "picture": call.picture,
                "keys": _keys(params.get("reply_markup")), "thread": thread}
            return self._answer(self._message(chat, self.next_id, thread))
        if method in ("editMessageMedia", "editMessageText", "editMessageCaption", "editMessageReplyMarkup"):
            key = (int(params["chat_id"]), int(params["message_id"]))
            old = self.messages.get(key)
            if old is None:
                return self._answer(error="Bad Request: message to edit not found")
            new = dict(old)
            if method != "editMessageReplyMarkup":
                new["text"] = _caption(params)
            if method == "editMessageMedia":
                if call.picture is not None and call.picture == old.get("picture"):
                    self.reuploads += 1
                new["picture"] = call.picture
            new["buttons"] = _buttons(params.get("reply_markup"))
            new["keys"] = _keys(params.get("reply_markup"))
            if new == old:
                self.identical.append(call)
                return self._answer(error="Bad Request: message is not modified: specified new message content "
                                          "and reply markup are exactly the same as a current content and reply "
                                          "markup of the message")
            self.messages[key] = new
            return self._answer(self._message(*key))
        if method == "deleteMessage":
            self.messages.pop((int(params["chat_id"]), int(params["message_id"])), None)
            return self._answer(True)
        if method == "answerCallbackQuery":
            self.answers[params["callback_query_id"]] = params
            return self._answer(True)
        if method == "getChatMember":
            return self._answer({"status": "member", "user": {"id": int(params["user_id"]), "is_bot": False,
                                                              "first_name": "x"}})
        if method == "createForumTopic":
            chat = int(params["chat_id"])
            if chat < 0 or not self.me.get("has_topics_enabled"):
                return self._refuse(method, "Bad Request: the chat is not a forum")
            self.next_id += 1  # a topic's thread id is the id of the service message that opens it
            self.topics.setdefault(chat, {})[self.next_id] = params["name"]
            return self._answer({"message_thread_id": self.next_id, "name": params["name"], "icon_color": 7322096})
        if method == "answerInlineQuery":
            query = params["inline_query_id"]
            if self.inline_queries.pop(query, None) is None:
                return self._refuse(method, "Bad Request: query is too old and response timeout expired or query "
                                            "ID is invalid")
            self.inline_answers[query] = {**params, "results": _json(params["results"]),
                                          "button": _json(params["button"]) if params.get("button") else None}
            return self._answer(True)
        if method == "setChatMenuButton":
            chat = int(params["chat_id"]) if params.get("chat_id") else None
            self.menu_buttons[chat] = _json(params["menu_button"]) if params.get("menu_button") else {"type": "default"}
            return self._answer(True)
        if method == "getChatMenuButton":
            chat = int(params["chat_id"]) if params.get("chat_id") else None
            return self._answer(self.menu_buttons.get(chat, self.menu_buttons.get(None, {"type": "commands"})))
        return self._answer(True)  # setMyCommands, setWebhook, deleteWebhook, …

    def _refuse(self, method: str, problem: str):
        self.refused.append((method, problem))
        return self._answer(error=problem)

    # -- what Telegram sends the bot -----------------------------------------------------------------

    def inline_query(self, user: dict, query: str = "", chat_type: str | None = "supergroup") -> dict:
        """An inline query update (``user``: Telegram's User object) typed in a chat of
        ``chat_type`` ("sender", "private", "group", "supergroup", "channel"; None when Telegram
        does not say); its id is one ``answerInlineQuery`` may answer, once."""
        self._update_id += 1
        qid = f"iq{self._update_id}"
        inline = {"id": qid, "from": user, "query": query, "offset": ""}
        if chat_type is not None:
            inline["chat_type"] = chat_type
        self.inline_queries[qid] = inline
        return {"update_id": self._update_id, "inline_query": inline}

    def delete_topic(self, chat: int, thread: int) -> None:
        """The user deletes a topic of their private chat with the bot."""
        self.topics.get(chat, {}).pop(thread, None)

    # -- what the chats show --------------------------------------------------------------------

    def live(self, chat: int) -> dict[int, list[str]]:
        """The messages of ``chat`` that have buttons now: message id -> their callback data."""
        return {mid: m["buttons"] for (c, mid), m in self.messages.items() if c == chat and m["buttons"]}

    def find(self, data: str, chats) -> tuple[int, int] | None:
        for chat in chats:
            for mid, buttons in self.live(chat).items():
                if data in buttons:
                    return chat, mid
        return None

    def find_prefix(self, prefix: str, chat: int) -> tuple[str, int] | None:
        """A button whose data (signed) is ``prefix`` and its MAC, newest message first."""
        for mid, buttons in sorted(self.live(chat).items(), reverse=True):
            for data in buttons:
                if data.rsplit(".", 1)[0] == prefix:
                    return data, mid
        return None
