"""The game service: the one door for moves, ``GameService.act(user, token)``, around the parts
that keep a group's game going between two moves. How a table lives (docs/design.md, "The table
loop"):

- **The core** (``core.py``), built first: the database, the clock, the copies of tables
  (``cache.py``: a copy that cannot lie, quarantine), the button secret, the outbox, who is told
  (``subscribers.py``), and ``apply``, where every move is validated by the rules and stored in one
  transaction before the copy moves on. Moves of one table are serialised by a per-table lock;
  several processes on one database are kept apart by the version check. A press whose token is
  newer than this process's copy reads the table again first (another process moved it).
- **The parts**, each given the core and only the collaborators it uses (none imports this
  module): ``clocks`` (rows derived from the state, taken with a lease by the sweep of any
  process, fired once; ``clock_rules.py`` derives them), ``loop`` (AI seats answer, one update per
  settled change to the subscribers of the table's chat), ``lobby`` (seats, start, cancel),
  ``chats`` (settings, standings), ``schedules`` (timed matches), ``tournaments``, ``trades`` (the
  trade builder's drafts), ``records`` (a table's message record), ``notices`` (the other
  processes' moves on PostgreSQL), ``restorer`` (the start-up pass, quarantine told) and ``seen``
  (the views of a table drawn on request).
- **Supervision** (``runner.py``). The sweep retries a lost database with back-off, logs a failure
  with its table and goes on, touches the heartbeat only after a sweep that worked, and ends the
  process when it cannot recover.
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

from engine.games import GAMES
from engine.service import feats, metrics, ratings, tokens
from engine.service.cache import LiveTable
from engine.service.chats import Chats
from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.lobby import Lobby
from engine.service.loop import TableLoop
from engine.service.notices import Listener
from engine.service.outcome import IN_PROGRESS, Outcome, is_ai_user
from engine.service.restore import Restorer
from engine.service.runner import supervise
from engine.service.schedules import Schedules
from engine.service.seasons import Seasons
from engine.service.slow import SlowGames
from engine.service.storage import database, downtime, migrate, queries, writer
from engine.service.storage.errors import DB_ERRORS, describe, is_full, outage_told
from engine.service.storage.records import Records
from engine.service.storage.rows import TableRow
from engine.service.tournaments import Tournaments
from engine.service.trade_desk import TradeDesk
from engine.service.updates import Snapshot
from engine.service.views import PrivateView, PublicView, TableViews, digests

log = logging.getLogger(__name__)
DRAIN_GRACE = 10.0  # seconds a stopping process gives its table updates to go out
CARRY_OVER = 16  # versions back a button may be pressed when only other players moved since


class GameService:
    def __init__(self, db, clock: Callable[[], float] = time.time) -> None:
        self.core = core = Core(db, clock)
        self.db, self.cache, self.keys, self.health = db, core.cache, core.keys, core.health
        self.clocks = Clocks(core)
        self.loop = TableLoop(core, quiet=self.clocks.quiet)
        self.chats = Chats(db)
        self.lobby = Lobby(core, self.clocks, self.chats)
        self.schedules = Schedules(core, self.lobby, self.clocks)
        self.trades = TradeDesk(core, offer=self.offer)  # the trade builder's drafts (B-15)
        # in every process: whichever runs the clocks starts rounds
        self.tournaments = Tournaments(core, self.lobby, self.clocks, self.loop)
        self.records = Records(db, core.cache)
        self.notices = Listener(db, core.owner, core.cache)
        self.restorer = Restorer(core, self.clocks, self.notices)
        self.seen = TableViews(core)
        self.slow = SlowGames(core, self.clocks)  # a slow game's reminders and daily summaries (issue 48)
        self.loop.when_finished(self._rated, key="ratings")  # a finished game moves its players' ratings
        self.loop.when_finished(self._awarded, key="feats")  # and gives them its achievements
        self.seasons = Seasons(db)

    @property
    def clock(self) -> Callable[[], float]:
        """The service's clock (the core's: a test that sets it here moves every part's)."""
        return self.core.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.core.clock = clock

    @classmethod
    async def open(cls, url: str | None, clock: Callable[[], float] = time.time, lazy: bool = False) -> GameService:
        """Connect, make the schema, and bring back every table in progress, each rebuilt from its
        log (a table that does not replay is set aside, never a reason not to start).

        ``lazy`` (a bot's process): only the tables' ids are read here; ``startup`` restores them in
        the background while presses are served and clocks fire from the first second (a table a
        press or a clock needs first is loaded then, from its snapshot)."""
        service = cls(database.make_db(url), clock)
        try:
            await migrate.upgrade(service.db)
            service.keys.secret = await database.secret(service.db)
            await downtime.catch_up(service.db, time.time())  # decision clocks did not run while all was down
            await service.core.formats.beat()  # this process reads…, and new tables get… (formats.py)
            async with AsyncSession(service.db) as session:
                live = select(TableRow).where(TableRow.status.in_(IN_PROGRESS))
                if lazy:
                    ids = (await session.exec(live.with_only_columns(TableRow.id))).all()
                else:
                    rows = (await session.exec(live)).all()
        except BaseException:
            await service.db.dispose()
            raise
        if lazy:
            service.restorer.unrestored = list(ids)
            return service
        for row in rows:
            await service.cache.load(row, verify=True)
        return service

    async def close(self) -> None:
        await self.restorer.stop()
        await self.notices.stop()
        await self.loop.stop()
        await self.records.close()
        await writer.settle(self.db)  # moves handed to the group commit are written first
        with contextlib.suppress(*DB_ERRORS):  # a clean stop gives up its say at once (formats.py)
            await self.core.formats.leave()
        await self.db.dispose()

    # -- the loop, the clocks, who is told ----------------------------------------------------------

    async def startup(self) -> None:
        """Before the first sweep: the tables in progress brought back (``restore.py``), and the
        results no process rated yet rated (``ratings.py``) and given their achievements (``feats.py``)."""
        await self.restorer.startup()
        await self._rated()
        await self._awarded()

    async def _rated(self, _table: int | None = None) -> None:
        """Rate what finished and is not rated yet; a database that fails now leaves it to the next
        game's end or start-up (the results keep their place in the queue)."""
        try:
            await ratings.rate_pending(self.db)
        except DB_ERRORS as e:
            log.warning("ratings wait (%s): the next finished game or start-up rates them", describe(e))

    async def _awarded(self, _table: int | None = None) -> None:
        """The achievements of what finished and has none stored yet (``feats.py``); a database
        that fails now leaves them to the next game's end or start-up."""
        try:
            await feats.award_pending(self.db)
        except DB_ERRORS as e:
            log.warning("achievements wait (%s): the next finished game or start-up awards them", describe(e))

    async def restored(self) -> None:
        """Wait until a lazy start has restored every table in progress (at once after an eager one)."""
        await self.restorer.restored()

    async def run(self, stop: asyncio.Event | None = None, every: float = 1.0, heartbeat: str | None = None,
                  give_up: float = 15 * 60) -> None:
        """The process's supervised clock task (``runner.supervise``)."""
        await supervise(self.core, self.startup, lambda: self.sweep(), stop or asyncio.Event(), every=every,
                        heartbeat=heartbeat, give_up=give_up)

    async def sweep(self) -> list[Outcome]:
        """Fire every clock that has run out (``Clocks.sweep``); on a new month, tell the chats their
        season's final standings (``seasons.py``)."""
        fired = await self.clocks.sweep()
        for notice in await self.seasons.ended(self.core.clock()):
            await self.core.subscribers.notice(notice)
        return fired

    async def idle(self) -> None:
        await self.loop.idle()

    async def drain(self, grace: float = DRAIN_GRACE) -> None:
        """A stop was asked for: the table updates being worked out and shown go out (at most
        ``grace`` seconds: AI seats may play on meanwhile; ``close`` stops them), while the
        platforms' clients are still open to send them (issue 46)."""
        end = time.monotonic() + grace
        while (busy := self.loop.busy()) and time.monotonic() < end:
            await asyncio.wait(busy, timeout=end - time.monotonic())  # (never cancels them)

    def subscribe(self, on_update=None, on_notice=None, private: bool = False, chats: str = "",
                  tables=None) -> None:
        """Table updates and notices of the chats whose key starts with ``chats`` (every chat when
        empty), of the ``tables(table)`` says it shows when given; with ``private`` each person's
        own view too (``subscribers.py``)."""
        self.core.subscribers.add(on_update, on_notice, private, chats, tables)

    # -- reading -----------------------------------------------------------------------------------

    def sign(self, data: str) -> str:
        return self.keys.sign(data)

    def unsign(self, text: str) -> str | None:
        return self.keys.unsign(text)

    def buttons(self, table: int | Snapshot, seat: int) -> list[tuple[Any, str]]:
        return self.seen.buttons(table, seat)

    async def views(self, table_id: int, seats=None) -> tuple[PublicView, dict[int, PrivateView]] | None:
        """The table as the group sees it and as each of ``seats`` (default every person) sees it."""
        return await self.seen.of(table_id, seats)

    async def public_view(self, table_id: int) -> PublicView | None:
        return await self.seen.public(table_id)

    async def seat_view(self, table_id: int, user: str) -> tuple[PublicView, PrivateView] | None:
        return await self.seen.seat(table_id, user)

    # -- moves -------------------------------------------------------------------------------------

    async def act(self, user: str, token: str) -> Outcome:
        """A button press: who pressed what. Refusals say why, privately; nothing changes then (and
        are counted and logged, one line each, for the operator)."""
        try:
            outcome = await self._act(user, token)
        except DB_ERRORS as e:  # locked, full or gone: said at once, never a traceback or a second wait
            outcome = self._busy(e)
        if not outcome.ok:
            metrics.REFUSALS.labels(metrics.reason_of(outcome)).inc()
            log.info("refused press: reason=%s table=%s user=%s", metrics.reason_of(outcome), outcome.table, user)
        return outcome

    async def _act(self, user: str, token: str) -> Outcome:
        try:
            tok = self.keys.decode(token)
        except tokens.TokenError:
            return Outcome(False, "service.bad_token")
        async with self.cache.lock(tok.table):
            live = await self.cache.get(tok.table)
            if live is not None and tok.version > live.row.version:
                live = await self.cache.refresh(live)  # another process moved the table on
            if live is None:
                return Outcome(False, "service.newer" if tok.table in self.cache.unreadable else "service.no_table",
                               table=tok.table)
            if live.row.status != "running":
                return Outcome(False, "service.not_running", table=tok.table)
            seat = live.seat_of(user)
            if seat is None:
                return Outcome(False, "service.not_a_player", table=tok.table)
            if tok.seat != seat:
                return Outcome(False, "service.not_your_button", table=tok.table)
            if tok.version == live.row.version:
                legal = live.legal(seat)
                if tok.index >= len(legal):
                    return Outcome(False, "service.bad_token", table=tok.table)
                action = legal[tok.index]
            else:
                action = await self._carried_over(live, tok, seat)
                if action is None:
                    return Outcome(False, "service.out_of_date", table=tok.table, version=live.row.version)
            outcome = await self._press(live, user, seat, action)
            if outcome.key == "service.out_of_date" and not outcome.rule:
                # another process moved first: once more on the fresh state when the same choice
                # carries over to it (the same player's own move first means this press came twice)
                live = await self.cache.get(tok.table)
                if live is not None and live.row.status == "running" and live.state is not None \
                        and await self._carried_over(live, tok, seat) == action:
                    outcome = await self._press(live, user, seat, action)
            return outcome

    async def _carried_over(self, live: LiveTable, tok: tokens.Token, seat: int) -> Any | None:
        """The action of a button from a version before this one, when it is still the same choice:
        at most ``CARRY_OVER`` versions back, every move since made by other players (not this
        seat, not its clock), and exactly one action legal now with the button's digest (the same
        action in the same turn). A chat that could not edit a screen yet (a flood wait, an edit
        held back) so still has its presses answered against the newest state."""
        if tok.digest is None or not 0 < live.row.version - tok.version <= CARRY_OVER:
            return None
        legal = live.legal(seat)
        same = [a for a, d in zip(legal, digests(live.rules, live.state, legal), strict=True) if d == tok.digest]
        if len(same) != 1 or seat in await queries.movers_since(self.db, tok.table, tok.version):
            return None
        return same[0]

    async def _press(self, live: LiveTable, user: str, seat: int, action: Any) -> Outcome:
        """A person's move: a seat the AI kept (or that missed clocks) is theirs again with it."""
        seats, notes = live.row.seats, []
        if live.row.seats[seat]["ai"] and not is_ai_user(user):
            seats = [dict(s) for s in live.row.seats]
            seats[seat]["ai"] = False
            notes.append(Outcome(True, "service.seat_back", params={"seat": seat}))
        missed = {k: v for k, v in live.row.missed.items() if k != str(seat)}
        return await self.core.apply(live, seat, action, seats=seats, missed=missed, notes=notes)

    @staticmethod
    def _busy(error: BaseException, table: int | None = None) -> Outcome:
        """A move the database could not take now (locked, full, unreachable): nothing changed, the
        presser is told to press again; the log says so once every few seconds (issue 46)."""
        told, untold = outage_told(error)
        if told:
            log.warning("a move could not be stored (%s)%s: the presser is told to press again", describe(error),
                        f"; {untold} more like it" if untold else "")
        return Outcome(False, "service.full" if is_full(error) else "service.busy", table=table)

    async def offer(self, user: str, table_id: int, action: Any) -> Outcome:
        """A trade offer a player composed (the trade builder): one of the moves not picked from
        ``legal_actions`` by index, because an offer is any exchange of deeds, cash and jail cards
        (B-15). Only the game's ``offer_type`` comes through here (``Game.offer_type``); the rules' one validator
        decides, and the move is stored and shown like a button's."""
        return await self._composed(user, table_id, lambda game: action if game.offer_type is not None
                                    and type(action) is game.offer_type else None)

    async def typed(self, user: str, table_id: int, amount: int) -> Outcome:
        """An amount a player typed instead of pressing one of the offered steps (the board's own
        bid, B-04): the game's ``amount_move``, decided by the rules like any other move (too low, not
        a bidder: refused with the rule's reason)."""
        return await self._composed(user, table_id, lambda game: game.amount_move(amount)
                                    if game.amount_move is not None else None)

    async def _composed(self, user: str, table_id: int, make: Callable[[Any], Any]) -> Outcome:
        """A move not picked from ``legal_actions`` (``make``: the game's move, or None where the
        game has no such move), applied like a button's on the stored version."""
        try:
            return await self._composed_now(user, table_id, make)
        except DB_ERRORS as e:
            return self._busy(e, table_id)

    async def _composed_now(self, user: str, table_id: int, make: Callable[[Any], Any]) -> Outcome:
        async with self.cache.lock(table_id):
            live = await self.cache.get(table_id)
            action = make(GAMES[live.row.game]) if live is not None else None
            if live is not None and action is None:
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
            return await self.core.apply(live, seat, action)
