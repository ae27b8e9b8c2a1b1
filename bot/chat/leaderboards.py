"""A chat's leaderboards (issue 48), once for every platform: ``/top`` (each game's best players
of this season and of all time, ten a page, with buttons to turn the page, switch between the
season and all time, and between the games), ``/season`` (how long the chat's seasons last, chosen
by its admins with one tap) and a season's end (its final standings as a picture and as text).

The pages' buttons carry signed data (``R:<game>:<s|a>:<page>``, ``Z:<length>``) and are read for the
chat they were pressed in: a leaderboard shows the chat it is in, whoever forwards it.
"""

from __future__ import annotations

import asyncio

from bot.chat.asker import Answer, Who
from bot.chat.screens import Button
from engine.games import GAMES
from engine.service import ratings
from engine.service.tables import GameService
from render.png import png_bytes
from render.season import render_season
from words.i18n import game_name, t

PAGE = 10  # players a page
SEASON, ALL_TIME = "s", "a"


def season_name(season: str, lang: str) -> str:
    """A season as people say it: ``2026-12``, ``2026 W49``, ``2026 Q4``."""
    return season.replace("-W", " W").replace("-Q", " Q")


class Leaderboards:
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def page(self, who: Who, game: str | None = None, scope: str = SEASON,
                   page: int = 0) -> tuple[str, list[Button]]:
        """One page of a game's leaderboard in the asker's chat; the first game with ratings there
        when ``game`` is None, the season's when the chat has one (else all time)."""
        chats = self.service.chats
        season = await chats.season(who.chat)
        if season is None:
            scope = ALL_TIME
        if game not in GAMES:
            rated = [g for g in GAMES if await chats.ratings(who.chat, g, limit=1)]
            game = (rated or list(GAMES))[0]
        everyone = await chats.ratings(who.chat, game, season if scope == SEASON else None, limit=100_000)
        pages = max(1, -(-len(everyone) // PAGE))
        page = min(max(page, 0), pages - 1)
        lang = who.lang
        title = (t(lang, "ch.top.season", game=game_name(game, lang), season=season_name(season, lang))
                 if scope == SEASON else t(lang, "ch.top.all_time", game=game_name(game, lang)))
        lines = [title + (f" · {t(lang, 'ch.top.page', page=page + 1, pages=pages)}" if pages > 1 else "")]
        shown = everyone[page * PAGE:(page + 1) * PAGE]
        lines += [f"{page * PAGE + i + 1}. {r.name}: {r.shown:.1f} ({r.wins}/{r.games})" for i, r in enumerate(shown)]
        if not shown:
            lines.append(t(lang, "ch.top.empty"))
        else:
            lines.append(t(lang, "ch.top.legend"))
        buttons = []
        if page > 0:
            buttons.append(Button(t(lang, "ch.top.prev"), f"R:{game}:{scope}:{page - 1}", -1))
        if page + 1 < pages:
            buttons.append(Button(t(lang, "ch.top.next"), f"R:{game}:{scope}:{page + 1}", -1))
        if season is not None:
            other = ALL_TIME if scope == SEASON else SEASON
            buttons.append(Button(t(lang, f"ch.top.btn.{other}"), f"R:{game}:{other}:0", -1))
        buttons += [Button(game_name(g, lang), f"R:{g}:{scope}:0", -1) for g in GAMES if g != game]
        return "\n".join(lines), buttons

    async def top(self, who: Who, answer: Answer) -> None:
        """``/top``: the first page, as a message of its own in the chat."""
        text, buttons = await self.page(who)
        await answer.reply(text, buttons)

    async def turn(self, who: Who, game: str, scope: str, page: int, answer: Answer) -> None:
        """A press on a leaderboard: the message shows the page asked for."""
        text, buttons = await self.page(who, game, scope, page)
        await answer.menu(text, buttons)

    # -- how long seasons last -------------------------------------------------------------------

    async def season_menu(self, who: Who) -> tuple[str, list[Button]]:
        length = await self.service.chats.season_length(who.chat)
        season = await self.service.chats.season(who.chat)
        text = t(who.lang, "ch.season.now", length=t(who.lang, f"ch.season.len.{length}"))
        if season is not None:
            text += "\n" + t(who.lang, "ch.season.current", season=season_name(season, who.lang))
        text += "\n" + t(who.lang, "ch.season.how")
        buttons = [Button(("✅ " if choice == length else "") + t(who.lang, f"ch.season.len.{choice}"),
                          f"Z:{choice}", -1) for choice in ratings.LENGTHS]
        return text, buttons

    async def season(self, who: Who, answer: Answer) -> None:
        """``/season``: how long this chat's seasons last, with a button per choice (admins press)."""
        text, buttons = await self.season_menu(who)
        await answer.reply(text, buttons)

    async def set_season(self, who: Who, length: str, answer: Answer) -> None:
        """An admin's choice: stored, the message shows it; the season under way ends when the
        length changes (its standings come within minutes: ``engine/service/seasons.py``)."""
        if not await who.manages():
            await answer.tell(t(who.lang, "ch.admins_only"))
            return
        before = await self.service.chats.season_length(who.chat)
        out = await self.service.chats.set_season_length(who.chat, length)
        if not out.ok:
            await answer.tell(t(who.lang, out.key, **out.params))
            return
        text, buttons = await self.season_menu(who)
        if before != length:
            text = t(who.lang, "ch.season.changed", name=who.name) + "\n" + text
        await answer.menu(text, buttons)


def season_over(params: dict, lang: str) -> str:
    """A season's final standings per game, as text (``ratings.season_over``)."""
    lines = [t(lang, "ch.season_over", season=season_name(params["season"], lang))]
    for game, best in params["standings"].items():
        lines.append(t(lang, "ch.me.game", game=game_name(game, lang)))
        lines += [f"{i + 1}. {name}: {rating:.1f} ({wins}/{games})" for i, (name, rating, wins, games)
                  in enumerate(best)]
    return "\n".join(lines + [t(lang, "ch.season_next")])


async def season_picture(params: dict, lang: str) -> bytes:
    """The same standings as a picture, like the game-end one."""
    return await asyncio.to_thread(lambda: png_bytes(render_season(season_name(params["season"], lang),
                                                                   params["standings"], lang).image))
