"""Deal and 地产大亨 in a terminal: human seats type numbers, AI seats play themselves.

The reference adapter (DESIGN.md, "Presenter and adapters"): a subscriber to the service's table
updates like the chat bots. Each update's events are printed as the presenter words them; when a
person at this terminal must act, it shows that seat's view and its legal actions through the
game's text module (``words.deal_text``, ``words.board_text``) and presses the chosen button; no
game logic lives here. AI seats and the turn cap are the service's. Input and output are
injectable so tests drive a whole game without a terminal.

Every move goes through the service (``GameService``: tokens, the database, the version check),
as a chat adapter's would. Both games share one loop; a ``_Table`` holds what differs (how to
word and ask).
Human seats come first ("Player 1", ...), AI seats after ("AI 1", ...). A human whose input ends
(EOF, e.g. a closed pipe) is handed to the AI so the game still finishes.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.presenter import event_lines
from engine.board import BOARD
from engine.board import rules as board_rules
from engine.core.contract import GameRules
from engine.core.errors import RuleError
from engine.deal import DEAL, rules
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


def seat_names(players: int, ai_seats: int, lang: str) -> dict[int, str]:
    """Humans first ("Player 1", ...), then the AI seats ("AI 1", ...), in ``lang``."""
    humans = players - ai_seats
    names = {s: t(lang, "ui.player_name", n=s + 1) for s in range(humans)}
    names.update({s: t(lang, "ui.ai_name", n=s - humans + 1) for s in range(humans, players)})
    return names


@dataclass(frozen=True)
class _Table:
    """What the shared loop needs from one game, already bound to the language and the names."""

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


def _deal_table(players: int, seed: int, ruleset: str, lang: str, names, viewer: int | None) -> _Table:
    def show(state, decision, actions):
        view = DEAL.view(state, decision.seat)
        return [render_table(view, lang, names), deal_text.prompt_line(view, decision, lang, names),
                *(describe_action(view, a, lang, names) for a in actions)]

    return _Table(
        rules=DEAL,
        start=lambda: rules.new_game_with_events(players, ruleset, seed),
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


def _board_table(players: int, seed: int, ruleset: str, lang: str, names) -> _Table:
    def show(state, decision, actions):
        view = BOARD.view(state, decision.seat)
        return [board_text.render_board(view, lang, names, ruleset),
                board_text.prompt_line(view, decision, lang, names, ruleset),
                *(board_text.describe_action(view, a, lang, names, ruleset) for a in actions)]

    return _Table(
        rules=BOARD,
        start=lambda: board_rules.new_game_with_events(players, ruleset, seed),
        choices=lambda state, decision: board_text.decision_first(BOARD.legal_actions(state, decision.seat),
                                                                  decision),
        show=show,
        log=lambda events: board_text.log_lines(events, lang, names, ruleset),
        explain=lambda err: board_text.explain_error(err, lang, ruleset, names),
        takeover_key="board.ui.takeover",
        game_over=t(lang, "board.ui.game_over"),
        winners=lambda winners: board_text.winners_line(winners, lang, names),
    )


# -- the shared loop -----------------------------------------------------------------------------


def _ask(table: _Table, state, decision, actions: list, lang: str, input_fn, output):
    """Show the seat its table and choices and read one; None when its input has ended."""
    board, question, *labels = table.show(state, decision, actions)
    output(board)
    output(question)
    for i, label in enumerate(labels, 1):
        output(f"  {i:>3}. {label}")
    while True:
        try:
            text = (input_fn(t(lang, "ui.enter_number", max=len(actions))) or "").strip()
        except EOFError:
            return None
        try:
            number = int(text)
        except ValueError:
            output(t(lang, "ui.not_a_number", text=text, max=len(actions)))
            continue
        if not 1 <= number <= len(actions):
            output(t(lang, "ui.out_of_range", number=number, max=len(actions)))
            continue
        return actions[number - 1]


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


def run_console(game: str, players: int, ai: int, seed: int, lang: str, ruleset: str | None = None,
                input_fn: Callable[[str], str] = input, output: Callable[[str], object] = print,
                max_turns: int | None = None, db: str | None = None) -> int:
    """Play one game in the terminal through the service; 0 when it was played (or saved to resume),
    2 when it could not start.

    ``ruleset`` and ``max_turns`` default per game: Deal "standard" and 400 turns, the board
    "china" and 1000 turns (then it ends by valuation, as the match clock would end it). With
    ``db`` (a SQLite file) the game is kept there: Ctrl-C or a kill, then the same command again,
    and it goes on where it stopped. Without, it lives in a scratch database for this run.
    """
    lang = normalise_lang(lang)
    ruleset = ruleset or DEFAULT_RULESETS.get(game, "")
    problem = _check_setup(game, players, ai, ruleset, lang)
    if problem:
        output(problem)
        return 2
    cap = DEFAULT_MAX_TURNS[game] if max_turns is None else max_turns
    if db is not None:
        return asyncio.run(_play(game, players, ai, seed, lang, ruleset, input_fn, output, cap, db))
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_play(game, players, ai, seed, lang, ruleset, input_fn, output, cap,
                                 str(Path(tmp) / "console.db")))


CHAT = "console"


async def _open_table(service: GameService, game: str, players: int, ai: int, seed: int, ruleset: str,
                      names: dict[int, str], cap: int) -> tuple[int, bool]:
    """The console's running table of this game, or a new one; (table id, resumed?)."""
    existing = await service.lobby.table_in_chat(f"{CHAT}:{game}")
    if existing is not None and existing.status == "running":
        return existing.id, True
    if existing is not None:  # a lobby left behind by an interrupted start
        await service.lobby.cancel(existing.id, existing.creator)
    humans = players - ai
    out = await service.lobby.new_table(f"{CHAT}:{game}", game, ruleset, "console:1", names[0])
    for seat in range(1, players):
        if seat < humans:
            await service.lobby.join(out.table, f"console:{seat + 1}", names[seat])
        else:
            await service.lobby.add_ai(out.table, "console:1")
    if not humans:  # an all-AI table: the one who opened it only watches
        await service.lobby.add_ai(out.table, "console:1")
        await service.lobby.leave(out.table, "console:1")
    await service.lobby.start(out.table, "console:1", seed=seed, turn_cap=cap)
    return out.table, False


async def _play(game: str, players: int, ai: int, seed: int, lang: str, ruleset: str, input_fn, output,
                cap: int, db: str) -> int:
    service = await GameService.open(f"sqlite:///{db}")
    try:
        names = seat_names(players, ai, lang)
        table_id, resumed = await _open_table(service, game, players, ai, seed, ruleset, names, cap)
        row = service.table(table_id)
        names = {i: _seat_name(s["user"], lang) for i, s in enumerate(row.seats)}
        players = len(row.seats)
        humans = {i for i, s in enumerate(row.seats) if not s["ai"]}
        viewer = min(humans) if game == "deal" and len(humans) == 1 else None
        table = (_deal_table(players, row.seed, row.ruleset, lang, names, viewer) if game == "deal"
                 else _board_table(players, row.seed, row.ruleset, lang, names))
        if resumed:
            output(t(lang, "ui.resumed", turn=service.state(table_id).turn_number))
        else:
            _, opening = table.start()  # the same opening the service's game had (same seed)
            for line in table.log(opening):
                output(line)
        try:
            await _loop(service, table_id, table, humans, names, lang, input_fn, output)
        except KeyboardInterrupt:
            output(t(lang, "ui.saved", db=db))
            return 0
        state = service.state(table_id)
        output(f"== {table.game_over} ==")
        output(table.winners(table.rules.result(state).winners))
        return 0
    finally:
        await service.close()


async def _loop(service: GameService, table_id: int, table: _Table, humans: set[int], names, lang: str,
                input_fn, output) -> None:
    """The console as a front end of the service: it prints each table update's events and asks
    the people at this terminal when one of them must act. The service's loop moves the AI seats
    and ends a game that reaches its turn cap by valuation."""
    updates: asyncio.Queue = asyncio.Queue()

    async def heard(update) -> None:
        if update.table == table_id:
            updates.put_nowait(update)

    service.subscribe(heard)
    service.loop.kick(table_id)  # a resumed game: AI seats that owe a move make it first
    while True:
        await service.idle()
        while not updates.empty():  # what happened, worded by the presenter as in the chats
            update = updates.get_nowait()
            for line in event_lines(update.snapshot, update.events, lang, table.viewer, names):
                output(line)
        if service.table(table_id).status != "running":
            return
        state = service.state(table_id)
        # several seats may owe answers (a Birthday, trade offers): one at a time
        decision = next((d for d in table.rules.waiting_for(state) if d.seat in humans), None)
        if decision is None:
            return
        outcome = await _human_move(service, table_id, table, state, decision, lang, input_fn, output)
        if outcome is None:  # input ended: the AI plays the seat from here
            humans.discard(decision.seat)
            await service.lobby.leave(table_id, service.table(table_id).seats[decision.seat]["user"])
            output(t(lang, table.takeover_key, seat=names[decision.seat]))
        elif not outcome.ok:  # legal_actions and apply agree; still, never crash the game
            output(_explain(table, outcome, lang))


def _seat_name(user: str, lang: str) -> str:
    """"Player 2" for console:2, "AI 1" for ai:1, in the console's language."""
    kind, _, n = user.partition(":")
    return t(lang, "ui.ai_name" if kind == "ai" else "ui.player_name", n=int(n))


async def _human_move(service: GameService, table_id: int, table: _Table, state, decision, lang: str,
                      input_fn, output):
    """Show the seat its buttons (the service's tokens) and press the one typed; None on EOF."""
    buttons = dict((a, tok) for a, tok in reversed(service.buttons(table_id, decision.seat)))
    actions = [a for a in table.choices(state, decision) if a in buttons]
    action = _ask(table, state, decision, actions, lang, input_fn, output) if actions else None
    if action is None:
        return None
    user = service.table(table_id).seats[decision.seat]["user"]
    return await service.act(user, buttons[action])


def _explain(table: _Table, outcome, lang: str) -> str:
    if outcome.rule:
        return table.explain(RuleError(outcome.rule, outcome.key, **outcome.params))
    return t(lang, outcome.key or "service.bad_token", **outcome.params)
