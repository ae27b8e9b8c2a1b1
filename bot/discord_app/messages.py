"""The messages a Discord channel and its players see of a table, each with one life.

The same lives as on Telegram (bot/telegram_app/messages.py): the table message is edited in place
and posted anew when the game starts, the turn passes (mentioning the player to act: the one ping a
turn) and at the end (the result, everyone mentioned); the message it replaces loses its buttons.
Prompts under it ping a player asked out of turn once (a Just Say No window carries its answers,
kept at the current version, and loses them when answered). Each player has one private message,
a DM with their hand and their choices, edited in place; their ephemeral "My hand" reply is kept
current too while Discord lets it be edited (15 minutes).

Mentions name exactly the players meant (``allowed_mentions``); every other message mentions
nobody. When the decisions asked in front of everyone need more buttons than a message holds (25),
each player asked gets one button that opens their own choices instead.

As on Telegram, the ids are stored with the table (``dc``, ``dc_prompts``, ``dc_dm``, ``dc_shown``,
``dc_v``, ``dc_turn``) and showing an update holds the table's record across processes.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import discord

from bot.presenter import Button, Screen
from bot.updates import MessageRecord, UpdateScreens, note_shown, older_than_shown, update_screens
from bot.web.auth import watch_path
from engine.service.lobby import is_ai_user
from engine.service.loop import TableUpdate
from words.i18n import t

if TYPE_CHECKING:
    from bot.discord_app.frontend import Front

log = logging.getLogger(__name__)
PAGE = 25  # Discord: 5 rows of 5 buttons in one message
TEXT = 1900  # Discord allows 2000 characters in a message
DMS_CLOSED = 50007  # "Cannot send messages to this user"
EPHEMERAL_SECONDS = 14 * 60  # an interaction's token lasts 15 minutes
NOBODY = discord.AllowedMentions.none()


def md(text: str) -> str:
    """Text shown as it is: names and words never turn into Discord markdown (bold, spoilers, …)."""
    return discord.utils.escape_markdown(text)


def relative_time(due_at: float) -> str:
    """A deadline as Discord shows it to each reader, counting down live ("in 8 seconds")."""
    return f"<t:{int(due_at)}:R>"


def mention(seat: dict) -> str:
    user = seat["user"]
    return f"<@{user[3:]}>" if user.startswith("dc:") else discord.utils.escape_markdown(seat["name"])


def only(seats: list[dict]) -> discord.AllowedMentions:
    """Mentions that notify exactly these players (never everyone, a role, or whoever is replied to)."""
    users = [discord.Object(id=int(s["user"][3:])) for s in seats if s["user"].startswith("dc:")]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


class DiscordMessages:
    """The output side of the Discord front end (one per bot)."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.service = front.service
        self.shown = MessageRecord()
        self._ephemeral: dict[tuple[int, int], tuple[discord.WebhookMessage, float]] = {}
        # the web table's public address: the table message then links to its spectator view
        self.web_url = (os.environ.get("TYCOON_WEB_URL") or "").rstrip("/") or None

    def _record(self, table_id: int, update: TableUpdate | None = None) -> dict:
        row = self.service.table(table_id)
        if row is None and update is not None:
            row = update.snapshot.row
        return dict(row.messages or {}) if row is not None else {}

    @contextlib.asynccontextmanager
    async def held(self, table_id: int, update: TableUpdate | None = None) -> AsyncIterator[dict]:
        """The table's message record, held while its messages are posted and edited."""
        async with self.service.records.hold(table_id, self._record(table_id, update)) as record:
            self.shown.load(record.get("dc_shown", {}))
            try:
                yield record
            finally:
                record["dc_shown"] = self.shown.dump(self._keys(table_id, record, update))

    def _keys(self, table_id: int, record: dict, update: TableUpdate | None) -> list[tuple]:
        """The messages the record holds: the table message, the prompts, the private pages."""
        row = update.snapshot.row if update is not None else self.service.table(table_id)
        if row is None:
            return []
        channel_id = self.front.table_channel(row).id
        keys = [(channel_id, record["dc"])] if record.get("dc") else []
        keys += [(channel_id, p["id"]) for p in record.get("dc_prompts", [])]
        for dm_channel, ids in record.get("dc_dm", {}).values():
            keys += [(dm_channel, mid) for mid in ids]
        return keys

    # -- editing with care ---------------------------------------------------------------------

    async def edit(self, message: discord.PartialMessage | discord.WebhookMessage, key: tuple, text: str,
                   buttons: list[Button], picture: bytes | None, name: str = "table.png") -> bool:
        """Edit only what changes (the picture is uploaded again only when it changed); False when
        the message cannot be edited any more."""
        ids = [(b.label, b.token) for b in buttons]
        changed, new_picture = self.shown.changes(key, text, ids, picture)
        if not changed:
            return True
        kwargs = {"content": text, "view": self._view(buttons)}
        if picture is not None and new_picture:
            kwargs["attachments"] = [discord.File(io.BytesIO(picture), name)]
        try:
            await message.edit(**kwargs)
        except discord.HTTPException as e:
            log.info("message %s not edited (%s): a new one", key, e)
            self.shown.forget(key)
            return False
        self.shown.shown(key, text, ids, picture)
        return True

    async def send(self, channel, key_of, text: str, buttons: list[Button], picture: bytes | None,
                   name: str = "table.png", mentions: discord.AllowedMentions = NOBODY, **kwargs) -> int:
        if picture is not None:
            kwargs["file"] = discord.File(io.BytesIO(picture), name)
        sent = await channel.send(content=text, view=self._view(buttons), allowed_mentions=mentions,
                                  **kwargs)
        self.shown.shown(key_of(sent.id), text, [(b.label, b.token) for b in buttons], picture)
        return sent.id

    def _view(self, buttons: list[Button]) -> discord.ui.View:
        """The front end's buttons, and a link button for a web address (the web table's "Watch")."""
        view = self.front.view_of([b for b in buttons if not b.token.startswith(("https://", "http://"))])
        for b in buttons:
            if b.token.startswith(("https://", "http://")):
                view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=b.label[:80], url=b.token))
        return view

    async def strip(self, channel, message_id: int) -> None:
        """A message of ours loses its buttons (it is no longer the current one)."""
        self.shown.forget((channel.id, message_id))
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as e:  # deleted, or Discord is unreachable: nothing to press there
            log.info("message %s kept its buttons: %s", message_id, e)

    # -- a table update --------------------------------------------------------------------------

    async def show(self, update: TableUpdate, lang: str) -> None:
        async with self.held(update.table, update) as record:
            if older_than_shown(update, record, "dc"):
                return
            screens = await update_screens(self.service, update, lang, shown_turn=record.get("dc_turn"),
                                           when=relative_time)
            await self._table_message(screens, lang, record)
            note_shown(update, record, "dc")
            await self._prompts(screens, lang, record)
            await self._privates(screens, lang, record)

    def _table_buttons(self, screens: UpdateScreens, lang: str) -> list[Button]:
        """The buttons under the table: the public answers, or one button per player asked when
        they do not fit; then "My hand" / "My options"."""
        update = screens.update
        if screens.ended:
            return []
        public = list({b.token: b for b in screens.public.buttons}.values())  # no repeated ids
        if len(public) > PAGE - 1:
            names = update.snapshot.names
            asked = sorted({b.seat for b in public})
            public = [Button(t(lang, "dc.btn.answer", name=names[s]), f"h:{update.table}:{s}", s) for s in asked]
        label = t(lang, "tg.btn.my_hand" if update.snapshot.game == "deal" else "dc.btn.my_options")
        watch = []
        if self.web_url and self.web_url.startswith(("https://", "http://")):  # a link button: public view only
            watch = [Button(t(lang, "web.watch"), self.web_url + watch_path(self.service.sign, update.table), -1)]
        return public[:PAGE - 1 - len(watch)] + [Button(label, f"h:{update.table}", -1)] + watch

    async def _table_message(self, screens: UpdateScreens, lang: str, record: dict) -> None:
        update, public = screens.update, screens.public
        row = update.snapshot.row
        channel = self.front.table_channel(row)
        text = md(public.text[-(TEXT - 100):])
        mentions = NOBODY
        if screens.ping:
            people = [row.seats[s] for s in screens.ping]
            key = "dc.result_players" if update.over else "dc.your_turn"
            due = next((w.due_at for w in update.waiting if w.seat == screens.ping[0]), None)
            when = f"<t:{int(due)}:R>" if due else ""
            listed = t(lang, "ui.list_sep").join(mention(p) for p in people)
            text = (text[-(TEXT - 200):] + "\n" + t(lang, key, names=listed,
                                                       name=mention(people[0]), when=when))
            mentions = only(people)
        buttons = self._table_buttons(screens, lang)
        current = record.get("dc")
        if current and not screens.new_message and await self.edit(
                channel.get_partial_message(current), (channel.id, current), text, buttons, public.picture):
            return
        if current:
            await self.strip(channel, current)
        message = await self.send(channel, lambda mid: (channel.id, mid), text, buttons, public.picture,
                                  mentions=mentions)
        record["dc"] = message

    async def _prompts(self, screens: UpdateScreens, lang: str, record: dict) -> None:
        update = screens.update
        seats = update.snapshot.row.seats
        channel = self.front.table_channel(update.snapshot.row)
        waiting = {(w.seat, w.kind) for w in update.waiting}
        kept = []
        for prompt in record.get("dc_prompts", []):  # answered or expired: its button goes
            if not screens.ended and any(tuple(a) in waiting for a in prompt["asks"]):
                kept.append(prompt)
            elif prompt.get("buttons"):
                await self.edit(channel.get_partial_message(prompt["id"]), (channel.id, prompt["id"]),
                                prompt["text"] + "\n" + md(t(lang, "tg.answered")), [], None)
        reference = discord.MessageReference(message_id=record["dc"], channel_id=channel.id,
                                             fail_if_not_exists=False) if record.get("dc") else None
        asked = {tuple(a) for prompt in kept for a in prompt["asks"]}
        for prompt in screens.prompts:
            if all((s, prompt.kind) in asked for s in prompt.seats):
                continue  # already asked (by the other process's update): one ping each
            people = [seats[s] for s in prompt.seats]
            when = f"<t:{int(prompt.due_at or self.service.clock() + 20)}:R>"
            names = t(lang, "ui.list_sep").join(mention(p) for p in people)
            if prompt.where == "answer":
                text = md(t(lang, "dc.answer_now", name=names, when=when))
            else:
                key = "dc.asked_private" if prompt.where in ("private", "trade") else "dc.asked"
                text = md(t(lang, key, names=names, when=when))
            message = await self.send(channel, lambda mid: (channel.id, mid), text, prompt.buttons[:PAGE], None,
                                      mentions=only(people), reference=reference)
            kept.append({"id": message, "asks": prompt.asks, "buttons": bool(prompt.buttons), "text": text})
        if kept != record.get("dc_prompts", []):
            record["dc_prompts"] = kept

    async def _privates(self, screens: UpdateScreens, lang: str, record: dict) -> None:
        """Every player's private message kept current: a Deal hand from the start, the board's
        options once asked for or once the AI keeps the seat; and their "My hand" replies."""
        update = screens.update
        seats = update.snapshot.row.seats
        dms = record.get("dc_dm", {})
        for seat, screen in sorted(screens.private.items()):
            if screens.ended:
                screen = Screen(screen.text, [], screen.picture)
            if str(seat) in dms or update.snapshot.game == "deal" or seats[seat]["ai"]:
                await self.private(update.table, seat, screen, seats[seat], lang, record)
            await self._ephemeral_reply(update.table, seat, screen)

    async def private(self, table_id: int, seat: int, screen: Screen, info: dict, lang: str,
                      record: dict | None = None) -> None:
        """The player's DM (hand and choices) edited to show ``screen``; a new one only when the
        old one cannot be edited. Closed DMs are remembered and not tried again."""
        if info.get("dm") is False or not info["user"].startswith("dc:") or is_ai_user(info["user"]):
            return
        if record is None:  # on its own: the record is held for it
            async with self.held(table_id) as held:
                return await self.private(table_id, seat, screen, info, lang, held)
        dms = dict(record.get("dc_dm", {}))
        channel_id, ids = dms.get(str(seat), [None, []])
        pages = [screen.buttons[i:i + PAGE] for i in range(0, len(screen.buttons), PAGE)] or [[]]
        try:
            if channel_id is None:
                channel_id = (await self.front.client.create_dm(discord.Object(id=int(info["user"][3:])))).id
            channel = self.front.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            new_ids = []
            for n, page in enumerate(pages):
                text = md(screen.text[-(TEXT - 100):]) if n == 0 else f"({n + 1}/{len(pages)})"
                picture = screen.picture if n == 0 else None
                old = ids[n] if len(ids) > n else None
                if old is not None and await self.edit(channel.get_partial_message(old), (channel_id, old), text,
                                                       page, picture, "hand.png"):
                    new_ids.append(old)
                    continue
                if old is not None:
                    await self.strip(channel, old)
                new_ids.append(await self.send(channel, lambda mid: (channel_id, mid), text, page, picture,
                                               "hand.png"))
            for old in ids[len(pages):]:  # fewer pages now: the extra ones lose their buttons
                await self.strip(channel, old)
        except discord.Forbidden as e:
            if e.code == DMS_CLOSED:  # the ephemeral "My hand" carries on, with a note
                await self.service.lobby.set_dm(table_id, info["user"], False)
            else:
                log.warning("DM to %s refused: %s", info["user"], e)
            return
        except discord.HTTPException as e:  # the game goes on; the next change tries again
            log.warning("DM to %s failed: %s", info["user"], e)
            return
        if [channel_id, new_ids] != dms.get(str(seat)):
            dms[str(seat)] = [channel_id, new_ids]
            record["dc_dm"] = dms

    async def remember_ephemeral(self, table_id: int, seat: int, message: discord.WebhookMessage) -> None:
        """The player's newest "My hand" reply is the one kept current; an older one loses its buttons."""
        older = self._ephemeral.get((table_id, seat))
        self._ephemeral[(table_id, seat)] = (message, time.monotonic() + EPHEMERAL_SECONDS)
        if older is not None and time.monotonic() < older[1]:
            try:
                await older[0].edit(view=None)
            except discord.HTTPException as e:  # dismissed by the player, or expired
                log.info("an older My hand reply kept its buttons: %s", e)

    async def _ephemeral_reply(self, table_id: int, seat: int, screen: Screen) -> None:
        """A "My hand" reply kept current while its interaction can still edit it."""
        held = self._ephemeral.get((table_id, seat))
        if held is None:
            return
        message, until = held
        text = md(screen.text[-(TEXT - 100):])
        if time.monotonic() > until or not await self.edit(message, ("eph", table_id, seat), text,
                                                           screen.buttons[:PAGE], screen.picture, "hand.png"):
            self._ephemeral.pop((table_id, seat), None)
