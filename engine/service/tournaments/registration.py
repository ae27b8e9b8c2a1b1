"""Setting a tournament up and signing up for it: ``create`` (admins only; the first round's clock),
entering alone (``sign_up``, ``withdraw``), teams (``create_team``, ``join_team``) and a captain
naming who plays a match (``name_representative``)."""

from __future__ import annotations

import secrets

from sqlmodel.ext.asyncio.session import AsyncSession

from engine.games import GAMES
from engine.service.clock_rules import DEFAULT_CLOCKS
from engine.service.outcome import Outcome, game_and_ruleset
from engine.service.storage.rows import EntrantRow, TournamentRow
from engine.service.tournaments.base import MODES, Part


class Registration(Part):
    """A tournament made and its entrants signed up; it needs neither the lobby nor the clocks (the
    first round's start is a row, ``Part._add_round``)."""

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

    async def _entrant_of(self, tid: int, user: str) -> EntrantRow | None:
        for entrant in await self.entrants(tid):
            if entrant.status == "active" and any(m["user"] == user for m in entrant.members):
                return entrant
        return None
