"""The table channel's messenger for Discord (``bot/chat/messenger.py``): messages with a picture and
buttons (persistent ``DynamicItem``s whose ids carry signed data), replies under the table, DMs,
threads. Text is escaped markdown, and a name written like a mention (``<@123>``, ``<#5>``) shows as
text; a mention of ours notifies exactly the players meant (``allowed_mentions``); a deadline is a
live ``<t:…:R>`` countdown each reader sees in their own time.

Every message in a table's channel (the table message, the prompts under it, the lobby, the result,
the notices) is a Components v2 message (flag ``IS_COMPONENTS_V2``): one container holding the
picture (a media gallery showing the file uploaded with the message, ``attachment://table.png``),
the text (text displays: the same escaped markdown and mentions as before) and the buttons (action
rows of the same persistent items, ``items.rows_of``). Discord allows no ``content`` with the flag,
never takes the flag off again, and shows an attachment only where a component names it: so an edit
sends the whole container again, naming the picture already uploaded unless it changed, and taking
the buttons off sends the container without its rows (what it shows is noted when sent; read back
from Discord when this process cannot know it: after a restart, or beside other processes). A
player's private screen (its pages are ``hand.png``'s, ``bot/chat/channel.py``) stays a plain
message: the steps of their choices edit it in place (``answers.InteractionAnswer.menu``).

Each player's ephemeral "My hand" reply (an answer to their press, seen by them alone) is kept
current too while Discord lets it be edited (15 minutes); a newer one takes its place and the older
one loses its buttons, also after a restart (the reply's interaction token is noted in the
database for those 15 minutes).
"""

from __future__ import annotations

import io
import logging
import os
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urlsplit

import discord

from bot.chat.messenger import Mention, Text, Unreachable, shorten
from bot.chat.screens import Button, Screen
from bot.chat.updates import fingerprint
from bot.discord_app.items import rows_of, view_of
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
TEXT_V2 = 3900  # and 4000 across the text displays of a Components v2 message
ALT = 1024  # a media item's description (alt text)
PRIVATE = "hand.png"  # the picture of a player's private screen: its pages stay plain messages
LOOKS = 4096  # messages whose look is remembered (to take their buttons off without reading them)
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


def render_parts(text: Text, budget: int = TEXT) -> tuple[str, str, discord.AllowedMentions]:
    """The message's body and its last line (the mentions) within ``budget`` characters together (a
    body too long keeps its head and its newest lines: ``shorten``), and who it pings."""
    after = "".join(mention(p.seat) if isinstance(p, Mention) else md(p) for p in text.after)
    room = budget - len(after) - (1 if after else 0)
    body = md(shorten(text, room, lambda s: len(md(s)))) if room > 0 else ""
    mentioned = text.mentioned
    return body, after, only(mentioned) if mentioned else NOBODY


def render(text: Text) -> tuple[str, discord.AllowedMentions]:
    """The message's content within Discord's limit, and who it pings."""
    body, after, mentions = render_parts(text)
    return (f"{body}\n{after}" if body and after else body or after), mentions


class Look(NamedTuple):
    """What a message shows, as far as editing it again needs: whether it is a Components v2
    message, its texts (escaped markdown), the file name of its picture and the picture's alt text."""

    v2: bool
    texts: tuple[str, ...] = ()
    picture: str | None = None
    alt: str | None = None


def look_for(text: Text, picture_name: str | None) -> tuple[Look, discord.AllowedMentions]:
    """A table channel's message as a Components v2 look: its body and its mentions as two texts."""
    body, after, mentions = render_parts(text, TEXT_V2)
    alt = text.plain().split("\n", 1)[0][:ALT] if picture_name else None  # the table's head line
    return Look(True, (body, after), picture_name, alt or None), mentions


def layout(sign, look: Look, buttons: list[Button]) -> discord.ui.LayoutView:
    """One container: the picture (the file the message carries, ``attachment://<name>``), the
    texts, then the buttons in rows of five. Discord shows an attachment only where a component
    names it."""
    view = discord.ui.LayoutView(timeout=None)
    box = discord.ui.Container()
    if look.picture:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{look.picture}",
                                                                      description=look.alt or None)))
    texts = [text for text in look.texts if text]
    for text in texts or ([] if look.picture or buttons else ["\u200b"]):  # never an empty container
        box.add_item(discord.ui.TextDisplay(text))
    for row in rows_of(sign, buttons):
        box.add_item(row)
    view.add_item(box)
    return view


def named(look: Look) -> discord.AllowedMentions:
    """Whom a look's texts mention: our own ``<@id>`` only (``md`` breaks up any other)."""
    users = sorted({int(u) for text in look.texts for u in re.findall(r"<@(\d+)>", text)})
    if not users:
        return NOBODY
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in users])


def look_of(message: discord.Message) -> Look:
    """What a message read back from Discord shows: its texts, and its picture named as it was
    uploaded (Discord answers with the attachment's own address, whose path ends in its name)."""
    if not message.flags.components_v2:
        return Look(False)
    texts: list[str] = []
    found: list[tuple[str, str | None]] = []

    def walk(components) -> None:
        for c in components:
            if isinstance(c, discord.components.TextDisplay):
                texts.append(c.content)
            elif isinstance(c, discord.components.MediaGalleryComponent) and c.items and not found:
                url = c.items[0].media.url
                name = url[len("attachment://"):] if url.startswith("attachment://") else \
                    urlsplit(url).path.rsplit("/", 1)[-1]
                found.append((name, c.items[0].description))
            walk(getattr(c, "children", ()))

    walk(message.components)
    picture, alt = found[0] if found else (None, None)
    return Look(True, tuple(texts), picture or None, alt)


class DiscordMessenger:
    name = "dc"
    page = PAGE

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.client: discord.Client | None = None  # the bot, set by the front end
        self.web_url = (os.environ.get("TYCOON_WEB_URL") or "").rstrip("/") or None
        # the Activity on: the table opens inside Discord, one tap under its message (activity.py)
        self.activity = bool(os.environ.get("DISCORD_CLIENT_ID"))
        self._replies: dict[tuple[int, int], Reply] = {}
        self._asked: set[tuple[int, int]] = set()  # (table, seat) whose noted reply was read already
        self._looks: OrderedDict[tuple[int, int], Look] = OrderedDict()  # what the messages sent show
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

    def noted(self, place, message_id: int, look: Look) -> None:
        """What a message shows now (sent here or by an interaction's answer), to edit it again."""
        key = (int(place), int(message_id))
        self._looks[key] = look
        self._looks.move_to_end(key)
        while len(self._looks) > LOOKS:  # a long-running bot forgets the oldest first
            self._looks.popitem(last=False)

    def _alone(self) -> bool:
        """Whether this process is the only one showing tables (it holds every shard): then no one
        else edits its messages and what it noted is what they show."""
        ids, count = getattr(self.client, "shard_ids", None), getattr(self.client, "shard_count", None)
        return not ids or not count or len(set(ids)) >= count

    async def post(self, place, text: Text, buttons: list[Button], picture: bytes | None = None, *,
                   reply_to: int | None = None, picture_name: str = "table.png") -> int:
        kwargs = {}
        if picture is not None:
            kwargs["file"] = discord.File(io.BytesIO(picture), picture_name)
        if reply_to is not None:
            kwargs["reference"] = discord.MessageReference(message_id=reply_to, channel_id=int(place),
                                                           fail_if_not_exists=False)
        if picture_name == PRIVATE:
            content, mentions = render(text)
            kwargs.update(content=content, view=self._view(buttons))
            look = Look(False)
        else:
            look, mentions = look_for(text, picture_name if picture is not None else None)
            kwargs["view"] = layout(self.service.sign, look, buttons)
        try:
            sent = await self._channel(place).send(allowed_mentions=mentions, **kwargs)
        except discord.Forbidden as e:
            if e.code == DMS_CLOSED:
                raise Unreachable(str(e)) from None
            raise
        self.noted(place, sent.id, look)
        return sent.id

    async def edit(self, place, message_id: int, text: Text, buttons: list[Button], picture: bytes | None,
                   new_picture: bool, picture_name: str = "table.png") -> bool:
        if picture_name == PRIVATE:
            content, _ = render(text)
            kwargs = {"content": content, "view": self._view(buttons)}
            look = Look(False)
        else:  # the whole container again; the picture is uploaded only when it changed
            look, mentions = look_for(text, picture_name if picture is not None else None)
            # the message mentions whom its text names (an edit notifies nobody): said explicitly,
            # as Discord otherwise reads an edit's mentions with its default allowances
            kwargs = {"view": layout(self.service.sign, look, buttons), "allowed_mentions": mentions}
            held = self._looks.get((int(place), message_id))
            if held is None or not held.v2:  # maybe a plain message still (sent before): its content goes
                kwargs["content"] = None
        if picture is not None and new_picture:
            kwargs["attachments"] = [discord.File(io.BytesIO(picture), picture_name)]
        try:
            await self._channel(place).get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as e:
            log.info("message %s in %s not edited (%s): a new one", message_id, place, e)
            self._looks.pop((int(place), message_id), None)
            return False
        self.noted(place, message_id, look)
        return True

    async def strip(self, place, message_id: int) -> None:
        """The message without its buttons: a plain one loses its rows; a Components v2 one shows
        its container again without them (as noted when sent, else as Discord has it)."""
        key = (int(place), message_id)
        try:
            look = self._looks.get(key) if self._alone() else None
            if look is None:
                look = look_of(await self._channel(place).fetch_message(message_id))
            message = self._channel(place).get_partial_message(message_id)
            if look.v2:
                await message.edit(view=layout(self.service.sign, look, []), allowed_mentions=named(look))
            else:
                await message.edit(view=None)
            self.noted(place, message_id, look)
        except discord.HTTPException as e:  # deleted, or Discord is unreachable: nothing to press there
            log.info("message %s kept its buttons: %s", message_id, e)

    async def delete(self, place, message_id: int) -> None:
        try:
            await self._channel(place).get_partial_message(message_id).delete()
            self._looks.pop((int(place), message_id), None)
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
        if self.activity and not over:  # "Open table": the Activity, else the web link (activity.launch)
            return Button(t(lang, "dc.btn.activity"), f"A:{table}", -1)
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
