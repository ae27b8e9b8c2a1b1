"""The table channel's messenger for Discord (``bot/chat/messenger.py``): messages with a picture and
buttons (persistent ``DynamicItem``s whose ids carry signed data), replies under the table, DMs,
threads. Text is escaped markdown, and a name written like a mention (``<@123>``, ``<#5>``) shows as
text; a mention of ours notifies exactly the players meant (``allowed_mentions``); a deadline is a
live ``<t:…:R>`` countdown each reader sees in their own time.

Each player's ephemeral "My hand" reply (an answer to their press, seen by them alone) is kept
current too while Discord lets it be edited (15 minutes); a newer one takes its place and the older
one loses its buttons, also after a restart (the reply's interaction token is noted in the
database for those 15 minutes).
"""

from __future__ import annotations

import io
import logging
import os
from typing import TYPE_CHECKING, NamedTuple

import discord

from bot.chat.messenger import Mention, Text, Unreachable, shorten
from bot.chat.screens import Button, Screen
from bot.chat.updates import fingerprint
from bot.discord_app.items import view_of
from bot.discord_app.waits import ChannelWaits
from bot.web.auth import result_path, watch_path
from engine.service.storage import keyvalue
from engine.service.tournaments import base_chat
from engine.service.views import PublicView, Seat
from words.i18n import t

if TYPE_CHECKING:
    from engine.service.tables import GameService

log = logging.getLogger(__name__)
PAGE = 25  # Discord: 5 rows of 5 buttons in one message
TEXT = 1900  # Discord allows 2000 characters in a message
DMS_CLOSED = 50007  # "Cannot send messages to this user"
EPHEMERAL_SECONDS = 14 * 60  # an interaction's token lasts 15 minutes
NOBODY = discord.AllowedMentions.none()


def md(text: str) -> str:
    """Text shown as it is: names and words never turn into Discord markdown (bold, spoilers, …)
    nor into a mention of a user, role or channel, nor read as ``@everyone`` or ``@here`` (each is
    broken up by a zero-width space; nobody would be pinged anyway: ``allowed_mentions``)."""
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return escaped.replace("<@", "<\u200b@").replace("<#", "<\u200b#")


def mention(seat: Seat) -> str:
    return f"<@{seat.user[3:]}>" if seat.user.startswith("dc:") else md(seat.name)


def only(seats) -> discord.AllowedMentions:
    """Mentions that notify exactly these players (never everyone, a role, or whoever is replied to)."""
    users = [discord.Object(id=int(s.user[3:])) for s in seats if s.user.startswith("dc:")]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def render(text: Text) -> tuple[str, discord.AllowedMentions]:
    """The message's content within Discord's limit (a body too long keeps its head and its newest
    lines: ``shorten``) and who it pings."""
    after = "".join(mention(p.seat) if isinstance(p, Mention) else md(p) for p in text.after)
    room = TEXT - len(after) - (1 if after else 0)
    body = md(shorten(text, room, lambda s: len(md(s)))) if room > 0 else ""
    content = f"{body}\n{after}" if body and after else body or after
    mentioned = text.mentioned
    return content, only(mentioned) if mentioned else NOBODY


class DiscordMessenger:
    name = "dc"
    page = PAGE

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.client: discord.Client | None = None  # the bot, set by the front end
        self.web_url = (os.environ.get("TYCOON_WEB_URL") or "").rstrip("/") or None
        self._replies: dict[tuple[int, int], Reply] = {}
        self._asked: set[tuple[int, int]] = set()  # (table, seat) whose noted reply was read already
        self.waits = ChannelWaits()  # the bot's own (``TycoonBot``): channels in a 429's wait

    def _channel(self, place: int):
        self.waits.check(place)  # showing a table in a channel that must wait: ``Behind``
        return self.client.get_partial_messageable(int(place))

    def table_place(self, view: PublicView) -> int:
        """The table's own thread (a tournament table, ``/newgame thread:true``), else its channel."""
        thread = view.messages.get("dc_thread")
        return int(thread) if thread else int(base_chat(view.chat_key).split(":")[2])

    @staticmethod
    def chat_place(chat: str) -> int:
        return int(base_chat(chat).split(":")[2])

    @staticmethod
    def key(place, message_id: int) -> tuple:
        return (int(place), message_id)

    def when(self, due_at: float, now: float, lang: str = "") -> str:
        return f"<t:{int(due_at)}:R>"

    def _view(self, buttons: list[Button]) -> discord.ui.View:
        return view_of(self.service.sign, buttons)

    async def post(self, place, text: Text, buttons: list[Button], picture: bytes | None = None, *,
                   reply_to: int | None = None, picture_name: str = "table.png") -> int:
        content, mentions = render(text)
        kwargs = {}
        if picture is not None:
            kwargs["file"] = discord.File(io.BytesIO(picture), picture_name)
        if reply_to is not None:
            kwargs["reference"] = discord.MessageReference(message_id=reply_to, channel_id=int(place),
                                                           fail_if_not_exists=False)
        try:
            sent = await self._channel(place).send(content=content, view=self._view(buttons),
                                                   allowed_mentions=mentions, **kwargs)
        except discord.Forbidden as e:
            if e.code == DMS_CLOSED:
                raise Unreachable(str(e)) from None
            raise
        return sent.id

    async def edit(self, place, message_id: int, text: Text, buttons: list[Button], picture: bytes | None,
                   new_picture: bool, picture_name: str = "table.png") -> bool:
        content, _ = render(text)
        kwargs = {"content": content, "view": self._view(buttons)}
        if picture is not None and new_picture:
            kwargs["attachments"] = [discord.File(io.BytesIO(picture), picture_name)]
        try:
            await self._channel(place).get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as e:
            log.info("message %s in %s not edited (%s): a new one", message_id, place, e)
            return False
        return True

    async def strip(self, place, message_id: int) -> None:
        try:
            await self._channel(place).get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as e:  # deleted, or Discord is unreachable: nothing to press there
            log.info("message %s kept its buttons: %s", message_id, e)

    async def delete(self, place, message_id: int) -> None:
        try:
            await self._channel(place).get_partial_message(message_id).delete()
        except discord.HTTPException:
            await self.strip(place, message_id)

    async def private_place(self, seat: Seat) -> int | None:
        if not seat.user.startswith("dc:"):
            return None
        try:
            return (await self.client.create_dm(discord.Object(id=int(seat.user[3:])))).id
        except discord.Forbidden as e:
            raise Unreachable(str(e)) from None

    def reach(self, table: int, seat_no: int, seat: Seat, lang: str) -> Button:
        """A player whose DMs are closed: their own answers in an ephemeral reply ("My hand")."""
        return Button(t(lang, "dc.btn.answer", name=seat.name), f"h:{table}:{seat_no}", seat_no)

    def watch(self, table: int, lang: str, over: bool = False) -> Button | None:
        if not self.web_url or not self.web_url.startswith(("https://", "http://")):
            return None
        if over:
            return Button(t(lang, "end.btn.replay"), self.web_url + result_path(self.service.sign, table), -1)
        return Button(t(lang, "web.watch"), self.web_url + watch_path(self.service.sign, table), -1)

    def own_link(self, table: int, lang: str) -> Button | None:
        return None

    def private_note(self, table: int, lang: str) -> str | None:
        return None  # a player whose DMs are closed presses "My hand" (an ephemeral reply)

    # -- the ephemeral "My hand" replies ------------------------------------------------------------

    def _webhook(self, token: str) -> discord.Webhook:
        """The interaction's follow-up webhook, from its token (any process that knows the token)."""
        data = {"id": self.client.application_id, "type": 3, "token": token}  # as ``Interaction.followup``
        return discord.Webhook.from_state(data=data, state=self.client._connection)

    async def _held(self, table: int, seat: int) -> Reply | None:
        """The player's newest "My hand" reply: in memory, else as a process before a restart noted it."""
        if (table, seat) not in self._replies and (table, seat) not in self._asked:
            self._asked.add((table, seat))
            raw = await keyvalue.get_value(self.service.db, _reply_key(table, seat))
            if raw:
                flagged = raw.rsplit(":", 3)[-1] in ("0", "1") and raw.count(":") >= 3
                buttons = raw[-1] != "0" if flagged else True  # noted before the flag: maybe
                token, message, until = (raw.rsplit(":", 1)[0] if flagged else raw).rsplit(":", 2)
                self._replies[(table, seat)] = Reply(token, int(message), float(until), ("", ""), buttons)
        return self._replies.get((table, seat))

    async def remember_reply(self, table: int, seat: int, token: str, message: int, screen: Screen) -> None:
        """The player's newest "My hand" reply is the one kept current (noted in the database too,
        so a restarted process still knows it); an older one loses its buttons."""
        older = await self._held(table, seat)
        until = self.service.clock() + EPHEMERAL_SECONDS
        reply = Reply(token, message, until, self._digest(screen), bool(screen.buttons))
        self._replies[(table, seat)] = reply
        await keyvalue.set_value(self.service.db, _reply_key(table, seat), reply.noted)
        if older is not None and older.message != message and older.buttons and self.service.clock() < older.until:
            try:
                await self._webhook(older.token).edit_message(older.message, view=None)
            except discord.HTTPException as e:  # dismissed by the player, or expired
                log.info("an older My hand reply kept its buttons: %s", e)

    @staticmethod
    def _digest(screen: Screen) -> tuple[str, str]:
        return (fingerprint(screen.text, [(b.label, b.token) for b in screen.buttons[:PAGE]]),
                fingerprint(screen.picture or b""))

    async def refresh_own(self, table: int, seat: int, screen: Screen) -> None:
        """A "My hand" reply kept current while its interaction can still edit it (only what changed)."""
        held = await self._held(table, seat)
        if held is None:
            return
        digest = self._digest(screen)
        if digest == held.shown:
            return
        if self.service.clock() > held.until:
            self._replies.pop((table, seat), None)
            return
        content, _ = render(Text(screen.text))
        kwargs = {"content": content, "view": self._view(screen.buttons[:PAGE])}
        if screen.picture is not None and digest[1] != held.shown[1]:  # a picture only when it changed
            kwargs["attachments"] = [discord.File(io.BytesIO(screen.picture), "hand.png")]
        try:
            await self._webhook(held.token).edit_message(held.message, **kwargs)
        except discord.HTTPException as e:  # dismissed, or expired
            log.info("a My hand reply is no longer kept current: %s", e)
            self._replies.pop((table, seat), None)
            return
        kept = held._replace(shown=digest, buttons=bool(screen.buttons))
        self._replies[(table, seat)] = kept
        if kept.buttons != held.buttons:  # what the next process must know before it strips it
            await keyvalue.set_value(self.service.db, _reply_key(table, seat), kept.noted)


def _reply_key(table: int, seat: int) -> str:
    return f"dc.reply.{table}.{seat}"


class Reply(NamedTuple):
    """A player's "My hand" reply: its interaction's token, its id, until when it can be edited,
    and what it shows (to edit only what changed)."""

    token: str
    message: int
    until: float
    shown: tuple[str, str]
    buttons: bool = True  # it has buttons (an older reply without any is not edited to lose them)

    @property
    def noted(self) -> str:
        """As noted in the database: ``token:message:until:buttons``."""
        return f"{self.token}:{self.message}:{self.until}:{int(self.buttons)}"
