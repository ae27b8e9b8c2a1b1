"""What every front end does with a table update, worked out once.

The service publishes one ``TableUpdate`` per settled change of a table (engine/service/loop.py).
Telegram, Discord and the console subscribe to them; the chat bots need the same answers before
they talk to their platform, and ``update_screens`` gives them:

- the public screen: the table picture, its text with the latest events, the service's notes and
  the clocks that run (the player on turn's deadline, the match clock), the buttons decided in
  front of everyone (none once the table has ended);
- whether to post the table anew and whom to mention in it: a new message when the game starts,
  the turn passes (the player to act is mentioned: the one ping a turn) or the game ends (everyone
  is mentioned); every other change edits the current message, which notifies nobody;
- the prompts: a player asked to answer out of turn is pinged once, right under the table. A Just
  Say No window (D-13) carries one "answer…" button that opens the player's own choices (the same
  for every target, so nothing public tells who holds a Just Say No); other answers are given on
  the table message (the board) or in the player's private message (the card game);
- every person's private screen (their hand, what they are asked, their buttons), to keep one
  private message per player current.

Which messages a chat already shows, and what they show, is the front end's own record
(``MessageRecord``): a message whose content would not change is not edited, an answered prompt
and a table message that is no longer the current one lose their buttons.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.presenter import (
    PUBLIC_DEAL_DECISIONS,
    Button,
    Screen,
    clock_line,
    clock_text,
    note_lines,
    table_screens,
)
from engine.service.lobby import is_ai_user
from engine.service.loop import TableUpdate
from engine.service.tables import GameService
from words.i18n import t


@dataclass
class Prompt:
    """People asked to answer out of turn, pinged once right under the table message.

    ``where``: ``answer`` (the prompt carries the answers: a Just Say No window), ``table`` (the
    answers are on the table message: the board) or ``private`` (in their private message)."""

    seats: list[int]
    where: str
    due_at: float | None
    buttons: list[Button] = field(default_factory=list)
    kind: str = ""

    @property
    def asks(self) -> list[list]:
        """What it asks, as stored with the prompt's message: [seat, kind] pairs."""
        return [[s, self.kind] for s in self.seats]


@dataclass
class UpdateScreens:
    update: TableUpdate
    public: Screen  # its buttons leave out the answers asked under the table
    private: dict[int, Screen] = field(default_factory=dict)  # every person's own screen
    must_act: set[int] = field(default_factory=set)  # people (not the AI) who owe a decision now
    new_message: bool = False  # post the table anew (and take the buttons off the last one)
    ping: list[int] = field(default_factory=list)  # people to mention in the new table message
    prompts: list[Prompt] = field(default_factory=list)
    ended: bool = False  # over or cancelled: no buttons any more


def damaged_text(update: TableUpdate, lang: str) -> str:
    return t(lang, "service.table_damaged", table=update.table)


def people(update: TableUpdate) -> list[int]:
    """The seats of people (not AI seats, whether the AI keeps a person's seat or not)."""
    return [i for i, s in enumerate(update.snapshot.row.seats) if not is_ai_user(s["user"])]


def _draw(service: GameService, update: TableUpdate, lang: str, lang_of, clock: str | None,
          shown_turn: int | None = None, when: Callable[[float], str] | None = None,
          now: float | None = None) -> UpdateScreens:
    snap = update.snapshot
    screens = table_screens(service, snap, update.events, lang, lang_of, pictures=True, clock=clock)
    public = screens.public
    notes = note_lines(update.notes, lang, snap.names)
    ended = update.over or update.kind == "cancelled"
    running = not ended and snap.row.status == "running"
    clocks = clock_line(lang, snap.names, update.waiting, update.current, update.match_ends_at,
                        service.clock() if now is None else now, when) if running else None
    if notes or clocks:
        public.text = "\n".join([public.text, *notes, *([clocks] if clocks else [])])
    seats = snap.row.seats
    if ended:
        public.buttons = []
    # a turn the chat's table message does not show yet: the update of another process may have
    # passed the turn and not been shown (yet), or be shown after this one
    turn_moved = shown_turn is not None and getattr(snap.state, "turn_number", shown_turn) != shown_turn
    new_message = update.kind == "started" or update.turn_passed or update.over or turn_moved
    ping: list[int] = []
    if update.over:
        ping = people(update)
    elif new_message and update.current is not None and not seats[update.current]["ai"]:
        ping = [update.current]
    prompts: list[Prompt] = []
    if not ended:
        for w in update.asked:
            if snap.game == "deal" and w.kind in PUBLIC_DEAL_DECISIONS:
                answer = Button(t(lang, "tg.btn.answer", name=snap.names[w.seat]), f"h:{update.table}:{w.seat}", w.seat)
                prompts.append(Prompt([w.seat], "answer", w.due_at, [answer], kind=w.kind))
        # B-15: an offer is answered privately; the front end tells its target there (a fresh private
        # message) and pings in the group only a player it cannot reach privately
        offered = sorted({w.seat for w in update.asked if w.kind == "trade" and snap.game == "board"})
        if offered:
            due = min((w.due_at for w in update.asked if w.kind == "trade" and w.due_at), default=None)
            prompts.append(Prompt(offered, "trade", due, kind="trade"))
        others = [w for w in update.asked if w.kind not in PUBLIC_DEAL_DECISIONS and w.seat != update.current
                  and w.seat not in ping and not (w.kind == "trade" and snap.game == "board")]
        if others:
            where = "private" if snap.game == "deal" else "table"
            due = min((w.due_at for w in others if w.due_at), default=None)
            seen: list[int] = []
            for w in others:
                if w.seat not in seen:
                    seen.append(w.seat)
            prompts.append(Prompt(seen, where, due, kind=others[0].kind))
    return UpdateScreens(
        update=update, public=public, private=screens.private,
        must_act={w.seat for w in update.waiting if not w.ai}, new_message=new_message, ping=ping,
        prompts=prompts, ended=ended)


async def update_screens(service: GameService, update: TableUpdate, lang: str,
                         lang_of: Callable[[int], str] | None = None, shown_turn: int | None = None,
                         when: Callable[[float], str] | None = None) -> UpdateScreens:
    """The screens of one update, drawn in a worker thread (pictures take milliseconds).
    ``shown_turn``: the turn the chat's current table message shows (from the message record);
    ``when``: how the table message words a deadline (default: the seconds left now)."""
    now = service.clock()
    clock = clock_text(update.match_ends_at, now)
    return await asyncio.to_thread(_draw, service, update, lang, lang_of, clock, shown_turn, when, now)


def turn_of(update: TableUpdate) -> int | None:
    return getattr(update.snapshot.state, "turn_number", None)


def older_than_shown(update: TableUpdate, record: dict, prefix: str) -> bool:
    """An update another process made before the one the chat already shows (both processes show
    the moves they made, in whichever order they get the table's messages): nothing to show."""
    return update.snapshot.version < record.get(f"{prefix}_v", -1)


def note_shown(update: TableUpdate, record: dict, prefix: str) -> None:
    """What the record says the chat shows now: the version and the turn of the table message."""
    record[f"{prefix}_v"] = update.snapshot.version
    if turn_of(update) is not None:
        record[f"{prefix}_turn"] = turn_of(update)


def seconds_left(due_at: float | None, now: float, default: float = 20) -> int:
    """Whole seconds until a clock runs out, for a prompt ("answer within 20 s")."""
    return max(0, int(round((due_at - now) if due_at is not None else default)))


def fingerprint(*parts) -> str:
    """A short digest of what a message shows (text, buttons, picture bytes)."""
    h = hashlib.blake2b(digest_size=12)
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode())
        h.update(b"\x00")
    return h.hexdigest()


class MessageRecord:
    """What this front end's messages show now, by message: an edit that would change nothing is
    skipped, a picture that did not change is not uploaded again. Kept in memory, and for a table's
    messages also in the table's message record (``load`` / ``dump``), so the process that edits
    next, or a restarted one, knows what the last edit (by any process) left."""

    def __init__(self, limit: int = 20_000) -> None:
        self._shown: dict[tuple, tuple[str, str]] = {}
        self._limit = limit

    def changes(self, key: tuple, text: str, buttons, picture: bytes | None) -> tuple[bool, bool]:
        """(content changed, picture changed) since the last ``shown`` for this message."""
        old = self._shown.get(key)
        content, pic = fingerprint(text, buttons), fingerprint(picture or b"")
        if old is None:
            return True, True
        return old != (content, pic), old[1] != pic

    def shown(self, key: tuple, text: str, buttons, picture: bytes | None) -> None:
        if len(self._shown) >= self._limit:  # a long-running bot forgets the oldest first
            self._shown.pop(next(iter(self._shown)))
        self._shown[key] = (fingerprint(text, buttons), fingerprint(picture or b""))

    def forget(self, key: tuple) -> None:
        self._shown.pop(key, None)

    @staticmethod
    def _name(key: tuple) -> str:
        return ":".join(str(part) for part in key)

    def load(self, stored: dict) -> None:
        """Take what the record says some messages show (another process may have edited them)."""
        by_name = {self._name(key): key for key in self._shown}
        for name, pair in (stored or {}).items():
            key = by_name.get(name) or tuple(int(p) if p.lstrip("-").isdigit() else p for p in name.split(":"))
            if isinstance(pair, list) and len(pair) == 2:
                self._shown[key] = (pair[0], pair[1])

    def dump(self, keys) -> dict:
        """What ``keys`` show, to store with the record (messages this process knows nothing of are
        left out)."""
        return {self._name(key): list(self._shown[key]) for key in keys if key in self._shown}
