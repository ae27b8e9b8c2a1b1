"""What every part of the tournaments shares: the constants (the modes, the kinds of a round's clocks,
the reminder's lead and the retry's delay), the chat keys of a round's tables (``chat_key_of``,
``base_chat``), and ``Part``, the base class of every part: a tournament's rows read (``get``,
``in_chat``, ``entrants``, ``matches``, ``corrections``), updated and inserted, its log (``_log``),
and the clocks of a round's start and of its reminder (``_add_round``, ``_add_deadline``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.core import Core
from engine.service.storage.rows import CorrectionRow, DeadlineRow, EntrantRow, MatchRow, TournamentRow

MODES = ("solo", "team")
ROUND_KIND = "tour.round"
REMIND_KIND = "tour.remind"
REMIND_SECONDS = 5 * 60  # a round is announced this long before it starts
RETRY_SECONDS = 60


def chat_key_of(chat_key: str, tournament: int, round_no: int, table_no: int) -> str:
    return f"{chat_key}#t{tournament}r{round_no}n{table_no}"


def base_chat(key: str) -> str:
    """The chat a tournament table belongs to (its own key without the ``#t…`` part)."""
    return key.split("#", 1)[0]


class Part:
    """The base of the tournament's parts: the core, and the rows every part reads and writes."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.db = core.db

    def _now(self) -> float:
        return self.core.clock()

    async def get(self, tid: int) -> TournamentRow | None:
        async with AsyncSession(self.db) as session:
            return await session.get(TournamentRow, tid)

    async def in_chat(self, chat_key: str, active_only: bool = True) -> list[TournamentRow]:
        async with AsyncSession(self.db) as session:
            query = select(TournamentRow).where(TournamentRow.chat_key == chat_key)
            if active_only:
                query = query.where(TournamentRow.status.in_(("signup", "running", "paused")))
            return list((await session.exec(query.order_by(TournamentRow.id))).all())

    async def entrants(self, tid: int) -> list[EntrantRow]:
        async with AsyncSession(self.db) as session:
            return list((await session.exec(select(EntrantRow).where(
                EntrantRow.tournament_id == tid).order_by(EntrantRow.id))).all())

    async def matches(self, tid: int, round_no: int | None = None) -> list[MatchRow]:
        async with AsyncSession(self.db) as session:
            query = select(MatchRow).where(MatchRow.tournament_id == tid)
            if round_no is not None:
                query = query.where(MatchRow.round == round_no)
            return list((await session.exec(query.order_by(MatchRow.id))).all())

    async def corrections(self, tid: int) -> list[CorrectionRow]:
        async with AsyncSession(self.db) as session:
            return list((await session.exec(select(CorrectionRow).where(
                CorrectionRow.tournament_id == tid).order_by(CorrectionRow.id))).all())

    async def _update(self, model, row_id: int, **values: Any) -> None:
        async with AsyncSession(self.db) as session:
            await session.exec(update(model).where(model.id == row_id).values(**values))
            await session.commit()

    async def _log(self, tid: int, by: str, what: str, **details: Any) -> None:
        row = await self.get(tid)
        entry = {"at": self._now(), "by": by, "what": what, **details}
        await self._update(TournamentRow, tid, log=[*(row.log or []), entry])

    async def _insert(self, row):
        return await self.core.insert(row)

    async def _add_round(self, tid: int, round_no: int, due_at: float) -> None:
        """A round's start, and its reminder a few minutes before when there is time for one."""
        await self._add_deadline(tid, round_no, due_at)
        if due_at - REMIND_SECONDS > self._now():
            await self._add_deadline(tid, round_no, due_at - REMIND_SECONDS, REMIND_KIND)

    async def _add_deadline(self, tid: int, round_no: int, due_at: float, kind: str = ROUND_KIND) -> int:
        row = await self._insert(DeadlineRow(tournament_id=tid, version=round_no, kind=kind, due_at=due_at))
        return row.id
