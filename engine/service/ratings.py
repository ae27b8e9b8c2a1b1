"""Ratings: why a group comes back (issue 48). One rating per player, game and scope: the chat the
game was played in (all time), the chat's season (``<chat>@2026-12``: by default a calendar month in
UTC, so every month starts afresh) and ``*`` for every chat; from openskill's Plackett-Luce model (Weng-Lin, made
for free-for-all games of 2 to 8 players; a well-kept library, not a home-made Elo). A chat's
admins choose how long its seasons last (``LENGTHS``: a week, a calendar month (the default), a
quarter, or no seasons); each result keeps the season it was rated in (``results.season``).

**Which games are rated** (``placings``): a game that ended (``over``; a cancelled or abandoned one
writes no result at all) with at least two people who played it to its end. Seats are rated only
for people who held them at the end: an AI seat (a computer player) and a person's seat the AI kept
at the end (they left, or missed their clocks) are not rated, and the game is rated among the others;
with fewer than two left it is unrated. AI seats are opponents, not rated players: a win against
them moves no rating (their strength would need a fixed rating per level, which a group's few games
cannot calibrate).

**Placings**: the winners first (a shared win is a tie), then the others by their final score (the
valuation of a timed game), equal scores tied, without scores all tied behind the winners.

**Once per game, in one order.** Results are rated in the order ``rate_pending`` takes them (under
the migration's lock, so processes take turns), and each result keeps its place in that order
(``results.rated``): ``rebuild`` rates the stored results again in that order from nothing and must
give the stored ratings back (a test does). A result a process has not rated yet (it stopped first,
or the database was older) is rated by the next ``rate_pending`` of any process.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from openskill.models import PlackettLuce
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.service.outcome import is_ai_user
from engine.service.storage.migrate import MIGRATION_LOCK, file_lock
from engine.service.storage.rows import ChatSettingsRow, RatingRow, ResultRow

MODEL = PlackettLuce()  # mu 25, sigma 25/3: openskill's defaults
EVERYWHERE = "*"


@dataclass
class Rating:
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    name: str = ""

    @property
    def shown(self) -> float:
        """What a standings table shows: a cautious estimate (mu - 3 sigma), rising with games."""
        return self.mu - 3 * self.sigma


Key = tuple[str, str, str]  # (scope, game, user)


def scope_of(chat_key: str) -> str:
    """The chat a result belongs to (a tournament table's key without its ``#t…`` part)."""
    return chat_key.split("#", 1)[0]


LENGTHS = ("week", "month", "quarter", "off")  # how long a chat's seasons last; "off": no seasons
NO_SEASON = "-"  # a result's season in a chat without seasons


def season_of(at: float, length: str = "month") -> str | None:
    """The season of a chat whose seasons last ``length`` at the time ``at`` (UTC): ``2026-12``
    for a calendar month, ``2026-W49`` for an ISO week, ``2026-Q4`` for a quarter; None without
    seasons."""
    when = time.gmtime(at)
    if length == "off":
        return None
    if length == "week":
        return time.strftime("%G-W%V", when)
    if length == "quarter":
        return f"{when.tm_year}-Q{(when.tm_mon - 1) // 3 + 1}"
    return time.strftime("%Y-%m", when)


def result_season(result: ResultRow) -> str | None:
    """The season a result counts in: the one stored when it was rated (results rated before
    seasons had lengths: the month it finished in)."""
    if result.season == NO_SEASON:
        return None
    return result.season or season_of(result.finished_at)


def season_scope(chat_key: str, season: str) -> str:
    """A chat's ratings of one season (they start afresh each season; the chat's all-time ones go on)."""
    return f"{scope_of(chat_key)}@{season}"


def placings(result: ResultRow) -> list[tuple[str, str, int, bool]] | None:
    """(user, name, place, won) for each rated seat of a finished game; None when it is unrated."""
    people = [(i, s) for i, s in enumerate(result.seats) if not is_ai_user(s.get("user", "")) and not s.get("ai")]
    if len(people) < 2:
        return None
    scores = {int(k): v for k, v in (result.scores or {}).items()}
    others = sorted({scores.get(i) for i, _ in people if i not in result.winners and i in scores}, reverse=True)
    out = []
    for i, seat in people:
        if i in result.winners:
            place = 1
        elif i in scores:
            place = 2 + others.index(scores[i])
        else:
            place = 2 + len(others)
        out.append((seat["user"], seat.get("name", ""), place, i in result.winners))
    return out


def rate(ratings: dict[Key, Rating], result: ResultRow) -> dict[Key, Rating]:
    """The ratings ``result`` moves (in the chat's scope and everywhere), from ``ratings`` as they
    stand; empty for an unrated game."""
    placed = placings(result)
    if placed is None:
        return {}
    moved: dict[Key, Rating] = {}
    season = result_season(result)
    scopes = [scope_of(result.chat_key), EVERYWHERE]
    if season is not None:
        scopes.insert(1, season_scope(result.chat_key, season))
    for scope in scopes:
        keys = [(scope, result.game, user) for user, _name, _place, _won in placed]
        before = [ratings.get(k) or Rating(MODEL.mu, MODEL.sigma) for k in keys]
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = MODEL.rate(teams, ranks=[place for _u, _n, place, _w in placed])
        for key, old, [new], (_user, name, _place, won) in zip(keys, before, after, placed, strict=True):
            moved[key] = Rating(new.mu, new.sigma, old.games + 1, old.wins + won, name or old.name)
    return moved


def rebuild(results: list[ResultRow]) -> dict[Key, Rating]:
    """Every rating, from the results alone, in the order they were rated."""
    ratings: dict[Key, Rating] = {}
    for result in sorted((r for r in results if r.rated), key=lambda r: r.rated):
        ratings.update(rate(ratings, result))
    return ratings


async def rate_pending(db: AsyncEngine) -> int:
    """Rate every finished game not rated yet, in the order of their ids, each once across all
    processes; how many."""
    async with file_lock(db), db.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK + 1})")
        async with AsyncSession(bind=conn) as session:
            pending = (await session.exec(select(ResultRow).where(ResultRow.rated == 0)
                                          .order_by(ResultRow.id))).all()
            users = {s["user"] for r in pending for s in r.seats}
            stored = (await session.exec(select(RatingRow).where(RatingRow.user.in_(users)))).all() if users else []
            chats = {scope_of(r.chat_key) for r in pending}
            lengths = dict((await session.exec(select(ChatSettingsRow.chat_key, ChatSettingsRow.season)
                                               .where(ChatSettingsRow.chat_key.in_(chats)))).all()) if chats else {}
        if not pending:
            return 0
        last = (await conn.execute(text("SELECT COALESCE(MAX(rated), 0) FROM results"))).scalar()
        ratings = {(r.scope, r.game, r.user): Rating(r.mu, r.sigma, r.games, r.wins, r.name) for r in stored}
        changed: dict[Key, Rating] = {}
        for n, result in enumerate(pending, start=last + 1):
            # the season it counts in: the chat's, as its admins set the length now (kept with it)
            result.season = season_of(result.finished_at, lengths.get(scope_of(result.chat_key), "month")) or NO_SEASON
            moved = rate(ratings, result)
            ratings.update(moved)
            changed.update(moved)
            await conn.execute(text("UPDATE results SET rated = :n, season = :s WHERE id = :id"),
                               {"n": n, "s": result.season, "id": result.id})
        now = time.time()
        for (scope, game, user), r in changed.items():
            values = {"scope": scope, "game": game, "user": user, "name": r.name, "mu": r.mu, "sigma": r.sigma,
                      "games": r.games, "wins": r.wins, "now": now}
            done = await conn.execute(text(
                'UPDATE ratings SET name = :name, mu = :mu, sigma = :sigma, games = :games, wins = :wins, '
                'updated_at = :now WHERE scope = :scope AND game = :game AND "user" = :user'), values)
            if done.rowcount == 0:
                await conn.execute(text(
                    'INSERT INTO ratings (scope, game, "user", name, mu, sigma, games, wins, updated_at) '
                    'VALUES (:scope, :game, :user, :name, :mu, :sigma, :games, :wins, :now)'), values)
        return len(pending)


async def board(db: AsyncEngine, scope: str, game: str, limit: int = 10) -> list[Rating]:
    """The best ratings of ``game`` in a scope (a chat, or ``EVERYWHERE``), highest shown first."""
    async with AsyncSession(db) as session:
        rows = (await session.exec(select(RatingRow).where(RatingRow.scope == scope, RatingRow.game == game))).all()
    ranked = sorted((Rating(r.mu, r.sigma, r.games, r.wins, r.name) for r in rows),
                    key=lambda r: (-r.shown, -r.games, r.name))
    return ranked[:limit]


async def standing(db: AsyncEngine, scope: str, game: str, user: str) -> tuple[Rating, int, int] | None:
    """A player's rating in a scope with their rank among its players (1: the best) and how many
    there are; None when they have none there."""
    everyone = await board(db, scope, game, limit=100_000)
    async with AsyncSession(db) as session:
        mine = await session.get(RatingRow, (scope, game, user))
    if mine is None:
        return None
    rating = Rating(mine.mu, mine.sigma, mine.games, mine.wins, mine.name)
    rank = 1 + sum(1 for r in everyone if r.shown > rating.shown)
    return rating, rank, len(everyone)


async def stored(db: AsyncEngine) -> dict[Key, Rating]:
    async with AsyncSession(db) as session:
        rows = (await session.exec(select(RatingRow))).all()
    return {(r.scope, r.game, r.user): Rating(r.mu, r.sigma, r.games, r.wins, r.name) for r in rows}


async def results(db: AsyncEngine) -> list[ResultRow]:
    async with AsyncSession(db) as session:
        return list((await session.exec(select(ResultRow).order_by(ResultRow.id))).all())
