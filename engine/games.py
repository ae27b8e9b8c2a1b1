"""The registry of games: name -> rules, and the pieces the simulator needs for each."""

from __future__ import annotations

from engine.core.contract import GameRules
from engine.deal import DEAL
from engine.deal import ai as deal_ai
from engine.deal import invariants as deal_invariants
from engine.deal.model import TurnEnded
from engine.simulation import GamePlug

GAMES: dict[str, GameRules] = {"deal": DEAL}

PLUGS: dict[str, GamePlug] = {
    "deal": GamePlug(
        rules=DEAL,
        choose=deal_ai.choose,
        violations=deal_invariants.violations,
        turn_of=lambda s: s.turn_number,
        turn_ended=lambda e: e.seat if isinstance(e, TurnEnded) else None,
        turn_end_check=deal_invariants.hand_limit_ok,
    ),
}
