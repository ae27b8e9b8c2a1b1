"""Screens drawn from a table's views (``engine/service/views.py``): what the group sees, what each
player sees, nothing else. The same screens for every front end; the words and pictures of each
game come from its registry (``words.games``, ``render.games``), so nothing here asks which game
it shows.

- ``public_screen``: the table's head (whose turn) with the latest events, what the table waits
  for, the service's notes and the clocks that run (the rest of the table is the picture's), the
  buttons answered in front of everyone (labelled with who answers), the picture;
- ``private_screen``: a player's own lines (their hand, what they are asked), every choice they
  have, their controls beside the moves (the Deal discard pile, the trade builder), their picture;
  while the AI keeps their seat, only "Take my seat back".

Buttons carry the service's tokens (≤ 64 bytes) or data the front end signs (``bot.chat.inputs``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bot.chat.steps import Choice, Key, keys
from engine.core.errors import RuleError
from engine.games import GAMES
from engine.service.views import Ask, PrivateView, PublicView
from render.games import EVENT_LINES, PICTURES
from render.png import png_bytes
from words.games import WORDS, extra_label
from words.i18n import normalise_lang, t

LOG_LINES = 8  # the latest events under the table's head
NEWEST = 2  # of them, those a message too long keeps
TURN_POLICIES = ("turn", "card")  # the clocks of the player on turn worth showing on the table


@dataclass
class Button:
    label: str
    token: str
    seat: int
    # how a platform that colours buttons marks it: ``main`` the one expected answer (a move the
    # game ranks first, ``engine.core.presentation``: roll, buy, pay), ``danger`` an action that
    # cannot be undone (ending a game for everyone); None: the platform's own look
    tone: str | None = None


@dataclass
class Screen:
    text: str
    buttons: list[Button] = field(default_factory=list)
    picture: bytes | None = None  # PNG: the board or the Deal table (public), the hand (private)
    optional: tuple[int, int] | None = None  # the span of ``text`` left out first when too long
    choices: list[Choice] = field(default_factory=list)  # a player's moves with their steps (``bot.chat.steps``)


def clock_text(ends_at: float | None, now: float) -> str | None:
    """The match clock as a picture shows it (mm:ss left), when a match is timed."""
    if ends_at is None:
        return None
    left = max(0, int(ends_at - now))
    return f"{left // 60:02d}:{left % 60:02d}"


def clock_line(lang: str, names: dict[int, str], asks: Iterable[Ask], current: int | None,
               match_ends_at: float | None, now: float, when: Callable[[float], str] | None = None) -> str | None:
    """The clocks that run, for the table message: the deadline of the player on turn (their turn
    clock, or in the Deal tournament the 10 s card clock, D-16) and the match clock (mm:ss left).
    ``when`` words a deadline (Discord: a live ``<t:…:R>``); by default the seconds left now.
    None when no clock runs (AI seats answer at once and have none)."""
    parts = []
    mine = next((a for a in asks if a.seat == current and a.policy in TURN_POLICIES and a.due_at is not None), None)
    if mine is not None:
        left = when(mine.due_at) if when else t(lang, "ui.clock.seconds", seconds=max(0, round(mine.due_at - now)))
        parts.append(t(lang, f"ui.clock.{mine.policy}", name=names.get(mine.seat, "?"), when=left))
    match = clock_text(match_ends_at, now)
    if match is not None:
        parts.append(t(lang, "ui.clock.match", left=match))
    return " · ".join(parts) or None


def note_lines(notes: Iterable, lang: str, names: dict[int, str], say: Callable[..., str] = t) -> list[str]:
    """The service's notes about seats (left, back, kept by the AI, replaced) as lines for the group
    (``say`` words a key: the web's names no chat command)."""
    out = []
    for note in notes:
        params = dict(note.params)
        if "seat" in params:
            params["name"] = names.get(params["seat"], "?")
        out.append(say(lang, note.key, **params))
    return out


def event_lines(view: PublicView | PrivateView, events: Iterable, lang: str, names: dict[int, str],
                viewer: int | None = None) -> list[str]:
    """Events (already as their viewer may see them) as log lines in ``lang``."""
    return WORDS[view.game].events(list(events), lang, names, view.ruleset, viewer)


def public_screen(view: PublicView, lang: str, now: float, when: Callable[[float], str] | None = None,
                  pictures: bool = True) -> Screen:
    lang = normalise_lang(lang)
    words, names = WORDS[view.game], view.names
    log = event_lines(view, view.events, lang, names)
    head = words.table(view.board, lang, names, view.ruleset).split("\n", 1)[0]
    # a few lines, in the order things happened: the head (whose turn), what just happened, what
    # the table waits for (a purchase, a payment), the notes, the clock; the players' lines, the
    # sets and the deeds are the picture's (issue 45: the picture and "your turn" on one screen)
    news = log[-LOG_LINES:]
    waiting = words.waiting(view.board, lang, names, view.ruleset)
    lines = [head, *news, *waiting, *note_lines(view.notes, lang, names)]
    # a message still too long leaves out the older news first (``bot.chat.messenger.shorten``)
    older = news[:-NEWEST]
    optional = (len(head) + 1, len(head) + 1 + len("\n".join(older)) + 1) if older else None
    if view.status == "running":
        clocks = clock_line(lang, names, view.asks, view.current, view.match_ends_at, now, when)
        lines += [clocks] if clocks else []
    main = expected(view.game, view.choices, answered_only=False)
    buttons = [] if view.status != "running" else [
        Button(f"{names[c.seat]}: {words.action(view.board, c.action, lang, names, view.ruleset)}", c.token, c.seat,
               "main" if c.token in main else None)
        for c in view.choices]
    picture = None
    if pictures:
        picture = png_bytes(PICTURES[view.game].table(view.board, lang, names, view.ruleset,
                                                      clock_text(view.match_ends_at, now), view.worth,
                                                      log[-EVENT_LINES:]))
    return Screen("\n".join(lines), buttons, picture, optional)


def expected(game: str, choices: Iterable, answered_only: bool = True) -> set[str]:
    """The tokens of the expected answers among ``choices``: for each seat, its one move the game
    ranks first (``Presentation.rank`` 0: roll, buy, pay) among those answering what it is asked
    (``answered_only``; the table's buttons all answer), when there is exactly one; a seat with
    several (a bid's steps) or none has no expected answer, as on the web table's main button."""
    rank = GAMES[game].presentation.rank
    firsts: dict[int, list[str]] = {}
    for c in choices:
        if (c.answers or not answered_only) and rank(c.action) == 0:
            firsts.setdefault(c.seat, []).append(c.token)
    return {tokens[0] for tokens in firsts.values() if len(tokens) == 1}


def extra_token(extra: str, table: int) -> str:
    """The button data of a control beside the moves (signed by the front end)."""
    if extra == "pile":
        return f"p:{table}"
    if extra == "trade":
        return f"t:{table}:n"
    return f"t:{table}:k{extra.split(':', 1)[1]}"


def private_screen(view: PrivateView, names: dict[int, str], lang: str, pictures: bool = True) -> Screen:
    lang = normalise_lang(lang)
    words = WORDS[view.game]
    lines = words.private_lines(view.board, view.seat, [a.decision for a in view.asks], lang, names, view.ruleset)
    lines[1:1] = words.news(view.events, view.seat, lang, names, view.ruleset, view.timed_out)  # under their line
    choices = own_choices(view, names, lang)
    buttons = step_buttons(keys(choices, lang), view.table, view.seat)
    main = expected(view.game, view.choices)
    # the button that answers, or the first step that leads to it
    leads = {c.path[0] for c in choices if c.token in main}
    for b in buttons:
        if b.token in main or (b.token.startswith("m:") and b.label in leads):
            b.tone = "main"
    buttons += [Button(extra_label(e, lang), extra_token(e, view.table), view.seat) for e in view.extras]
    if view.ai_keeps:  # away: the AI keeps the seat warm
        lines.append(t(lang, "service.ai_keeps_seat"))
        buttons = [Button(t(lang, "service.btn.seat_back"), f"b:{view.table}", view.seat)]
    if view.status != "running":
        buttons = []
    own = PICTURES[view.game].own
    picture = png_bytes(own(view.board, view.seat, lang)) if pictures and own is not None else None
    return Screen("\n".join(lines), buttons, picture, choices=choices)


def own_choices(view: PrivateView, names: dict[int, str], lang: str) -> list[Choice]:
    """A player's moves with the labels that lead to each (one move a path: a Deal card and its
    twin from one pile do the same)."""
    words = WORDS[view.game]
    steps = words.steps or (lambda board, action, *rest: (words.action(board, action, *rest),))
    out: dict[tuple[str, ...], Choice] = {}
    for c in view.choices:
        path = tuple(steps(view.board, c.action, lang, names, view.ruleset))
        out.setdefault(path, Choice(path, c.token))
    return list(out.values())


def step_token(table: int, node: str, page: int = 0) -> str:
    """The button data of a step that opens another (signed by the front end)."""
    return f"m:{table}:{node}:{page}"


def step_buttons(step_keys: list[Key], table: int, seat: int) -> list[Button]:
    return [Button(k.label, k.token if k.token is not None else step_token(table, k.node, k.page), seat)
            for k in step_keys]


def hand_line(view: PrivateView, lang: str) -> str | None:
    """A player's hand in one line, when the game has one (a private alert when no private message
    can be sent), else None."""
    return WORDS[view.game].hand(view.board, view.seat, normalise_lang(lang))


def refusal_text(outcome, lang: str, game: str | None, ruleset: str, names: dict[int, str],
                 say: Callable[..., str] = t) -> str:
    """The short private alert for a refused press: the rules' reason, or the service's."""
    lang = normalise_lang(lang)
    if outcome.rule and game in WORDS:
        return WORDS[game].error(RuleError(outcome.rule, outcome.key, **outcome.params), lang, names, ruleset)
    params = dict(outcome.params)
    if "seat" in params:
        params["name"] = names.get(params["seat"], "?")
    return say(lang, outcome.key or "service.bad_token", **params)
