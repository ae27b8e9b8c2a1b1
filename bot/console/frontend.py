"""Deal and 地产大亨 in a terminal: human seats type keys, AI seats play themselves.

A front end of the service like the chat bots and the web: it subscribes to the table's updates
and prints their events as every screen words them (``bot.chat.screens.event_lines``); when a person
at this terminal must act, it shows that seat's own view and its choices (``bot.console.turn``) and
presses the chosen one. It reads views only, never a game's state, and what differs between the
games is a ``bot.console.games`` kit. AI seats, the turn cap and the clocks are the service's. Input,
output and the clock are injectable so tests drive a whole game without a terminal and without
waiting.

Every move goes through the service (``GameService``: tokens, the database, the version check),
as a chat's would. Human seats come first ("Player 1", ...), AI seats after ("AI 1", ...). A human
whose input ends (EOF, e.g. a closed pipe) is handed to the AI so the game still finishes.

Keys (``bot.console.keys``): a letter or word per kind of move and numbers that name cards or
squares, so a key means the same thing after the next move. Ending a Deal turn with plays left,
paying bail and accepting an offer are asked again (y/n). ``pile`` (弃牌堆) lists the Deal discard
pile when the rules let the seat look through it (D-18).

Where the game lives: ``--db FILE``, else ``console.db`` in the user's data folder
(``bot.console.options.data_dir``), so Ctrl-C and the same command again resume it. Ctrl-C while
the terminal waits for input stops at once (no move is in progress); while the service is making a
move (AI seats) it is noted and the loop stops once the move is stored, so a move is either
stored whole or not at all (the database transaction), and one line says where the game is.

Clocks (D-16, B-17): only the rule set's own clocks run at a terminal (the match clock, the Deal
tournament's seconds per card), checked when the input returns; the chats' clocks (the 60-second
turn, payments) do not (``bot.console.turn``).
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

from bot.chat.screens import event_lines
from bot.console import options as console_options
from bot.console.games import KITS, ConsoleKit
from bot.console.turn import explain, human_move, match_over
from engine.games import GAMES
from engine.service.tables import GameService
from engine.service.views import PublicView
from words.games import WORDS
from words.i18n import normalise_lang, t

DEFAULT_RULESETS = {name: game.rules.rulesets[0] for name, game in GAMES.items()}
SUMMARY_ITEMS = 6  # what one AI seat did since your last move: at most this many items, then "+N"
CHAT = "console"


def seat_names(players: int, ai_seats: int, lang: str) -> dict[int, str]:
    """Humans first ("Player 1", ...), then the AI seats ("AI 1", ...), in ``lang``."""
    humans = players - ai_seats
    names = {s: t(lang, "ui.player_name", n=s + 1) for s in range(humans)}
    names.update({s: t(lang, "ui.ai_name", n=s - humans + 1) for s in range(humans, players)})
    return names


def _check_setup(game: str, players: int, ai: int, ruleset: str, lang: str) -> str | None:
    """Why the game cannot start, in words; None when it can."""
    if game not in GAMES:
        return t(lang, "ui.unknown_game", game=game, choices=", ".join(GAMES))
    rules_ = GAMES[game].rules
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
                clock: Callable[[], float] = time.time, scratch: bool = False, ai_level: str = "ai") -> int:
    """Play one game in the terminal through the service; 0 when it was played (or saved to resume),
    2 when it could not start.

    ``ruleset`` defaults to the game's first (Deal "standard", the board "china"); past
    ``max_turns`` (default: the game's cap, 400 Deal turns, 1000 on the board) the game ends by
    valuation, as the match clock would end it. ``options`` are ``name=value`` rule options. The
    game is kept in ``db`` (a SQLite file), by default ``console.db`` in the user's data folder:
    Ctrl-C or a kill, then the same command again, and it goes on where it stopped. ``scratch``
    keeps it in a scratch database for this run only (``tycoon run``'s demonstration game).
    ``clock`` times the rule set's clocks; ``ai_level`` is the AI seats' strength (basic, ai, strong).
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
    setup = _Setup(game, players, ai, seed, lang, {"ruleset": ruleset, **chosen}, max_turns or 0, clock, ai_level)
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
    cap: int  # 0: the game's own turn cap
    clock: Callable[[], float]
    ai_level: str = "ai"


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
            await service.lobby.add_ai(out.table, "console:1", s.ai_level)
    if not humans:  # an all-AI table: the one who opened it only watches
        await service.lobby.add_ai(out.table, "console:1", s.ai_level)
        await service.lobby.leave(out.table, "console:1")
    extra = {k: v for k, v in s.options.items() if k != "ruleset"}
    await service.lobby.start(out.table, "console:1", seed=s.seed, turn_cap=s.cap, options=extra)
    return out.table, False


def _rules_line(view: PublicView, lang: str) -> str:
    """Which rule set and which options are on: shown when a game starts or resumes."""
    on = console_options.options_on(view.settings)
    shown = ", ".join(f"{name}" if value is True else f"{name}={value}" for name, value in on)
    return t(lang, "console.rules", ruleset=view.ruleset, options=shown or t(lang, "console.none"))


def _seat_name(user: str, lang: str) -> str:
    """"Player 2" for console:2, "AI 1" for ai:1, in the console's language."""
    kind, _, n = user.partition(":")
    return t(lang, "ui.ai_name" if kind == "ai" else "ui.player_name", n=int(n))


async def _play(s: _Setup, input_fn, output, db: str, stopper: _Interrupt, kept: bool) -> int:
    lang = s.lang
    service = await GameService.open(f"sqlite:///{db}", clock=s.clock)
    stopper.loop, stopper.stop = asyncio.get_running_loop(), asyncio.Event()
    saved = t(lang, "ui.saved", db=db) if kept else t(lang, "console.stopped")
    try:
        table_id, resumed = await _open_table(service, s, seat_names(s.players, s.ai, lang))
        view = await service.public_view(table_id)
        names = {i: _seat_name(seat.user, lang) for i, seat in enumerate(view.seats)}
        humans = {i for i, seat in enumerate(view.seats) if not seat.ai}
        # one person at a table of hands: the log is worded for their eyes (their own draws)
        viewer = min(humans) if view.own_from_start and len(humans) == 1 else None
        ctx = _Context(service, table_id, view.game, view.ruleset, KITS[view.game], humans, names, lang, input_fn,
                       output, s.clock, stopper, viewer)
        output(_rules_line(view, lang))
        if resumed:
            output(t(lang, "ui.resumed", turn=view.turn))
            for player in view.board["players"]:
                output(ctx.kit.standing(player, lang, names, view.ruleset))
        else:  # the opening (the deal, the first turn), from the stored log
            for line in event_lines(view, await service.seen.history(table_id, viewer), lang, names, viewer):
                output(line)
        try:
            finished = await _loop(ctx)
        except KeyboardInterrupt:  # typed while the terminal waited for a key: end that line first
            output("")
            finished = False
        if not finished:
            output(saved)
            return 0
        view = await service.public_view(table_id)
        output(f"== {t(lang, ctx.kit.game_over)} ==")
        output(WORDS[view.game].winners(view.winners, lang, names))
        return 0
    finally:
        stopper.loop = None
        await service.close()


@dataclass
class _Context:
    """One console game being played: the service, the table, who sits here, input and output."""

    service: GameService
    table_id: int
    game: str
    ruleset: str
    kit: ConsoleKit
    humans: set[int]
    names: dict[int, str]
    lang: str
    input_fn: Callable[[str], str]
    output: Callable[[str], object]
    clock: Callable[[], float]
    stopper: _Interrupt
    viewer: int | None = None  # the one person at a table of hands
    since: dict[int, list[str]] = field(default_factory=dict)  # AI seat -> what it did since you moved

    def read(self, prompt: str) -> str | None:
        """One line typed; None when the input has ended."""
        self.stopper.reading = True
        try:
            return (self.input_fn(prompt) or "").strip()
        except EOFError:
            return None
        finally:
            self.stopper.reading = False

    def summary_lines(self) -> list[str]:
        """What each AI seat did since the person here last moved (then forgotten)."""
        if not self.since:
            return []
        out = [t(self.lang, "console.since")]
        for seat in sorted(self.since):
            items = self.since[seat]
            shown = items[-SUMMARY_ITEMS:]
            text = "; ".join(shown)
            if len(items) > len(shown):
                text = t(self.lang, "console.since_more", count=len(items) - len(shown)) + " " + text
            out.append(f"  {self.names[seat]}: {text}")
        self.since.clear()
        return out


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
    while not updates.empty():  # what happened, worded as in the chats
        update = updates.get_nowait()
        if update.public is None:  # a damaged table: nothing to word
            continue
        view, events = _seen(ctx, update)
        for line in event_lines(view, events, ctx.lang, ctx.names, ctx.viewer):
            ctx.output(line)
        _note_ai_moves(ctx, update)
    return True


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
    if ctx.viewer is not None and ctx.viewer in update.private:
        return update.private[ctx.viewer], update.private[ctx.viewer].events
    return update.public, update.public.events if update.public is not None else []


def _note_ai_moves(ctx: _Context, update) -> None:
    """Keep what AI seats did, per seat, for the summary before the next prompt. Left out: the
    routine (the full log is printed above it, and where each seat stands is in the table below
    it); the summary keeps what changed hands (buys, payments, cards, builds, takes)."""
    if not ctx.humans or update.public is None:
        return
    view, events = _seen(ctx, update)
    for event in events:
        seat = _actor(event)
        if isinstance(event, ctx.kit.routine) or seat is None or seat in ctx.humans or seat not in ctx.names:
            continue
        for line in event_lines(view, [event], ctx.lang, ctx.names, ctx.viewer):
            line = line.strip()  # "AI 1 laid …" -> "laid …": the summary line starts with the name
            name = ctx.names[seat]  # (not a possessive: "AI 1's turn ends" stays whole)
            short = line[len(name):].strip() if line.startswith(name) and line[len(name):][:1] not in "'’" else line
            ctx.since.setdefault(seat, []).append((short or line).rstrip("。."))  # items are joined by "; "


async def _loop(ctx: _Context) -> bool:
    """Print each table update's events and ask the people at this terminal when one of them must
    act. True when the game is over, False when it was stopped (Ctrl-C)."""
    service, table_id = ctx.service, ctx.table_id
    updates: asyncio.Queue = asyncio.Queue()

    async def heard(update) -> None:
        if update.table == table_id:
            updates.put_nowait(update)

    service.subscribe(heard, private=ctx.viewer is not None)
    service.core.outbox.kick(table_id)  # a resumed game: AI seats that owe a move make it first
    while True:
        if not await _settle(ctx, updates) or ctx.stopper.pending:
            return False
        view = await service.public_view(table_id)
        if view.status != "running":
            return True
        if await match_over(ctx):
            continue
        # several seats may owe answers (a Birthday, trade offers): one at a time
        ask = next((a for a in view.asks if a.seat in ctx.humans), None)
        if ask is None:
            return True
        outcome = await human_move(ctx, ask)
        if outcome is None:  # input ended: the AI plays the seat from here
            ctx.humans.discard(ask.seat)
            await service.lobby.leave(table_id, view.seats[ask.seat].user)
            ctx.output(t(ctx.lang, ctx.kit.takeover, seat=ctx.names[ask.seat]))
        elif not outcome.ok:  # legal_actions and apply agree; still, never crash the game
            ctx.output(explain(ctx, outcome))
