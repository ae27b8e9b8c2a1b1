"""The table loop: after every move the service settles the table and publishes one update.

A move (a player's press, a clock, the service itself) records its events here under the table's
lock and kicks the table. One task per table then *settles* it: the AI seats answer whatever they
owe (one move at a time, at most ``AI_SLOTS`` tables thinking at once so that AI play never holds
up a clock), the game ends by valuation past its turn cap, and one ``TableUpdate`` goes to every
subscriber: the events since the last update, whether the turn passed, who must act now and until
when, whether the game is over. Front ends subscribe and render; they never move AI seats nor
compare turns. Updates of one table are published in order, never two at once; a subscriber that
fails is logged with the table id and the others still get the update.

Service notices that are not a table's (a scheduled match announced, a tournament round started or
over) go to the same subscribers through ``notice``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core.contract import GameRules
from engine.core.values import SYSTEM, EndMatch, TurnStarted
from engine.games import GAMES, chooser
from engine.service import metrics
from engine.service.outcome import Outcome
from engine.service.storage import store
from engine.service.views import Ask, PrivateView, PublicView, asks_of, private_views, public_view

if TYPE_CHECKING:
    from engine.service.tables import GameService

log = logging.getLogger(__name__)
AI_SLOTS = 2  # tables whose AI seats think at the same time
RETRY_FIRST, RETRY_MAX = 0.2, 30.0  # back-off while the database cannot be reached


@dataclass(frozen=True)
class Waiting:
    """A decision someone owes now, with the time their clock runs out (``None``: no clock, e.g.
    an AI seat, which answers at once)."""

    seat: int
    kind: str
    policy: str
    due_at: float | None
    ai: bool


@dataclass(frozen=True)
class Snapshot:
    """A table as it stood at one version: a copy, so rendering never races a later move."""

    table: int
    version: int
    row: store.TableRow
    rules: GameRules
    state: Any

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def names(self) -> dict[int, str]:
        return {i: s["name"] for i, s in enumerate(self.row.seats)}

    def seat_of(self, user: str) -> int | None:
        return next((i for i, s in enumerate(self.row.seats) if s["user"] == user), None)


@dataclass
class TableUpdate:
    """What changed at a table since its last update; the one thing front ends render. It holds
    views only (``engine/service/views.py``), never the game's state: ``public`` for the group,
    ``private`` for each person's seat, to be shown to that person alone.

    ``kind``: ``started`` (the game began: a new public message), ``moves``, ``seats`` (someone
    left, came back, or the AI took a seat), ``paused``, ``resumed``, ``over``, ``cancelled``, or
    ``damaged`` (the table could not be restored; ``public`` is then None)."""

    table: int
    chat_key: str
    kind: str
    public: PublicView | None
    private: dict[int, PrivateView] = field(default_factory=dict)
    turn_passed: bool = False
    asked: list[Ask] = field(default_factory=list)  # people owing a decision the last update did not ask
    damage: str | None = None

    @property
    def over(self) -> bool:
        return self.public is not None and self.public.over


@dataclass
class _Taken:
    """An update as taken under the table's lock, before its views are made."""

    table: int
    chat_key: str
    kind: str
    snapshot: Snapshot
    events: list
    notes: list[Outcome]
    turn_passed: bool
    asks: list[Ask]
    asked: list[Ask]
    match_ends_at: float | None


@dataclass
class _Pending:
    kinds: list[str] = field(default_factory=list)
    events: list = field(default_factory=list)
    notes: list[Outcome] = field(default_factory=list)
    # the people's decisions pending before the first change of this update, as the table stood
    # then (in whichever process): the update asks only for those that are new since
    before: set | None = None


UpdateHandler = Callable[[TableUpdate], Awaitable[None]]
NoticeHandler = Callable[[Outcome], Awaitable[None]]
FinishedHook = Callable[[int], Awaitable[Outcome | None]]

# when several things happened before one update, the one a front end must act on
_PRECEDENCE = ("damaged", "cancelled", "started", "over", "paused", "resumed", "seats", "moves")


class TableLoop:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self._pending: dict[int, _Pending] = {}
        self._tasks: dict[int, asyncio.Task] = {}
        self._ai = asyncio.Semaphore(AI_SLOTS)
        self._on_update: list[tuple[UpdateHandler, bool]] = []
        self._on_notice: list[NoticeHandler] = []
        self._on_finished: dict[str, FinishedHook] = {}
        self._stopping = False
        self._asked: dict[int, set[tuple[int, str]]] = {}  # per table: the decisions its last update asked

    # -- subscribing -------------------------------------------------------------------------

    def subscribe(self, on_update: UpdateHandler | None = None, on_notice: NoticeHandler | None = None,
                  private: bool = False) -> None:
        """``on_update`` gets every table update with its public view; with ``private`` also every
        person's private view, for a front end that shows each of them to that person alone (a
        chat bot, the web table, the console). Nobody else gets a hand."""
        if on_update is not None:
            self._on_update.append((on_update, private))
        if on_notice is not None:
            self._on_notice.append(on_notice)

    def has_subscribers(self) -> bool:
        return bool(self._on_update)

    @staticmethod
    def _public_only(update: TableUpdate) -> TableUpdate:
        return TableUpdate(table=update.table, chat_key=update.chat_key, kind=update.kind, public=update.public,
                           turn_passed=update.turn_passed, asked=update.asked, damage=update.damage)

    def when_finished(self, hook: FinishedHook, key: str) -> None:
        """``hook(table)`` is called once a table's game is over or cancelled and its last update
        is out; it may answer a notice (a tournament round that ended with it)."""
        self._on_finished[key] = hook

    # -- recording and kicking ---------------------------------------------------------------

    def asked_now(self, live) -> set | None:
        """What people are asked at the table as it stands, to pass as ``before`` to the first
        ``record`` of an update (None when an update is already gathering: it has its own)."""
        if live.row.id in self._pending and self._pending[live.row.id].before is not None:
            return None
        return {(w.seat, w.kind) for w in self.waiting_of(live) if not w.ai}

    def record(self, table_id: int, events=(), notes=(), kind: str = "moves", before: set | None = None) -> None:
        """What a move did; called under the table's lock, so events keep the order they happened.
        ``before``: ``asked_now`` of the table before the move."""
        pending = self._pending.setdefault(table_id, _Pending())
        if pending.before is None and not pending.kinds:
            pending.before = before
        pending.kinds.append(kind)
        pending.events.extend(events)
        pending.notes.extend(notes)

    def kick(self, table_id: int, events=(), notes=(), kind: str | None = None, before: set | None = None) -> None:
        """Settle the table soon (its task starts when none runs, else goes round once more)."""
        if kind is not None or events or notes:
            self.record(table_id, events, notes, kind or "moves", before=before)
        else:
            self._pending.setdefault(table_id, _Pending())
        task = self._tasks.get(table_id)
        if task is None or task.done():
            self._tasks[table_id] = asyncio.get_running_loop().create_task(self._run(table_id),
                                                                           name=f"table-{table_id}")

    async def idle(self) -> None:
        """Wait until no table has anything left to settle or publish (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
            self._tasks = {k: t for k, t in self._tasks.items() if not t.done()}

    async def stop(self, grace: float = 2.0) -> None:
        """Shutting down: AI seats stop after the move they are making, updates being shown get
        ``grace`` seconds; what is left is cancelled (a restart settles those tables again)."""
        self._stopping = True
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=grace)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    # -- the task of a table -----------------------------------------------------------------

    async def _run(self, table_id: int) -> None:
        backoff = RETRY_FIRST
        while table_id in self._pending:
            try:
                await self._play_ai(table_id)
                update = await self._take_update(table_id)
            except store.DB_ERRORS as e:  # the database blinked: the copy is read again, later
                metrics.DATABASE_ERRORS.labels("settle").inc()
                told, untold = store.outage_told(e)
                if told:  # one line for all the tables that meet the same failure meanwhile
                    log.warning("database unavailable while settling tables (%s)%s; table %s retries in %.1f s",
                                store.describe(e), f", {untold} more like it since" if untold else "",
                                table_id, backoff)
                self.service.cache.drop(table_id)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, RETRY_MAX)
                continue
            except Exception:  # a bug: the AI seat's clock (any process's sweep) tries again later
                log.exception("table %s: settling failed; its copy is dropped and read again", table_id)
                self._pending.pop(table_id, None)
                self.service.cache.drop(table_id)
                break
            backoff = RETRY_FIRST
            if update is not None:
                await self._publish(self.views_of(update))
                if update.snapshot.row.status == "over" or update.kind == "cancelled":
                    await self._finished(update.table)

    async def _play_ai(self, table_id: int) -> None:
        """Every decision AI seats owe, one move at a time, until a person must act or it is over."""
        cache, service = self.service.cache, self.service
        failures = 0
        while not self._stopping:
            live = cache.peek(table_id) or await cache.get(table_id)
            if live is None or live.row.status != "running" or live.state is None:
                return
            cap = live.row.turn_cap or GAMES[live.row.game].turn_cap  # past it: the end by valuation
            if live.state.turn_number > cap:
                async with cache.lock(table_id):
                    live = cache.peek(table_id)
                    if live is not None and live.row.status == "running":
                        await service.apply(live, SYSTEM, EndMatch(reason="turn_cap"))
                continue
            if not any(live.row.seats[d.seat]["ai"] for d in live.rules.waiting_for(live.state)):
                return
            # a few tables think at once, each under its own lock; clocks being fired go first
            await self.service.clocks.quiet.wait()
            async with self._ai, cache.lock(table_id):
                live = cache.peek(table_id)
                if live is None or live.row.status != "running":
                    return
                seats = [d.seat for d in live.rules.waiting_for(live.state) if live.row.seats[d.seat]["ai"]]
                if not seats:
                    return
                level = live.row.seats[seats[0]].get("level")
                if level == "strong":  # a search of a few hundred ms: the other tables go on meanwhile
                    action = await asyncio.to_thread(chooser(live.row.game, level), live.state, seats[0])
                else:
                    action = chooser(live.row.game, level)(live.state, seats[0])
                outcome = await service.apply(live, seats[0], action)
                if not outcome.ok and outcome.key != "service.out_of_date":
                    failures += 1  # the AI only picks what legal_actions lists; still, never spin
                    log.error("table %s: the AI's move for seat %s was refused (%s)", table_id, seats[0],
                              outcome.key)
                    if failures >= 3:
                        return
            await asyncio.sleep(0)  # other tables and presses get their turn between AI moves

    async def _take_update(self, table_id: int) -> _Taken | None:
        async with self.service.cache.lock(table_id):
            pending = self._pending.pop(table_id, None)
            live = self.service.cache.peek(table_id) or await self.service.cache.get(table_id)
            if pending is None or live is None or live.state is None or live.row.status in ("lobby", "damaged"):
                return None
            if not pending.kinds:
                return None  # settled, and nothing happened (no move, no change of seats)
            kinds = set(pending.kinds)
            if live.row.status == "over":
                kinds.add("over")
            kind = next(k for k in _PRECEDENCE if k in kinds)
            snapshot = self.snapshot_of(live)
            asks = asks_of(snapshot, self._due(live))
            # who was asked before these changes, as the table stood (the same in every process);
            # for changes that are not moves (a start, a pause) this process's last update
            before = pending.before if pending.before is not None else self._asked.get(table_id, set())
            asked = [a for a in asks if not a.ai and (a.seat, a.kind) not in before]
            self._asked[table_id] = {(a.seat, a.kind) for a in asks if not a.ai}
            return _Taken(table_id, live.row.chat_key, kind, snapshot, pending.events, pending.notes,
                          any(isinstance(e, TurnStarted) for e in pending.events), asks, asked,
                          live.match_ends_at)

    def views_of(self, taken: _Taken) -> TableUpdate:
        """The update as its audiences see it: the group's view and each person's (made outside the
        table's lock, from the copy taken under it)."""
        secret = self.service._secret
        snap = taken.snapshot
        return TableUpdate(
            table=taken.table, chat_key=taken.chat_key, kind=taken.kind,
            public=public_view(secret, snap, taken.asks, taken.events, taken.notes, taken.match_ends_at),
            private=private_views(secret, snap, taken.asks, taken.events), turn_passed=taken.turn_passed,
            asked=taken.asked)

    @staticmethod
    def _due(live) -> dict[tuple[int, str], float]:
        """When each person's decision runs out, from the table's clocks at its version."""
        return {(c.seat, c.kind): c.due_at for c in live.clocks if c.version == live.row.version and not c.ai}

    def snapshot_of(self, live) -> Snapshot:
        # seats and messages copied too; a plain copy (no ORM state, read only): building an ORM
        # row costs several times more, and this is done for every update
        row = store.TableRow.model_construct(**live.row.model_dump())
        state = live.rules.decode_state(live.row.snapshot) if live.row.snapshot else live.state
        return Snapshot(live.row.id, live.row.version, row, live.rules, state)

    @staticmethod
    def waiting_of(live) -> list[Waiting]:
        if live.row.status != "running" or live.state is None:
            return []
        due = TableLoop._due(live)
        out = []
        for d in live.rules.waiting_for(live.state):
            ai = bool(live.row.seats[d.seat]["ai"])
            out.append(Waiting(d.seat, d.kind, d.policy, None if ai else due.get((d.seat, d.kind)), ai))
        return out

    async def _publish(self, update: TableUpdate) -> None:
        public = self._public_only(update)
        for handler, private in list(self._on_update):
            try:
                await handler(update if private else public)
            except Exception:
                log.exception("table %s: showing its %s update failed", update.table, update.kind)

    async def notice(self, outcome: Outcome | None) -> None:
        if outcome is None:
            return
        for handler in list(self._on_notice):
            try:
                await handler(outcome)
            except Exception:
                log.exception("showing the notice %s failed (%s)", outcome.key, outcome.params)

    async def publish(self, update: TableUpdate) -> None:
        """Publish an update made outside a move (a damaged table's notice)."""
        await self._publish(update)

    async def _finished(self, table_id: int) -> None:
        for hook in list(self._on_finished.values()):
            try:
                await self.notice(await hook(table_id))
            except Exception:
                log.exception("table %s: what follows its end failed", table_id)
        self._asked.pop(table_id, None)
        live = self.service.cache.peek(table_id)
        if live is not None and live.row.status not in ("running", "paused", "lobby"):
            self.service.cache.retire(live)
