"""The messages a chat shows of a table, each with one life, decided once for every platform; a
``Messenger`` (``bot/chat/messenger.py``) only carries them out.

- **The table message** (the picture, the table as text with its latest events, the buttons
  answered in front of everyone, a button to open one's own screen, a "Watch" link). Edited in
  place for every change (which notifies nobody); a new one when the game starts or the turn
  passes, mentioning the player to act (the one ping a turn), and at the end with the result and
  every player mentioned. The message it replaces loses its buttons. A slow game's is posted anew
  only at its start and its end, and its players are told privately (``bot/chat/pace.py``).
- **Prompts** right under it, at most one per kind of question and update (``bot/chat/updates.py``):
  those asked pinged together; answered, a prompt loses its buttons.
- **One private message per player** (a Deal hand from the start, the board's options once asked
  for), in pages when its buttons do not fit one message; edited after every change, posted anew
  when it cannot be edited or when the player is asked something there (which notifies them).

An edit that would change nothing is not sent, and an unchanged picture is not uploaded again.

**A chat that is behind** (the platform makes the bot wait: a flood wait, a spent budget; the
messenger raises ``Behind``) holds up no one else: the other chats of the update (the players'
private chats) are still written to, and the table is shown again when the chat's lane opens, in
its newest state (every update that came meanwhile ``merged`` into one: one edit per message,
never a stale state first). Meanwhile the clocks of the decisions owed run their full time from
when the table can be seen (``clocks.hold_until_seen``): nobody is timed out on a prompt they were
not shown. After a wait of more than ``TOLD_AFTER`` seconds the table message says so, once.
Which messages exist, and what each shows, is stored with the table (``messages``: ``<p>`` the table
message, ``<p>_prompts``, ``<p>_dm``, ``<p>_shown``, ``<p>_v``, ``<p>_turn``, ``<p>_strip`` (replaced table
messages whose buttons are still to go: the last call of an update), where ``<p>`` is the
messenger's name), so a restarted bot, or another process of several, goes on editing them;
showing an update holds the table's record (engine/service/storage/records.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from bot.chat.amounts import amount_button
from bot.chat.messenger import Behind, Mention, Messenger, Text, Unreachable, chore, deferrable, pages
from bot.chat.pace import quiet
from bot.chat.screens import Button, Screen
from bot.chat.updates import (
    MessageRecord,
    UpdateScreens,
    answer_buttons,
    merged,
    note_shown,
    older_than_shown,
    plan,
    with_dues,
)
from engine.play.history import Story
from engine.service.tables import GameService
from engine.service.updates import TableUpdate
from engine.service.views import Seat
from words.games import WORDS
from words.i18n import t

log = logging.getLogger(__name__)
TOLD_AFTER = 5.0  # seconds a table waited for its chat before its message says it was held back
LAST_MOMENT = 2.0  # seconds: a question whose clock runs out sooner is not put (nobody could answer it)


@dataclass
class _Late:
    """A table its chat could not show: the update to show (everything since, merged) and when."""

    update: TableUpdate | None
    lang: str
    until: float  # time.monotonic() when the chat's lane opens
    since: float  # time.monotonic() when the table first could not be shown
    again: bool = False  # ``update`` was shown in part already, and nothing came since


def sentence(lang: str, key: str, seats: list[Seat], **params) -> tuple:
    """A catalogue sentence as a line of parts, its ``{name}`` / ``{names}`` as mentions."""
    marks = {"name": "\x00N\x00", "names": "\x00L\x00"}
    text = t(lang, key, **marks, **params)
    out: list = []
    for i, chunk in enumerate(text.split("\x00")):
        if i % 2 == 0:
            out += [chunk] if chunk else []
        elif chunk == "N" and seats:
            out.append(Mention(seats[0]))
        elif chunk == "L":
            for n, seat in enumerate(seats):
                out += ([t(lang, "ui.list_sep")] if n else []) + [Mention(seat)]
    return tuple(out)


class TableChannel:
    """The tables of one chat platform (one per bot)."""

    def __init__(self, service: GameService, messenger: Messenger) -> None:
        self.service = service
        self.messenger = messenger
        self.shown = MessageRecord()
        self._late: dict[int, _Late] = {}  # tables whose chat is behind, by id
        self._catching_up: set[asyncio.Task] = set()
        self._tidying: set[int] = set()  # tables whose replaced table messages wait for their lane

    @property
    def prefix(self) -> str:
        """The platform's name in chat keys and message records (``tg``, ``dc``, ``web``)."""
        return self.messenger.name

    @contextlib.asynccontextmanager
    async def held(self, table_id: int, fallback: dict | None = None, place=None) -> AsyncIterator[dict]:
        """The table's message record, held while its messages are posted and edited (see the
        module's docstring); what the messages show goes with it."""
        async with self.service.records.hold(table_id, fallback) as record:
            self.shown.load(record.get(f"{self.prefix}_shown", {}))
            try:
                yield record
            finally:
                record[f"{self.prefix}_shown"] = self.shown.dump(self._keys(record, place))

    def _keys(self, record: dict, place) -> list[tuple]:
        keys = []
        if place is not None:
            keys += [self.messenger.key(place, record[self.prefix])] if record.get(self.prefix) else []
            lobby = record.get(f"{self.prefix}_lobby")  # what the lobby shows, for the next process's edit
            keys += [self.messenger.key(place, lobby)] if lobby else []
            keys += [self.messenger.key(place, prompt["id"]) for prompt in record.get(f"{self.prefix}_prompts", [])]
        for entry in record.get(f"{self.prefix}_dm", {}).values():
            where, ids = _dm_entry(entry)
            keys += [self.messenger.key(where, mid) for mid in ids if where is not None]
        return keys

    # -- posting and editing with care ---------------------------------------------------------

    async def edit(self, place, message_id: int, text: Text, buttons: list[Button], picture: bytes | None,
                    name: str = "table.png") -> bool:
        """Only what changes is sent (the picture only when it changed); False when the message
        cannot be edited any more: the caller posts a new one."""
        key = self.messenger.key(place, message_id)
        ids = [(b.label, b.token) for b in buttons]
        changed, new_picture = self.shown.changes(key, text.plain(), ids, picture)
        if not changed:
            return True
        if not await self.messenger.edit(place, message_id, text, buttons, picture, new_picture, name):
            self.shown.forget(key)
            return False
        self.shown.shown(key, text.plain(), ids, picture)
        return True

    async def post(self, place, text: Text, buttons: list[Button], picture: bytes | None = None,
                    name: str = "table.png", reply_to: int | None = None) -> int:
        message_id = await self.messenger.post(place, text, buttons, picture, reply_to=reply_to, picture_name=name)
        self.shown.shown(self.messenger.key(place, message_id), text.plain(), [(b.label, b.token) for b in buttons],
                         picture)
        return message_id

    async def strip(self, place, message_id: int) -> None:
        self.shown.forget(self.messenger.key(place, message_id))
        await self.messenger.strip(place, message_id)

    # -- a table update --------------------------------------------------------------------------

    async def show(self, update: TableUpdate, lang: str) -> None:
        """Everything one update changes: the table message, the private messages, the prompts.
        While the table's chat is behind, the update waits, merged with the others, and its newest
        state is shown when the chat's lane opens (see the module's docstring)."""
        if update.public is None:
            return
        late = self._late.get(update.table)
        if late is not None:
            late.update = update if late.update is None else merged(late.update, update)
            late.lang = lang
            return
        try:
            await self._show(update, lang)
        except Behind as behind:
            self._fall_behind(update, lang, behind.until)

    def behind(self, table: int) -> bool:
        """Whether the table waits for its chat's lane to open (tests, benches)."""
        return table in self._late

    async def caught_up(self) -> None:
        """Wait until no table waits for its chat (tests, benches)."""
        while self._catching_up:
            await asyncio.gather(*list(self._catching_up), return_exceptions=True)

    def _fall_behind(self, update: TableUpdate, lang: str, until: float) -> None:
        self._late[update.table] = _Late(update, lang, until, time.monotonic())
        task = asyncio.get_running_loop().create_task(self._catch_up(update.table), name=f"catch-up-{update.table}")
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def _hold_clocks(self, table: int, until: float) -> dict[tuple[int, str], float]:
        """The table's decisions run their full time from ``until`` (monotonic) at least."""
        seen_at = self.service.clock() + max(0.0, until - time.monotonic())
        try:
            return await self.service.clocks.hold_until_seen(table, seen_at)
        except Exception:  # the database blinked: the clocks run as they were set
            log.exception("table %s: its clocks could not be held while its chat is behind", table)
            return {}

    async def _catch_up(self, table: int) -> None:
        """Show the table's newest state each time its chat's lane opens, until it is shown."""
        late = self._late[table]
        try:
            while late.update is not None:
                # held once for the wait (no clock runs out meanwhile) and again when shown: a move
                # made during the wait set its clocks from its own time, before anyone could see it
                await self._hold_clocks(table, late.until)
                await asyncio.sleep(max(0.0, late.until - time.monotonic()))
                update, late.update = late.update, None
                update = with_dues(update, await self._hold_clocks(table, time.monotonic()))
                waited = time.monotonic() - late.since
                try:
                    await self._show(update, late.lang, waited=waited, again=late.again)
                except Behind as behind:
                    # nothing new since: what was shown of it is not shown again (its clock line,
                    # the time waited, would change it every time and spend the chat's budget)
                    late.again = late.update is None
                    late.update = update if late.update is None else merged(update, late.update)
                    late.until = behind.until
                except Exception:
                    log.exception("table %s: showing its %s update failed", table, update.kind)
                    late.again = False
                else:
                    late.again = False
        finally:
            self._late.pop(table, None)

    async def _show(self, update: TableUpdate, lang: str, waited: float = 0.0, again: bool = False) -> None:
        """``show`` now: the chats that can be written to are; ``Behind`` is raised at the end
        when some could not (nothing is sent twice when the update is shown again then). ``again``:
        this very update was shown in part before, so a table message that shows its version
        already is left as it is."""
        view = update.public
        place = self.messenger.table_place(view)
        later: list[Behind] = []
        with deferrable():
            async with self.held(update.table, view.messages, place) as record:
                if older_than_shown(update, record, self.prefix):
                    return
                now = self.service.clock()
                story = await self._story(update)
                screens = await plan(update, lang, now, shown_turn=record.get(f"{self.prefix}_turn"),
                                     when=lambda due: self.messenger.when(due, now, lang),
                                     series=story.series if story else None, feats=story.feats if story else None)
                screens = quiet(screens)  # a slow game: no message nor ping a move (bot/chat/pace.py)
                try:
                    if not (again and record.get(f"{self.prefix}_v") == view.version):
                        await self._table_message(place, screens, lang, record, waited)
                        note_shown(update, record, self.prefix)
                except Behind as behind:  # the group is behind: its prompts too
                    later.append(behind)
                group_behind = bool(later)
                await self._privates(screens, record, lang, later)
                if not group_behind:
                    try:
                        await self._prompts(place, screens, lang, record)
                    except Behind as behind:
                        later.append(behind)
                    await self._tidy(update.table, place, record)
        if later:
            raise max(later, key=lambda b: b.until)

    async def _story(self, update: TableUpdate) -> Story | None:
        """The game replayed at its end: each seat's worth turn by turn (the result's chart) and
        the achievements earned; None before the end (or when the log cannot be read now: the
        result goes out with the table's picture, without achievements)."""
        if not update.over:
            return None
        try:
            return await self.service.seen.story(update.table)
        except Exception:
            log.exception("table %s: its net-worth chart and achievements could not be worked out", update.table)
            return None

    def table_buttons(self, screens: UpdateScreens, lang: str) -> list[Button]:
        """The buttons under the table: the public answers, or one button per player asked when
        they do not fit; then the button to one's own screen and the "Watch" link. Over: what next
        (a rematch, the standings, a new game) and the finished game's page (result and replay)."""
        if screens.ended:
            page = self.messenger.watch(screens.update.table, lang, over=True) if screens.update.over else None
            return screens.public.buttons + ([page] if page is not None else [])
        view = screens.update.public
        public = list({b.token: b for b in screens.public.buttons}.values())  # no repeated ids
        watch = self.messenger.watch(view.table, lang)
        own = Button(t(lang, WORDS[view.game].own_screen), f"h:{view.table}", -1)
        typed = amount_button(view, lang)  # an amount of one's own (a bid), where the game has one
        extra = [own] + ([typed] if typed is not None else []) + ([watch] if watch is not None else [])
        room = self.messenger.page - len(extra)
        if len(public) > room:
            public = answer_buttons(view.table, sorted({b.seat for b in public}), view.names, lang)
        return public[:room] + extra

    async def _table_message(self, place, screens: UpdateScreens, lang: str, record: dict,
                             waited: float = 0.0) -> None:
        update, public, view = screens.update, screens.public, screens.update.public
        after: tuple = ()
        if screens.ping and not update.over:
            due = next((a.due_at for a in view.asks if a.seat == screens.ping[0] and a.due_at), None)
            when = self.messenger.when(due, self.service.clock(), lang) if due else "–"
            after = sentence(lang, "ch.your_turn", [view.seats[screens.ping[0]]], when=when)
        elif screens.ping:
            after = sentence(lang, "ch.result_players", [view.seats[s] for s in screens.ping])
        body = public.text
        if waited > TOLD_AFTER and not screens.ended:  # told once: the next update's text has no such line
            body += "\n" + t(lang, "ch.held_back", seconds=round(waited))
        text = Text(body, after, public.optional)
        buttons = self.table_buttons(screens, lang)
        current = record.get(self.prefix)
        if current and not screens.new_message and await self.edit(place, current, text, buttons, public.picture):
            return
        if current:  # its buttons go once the new one is out (``_tidy``): what matters first
            record[f"{self.prefix}_strip"] = [*record.get(f"{self.prefix}_strip", []), current]
            record[self.prefix] = None  # not posted again when the chat is behind for the new one
        record[self.prefix] = await self.post(place, text, buttons, public.picture)

    async def _prompts(self, place, screens: UpdateScreens, lang: str, record: dict) -> None:
        """The prompts under the table: one group message, with its mentions, for the players each
        update newly asks out of turn (a Just Say No window's target, then the attacker asked to
        answer a "no"); answered, a prompt loses its buttons."""
        view = screens.update.public
        waiting = {(a.seat, a.kind) for a in view.asks}
        kept: list[dict] = []
        stored = record.get(f"{self.prefix}_prompts", [])
        for n, prompt in enumerate(stored):
            still = [] if screens.ended else [a for a in prompt["asks"] if tuple(a) in waiting]
            if prompt.get("buttons") and not still:  # answered or expired: its buttons go
                try:
                    await self.edit(place, prompt["id"], Text(prompt["text"] + "\n" + t(lang, "ch.answered")), [],
                                    None)
                except Behind:  # this one and the rest as they were, done when shown again
                    record[f"{self.prefix}_prompts"] = kept + stored[n:]
                    raise
                prompt = {**prompt, "buttons": False, "text": prompt["text"] + "\n" + t(lang, "ch.answered")}
            if still or prompt.get("turn") == view.turn:  # this turn's: who is still asked in it
                kept.append(prompt if still == prompt["asks"] else {**prompt, "asks": still})
        try:
            await self._new_prompts(place, screens, lang, record, kept)
        finally:  # what was posted is kept, also when the chat fell behind half way
            if kept != record.get(f"{self.prefix}_prompts", []):
                record[f"{self.prefix}_prompts"] = kept

    async def _new_prompts(self, place, screens: UpdateScreens, lang: str, record: dict, kept: list[dict]) -> None:
        """A prompt of its own for the players newly asked: its mention is what notifies them (an
        edit that adds a name notifies nobody). None for a question whose clock has run out
        (its answer is being given for them)."""
        view = screens.update.public
        asked = {tuple(a) for prompt in kept for a in prompt["asks"]}
        now = self.service.clock()
        for prompt in screens.prompts:
            new = [s for s in prompt.seats if any((s, k) not in asked for k in prompt.kinds)]
            if not new:
                continue  # already asked (by another process's update): one ping each
            if prompt.due_at is not None and prompt.due_at - now < LAST_MOMENT:
                continue
            for n, older in enumerate(kept):  # one live answer button a player: an older prompt gives theirs up
                if older.get("buttons") and set(older.get("seats", ())) & set(new):
                    kept[n] = await self._narrow(place, older, new, view, lang, screens.accepts)
            kept.append(await self._post_prompt(place, prompt.where, new, prompt, view, lang, record, screens.accepts))

    async def _narrow(self, place, older: dict, leaving: list[int], view, lang: str, accepts: dict[int, str]) -> dict:
        """An older prompt without the players a new one asks (their buttons are the new one's)."""
        seats = [s for s in older.get("seats", ()) if s not in leaving]
        asks = [a for a in older["asks"] if a[0] not in leaving]
        if not asks:  # nobody left to answer there
            text = older["text"] + "\n" + t(lang, "ch.answered")
            await self.edit(place, older["id"], Text(text), [], None)
            return {**older, "buttons": False, "text": text, "asks": [], "seats": seats}
        line, buttons = self._prompt_look(older["where"], seats, view, older.get("due"), lang, accepts)
        text = Text("", line)
        await self.edit(place, older["id"], text, buttons[:self.messenger.page], None)
        return {**older, "seats": seats, "asks": asks, "text": text.plain(), "buttons": bool(buttons)}

    def _prompt_look(self, where: str, seats: list[int], view, due_at: float | None, lang: str,
                     accepts: dict[int, str] | None = None) -> tuple:
        """A prompt's line and buttons for these players."""
        now = self.service.clock()
        people = [view.seats[s] for s in seats]
        when = self.messenger.when(due_at or now + 20, now, lang)
        if where == "prompt":
            return sentence(lang, "ch.answer_now", people, when=when), answer_buttons(view.table, seats,
                                                                                     view.names, lang, accepts)
        if where == "private":
            return (sentence(lang, "ch.asked_private", people, when=when),
                    [self.messenger.reach(view.table, s, view.seats[s], lang) for s in seats])
        return sentence(lang, "ch.asked", people, when=when), []

    async def _post_prompt(self, place, where: str, seats: list[int], prompt, view, lang: str, record: dict,
                           accepts: dict[int, str]) -> dict:
        line, buttons = self._prompt_look(where, seats, view, prompt.due_at, lang, accepts)
        text = Text("", line)
        message = await self.post(place, text, buttons[:self.messenger.page], reply_to=record.get(self.prefix))
        return {"id": message, "asks": [[s, k] for s in seats for k in prompt.kinds], "buttons": bool(buttons),
                "text": text.plain(), "turn": view.turn, "where": where, "seats": seats, "due": prompt.due_at}

    async def _tidy(self, table: int, place, record: dict) -> None:
        """The buttons of table messages a newer one replaced go, last of an update's calls and only
        when the chat's budget has room to spare (``chore``: the news, the new table, the prompts and
        the private screens, spend it first). Else they go when it has, or with the next update."""
        owed = record.get(f"{self.prefix}_strip") or []
        try:
            with chore():
                while owed:
                    await self.strip(place, owed[0])
                    owed = owed[1:]
        except Behind as behind:
            if table not in self._tidying:
                self._tidying.add(table)
                task = asyncio.get_running_loop().create_task(self._tidy_later(table, place, behind.until),
                                                              name=f"tidy-{table}")
                self._catching_up.add(task)
                task.add_done_callback(self._catching_up.discard)
        finally:
            if owed != record.get(f"{self.prefix}_strip", []):
                record[f"{self.prefix}_strip"] = owed

    async def _tidy_later(self, table: int, place, until: float) -> None:
        try:
            await asyncio.sleep(max(0.0, until - time.monotonic()))
        finally:
            self._tidying.discard(table)
        try:
            with deferrable():
                async with self.held(table, place=place) as record:
                    if table not in self._late:  # else the catch-up tidies when it shows the table
                        await self._tidy(table, place, record)
        except Exception:  # left for the table's next update
            log.exception("table %s: taking the buttons off its older table messages failed", table)

    # -- private messages ----------------------------------------------------------------------

    async def _privates(self, screens: UpdateScreens, record: dict, lang: str, later: list[Behind]) -> None:
        """Every player's private message kept current: from the start where the game deals a hand,
        else once asked for, once the AI keeps the seat, or once they are asked something there."""
        update = screens.update
        view = update.public
        dms = record.get(f"{self.prefix}_dm", {})
        for seat, screen in sorted(screens.private.items()):
            own = update.private[seat]
            keeps = str(seat) in dms or own.own_from_start or own.ai_keeps or seat in screens.anew
            if keeps:
                await self.private(update.table, seat, view.seats[seat], screen, lang, record,
                                   anew=seat in screens.anew, later=later)
            await self.messenger.refresh_own(update.table, seat, screen)

    async def private(self, table_id: int, seat: int, info: Seat, screen: Screen, lang: str,
                      record: dict | None = None, anew: bool = False, version: int | None = None,
                      later: list[Behind] | None = None) -> bool:
        """Show ``screen`` as the player's private message (pages of buttons when they do not fit
        one): edited in place, or posted anew when it cannot be edited or ``anew`` (which notifies).
        False when the player cannot be written to privately (remembered, not tried again). When
        their private chat is behind, what was done is kept and ``Behind`` goes to ``later``."""
        if info.dm is False or not info.person:
            return False
        if record is None:  # on its own (a press of "My hand"): the record is held for it
            async with self.held(table_id) as held:
                if version is not None and held.get(f"{self.prefix}_v", -1) > version and str(seat) in held.get(
                        f"{self.prefix}_dm", {}):
                    return True  # a later update already showed it the table as it is now
                return await self.private(table_id, seat, info, screen, lang, held, anew)
        dms = dict(record.get(f"{self.prefix}_dm", {}))
        where, ids = _dm_entry(dms.get(str(seat)))
        try:
            if where is None:
                where = await self.messenger.private_place(info)
                if where is None:
                    return False
                topic = getattr(self.messenger, "private_topic", None)
                if topic is not None and not ids:  # a place of its own for this table (Telegram's topics)
                    where = await topic(table_id, where, lang)
            if anew:  # posted again below, so that it notifies; the old pages lose their buttons
                for n, old in enumerate(ids):
                    try:
                        await self.strip(where, old)
                    except Behind:
                        ids = ids[n:]  # still shown with their buttons: edited when shown again
                        raise
                ids = []
            new_ids = await self._pages(where, ids, screen, self.messenger.own_link(table_id, lang))
        except Unreachable:
            await self.service.lobby.set_dm(table_id, info.user, False)
            return False
        except Behind as behind:
            if later is None:
                raise
            later.append(behind)
            new_ids = getattr(behind, "pages", ids)
        if where is None:
            return True
        if [where, new_ids] != dms.get(str(seat)):
            dms[str(seat)] = [where, new_ids]
            record[f"{self.prefix}_dm"] = dms
        return True

    async def _pages(self, where, ids: list[int], screen: Screen, link: Button | None = None) -> list[int]:
        shown = pages(screen.buttons, self.messenger.page - (link is not None))
        if link is not None:
            shown[0] = [*shown[0], link]
        new_ids: list[int] = []
        try:
            for n, page in enumerate(shown):
                text = Text(screen.text) if n == 0 else Text(f"({n + 1}/{len(shown)})")
                picture = screen.picture if n == 0 else None
                old = ids[n] if len(ids) > n else None
                if old is not None and await self.edit(where, old, text, page, picture, "hand.png"):
                    new_ids.append(old)
                    continue
                if old is not None:
                    await self.strip(where, old)
                new_ids.append(await self.post(where, text, page, picture, "hand.png"))
            for n, old in enumerate(ids[len(shown):]):  # fewer pages now: the extra ones go
                self.shown.forget(self.messenger.key(where, old))
                try:
                    await self.messenger.delete(where, old)
                except Behind:
                    new_ids += ids[len(shown) + n:]  # still there: deleted when shown again
                    raise
        except Behind as behind:  # the pages as they stand: the new ones, then the old ones not reached
            behind.pages = new_ids + ids[len(new_ids):] if len(new_ids) < len(ids) else new_ids
            raise
        return new_ids


def _dm_entry(entry) -> tuple:
    """A player's private message in the record: (where, message ids). Older records of Telegram
    kept only the ids (the private chat is the user's id, found again)."""
    if not entry:
        return None, []
    if len(entry) == 2 and isinstance(entry[1], list):
        return entry[0], list(entry[1])
    return None, [int(i) for i in entry]
