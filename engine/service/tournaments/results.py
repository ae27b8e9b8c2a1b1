"""The results: the finished tables read back into their matches (``sync``; the last one ends the
tournament), the end of a round told once (``table_finished``), and the standings with the admins'
corrections applied (``standings``, ranked by ``places``; the rulings are the package's)."""

from __future__ import annotations

from typing import Any

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.games import GAMES
from engine.service.outcome import Outcome
from engine.service.storage.rows import MatchRow, TournamentRow
from engine.service.tournaments.base import Part


def places(values: list[Any]) -> list[int]:
    """Competition ranking of values sorted best first: equal values share a place, the next is skipped."""
    out = []
    for i, value in enumerate(values):
        out.append(out[-1] if i and value == values[i - 1] else i + 1)
    return out


class Results(Part):
    """What the finished tables of a tournament come to; needs nothing but the core."""

    async def sync(self, tid: int) -> TournamentRow | None:
        """Copy the results of finished tables into their matches; the last one ends the tournament."""
        row = await self.get(tid)
        if row is None:
            return None
        matches = await self.matches(tid)
        for match in matches:
            if match.status != "running" or match.table_id is None:
                continue
            live = await self.core.cache.get(match.table_id)
            if live is None or live.row.status == "cancelled":
                match.status = "cancelled"
                await self._update(MatchRow, match.id, status="cancelled")
                continue
            if live.row.status != "over" or live.state is None:
                continue
            result = live.rules.result(live.state)
            values = GAMES[row.game].presentation.worth(live.state)
            match.status = "over"
            match.winners = [match.entrants[s] for s in result.winners]
            match.scores = {str(match.entrants[s]): int(v) for s, v in values.items()}
            await self._update(MatchRow, match.id, status="over", winners=match.winners, scores=match.scores)
        if (row.status == "running" and row.current_round == row.rounds
                and not any(m.status == "running" for m in matches)):
            await self._update(TournamentRow, tid, status="over")
            row.status = "over"
        return row

    async def table_finished(self, table_id: int) -> Outcome | None:
        """A table ended. When it was the last one running in its round, the round is over: an
        outcome (once per round, also across calls from several places) for the adapters to post
        the standings. ``None`` for tables outside tournaments and rounds still playing."""
        async with AsyncSession(self.db) as session:
            match = (await session.exec(select(MatchRow).where(MatchRow.table_id == table_id))).first()
        if match is None:
            return None
        tid = match.tournament_id
        async with self.core.cache.lock(-tid):  # the service's locks, keyed apart from tables' (positive) ids
            row = await self.sync(tid)
            if row is None or any(m.status == "running" for m in await self.matches(tid, match.round)):
                return None
            if any(e.get("what") == "round_over" and e.get("round") == match.round for e in row.log or []):
                return None
            await self._log(tid, "clock", "round_over", round=match.round)
        return Outcome(True, "tour.round_over", params={"tournament": tid, "chat": row.chat_key,
                                                         "round": match.round, "last": row.status == "over"})

    async def standings(self, tid: int) -> dict | None:
        """Places after the matches played so far (see the package's rulings); corrections applied."""
        row = await self.sync(tid)
        if row is None:
            return None
        corrected = {c.match_id: c.winners for c in await self.corrections(tid)}  # the latest one wins
        table = {e.id: {"entrant": e.id, "name": e.name, "captain": e.captain, "members": len(e.members),
                        "played": 0, "wins": 0, "value": 0}
                 for e in await self.entrants(tid) if e.status == "active"}
        played_rounds = set()
        for match in await self.matches(tid):
            if match.status == "running":
                continue
            played_rounds.add(match.round)
            winners = corrected.get(match.id, match.winners if match.status == "over" else [])
            for entrant in match.entrants:
                entry = table.get(entrant)
                if entry is None:
                    continue
                entry["played"] += 1
                entry["wins"] += entrant in winners
                entry["value"] += match.scores.get(str(entrant), 0)
        if row.mode == "team":
            def key(e):
                return (-e["wins"],)
        else:
            def key(e):
                return (-e["wins"], -e["value"])
        rows = sorted(table.values(), key=lambda e: (*key(e), e["name"].casefold(), e["entrant"]))
        for entry, place in zip(rows, places([key(e) for e in rows]), strict=True):
            entry["place"] = place
            entry["points"] = entry["wins"]
        return {"tournament": tid, "name": row.name, "game": row.game, "mode": row.mode, "status": row.status,
                "rounds": row.rounds, "round": row.current_round, "played": len(played_rounds), "rows": rows}
