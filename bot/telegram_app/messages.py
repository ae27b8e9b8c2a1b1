"""The messages a Telegram group and its players see of a table, each with one life.

- **The table message** (a photo, the table as text under it, the buttons decided in front of
  everyone). Edited in place for every change (which notifies nobody); a new one when the game
  starts or the turn passes, mentioning the player to act (the one ping a turn), and at the end
  with the result and every player mentioned. The message it replaces loses its buttons. An edit
  that would change nothing is not sent; a picture that did not change is not uploaded again (the
  caption and buttons are edited alone).
- **Prompts**, right under the table message: a player asked out of turn is pinged once (a Just
  Say No window carries its answers; the buttons follow the game's versions while the window is
  open and go when it is answered).
- **One private message per player** (a Deal hand from the start; the board's "My options" once
  asked for), edited after every change, posted anew only when it can no longer be edited.

Which messages exist is stored with the table (``messages``: ``tg`` the table message, ``tg_prompts``,
``tg_dm``; ``tg_shown`` what each shows; ``tg_v`` / ``tg_turn`` the version and turn the table message
shows), so a restarted bot, or the other process of several, goes on editing them. Showing an update
holds the table's record (engine/service/records.py): one process at a time posts and edits a
table's messages, on the ids as stored, and an update older than the one shown is left out.
"""

from __future__ import annotations

import contextlib
import html
import logging
import os
import re
from collections.abc import AsyncIterator

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, WebAppInfo
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.inputs import SIGNED
from bot.presenter import Screen
from bot.updates import (
    MessageRecord,
    UpdateScreens,
    note_shown,
    older_than_shown,
    seconds_left,
    update_screens,
)
from bot.web.auth import telegram_path
from engine.service.lobby import is_ai_user
from engine.service.loop import TableUpdate
from engine.service.tables import GameService
from engine.service.tournaments import base_chat
from words.i18n import t

log = logging.getLogger(__name__)
CAPTION = 1000  # Telegram allows 1024 characters under a photo
TEXT = 4000  # and 4096 in a message
CAPTION_LIMIT, TEXT_LIMIT = 1024, 4096  # Telegram's own, counted in UTF-16 units of what the HTML shows
PAGE = 40  # buttons in one message; Telegram refuses keyboards much past a hundred
HTML = "HTML"



def keyboard(buttons: list[tuple[str, str]], per_row: int = 2, sign=None) -> InlineKeyboardMarkup | None:
    """Inline buttons; data other than a move token is signed with ``sign`` (the service's)."""
    if not buttons:
        return None
    if sign is not None:
        buttons = [(label, sign(data) if data[:2] in SIGNED else data) for label, data in buttons]
    rows = [buttons[i:i + per_row] for i in range(0, len(buttons), per_row)]
    return InlineKeyboardMarkup([[InlineKeyboardButton(label[:60], callback_data=data) for label, data in row]
                                 for row in rows])


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def fit(text: str, limit: int, after: str = "") -> str:
    """``text`` escaped for HTML, its end kept (a table's newest lines are at the end), with the HTML
    line ``after`` appended (a mention), within Telegram's ``limit`` as Telegram counts it: UTF-16
    units of what the message shows, tags left out."""
    shown_after = html.unescape(re.sub(r"<[^>]*>", "", after))
    budget = limit - _units(shown_after) - (1 if after else 0)
    while text and _units(text) > budget:
        cut = max(1, _units(text) - budget)
        text = text[cut:]
        newline = text.find("\n")
        if 0 <= newline < 80:  # start at a whole line where one is close
            text = text[newline + 1:]
    body = html.escape(text, quote=False)
    return f"{body}\n{after}" if after else body


def where(key: str) -> tuple[int, int | None]:
    """The chat id and forum topic of a chat key."""
    parts = base_chat(key).split(":")
    return int(parts[1]), (int(parts[2]) if len(parts) > 2 else None)


def mention(seat: dict) -> str:
    """A player named so that Telegram notifies them (a text mention by user id); others by name."""
    name = html.escape(seat["name"], quote=False)
    user = seat["user"]
    return f'<a href="tg://user?id={user[3:]}">{name}</a>' if user.startswith("tg:") else name


def with_mentions(lang: str, key: str, seats: list[dict], **params) -> str:
    """A catalogue sentence as HTML, the players in it mentioned (``{name}`` or ``{names}``)."""
    marks = {"name": "\x00N\x00", "names": "\x00L\x00"}
    text = html.escape(t(lang, key, **marks, **params), quote=False)
    return (text.replace(marks["name"], mention(seats[0]) if seats else "")
            .replace(marks["names"], t(lang, "ui.list_sep").join(mention(s) for s in seats)))


def _not_modified(error: BadRequest) -> bool:
    return "not modified" in str(error).lower()


class TelegramMessages:
    """The output side of the Telegram front end (one per bot)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.shown = MessageRecord()
        # the web table's public https address: a player's private message then gets an "Open table"
        # Mini App button (Telegram allows web_app buttons only in private chats, and only https)
        url = (os.environ.get("TYCOON_WEB_URL") or "").rstrip("/")
        self.web_url = url if url.startswith("https://") else None
        self._langs: dict[int, str] = {}  # the language each table's updates were last shown in

    def keyboard(self, buttons: list[tuple[str, str]], per_row: int = 2) -> InlineKeyboardMarkup | None:
        return keyboard(buttons, per_row, sign=self.service.sign)

    def _record(self, table_id: int, update: TableUpdate | None = None) -> dict:
        """The table's stored message ids (the live row's: the snapshot's may be older)."""
        row = self.service.table(table_id)
        if row is None and update is not None:
            row = update.snapshot.row
        return dict(row.messages or {}) if row is not None else {}

    @contextlib.asynccontextmanager
    async def held(self, table_id: int, update: TableUpdate | None = None) -> AsyncIterator[dict]:
        """The table's message record, held while its messages are posted and edited (see the
        module's docstring); what the messages show goes with it."""
        async with self.service.records.hold(table_id, self._record(table_id, update)) as record:
            self.shown.load(record.get("tg_shown", {}))
            try:
                yield record
            finally:
                record["tg_shown"] = self.shown.dump(self._keys(table_id, record, update))

    def _keys(self, table_id: int, record: dict, update: TableUpdate | None) -> list[tuple]:
        """The messages the record holds: the table message, the prompts, the private pages."""
        row = update.snapshot.row if update is not None else self.service.table(table_id)
        if row is None:
            return []
        chat_id, _thread = where(row.chat_key)
        keys = [(chat_id, record["tg"])] if record.get("tg") else []
        keys += [(chat_id, p["id"]) for p in record.get("tg_prompts", [])]
        for seat, ids in record.get("tg_dm", {}).items():
            user = row.seats[int(seat)]["user"] if int(seat) < len(row.seats) else ""
            if user.startswith("tg:"):
                keys += [(int(user[3:]), mid) for mid in ids]
        return keys

    # -- editing with care ---------------------------------------------------------------------

    async def strip(self, bot, chat_id: int, message_id: int) -> None:
        """A message of ours loses its buttons (it is no longer the current one)."""
        key = (chat_id, message_id)
        self.shown.forget(key)
        with contextlib.suppress(TelegramError):  # gone, too old, or already without buttons
            await bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=None)

    async def _edit(self, key: tuple, text: str, markup, picture: bytes | None, edit) -> bool:
        """Send ``edit(picture changed)`` only when the message would change; False when it cannot
        be edited any more (gone, too old): the caller posts a new one."""
        buttons = markup.to_dict() if markup else None
        changed, new_picture = self.shown.changes(key, text, buttons, picture)
        if not changed:
            return True
        try:
            await edit(new_picture)
        except BadRequest as e:
            if not _not_modified(e):
                self.shown.forget(key)
                return False
        self.shown.shown(key, text, buttons, picture)
        return True

    async def edit_photo(self, bot, chat_id: int, message_id: int, caption: str, markup, picture: bytes) -> bool:
        async def edit(new_picture: bool) -> None:
            if new_picture:
                await bot.edit_message_media(InputMediaPhoto(picture, caption=caption, parse_mode=HTML),
                                             chat_id=chat_id, message_id=message_id, reply_markup=markup)
            else:  # the same picture: the caption and buttons only, no upload
                await bot.edit_message_caption(chat_id=chat_id, message_id=message_id, caption=caption,
                                               parse_mode=HTML, reply_markup=markup)

        return await self._edit((chat_id, message_id), caption, markup, picture, edit)

    async def edit_text(self, bot, chat_id: int, message_id: int, text: str, markup) -> bool:
        async def edit(_new_picture: bool) -> None:
            await bot.edit_message_text(text, chat_id=chat_id, message_id=message_id, parse_mode=HTML,
                                        reply_markup=markup)

        return await self._edit((chat_id, message_id), text, markup, None, edit)

    async def send_photo(self, bot, chat_id: int, picture: bytes, caption: str, markup, **kwargs) -> int:
        sent = await bot.send_photo(chat_id, picture, caption=caption, parse_mode=HTML, reply_markup=markup, **kwargs)
        self.shown.shown((chat_id, sent.message_id), caption, markup.to_dict() if markup else None, picture)
        return sent.message_id

    async def send_text(self, bot, chat_id: int, text: str, markup, **kwargs) -> int:
        sent = await bot.send_message(chat_id, text, parse_mode=HTML, reply_markup=markup, **kwargs)
        self.shown.shown((chat_id, sent.message_id), text, markup.to_dict() if markup else None, None)
        return sent.message_id

    # -- a table update --------------------------------------------------------------------------

    async def show(self, bot, update: TableUpdate, lang: str, extra: list[tuple[str, str]]) -> None:
        """Everything one update changes: the table message, the prompts, the private messages."""
        self._langs[update.table] = lang
        async with self.held(update.table, update) as record:
            if older_than_shown(update, record, "tg"):
                return
            screens = await update_screens(self.service, update, lang, shown_turn=record.get("tg_turn"))
            await self._table_message(bot, screens, lang, extra, record)
            note_shown(update, record, "tg")
            await self._prompts(bot, screens, lang, record)
            await self._privates(bot, screens, record)

    async def _table_message(self, bot, screens: UpdateScreens, lang: str, extra: list, record: dict) -> None:
        update, public = screens.update, screens.public
        row = update.snapshot.row
        seats = row.seats
        chat_id, thread = where(row.chat_key)
        thread = record.get("tg_thread", thread)
        mention = ""
        if screens.ping and not update.over:
            due = next((w.due_at for w in update.waiting if w.seat == screens.ping[0]), None)
            mention = with_mentions(lang, "tg.your_turn", [seats[screens.ping[0]]],
                                    seconds=seconds_left(due, self.service.clock(), 60))
        elif screens.ping:
            mention = with_mentions(lang, "tg.result_players", [seats[s] for s in screens.ping])
        caption = fit(public.text, CAPTION_LIMIT, mention)
        markup = self.keyboard([(b.label, b.token) for b in public.buttons] + ([] if screens.ended else extra))
        current = record.get("tg")
        if current and not screens.new_message and await self.edit_photo(bot, chat_id, current, caption, markup,
                                                                           public.picture):
            return
        if current:
            await self.strip(bot, chat_id, current)
        message = await self.send_photo(bot, chat_id, public.picture, caption, markup, message_thread_id=thread)
        record["tg"] = message

    async def _prompts(self, bot, screens: UpdateScreens, lang: str, record: dict) -> None:
        update = screens.update
        seats = update.snapshot.row.seats
        chat_id, thread = where(update.chat_key)
        thread = record.get("tg_thread", thread)
        waiting = {(w.seat, w.kind) for w in update.waiting}
        now = self.service.clock()
        kept = []
        for prompt in record.get("tg_prompts", []):  # answered or expired: its button goes
            if not screens.ended and any(tuple(a) in waiting for a in prompt["asks"]):
                kept.append(prompt)
            elif prompt.get("buttons"):
                await self.edit_text(bot, chat_id, prompt["id"], prompt["text"] + "\n" + html.escape(
                    t(lang, "tg.answered"), quote=False), None)
        asked = {tuple(a) for prompt in kept for a in prompt["asks"]}
        for prompt in screens.prompts:
            if all((s, prompt.kind) in asked for s in prompt.seats):
                continue  # already asked (by the other process's update): one ping each
            people = [seats[s] for s in prompt.seats]
            if prompt.where == "trade":  # B-15: the offer goes to its target's private chat; the
                people = [seats[s] for s in prompt.seats if seats[s].get("dm") is False]  # group only
                if not people:  # pings a target the bot cannot write to
                    continue
            seconds = seconds_left(prompt.due_at, now)
            if prompt.where == "answer":
                text = with_mentions(lang, "tg.answer_now", people, seconds=seconds)
            else:
                key = "tg.asked_private" if prompt.where in ("private", "trade") else "tg.asked"
                text = with_mentions(lang, key, people, seconds=seconds)
            markup = self.keyboard([(b.label, b.token) for b in prompt.buttons])
            message = await self.send_text(bot, chat_id, text, markup, reply_to_message_id=record.get("tg"),
                                           message_thread_id=thread)
            kept.append({"id": message, "asks": prompt.asks, "buttons": bool(prompt.buttons), "text": text})
        if kept != record.get("tg_prompts", []):
            record["tg_prompts"] = kept

    async def _privates(self, bot, screens: UpdateScreens, record: dict) -> None:
        """Every player's private message, kept current; a Deal hand exists from the start, the
        board's options once the player asked for them (``My options``) or once the AI keeps their
        seat (they are told so, with the button that takes it back)."""
        update = screens.update
        dms = record.get("tg_dm", {})
        seats = update.snapshot.row.seats
        # B-15: a player just made an offer gets their options anew (a new message notifies; an edit does not)
        offered = {w.seat for w in update.asked if w.kind == "trade"} if update.snapshot.game == "board" else set()
        for seat, screen in sorted(screens.private.items()):
            if str(seat) in dms or update.snapshot.game == "deal" or seats[seat]["ai"] or seat in offered:
                if screens.ended:
                    screen = Screen(screen.text, [], screen.picture)
                await self.private(bot, update.table, seat, screen, update.snapshot.row.seats[seat], record,
                                   anew=seat in offered)

    async def private(self, bot, table_id: int, seat: int, screen: Screen, info: dict, record: dict | None = None,
                      version: int | None = None, anew: bool = False) -> None:
        """Edit the player's private message to show ``screen`` (pages of buttons when they do not
        fit one message); post it anew only when it cannot be edited. Nothing when the bot may not
        write to the player (they never started it): the group's message has the link."""
        if info.get("dm") is False or not info["user"].startswith("tg:") or is_ai_user(info["user"]):
            return
        if record is None:  # on its own (a press of "My hand"): the record is held for it
            async with self.held(table_id) as held:
                if version is not None and held.get("tg_v", -1) > version and str(seat) in held.get("tg_dm", {}):
                    return  # a later update already showed it the table as it is now
                return await self.private(bot, table_id, seat, screen, info, held)
        user_id = int(info["user"][3:])
        buttons = [(b.label, b.token) for b in screen.buttons]
        pages = [buttons[i:i + PAGE] for i in range(0, len(buttons), PAGE)] or [[]]
        dms = dict(record.get("tg_dm", {}))
        ids = list(dms.get(str(seat), []))
        if anew and ids:  # posted again below, so that it notifies; the old pages lose their buttons
            for old in ids:
                await self.strip(bot, user_id, old)
            ids = []
        text = fit(screen.text, CAPTION_LIMIT if screen.picture else TEXT_LIMIT)
        try:
            new_ids = [await self._page(bot, user_id, ids[0] if ids else None, text,
                                        self._with_web_app(self.keyboard(pages[0]), table_id), screen.picture)]
            for n, page in enumerate(pages[1:], 2):
                old = ids[n - 1] if len(ids) >= n else None
                new_ids.append(await self._page(bot, user_id, old, f"({n}/{len(pages)})", self.keyboard(page), None))
            for old in ids[len(pages):]:  # fewer pages now: the extra ones go
                with contextlib.suppress(TelegramError):
                    await bot.delete_message(user_id, old)
                self.shown.forget((user_id, old))
        except Forbidden:  # never started the bot or blocked it: not again until they /start
            await self.service.lobby.set_dm(table_id, info["user"], False)
            return
        if new_ids != ids:
            dms[str(seat)] = new_ids
            record["tg_dm"] = dms

    def _with_web_app(self, markup: InlineKeyboardMarkup | None, table_id: int) -> InlineKeyboardMarkup | None:
        """A private message's buttons and, with ``TYCOON_WEB_URL``, the "Open table" Mini App button."""
        if self.web_url is None:
            return markup
        label = t(self._langs.get(table_id, "zh-Hans"), "web.open_table")
        button = InlineKeyboardButton(label, web_app=WebAppInfo(self.web_url + telegram_path(table_id)))
        return InlineKeyboardMarkup([*(markup.inline_keyboard if markup else ()), [button]])

    async def _page(self, bot, chat_id: int, message_id: int | None, text: str, markup, picture: bytes | None) -> int:
        if message_id is not None:
            edit = (self.edit_photo(bot, chat_id, message_id, text, markup, picture) if picture
                    else self.edit_text(bot, chat_id, message_id, text, markup))
            if await edit:
                return message_id
            await self.strip(bot, chat_id, message_id)  # could not be edited: a new one, the old one inert
        if picture:
            return await self.send_photo(bot, chat_id, picture, text, markup)
        return await self.send_text(bot, chat_id, text, markup)
