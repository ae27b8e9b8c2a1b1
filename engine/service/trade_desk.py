"""The service's side of the trade builder (B-15): each player's draft kept between presses, each
press applied to it by the game's own draft rules (``Presentation.drafts``, the board's
``engine.board.trade_draft``), and the finished offer sent through ``GameService.offer``.

Why in the service: the draft is checked against the table's state, which never leaves
``engine/``; a front end gets a ``Desk`` (the draft and what the rules leave to choose) and words
it (``bot.chat.trade_builder``). The draft lives in the database (the ``settings`` key/value table,
``trade.<table>.<user>``), not in a process: any process of several takes the next press, and a
restart loses nothing.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.core.errors import RuleError
from engine.games import GAMES
from engine.service.core import Core
from engine.service.outcome import Outcome
from engine.service.storage import keyvalue

# every op of a desk: ``n`` a fresh offer, ``k<id>`` a counter-offer to offer ``id``, ``s`` send,
# ``q`` close, ``xm`` both amounts typed at once; the rest change the draft (the game's draft rules)
OP = re.compile(r"n|k[0-9]{1,6}|p[0-9]|[my][0-9]{1,2}|c[pm][0-9]{1,7}|z|j|i|x[ytm]|v[pmy]|s|q")


@dataclass
class DeskAnswer:
    """What a press did: the desk to show, or why not (``key`` a catalogue key with ``params``,
    ``error`` a rule that refuses, ``refusal`` the service's answer to a refused offer)."""

    desk: Any = None  # the game's Desk
    key: str | None = None
    params: dict = field(default_factory=dict)
    error: RuleError | None = None
    refusal: Outcome | None = None
    closed: bool = False  # the builder is done (sent or closed)
    sent: int | None = None  # the id of the offer sent
    typing: str = ""  # "y" / "t": the next typed amount is what I pay / what they pay
    ruleset: str = ""
    names: dict[int, str] = field(default_factory=dict)
    game: str = ""  # the table's game (its words word a refusal)


def _draft_key(table: int, user: str) -> str:
    return f"trade.{table}.{user}"


def _typing_key(user: str) -> str:
    """Which table's builder waits for ``user``'s typed amount (one at a time per user)."""
    return f"trade.typing.{user}"


class TradeDesk:
    def __init__(self, core: Core, offer: Callable[[str, int, Any], Awaitable[Outcome]]) -> None:
        self.core = core
        self.db = core.db
        self._offer = offer  # the service's one door for a composed offer

    async def load(self, table: int, user: str, drafts=None):
        raw = await keyvalue.get_value(self.db, _draft_key(table, user))
        if raw is None:
            return None
        if drafts is None:
            snap = await self.core.snapshot(table)
            drafts = GAMES[snap.game].presentation.drafts if snap is not None else None
        if drafts is None:
            return None
        try:
            return msgspec.json.decode(raw, type=drafts.Draft)
        except msgspec.DecodeError:  # a garbled note is a closed builder, never a crash
            return None

    async def _save(self, table: int, user: str, draft) -> None:
        await keyvalue.set_value(self.db, _draft_key(table, user), msgspec.json.encode(draft).decode())

    async def _drop(self, table: int, user: str) -> None:
        await keyvalue.delete_value(self.db, _draft_key(table, user))
        if await keyvalue.get_value(self.db, _typing_key(user)) == str(table):
            await keyvalue.delete_value(self.db, _typing_key(user))

    async def set_message(self, table: int, user: str, message: int) -> None:
        """The front end's message that shows the draft (to be edited, or stripped when replaced)."""
        draft = await self.load(table, user)
        if draft is not None:
            draft.message = message
            await self._save(table, user, draft)

    async def waiting(self, user: str) -> int | None:
        """The table whose builder waits for ``user``'s typed amount, if any."""
        raw = await keyvalue.get_value(self.db, _typing_key(user))
        return int(raw) if raw is not None and raw.isdigit() else None

    async def still_open(self, table: int, offer: int) -> bool:
        """Is the offer ``offer`` at ``table`` still waiting for its answer? (An AI seat may have
        answered it before the front end shows its sender a receipt.)"""
        snap = await self.core.snapshot(table)
        drafts = GAMES[snap.game].presentation.drafts if snap is not None else None
        return drafts is not None and drafts.is_open(snap.state, offer)

    async def _open(self, table: int, user: str):
        """(the table's snapshot, the user's seat, the game's draft rules), or a closed answer."""
        snap = await self.core.snapshot(table)
        seat = snap.seat_of(user) if snap is not None else None
        drafts = GAMES[snap.game].presentation.drafts if snap is not None else None
        if snap is None or drafts is None or snap.row.status != "running" or seat is None:
            running = snap is not None and snap.row.status == "running" and drafts is not None
            return DeskAnswer(key="service.not_a_player" if running else "trade.closed", closed=True)
        return snap, seat, drafts

    def _shown(self, snap, drafts, draft, **more) -> DeskAnswer:
        return DeskAnswer(desk=drafts.desk(snap.state, draft), game=snap.game, ruleset=snap.row.ruleset,
                          names=snap.names, **more)

    async def press(self, table: int, user: str, op: str, values: list[str] | None = None) -> DeskAnswer:
        """A press on a builder (or on "Propose a trade" / "Counter"): the draft changed and stored,
        the offer sent, or why not."""
        if not isinstance(op, str) or not OP.fullmatch(op):
            return DeskAnswer(key="service.bad_token")
        opened = await self._open(table, user)
        if isinstance(opened, DeskAnswer):
            return opened
        snap, seat, drafts = opened
        state = snap.state
        if op == "q":  # closed by its player (no key: nothing went wrong)
            await self._drop(table, user)
            return DeskAnswer(closed=True)
        draft = await self.load(table, user, drafts)
        if op == "n" or op[0] == "k":
            fresh = drafts.start(state, seat, int(op[1:]) if op[0] == "k" else 0)
            if isinstance(fresh, RuleError):
                return DeskAnswer(error=fresh, game=snap.game, ruleset=snap.row.ruleset, names=snap.names)
            draft = fresh
        elif draft is None or draft.seat != seat:
            return DeskAnswer(key="trade.closed", closed=True)
        elif op == "s":
            outcome = await self._offer(user, table, draft.action())
            if not outcome.ok:
                return self._shown(snap, drafts, draft, refusal=outcome)
            await self._drop(table, user)
            sent = next((e.trade.id for e in outcome.events if type(e).__name__ == "TradeProposed"), None)
            return self._shown(snap, drafts, draft, closed=True, sent=sent)
        elif op[0] == "v":
            draft = drafts.chosen(state, draft, op, list(values or []))
        elif op == "xm":
            both = drafts.typed_both(state, draft, *(list(values or []) + ["", ""])[:2])
            if both is None:
                return self._shown(snap, drafts, draft, key="trade.bad_amount")
            draft = both
        else:
            draft = drafts.change(state, draft, op)
        await self._save(table, user, draft)
        if draft.typing:
            await keyvalue.set_value(self.db, _typing_key(user), str(table))
        return self._shown(snap, drafts, draft, typing=draft.typing)

    async def typed(self, user: str, text: str) -> tuple[int, DeskAnswer] | None:
        """An amount a player typed after "Type an amount": (table, the answer), or None when no
        builder of theirs waits for one (the text is not for us)."""
        table = await self.waiting(user)
        if table is None:
            return None
        opened = await self._open(table, user)
        draft = await self.load(table, user, opened[2]) if not isinstance(opened, DeskAnswer) else None
        if draft is None or opened[1] != draft.seat:
            await keyvalue.delete_value(self.db, _typing_key(user))
            return None
        snap, _, drafts = opened
        changed = drafts.typed(snap.state, draft, text)
        if changed is None:
            return table, self._shown(snap, drafts, draft, key="trade.bad_amount", typing=draft.typing)
        await keyvalue.delete_value(self.db, _typing_key(user))
        await self._save(table, user, changed)
        return table, self._shown(snap, drafts, changed)

    async def show(self, table: int, user: str) -> DeskAnswer:
        """The player's draft as it stands (a form fills in its amounts), or why there is none."""
        opened = await self._open(table, user)
        if isinstance(opened, DeskAnswer):
            return opened
        snap, seat, drafts = opened
        draft = await self.load(table, user, drafts)
        if draft is None or draft.seat != seat:
            return DeskAnswer(key="trade.closed", closed=True)
        return self._shown(snap, drafts, draft)
