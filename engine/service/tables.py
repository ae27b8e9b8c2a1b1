"""The game service: the one door for moves, ``GameService.act(user, token)``, and the parts that
keep a group's game going between two moves.

How a table lives (docs/design.md, "The table loop"):

- **Moves.** Every move, a player's button, a clock's or the service's own, goes through
  ``apply``: the rules validate it, then one transaction stores it (the action appended at
  ``version + 1``, the snapshot written only if the version is unchanged, the old clocks retired
  and the ones the new state implies set, the clock that caused it marked done). Only then does the
  copy in memory move on. Moves of one table are serialised by a per-table lock; several processes
  on one database are kept apart by the version check. A press whose token is newer than this
  process's copy reads the table again first (another process moved it).
- **The loop** (``loop.py``). After a move the table is settled by its own task: AI seats answer,
  and one table update goes to the subscribed front ends, which only render.
- **Clocks** (``clocks.py``). Rows derived from the state, taken with a lease by the sweep of any
  process, applied in the transaction that marks them done: each fires exactly once.
- **A cache that cannot lie** (``cache.py``). The rules failing in a way they should not, or the
  database failing mid-move, throws the copy away; it is read again from the database. Finished
  tables leave memory.
- **Quarantine.** At start-up every running table is rebuilt from its log and checked against its
  snapshot; one that does not replay is marked damaged (its chat is told once) and never keeps the
  others from starting.
- **Supervision** (``runner.py``). The sweep retries a lost database with back-off, logs a failure
  with its table and goes on, touches the heartbeat only after a sweep that worked, and ends the
  process when it cannot recover.

The other concerns are parts of their own, reached as attributes: ``lobby`` (seats, start,
cancel), ``clocks``, ``loop`` (updates and notices), ``schedules`` (timed matches), ``chats``
(settings, standings). Tournaments register with ``clocks.handle`` and ``loop.when_finished``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.core.contract import GameRules
from engine.core.errors import RuleError
from engine.core.values import SYSTEM, EndMatch
from engine.games import GAMES
from engine.play.history import net_worth_series
from engine.service import metrics, tokens
from engine.service.cache import LiveTable, TableCache
from engine.service.chats import Chats
from engine.service.clocks import MISSES_BEFORE_AI, Clocks, wanted_infos
from engine.service.lobby import Lobby, is_ai_user
from engine.service.loop import Snapshot, TableLoop, TableUpdate
from engine.service.notices import Listener
from engine.service.outcome import LIVE, Outcome
from engine.service.schedules import Schedules
from engine.service.storage import migrate, store, writer
from engine.service.storage.records import Records
from engine.service.tournaments import Tournaments
from engine.service.trade_desk import TradeDesk
from engine.service.views import PrivateView, PublicView, asks_of, private_view, private_views, public_view

log = logging.getLogger(__name__)


class GameService:
    def __init__(self, engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self._secret = b""
        self._telling = asyncio.Lock()
        self._background: set[asyncio.Task] = set()
        self.cache = TableCache(engine)
        self.cache.on_damaged = self._damaged
        self.loop = TableLoop(self)
        self.clocks = Clocks(self)
        self.chats = Chats(engine)
        self.lobby = Lobby(self)
        self.schedules = Schedules(self)
        self.trades = TradeDesk(self)  # the trade builder's drafts (B-15)
        self.tournaments = Tournaments(self)  # in every process: whichever runs the clocks starts rounds
        self.notices = Listener(self)
        self._seat_watchers: list = []
        self._seat_tasks: set = set()
        self.records = Records(self)
        self.swept_at: float | None = None  # wall time of the clock task's last sweep that worked
        # monotonic times of the last move stored and the last one the database refused: while
        # the newest write failed (within a minute), the heartbeat is not touched (a full disk)
        self.stored_at = self.refused_at = float("-inf")
        self._unrestored: list[int] | None = None  # tables in progress the start-up pass restores
        self._restoring: asyncio.Task | None = None

    @classmethod
    async def open(cls, url: str | None, clock: Callable[[], float] = time.time, lazy: bool = False) -> GameService:
        """Connect, make the schema, and bring back every table in progress, each rebuilt from its
        log (a table that does not replay is set aside, never a reason not to start).

        ``lazy`` (a bot's process): only the tables' ids are read here; ``startup`` restores them in
        the background while presses are served and clocks fire from the first second (a table a
        press or a clock needs first is loaded then, from its snapshot)."""
        service = cls(store.make_engine(url), clock)
        try:
            await migrate.upgrade(service.engine)
            service._secret = await store.secret(service.engine)
            async with AsyncSession(service.engine) as session:
                live = select(store.TableRow).where(store.TableRow.status.in_(LIVE))
                if lazy:
                    ids = (await session.exec(live.with_only_columns(store.TableRow.id))).all()
                else:
                    rows = (await session.exec(live)).all()
        except BaseException:
            await service.engine.dispose()
            raise
        if lazy:
            service._unrestored = list(ids)
            return service
        for row in rows:
            await service.cache.load(row, verify=True)
        return service

    async def close(self) -> None:
        if self._restoring is not None and not self._restoring.done():
            self._restoring.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restoring
        await self.notices.stop()
        await self.loop.stop()
        await self.records.close()
        await writer.settle(self.engine)  # moves handed to the group commit are written first
        await self.engine.dispose()

    @property
    def replay_mismatches(self) -> list[int]:
        return self.cache.replay_mismatches

    async def insert(self, row):
        """One new row in its own transaction, read back with its id."""
        async with AsyncSession(self.engine) as session:
            session.add(row)
            await session.commit()
            await session.refresh(row)
            return row

    # -- starting the loop --------------------------------------------------------------------

    async def startup(self) -> None:
        """Before the first sweep: every running table gets exactly the clocks its state implies
        (a crash may have left some missing or stale), AI seats that owe a move make it, the chats
        of damaged tables are told, and (on PostgreSQL) the other processes' moves are listened for."""
        if self._restoring is not None:  # a lazy start's pass is under way (a second call)
            return
        self.notices.start()
        if self._unrestored is not None:  # opened lazily: restored beside the first sweeps
            ids, self._unrestored = self._unrestored, None
            self._restoring = asyncio.create_task(self._restore(ids), name="restore")
            return
        for live in list(self.cache.running()):
            await self._reconcile(live)
        await self.tell_damaged()

    async def _reconcile(self, live: LiveTable) -> None:
        """A table in progress after a start: exactly the clocks its state implies, and AI seats
        that owe a move make it."""
        async with self.cache.lock(live.row.id):
            if live.row.status != "running" or live.state is None:
                return
            await self.clocks.reconcile(live)
            ai_owes = any(live.row.seats[d.seat]["ai"] for d in live.rules.waiting_for(live.state))
        if ai_owes:
            self.loop.kick(live.row.id)

    async def _restore(self, ids: list[int]) -> None:
        """The start-up pass of a lazy start: each table in progress rebuilt from its log (under its
        lock: a press or a clock that needed it first loaded it already) and reconciled."""
        began = time.monotonic()
        for table_id in ids:
            async with self.cache.lock(table_id):
                live = self.cache.peek(table_id)
                if live is None:
                    async with AsyncSession(self.engine) as session:
                        row = await session.get(store.TableRow, table_id)
                    live = await self.cache.load(row, verify=True) if row is not None and row.status in LIVE \
                        else None
            if live is not None:
                await self._reconcile(live)
            await asyncio.sleep(0)  # presses and clocks go first
        await self.tell_damaged()
        log.info("restored %s tables in progress in %.1f s", len(ids), time.monotonic() - began)

    async def restored(self) -> None:
        """Wait until a lazy start has restored every table in progress (at once after an eager one)."""
        if self._restoring is not None:
            await asyncio.shield(self._restoring)

    def _damaged(self, row: store.TableRow) -> None:
        """A table was put in quarantine while running: tell its chat (when anyone listens)."""
        with contextlib.suppress(RuntimeError):  # no running loop: startup() tells it later
            task = asyncio.get_running_loop().create_task(self.tell_damaged(), name=f"damaged-{row.id}")
            self._background.add(task)  # kept until done (the loop holds tasks only weakly)
            task.add_done_callback(self._background.discard)

    async def tell_damaged(self) -> int:
        """Each damaged table's chat hears it once (in the chats' language, by the front ends)."""
        if not self.loop.has_subscribers():
            return 0
        async with self._telling:  # the start-up and a quarantine while running may both ask
            async with AsyncSession(self.engine) as session:
                rows = (await session.exec(select(store.TableRow).where(store.TableRow.status == "damaged"))).all()
            told = 0
            for row in rows:
                if (row.damage or {}).get("told"):
                    continue
                await store.update_table(self.engine, row.id, damage={**(row.damage or {}), "told": True})
                await self.loop.publish(TableUpdate(table=row.id, chat_key=row.chat_key, kind="damaged",
                                                    public=None, damage=(row.damage or {}).get("reason")))
                told += 1
            return told

    async def run(self, stop: asyncio.Event | None = None, every: float = 1.0, heartbeat: str | None = None,
                  give_up: float = 15 * 60) -> None:
        """The process's supervised clock task (``runner.supervise``)."""
        from engine.service.runner import supervise

        await supervise(self, stop or asyncio.Event(), every=every, heartbeat=heartbeat, give_up=give_up)

    async def sweep(self) -> list[Outcome]:
        """Fire every clock that has run out (``Clocks.sweep``)."""
        return await self.clocks.sweep()

    async def idle(self) -> None:
        await self.loop.idle()

    def subscribe(self, on_update=None, on_notice=None, private: bool = False) -> None:
        """Table updates and notices (``TableLoop.subscribe``: ``private`` for a front end that shows
        each person their own view)."""
        self.loop.subscribe(on_update, on_notice, private)

    def watch_elsewhere(self, callback) -> None:
        """``await callback(table)`` when another process changed a table (a move, a lobby's joins):
        this process publishes no update for it, so a web page showing the table reads it again."""
        self._seat_watchers.append(callback)

    def changed_elsewhere(self, table_id: int) -> None:
        for callback in self._seat_watchers:
            task = asyncio.get_running_loop().create_task(callback(table_id), name=f"elsewhere-{table_id}")
            self._seat_tasks.add(task)  # kept until done (a task nobody holds may be collected)
            task.add_done_callback(self._seat_tasks.discard)

    # -- buttons -------------------------------------------------------------------------------

    def sign(self, data: str) -> str:
        """Button data that is not a move (lobby, sign-up, …), signed with this database's secret."""
        return tokens.sign(self._secret, data)

    def unsign(self, text: str) -> str | None:
        """The data of a button this service signed; None when garbled, forged or unsigned."""
        return tokens.unsign(self._secret, text)

    def table_named(self, data: str) -> int | None:
        """The table a button is about (signed data, or a move token, on Discord behind ``g:``), for
        the log when its press failed; None when it names none."""
        signed = self.unsign(data)
        if signed is not None:
            table = signed.split(":")[1] if ":" in signed else ""
            return int(table) if signed[0] in "lhbeptv" and table.isascii() and table.isdigit() else None
        try:
            return tokens.decode(self._secret, data[2:] if data.startswith("g:") else data).table
        except tokens.TokenError:
            return None

    # -- moves ---------------------------------------------------------------------------------

    def buttons(self, table: int | Snapshot, seat: int) -> list[tuple[Any, str]]:
        """Every choice ``seat`` has at the table (now, or as a snapshot shows it), each with the
        token its button carries."""
        snap = table if isinstance(table, Snapshot) else None
        if snap is None:
            live = self.cache.peek(table)
            if live is None or live.state is None or live.row.status != "running":
                return []
            legal = live.rules.legal_actions(live.committed(), seat) if live.moving else live.legal(seat)
            table_id, version = live.row.id, live.row.version
        else:
            if snap.state is None or snap.row.status != "running":
                return []
            table_id, version, legal = snap.table, snap.version, snap.rules.legal_actions(snap.state, seat)
        return list(zip(legal, tokens.encode_all(self._secret, table_id, version, seat, len(legal)), strict=True))

    async def act(self, user: str, token: str) -> Outcome:
        """A button press: who pressed what. Refusals say why, privately; nothing changes then (and
        are counted and logged, one line each, for the operator)."""
        outcome = await self._act(user, token)
        if not outcome.ok:
            metrics.REFUSALS.labels(metrics.reason_of(outcome)).inc()
            log.info("refused press: reason=%s table=%s user=%s", metrics.reason_of(outcome), outcome.table, user)
        return outcome

    async def _act(self, user: str, token: str) -> Outcome:
        try:
            tok = tokens.decode(self._secret, token)
        except tokens.TokenError:
            return Outcome(False, "service.bad_token")
        async with self.cache.lock(tok.table):
            live = await self.cache.get(tok.table)
            if live is not None and tok.version > live.row.version:
                live = await self.cache.refresh(live)  # another process moved the table on
            if live is None:
                return Outcome(False, "service.no_table")
            if live.row.status != "running":
                return Outcome(False, "service.not_running", table=tok.table)
            seat = live.seat_of(user)
            if seat is None:
                return Outcome(False, "service.not_a_player", table=tok.table)
            if tok.seat != seat:
                return Outcome(False, "service.not_your_button", table=tok.table)
            if tok.version != live.row.version:
                return Outcome(False, "service.out_of_date", table=tok.table, version=live.row.version)
            legal = live.legal(seat)
            if tok.index >= len(legal):
                return Outcome(False, "service.bad_token", table=tok.table)
            action = legal[tok.index]
            outcome = await self._press(live, user, seat, action)
            if outcome.key == "service.out_of_date" and not outcome.rule:
                # another process moved first: once more on the fresh state when another player
                # made that move and the same choice is still there (a build between rolls, say);
                # the same player's own move first means this press came twice
                live = await self.cache.get(tok.table)
                if live is not None and live.row.status == "running" and live.state is not None \
                        and live.row.version == tok.version + 1 \
                        and await store.seat_of_move(self.engine, tok.table, live.row.version) != seat \
                        and action in live.rules.legal_actions(live.state, seat):
                    outcome = await self._press(live, user, seat, action)
            return outcome

    async def _press(self, live: LiveTable, user: str, seat: int, action: Any) -> Outcome:
        """A person's move: a seat the AI kept (or that missed clocks) is theirs again with it."""
        seats, notes = live.row.seats, []
        if live.row.seats[seat]["ai"] and not is_ai_user(user):
            seats = [dict(s) for s in live.row.seats]
            seats[seat]["ai"] = False
            notes.append(Outcome(True, "service.seat_back", params={"seat": seat}))
        missed = {k: v for k, v in live.row.missed.items() if k != str(seat)}
        return await self.apply(live, seat, action, seats=seats, missed=missed, notes=notes)

    async def offer(self, user: str, table_id: int, action: Any) -> Outcome:
        """A trade offer a player composed (the trade builder): the one move that is not picked from
        ``legal_actions`` by index, because an offer is any exchange of deeds, cash and jail cards
        (B-15). Only the game's ``offer_type`` comes through here (``Game.offer_type``); the rules' one validator
        decides, and the move is stored and shown like a button's."""
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            offer_type = GAMES[live.row.game].offer_type if live is not None else None
            if live is not None and (offer_type is None or type(action) is not offer_type):
                return Outcome(False, "service.bad_token", table=table_id)
            if live is not None and live.row.status == "running":
                live = await self.cache.refresh(live)  # offers are rare: always on the stored version
            if live is None or live.row.status != "running":
                return Outcome(False, "service.not_running", table=table_id)
            seat = live.seat_of(user)
            if seat is None:
                return Outcome(False, "service.not_a_player", table=table_id)
            return await self._press(live, user, seat, action)

    async def act_as(self, table_id: int, seat: int, action: Any) -> Outcome:
        """A move made for a seat by the service itself (the match's end, the turn cap, tests)."""
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            if live is None or live.row.status != "running":
                return Outcome(False, "service.not_running", table=table_id)
            return await self.apply(live, seat, action)

    async def expire(self, table_id: int, seat: int | None = None) -> Outcome | None:
        """A clock that the caller keeps instead of the clock task ran out (the terminal, which
        reads one line at a time and runs no timer): the match's clock (B-17, D-16), or ``seat``'s
        card clock (the Deal tournament's seconds per card, D-16). Applied as the clock task would
        apply it; the outcome's ``params`` say which clock (``clock``) and, for a card, the
        ``action`` made. None when neither has run out."""
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            if live is None or live.row.status != "running" or live.state is None:
                return None
            now = self.clock()
            if live.match_ends_at is not None and now >= live.match_ends_at:
                outcome = await self.apply(live, SYSTEM, EndMatch(reason="time"))
                outcome.params = {**outcome.params, "clock": "match"}
                return outcome
            due = self.loop._due(live)
            late = [d for d in live.rules.waiting_for(live.state)
                    if d.seat == seat and d.policy == "card" and due.get((d.seat, d.kind), now + 1) <= now]
            if not late:
                return None
            action = live.rules.timeout_action(live.state, seat)
            outcome = await self.apply(live, seat, action)
            outcome.params = {**outcome.params, "clock": "card", "action": action}
            return outcome

    async def apply(self, live: LiveTable, seat: int, action: Any, *, fired: tuple[int, str] | None = None,
                    seats: list | None = None, missed: dict | None = None, notes=()) -> Outcome:
        """Apply and store one move (the caller holds the table's lock). ``seats`` and ``missed``
        change with the move, in its transaction; ``fired`` is the clock that made it."""
        live.moving = True  # until stored (or dropped), readers without the lock see the stored state
        try:
            return await self._apply(live, seat, action, fired, seats, missed, notes)
        finally:
            live.moving = False

    async def _apply(self, live: LiveTable, seat: int, action: Any, fired, seats, missed, notes) -> Outcome:
        rules, row = live.rules, live.row
        old_version = row.version
        before = self.loop.asked_now(live)
        try:
            events = rules.apply(live.state, seat, action)  # refused moves leave the state untouched
        except RuleError as e:
            return Outcome(False, e.key, rule=e.rule, params=e.params, table=row.id, version=old_version)
        except Exception:  # the rules failed half way: the copy may be half changed
            log.exception("table %s: the rules failed on %r by seat %s at version %s", row.id, action, seat,
                          old_version)
            self.cache.drop(row.id)
            return Outcome(False, "service.error", table=row.id, version=old_version)
        try:
            seats = row.seats if seats is None else seats
            missed = row.missed if missed is None else missed
            res = rules.result(live.state)
            status = "over" if res.over else "running"
            snapshot = rules.encode_state(live.state).decode()
            infos = wanted_infos(live, self.clock(), version=old_version + 1, seats=seats, status=status)
            result = None
            if res.over:
                result = store.ResultRow(table_id=row.id, chat_key=row.chat_key, game=row.game,
                                         ruleset=row.ruleset, reason=res.reason or "", seats=seats,
                                         winners=list(res.winners), scores={str(k): v for k, v in res.scores.items()})
            changed = {}
            if seats != row.seats:
                changed["seats"] = seats
            if missed != row.missed:
                changed["missed"] = missed
            stored = await store.append_move(self.engine, row.id, old_version, seat,
                                             rules.encode_action(action).decode(), snapshot, status, infos, result,
                                             row_values=changed, fired=fired, notify=self.clocks.owner)
        except BaseException as e:
            self.cache.drop(row.id)  # not stored (or not known to be): the database is right, not our copy
            if isinstance(e, store.DB_ERRORS):
                metrics.DATABASE_ERRORS.labels("move").inc()
                self.refused_at = time.monotonic()
            raise
        if not stored:  # another process moved first, or took over this clock: the database is right
            self.cache.drop(row.id)
            return Outcome(False, "service.out_of_date", table=row.id)
        row.version, row.snapshot = old_version + 1, snapshot
        self.stored_at = time.monotonic()
        for key, value in (("status", status), *changed.items()):  # an ORM row: each assignment costs
            if getattr(row, key) != value:
                setattr(row, key, value)
        live.clocks = [c for c in live.clocks if c.kind == "match" and status == "running"] + infos
        self.loop.record(row.id, events, notes, before=before)
        self.loop.kick(row.id)
        by = "clock" if fired else "service" if seat < 0 else "ai" if seats[seat]["ai"] else "person"
        metrics.MOVES.labels(row.game, by).inc()
        return Outcome(True, events=events, table=row.id, version=row.version)

    async def fire(self, deadline: store.DeadlineRow, owner: str) -> Outcome:
        """A table's clock ran out (this process holds its lease): apply what it applies, in the
        transaction that marks it done. A clock the table has moved past is retired."""
        table_id = deadline.table_id
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            if live is not None and deadline.version > live.row.version:
                live = await self.cache.refresh(live)
            stale = deadline.kind != "match" and (live is None or deadline.version != live.row.version)
            if live is None or live.row.status != "running" or stale:
                await store.release(self.engine, deadline.id, owner, "moot")
                return Outcome(False, "service.out_of_date", table=table_id)
            seat, action = self.clocks.action_for(live, deadline)
            if action is None:
                await store.release(self.engine, deadline.id, owner, "moot")
                return Outcome(False, "service.nothing_to_do", table=table_id)
            seats, missed, notes = live.row.seats, live.row.missed, []
            # an unclaimed rent (B-06 ``rent_claim``) is the owner's choice to let it go, not a
            # player who is away: it does not count towards the AI keeping the seat
            if deadline.kind not in ("match", "rent") and not live.row.seats[seat]["ai"]:
                missed = {**live.row.missed, str(seat): live.row.missed.get(str(seat), 0) + 1}
                if missed[str(seat)] >= MISSES_BEFORE_AI:  # three in a row: the AI keeps the seat warm
                    seats = [dict(s) for s in live.row.seats]
                    seats[seat]["ai"] = True
                    notes.append(Outcome(True, "service.ai_took_over", params={"seat": seat}))
            outcome = await self.apply(live, seat, action, fired=(deadline.id, owner), seats=seats, missed=missed,
                                       notes=notes)
            if not outcome.ok:
                if outcome.rule:
                    log.error("table %s: the rules refused the clock's %r for seat %s (%s)", table_id, action,
                              seat, outcome.key)
                await store.release(self.engine, deadline.id, owner, "moot")
                return outcome
            self.clocks.note_fired(deadline)
            if notes:
                outcome.key, outcome.params = notes[0].key, notes[0].params
            return outcome

    # -- reading -------------------------------------------------------------------------------

    async def live(self, table_id: int) -> LiveTable | None:
        """A table as the service holds it (loaded from the database when needed)."""
        return await self.cache.get(table_id)

    async def snapshot(self, table_id: int) -> Snapshot | None:
        """A copy of the table as it stands (for the service's own use: front ends take views)."""
        live = await self.cache.get(table_id)
        if live is None:
            return None
        async with self.cache.lock(table_id):
            return self.loop.snapshot_of(live)

    async def views(self, table_id: int, seats=None) -> tuple[PublicView, dict[int, PrivateView]] | None:
        """The table as it stands, as the group sees it and as each of ``seats`` (default every
        person) sees it: for screens drawn on request (a press of "My hand", a page that opens)."""
        live = await self.cache.get(table_id)
        if live is None:
            return None
        async with self.cache.lock(table_id):
            snap = self.loop.snapshot_of(live)
            asks = asks_of(snap, self.loop._due(live))
            ends = live.match_ends_at
        public = public_view(self._secret, snap, asks, match_ends_at=ends)
        if seats is None:
            return public, private_views(self._secret, snap, asks)
        return public, {s: private_view(self._secret, snap, s, asks) for s in seats
                        if 0 <= s < len(snap.row.seats)}

    async def worth_series(self, table_id: int) -> dict[int, list[int]]:
        """Each seat's worth at the start of every turn so far, and now (the end screen's chart):
        the game replayed from its stored log."""
        live = await self.cache.get(table_id)
        if live is None or live.state is None:
            return {}
        async with self.cache.lock(table_id):
            row, rules = live.row, live.rules
            seats, options, seed, version = len(row.seats), row.options or row.ruleset, row.seed, row.version
        entries = [e for e in await store.load_log(self.engine, table_id) if e.seq <= version]
        log = [(e.seat, rules.decode_action(e.action)) for e in entries]
        return await asyncio.to_thread(net_worth_series, rules, seats, options, seed, log)

    async def history(self, table_id: int, viewer: int | None = None) -> list:
        """Every event of the table's game so far, from its stored log, as ``viewer`` (a seat, or None
        for the group) may see them: the whole story for whoever comes late to it."""
        live = await self.cache.get(table_id)
        if live is None or live.state is None:
            return []
        async with self.cache.lock(table_id):
            row, rules = live.row, live.rules
            seats, options, seed, version = len(row.seats), row.options or row.ruleset, row.seed, row.version
        entries = [e for e in await store.load_log(self.engine, table_id) if e.seq <= version]
        events = rules.replay_events(seats, options, seed, [(e.seat, rules.decode_action(e.action)) for e in entries])
        return GAMES[row.game].presentation.events_for(events, viewer)

    def writes_failing(self, within: float = 60.0) -> bool:
        """Whether the newest move the database was asked to store was refused, less than
        ``within`` seconds ago (the heartbeat then stays stale: the service cannot keep games)."""
        return self.refused_at > self.stored_at and time.monotonic() - self.refused_at < within

    def rules(self, table_id: int) -> GameRules | None:
        live = self.cache.peek(table_id)
        return live.rules if live else None

    def waiting_for(self, table_id: int) -> list:
        """The decisions a running table waits for (empty when it is not running)."""
        live = self.cache.peek(table_id)
        if live is None or live.state is None or live.row.status != "running":
            return []
        return live.rules.waiting_for(live.committed())

    def state(self, table_id: int) -> Any:
        """The table's state as stored (a move in flight is not seen until it is stored)."""
        live = self.cache.peek(table_id)
        return live.committed() if live else None

    def table(self, table_id: int) -> store.TableRow | None:
        live = self.cache.peek(table_id)
        return live.row if live else None

    async def match_ends_at(self, table_id: int) -> float | None:
        return await self.clocks.match_ends_at(table_id)
