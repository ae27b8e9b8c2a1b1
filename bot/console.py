"""Deal in a terminal: human seats type numbers, AI seats play themselves.

The reference adapter (DESIGN.md, "Presenter and adapters"): it only asks the rules who must act
(``waiting_for``), shows that seat's view and its legal actions through ``bot.deal_text``, and
applies the choice; no game logic lives here. Input and output are injectable so tests drive a
whole game without a terminal.

Human seats come first ("Player 1", ...), AI seats after ("AI 1", ...). A human whose input ends
(EOF, e.g. a closed pipe) is handed to the AI so the game still finishes.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.deal_text import (
    demand_text,
    describe_action,
    describe_event,
    explain_error,
    player_name,
    render_table,
    winners_line,
)
from bot.i18n import normalise_lang, t
from engine.core.errors import RuleError
from engine.deal import DEAL, rules
from engine.deal import ai as deal_ai

GAMES = ("deal",)


def seat_names(players: int, ai_seats: int, lang: str) -> dict[int, str]:
    """Humans first ("Player 1", ...), then the AI seats ("AI 1", ...), in ``lang``."""
    humans = players - ai_seats
    names = {s: t(lang, "ui.player_name", n=s + 1) for s in range(humans)}
    names.update({s: t(lang, "ui.ai_name", n=s - humans + 1) for s in range(humans, players)})
    return names


def _prompt_line(view: dict, decision, lang: str, names) -> str:
    """The question put to a human seat, worded for the kind of decision."""
    seat = decision.seat
    who = player_name(seat, lang, names)
    answerer = "target" if decision.kind in ("respond", "pay") else "attacker"
    pending = next((d for d in view["pending"] if d[answerer] == seat and d["stage"] == decision.kind), None)
    if pending is None:
        return t(lang, f"deal.ui.prompt.{decision.kind}", seat=who)
    return t(lang, f"deal.ui.prompt.{decision.kind}", seat=who,
             attacker=player_name(pending["attacker"], lang, names),
             target=player_name(pending["target"], lang, names),
             amount=pending["amount"], what=demand_text(pending, lang, names))


def _ask(state, decision, lang: str, names, input_fn, output):
    """Show the seat its table and choices and read one; None when its input has ended."""
    seat = decision.seat
    view = DEAL.view(state, seat)
    actions = DEAL.legal_actions(state, seat)
    output(render_table(view, lang, names))
    output(_prompt_line(view, decision, lang, names))
    for i, action in enumerate(actions, 1):
        output(f"  {i:>3}. {describe_action(view, action, lang, names)}")
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
        return t(lang, "ui.not_available", game=game)
    if not (DEAL.min_players <= players <= DEAL.max_players and 0 <= ai <= players):
        return t(lang, "ui.bad_setup", players=players, ai=ai, min=DEAL.min_players, max=DEAL.max_players)
    if ruleset not in DEAL.rulesets:
        return t(lang, "ui.unknown_ruleset", ruleset=ruleset, choices=", ".join(DEAL.rulesets))
    return None


def run_console(game: str, players: int, ai: int, seed: int, lang: str, ruleset: str = "standard",
                input_fn: Callable[[str], str] = input, output: Callable[[str], object] = print,
                max_turns: int = 400) -> int:
    """Play one game in the terminal; 0 when it was played, 2 when it could not start."""
    lang = normalise_lang(lang)
    problem = _check_setup(game, players, ai, ruleset, lang)
    if problem:
        output(problem)
        return 2
    names = seat_names(players, ai, lang)
    humans = set(range(players - ai))
    # With one human at the terminal, log lines may show that player's own draws; with several
    # (hot seat) or none, only what the whole table may see.
    viewer = min(humans) if len(humans) == 1 else None
    state, opening = rules.new_game_with_events(players, ruleset, seed)
    for event in opening:
        output(describe_event(event, lang, names, viewer))

    while not DEAL.result(state).over:
        decisions = DEAL.waiting_for(state)
        if not decisions:
            break
        if state.turn_number > max_turns:
            output(t(lang, "ui.turn_cap", turns=max_turns))
            break
        decision = decisions[0]  # several seats may owe answers (a Birthday): one at a time
        seat = decision.seat
        action = None
        if seat in humans:
            action = _ask(state, decision, lang, names, input_fn, output)
            if action is None:
                humans.discard(seat)
                output(t(lang, "ui.takeover", seat=names[seat]))
        if action is None:
            action = deal_ai.choose(state, seat) or decision.timeout
        try:
            events = DEAL.apply(state, seat, action)
        except RuleError as err:  # legal_actions and apply agree; still, never crash the game
            output(explain_error(err, lang, names))
            if seat in humans:
                continue
            events = DEAL.apply(state, seat, decision.timeout)
        for event in events:
            output(describe_event(event, lang, names, viewer))

    output(f"== {t(lang, 'deal.ui.game_over')} ==")
    output(winners_line(DEAL.result(state).winners, lang, names))
    return 0
