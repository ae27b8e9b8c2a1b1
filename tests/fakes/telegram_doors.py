"""People's Telegram apps, for tests of the ways into a game (issue 49): what the app sends the bot
when someone taps a link, an inline card or a button, as real-shaped updates, handed to the real
python-telegram-bot application that talks to the fake Bot API (``telegram_server.BotAPIServer``).

Every tap is counted per person (``taps``), and so is anything typed (``typed``), so that a test can
say how many steps a person took from "not in the group" to their first move. What the app does
for each, as Telegram documents it:

- ``start(uid, payload)``: the START button of the bot's chat, or a ``t.me/<bot>?start=<payload>``
  link (one tap): ``/start [payload]`` in the private chat.
- ``add_to_group(uid, chat, payload)``: a ``t.me/<bot>?startgroup=<payload>&admin=…`` link: the app
  asks which group (a tap) and to confirm the bot and its rights (a tap); Telegram then sends a
  ``my_chat_member`` update (the bot was not in the group) and ``/start@<bot> <payload>`` in it.
- ``inline(uid, chat_type, query)``: typing ``@<bot>`` (counted as typed), or the bot's "Invite
  friends" button (``switch_inline_query_chosen_chat``: a tap on it and one to pick the chat, counted
  by ``invite``): the inline query; the bot's answer (its results) comes back.
- ``choose(uid, chat, result)``: a tap on an inline result: the app sends its message into the chat
  "via @<bot>" (a bot in privacy mode still gets those), with the result's keyboard.
- ``press(uid, chat, data)``: a tap on a callback button the chat shows now (``data`` as the bot
  made it, before its signature; the signed data shown is what is sent).
- ``open(uid, url, chat)``: a tap on a URL button: a ``startgroup`` link goes on as ``add_to_group``
  (into ``chat``), a ``start`` link as ``start``; a ``startapp`` link opens the Mini App (the web
  table's side: its parameter is returned, nothing reaches the bot).

A script for "four people, one door each" over Telegram (each step one call; the taps add up):

1. Ann: ``start(ann)`` → the greeting; ``open(ann, <its "Add to a group" URL>, group)`` → the bot
   greets the group with the game choice; ``press(ann, group, "n:deal")`` → the lobby.
2. Bob (in the group): ``press(bob, group, "l:<table>:join")``.
3. Cy (in a private chat with Ann): Ann ``invite``s and ``choose``s her "Join my table" card there;
   ``open(cy, <the card's URL>)`` → ``/start t<table>``: Cy is seated (the lobby's message says so).
4. Di (a Mini App user): ``open(di, startapp link)`` → the web table's door (its own helper).
5. Ann: ``press(ann, group, "l:<table>:start")``: the game runs.
"""

from __future__ import annotations

import itertools
from collections import Counter
from urllib.parse import parse_qs, urlsplit

from telegram import Update

from tests.fakes.telegram_limits import visible_html
from tests.fakes.telegram_server import BOT_USERNAME, BotAPIServer

SIGNED = ("l:", "h:", "b:", "e:", "s:", "T:", "m:", "a:", "p:", "t:", "R:", "Z:")
_ids = itertools.count(10**6)  # apart from the ids the fake gives the bot's messages


def user(uid: int, name: str | None = None, lang: str | None = "en") -> dict:
    """Telegram's User object of a person."""
    out = {"id": uid, "is_bot": False, "first_name": name or f"P{uid}"}
    if lang is not None:
        out["language_code"] = lang
    return out


def chat(chat_id: int, title: str = "Friends") -> dict:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"P{chat_id}"}
    return {"id": chat_id, "type": "supergroup", "title": title}


def bot_user(server: BotAPIServer) -> dict:
    return {"id": server.me["id"], "is_bot": True, "first_name": server.me["first_name"],
            "username": server.me["username"]}


def command_message(who: dict, where: int, text: str, thread: int | None = None) -> dict:
    """A message that starts with a bot command (``/start@tycoon_bot deal``), as Telegram delivers it."""
    message = {"message_id": next(_ids), "date": 0, "chat": chat(where), "from": who, "text": text,
               "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]}
    if thread is not None:
        message.update(message_thread_id=thread, is_topic_message=True)
    return {"update_id": next(_ids), "message": message}


def added(server: BotAPIServer, who: dict, group: int, admin: bool = True) -> dict:
    """``my_chat_member``: ``who`` added the bot to ``group`` (as an administrator with the rights
    the link asked for: topics only, or as a member)."""
    status = {"status": "member", "user": bot_user(server)}
    if admin:
        status = {"status": "administrator", "user": bot_user(server), "can_be_edited": False,
                  "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": False,
                  "can_manage_video_chats": False, "can_restrict_members": False, "can_promote_members": False,
                  "can_change_info": False, "can_invite_users": False, "can_post_stories": False,
                  "can_edit_stories": False, "can_delete_stories": False, "can_manage_topics": True}
    return {"update_id": next(_ids), "my_chat_member": {
        "chat": chat(group), "from": who, "date": 0,
        "old_chat_member": {"status": "left", "user": bot_user(server)}, "new_chat_member": status}}


def via_bot_message(server: BotAPIServer, who: dict, where: int, result: dict) -> dict:
    """The message an inline result sends when chosen: its text as shown, its keyboard, "via @bot"."""
    content = result["input_message_content"]
    text = content["message_text"]
    if str(content.get("parse_mode", "")).upper() == "HTML":
        text = visible_html(text)
    message = {"message_id": next(_ids), "date": 0, "chat": chat(where), "from": who, "text": text,
               "via_bot": bot_user(server)}
    if result.get("reply_markup"):
        message["reply_markup"] = result["reply_markup"]
    return {"update_id": next(_ids), "message": message}


def callback(who: dict, where: int, message_id: int, data: str, thread: int | None = None) -> dict:
    message = {"message_id": message_id, "date": 0, "chat": chat(where), "text": "x"}
    if thread is not None:
        message.update(message_thread_id=thread, is_topic_message=True)
    n = next(_ids)
    return {"update_id": n, "callback_query": {"id": f"cb{n}", "from": who, "chat_instance": "c", "data": data,
                                               "message": message}}


def link(url: str) -> tuple[str, str]:
    """A ``t.me`` deep link's kind and parameter: ("startgroup", "deal"), ("start", "t12")…"""
    query = parse_qs(urlsplit(url).query, keep_blank_values=True)
    kind = next(k for k in ("startgroup", "startapp", "start") if k in query)
    return kind, query[kind][0]


class TelegramApps:
    """The people of a test and their taps (see the module's docstring)."""

    def __init__(self, server: BotAPIServer, app, service) -> None:
        self.server, self.app, self.service = server, app, service
        self.people: dict[int, dict] = {}
        self.groups: set[int] = set()  # groups the bot is in
        self.taps: Counter[int] = Counter()
        self.typed: Counter[int] = Counter()

    def person(self, uid: int, name: str | None = None, lang: str | None = "en") -> dict:
        return self.people.setdefault(uid, user(uid, name, lang))

    async def send(self, update: dict) -> None:
        """An update as Telegram delivers it; then the service settles what it changed."""
        await self.app.process_update(Update.de_json(update, self.app.bot))
        await self.service.idle()

    async def start(self, uid: int, payload: str | None = None) -> None:
        self.taps[uid] += 1
        await self.send(command_message(self.person(uid), uid, "/start" + (f" {payload}" if payload else "")))

    async def add_to_group(self, uid: int, group: int, payload: str | None = None) -> None:
        self.taps[uid] += 2  # the group picked, the bot (and its rights) confirmed
        if group not in self.groups:
            self.groups.add(group)
            await self.send(added(self.server, self.person(uid), group))
        text = f"/start@{BOT_USERNAME}" + (f" {payload}" if payload else "")
        await self.send(command_message(self.person(uid), group, text))

    async def inline(self, uid: int, chat_type: str | None, query: str = "", typed: bool = True) -> list[dict]:
        """The cards the bot answers an inline query with (typed ``@bot``, or ``typed=False``: the
        chat picked after "Invite friends", counted by ``invite``)."""
        if typed:
            self.typed[uid] += 1
        update = self.server.inline_query(self.person(uid), query, chat_type)
        qid = update["inline_query"]["id"]
        await self.send(update)
        return self.server.inline_answers[qid]["results"]

    async def invite(self, uid: int, chat_type: str | None, query: str = "") -> list[dict]:
        self.taps[uid] += 2  # "Invite friends", then the chat
        return await self.inline(uid, chat_type, query, typed=False)

    async def choose(self, uid: int, where: int, result: dict) -> int:
        """The card ``result`` tapped: its message sent into ``where`` via the bot; the message's id."""
        self.taps[uid] += 1
        update = via_bot_message(self.server, self.person(uid), where, result)
        await self.send(update)
        return update["message"]["message_id"]

    def shown(self, where: int, data: str) -> tuple[int, str, int | None]:
        """The newest message of ``where`` with the button ``data`` (unsigned, or as shown): its id,
        the data as shown, its topic."""
        for (c, mid), message in sorted(self.server.messages.items(), key=lambda kv: -kv[0][1]):
            if c != where:
                continue
            for shown in message["buttons"]:
                if shown == data or (shown[:2] in SIGNED and shown.rsplit(".", 1)[0] == data):
                    return mid, shown, message.get("thread")
        raise AssertionError(f"{data} is not shown in {where}")

    async def press(self, uid: int, where: int, data: str) -> None:
        self.taps[uid] += 1
        mid, shown, thread = self.shown(where, data)
        await self.send(callback(self.person(uid), where, mid, shown, thread))

    async def open(self, uid: int, url: str, where: int | None = None) -> str | None:
        """A URL button tapped (the tap counted by what it leads to); a ``startapp`` link's parameter
        (the Mini App opens on it), else None."""
        kind, value = link(url)
        if kind == "startgroup":
            self.taps[uid] += 1  # the button itself
            await self.add_to_group(uid, where, value or None)
            return None
        if kind == "start":
            await self.start(uid, value or None)
            return None
        self.taps[uid] += 1
        return value


def url_buttons(message_or_result: dict) -> list[dict]:
    """The buttons of a message kept by the fake (``keys``) or of an inline result (its markup)."""
    if "keys" in message_or_result:
        return message_or_result["keys"]
    markup = message_or_result.get("reply_markup") or {}
    return [b for row in markup.get("inline_keyboard", ()) for b in row]
