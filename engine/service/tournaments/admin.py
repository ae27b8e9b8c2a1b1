"""The admin's tools (admin rights are decided by the adapter and passed as ``is_admin``): pausing
and resuming every clock of a tournament, cancelling it or one of its tables, giving an absent
player's seat to an AI seat or a substitute (``replace``), and correcting a match's winners."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, update
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.core import Core
from engine.service.lobby import Lobby
from engine.service.outcome import Outcome
from engine.service.storage import queries
from engine.service.storage.rows import OPEN_CLOCKS, CorrectionRow, DeadlineRow, MatchRow, TournamentRow
from engine.service.tournaments.base import Part
from engine.service.tournaments.results import Results


class Admin(Part):
    """An admin's operations on a tournament; the lobby changes a table's seats, the results are
    brought up to date before a pause or a correction."""

    def __init__(self, core: Core, lobby: Lobby, results: Results) -> None:
        super().__init__(core)
        self.lobby = lobby
        self.results = results

    def _may_admin(self, row: TournamentRow | None, actor: str, is_admin: bool) -> Outcome | None:
        if row is None:
            return Outcome(False, "tour.no_tournament")
        if not is_admin:
            return Outcome(False, "tour.admins_only")
        return None

    async def _running_tables(self, tid: int) -> list[int]:
        return [m.table_id for m in await self.matches(tid) if m.status == "running" and m.table_id is not None]

    async def _set_table_status(self, table_id: int, status: str, kind: str) -> None:
        """A table paused, resumed or cancelled: its status and clocks as stored, then shown."""
        async with self.core.cache.lock(table_id):
            live = await self.core.cache.get(table_id)
            if status == "cancelled":
                await queries.end_table(self.db, table_id, status)
            else:
                await queries.update_table(self.db, table_id, status=status)
            if live is not None:
                live.row.status = status
                live.clocks = await queries.open_clocks(self.db, table_id)
        self.core.outbox.kick(table_id, kind=kind)

    def _clocks_of(self, tid: int, tables: list[int]):
        return or_(DeadlineRow.tournament_id == tid, DeadlineRow.table_id.in_(tables or [-1]))

    async def pause(self, tid: int, actor: str, is_admin: bool) -> Outcome:
        """Every clock of the tournament stops and its tables take no moves until ``resume``."""
        row = await self.get(tid)
        refused = self._may_admin(row, actor, is_admin)
        if refused:
            return refused
        if row.status not in ("signup", "running"):
            return Outcome(False, "tour.not_running")
        await self.results.sync(tid)
        tables = await self._running_tables(tid)
        async with AsyncSession(self.db) as session:
            await session.exec(update(DeadlineRow).where(self._clocks_of(tid, tables),
                                                               DeadlineRow.status.in_(OPEN_CLOCKS))
                               .values(status="held", owner=None, lease_until=None))
            await session.exec(update(TournamentRow).where(TournamentRow.id == tid)
                               .values(status="paused", paused_at=self._now()))
            await session.commit()
        for table_id in tables:
            await self._set_table_status(table_id, "paused", "paused")
        await self._log(tid, actor, "pause")
        return Outcome(True, params={"tournament": tid, "chat": row.chat_key, "tables": tables})

    async def resume(self, tid: int, actor: str, is_admin: bool) -> Outcome:
        """The clocks go on where they stopped: each moves later by the length of the pause."""
        row = await self.get(tid)
        refused = self._may_admin(row, actor, is_admin)
        if refused:
            return refused
        if row.status != "paused":
            return Outcome(False, "tour.not_paused")
        paused_for = max(0.0, self._now() - (row.paused_at or self._now()))
        tables = await self._running_tables(tid)
        async with AsyncSession(self.db) as session:
            await session.exec(update(DeadlineRow).where(self._clocks_of(tid, tables),
                                                               DeadlineRow.status == "held")
                               .values(status="pending", due_at=DeadlineRow.due_at + paused_for))
            values: dict[str, Any] = {"status": "running" if row.current_round else "signup", "paused_at": None,
                                      "starts_at": row.starts_at + paused_for}
            if row.current_round == 0:
                values["signup_until"] = row.signup_until + paused_for
            await session.exec(update(TournamentRow).where(TournamentRow.id == tid).values(**values))
            await session.commit()
        for table_id in tables:  # AI seats that owe a move make it as the table is shown again
            await self._set_table_status(table_id, "running", "resumed")
        await self._log(tid, actor, "resume", seconds=round(paused_for))
        return Outcome(True, params={"tournament": tid, "chat": row.chat_key, "tables": tables})

    async def _cancel_tables(self, tables: list[int]) -> None:
        async with AsyncSession(self.db) as session:
            await session.exec(update(MatchRow).where(MatchRow.table_id.in_(tables or [-1]),
                                                            MatchRow.status == "running")
                               .values(status="cancelled"))
            await session.commit()
        for table_id in tables:
            await self._set_table_status(table_id, "cancelled", "cancelled")

    async def cancel(self, tid: int, actor: str, is_admin: bool, reason: str = "") -> Outcome:
        """The whole tournament ends: running tables stop, no further round starts; the reason, if
        given, stays in the log."""
        row = await self.get(tid)
        refused = self._may_admin(row, actor, is_admin)
        if refused:
            return refused
        if row.status in ("over", "cancelled"):
            return Outcome(False, "tour.not_running")
        tables = await self._running_tables(tid)
        await self._cancel_tables(tables)
        async with AsyncSession(self.db) as session:
            await session.exec(update(DeadlineRow).where(DeadlineRow.tournament_id == tid,
                                                               DeadlineRow.status.in_(("pending", "held")))
                               .values(status="moot"))
            await session.exec(update(TournamentRow).where(TournamentRow.id == tid)
                               .values(status="cancelled"))
            await session.commit()
        await self._log(tid, actor, "cancel", **({"reason": reason.strip()} if reason.strip() else {}))
        return Outcome(True, params={"tournament": tid, "chat": row.chat_key, "tables": tables})

    async def _match(self, tid: int, match_id: int) -> MatchRow | None:
        async with AsyncSession(self.db) as session:
            match = await session.get(MatchRow, match_id)
        return match if match is not None and match.tournament_id == tid else None

    async def _running_match(self, tid: int, actor: str, is_admin: bool,
                             match_id: int) -> tuple[MatchRow | None, Outcome | None]:
        """A still-running match an admin acts on, or why not."""
        refused = self._may_admin(await self.get(tid), actor, is_admin)
        if refused:
            return None, refused
        match = await self._match(tid, match_id)
        if match is None or match.status != "running":
            return None, Outcome(False, "tour.no_match")
        return match, None

    async def cancel_table(self, tid: int, actor: str, is_admin: bool, match_id: int, reason: str = "") -> Outcome:
        """One table of a round stops; it counts for nobody unless its result is corrected."""
        match, refused = await self._running_match(tid, actor, is_admin, match_id)
        if refused:
            return refused
        await self._cancel_tables([match.table_id])
        await self._log(tid, actor, "cancel_table", match=match_id, reason=reason)
        return Outcome(True, table=match.table_id, params={"tournament": tid, "match": match_id})

    async def replace(self, tid: int, actor: str, is_admin: bool, match_id: int, seat: int,
                      substitute: str | None = None, name: str = "") -> Outcome:
        """An absent player's seat goes to an AI seat (``substitute`` None) or to a substitute;
        the seat still plays for its entrant."""
        match, refused = await self._running_match(tid, actor, is_admin, match_id)
        if refused:
            return refused
        if not 0 <= seat < len(match.entrants):
            return Outcome(False, "tour.no_seat", params={"seats": len(match.entrants)})
        async with self.core.cache.lock(match.table_id):
            live = await self.core.cache.get(match.table_id)
            if live is None or live.row.status not in ("running", "paused"):
                return Outcome(False, "tour.no_match")
            if substitute is not None and live.seat_of(substitute) is not None:
                return Outcome(False, "service.already_seated")
            before = live.row.seats[seat]["name"]
            after = before if substitute is None else (name or substitute)

            def edit(old: dict) -> dict:
                return {**old, "ai": True} if substitute is None else {"user": substitute, "name": after, "ai": False}

            await self.lobby.change_seats(live, seat, edit, Outcome(True, "tour.seat_replaced", params={
                "seat": seat, "before": before, "after": after}))
        await self._log(tid, actor, "replace", match=match_id, seat=seat, before=before,
                        after=substitute or "ai")
        return Outcome(True, table=match.table_id, params={"tournament": tid, "match": match_id})

    async def correct(self, tid: int, actor: str, is_admin: bool, match_id: int, winners: list[int],
                      reason: str) -> Outcome:
        """Set a match's winners (entrant ids; none for no winner); the reason stays in the log."""
        row = await self.get(tid)
        refused = self._may_admin(row, actor, is_admin)
        if refused:
            return refused
        if not reason.strip():
            return Outcome(False, "tour.reason_needed")
        await self.results.sync(tid)
        match = await self._match(tid, match_id)
        if match is None or match.status == "running":
            return Outcome(False, "tour.no_match")
        if any(w not in match.entrants for w in winners):
            return Outcome(False, "tour.bad_winners")
        async with AsyncSession(self.db) as session:
            session.add(CorrectionRow(tournament_id=tid, match_id=match_id, winners=list(winners),
                                            reason=reason.strip(), by=actor, at=self._now()))
            await session.commit()
        await self._log(tid, actor, "correct", match=match_id, before=match.winners, winners=list(winners),
                        reason=reason.strip())
        return Outcome(True, params={"tournament": tid, "match": match_id})
