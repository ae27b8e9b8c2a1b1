"""The rounds: the fair draw of a round's tables (``table_sizes``, ``draw``) and their options
(``round_options``), and ``Rounds.fire``, a tournament clock run out: the round's reminder, or its
start (the entrants or the teams' representatives seated, the tables made and started through the
lobby, the next round's clock), waiting a minute while the previous round still plays and leaving a
retry behind in case the process dies half-way."""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from engine.core.rng import Rng
from engine.games import GAMES
from engine.service.core import Core
from engine.service.lobby import Lobby
from engine.service.outcome import Outcome
from engine.service.storage.rows import DeadlineRow, MatchRow, TableRow, TournamentRow
from engine.service.tournaments.base import REMIND_KIND, REMIND_SECONDS, RETRY_SECONDS, Part, chat_key_of
from engine.service.tournaments.results import Results

_MASK = (1 << 64) - 1


def table_sizes(n: int, largest: int) -> list[int]:
    """As few tables as the largest size allows, sizes differing by at most one (7 at Deal: 4 + 3)."""
    if n <= 0:
        return []
    tables = -(-n // largest)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def draw(seed: int, round_no: int, entrants: list[int], largest: int) -> list[list[int]]:
    """The fair draw of a round: a seeded shuffle (the same seed and round give the same tables)."""
    rng = Rng.from_seed((seed * 0x100000001B3 + round_no) & _MASK)
    order = sorted(entrants)
    rng.shuffle(order)
    tables, at = [], 0
    for size in table_sizes(len(order), largest):
        tables.append(order[at:at + size])
        at += size
    return tables


def round_options(game: str, chosen: dict, round_no: int, rounds: int) -> dict:
    """The options of a round's tables: the game's defaults for a round (``Game.round_defaults``:
    the board's rent claimed and no trading before the final round, seed 000), then what the
    organiser chose, which wins."""
    defaults = GAMES[game].round_defaults(round_no, rounds)
    return {**defaults, **chosen}


class Rounds(Part):
    """Starting rounds by their clocks; the lobby starts the tables, the results tell whether the
    previous round still plays."""

    def __init__(self, core: Core, lobby: Lobby, results: Results) -> None:
        super().__init__(core)
        self.lobby = lobby
        self.results = results

    async def fire(self, deadline: DeadlineRow) -> Outcome:
        """A tournament clock ran out: the next round starts, or its reminder is due (the sweeper
        claimed it once)."""
        if deadline.kind == REMIND_KIND:
            return await self._reminder(deadline)
        tid, round_no = deadline.tournament_id, deadline.version
        row = await self.get(tid)
        if row is None or row.status not in ("signup", "running") or round_no != row.current_round + 1:
            return Outcome(False, "tour.no_tournament", params={"tournament": tid})
        await self.results.sync(tid)
        if any(m.status == "running" for m in await self.matches(tid, row.current_round)):
            await self._add_deadline(tid, round_no, self._now() + RETRY_SECONDS)  # last round still playing
            return Outcome(False, "tour.round_waits", params={"tournament": tid, "chat": row.chat_key,
                                                              "round": round_no})
        seats_of = await self._players_for(row, round_no)
        rules = GAMES[row.game].rules
        low, high = rules.min_players, rules.max_players
        if len(seats_of) < low:
            await self._update(TournamentRow, tid, status="cancelled")
            await self._log(tid, "clock", "too_few", round=round_no)
            return Outcome(False, "tour.too_few", params={"tournament": tid, "chat": row.chat_key, "min": low})
        # a process that dies half-way leaves this retry behind; the next try skips the tables made
        retry = await self._add_deadline(tid, round_no, self._now() + RETRY_SECONDS)
        made = {m.table_no: m for m in await self.matches(tid, round_no)}
        tables = draw(row.seed, round_no, list(seats_of), high)
        rng = Rng.from_seed((row.seed ^ (round_no * 0x9E3779B97F4A7C15)) & _MASK)
        options = round_options(row.game, dict(row.options), round_no, row.rounds)
        card_clock = GAMES[row.game].card_clock
        if card_clock and "card" in row.clocks:
            options[card_clock] = row.clocks["card"]  # D-16: the rules own the card clock
        table_ids, match_ids = [], []
        for n, group in enumerate(tables, 1):
            seed = rng.next64() >> 1  # drawn for every table, so a retry gives each table the same deal
            match = made.get(n)
            if match is None:
                table = TableRow(chat_key=chat_key_of(row.chat_key, tid, round_no, n), game=row.game,
                                       ruleset=row.ruleset, creator=row.created_by, clocks=dict(row.clocks),
                                       seats=[dict(seats_of[e]) for e in group],
                                       format=self.core.formats.for_new())
                async with AsyncSession(self.db) as session:  # the table and its match together
                    session.add(table)
                    await session.flush()
                    match = MatchRow(tournament_id=tid, round=round_no, table_no=n, table_id=table.id,
                                           entrants=list(group))
                    session.add(match)
                    await session.commit()
                    await session.refresh(match)
            live = await self.core.cache.get(match.table_id)
            if live.row.status == "lobby":  # shown once the round is announced (the clocks kick it)
                out = await self.lobby.start(match.table_id, row.created_by, seed=seed,
                                                     match_minutes=row.match_minutes, options=options, kick=False)
                if not out.ok:
                    return out
            table_ids.append(match.table_id)
            match_ids.append(match.id)
        await self._update(TournamentRow, tid, status="running", current_round=round_no)
        if round_no < row.rounds:
            await self._add_round(tid, round_no + 1, self._now() + 60 * row.every_minutes)
        await self._update(DeadlineRow, retry, status="moot")
        return Outcome(True, "tour.round_started", params={"tournament": tid, "chat": row.chat_key, "round": round_no,
                                                           "tables": table_ids, "matches": match_ids})

    async def _reminder(self, deadline: DeadlineRow) -> Outcome:
        """Players hear that a round is near; in team play captains still have time to name theirs."""
        row = await self.get(deadline.tournament_id)
        if row is None or row.status not in ("signup", "running") or deadline.version != row.current_round + 1:
            return Outcome(False, "tour.no_tournament", params={"tournament": deadline.tournament_id})
        key = "tour.round_soon_team" if row.mode == "team" else "tour.round_soon"
        entrants = [e for e in await self.entrants(row.id) if e.status == "active"]
        return Outcome(True, key, params={"tournament": row.id, "chat": row.chat_key, "round": deadline.version,
                                          "minutes": REMIND_SECONDS // 60, "entrants": len(entrants)})

    async def _players_for(self, row: TournamentRow, round_no: int) -> dict[int, dict]:
        """Entrant id -> the seat it gets this round (the player, or the team's representative)."""
        out = {}
        for entrant in await self.entrants(row.id):
            if entrant.status != "active" or not entrant.members:
                continue
            user = entrant.representatives.get(str(round_no), entrant.captain)
            member = next((m for m in entrant.members if m["user"] == user), entrant.members[0])
            name = member["name"] if row.mode == "solo" else f"{member['name']} ({entrant.name})"
            out[entrant.id] = {"user": member["user"], "name": name, "ai": member["user"].startswith("ai:")}
        return out
