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

from bot.inputs import number
from engine.board.rules import valuation as board_valuation
from engine.board.trades import trade_template
from engine.core.errors import RuleError
from engine.service import tokens
from engine.service.lobby import is_ai_user
from engine.service.loop import Snapshot
from engine.service.tables import GameService
from render import board as render_board
from render import deal as render_deal
from render.png import png_bytes
from words import board_text, deal_text
from words.i18n import normalise_lang, t

# In the card game, the decisions asked right under the table: Just Say No windows (D-13). Their
# answers stay private (who holds a Just Say No is hidden: every target is asked the same way and
# answers in their own screen). In the board game nothing is hidden: every decision of the stage
# is answered on the table message.
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


def snapshot_now(service: GameService, table: int | Snapshot) -> Snapshot | None:
    """The table as it stands in this process (no copy: for drawing at once, in this thread)."""
    if isinstance(table, Snapshot):
        return table
    live = service.cache.peek(table)
    if live is None:
        return None
    return Snapshot(live.row.id, live.row.version, live.row, live.rules, live.state)


def clock_text(ends_at: float | None, now: float) -> str | None:
    """The match clock as a picture shows it (mm:ss left), when a match is timed."""
    if ends_at is None:
        return None
    left = max(0, int(ends_at - now))
    return f"{left // 60:02d}:{left % 60:02d}"


# the clocks of the player on turn worth showing on the table (answers out of turn have prompts)
TURN_POLICIES = ("turn", "card")


def clock_line(lang: str, names: dict[int, str], waiting: Iterable, current: int | None,
               match_ends_at: float | None, now: float, when: Callable[[float], str] | None = None) -> str | None:
    """The clocks that run, for the table message: the deadline of the player on turn (their turn
    clock, or in the Deal tournament the 10 s card clock, D-16) and the match clock (mm:ss left).
    ``when`` words a deadline (Discord: a live ``<t:…:R>``); by default the seconds left now.
    None when no clock runs (AI seats answer at once and have none)."""
    parts = []
    mine = next((w for w in waiting if w.seat == current and w.policy in TURN_POLICIES and w.due_at is not None),
                None)
    if mine is not None:
        left = when(mine.due_at) if when else t(lang, "ui.clock.seconds", seconds=max(0, round(mine.due_at - now)))
        parts.append(t(lang, f"ui.clock.{mine.policy}", name=names.get(mine.seat, "?"), when=left))
    match = clock_text(match_ends_at, now)
    if match is not None:
        parts.append(t(lang, "ui.clock.match", left=match))
    return " · ".join(parts) or None


def discard_pile_cards(snap: Snapshot, seat: int | None) -> list[int] | None:
    """The Deal discard pile (bottom first) as ``seat`` may look through it, or None when the rules
    do not let them (D-18 tournament: only the player whose turn it is) or the table is no card
    game. What a text list or a picture of the pile is drawn from."""
    if snap.game != "deal" or snap.state is None:
        return None
    return snap.rules.view(snap.state, seat).get("discard")


def discard_pile_answer(snap: Snapshot | None, seat: int | None, lang: str) -> tuple[bool, str]:
    """What a press of "Discard pile" answers: (True, the pile as text) for a player who may look
    through it, else (False, why not and what to do instead)."""
    lang = normalise_lang(lang)
    if snap is None or seat is None or snap.state is None:
        return False, t(lang, "service.not_a_player")
    cards = discard_pile_cards(snap, seat)
    return cards is not None, discard_pile_words(cards, lang, snap.names)


def discard_pile_words(cards: list[int] | None, lang: str, names: dict[int, str]) -> str:
    """The discard pile listed, or (``cards`` None: the rules do not let this seat look, D-18)
    why not: the words every front end shows, the terminal's ``pile`` too."""
    if cards is None:
        return deal_text.explain_error(RuleError("D-18", "deal.err.discard_private"), lang, names)
    return deal_text.discard_pile_text(cards, lang)


def discard_pile_picture(cards: list[int] | None, lang: str) -> bytes | None:
    """The cards ``discard_pile_cards`` gave as a picture (PNG), or None for an empty pile or a
    seat that may not look (D-18); drawn by ``render.deal.render_discard``."""
    if not cards:
        return None
    return png_bytes(render_deal.render_discard(cards, normalise_lang(lang)))


async def table_screens_with_pictures(service: GameService, table: int | Snapshot, events: Iterable = (),
                                     lang: str = "zh-Hans", lang_of: Callable[[int], str] | None = None,
                                     seats: Iterable[int] | None = None) -> Screens:
    """``table_screens`` with pictures, drawn in a worker thread from a copy of the table, so the
    event loop never waits and a later move never changes a picture half drawn."""
    snap = table if isinstance(table, Snapshot) else await service.snapshot(table)
    clock = clock_text(await service.match_ends_at(snap.table), service.clock())
    return await asyncio.to_thread(table_screens, service, snap, events, lang, lang_of, True, clock, seats)


def event_lines(snap: Snapshot, events: Iterable, lang: str, viewer: int | None = None,
                names: dict[int, str] | None = None) -> list[str]:
    """What happened, as log lines for ``viewer`` (None: the group; a seat sees its own draws);
    ``names`` when the front end names the seats itself (the console, in its own language)."""
    names = snap.names if names is None else names
    if snap.game == "deal":
        return [deal_text.describe_event(e, lang, names, viewer) for e in events]
    return board_text.log_lines(list(events), lang, names, snap.row.ruleset, viewer)


def note_lines(notes: Iterable, lang: str, names: dict[int, str]) -> list[str]:
    """The service's notes about seats (left, back, kept by the AI, replaced) as lines for the group."""
    out = []
    for note in notes:
        params = dict(note.params)
        if "seat" in params:
            params["name"] = names.get(params["seat"], "?")
        out.append(t(lang, note.key, **params))
    return out


def trade_buttons(state, seat: int, table: int, lang: str) -> list[Button]:
    """B-15: "Propose a trade" (the builder, ``bot.trade_builder``) when the seat may make an offer
    now, and "Counter" for each offer to it that it may answer with one of its own."""
    template = trade_template(state, seat)
    if template is None or not template.partners:
        return []
    out = [Button(t(lang, "trade.btn.counter", trade=tid), f"t:{table}:k{tid}", seat) for tid in template.counters]
    if template.fresh:
        out.append(Button(t(lang, "trade.btn.open"), f"t:{table}:n", seat))
    return out


def human_seats(snap: Snapshot) -> list[int]:
    """Seats of people, whether they play now or the AI keeps their seat for them."""
    return [i for i, s in enumerate(snap.row.seats) if not is_ai_user(s["user"])]


def table_screens(service: GameService, table: int | Snapshot, events: Iterable = (), lang: str = "zh-Hans",
                  lang_of: Callable[[int], str] | None = None, pictures: bool = False,
                  clock: str | None = None, seats: Iterable[int] | None = None) -> Screens:
    """The public screen in the chat's ``lang``; a private one in its player's language for each of
    ``seats`` (default: every person's seat, also one the AI keeps while its player is away)."""
    lang = normalise_lang(lang)
    snap = snapshot_now(service, table)
    row, state, rules = snap.row, snap.state, snap.rules
    names = snap.names
    events = list(events)
    decisions = rules.waiting_for(state) if row.status == "running" else []
    playing = [i for i, s in enumerate(row.seats) if not s["ai"]]

    public_view = rules.view(state, None)
    if snap.game == "deal":
        text = deal_text.render_table(public_view, lang, names)
        public_seats: set[int] = set()  # a Deal answer would show what the hand holds
    else:
        text = board_text.render_board(public_view, lang, names, row.ruleset)
        public_seats = {d.seat for d in decisions}
    log = event_lines(snap, events, lang)

    buttons: list[Button] = []
    for decision in decisions:
        if decision.seat not in public_seats or decision.seat not in playing or decision.kind == "trade":
            continue  # an offer is answered privately (B-15: the group sees only a trade made)
        for action, token in _decision_buttons(service, snap, decision):
            label = _label(snap, public_view, action, lang, names)
            buttons.append(Button(f"{names[decision.seat]}: {label}", token, decision.seat))
    public = Screen("\n".join([text, *log[-LOG_LINES:]]), buttons)
    if pictures:
        if snap.game == "deal":
            public.picture = png_bytes(render_deal.render_table(public_view, lang, names))
        else:
            public.picture = png_bytes(render_board.render_board(
                public_view, lang, names, row.ruleset, clock, worth=board_valuation(state),
                events=log[-render_board.EVENT_LINES:]))

    private: dict[int, Screen] = {}
    for seat in human_seats(snap) if seats is None else seats:
        seat_lang = normalise_lang(lang_of(seat)) if lang_of else lang
        view = rules.view(state, seat)
        mine = [d for d in decisions if d.seat == seat]
        if snap.game == "deal":
            lines = deal_text.private_lines(view, seat, mine, seat_lang, names)
        else:
            lines = board_text.private_lines(view, seat, mine, seat_lang, names, row.ruleset)
        own = [Button(_label(snap, view, a, seat_lang, names), tok, seat) for a, tok in service.buttons(snap, seat)]
        # D-18: for whoever may look through the pile now; no count on it, so that a growing pile
        # does not edit every private message
        if snap.game == "deal" and row.status == "running" and view.get("discard"):
            own.append(Button(t(seat_lang, "deal.btn.discard_pile"), f"p:{snap.table}", seat))
        if snap.game == "board" and row.status == "running":
            own += trade_buttons(state, seat, snap.table, seat_lang)
        if row.seats[seat]["ai"] and row.status == "running":  # away: the AI keeps the seat warm
            lines.append(t(seat_lang, "service.ai_keeps_seat"))
            own = [Button(t(seat_lang, "service.btn.seat_back"), f"b:{snap.table}", seat)]
        private[seat] = Screen("\n".join(lines), own)
        if pictures and snap.game == "deal":
            private[seat].picture = png_bytes(render_deal.render_hand(view, seat, seat_lang))
    return Screens(public, private)


def hand_line(snap: Snapshot, seat: int, lang: str) -> str:
    """A player's hand in one line (for a private alert when no private message can be sent)."""
    hand = snap.rules.view(snap.state, seat)["players"][seat].get("hand", [])
    return t(lang, "deal.ui.hand_line", count=len(hand), cards=t(lang, "ui.list_sep").join(
        deal_text.card_name(c, lang) for c in hand))


def hand_of(snap: Snapshot, seat: int) -> tuple:
    """What a Deal player holds (to send a hand again only when it changed)."""
    return tuple(snap.rules.view(snap.state, seat)["players"][seat].get("hand", []))


def _decision_buttons(service: GameService, snap: Snapshot, decision) -> list:
    """The buttons that answer one decision (not the seat's other options): the rules say which."""
    buttons = service.buttons(snap, decision.seat)
    wanted = snap.rules.answers(decision, [a for a, _ in buttons])
    return [(a, t) for a, t in buttons if a in wanted]


def _label(snap: Snapshot, view: dict, action, lang: str, names: dict[int, str]) -> str:
    if snap.game == "deal":
        return deal_text.describe_action(view, action, lang, names)
    return board_text.describe_action(view, action, lang, names, snap.row.ruleset)


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


def table_of(data: str, secret: bytes) -> int | None:
    """The table a button is about (signed ``l:``/``h:``/``b:``/``e:``/``p:`` data, or a move token,
    on Discord behind ``g:``), for the log when its press failed; None when it names none."""
    signed = tokens.unsign(secret, data)
    if signed is not None:
        table = signed.split(":")[1]
        return int(table) if signed[0] in "lhbeptv" and table.isascii() and table.isdigit() else None
    try:
        return tokens.decode(secret, data[2:] if data.startswith("g:") else data).table
    except tokens.TokenError:
        return None


def start_time(text: str, now: float) -> float | None:
    """When a match typed by an admin starts: "+30" is thirty minutes from now (at most a week);
    "20:30" the next 20:30 Beijing time (UTC+8, where most players are). ``None`` when the text is
    neither (only plain ASCII digits count: "²" or "٣" are not a time)."""
    text = text.strip()
    if text.startswith("+"):
        minutes = number(text[1:], 1, 7 * 24 * 60)
        return None if minutes is None else now + 60 * minutes
    hours, _, minutes = text.partition(":")
    h, m = number(hours, 0, 23), number(minutes, 0, 59)
    if h is None or m is None or len(minutes) != 2:
        return None
    day, offset = 86400, 8 * 3600
    local = (now + offset) % day
    target = h * 3600 + m * 60
    return now + (target - local) % day or now + day
