"""The web table's messages, both ways: what a browser may send (``parse_message``: a small JSON
object of a known ``type`` with fields of the right kind), and what a page is sent, drawn from the
service's views: the lobby, and the table as data the page draws itself (``table_message``: the
rules' view of the table, who is asked what and until when, the log, the result; ``own_part``: a
player's own view, their moves labelled and each tied to what it is about, the question they are
asked, the rules' ready-made trade offers apart, as the trade builder's suggestions). No picture
travels: the page draws the board and the cards (``static/``); the PNG the chats get is a link
(``picture``). A table without a game (a lobby cancelled before its start) has
no view to draw: ``played`` says so, and the page shows its end alone.

The web has no chat commands: a sentence that names one has a web wording (``web.say.<key>``).
"""

from __future__ import annotations

import json
import re

from bot.chat import option_screens, trade_builder
from bot.chat.screens import event_lines, note_lines
from engine import options as table_options
from engine.games import GAMES
from engine.service.pace import PACE_HOURS
from engine.service.views import PrivateView, PublicView
from words.board_text import party_name, trade_terms
from words.games import WORDS, extra_label
from words.i18n import CATALOGUES, ruleset_name, t

MAX_MESSAGE = 1024  # bytes: every valid message is far smaller
LOBBY_OPS = ("join", "leave", "ai", "ai:basic", "ai:strong", "noai", "start", "cancel")
# a rule option switched (``engine.options`` codes), a timed match's length, a slow game's pace
OPTION_OP = re.compile(r"o:[a-z0-9]{1,8}|m:[0-9]{1,3}|p:[0-9]{1,2}")
# or the timed match's minutes chosen, by the creator
TYPES = ("press", "back", "lobby", "trade", "pile", "amount", "rematch")
MOST_AMOUNT = 10**9  # a typed amount above any game's money is not a number a player meant


def say(lang: str, key: str, **params) -> str:
    """``key`` in words for the web: its ``web.say.`` wording when the chat's names a command."""
    alt = f"web.say.{key}"
    return t(lang, alt if alt in CATALOGUES["en"] else key, **params)


def parse_message(text) -> tuple[dict | None, str | None]:
    """A browser's message as (fields, None), or (None, the message key saying what is wrong)."""
    if not isinstance(text, str) or len(text.encode()) > MAX_MESSAGE:
        return None, "web.err.malformed"
    try:
        data = json.loads(text)
    except ValueError:
        return None, "web.err.malformed"
    if not isinstance(data, dict) or data.get("type") not in TYPES:
        return None, "web.err.malformed"
    if data["type"] == "trade":  # the trade builder (B-15): an op of ``bot.chat.trade_builder``
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
    if data["type"] == "amount":  # an amount typed instead of the offered steps (the board's own bid)
        amount = data.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= MOST_AMOUNT:
            return None, "web.err.malformed"
        return {"type": "amount", "amount": amount}, None
    if data["type"] == "rematch":
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 64:
            return None, "web.err.malformed"
        return {"type": "rematch", "name": name}, None
    return {"type": data["type"]}, None


def lobby_message(view: PublicView, lang: str, seat: int | None, creator: bool, watch: bool, runs: bool = False,
                  invited: list[str] | None = None) -> dict:
    """The lobby: seats, the table's rule options with what each does (toggles for its creator,
    what is on for all); ``runs``: the reader runs the lobby (AI seats, start, cancel); ``invited``:
    the last game's players not seated yet (a rematch)."""
    now = option_screens.values(view)
    options = [{"label": option_screens.label(lang, o), "op": f"o:{o.code}", "on": now[o.name],
                "help": option_screens.help_text(lang, o)} for o in table_options.toggles(view.game)]
    return {"type": "lobby", "table": view.table, "status": view.status, "game": view.game,
            "ruleset": view.ruleset, "ruleset_name": ruleset_name(view.ruleset, lang),
            "seats": [{"name": s.name, "ai": s.ai, "level": s.level and t(lang, "ai.level." + s.level)}
                      for s in view.seats], "seat": seat, "creator": creator,
            "min": view.min_players, "max": view.max_players, "web": view.chat_key.startswith("web:"),
            "watch": watch, "options": options, "options_on": option_screens.on_line(view, lang),
            "runs": runs, "invited": invited or [],
            # the timed match (B-17, D-16): its length now and the lengths the creator may choose
            "match": {"minutes": table_options.match_minutes(view.game, view.ruleset, view.options),
                      "choices": list(table_options.MATCH_MINUTES)},
            # a slow game's pace (engine/service/pace.py): its hours a move now, and the creator's choices
            "pace": {"hours": view.pace // 3600, "choices": list(PACE_HOURS)}}


# the fields of an event that name the seat it goes against: who pays (rent, a debt), whose card
# is taken, whom a card targets
AGAINST = ("payer", "debtor", "target", "targets", "from_seat")


def _against(event) -> set[int]:
    seats: set[int] = set()
    for field in AGAINST:
        value = getattr(event, field, None)
        for seat in value if isinstance(value, list) else [value]:
            if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:  # not the bank
                seats.add(seat)
    return seats


def log_against(view: PublicView, events: list, lang: str, lines: list[str]) -> list[list[int]]:
    """For each log line, the seats it goes against (a card taken from them, rent charged to them),
    so that a player's page shows those lines first: the lines each such event gives on its own,
    found among the batch's (a line the batch words otherwise, a sum of payments, names nobody)."""
    of_line: dict[str, set[int]] = {}
    for event in events:
        seats = _against(event)
        if seats:
            for line in event_lines(view, [event], lang, view.names):
                of_line.setdefault(line, set()).update(seats)
    return [sorted(of_line.get(line, ())) for line in lines]


def table_message(view: PublicView, lang: str, now: float, history: list | None, picture: str | None) -> dict:
    """The table for everyone reading ``lang``: with ``history`` (a page that opens) the whole log,
    else the lines this update adds; ``log_against``: the seats each line goes against."""
    names = view.names
    events = view.events if history is None else history
    lines = event_lines(view, events, lang, names) + note_lines(view.notes, lang, names, say)
    result = WORDS[view.game].winners(view.winners, lang, names) if view.over else None
    return {"type": "table", "table": view.table, "version": view.version, "status": view.status,
            "game": view.game, "now": now, "turn": view.turn, "current": view.current,
            "seats": [{"name": s.name, "ai": s.ai, "person": s.person} for s in view.seats],
            "view": view.board, "worth": {str(k): v for k, v in view.worth.items()},
            "asks": [{"seat": a.seat, "kind": a.kind, "where": a.where, "due": a.due_at, "ai": a.ai}
                     for a in view.asks],
            "match_ends": view.match_ends_at, "log": lines, "log_append": history is None, "result": result,
            "log_against": log_against(view, list(events), lang, lines),
            "winners": view.winners, "picture": picture if view.board else None, "played": bool(view.board)}


def _added(public, own):
    """What a player's view adds to one part of the public view: of a list of records (the players),
    only the records that differ (their own, with the hand); else the whole part."""
    if isinstance(public, list) and isinstance(own, list) and len(public) == len(own):
        return [mine for theirs, mine in zip(public, own, strict=True) if mine != theirs]
    return own


PICKS = ("take", "give", "target", "group")  # fields of a move that name a card, a player, a set


def _picks(action) -> list[dict]:
    """The things on the table a move names (a card to take or give, a player, a set by its index
    in that player's area), with the move's kind: ``[{"kind": "sly_deal", "take": 12, "target": 1}]``;
    nothing for a move that names none (the page then offers it as a button only)."""
    picks = {k: getattr(action, k) for k in PICKS if isinstance(getattr(action, k, None), int)
             and not isinstance(getattr(action, k), bool)}
    if not picks:
        return []
    return [{"kind": action.__struct_config__.tag, **picks}]


def _offer_kind(game: str) -> type | tuple:
    """The kind of move an offer is in ``game``: what its trade builder sends (``Presentation.drafts``),
    so that the rules' ready-made offers are told from the other moves; ``()`` (no kind) for a game
    without trading."""
    drafts = GAMES[game].presentation.drafts
    return type(drafts.Draft(seat=0).action()) if drafts is not None else ()


def suggestion(action, lang: str, names: dict[int, str], ruleset: str) -> str:
    """A ready-made offer as one line from its proposer's side: what they give, what they get and
    from whom ("You give West Lake; you get ¥3,600 from AI 1")."""
    give = trade_terms(action.give, action.give_cash, action.give_cards, lang, ruleset)
    get = trade_terms(action.get, action.get_cash, action.get_cards, lang, ruleset)
    return t(lang, "web.trade.suggestion", give=give, get=get, name=party_name(action.target, lang, names))


def own_part(public: PublicView, own: PrivateView, lang: str) -> dict:
    """A player's own part of the table: what their view adds to the public one (a hand), the
    question they are asked, and every move, labelled, tied to the card or square it is about and
    ranked (``engine.core.presentation``), then the controls beside the moves."""
    words, shown, names = WORDS[own.game], GAMES[own.game].presentation, public.names
    adds = {k: _added(public.board.get(k), v) for k, v in own.board.items()
            if public.board.get(k) != v and k != "viewer"}
    # a move as [label, token, about, rank, answers, picks]: a hand of dozens of moves stays small
    # (table.js names the fields again); ``picks``: what a move about a card takes, gives, aims at
    # (``_picks``), so that the page lets the player tap those things on the table instead of a list
    # the rules' ready-made trade offers are not among the moves: the trade builder lists them as
    # suggestions (``offers``: [line, token], each its very move, sent by its token like any other)
    offer = _offer_kind(own.game)
    moves = [[words.action(own.board, c.action, lang, names, own.ruleset), c.token, shown.subject(c.action),
              shown.rank(c.action), int(c.answers), *_picks(c.action)] for c in own.choices
             if not isinstance(c.action, offer)]
    offers = [[suggestion(c.action, lang, names, own.ruleset), c.token] for c in own.choices
              if isinstance(c.action, offer)]
    extras = [{"label": extra_label(e, lang), "op": e} for e in own.extras]
    asked = [words.prompt(own.board, a.decision, lang, names, own.ruleset) for a in own.asks]
    # asked for an amount the game lets them type (the board's own bid): its bounds, for the field
    game, amount = GAMES[own.game], None
    if own.status == "running" and game.amount_kind and any(a.kind == game.amount_kind for a in own.asks):
        least, most = game.amount_bounds(own.board, own.seat) if game.amount_bounds else (None, None)
        amount = {"least": least, "most": most}
    news = words.news(own.events, own.seat, lang, names, own.ruleset, own.timed_out)  # an offer declined, lapsed
    running = own.status == "running"
    return {"adds": adds, "moves": moves if running else [], "offers": offers if running else [], "extras": extras,
            "asked": asked, "amount": amount, "news": news,
            "ai_keeps": own.ai_keeps, "back": f"b:{own.table}" if own.ai_keeps else None}
