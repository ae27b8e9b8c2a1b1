"""大富翁纸牌 (Monopoly Deal): the rules (``rules``), its data model (``model``), the property
area and payment helpers, and the AI player. ``DEAL`` is the game as the service sees it.
"""

from engine.core.contract import GameRules
from engine.deal import rules
from engine.deal.model import DealAction, DealEvent, DealState
from engine.deal.sampling import resample

DEAL = GameRules.of("deal", rules, DealState, DealAction, DealEvent, resample)

__all__ = ["DEAL"]
