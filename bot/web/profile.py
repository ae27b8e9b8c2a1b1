"""A player's profile page (issue 48): per game, their rating and rank in every chat together and in
each chat they played in (this season, all time), their games, wins and win streaks, and their latest
games, each linking to its finished game's page (``replay.py``). The figures are the service's
(``engine.service.profiles``); this module words them and links them.

Routes (``server.py`` serves the page): ``/p/<user>?k=<signed P:user>`` (``auth.profile_path``: a
signed link, like the spectator's; a bad or unsigned one gets the "missing" page with a 404) and
``GET /api/profile/<user>?k=…`` its data (``profile_data``; also in the page's config).

Which chat: the service knows a chat by its key only (``tg:-100123``, ``dc:456``); a chat is shown
by a neutral label of its platform ("Telegram chat", numbered when there are several), every web
table together as "Web tables"; ``name`` is left for a chat's name once the service keeps one.
"""

from __future__ import annotations

import json

from aiohttp import web

from bot.web import auth
from bot.web.context import SERVICE, lang_of, refuse
from engine.service import profiles
from engine.service.tables import GameService
from words.i18n import game_name, t

KINDS = ("tg", "dc", "web")  # the platforms a chat's label names (``web.profile.chat.<kind>``)


def signed_user(service: GameService, user: str | None, key: str | None) -> str | None:
    """The user a profile link opens, when ``key`` is the signature of exactly that user."""
    if not user or not key or service.unsign(key) != f"P:{user}":
        return None
    return user


def _labels(places: list[str], lang: str) -> dict[str, dict]:
    """Each place (a chat's scope, or the web's tables as one) as {"kind", "label", "name"}."""
    kinds = {p: (profiles.WEB if p == profiles.WEB else p.split(":", 1)[0]) for p in places}
    out, counted = {}, {}
    for place in places:
        kind = kinds[place] if kinds[place] in KINDS else "other"
        label = t(lang, f"web.profile.chat.{kind}")
        if sum(1 for k in kinds.values() if k == kinds[place]) > 1:
            counted[kind] = counted.get(kind, 0) + 1
            label = t(lang, "web.profile.chat_n", label=label, n=counted[kind])
        out[place] = {"kind": kind, "label": label, "name": None}  # a chat's name: not kept by the service
    return out


async def achievements(service: GameService, user: str, lang: str) -> list[dict]:
    """The achievements ``user`` earned (issue 48, ``engine/service/feats.py``), each ``{"game",
    "key", "name", "how", "count", "first_table"}`` (``name`` and ``how`` worded in ``lang``;
    ``first_table``: the game it was first earned in, which the page links to its result page)."""
    return [{"game": e.game, "key": e.key, "name": t(lang, f"feat.{e.key}"), "how": t(lang, f"feat.{e.key}.how"),
             "count": e.count, "first_table": e.first_table} for e in await service.chats.achievements(user)]


async def profile_data(service: GameService, user: str, lang: str) -> dict:
    """The page's data::

        {"user", "name", "games": [{"game", "game_name", "everywhere": {"games", "wins", "streak",
          "best_streak", "rating"}, "chats": [{"kind", "label", "name", "games", "wins", "streak",
          "best_streak", "season", "rating"}]}],
         "recent": [{"table", "game", "game_name", "won", "players", "finished_at", "where", "url"}],
         "achievements": [{"game", "key", "name", "how", "count", "first_table", "first_url"}]}

    each ``rating``/``season``: {"rating", "rank", "of", "games", "wins"} or None (unrated there)."""
    raw = await profiles.profile(service.db, user)
    places = list(dict.fromkeys([c["place"] for g in raw["games"] for c in g["chats"]]
                                + [r["place"] for r in raw["recent"]]))
    labels = _labels(places, lang)
    games = [{"game": g["game"], "game_name": game_name(g["game"], lang), "everywhere": g["everywhere"],
              "chats": [{**labels[c["place"]], **{k: v for k, v in c.items() if k != "place"}} for c in g["chats"]]}
             for g in raw["games"]]
    recent = [{"table": r["table"], "game": r["game"], "game_name": game_name(r["game"], lang), "won": r["won"],
               "players": r["players"], "finished_at": r["finished_at"], "where": labels[r["place"]]["label"],
               "url": auth.result_path(service.sign, r["table"])} for r in raw["recent"]]
    # the achievements (issue 48): [{"game", "key", "name", "how", "count", "first_table"}], each given
    # here the link to the game it was first earned in (``first_url``)
    earned = [{**a, "first_url": auth.result_path(service.sign, a["first_table"]) if a.get("first_table") else None}
              for a in await achievements(service, user, lang)]
    return {"user": user, "name": raw["name"] or t(lang, "web.guest"), "games": games, "recent": recent,
            "achievements": earned}


async def profile_api(request: web.Request) -> web.Response:
    lang, service = lang_of(request), request.app[SERVICE]
    user = signed_user(service, request.match_info.get("user"), request.query.get("k"))
    if user is None:
        return refuse(404, lang, "web.err.profile_key")
    return web.json_response(await profile_data(service, user, lang),
                             dumps=lambda d: json.dumps(d, ensure_ascii=False, separators=(",", ":")))


def add_routes(app: web.Application) -> None:
    app.router.add_get("/api/profile/{user}", profile_api)

