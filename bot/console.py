"""Deal and 地产大亨 in a terminal: human seats type keys, AI seats play themselves.

The reference adapter (DESIGN.md, "Presenter and adapters"): a subscriber to the service's table
updates like the chat bots. Each update's events are printed as the presenter words them; when a
person at this terminal must act, it shows that seat's view and its legal actions through the
game's text module (``words.deal_text``, ``words.board_text``) and presses the chosen button; no
game logic lives here. AI seats and the turn cap are the service's. Input, output and the clock
are injectable so tests drive a whole game without a terminal and without waiting.

Every move goes through the service (``GameService``: tokens, the database, the version check),
as a chat adapter's would. Both games share one loop; a ``_Table`` holds what differs (how to
word and ask). Human seats come first ("Player 1", ...), AI seats after ("AI 1", ...). A human
whose input ends (EOF, e.g. a closed pipe) is handed to the AI so the game still finishes.

Keys (``bot.console_keys``): a letter or word per kind of move and numbers that name cards or
squares, so a key means the same thing after the next move. Ending a Deal turn with plays left,
paying bail and accepting an offer are asked again (y/n). ``pile`` (弃牌堆) lists the Deal discard
pile when the rules let the seat look through it (D-18).

Where the game lives: ``--db FILE``, else ``console.db`` in the user's data folder
(``bot.console_options.data_dir``), so Ctrl-C and the same command again resume it. Ctrl-C while
the terminal waits for input stops at once (no move is in progress); while the service is making a
move (AI seats) it is noted and the loop stops once the move is stored, so a move is either
stored whole or not at all (the database transaction), and one line says where the game is.

Clocks (D-16, B-17): the console reads one line at a time and does not run a timer thread.
Decision: the clock is checked when the input returns (and before each prompt). If the card
clock of that decision has run out, the typed key is not used: the rules' timeout action is
applied instead and said so; if the match clock has run out, the match ends by valuation
(``EndMatch``). The remaining time is shown with each prompt. Other clocks the service stores for
chats (the 60-second turn, payments) do not run at a terminal: only the rule set's own clocks do.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import console_help, console_keys, console_options, console_trade
from bot.presenter import discard_pile_words
from bot.screens import event_lines
from engine.board import BOARD
from engine.board import rules as board_rules
from engine.board.model import AcceptTrade, AuctionPassed, BidMade, DiceRolled, LiftMortgage, PayJailFine
from engine.core.contract import GameRules
from engine.core.errors import RuleError
from engine.core.values import EndMatch, TurnEnded, TurnStarted
from engine.deal import DEAL, rules
from engine.deal.model import Drew, EndTurn
from engine.service.outcome import SYSTEM, Outcome
from engine.service.tables import GameService
from words import board_text, deal_text
from words.deal_text import (
    describe_action,
    explain_error,
    render_table,
    winners_line,
)
from words.i18n import normalise_lang, t

GAMES = ("deal", "board")
RULES: dict[str, GameRules] = {"deal": DEAL, "board": BOARD}
DEFAULT_RULESETS = {"deal": "standard", "board": "china"}
# A game between cautious players can go on for ever; past the cap the service ends it by valuation.
DEFAULT_MAX_TURNS = {"deal": 400, "board": 1000}
SUMMARY_ITEMS = 6  # what one AI seat did since your last move: at most this many items, then "+N"


def seat_names(players: int, ai_seats: int, lang: str) -> dict[int, str]:
    """Humans first ("Player 1", ...), then the AI seats ("AI 1", ...), in ``lang``."""
    humans = players - ai_seats
    names = {s: t(lang, "ui.player_name", n=s + 1) for s in range(humans)}
    names.update({s: t(lang, "ui.ai_name", n=s - humans + 1) for s in range(humans, players)})
    return names


@dataclass(frozen=True)
class _Table:
    """What the shared loop needs from one game, already bound to the language and the names."""

    game: str
    ruleset: str
    rules: GameRules
    start: Callable[[], tuple[Any, list]]  # -> (state, opening events)
    choices: Callable[[Any, Any], list]  # (state, decision) -> the seat's actions, in button order
    show: Callable[[Any, Any, list], list[str]]  # (state, decision, actions) -> table, question, labels
    log: Callable[[list], list[str]]
    explain: Callable[[RuleError], str]
    takeover_key: str
    game_over: str
    winners: Callable[[list[int]], str]
    viewer: int | None = None  # the one person at a Deal table: the log is worded for their eyes


# -- Deal ----------------------------------------------------------------------------------------


def _deal_table(players: int, seed: int, options: dict, lang: str, names, viewer: int | None) -> _Table:
    def show(state, decision, actions):
        view = DEAL.view(state, decision.seat)
        return [render_table(view, lang, names), deal_text.prompt_line(view, decision, lang, names),
                *(describe_action(view, a, lang, names) for a in actions)]

    return _Table(
        game="deal", ruleset=options["ruleset"], rules=DEAL,
        start=lambda: rules.new_game_with_events(players, options, seed),
        choices=lambda state, decision: DEAL.legal_actions(state, decision.seat),
        show=show,
        log=lambda events: [deal_text.describe_event(e, lang, names, viewer) for e in events],
        explain=lambda err: explain_error(err, lang, names),
        takeover_key="ui.takeover",
        game_over=t(lang, "deal.ui.game_over"),
        winners=lambda winners: winners_line(winners, lang, names),
        viewer=viewer,
    )


# -- 地产大亨 -------------------------------------------------------------------------------------


def _board_label(view: dict, action, lang: str, names, ruleset: str) -> str:
    if isinstance(action, LiftMortgage):  # what lifting costs now (principal and interest, B-15)
        cost = next((s.get("lift_cost") for s in view.get("squares") or [] if s["index"] == action.square), None)
        if cost is not None:
            return t(lang, "console.act.lift", square=board_text.square_name(ruleset, action.square, lang),
                     amount=board_text.money(ruleset, cost, lang))
    return board_text.describe_action(view, action, lang, names, ruleset)


def _board_choices(state, decision) -> list:
    """The decision's own answers first; in a debt, the ways to raise money in the order the
    suggestion prefers (mortgages before building sales), then the rest."""
    actions = board_text.decision_first(BOARD.legal_actions(state, decision.seat), decision)
    if decision.kind != "debt":
        return actions
    first = board_rules.answers(decision, actions)
    raising = console_help.raise_order(BOARD.view(state, decision.seat), decision.seat, actions,
                                       state.options.ruleset)
    return first + raising + [a for a in actions if a not in first and a not in raising]


def _board_table(players: int, seed: int, options: dict, lang: str, names) -> _Table:
    ruleset = options["ruleset"]

    def show(state, decision, actions):
        view = BOARD.view(state, decision.seat)
        return [board_text.render_board(view, lang, names, ruleset),
                board_text.prompt_line(view, decision, lang, names, ruleset),
                *(_board_label(view, a, lang, names, ruleset) for a in actions)]

    return _Table(
        game="board", ruleset=ruleset, rules=BOARD,
        start=lambda: board_rules.new_game_with_events(players, options, seed),
        choices=_board_choices,
        show=show,
        log=lambda events: board_text.log_lines(events, lang, names, ruleset),
        explain=lambda err: board_text.explain_error(err, lang, ruleset, names),
        takeover_key="board.ui.takeover",
        game_over=t(lang, "board.ui.game_over"),
        winners=lambda winners: board_text.winners_line(winners, lang, names),
    )


# -- setting up ----------------------------------------------------------------------------------


def _check_setup(game: str, players: int, ai: int, ruleset: str, lang: str) -> str | None:
    """Why the game cannot start, in words; None when it can."""
    if game not in GAMES:
        return t(lang, "ui.unknown_game", game=game, choices=", ".join(GAMES))
    rules_ = RULES[game]
    if not (rules_.min_players <= players <= rules_.max_players and 0 <= ai <= players):
        return t(lang, "ui.bad_setup", players=players, ai=ai, min=rules_.min_players, max=rules_.max_players)
    if ruleset not in rules_.rulesets:
        return t(lang, "ui.unknown_ruleset", ruleset=ruleset, choices=", ".join(rules_.rulesets))
    return None


@dataclass
class _Interrupt:
    """Ctrl-C, deferred while a move is being made: while the terminal waits for input it stops the
    input at once; otherwise it is noted and the loop stops after the move in progress."""

    reading: bool = False
    pending: bool = False
    stop: asyncio.Event | None = None
    loop: asyncio.AbstractEventLoop | None = None

    def __call__(self, signum, frame) -> None:
        if self.reading:
            raise KeyboardInterrupt
        self.pending = True
        if self.loop is not None and self.stop is not None:
            self.loop.call_soon_threadsafe(self.stop.set)


@contextlib.contextmanager
def _sigint(handler: _Interrupt):
    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread (an embedding program): Ctrl-C is its business
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_console(game: str, players: int, ai: int, seed: int, lang: str, ruleset: str | None = None,
                input_fn: Callable[[str], str] = input, output: Callable[[str], object] = print,
                max_turns: int | None = None, db: str | None = None, options: Sequence[str] = (),
                clock: Callable[[], float] = time.time, scratch: bool = False) -> int:
    """Play one game in the terminal through the service; 0 when it was played (or saved to resume),
    2 when it could not start.

    ``ruleset`` and ``max_turns`` default per game: Deal "standard" and 400 turns, the board
    "china" and 1000 turns (then it ends by valuation, as the match clock would end it).
    ``options`` are ``name=value`` rule options. The game is kept in ``db`` (a SQLite file), by
    default ``console.db`` in the user's data folder: Ctrl-C or a kill, then the same command
    again, and it goes on where it stopped. ``scratch`` keeps it in a scratch database for this
    run only (``tycoon run``'s demonstration game). ``clock`` times the rule set's clocks.
    """
    lang = normalise_lang(lang)
    ruleset = ruleset or DEFAULT_RULESETS.get(game, "")
    problem = _check_setup(game, players, ai, ruleset, lang)
    if problem:
        output(problem)
        return 2
    chosen, refusal = console_options.parse(game, list(options))
    if refusal is not None:
        output(t(lang, refusal[0], **refusal[1]))
        return 2
    cap = DEFAULT_MAX_TURNS[game] if max_turns is None else max_turns
    setup = _Setup(game, players, ai, seed, lang, {"ruleset": ruleset, **chosen}, cap, clock)
    stopper = _Interrupt()
    with _sigint(stopper):
        if scratch:
            with tempfile.TemporaryDirectory() as tmp:
                return asyncio.run(_play(setup, input_fn, output, str(Path(tmp) / "console.db"), stopper, False))
        path = db if db is not None else str(console_options.data_dir() / "console.db")
        return asyncio.run(_play(setup, input_fn, output, path, stopper, True))


@dataclass(frozen=True)
class _Setup:
    game: str
    players: int
    ai: int
    seed: int
    lang: str
    options: dict
    cap: int
    clock: Callable[[], float]


CHAT = "console"


async def _open_table(service: GameService, s: _Setup, names: dict[int, str]) -> tuple[int, bool]:
    """The console's running table of this game, or a new one; (table id, resumed?)."""
    existing = await service.lobby.table_in_chat(f"{CHAT}:{s.game}")
    if existing is not None and existing.status == "running":
        return existing.id, True
    if existing is not None:  # a lobby left behind by an interrupted start
        await service.lobby.cancel(existing.id, existing.creator)
    humans = s.players - s.ai
    out = await service.lobby.new_table(f"{CHAT}:{s.game}", s.game, s.options["ruleset"], "console:1", names[0])
    for seat in range(1, s.players):
        if seat < humans:
            await service.lobby.join(out.table, f"console:{seat + 1}", names[seat])
        else:
            await service.lobby.add_ai(out.table, "console:1")
    if not humans:  # an all-AI table: the one who opened it only watches
        await service.lobby.add_ai(out.table, "console:1")
        await service.lobby.leave(out.table, "console:1")
    extra = {k: v for k, v in s.options.items() if k != "ruleset"}
    await service.lobby.start(out.table, "console:1", seed=s.seed, turn_cap=s.cap, options=extra)
    return out.table, False


def _rules_line(state, lang: str) -> str:
    """Which rule set and which options are on: shown when a game starts or resumes."""
    on = console_options.options_on(state.options)
    shown = ", ".join(f"{name}" if value is True else f"{name}={value}" for name, value in on)
    return t(lang, "console.rules", ruleset=state.options.ruleset, options=shown or t(lang, "console.none"))


def _standing_lines(game: str, state, names, lang: str) -> list[str]:
    """Where things stand, one line per seat: the short summary printed when a game resumes."""
    rules_ = RULES[game]
    view = rules_.view(state, None)
    out = [t(lang, "ui.resumed", turn=state.turn_number)]
    for p in view["players"]:
        name = names.get(p["seat"], "?")
        if game == "deal":
            out.append(t(lang, "console.standing.deal", seat=name, bank=p["bank_total"], sets=p["complete_sets"],
                         hand=p["hand_count"]))
        else:
            ruleset = view["ruleset"]
            out.append(t(lang, "console.standing.board", seat=name, cash=board_text.money(ruleset, p["cash"], lang),
                         count=len(p["properties"]),
                         square=board_text.square_name(ruleset, p["position"], lang))
                       + (t(lang, "console.standing.bankrupt") if p["bankrupt"] else ""))
    return out


async def _play(s: _Setup, input_fn, output, db: str, stopper: _Interrupt, kept: bool) -> int:
    lang = s.lang
    service = await GameService.open(f"sqlite:///{db}", clock=s.clock)
    stopper.loop, stopper.stop = asyncio.get_running_loop(), asyncio.Event()
    saved = t(lang, "ui.saved", db=db) if kept else t(lang, "console.stopped")
    try:
        names = seat_names(s.players, s.ai, lang)
        table_id, resumed = await _open_table(service, s, names)
        row = service.table(table_id)
        names = {i: _seat_name(seat["user"], lang) for i, seat in enumerate(row.seats)}
        players = len(row.seats)
        humans = {i for i, seat in enumerate(row.seats) if not seat["ai"]}
        viewer = min(humans) if s.game == "deal" and len(humans) == 1 else None
        options = {"ruleset": row.ruleset, **(row.options or {})}
        table = (_deal_table(players, row.seed, options, lang, names, viewer) if s.game == "deal"
                 else _board_table(players, row.seed, options, lang, names))
        state = service.state(table_id)
        output(_rules_line(state, lang))
        if resumed:
            for line in _standing_lines(s.game, state, names, lang):
                output(line)
        else:
            _, opening = table.start()  # the same opening the service's game had (same seed)
            for line in table.log(opening):
                output(line)
        ctx = _Context(service, table_id, table, humans, names, lang, input_fn, output, s.clock, stopper)
        try:
            finished = await _loop(ctx)
        except KeyboardInterrupt:  # typed while the terminal waited for a key: end that line first
            output("")
            finished = False
        if not finished:
            output(saved)
            return 0
        state = service.state(table_id)
        output(f"== {table.game_over} ==")
        output(table.winners(table.rules.result(state).winners))
        return 0
    finally:
        stopper.loop = None
        await service.close()


@dataclass
class _Context:
    """One console game being played: the service, the table, who sits here, input and output."""

    service: GameService
    table_id: int
    table: _Table
    humans: set[int]
    names: dict[int, str]
    lang: str
    input_fn: Callable[[str], str]
    output: Callable[[str], object]
    clock: Callable[[], float]
    stopper: _Interrupt
    since: dict[int, list[str]] = field(default_factory=dict)  # AI seat -> what it did since you moved
    asked_at: dict[tuple[int, int], float] = field(default_factory=dict)  # (version, seat) -> first asked

    def read(self, prompt: str) -> str | None:
        """One line typed; None when the input has ended."""
        self.stopper.reading = True
        try:
            return (self.input_fn(prompt) or "").strip()
        except EOFError:
            return None
        finally:
            self.stopper.reading = False


async def _settle(ctx: _Context, updates: asyncio.Queue) -> bool:
    """Wait for the service to settle the table (AI moves); False when Ctrl-C came first."""
    idle = asyncio.ensure_future(ctx.service.idle())
    stop = asyncio.ensure_future(ctx.stopper.stop.wait())
    try:
        await asyncio.wait([idle, stop], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
    if ctx.stopper.pending:
        idle.cancel()
        return False
    while not updates.empty():  # what happened, worded by the presenter as in the chats
        update = updates.get_nowait()
        if update.public is None:  # a damaged table: nothing to word
            continue
        view, events = _seen(ctx, update)
        for line in event_lines(view, events, ctx.lang, ctx.names, ctx.table.viewer):
            ctx.output(line)
        _note_ai_moves(ctx, update)
    return True


# Left out of the summary: the full log is printed above it, and where each seat stands is in the
# table below it; the summary keeps what changed hands (buys, payments, cards, builds, takes).
_ROUTINE = (TurnStarted, TurnEnded, DiceRolled, BidMade, AuctionPassed, Drew)


def _actor(event) -> int | None:
    """The seat that did what ``event`` says: its ``seat``, else who paid (the payee when the bank
    paid), who took, who owes."""
    for name in ("seat", "payer", "to_seat", "debtor"):
        seat = getattr(event, name, None)
        if isinstance(seat, int) and seat >= 0:
            return seat
        if name == "payer" and isinstance(seat, int):  # the bank paid: it is the payee's news
            payee = getattr(event, "payee", None)
            return payee if isinstance(payee, int) and payee >= 0 else None
    return None


def _seen(ctx: _Context, update):
    """The update's events as the person at this terminal may see them (their own draws, when one
    person plays here), with the view they belong to."""
    viewer = ctx.table.viewer
    if viewer is not None and viewer in update.private:
        return update.private[viewer], update.private[viewer].events
    return update.public, update.public.events if update.public is not None else []


def _note_ai_moves(ctx: _Context, update) -> None:
    """Keep what AI seats did, per seat, for the summary before the next prompt."""
    if not ctx.humans or update.public is None:
        return
    view, events = _seen(ctx, update)
    for event in events:
        seat = _actor(event)
        if isinstance(event, _ROUTINE) or seat is None or seat in ctx.humans or seat not in ctx.names:
            continue
        for line in event_lines(view, [event], ctx.lang, ctx.names, ctx.table.viewer):
            line = line.strip()  # "AI 1 laid …" -> "laid …": the summary line starts with the name
            name = ctx.names[seat]  # (not a possessive: "AI 1's turn ends" stays whole)
            short = line[len(name):].strip() if line.startswith(name) and line[len(name):][:1] not in "'’" else line
            ctx.since.setdefault(seat, []).append((short or line).rstrip("。."))  # items are joined by "; "


def _summary_lines(ctx: _Context) -> list[str]:
    if not ctx.since:
        return []
    out = [t(ctx.lang, "console.since")]
    for seat in sorted(ctx.since):
        items = ctx.since[seat]
        shown = items[-SUMMARY_ITEMS:]
        text = "; ".join(shown)
        if len(items) > len(shown):
            text = t(ctx.lang, "console.since_more", count=len(items) - len(shown)) + " " + text
        out.append(f"  {ctx.names[seat]}: {text}")
    ctx.since.clear()
    return out


async def _loop(ctx: _Context) -> bool:
    """The console as a front end of the service: it prints each table update's events and asks
    the people at this terminal when one of them must act. The service's loop moves the AI seats
    and ends a game that reaches its turn cap by valuation. True when the game is over, False
    when it was stopped (Ctrl-C)."""
    service, table_id, table = ctx.service, ctx.table_id, ctx.table
    updates: asyncio.Queue = asyncio.Queue()

    async def heard(update) -> None:
        if update.table == table_id:
            updates.put_nowait(update)

    service.subscribe(heard, private=True)
    service.loop.kick(table_id)  # a resumed game: AI seats that owe a move make it first
    while True:
        if not await _settle(ctx, updates) or ctx.stopper.pending:
            return False
        if service.table(table_id).status != "running":
            return True
        if await _match_over(ctx):
            continue
        state = service.state(table_id)
        # several seats may owe answers (a Birthday, trade offers): one at a time
        decision = next((d for d in table.rules.waiting_for(state) if d.seat in ctx.humans), None)
        if decision is None:
            return True
        outcome = await _human_move(ctx, state, decision)
        if outcome is None:  # input ended: the AI plays the seat from here
            ctx.humans.discard(decision.seat)
            await service.lobby.leave(table_id, service.table(table_id).seats[decision.seat]["user"])
            ctx.output(t(ctx.lang, table.takeover_key, seat=ctx.names[decision.seat]))
        elif not outcome.ok:  # legal_actions and apply agree; still, never crash the game
            ctx.output(_explain(table, outcome, ctx.lang))


def _seat_name(user: str, lang: str) -> str:
    """"Player 2" for console:2, "AI 1" for ai:1, in the console's language."""
    kind, _, n = user.partition(":")
    return t(lang, "ui.ai_name" if kind == "ai" else "ui.player_name", n=int(n))


# -- clocks --------------------------------------------------------------------------------------


async def _match_over(ctx: _Context) -> bool:
    """The match clock has run out: end the match by valuation (B-17, D-16). True when it did."""
    ends = await ctx.service.match_ends_at(ctx.table_id)
    if ends is None or ctx.clock() < ends:
        return False
    ctx.output(t(ctx.lang, "console.clock.match_over"))
    outcome = await ctx.service.act_as(ctx.table_id, SYSTEM, EndMatch(reason="time"))
    if not outcome.ok:
        ctx.output(_explain(ctx.table, outcome, ctx.lang))
    return outcome.ok


def _card_deadline(ctx: _Context, state, decision) -> float | None:
    """When this decision's card clock runs out (the Deal tournament's seconds per card)."""
    seconds = getattr(state.options, "card_seconds", 0)
    if decision.policy != "card" or not seconds:
        return None
    asked = ctx.asked_at.setdefault((ctx.service.table(ctx.table_id).version, decision.seat), ctx.clock())
    return asked + seconds


async def _clock_line(ctx: _Context, deadline: float | None) -> str | None:
    parts = []
    now = ctx.clock()
    if deadline is not None:
        parts.append(t(ctx.lang, "console.clock.card", seconds=max(0, int(deadline - now + 0.999))))
    ends = await ctx.service.match_ends_at(ctx.table_id)
    if ends is not None:
        left = max(0, int(ends - now))
        parts.append(t(ctx.lang, "console.clock.match", time=f"{left // 60}:{left % 60:02d}"))
    return "⏱ " + " · ".join(parts) if parts else None


async def _ran_out(ctx: _Context, state, decision, deadline: float | None, label) -> Any:
    """After the input returned: the outcome of a clock that ran out meanwhile, else None."""
    if await _match_over(ctx):
        return _Done()
    if deadline is not None and ctx.clock() >= deadline:
        action = ctx.table.rules.timeout_action(state, decision.seat)
        ctx.output(t(ctx.lang, "console.clock.card_out", action=label(action)))
        return await ctx.service.act_as(ctx.table_id, decision.seat, action)
    return None


class _Done:
    """A move the console made for the table (the match's end): nothing to explain."""

    ok = True


# -- one person's move ---------------------------------------------------------------------------


def confirmation(lang: str, view: dict, action, label: str) -> str | None:
    """The question to ask again before a move that is easy to regret (ending a Deal turn with
    plays left, paying bail, accepting an offer); None when none is needed."""
    if isinstance(action, EndTurn) and view.get("phase") == "play" and view.get("plays_left", 0) > 0:
        return t(lang, "console.confirm.end_turn", plays=view["plays_left"])
    if isinstance(action, PayJailFine | AcceptTrade):
        return t(lang, "console.confirm.move", move=label)
    return None


def _yes(ctx: _Context, question: str) -> bool | None:
    """y/n (in any language); None when the input ended."""
    yes, no = console_keys.words(ctx.lang, "console.yes_words"), console_keys.words(ctx.lang, "console.no_words")
    while True:
        text = ctx.read(question + " ")
        if text is None:
            return None
        if text.lower() in yes:
            return True
        if text.lower() in no:
            return False
        ctx.output(t(ctx.lang, "console.yes_or_no"))


def _help(ctx: _Context, view: dict, argument: str, keys: list[tuple[str, str]]) -> None:
    table = ctx.table
    if argument:
        if not (argument.isascii() and argument.isdigit()):
            ctx.output(t(ctx.lang, "console.help.bad_number", text=argument))
        elif table.game == "deal":
            ctx.output(console_help.card_text(int(argument), ctx.lang))
        else:
            ctx.output(console_help.square_text(view, int(argument), ctx.lang, ctx.names, table.ruleset))
        return
    for line in console_help.legend(table.game, ctx.lang):
        ctx.output(line)
    for key, label in keys:
        ctx.output(f"  {key:>6}  {label}")


def _discard_pile(ctx: _Context, view: dict) -> str:
    """``pile`` at a terminal: the words the chats show (``presenter.discard_pile_words``)."""
    return discard_pile_words(view.get("discard"), ctx.lang, ctx.names)


def _extra_lines(ctx: _Context, view: dict, decision, keyed: list) -> list[str]:
    """What the question needs besides the choices: a street's rents before buying it, and in a
    debt the suggested first step to raise money."""
    table = ctx.table
    if table.game == "deal":
        me = next((p for p in view["players"] if p["seat"] == decision.seat), {})
        cards = " · ".join(f"#{c} {deal_text.card_name(c, ctx.lang)}" for c in me.get("hand") or [])
        return [t(ctx.lang, "console.hand_keys", cards=cards)] if cards else []
    if decision.kind == "buy" and view.get("buy_square", -1) >= 0:
        return [console_help.square_text(view, view["buy_square"], ctx.lang, ctx.names, table.ruleset)]
    if decision.kind == "debt":
        raising = console_help.raise_order(view, decision.seat, [a for _, a in keyed], table.ruleset)
        if raising:
            key = next(k for k, a in keyed if a == raising[0])
            label = _board_label(view, raising[0], ctx.lang, ctx.names, table.ruleset)
            return [t(ctx.lang, "console.suggest_raise", code=key, move=label)]
    return []


async def _human_move(ctx: _Context, state, decision):
    """Show the seat its keys (the service's buttons) and press the one typed; None on EOF."""
    service, table, lang = ctx.service, ctx.table, ctx.lang
    buttons = dict((a, tok) for a, tok in reversed(service.buttons(ctx.table_id, decision.seat)))
    actions = [a for a in table.choices(state, decision) if a in buttons]
    if not actions:
        return None
    board, question, *labels = table.show(state, decision, actions)
    keyed = console_keys.keyed(table.game, actions, table.ruleset)
    label_of = dict(zip(actions, labels, strict=True))
    keys = [(k, label_of[a]) for k, a in keyed]
    view = table.rules.view(state, decision.seat)
    ctx.output(board)
    for line in _summary_lines(ctx):
        ctx.output(line)
    ctx.output(question)
    for line in _extra_lines(ctx, view, decision, keyed):
        ctx.output(line)
    if table.game == "board" and board_rules.trade_template(state, decision.seat) is not None:
        ctx.output(t(lang, "console.trade_hint"))  # B-15: any offer, beyond the listed shortcuts
    for key, label in keys:
        ctx.output(f"  {key:>6}  {label}")
    deadline = _card_deadline(ctx, state, decision)

    def label(action) -> str:
        return label_of.get(action) or table.show(state, decision, [action])[2]

    helps = console_keys.words(lang, "console.help_words")
    piles = console_keys.words(lang, "console.pile_words") if table.game == "deal" else set()
    while True:
        clock_line = await _clock_line(ctx, deadline)
        if clock_line:
            ctx.output(clock_line)
        text = ctx.read(t(lang, "console.enter_key"))
        if text is None:
            return None
        timed = await _ran_out(ctx, state, decision, deadline, label)
        if timed is not None:
            return timed
        word, _, argument = text.partition(" ")
        if word.lower() in helps or text.lower() in helps:
            _help(ctx, view, argument.strip(), keys)
            continue
        if text.lower() in piles:  # D-18: the discard pile, as this seat may look through it now
            ctx.output(_discard_pile(ctx, view))
            continue
        if table.game == "board" and text.strip().lower() in console_trade.OPEN_WORDS:  # B-15: any offer
            user = service.table(ctx.table_id).seats[decision.seat]["user"]
            await console_trade.build(service, ctx.table_id, user, lang, ctx.read, ctx.output)
            return Outcome(True)  # the question is asked again, on the table as it is now
        action, shared = console_keys.resolve(table.game, text, keyed)
        if shared:
            ctx.output(t(lang, "console.which", text=text, keys=", ".join(shared)))
            continue
        if action is None:
            ctx.output(t(lang, "console.unknown_key", text=text))
            continue
        question = confirmation(lang, view, action, label_of[action])
        if question is not None:
            answer = _yes(ctx, question)
            if answer is None:
                return None
            if not answer:
                ctx.output(t(lang, "console.not_done"))
                continue
            timed = await _ran_out(ctx, state, decision, deadline, label)
            if timed is not None:
                return timed
        user = service.table(ctx.table_id).seats[decision.seat]["user"]
        return await service.act(user, buttons[action])


def _explain(table: _Table, outcome, lang: str) -> str:
    if outcome.rule:
        return table.explain(RuleError(outcome.rule, outcome.key, **outcome.params))
    return t(lang, outcome.key or "service.bad_token", **outcome.params)
