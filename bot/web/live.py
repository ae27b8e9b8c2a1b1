"""Live tables over WebSockets: the service's table updates in, screens out; presses in, through
``service.act`` exactly like a chat button.

Each connection watches one table, either as a player (their seat, if they have one: the public
screen and their own private screen, hand and buttons) or as a spectator (the public screen only,
no buttons: never a hand, never the deck). Screens are the presenter's (``table_screens``): the
same text, pictures and buttons the chat bots show, drawn once per update and language in a worker
thread. A lobby shows its seats, the lobby's buttons and the table's rule options (toggles its
creator may press, ``o:<code>`` like a chat lobby's, and what is on); lobby changes are shown by this module
(the service publishes no update for them).

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
from collections import deque
from dataclasses import dataclass, field

import msgspec

from bot import option_screens, trade_builder
from bot.inputs import clean_name
from bot.presenter import alert_text, clock_text, event_lines, note_lines, table_screens
from engine import options as table_options
from engine.service import metrics
from engine.service.lobby import is_ai_user
from engine.service.loop import Snapshot, TableUpdate
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from words.i18n import t

log = logging.getLogger(__name__)

MAX_MESSAGE = 1024  # bytes: every valid message is far smaller
LOG_KEEP = 40  # lines of a table's log kept for pages that open later
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

    def seat(self, snap: Snapshot) -> int | None:
        if self.watch or self.user is None:
            return None
        return snap.seat_of(self.user)


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
        self.logs: dict[tuple[int, str], deque] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        service.subscribe(self.on_update)
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
            snap = await self.service.snapshot(client.table)
            row = snap.row if snap else None
            text = alert_text(outcome, client.lang, row.game if row else "deal", row.ruleset if row else "",
                              snap.names if snap else {})
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
        snap = await service.snapshot(table)
        if snap is not None and not snap.row.chat_key.startswith("web:"):  # a chat's lobby is the chat's
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
        if update.snapshot is None:  # damaged: nothing to draw
            for client in list(self.clients.get(update.table, ())):
                await self._send(client, {"type": "error", "message": t(client.lang, "service.table_damaged",
                                                                        table=update.table)})
            return
        await self.show(update.table, update.snapshot, update.events, update.notes, update.match_ends_at)

    async def show(self, table: int, snap: Snapshot | None = None, events=(), notes=(), ends_at=None,
                   only: set[Client] | None = None) -> None:
        """Draw the table once per language its pages read, and send each page its screens."""
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:  # one table's screens go out in order
            if snap is None:
                snap = await self.service.snapshot(table)
            clients = list(only or self.clients.get(table, ()))
            if snap is None:
                for client in clients:
                    await self._send(client, {"type": "error", "message": t(client.lang, "service.no_table")})
                return
            if ends_at is None and snap.row.status in ("running", "paused"):
                ends_at = await self.service.match_ends_at(table)
            by_lang: dict[str, list[Client]] = {}
            for client in clients:
                by_lang.setdefault(client.lang, []).append(client)
            for lang, group in by_lang.items():
                if snap.row.status == "lobby" or snap.state is None:
                    for client in group:
                        await self._send(client, self._lobby_message(snap, client))
                    continue
                new_lines = []
                if only is None:  # an update: its events join the log
                    new_lines = event_lines(snap, events, lang) + note_lines(notes, lang, snap.names)
                    self.logs.setdefault((table, lang), deque(maxlen=LOG_KEEP)).extend(new_lines)
                seats = sorted({s for c in group if (s := c.seat(snap)) is not None and not is_ai_user(c.user or "")})
                clock = clock_text(ends_at, self.service.clock())
                screens = await asyncio.to_thread(table_screens, self.service, snap, events, lang, None, True,
                                                  clock, seats)
                public = {"text": screens.public.text, "picture": data_url(screens.public.picture)}
                base = {"type": "table", "table": table, "version": snap.version, "status": snap.row.status,
                        "game": snap.game, "names": [s["name"] for s in snap.row.seats],
                        "log": list(self.logs.get((table, lang), ())), "public": public}
                for client in group:
                    seat = client.seat(snap)
                    message = {**base, "seat": seat, "private": None}
                    if seat is not None and seat in screens.private:
                        own = screens.private[seat]
                        message["private"] = {
                            "text": own.text, "picture": data_url(own.picture),
                            "buttons": [{"label": b.label, "token": b.token, "kind": _kind(b.token)}
                                        for b in own.buttons]}
                    await self._send(client, message)

    def _lobby_message(self, snap: Snapshot, client: Client) -> dict:
        row = snap.row
        seat = client.seat(snap)
        rules = snap.rules
        # the table's rule options as the chat lobbies show them: toggles the creator may press, and
        # the "options on" line for everyone (issue 16 item 5)
        now = option_screens.values(row)
        options = [{"label": option_screens.label(client.lang, o), "op": f"o:{o.code}", "on": now[o.name]}
                   for o in table_options.toggles(row.game)]
        return {"type": "lobby", "table": row.id, "status": row.status, "game": row.game, "ruleset": row.ruleset,
                "seats": [{"name": s["name"], "ai": bool(s["ai"])} for s in row.seats], "seat": seat,
                "creator": client.user is not None and client.user == row.creator,
                "min": rules.min_players, "max": rules.max_players,
                "web": row.chat_key.startswith("web:"), "watch": client.watch,
                "options": options, "options_on": option_screens.on_line(row, client.lang)}

    async def _send(self, client: Client, message: dict) -> None:
        with contextlib.suppress(Exception):  # a closed page: it leaves on its own
            await client.ws.send_str(json.dumps(message, ensure_ascii=False))
