"""地产大亨 (Monopoly): boards and decks (``data``), the model, the rules (B-01 … B-19), the AI
player and the invariants. ``BOARD`` is the game as the service sees it.
"""

from engine.board import rules
from engine.board.model import BoardAction, BoardEvent, BoardState
from engine.core.contract import GameRules

BOARD = GameRules(
    name="board",
    rulesets=rules.RULESETS,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    new_game=rules.new_game,
    legal_actions=rules.legal_actions,
    apply=rules.apply,
    view=rules.view,
    waiting_for=rules.waiting_for,
    timeout_action=rules.timeout_action,
    result=rules.result,
    state_type=BoardState,
    action_type=BoardAction,
    event_type=BoardEvent,
)

__all__ = ["BOARD"]
