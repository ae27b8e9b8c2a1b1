"""Live tables over WebSockets: the service's table updates in, the table as data out; presses in,
through ``service.act`` exactly like a chat button.

Each connection watches one table, either as a player (their seat, if they have one: the public
view and their own part, hand and moves) or as a spectator (the public view only, no moves: never a
hand, never the deck). A page is sent the game's fixed parts once (``atlas``), then the table
(``messages.table_message``) once per update, drawn by the page itself: a few kilobytes, not a
picture. A page that opens gets the whole log of the game so far (from the stored log, as its
viewer may see it); then each update adds its new lines. A lobby shows its seats, the lobby's
buttons and the table's rule options; lobby changes are shown by this module (the service
publishes no update for them). A page asks for what only its player sees on request: the Deal
discard pile (D-18), the trade builder (B-15). A board player asked for a bid may type its amount
(``service.typed``, as the chats' typed bid). A finished web table offers a rematch (``rematch.py``)
to its players and spectators alike, as the chats' Rematch button is anyone's in the chat.

Nothing a browser sends is trusted (``messages.parse_message``), a move token is checked by the
service like any button, and each connection may send only a few messages a second. Only tables
someone watches are drawn, and nothing is kept for a table nobody watches.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass, field

import msgspec

from bot.chat import trade_builder
from bot.chat.inputs import clean_name
from bot.chat.presenter import pile_answer, refused_text
from bot.web.atlas import atlas
from bot.web.auth import result_path, watch_path
from bot.web.messages import lobby_message, own_part, parse_message, say, table_message
from bot.web.rematch import invited, rematch, rematch_of
from engine.core.errors import RuleError
from engine.games import GAMES
from engine.service import metrics
from engine.service.lobby import runs
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from engine.service.updates import TableUpdate
from engine.service.views import PrivateView, PublicView
from words.board_text import explain_error
from words.i18n import t

log = logging.getLogger(__name__)


class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second."""

    def __init__(self, rate: float = 4.0, burst: float = 12.0, clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class Client:
    ws: object  # aiohttp's WebSocketResponse (anything with ``send_str``)
    table: int
    user: str | None
    lang: str
    watch: bool  # a spectator: the public view only
    limit: RateLimit = field(default_factory=RateLimit)
    atlas: bool = False  # the game's fixed parts were sent

    def seat(self, view: PublicView) -> int | None:
        if self.watch or self.user is None:
            return None
        return view.seat_of(self.user)


class Hub:
    """Every open table page of this process, by table; subscribed to the service's updates."""

    def __init__(self, service: GameService, seed: int | None = None) -> None:
        self.service = service
        self.seed = seed  # every game starts from this seed (tests); None: a fresh one each time
        self.clients: dict[int, set[Client]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        service.subscribe(self.on_update, private=True, tables=self.clients.__contains__)  # watched tables only
        service.notices.watch(self.on_elsewhere)

    # -- connections ---------------------------------------------------------------------------

    async def join(self, client: Client) -> None:
        self.clients.setdefault(client.table, set()).add(client)
        await self.show(client.table, only={client})

    def leave(self, client: Client) -> None:
        clients = self.clients.get(client.table)
        if clients is not None:
            clients.discard(client)
            if not clients:  # nobody watches: nothing kept for the table
                self.clients.pop(client.table, None)
                self._locks.pop(client.table, None)

    async def receive(self, client: Client, text) -> None:
        """One message from a browser: checked, then done; every refusal is answered."""
        if not client.limit.allow():
            await self._refused(client, "web.err.too_fast")
            return
        data, problem = parse_message(text)
        if problem:
            await self._refused(client, problem)
            return
        if client.user is None or (client.watch and data["type"] != "rematch"):
            await self._refused(client, "web.err.watching")
            return
        try:
            if data["type"] == "trade":
                await self._trade(client, data)
                return
            if data["type"] == "pile":
                await self._pile(client)
                return
            if data["type"] == "rematch":
                await self._rematch(client, data["name"])
                return
            outcome = await self._do(client, data)
        except Exception:  # never let one press end the connection or the server
            log.exception("table %s: a web message failed", client.table)
            await self._send(client, {"type": "error", "message": t(client.lang, "service.error")})
            return
        if not outcome.ok:
            text = await refused_text(self.service, outcome, client.lang, say)
            await self._send(client, {"type": "error", "message": text})
        elif data["type"] == "lobby":
            await self.show(client.table)  # the service publishes no update for lobby changes

    async def _refused(self, client: Client, key: str) -> None:
        """A browser message refused before it reached the game: told to the page, counted, logged."""
        metrics.REFUSALS.labels(key).inc()
        log.info("refused web message: reason=%s table=%s user=%s", key, client.table, client.user)
        await self._send(client, {"type": "error", "message": say(client.lang, key)})

    async def _pile(self, client: Client) -> None:
        """D-18: the discard pile for a player the rules let look through it now (else why not)."""
        cards, text = await pile_answer(self.service, client.user, client.table, client.lang)
        if cards is None:
            await self._send(client, {"type": "error", "message": text})
            return
        await self._send(client, {"type": "pile", "cards": cards, "text": text})

    async def _trade(self, client: Client, data: dict) -> None:
        """A press on the trade builder: the builder (its summary and structured controls) goes back
        to this page only; the offer, once sent, reaches the other pages as a table update."""
        op, values = data["op"], data["values"]
        if op == "s" and values:  # "Send offer" with the cash typed in the page's fields: set first, then sent
            shown = await trade_builder.press(self.service, client.table, client.user, "xm", client.lang, values)
            if shown.alert or shown.closed:  # the amounts refused (or no builder): said, and nothing is sent
                op = None
        shown = shown if op is None else await trade_builder.press(self.service, client.table, client.user, op,
                                                                   client.lang, [] if op == "s" else values)
        if shown.alert:
            await self._send(client, {"type": "error", "message": shown.alert})
        if shown.sent is not None and not await trade_builder.still_open(self.service, client.table, shown.sent):
            # answered already (an AI seat): no receipt saying "sent"; the builder goes and the table
            # update says how the offer ended, under the player's moves
            await self._send(client, {"type": "trade", "text": "", "closed": True, "sent": shown.sent,
                                      "draft": None, "controls": None, "gone": True})
            return
        if shown.text or shown.closed:
            c = shown.controls
            # a receipt: why no other offer may be made now (one offer between two rolls), when so
            why = self.trade_note(client.table, client.user, client.lang) if shown.sent is not None else None
            await self._send(client, {
                "type": "trade", "text": shown.text, "closed": shown.closed, "sent": shown.sent, "why": why,
                "draft": msgspec.to_builtins(shown.draft) if shown.draft else None,
                "controls": None if shown.closed or c is None else {
                    "partners": c.partners, "mine": c.mine, "theirs": c.theirs, "cash": c.cash, "cards": c.cards,
                    "finish": c.finish}})

    def trade_note(self, table: int, user: str, lang: str) -> str | None:
        """Why ``user`` may not propose a trade at ``table`` now, in words, or None when they may (or
        the game has no trading): the game's own answer to "start a draft" (``drafts.start``)."""
        live = self.service.cache.peek(table)
        drafts = GAMES[live.row.game].presentation.drafts if live is not None and live.row.game in GAMES else None
        state = live.committed() if drafts is not None and live.row.status == "running" else None
        seat = live.seat_of(user) if state is not None else None
        if seat is None:
            return None
        refused = drafts.start(state, seat)
        if not isinstance(refused, RuleError):
            return None
        names = {i: s["name"] for i, s in enumerate(live.row.seats)}
        return explain_error(refused, lang, live.row.ruleset, names)

    async def _rematch(self, client: Client, name: str) -> None:
        """Rematch pressed: the page goes to the lobby; every page of the finished table is told where."""
        ended = await self.service.public_view(client.table)
        if ended is None:
            await self._send(client, {"type": "missing", "message": say(client.lang, "service.no_table")})
            return
        outcome = await rematch(self.service, ended, client.user, clean_name(name, t(client.lang, "web.guest")),
                                seed=self.seed)
        if not outcome.ok:
            text = await refused_text(self.service, outcome, client.lang, say)
            await self._send(client, {"type": "error", "message": text})
            return
        await self._send(client, {"type": "rematch", "table": outcome.table})
        await self.show(client.table)
        if outcome.table in self.clients:  # pages already at the lobby see who sat down
            await self.show(outcome.table)

    async def _do(self, client: Client, data: dict):
        service, table = self.service, client.table
        if data["type"] == "press":
            return await service.act(client.user, data["token"])
        if data["type"] == "amount":
            return await service.typed(client.user, table, data["amount"])
        if data["type"] == "back":
            return await service.lobby.back(table, client.user)
        view = await service.public_view(table)
        if view is not None and not view.chat_key.startswith("web:"):  # a chat's lobby is the chat's
            return Outcome(False, "web.err.not_web_table")
        name = clean_name(data["name"], t(client.lang, "web.guest"))
        return await service.lobby.op(table, data["op"], client.user, name, seed=self.seed)

    # -- showing -------------------------------------------------------------------------------

    async def on_elsewhere(self, table: int) -> None:
        """Another process changed a table (a move there, someone joined its lobby there): show it
        as it is now, so that a page follows the table whichever process took the press."""
        if table in self.clients:
            with contextlib.suppress(Exception):  # a page that cannot be drawn now is drawn at the next change
                await self.show(table)

    async def on_update(self, update: TableUpdate) -> None:
        if update.table not in self.clients:
            return
        if update.public is None:  # damaged: nothing to draw
            for client in list(self.clients.get(update.table, ())):
                await self._send(client, {"type": "error", "message": say(client.lang, "service.table_damaged",
                                                                          table=update.table)})
            return
        await self.show(update.table, update.public, update.private, new=True)

    async def show(self, table: int, public: PublicView | None = None, private: dict[int, PrivateView] | None = None,
                   only: set[Client] | None = None, new: bool = False) -> None:
        """Send each page of the table what it shows: with ``new`` (an update) the log lines it
        adds, else (a page that opens, a change made elsewhere) the whole log so far; a page that
        opens gets the game's fixed parts first."""
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:  # one table's messages go out in order
            if public is None:
                views = await self.service.views(table)
                public, private = views if views is not None else (None, {})
            clients = list(only or self.clients.get(table, ()))
            if public is None:
                for client in clients:
                    await self._send(client, {"type": "missing", "message": say(client.lang, "service.no_table")})
                return
            history = None if new or public.status == "lobby" else await self.service.seen.history(table, None)
            series = await self.service.seen.worth_series(table) if public.over else None  # the end screen's chart
            again = await rematch_of(self.service, public)
            asked = await invited(self.service, public)
            watch = watch_path(self.service.sign, table)
            by_lang: dict[str, list[Client]] = {}
            for client in clients:
                by_lang.setdefault(client.lang, []).append(client)
            for lang, group in by_lang.items():
                if public.status == "lobby":
                    for client in group:
                        creator = client.user is not None and client.user == public.creator
                        hosts = client.user is not None and not client.watch and runs(
                            public.creator, [{"user": s.user, "ai": s.ai} for s in public.seats], client.user)
                        await self._send(client, {**lobby_message(public, lang, client.seat(public), creator,
                                                                  client.watch, hosts, asked), "watch_path": watch})
                    continue
                message = table_message(public, lang, self.service.clock(), history, "/picture" + watch[len("/watch"):])
                message.update(rematch=again, watch_path=watch, web=public.chat_key.startswith("web:"),
                               result_path=result_path(self.service.sign, table) if public.over else None)
                if series is not None:
                    message["series"] = series
                for client in group:
                    if not client.atlas:
                        client.atlas = True
                        await self._send(client, atlas(public.game, public.ruleset, lang))
                    seat = client.seat(public)
                    own = (private or {}).get(seat) if seat is not None and public.seats[seat].person else None
                    part = own_part(public, own, lang) if own is not None else None
                    if part is not None and part["moves"] and not any(e["op"] == "trade" for e in part["extras"]):
                        part["trade_note"] = self.trade_note(table, client.user, lang)  # why no "Propose a trade"
                    await self._send(client, {**message, "seat": seat, "own": part})

    async def _send(self, client: Client, message: dict) -> None:
        with contextlib.suppress(Exception):  # a closed page: it leaves on its own
            await client.ws.send_str(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
