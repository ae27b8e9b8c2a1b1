"""The contract both games share: rule errors, the seeded generator, decisions, results, JSON codec.

A game is a module-level ``GameRules`` value (see ``contract.py``); the service and the adapters
only ever talk to that value, never to a game's internals.
"""

from engine.core.contract import Decision, GameRules, Result
from engine.core.errors import RuleError
from engine.core.rng import Rng

__all__ = ["Decision", "GameRules", "Result", "RuleError", "Rng"]
