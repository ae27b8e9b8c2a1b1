"""Tournaments: rounds of timed tables in one chat, individual or team entry, and their standings.

Seed 000 plays several tables at once, each 30 minutes, a preliminary round without trading;
seed 004 plays 10 matches in which every team sends one representative, 45 minutes each, one
point per match won, equal points sharing a place. This module runs both on top of the
``GameService``: it keeps ``tables.py`` to single games and only adds what a tournament needs
(entrants and teams, the draw, a round's tables, standings, an admin's corrections).

Everything lives in the database: a round's start is a ``DeadlineRow`` with ``tournament_id``
(fired by the service's sweeper, claimed once), each table of a round is an ordinary table with a
chat key of its own (``<chat>#t<tournament>r<round>n<table>``, so an adapter can give it a thread
or forum topic) and its own match clock; results are read back from the finished tables.

Rulings where the seeds are silent:
- A shared win (equal valuation at time-out, B-17 / D-16) gives every co-winner a full win, and in
  team play a full point each: nobody "lost" that match.
- Individual standings: wins, then the sum of the valuations of all the entrant's matches (taken
  when the match ends, by time or otherwise); equal on both, the place is shared. Team standings:
  points only (seed 004), equal points share a place and the next place is skipped (10, 7, 7, 3 →
  1, 2, 2, 4).
- A team's representative is named per match by its captain; a team that named nobody for a
  match is represented by its captain. A substitute or an AI seat put in by an admin plays for the
  entrant whose seat it is: the result counts for that entrant.
- Fewer than two entrants when the first round is due: the tournament is called off. A round
  whose previous round still has a table running waits a minute and tries again.
- Pausing holds every clock of the tournament (round start, match clocks, decision clocks) and
  stops moves; resuming moves each of them later by the time the pause lasted.
- A cancelled table counts for nobody unless an admin corrects its result.
- When the last table of a round ends (by the rules, the clock or an admin), the round is over and
  the adapters post the standings once (``table_finished``).
- Board tournaments follow seed 000 unless the organiser chose otherwise (``round_options``): rent
  must be claimed (``rent_claim``, when the engine has it), and the preliminary rounds forbid
  trading (``no_trading``). "Preliminary" is every round but the last: the last round is the
  final, so a one-round tournament trades freely. An option the organiser named (``no_trading``
  on or off, ``rent_claim=off``) holds in every round instead.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import or_, update
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.core.rng import Rng
from engine.games import GAMES
from engine.service.clock_rules import DEFAULT_CLOCKS
from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.lobby import Lobby
from engine.service.loop import TableLoop
from engine.service.outcome import Outcome, game_and_ruleset
from engine.service.storage import queries
from engine.service.storage.rows import (
    OPEN_CLOCKS,
    CorrectionRow,
    DeadlineRow,
    EntrantRow,
    MatchRow,
    TableRow,
    TournamentRow,
)

MODES = ("solo", "team")
ROUND_KIND = "tour.round"
REMIND_KIND = "tour.remind"
REMIND_SECONDS = 5 * 60  # a round is announced this long before it starts
RETRY_SECONDS = 60
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


def places(values: list[Any]) -> list[int]:
    """Competition ranking of values sorted best first: equal values share a place, the next is skipped."""
    out = []
    for i, value in enumerate(values):
        out.append(out[-1] if i and value == values[i - 1] else i + 1)
    return out


def chat_key_of(chat_key: str, tournament: int, round_no: int, table_no: int) -> str:
    return f"{chat_key}#t{tournament}r{round_no}n{table_no}"


def base_chat(key: str) -> str:
    """The chat a tournament table belongs to (its own key without the ``#t…`` part)."""
    return key.split("#", 1)[0]


class Tournaments:
    """The tournament operations; admin rights are decided by the adapter and passed as ``is_admin``.

    Made with every service (``GameService.tournaments``), so that whichever process runs the clock
    task (a bot, or a plain ``tycoon web``) starts rounds on time: it registers with the service's
    clocks for the rounds' clocks and with its loop for the end of each table (a round may end
    with it)."""

    def __init__(self, core: Core, lobby: Lobby, clocks: Clocks, loop: TableLoop) -> None:
        self.core = core
        self.db = core.db
        self.lobby = lobby
        clocks.handle("tournament", self.fire)
        loop.when_finished(self.table_finished, key="tournaments")

    @classmethod
    def of(cls, service) -> Tournaments:
        """A service's tournaments (``GameService.tournaments``)."""
        return service.tournaments

    def _now(self) -> float:
        return self.core.clock()

    # -- reading ---------------------------------------------------------------------------------

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

    async def _entrant_of(self, tid: int, user: str) -> EntrantRow | None:
        for entrant in await self.entrants(tid):
            if entrant.status == "active" and any(m["user"] == user for m in entrant.members):
                return entrant
        return None

    # -- setting up ------------------------------------------------------------------------------

    async def create(self, chat_key: str, admin: str, is_admin: bool, game: str, ruleset: str | None = None, *,
                     starts_at: float, rounds: int = 1, mode: str = "solo", match_minutes: int | None = None,
                     options: dict | None = None, clocks: dict | None = None, signup_until: float | None = None,
                     every_minutes: int | None = None, name: str = "", seed: int | None = None) -> Outcome:
        """A tournament for a chat (admins only): the rounds start at ``starts_at`` and every
        ``every_minutes`` after (by default the match length and ten minutes to spare)."""
        if not is_admin:
            return Outcome(False, "tour.admins_only")
        ruleset, refused = game_and_ruleset(game, ruleset)
        if refused:
            return refused
        if mode not in MODES:
            return Outcome(False, "tour.bad_mode")
        options = dict(options or {})
        try:
            resolved = GAMES[game].rules.new_game(2, {"ruleset": ruleset, **options}, 0).options
        except (ValueError, TypeError):
            return Outcome(False, "tour.bad_option", params={"options": ", ".join(sorted(options))})
        minutes = match_minutes or getattr(resolved, "match_minutes", 0) or 30
        clocks = {k: int(v) for k, v in (clocks or {}).items()}
        if any(p not in DEFAULT_CLOCKS or not 5 <= v <= 3600 for p, v in clocks.items()):
            return Outcome(False, "service.bad_clock", params={"policies": ", ".join(sorted(DEFAULT_CLOCKS))})
        every = every_minutes or minutes + 10
        signup_until = starts_at if signup_until is None else signup_until
        now = self._now()
        if not (1 <= minutes <= 24 * 60 and 1 <= rounds <= 50 and every >= minutes and now < starts_at
                and now < signup_until <= starts_at):
            return Outcome(False, "tour.bad_setup")
        row = TournamentRow(chat_key=chat_key, name=name, game=game, ruleset=ruleset, options=options,
                                  clocks=clocks, match_minutes=minutes, mode=mode, rounds=rounds,
                                  every_minutes=every, signup_until=signup_until, starts_at=starts_at,
                                  seed=secrets.randbits(63) if seed is None else seed, created_by=admin,
                                  log=[{"at": now, "by": admin, "what": "create"}])
        tid = (await self._insert(row)).id
        await self._add_round(tid, 1, starts_at)
        return Outcome(True, params={"tournament": tid})

    async def _open_for_signup(self, tid: int) -> tuple[TournamentRow | None, Outcome | None]:
        row = await self.get(tid)
        if row is None or row.status in ("over", "cancelled"):
            return None, Outcome(False, "tour.no_tournament")
        if row.status != "signup" or self._now() > row.signup_until:
            return None, Outcome(False, "tour.signup_closed")
        return row, None

    async def sign_up(self, tid: int, actor: str, name: str, user: str | None = None,
                      is_admin: bool = False) -> Outcome:
        """A player signs themselves up (an admin may sign someone else up)."""
        user = user or actor
        if user != actor and not is_admin:
            return Outcome(False, "tour.only_yourself")
        row, refused = await self._open_for_signup(tid)
        if refused:
            return refused
        if row.mode == "team":
            return Outcome(False, "tour.teams_only")
        if await self._entrant_of(tid, user) is not None:
            return Outcome(False, "tour.already_entered")
        entrant = await self._insert(EntrantRow(tournament_id=tid, name=name, captain=user,
                                                      members=[{"user": user, "name": name}]))
        return Outcome(True, params={"tournament": tid, "entrant": entrant.id})

    async def withdraw(self, tid: int, user: str) -> Outcome:
        """Before the first round a player (or a team's captain, for the team) can step back."""
        row, refused = await self._open_for_signup(tid)
        if refused:
            return refused
        entrant = await self._entrant_of(tid, user)
        if entrant is None:
            return Outcome(False, "tour.not_entered")
        if entrant.captain != user:
            members = [m for m in entrant.members if m["user"] != user]
            await self._update(EntrantRow, entrant.id, members=members)
        else:
            await self._update(EntrantRow, entrant.id, status="withdrawn")
        return Outcome(True, params={"tournament": tid})

    async def create_team(self, tid: int, captain: str, captain_name: str, team_name: str) -> Outcome:
        """A captain signs a team up; the captain is its first member."""
        row, refused = await self._open_for_signup(tid)
        if refused:
            return refused
        if row.mode != "team":
            return Outcome(False, "tour.solo_only")
        team_name = team_name.strip()[:40]
        if not team_name:
            return Outcome(False, "tour.team_name_needed")
        if await self._entrant_of(tid, captain) is not None:
            return Outcome(False, "tour.already_entered")
        teams = [e for e in await self.entrants(tid) if e.status == "active"]
        if any(e.name.casefold() == team_name.casefold() for e in teams):
            return Outcome(False, "tour.team_name_taken", params={"team": team_name})
        team = await self._insert(EntrantRow(tournament_id=tid, name=team_name, captain=captain,
                                                   members=[{"user": captain, "name": captain_name}]))
        return Outcome(True, params={"tournament": tid, "team": team.id})

    async def join_team(self, tid: int, team_id: int, user: str, name: str) -> Outcome:
        """A player joins a team themselves (a player belongs to one entrant at most)."""
        row, refused = await self._open_for_signup(tid)
        if refused:
            return refused
        team = await self._team(tid, team_id)
        if team is None:
            return Outcome(False, "tour.no_team")
        if await self._entrant_of(tid, user) is not None:
            return Outcome(False, "tour.already_entered")
        await self._update(EntrantRow, team.id, members=[*team.members, {"user": user, "name": name}])
        return Outcome(True, params={"tournament": tid, "team": team.id})

    async def _team(self, tid: int, team_id: int) -> EntrantRow | None:
        async with AsyncSession(self.db) as session:
            team = await session.get(EntrantRow, team_id)
        return team if team is not None and team.tournament_id == tid and team.status == "active" else None

    async def name_representative(self, tid: int, actor: str, team_id: int, round_no: int | None,
                                  user: str) -> Outcome:
        """The captain names who plays the team's match ``round_no`` (the next one when None)."""
        row = await self.get(tid)
        if row is None or row.status in ("over", "cancelled"):
            return Outcome(False, "tour.no_tournament")
        team = await self._team(tid, team_id)
        if team is None:
            return Outcome(False, "tour.no_team")
        if team.captain != actor:
            return Outcome(False, "tour.captain_only", params={"team": team.name})
        round_no = round_no or row.current_round + 1
        if not row.current_round < round_no <= row.rounds:
            return Outcome(False, "tour.round_closed", params={"round": round_no})
        if not any(m["user"] == user for m in team.members):
            return Outcome(False, "tour.not_a_member", params={"team": team.name})
        await self._update(EntrantRow, team.id, representatives={**team.representatives, str(round_no): user})
        return Outcome(True, params={"tournament": tid, "team": team.id, "round": round_no})

    # -- rounds ----------------------------------------------------------------------------------

    async def fire(self, deadline: DeadlineRow) -> Outcome:
        """A tournament clock ran out: the next round starts, or its reminder is due (the sweeper
        claimed it once)."""
        if deadline.kind == REMIND_KIND:
            return await self._reminder(deadline)
        tid, round_no = deadline.tournament_id, deadline.version
        row = await self.get(tid)
        if row is None or row.status not in ("signup", "running") or round_no != row.current_round + 1:
            return Outcome(False, "tour.no_tournament", params={"tournament": tid})
        await self.sync(tid)
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
                                       seats=[dict(seats_of[e]) for e in group])
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

    async def _add_round(self, tid: int, round_no: int, due_at: float) -> None:
        """A round's start, and its reminder a few minutes before when there is time for one."""
        await self._add_deadline(tid, round_no, due_at)
        if due_at - REMIND_SECONDS > self._now():
            await self._add_deadline(tid, round_no, due_at - REMIND_SECONDS, REMIND_KIND)

    async def _reminder(self, deadline: DeadlineRow) -> Outcome:
        """Players hear that a round is near; in team play captains still have time to name theirs."""
        row = await self.get(deadline.tournament_id)
        if row is None or row.status not in ("signup", "running") or deadline.version != row.current_round + 1:
            return Outcome(False, "tour.no_tournament", params={"tournament": deadline.tournament_id})
        key = "tour.round_soon_team" if row.mode == "team" else "tour.round_soon"
        entrants = [e for e in await self.entrants(row.id) if e.status == "active"]
        return Outcome(True, key, params={"tournament": row.id, "chat": row.chat_key, "round": deadline.version,
                                          "minutes": REMIND_SECONDS // 60, "entrants": len(entrants)})

    async def _add_deadline(self, tid: int, round_no: int, due_at: float, kind: str = ROUND_KIND) -> int:
        row = await self._insert(DeadlineRow(tournament_id=tid, version=round_no, kind=kind, due_at=due_at))
        return row.id

    async def _insert(self, row):
        return await self.core.insert(row)

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

    # -- the admin's tools ---------------------------------------------------------------------

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
        await self.sync(tid)
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
        await self.sync(tid)
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

    # -- standings -------------------------------------------------------------------------------

    async def standings(self, tid: int) -> dict | None:
        """Places after the matches played so far (see the module's rulings); corrections applied."""
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
