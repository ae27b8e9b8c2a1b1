"""A finished game's page (issue 48): who won and everyone ranked, the net-worth chart, and a replay
to step through move by move, the table as each moment showed it to the group.

Routes (``server.py`` serves the page, this module its data):

- ``/r/<table>?k=<signed R:table>`` the page (``auth.result_path``: a signed, unguessable link, like
  the spectator's, meant to be shared from the chat's game-end message); a bad or unsigned link, or
  a game that is not over, gets the "missing" page with a 404;
- ``GET /api/result/<table>?k=…`` the page's data (``result_data``; also in the page's config);
- ``GET /api/replay/<table>?k=…&from=N`` a page of frames (``PAGE`` of them, from the page that
  holds move N): the first whole, each next one a patch of the one before;
- ``POST /api/rematch/<table>`` ``{"k", "name"}``: the rematch (``rematch.py``), for a web table.

**Frames.** Frame 0 is the table as the game opened, frame N the table after the N-th move of the
stored log (seed and actions, replayed as ``engine.service.views`` replays them for the chart): the
rules' public view (``rules.view(state, None)``: no hand, no deck order), each seat's worth, the
turn, whose turn, the status, and the move's events as the group saw them, worded in the reader's
language. A page never carries a hand the group never saw.

**Size.** A board game runs to a thousand turns and more (1,000+ moves; a public view is about 3 kB):
the whole game as frames would be megabytes. So frames go in pages of ``PAGE``: a page's first
frame whole, every other as a patch of the one before (``patch``: ``[[path, value], …]``, or
``[path]`` for a key that went), gzip on the wire. The replay is built once per finished table (in a
worker thread) and kept for the last ``KEEP`` tables this process was asked for, with each page
encoded once per language.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import msgspec
from aiohttp import web

from bot.chat.inputs import clean_name
from bot.chat.presenter import refused_text
from bot.web import auth
from bot.web.api import _json_body, _post_guard
from bot.web.context import HUB, SERVICE, id_in_path, lang_of, refuse, user_of
from bot.web.messages import say
from bot.web.rematch import rematch, rematch_of
from engine.games import GAMES
from engine.service.storage import queries
from engine.service.tables import GameService
from engine.service.views import PublicView
from words.games import WORDS
from words.i18n import ruleset_name, t
from words.results import worth_ranking

log = logging.getLogger(__name__)

PAGE = 100  # frames per page of the replay API
KEEP = 8  # finished tables whose replay this process keeps
PAGES_KEPT = 48  # encoded pages kept per table (pages × languages)
ENDING_LINES = 3  # what ended the game: the last few lines of its log


# -- patches: a frame as the changes from the one before ---------------------------------------


def diff(before: Any, after: Any, path: tuple = (), out: list | None = None) -> list:
    """The changes that make ``before`` into ``after`` (plain JSON data): ``[path, value]`` sets the
    value at ``path`` (keys and list indexes), ``[path]`` removes a key. Dicts and lists of the same
    length are gone into; anything else is set whole. ``True`` and ``1`` differ (as in JSON)."""
    out = [] if out is None else out
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            if key not in after:
                out.append([[*path, key]])
        for key, value in after.items():
            if key not in before:
                out.append([[*path, key], value])
            else:
                diff(before[key], value, (*path, key), out)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (x, y) in enumerate(zip(before, after, strict=True)):
            diff(x, y, (*path, i), out)
    elif type(before) is not type(after) or before != after:
        out.append([list(path), after])
    return out


def patched(frame: Any, patch: list) -> Any:
    """``frame`` with ``patch`` applied (a copy; what replay.js does, for the tests)."""
    frame = json.loads(json.dumps(frame))
    for op in patch:
        path = op[0]
        if not path:
            frame = op[1]
            continue
        *parents, last = path
        node = frame
        for key in parents:
            node = node[key]
        if len(op) == 1:
            del node[last]
        else:
            node[last] = op[1]
    return frame


# -- a finished game's frames --------------------------------------------------------------------


@dataclass
class Frames:
    """A finished table's replay: a whole frame at each page's start, a patch for every other, the
    events of each frame's move as the group saw them, who made it, where each turn starts, and the
    net-worth chart's series (each seat's worth at every turn's start and at the end)."""

    table: int
    game: str
    ruleset: str
    names: dict[int, str]
    keys: dict[int, dict] = field(default_factory=dict)  # frame number (a page's start) -> the frame
    patches: list[list] = field(default_factory=list)  # patches[n]: frame n from frame n - 1
    events: list[list] = field(default_factory=list)  # events[n]: frame n's move's events (0: the opening)
    by: list[int | None] = field(default_factory=list)  # the seat that made frame n's move
    turns: list[list[int]] = field(default_factory=list)  # [turn, the frame it starts at]
    series: dict[int, list[int]] = field(default_factory=dict)
    pages: OrderedDict = field(default_factory=OrderedDict)  # (lang, start) -> the page, encoded

    @property
    def total(self) -> int:
        """How many moves (the last frame's number)."""
        return len(self.patches) - 1


def _frame(rules, shown, state) -> dict:
    board = rules.view(state, None)
    result = rules.result(state)
    return msgspec.to_builtins({
        "view": board, "worth": shown.worth(state), "turn": getattr(state, "turn_number", None),
        "current": board.get("current"), "status": "over" if result.over else "running",
        "winners": list(result.winners) if result.over else []}, str_keys=True)


def build(table: int, game: str, ruleset: str, names: dict[int, str], seats: int, options: Any, seed: int,
          log_: list[tuple[int, Any]], page: int = PAGE) -> Frames:
    """Every frame of a game from its seed and log (pure: run in a worker thread)."""
    rules, shown = GAMES[game].rules, GAMES[game].presentation
    if rules.new_game_with_events is None:
        state, opening = rules.new_game(seats, options, seed), []
    else:
        state, opening = rules.new_game_with_events(seats, options, seed)
    frames = Frames(table, game, ruleset, names)
    now = _frame(rules, shown, state)
    frames.keys[0] = now
    frames.patches.append([])
    frames.events.append(shown.events_for(list(opening), None))
    frames.by.append(None)
    samples: dict[int, list[int]] = {s: [] for s in range(seats)}
    last_turn = object()

    def sample(frame: dict) -> None:
        for s in samples:
            samples[s].append(frame["worth"].get(str(s), 0))  # a bankrupt player is worth nothing

    for n, (seat, action) in enumerate(log_, start=1):
        if now["turn"] != last_turn:  # the chart samples each turn's start (engine.play.history)
            last_turn = now["turn"]
            frames.turns.append([now["turn"], n - 1])
            sample(now)
        events = rules.apply(state, seat, action)
        after = _frame(rules, shown, state)
        frames.patches.append(diff(now, after))
        frames.events.append(shown.events_for(events, None))
        frames.by.append(seat if seat >= 0 else None)
        if n % page == 0:
            frames.keys[n] = after
        now = after
    if not frames.turns or frames.turns[-1][0] != now["turn"]:
        frames.turns.append([now["turn"], frames.total])
    sample(now)
    frames.series = samples
    return frames


def lines_of(frames: Frames, n: int, lang: str) -> list[str]:
    events = frames.events[n]
    return WORDS[frames.game].events(list(events), lang, frames.names, frames.ruleset, None) if events else []


def page_of(frames: Frames, start: int, lang: str, page: int = PAGE) -> bytes:
    """The page of frames that holds frame ``start``, encoded (kept per language)."""
    start = max(0, min(start, frames.total))
    start -= start % page
    key = (lang, start)
    kept = frames.pages.get(key)
    if kept is not None:
        frames.pages.move_to_end(key)
        return kept
    out = []
    for n in range(start, min(frames.total, start + page - 1) + 1):
        item: dict = {"n": n, "by": frames.by[n], "log": lines_of(frames, n, lang)}
        if n == start:
            item["frame"] = frames.keys[start]
        else:
            item["patch"] = frames.patches[n]
        out.append(item)
    body = json.dumps({"table": frames.table, "from": start, "page": page, "total": frames.total, "frames": out},
                      ensure_ascii=False, separators=(",", ":")).encode()
    frames.pages[key] = body
    while len(frames.pages) > PAGES_KEPT:
        frames.pages.popitem(last=False)
    return body


class Replays:
    """The replays of the finished tables this process was last asked for (``KEEP``), each built
    once even when several pages ask at the same time."""

    def __init__(self, service: GameService, keep: int = KEEP) -> None:
        self.service, self.keep = service, keep
        self.kept: OrderedDict[int, Frames] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self.built = 0  # how many replays were built (the tests count them)

    async def frames(self, table: int) -> Frames | None:
        """The replay of a finished table; None when there is no such table or it is not over."""
        if table in self.kept:
            self.kept.move_to_end(table)
            return self.kept[table]
        lock = self._locks.setdefault(table, asyncio.Lock())
        try:
            async with lock:
                if table in self.kept:
                    return self.kept[table]
                frames = await self._build(table)
                if frames is not None:
                    self.kept[table] = frames
                    while len(self.kept) > self.keep:
                        self.kept.popitem(last=False)
                return frames
        finally:
            if not lock.locked():
                self._locks.pop(table, None)

    async def _build(self, table: int) -> Frames | None:
        service = self.service
        live = await service.cache.get(table)
        if live is None or live.state is None or live.row.status != "over":
            return None
        async with service.cache.lock(table):
            row, rules = live.row, live.rules
            seats, options, seed, version = len(row.seats), row.options or row.ruleset, row.seed, row.version
            names = {i: s["name"] for i, s in enumerate(row.seats)}
            game, ruleset = row.game, row.ruleset
        entries = [e for e in await queries.load_log(service.db, table) if e.seq <= version]
        moves = [(e.seat, rules.decode_action(e.action)) for e in entries]
        self.built += 1
        return await asyncio.to_thread(build, table, game, ruleset, names, seats, options, seed, moves)


REPLAYS = web.AppKey("replays", Replays)


# -- the page's data -------------------------------------------------------------------------------


async def achievements(service: GameService, view: PublicView, lang: str) -> list[dict]:
    """The achievements earned in this game (issue 48), each ``{"seat", "key", "name", "how"}``
    (``name`` and ``how`` worded in ``lang``), shown by the page under the result: read from the
    game's log, as its end message named them (``bot.chat.results.feats_line``), people only."""
    told = await service.seen.story(view.table)
    if told is None:
        return []
    return [{"seat": seat, "key": key, "name": t(lang, f"feat.{key}"), "how": t(lang, f"feat.{key}.how")}
            for seat, keys in sorted(told.feats.items()) if 0 <= seat < len(view.seats)
            and view.seats[seat].person and not view.seats[seat].ai for key in keys]


def _split(line: str, name: str, place: int) -> tuple[str, str, str]:
    """A ranking line around the player's name (the page links the name): before, name, after."""
    at = line.find(name, len(str(place)) + 1) if name else -1
    if at < 0:
        return line, "", ""
    return line[:at], name, line[at + len(name):]


def _ranking(view: PublicView, series: dict[int, list[int]], lang: str) -> list[tuple[int, str]]:
    """Everyone ranked as the chat's game-end message ranks them (``bot.chat.results``)."""
    words, names = WORDS[view.game], view.names
    if words.ranking is not None:
        return words.ranking(view.board, view.worth, view.winners, lang, names, view.ruleset, series)
    return worth_ranking(list(range(len(view.seats))), view.worth, view.winners, lang, names)


async def result_data(service: GameService, replays: Replays, table: int, lang: str) -> dict | None:
    """Everything the finished game's page shows but the frames; None when it is not over."""
    view = await service.public_view(table)
    if view is None or not view.over:
        return None
    frames = await replays.frames(table)
    if frames is None:
        return None
    names = view.names
    ranked = []
    for place, (seat, line) in enumerate(_ranking(view, frames.series, lang), start=1):
        before, name, after = _split(line, names.get(seat, ""), place)
        ranked.append({"seat": seat, "place": place, "line": line, "before": before, "name": name, "after": after,
                       "winner": seat in view.winners})
    ending: list[str] = []
    for n in range(frames.total, -1, -1):
        if len(ending) >= ENDING_LINES:
            break
        ending = lines_of(frames, n, lang)[-(ENDING_LINES - len(ending)):] + ending
    key = service.sign(f"R:{table}")
    lobby = await rematch_of(service, view)
    return {
        "table": table, "game": view.game, "ruleset": view.ruleset, "ruleset_name": ruleset_name(view.ruleset, lang),
        "status": view.status, "title": WORDS[view.game].winners(view.winners, lang, names),
        "seats": [{"name": s.name, "ai": not s.person, "person": s.person,
                   "profile": auth.profile_path(service.sign, s.user) if s.person else None} for s in view.seats],
        "winners": list(view.winners), "worth": {str(k): v for k, v in view.worth.items()},
        "ranking": ranked, "ending": ending,
        "series": {str(k): v for k, v in frames.series.items()},
        "replay": {"api": f"/api/replay/{table}?k={key}", "page": PAGE, "moves": frames.total,
                   "turns": frames.turns},
        # a rematch is the web table's own (a chat's table has the chat's Rematch button)
        "rematch": {"allowed": view.chat_key.startswith("web:"), "table": lobby},
        # the achievements (issue 48): [{"seat", "key", "name", "how"}], filled by ``achievements``
        "achievements": await achievements(service, view, lang),
    }


# -- the API ---------------------------------------------------------------------------------------


def _signed_table(request: web.Request) -> int | None:
    table = id_in_path(request)
    if table is None or request.app[SERVICE].unsign(request.query.get("k", "")) != f"R:{table}":
        return None
    return table


async def result_api(request: web.Request) -> web.Response:
    lang = lang_of(request)
    table = _signed_table(request)
    if table is None:
        return refuse(404, lang, "web.err.result_key")
    data = await result_data(request.app[SERVICE], request.app[REPLAYS], table, lang)
    if data is None:
        return refuse(404, lang, "web.result.not_over")
    response = web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False, separators=(",", ":")))
    response.enable_compression()
    return response


async def replay_api(request: web.Request) -> web.Response:
    """A page of frames: ``{"table", "from", "page", "total", "frames": [{"n", "by", "log", "frame" |
    "patch"}]}``; ``from`` (the query's, at most ``total``) rounded down to its page's start."""
    lang = lang_of(request)
    table = _signed_table(request)
    if table is None:
        return refuse(404, lang, "web.err.result_key")
    asked = request.query.get("from", "0")
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 7):
        return refuse(400, lang, "web.err.malformed")
    frames = await request.app[REPLAYS].frames(table)
    if frames is None:
        return refuse(404, lang, "web.result.not_over")
    body = page_of(frames, int(asked), lang)
    response = web.Response(body=body, content_type="application/json", charset="utf-8",
                            headers={"Cache-Control": "private, max-age=3600"})
    response.enable_compression()
    return response


async def rematch_api(request: web.Request) -> web.Response:
    """The rematch of a finished web table, from its result page: ``{"table", "url"}`` of the lobby."""
    refused = _post_guard(request)
    if refused:
        return refused
    lang, service = lang_of(request), request.app[SERVICE]
    table, body, user = id_in_path(request), await _json_body(request), user_of(request)
    if user is None:
        return refuse(403, lang, "web.err.no_session")
    if body is None or not isinstance(body.get("k"), str) or not isinstance(body.get("name", ""), str) \
            or len(body.get("name", "")) > 64:
        return refuse(400, lang, "web.err.malformed")
    if table is None or service.unsign(body["k"]) != f"R:{table}":
        return refuse(404, lang, "web.err.result_key")
    ended = await service.public_view(table)
    if ended is None:
        return refuse(404, lang, "service.no_table")
    hub = request.app[HUB]
    outcome = await rematch(service, ended, user, clean_name(body.get("name") or None, t(lang, "web.guest")),
                            seed=hub.seed)
    if not outcome.ok:
        return web.json_response({"error": await refused_text(service, outcome, lang, say)}, status=400)
    for shown in (table, outcome.table):  # the pages open on either table see the change
        if shown in hub.clients:
            await hub.show(shown)
    return web.json_response({"table": outcome.table, "url": f"/t/{outcome.table}"})


def add_routes(app: web.Application) -> None:
    app[REPLAYS] = Replays(app[SERVICE])
    app.router.add_get("/api/result/{table}", result_api)
    app.router.add_get("/api/replay/{table}", replay_api)
    app.router.add_post("/api/rematch/{table}", rematch_api)
