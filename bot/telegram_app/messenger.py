"""The table channel's messenger for Telegram (``bot/chat/messenger.py``): photos with a caption,
messages in HTML (names escaped, mentions as ``tg://user`` links that notify exactly the player
meant), inline keyboards whose data the service signs, forum topics, private chats by user id.

Telegram's limits, as it counts them: 1,024 characters under a photo and 4,096 in a message, in
UTF-16 units of what the HTML shows (the beginning of a long table text is cut, its newest lines
kept); 64 bytes of callback data; an edit that would change nothing is refused ("not modified"),
which counts as done.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, WebAppInfo
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.chat.inputs import SIGNED
from bot.chat.messenger import Mention, Text, Unreachable, shorten
from bot.chat.screens import Button, Screen
from bot.chat.steps import FULL, width
from bot.telegram_app.topics import open_topic
from bot.web.auth import result_path, telegram_path, watch_path
from engine.service.tables import GameService
from engine.service.tournaments import base_chat
from engine.service.views import PublicView, Seat
from words.i18n import t

CAPTION_LIMIT, TEXT_LIMIT = 1024, 4096  # Telegram's own, counted in UTF-16 units of what the HTML shows
PAGE = 40  # buttons in one message; Telegram refuses keyboards much past a hundred
HTML = "HTML"
WEB_APP = "webapp:"  # a button's token that opens a Mini App page (private chats only)
# a button's tone (``bot.chat.screens.Button``) as Telegram colours it (Bot API 9.4: "danger" red,
# "success" green, "primary" blue, "recommended for main actions"); older apps show the default
STYLES = {"main": "primary", "danger": "danger"}


def where(key: str) -> tuple[int, int | None]:
    """The chat id and forum topic of a chat key."""
    parts = base_chat(key).split(":")
    return int(parts[1]), (int(parts[2]) if len(parts) > 2 else None)


def mention(seat: Seat) -> str:
    """A player named so that Telegram notifies them (a text mention by user id); others by name."""
    name = html.escape(seat.name, quote=False)
    return f'<a href="tg://user?id={seat.user[3:]}">{name}</a>' if seat.user.startswith("tg:") else name


def clock_time(at: float, lang: str, day: bool = False) -> str:
    """``at`` (epoch seconds) as a time of day: in ``TYCOON_TIMEZONE`` (an IANA name, e.g.
    ``Asia/Shanghai``) when set, else China's time for Chinese and UTC, so marked, for English.
    Telegram does not tell a bot a chat's time zone. ``day``: with the month and day (a deadline
    hours away)."""
    name = os.environ.get("TYCOON_TIMEZONE", "").strip()
    zone = None
    if name:
        with contextlib.suppress(Exception):  # an unknown name, or no tz database: the default
            zone = ZoneInfo(name)
    if zone is None:
        zone = CHINA if lang.startswith("zh") else UTC
    shown = datetime.fromtimestamp(at, zone).strftime("%m-%d %H:%M" if day else "%H:%M:%S")
    return f"{shown} UTC" if zone is UTC else shown


CHINA = timezone(timedelta(hours=8))


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def fit(text: Text, limit: int, after: str = "") -> str:
    """``text``'s body escaped for HTML, with the HTML line ``after`` appended (a mention), within
    Telegram's ``limit`` as Telegram counts it (UTF-16 units of what the message shows, tags left
    out); a body too long keeps its head and its newest lines (``bot.chat.messenger.shorten``)."""
    shown_after = html.unescape(re.sub(r"<[^>]*>", "", after))
    budget = limit - units(shown_after) - (1 if after and text.body else 0)
    body = html.escape(shorten(text, max(0, budget), units), quote=False)
    if not after:
        return body
    return f"{body}\n{after}" if body else after


def keyboard(buttons: list[Button] | list[tuple[str, str]], per_row: int = 2, sign=None) -> InlineKeyboardMarkup | None:
    """Inline buttons; data other than a move token is signed with ``sign`` (the service's); a
    token that is an address is a link button, one that starts with ``webapp:`` opens a Mini App.
    A button's tone is its colour (Bot API 9.4 ``style``: ``STYLES``)."""
    triples = [(b.label, b.token, STYLES.get(b.tone)) if isinstance(b, Button) else (*b, None) for b in buttons]
    if not triples:
        return None
    made = []
    for label, data, style in triples:
        if data.startswith(WEB_APP):
            made.append(InlineKeyboardButton(label[:60], web_app=WebAppInfo(data[len(WEB_APP):]), style=style))
        elif data.startswith(("https://", "http://")):
            made.append(InlineKeyboardButton(label[:60], url=data, style=style))
        else:
            signed = sign(data) if sign is not None and data[:2] in SIGNED else data
            made.append(InlineKeyboardButton(label[:60], callback_data=signed, style=style))
    return InlineKeyboardMarkup(rows(made, per_row))


def rows(made: list[InlineKeyboardButton], per_row: int = 2) -> list[list[InlineKeyboardButton]]:
    """Buttons in rows of ``per_row``, but a label too wide for a shared row (a phone cuts it to a
    stub) gets a row of its own."""
    out: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    for button in made:
        if width(button.text) > FULL // per_row:
            out += [row] if row else []
            out.append([button])
            row = []
            continue
        row.append(button)
        if len(row) == per_row:
            out.append(row)
            row = []
    return out + ([row] if row else [])


def _not_modified(error: BadRequest) -> bool:
    return "not modified" in str(error).lower()


KEPT = b""  # an edit's picture: the one the message has (its caption and buttons change, no upload)


class TelegramMessenger:
    name = "tg"
    page = PAGE

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.bot = None  # the running application's bot, set when it starts
        # the web table's public address: private messages get an "Open table" Mini App button
        # (https only), the table message a "Watch" link
        self.web_url = (os.environ.get("TYCOON_WEB_URL") or "").rstrip("/") or None

    def markup(self, buttons, per_row: int = 2) -> InlineKeyboardMarkup | None:
        return keyboard(buttons, per_row, sign=self.service.sign)

    def table_place(self, view: PublicView) -> tuple[int, int | None]:
        chat_id, thread = where(view.chat_key)
        return chat_id, view.messages.get("tg_thread", thread)

    @staticmethod
    def chat_place(chat: str) -> tuple[int, int | None]:
        return where(chat)

    @staticmethod
    def key(place, message_id: int) -> tuple:
        return (place[0] if isinstance(place, tuple | list) else place, message_id)

    @staticmethod
    def _chat(place) -> tuple[int, int | None]:
        """A place: a chat, or a chat and its topic (a tuple, or a list as a message record keeps it)."""
        return (place[0], place[1]) if isinstance(place, tuple | list) else (place, None)

    def when(self, due_at: float, now: float, lang: str = "zh-Hans") -> str:
        """A deadline a group can read without an edit a second: the seconds left when the message
        was written, and the time of day it runs out (a Telegram message does not count down); an
        hour or more away (a slow game's), the hours left and the day and time it runs out."""
        if due_at - now >= 3600:
            return t(lang, "ui.clock.until_hours", hours=round((due_at - now) / 3600),
                     time=clock_time(due_at, lang, day=True))
        return t(lang, "ui.clock.until", seconds=max(0, round(due_at - now)), time=clock_time(due_at, lang))

    @staticmethod
    def render(text: Text, limit: int) -> str:
        after = "".join(mention(p.seat) if isinstance(p, Mention) else html.escape(p, quote=False)
                        for p in text.after)
        return fit(text, limit, after)

    async def post(self, place, text: Text, buttons: list[Button], picture: bytes | None = None, *,
                   reply_to: int | None = None, picture_name: str = "table.png") -> int:
        chat, thread = self._chat(place)
        markup = self.markup(buttons)
        extra = {"message_thread_id": thread} if thread else {}
        if reply_to is not None:
            extra["reply_to_message_id"] = reply_to
        try:
            if picture is not None:
                sent = await self.bot.send_photo(chat, picture, caption=self.render(text, CAPTION_LIMIT),
                                                 parse_mode=HTML, reply_markup=markup, **extra)
            else:
                sent = await self.bot.send_message(chat, self.render(text, TEXT_LIMIT), parse_mode=HTML,
                                                   reply_markup=markup, **extra)
        except Forbidden as e:  # a private chat the user never opened, or blocked
            raise Unreachable(str(e)) from None
        except BadRequest as e:
            if not (thread and chat > 0 and "thread not found" in str(e).lower()):
                raise
            # a private topic the player deleted: the plain private chat (``topics.py``)
            return await self.post(chat, text, buttons, picture, reply_to=reply_to, picture_name=picture_name)
        return sent.message_id

    async def edit(self, place, message_id: int, text: Text, buttons: list[Button], picture: bytes | None,
                   new_picture: bool, picture_name: str = "table.png") -> bool:
        chat, _ = self._chat(place)
        markup = self.markup(buttons)
        try:
            if picture is not None and new_picture:
                await self.bot.edit_message_media(
                    InputMediaPhoto(picture, caption=self.render(text, CAPTION_LIMIT), parse_mode=HTML),
                    chat_id=chat, message_id=message_id, reply_markup=markup)
            elif picture is not None:  # the same picture: the caption and buttons only, no upload
                await self.bot.edit_message_caption(chat_id=chat, message_id=message_id, parse_mode=HTML,
                                                    caption=self.render(text, CAPTION_LIMIT), reply_markup=markup)
            else:
                await self.bot.edit_message_text(self.render(text, TEXT_LIMIT), chat_id=chat, message_id=message_id,
                                                 parse_mode=HTML, reply_markup=markup)
        except BadRequest as e:
            return _not_modified(e)
        except Forbidden as e:
            raise Unreachable(str(e)) from None
        return True

    async def strip(self, place, message_id: int) -> None:
        chat, _ = self._chat(place)
        with contextlib.suppress(TelegramError):  # gone, too old, or already without buttons
            await self.bot.edit_message_reply_markup(chat_id=chat, message_id=message_id, reply_markup=None)

    async def delete(self, place, message_id: int) -> None:
        chat, _ = self._chat(place)
        try:
            await self.bot.delete_message(chat, message_id)
        except TelegramError:
            await self.strip(place, message_id)

    async def private_place(self, seat: Seat) -> int | None:
        return int(seat.user[3:]) if seat.user.startswith("tg:") else None

    async def private_topic(self, table: int, place, lang: str):
        """A player's private place for one table: a topic of its own where the bot has topics in
        private chats (``topics.py``), else ``place`` (their private chat) as it is."""
        return await open_topic(self.bot, self.service, table, place, lang)

    def deep_link(self, table: int) -> str:
        return f"https://t.me/{self.bot.username}?start=t{table}"

    def reach(self, table: int, seat_no: int, seat: Seat, lang: str) -> Button:
        """A private chat the player never opened: the deep link that opens it (and sends the hand)."""
        return Button(t(lang, "tg.btn.open_dm", name=seat.name), self.deep_link(table), seat_no)

    def watch(self, table: int, lang: str, over: bool = False) -> Button | None:
        if not self.web_url or not self.web_url.startswith("https://"):
            return None
        if over:
            return Button(t(lang, "end.btn.replay"), self.web_url + result_path(self.service.sign, table), -1)
        return Button(t(lang, "web.watch"), self.web_url + watch_path(self.service.sign, table), -1)

    def private_note(self, table: int, lang: str) -> str | None:
        """Hands come by private chat: players who never opened one with the bot need the link."""
        return t(lang, "tg.open_dm", link=self.deep_link(table)) if self.bot is not None else None

    def own_link(self, table: int, lang: str) -> Button | None:
        """The "Open table" Mini App button of a private message (Telegram allows it there only)."""
        if not self.web_url or not self.web_url.startswith("https://"):
            return None
        return Button(t(lang, "web.open_table"), WEB_APP + self.web_url + telegram_path(table), -1)

    async def refresh_own(self, table: int, seat: int, screen: Screen) -> None:
        return None
