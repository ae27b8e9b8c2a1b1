"""Live tables over WebSockets: the service's table updates in, screens out; presses in, through
``service.act`` exactly like a chat button.

Each connection watches one table, either as a player (their seat, if they have one: the public
screen and their own private screen, hand and buttons) or as a spectator (the public screen only,
no buttons: never a hand, never the deck). Screens are drawn from the service's views
(``bot/screens.py``): the same text, pictures and buttons the chat bots show, once per update and
language, in a worker thread. A page that opens gets the whole log of the game so far (from the
stored log, as its viewer may see it); then each update adds its new lines. A lobby shows its
seats, the lobby's buttons and the table's rule options (toggles its creator may press,
``o:<code>`` like a chat lobby's, and what is on); lobby changes are shown by this module (the
service publishes no update for them).

Nothing a browser sends is trusted: a message is a small JSON object of a known ``type`` with
fields of the right kind (else a clear error and nothing happens), a move token is checked by the
service like any button, and each connection may send only a few messages a second.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import time
from dataclasses import dataclass, field

import msgspec

from bot import option_screens, trade_builder
from bot.inputs import clean_name
from bot.screens import event_lines, note_lines, private_screen, public_screen, refusal_text
from engine import options as table_options
from engine.service import metrics
from engine.service.loop import TableUpdate
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from engine.service.views import PrivateView, PublicView
from words.games import WORDS
from words.i18n import t

log = logging.getLogger(__name__)

MAX_MESSAGE = 1024  # bytes: every valid message is far smaller
LOBBY_OPS = ("join", "leave", "ai", "noai", "start", "cancel")
OPTION_OP = re.compile(r"o:[a-z0-9]{1,8}")  # the creator switches a rule option (``engine.options`` codes)


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
    watch: bool  # a spectator: the public screen only
    limit: RateLimit = field(default_factory=RateLimit)

    def seat(self, view: PublicView) -> int | None:
        if self.watch or self.user is None:
            return None
        return view.seat_of(self.user)


def parse_message(text) -> tuple[dict | None, str | None]:
    """A browser's message as (fields, None), or (None, the message key saying what is wrong)."""
    if not isinstance(text, str) or len(text.encode()) > MAX_MESSAGE:
        return None, "web.err.malformed"
    try:
        data = json.loads(text)
    except ValueError:
        return None, "web.err.malformed"
    if not isinstance(data, dict) or data.get("type") not in ("press", "back", "lobby", "trade"):
        return None, "web.err.malformed"
    if data["type"] == "trade":  # the trade builder (B-15): an op of ``bot.trade_builder``
        op, values = data.get("op"), data.get("values", [])
        if not isinstance(op, str) or not trade_builder.OP.fullmatch(op) or not isinstance(values, list) \
                or len(values) > 28 or not all(isinstance(v, str) and len(v) <= 12 for v in values):
            return None, "web.err.malformed"
        return {"type": "trade", "op": op, "values": values}, None
    if data["type"] == "press":
        token = data.get("token")
        if not isinstance(token, str) or not token.isascii() or not 0 < len(token) <= 100:
            return None, "web.err.malformed"
        return {"type": "press", "token": token}, None
    if data["type"] == "lobby":
        op, name = data.get("op"), data.get("name", "")
        if not isinstance(op, str) or (op not in LOBBY_OPS and not OPTION_OP.fullmatch(op)) \
                or not isinstance(name, str) or len(name) > 64:
            return None, "web.err.malformed"
        return {"type": "lobby", "op": op, "name": name}, None
    return {"type": "back"}, None


def _kind(token: str) -> str:
    """What a private button does on the page: a move (its token goes to the service), the seat
    back, or a trade builder op (``t:<table>:<op>``: the page opens the builder)."""
    if token.startswith("b:"):
        return "back"
    return "trade" if token.startswith("t:") else "press"


def data_url(png: bytes | None) -> str | None:
    return "data:image/png;base64," + base64.b64encode(png).decode() if png else None


class Hub:
    """Every open table page of this process, by table; subscribed to the service's updates."""

    def __init__(self, service: GameService, seed: int | None = None) -> None:
        self.service = service
        self.seed = seed  # every game starts from this seed (tests); None: a fresh one each time
        self.clients: dict[int, set[Client]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        service.subscribe(self.on_update, private=True)
        service.watch_elsewhere(self.on_elsewhere)

    # -- connections ---------------------------------------------------------------------------

    async def join(self, client: Client) -> None:
        self.clients.setdefault(client.table, set()).add(client)
        await self.show(client.table, only={client})

    def leave(self, client: Client) -> None:
        clients = self.clients.get(client.table)
        if clients is not None:
            clients.discard(client)
            if not clients:
                self.clients.pop(client.table, None)

    async def receive(self, client: Client, text) -> None:
        """One message from a browser: checked, then done; every refusal is answered."""
        if not client.limit.allow():
            await self._refused(client, "web.err.too_fast")
            return
        data, problem = parse_message(text)
        if problem:
            await self._refused(client, problem)
            return
        if client.watch or client.user is None:
            await self._refused(client, "web.err.watching")
            return
        if data["type"] == "trade":
            await self._trade(client, data)
            return
        try:
            outcome = await self._do(client, data)
        except Exception:  # never let one press end the connection or the server
            log.exception("table %s: a web message failed", client.table)
            await self._send(client, {"type": "error", "message": t(client.lang, "service.error")})
            return
        if not outcome.ok:
            views = await self.service.views(client.table, seats=())
            view = views[0] if views else None
            text = refusal_text(outcome, client.lang, view.game if view else None, view.ruleset if view else "",
                                view.names if view else {})
            await self._send(client, {"type": "error", "message": text})
        elif data["type"] == "lobby":
            await self.show(client.table)  # the service publishes no update for lobby changes

    async def _refused(self, client: Client, key: str) -> None:
        """A browser message refused before it reached the game: told to the page, counted, logged."""
        metrics.REFUSALS.labels(key).inc()
        log.info("refused web message: reason=%s table=%s user=%s", key, client.table, client.user)
        await self._send(client, {"type": "error", "message": t(client.lang, key)})

    async def _trade(self, client: Client, data: dict) -> None:
        """A press on the trade builder: the builder (its summary and structured controls) goes back
        to this page only; the offer, once sent, reaches the other pages as a table update."""
        shown = await trade_builder.press(self.service, client.table, client.user, data["op"], client.lang,
                                          data["values"])
        if shown.alert:
            await self._send(client, {"type": "error", "message": shown.alert})
        if shown.text or shown.closed:
            c = shown.controls
            await self._send(client, {
                "type": "trade", "text": shown.text, "closed": shown.closed, "sent": shown.sent,
                "draft": msgspec.to_builtins(shown.draft) if shown.draft else None,
                "controls": None if shown.closed or c is None else {
                    "partners": c.partners, "mine": c.mine, "theirs": c.theirs, "cash": c.cash, "cards": c.cards,
                    "finish": c.finish}})

    async def _do(self, client: Client, data: dict):
        service, table = self.service, client.table
        if data["type"] == "press":
            return await service.act(client.user, data["token"])
        if data["type"] == "back":
            return await service.lobby.back(table, client.user)
        views = await service.views(table, seats=())
        if views is not None and not views[0].chat_key.startswith("web:"):  # a chat's lobby is the chat's
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
                await self._send(client, {"type": "error", "message": t(client.lang, "service.table_damaged",
                                                                        table=update.table)})
            return
        await self.show(update.table, update.public, update.private, new=True)

    async def show(self, table: int, public: PublicView | None = None, private: dict[int, PrivateView] | None = None,
                   only: set[Client] | None = None, new: bool = False) -> None:
        """Draw the table once per language its pages read, and send each page its screens: with
        ``new`` (an update) the log lines it adds, else (a page that opens, a change made elsewhere)
        the whole log so far."""
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:  # one table's screens go out in order
            if public is None:
                views = await self.service.views(table)
                public, private = views if views is not None else (None, {})
            clients = list(only or self.clients.get(table, ()))
            if public is None:
                for client in clients:
                    await self._send(client, {"type": "error", "message": t(client.lang, "service.no_table")})
                return
            by_lang: dict[str, list[Client]] = {}
            for client in clients:
                by_lang.setdefault(client.lang, []).append(client)
            history = None if new or public.status == "lobby" else await self.service.history(table, None)
            for lang, group in by_lang.items():
                if public.status == "lobby":
                    for client in group:
                        await self._send(client, self._lobby_message(public, client))
                    continue
                await self._show_table(public, private or {}, lang, group, history)

    async def _show_table(self, public: PublicView, private: dict[int, PrivateView], lang: str,
                          group: list[Client], history: list | None) -> None:
        names = public.names
        screen = await asyncio.to_thread(public_screen, public, lang, self.service.clock())
        events = public.events if history is None else history
        lines = event_lines(public, events, lang, names) + note_lines(public.notes, lang, names)
        result = WORDS[public.game].winners(public.winners, lang, names) if public.over else None
        base = {"type": "table", "table": public.table, "version": public.version, "status": public.status,
                "game": public.game, "names": [s.name for s in public.seats], "log": lines,
                "log_append": history is None, "result": result,
                "public": {"text": screen.text, "picture": data_url(screen.picture)}}
        for client in group:
            seat = client.seat(public)
            message = {**base, "seat": seat, "private": None}
            if seat is not None and seat in private and public.seats[seat].person:
                own = await asyncio.to_thread(private_screen, private[seat], names, lang)
                message["private"] = {
                    "text": own.text, "picture": data_url(own.picture),
                    "buttons": [{"label": b.label, "token": b.token, "kind": _kind(b.token)} for b in own.buttons]}
            await self._send(client, message)

    def _lobby_message(self, view: PublicView, client: Client) -> dict:
        seat = client.seat(view)
        # the table's rule options as the chat lobbies show them: toggles the creator may press, and
        # the "options on" line for everyone (issue 16 item 5)
        now = option_screens.values(view)
        options = [{"label": option_screens.label(client.lang, o), "op": f"o:{o.code}", "on": now[o.name]}
                   for o in table_options.toggles(view.game)]
        return {"type": "lobby", "table": view.table, "status": view.status, "game": view.game,
                "ruleset": view.ruleset, "seats": [{"name": s.name, "ai": s.ai} for s in view.seats], "seat": seat,
                "creator": client.user is not None and client.user == view.creator,
                "min": view.min_players, "max": view.max_players,
                "web": view.chat_key.startswith("web:"), "watch": client.watch,
                "options": options, "options_on": option_screens.on_line(view, client.lang)}

    async def _send(self, client: Client, message: dict) -> None:
        with contextlib.suppress(Exception):  # a closed page: it leaves on its own
            await client.ws.send_str(json.dumps(message, ensure_ascii=False))
