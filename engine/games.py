"""The registry of games: name -> rules, and the pieces the simulator needs for each."""

from __future__ import annotations

from engine.board import BOARD
from engine.board import ai as board_ai
from engine.board import basic as board_basic
from engine.board import invariants as board_invariants
from engine.board import strong as board_strong
from engine.board.model import AcceptTrade as BoardAcceptTrade
from engine.board.model import EndMatch as BoardEndMatch
from engine.board.model import TurnEnded as BoardTurnEnded
from engine.board.presentation import BOARD_PRESENTATION
from engine.core.contract import GameRules
from engine.core.presentation import Presentation
from engine.deal import DEAL
from engine.deal import ai as deal_ai
from engine.deal import basic as deal_basic
from engine.deal import invariants as deal_invariants
from engine.deal import strong as deal_strong
from engine.deal.model import TurnEnded
from engine.deal.presentation import DEAL_PRESENTATION
from engine.play.search import SearchKit, policy
from engine.play.simulation import GamePlug

GAMES: dict[str, GameRules] = {"deal": DEAL, "board": BOARD}
SHOWN: dict[str, Presentation] = {"deal": DEAL_PRESENTATION, "board": BOARD_PRESENTATION}  # how each is shown

# the ``strong`` level's search in each game: worlds per candidate move and turns played in each,
# sized to keep a decision within the level's budget (docs/figures.md, ``bench_strong``)
STRONG: dict[str, SearchKit] = {
    "deal": SearchKit(rules=DEAL, heuristic=deal_ai.choose, candidates=deal_strong.candidates,
                      score=deal_strong.score, worlds=64, horizon=8),
    "board": SearchKit(rules=BOARD, heuristic=board_ai.choose, candidates=board_strong.candidates,
                       score=board_strong.score, worlds=32, horizon=16),
}

PLUGS: dict[str, GamePlug] = {
    "deal": GamePlug(
        rules=DEAL,
        choose=deal_ai.choose,
        violations=deal_invariants.violations,
        turn_of=lambda s: s.turn_number,
        turn_ended=lambda e: e.seat if isinstance(e, TurnEnded) else None,
        turn_end_check=deal_invariants.hand_limit_ok,
        turn_cap=400,  # past this turn a game is ended by valuation (the service's loop, the simulator)
        policies={"basic": deal_basic.choose, "strong": policy(STRONG["deal"])},
    ),
    "board": GamePlug(
        rules=BOARD,
        choose=board_ai.choose,
        violations=board_invariants.violations,
        turn_of=lambda s: s.turn_number,
        turn_ended=lambda e: e.seat if isinstance(e, BoardTurnEnded) else None,
        turn_end_check=lambda state, seat: not any(d.debtor == seat for d in state.debts),
        turn_cap=1000,  # past this turn a game is ended by valuation
        at_cap=lambda state: BoardEndMatch(reason="turn_cap"),
        policies={"basic": board_basic.choose, "strong": policy(STRONG["board"])},
        is_trade=lambda action: isinstance(action, BoardAcceptTrade),
        press=board_ai.choose_listed,
    ),
}

# the AI's strengths, weakest first: a seat's level in the lobby, ``--seats`` and ``--ai-level``
LEVELS = ("basic", "ai", "strong")


def chooser(game: str, level: str | None = None):
    """The policy ``(state, seat) -> action`` of an AI seat of ``level`` (None: the default, ``ai``)."""
    plug = PLUGS[game]
    return plug.choose if level in (None, "ai") else plug.policies[level]
