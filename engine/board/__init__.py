"""地产大亨 (Monopoly): boards and decks (``data``), the model, the rules (B-01 … B-19), the AI
player, the invariants and the landing simulation. ``BOARD`` is the game as the service sees it.
"""

from engine.board import rules
from engine.board.model import BoardAction, BoardEvent, BoardState
from engine.board.sampling import resample
from engine.core.contract import GameRules

BOARD = GameRules.of("board", rules, BoardState, BoardAction, BoardEvent, resample)

__all__ = ["BOARD"]
