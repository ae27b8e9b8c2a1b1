"""Screens for the chat adapters: what the group sees, what each player sees, nothing else.

``table_screens`` turns a table's views and its latest events into one public screen (the message
that is edited in place: the table as text, a short event log, buttons for the decisions a player
must make in front of everyone) and one private screen per human seat (their own view, with the
hand in the card game, and every choice they have as buttons). Public screens are drawn only from
``view(state, None)`` and public event text, so they cannot show a hand or a deck's order; the
pictures issue adds a picture to each screen. Buttons carry the service's tokens (≤ 64 bytes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.core.errors import RuleError
from engine.service.tables import GameService
from render import board as render_board
from render import deal as render_deal
from render.png import png_bytes
from words import board_text, deal_text
from words.i18n import normalise_lang, t

# In the card game, decisions answered in front of everyone: Just Say No windows (D-13). In the
# board game nothing is hidden, so every decision of the stage is answered publicly.
PUBLIC_DEAL_DECISIONS = ("respond", "counter")
LOG_LINES = 8


@dataclass
class Button:
    label: str
    token: str
    seat: int


@dataclass
class Screen:
    text: str
    buttons: list[Button] = field(default_factory=list)
    picture: bytes | None = None  # PNG: the board or the Deal table (public), the hand (private)


@dataclass
class Screens:
    public: Screen
    private: dict[int, Screen]


def _names(service: GameService, table_id: int) -> dict[int, str]:
    return {i: s["name"] for i, s in enumerate(service.table(table_id).seats)}


async def table_screens_with_pictures(service: GameService, table_id: int, events: Iterable = (),
                                     lang: str = "zh-Hans", lang_of: Callable[[int], str] | None = None) -> Screens:
    """``table_screens`` with pictures, drawn in a worker thread so the event loop never waits."""
    ends = await service.match_ends_at(table_id)
    clock = None
    if ends is not None:
        left = max(0, int(ends - service.clock()))
        clock = f"{left // 60:02d}:{left % 60:02d}"
    return await asyncio.to_thread(table_screens, service, table_id, events, lang, lang_of, True, clock)


def table_screens(service: GameService, table_id: int, events: Iterable = (), lang: str = "zh-Hans",
                  lang_of: Callable[[int], str] | None = None, pictures: bool = False,
                  clock: str | None = None) -> Screens:
    """The public screen in the chat's ``lang``; each private one in its player's language."""
    lang = normalise_lang(lang)
    row = service.table(table_id)
    state = service.state(table_id)
    rules = service.rules(table_id)
    names = _names(service, table_id)
    events = list(events)
    decisions = rules.waiting_for(state) if row.status == "running" else []
    humans = [i for i, s in enumerate(row.seats) if not s["ai"]]

    if row.game == "deal":
        public_view = rules.view(state, None)
        text = deal_text.render_table(public_view, lang, names)
        log = [deal_text.describe_event(e, lang, names, None) for e in events]
        public_seats = {d.seat for d in decisions if d.kind in PUBLIC_DEAL_DECISIONS}
    else:
        public_view = rules.view(state, None)
        text = board_text.render_board(public_view, lang, names, row.ruleset)
        log = board_text.log_lines(events, lang, names, row.ruleset)
        public_seats = {d.seat for d in decisions}

    buttons: list[Button] = []
    for decision in decisions:
        if decision.seat not in public_seats or decision.seat not in humans:
            continue
        for action, token in _decision_buttons(service, table_id, decision):
            label = _label(row, public_view, action, lang, names)
            buttons.append(Button(f"{names[decision.seat]}: {label}", token, decision.seat))
    public = Screen("\n".join([text, *log[-LOG_LINES:]]), buttons)
    if pictures:
        if row.game == "deal":
            public.picture = png_bytes(render_deal.render_table(public_view, lang, names))
        else:
            public.picture = png_bytes(render_board.render_board(public_view, lang, names, row.ruleset, clock))

    private: dict[int, Screen] = {}
    for seat in humans:
        seat_lang = normalise_lang(lang_of(seat)) if lang_of else lang
        seat_names = names
        view = rules.view(state, seat)
        if row.game == "deal":
            body = deal_text.render_table(view, seat_lang, seat_names)
            seat_log = [deal_text.describe_event(e, seat_lang, seat_names, seat) for e in events]
        else:
            body = board_text.render_board(view, seat_lang, seat_names, row.ruleset)
            seat_log = board_text.log_lines(events, seat_lang, seat_names, row.ruleset)
        own = [Button(_label(row, view, a, seat_lang, seat_names), tok, seat)
               for a, tok in service.buttons(table_id, seat)]
        private[seat] = Screen("\n".join([body, *seat_log[-LOG_LINES:]]), own)
        if pictures and row.game == "deal":
            private[seat].picture = png_bytes(render_deal.render_hand(view, seat, seat_lang))
    return Screens(public, private)


def _decision_buttons(service: GameService, table_id: int, decision) -> list:
    """The buttons that answer one decision (not the seat's other options): the rules say which."""
    buttons = service.buttons(table_id, decision.seat)
    wanted = service.rules(table_id).answers(decision, [a for a, _ in buttons])
    return [(a, t) for a, t in buttons if a in wanted]


def _label(row, view: dict, action, lang: str, names: dict[int, str]) -> str:
    if row.game == "deal":
        return deal_text.describe_action(view, action, lang, names)
    return board_text.describe_action(view, action, lang, names, row.ruleset)


def alert_text(outcome, lang: str, game: str, ruleset: str, names: dict[int, str]) -> str:
    """The short private alert for a refused press: the rules' reason, or the service's."""
    lang = normalise_lang(lang)
    if outcome.rule:
        err = RuleError(outcome.rule, outcome.key, **outcome.params)
        if game == "deal":
            return deal_text.explain_error(err, lang, names)
        return board_text.explain_error(err, lang, ruleset, names)
    params = dict(outcome.params)
    if "seat" in params:
        params["name"] = names.get(params["seat"], "?")
    return t(lang, outcome.key or "service.bad_token", **params)


def start_time(text: str, now: float) -> float | None:
    """When a match typed by an admin starts: "+30" is thirty minutes from now; "20:30" the next
    20:30 Beijing time (UTC+8, where most players are). ``None`` when the text is neither."""
    text = text.strip()
    if text.startswith("+") and text[1:].isdigit():
        return now + 60 * int(text[1:])
    hours, _, minutes = text.partition(":")
    if not (hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60):
        return None
    day, offset = 86400, 8 * 3600
    local = (now + offset) % day
    target = int(hours) * 3600 + int(minutes) * 60
    return now + (target - local) % day or now + day
