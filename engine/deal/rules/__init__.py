"""大富翁纸牌 (Monopoly Deal) rules, D-01 … D-18, as a deterministic state machine.

``apply`` validates an action completely before touching the state, so a refused action leaves
the state byte-identical; then it mutates in place and returns events. Out-of-turn answers (Just
Say No windows, payments, placing a received House) are ``Demand`` records in ``state.pending``,
one per target, each answered independently (docs/design.md: out-of-turn answers are data).

Decisions recorded here where the seeds are silent:
- the start-of-turn draw is automatic (there is never a reason not to draw);
- a turn ends by itself once the third play has resolved and the hand holds 7 cards or fewer;
- a property received as payment or taken by Sly/Forced Deal/Deal Breaker is placed where it
  serves its new owner best (completing a set first); the owner may re-arrange on their turn;
- D-13 ``open_answers`` (the default): every target of an action is asked to answer it (say no,
  or accept), whether or not they hold a Just Say No, and after a no the other side is asked the
  same way (a player without one can only accept), so neither the public view nor who is waiting
  tells who holds one; the only action that goes straight through is a payment the target could
  not pay anything towards, since what lies on the table is public anyway. With
  ``open_answers=False`` (games stored before it existed) a window opens only for a target (or
  attacker) who holds a Just Say No;
- at the D-16 time-out, equal value and equal complete sets share the win.

The rules are a package along their sections: ``base`` (the counts and amounts, and what every
part shares: the seat on turn, the draw, starting and ending a turn), ``setup`` (D-01),
``choices`` (``legal_actions``), ``plays`` (``apply`` and the plays of a turn), ``demands`` (Just
Say No windows, payment, placing received buildings), ``ending`` (valuation, the win, the time-out)
and ``views`` (``waiting_for``, ``answers``, ``timeout_action``, ``result``, ``view``,
``event_for``). This module re-exports every name the other modules and the tests use, so
``engine.deal.rules`` reads as one module from outside.
"""

from __future__ import annotations

from engine.deal.rules.base import (
    BIRTHDAY_AMOUNT,
    DEBT_AMOUNT,
    HAND_LIMIT,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAY_KINDS,
    PLAYS_PER_TURN,
    RULESETS,
    current_seat,
    keep_rank,
)
from engine.deal.rules.choices import legal_actions, pending_options, turn_options
from engine.deal.rules.ending import valuation
from engine.deal.rules.plays import apply
from engine.deal.rules.setup import new_game, new_game_with_events, resolve_options
from engine.deal.rules.views import answers, discard_pile_for, event_for, result, timeout_action, view, waiting_for

# what other modules and the tests import from ``engine.deal.rules`` (and the public names the single module had)
__all__ = [
    "answers", "apply", "BIRTHDAY_AMOUNT", "current_seat", "DEBT_AMOUNT", "discard_pile_for", "event_for",
    "HAND_LIMIT", "HAND_SIZE", "keep_rank", "legal_actions", "MAX_PLAYERS", "MIN_PLAYERS", "new_game",
    "new_game_with_events", "PAY_KINDS", "pending_options", "PLAYS_PER_TURN", "resolve_options", "result",
    "RULESETS", "timeout_action", "turn_options", "valuation", "view", "waiting_for",
]
