"""大富翁纸牌 (Monopoly Deal): the rules (``rules``), its data model (``model``), the property
area and payment helpers, and the AI player. ``DEAL`` is the game as the service sees it.
"""

from engine.core.contract import GameRules
from engine.deal import rules
from engine.deal.model import RULESETS, DealAction, DealEvent, DealState

DEAL = GameRules(
    name="deal",
    rulesets=tuple(RULESETS),
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    new_game=rules.new_game,
    legal_actions=rules.legal_actions,
    apply=rules.apply,
    view=rules.view,
    waiting_for=rules.waiting_for,
    timeout_action=rules.timeout_action,
    result=rules.result,
    state_type=DealState,
    action_type=DealAction,
    event_type=DealEvent,
)

__all__ = ["DEAL"]
