"""What a table update means for the messages of a chat, worked out once for every front end.

The service publishes one ``TableUpdate`` per settled change of a table: the group's view and each
person's (engine/service/views.py). ``plan`` turns it into:

- the public screen (``bot.chat.screens``): the table picture, its text with the latest events, notes
  and clocks, the buttons answered in front of everyone (none once the table has ended);
- whether to post the table anew and whom to mention in it: a new message when the game starts,
  the turn passes (the player to act is mentioned: the one ping a turn) or the game ends (everyone
  is mentioned); every other change edits the current message, which notifies nobody;
- the prompts under the table, at most one per kind of question and update: people asked to
  answer out of turn on the table message (the board's bids) are pinged together; people asked in
  a Just Say No window (D-13) are pinged together with one "answer…" button each, which opens
  that player's own answers (the same for every target, so nothing public tells who holds a Just
  Say No); people asked privately are told by their private message, posted anew (which
  notifies), and pinged in the group only when they cannot be written to privately;
- every person's private screen, and whose private message is posted anew.

Which messages a chat already shows, and what they show, is the front end's record
(``MessageRecord``): a message whose content would not change is not edited.

When a chat cannot be written to for a while (a platform's flood wait), the updates that come
meanwhile are ``merged`` into one: the newest views, every event since the last update shown, the
turn passed if it passed in any of them, everyone asked who is still asked. ``with_dues`` gives an
update the clocks as they run out now (held while the chat could not see the table).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import msgspec

from bot.chat.results import result_screen
from bot.chat.screens import TURN_POLICIES, Button, Screen, private_screen, public_screen
from engine.service.updates import TableUpdate
from engine.service.views import Ask
from words.i18n import t


@dataclass
class Prompt:
    """People asked to answer out of turn, pinged once right under the table message.

    ``where``: ``prompt`` (each has an "answer…" button that opens their own answers: a Just Say
    No window), ``table`` (the answers are on the table message: the board) or ``private`` (in their
    private message, for those who cannot be written to privately)."""

    seats: list[int]
    where: str
    due_at: float | None
    kinds: list[str]

    @property
    def asks(self) -> list[list]:
        """What it asks, as stored with the prompt's message: [seat, kind] pairs."""
        return [[s, k] for s in self.seats for k in self.kinds]


@dataclass
class UpdateScreens:
    update: TableUpdate
    public: Screen
    private: dict[int, Screen] = field(default_factory=dict)  # every person's own screen
    new_message: bool = False  # post the table anew (and take the buttons off the last one)
    ping: list[int] = field(default_factory=list)  # people to mention in the new table message
    prompts: list[Prompt] = field(default_factory=list)
    anew: set[int] = field(default_factory=set)  # people whose private message is posted anew (it notifies)
    ended: bool = False  # over or cancelled: no buttons any more
    # seat -> the token of what its clock would do (accept) in a window answered in a prompt: one
    # tap to accept, offered to every target alike, so it tells nothing of who could say no
    accepts: dict[int, str] = field(default_factory=dict)


def damaged_text(update: TableUpdate, lang: str) -> str:
    return t(lang, "service.table_damaged", table=update.table)


def answer_buttons(table: int, seats: list[int], names: dict[int, str], lang: str,
                   accepts: dict[int, str] | None = None) -> list[Button]:
    """Per player asked in a Just Say No window: "accept" (one tap, where its token is known) and
    "answer…", which opens that player's own answers; the same for every target."""
    out = []
    for s in seats:
        if accepts and s in accepts:
            out.append(Button(t(lang, "ch.btn.accept", name=names.get(s, "?")), accepts[s], s))
        out.append(Button(t(lang, "ch.btn.answer", name=names.get(s, "?")), f"h:{table}:{s}", s))
    return out


def _first_due(asks: list[Ask]) -> float | None:
    return min((a.due_at for a in asks if a.due_at is not None), default=None)


def _prompt(asks: list[Ask], where: str) -> Prompt | None:
    if not asks:
        return None
    seats: list[int] = []
    for a in asks:
        if a.seat not in seats:
            seats.append(a.seat)
    kinds = sorted({a.kind for a in asks})
    return Prompt(seats, where, _first_due(asks), kinds)


def _plan(update: TableUpdate, lang: str, lang_of: Callable[[int], str] | None, now: float,
          when: Callable[[float], str] | None, shown_turn: int | None,
          series: dict[int, list[int]] | None = None, feats: dict[int, list[str]] | None = None) -> UpdateScreens:
    view = update.public
    public = public_screen(view, lang, now, when)
    ended = view.status in ("over", "cancelled") or update.kind == "cancelled"
    if ended:
        public.buttons = []
    if update.over:  # the result: the ranking, the chart, what next
        public = result_screen(view, lang, series, public.picture, feats)
    # a turn the chat's table message does not show yet: the update of another process may have
    # passed the turn and not been shown (yet), or be shown after this one
    turn_moved = shown_turn is not None and view.turn is not None and view.turn != shown_turn
    new_message = update.kind == "started" or update.turn_passed or update.over or turn_moved
    ping: list[int] = []
    if update.over:
        ping = view.people
    elif new_message and view.current is not None and not view.seats[view.current].ai:
        ping = [view.current]
    private = {seat: private_screen(own, view.names, lang_of(seat) if lang_of else lang)
               for seat, own in update.private.items()}
    prompts: list[Prompt] = []
    anew: set[int] = set()
    if not ended:
        asked = [a for a in update.asked if not a.ai]
        windows = _prompt([a for a in asked if a.where == "prompt"], "prompt")
        on_table = _prompt([a for a in asked if a.where == "table" and a.seat != view.current
                            and a.seat not in ping], "table")
        # a turn's own decisions are told by the table message (its ping, its clock); anything
        # else asked privately (an offer, a payment, where a card goes) is told by a new private message
        privately = [a for a in asked if a.where == "private" and a.seat not in ping and a.policy not in TURN_POLICIES]
        anew = {a.seat for a in privately}
        prompts = [p for p in (windows, on_table) if p is not None]
        elsewhere = _prompt([a for a in privately if view.seats[a.seat].dm is False], "private")
        if elsewhere is not None:
            prompts.append(elsewhere)
    return UpdateScreens(update=update, public=public, private=private, new_message=new_message, ping=ping,
                         prompts=prompts, anew=anew, ended=ended, accepts=_accepts(update))


def _accepts(update: TableUpdate) -> dict[int, str]:
    """Each person asked in a prompt window: the token of the choice its clock would make."""
    out: dict[int, str] = {}
    for a in update.public.asks:
        own = update.private.get(a.seat)
        if a.where != "prompt" or a.ai or own is None:
            continue
        token = next((c.token for c in own.choices if c.action == a.decision.timeout), None)
        if token is not None:
            out.setdefault(a.seat, token)
    return out


async def plan(update: TableUpdate, lang: str, now: float, lang_of: Callable[[int], str] | None = None,
               shown_turn: int | None = None, when: Callable[[float], str] | None = None,
               series: dict[int, list[int]] | None = None,
               feats: dict[int, list[str]] | None = None) -> UpdateScreens:
    """The screens and messages of one update, drawn in a worker thread (pictures take
    milliseconds). ``shown_turn``: the turn the chat's current table message shows (from the
    message record); ``when``: how the table message words a deadline (default: seconds left);
    ``series``: each seat's worth turn by turn, for the result's chart once the game is over;
    ``feats``: the achievements each seat earned in it."""
    return await asyncio.to_thread(_plan, update, lang, lang_of, now, when, shown_turn, series, feats)


# when several updates are merged, the kind a front end must act on (as the service's loop decides)
_PRECEDENCE = ("damaged", "cancelled", "started", "over", "paused", "resumed", "seats", "moves")


def merged(older: TableUpdate, newer: TableUpdate) -> TableUpdate:
    """Two updates of one table as one, shown instead of both (``newer`` came after ``older``)."""
    if older.public is None or newer.public is None:
        return newer
    kind = next((k for k in _PRECEDENCE if k in (older.kind, newer.kind)), newer.kind)
    public = msgspec.structs.replace(newer.public, events=[*older.public.events, *newer.public.events],
                                     notes=[*older.public.notes, *newer.public.notes])
    private = {seat: msgspec.structs.replace(view, events=[*older.private[seat].events, *view.events])
               if seat in older.private else view for seat, view in newer.private.items()}
    owed = {(a.seat, a.kind) for a in newer.public.asks}
    asked = [*[a for a in older.asked if (a.seat, a.kind) in owed and not any(
        (b.seat, b.kind) == (a.seat, a.kind) for b in newer.asked)], *newer.asked]
    asked = [next((b for b in newer.public.asks if (b.seat, b.kind) == (a.seat, a.kind)), a) for a in asked]
    return replace(newer, kind=kind, public=public, private=private, asked=asked,
                   turn_passed=older.turn_passed or newer.turn_passed)


def with_dues(update: TableUpdate, dues: dict[tuple[int, str], float]) -> TableUpdate:
    """``update`` with its decisions' clocks running out at ``dues`` (by seat and kind) where given."""
    if not dues or update.public is None:
        return update

    def moved(asks):
        return [msgspec.structs.replace(a, due_at=dues[(a.seat, a.kind)]) if (a.seat, a.kind) in dues and
                a.due_at is not None else a for a in asks]

    return replace(update, public=msgspec.structs.replace(update.public, asks=moved(update.public.asks)),
                   private={seat: msgspec.structs.replace(view, asks=moved(view.asks))
                            for seat, view in update.private.items()},
                   asked=moved(update.asked))


def older_than_shown(update: TableUpdate, record: dict, prefix: str) -> bool:
    """An update another process made before the one the chat already shows (both processes show
    the moves they made, in whichever order they get the table's messages): nothing to show."""
    return update.public.version < record.get(f"{prefix}_v", -1)


def note_shown(update: TableUpdate, record: dict, prefix: str) -> None:
    """What the record says the chat shows now: the version and the turn of the table message."""
    record[f"{prefix}_v"] = update.public.version
    if update.public.turn is not None:
        record[f"{prefix}_turn"] = update.public.turn


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
