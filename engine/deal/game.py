"""大富翁纸牌 declared once (``engine.core.game.Game``): its rules, presentation, AI levels, the
options a group may switch and the tournament's card clock (D-16)."""

from __future__ import annotations

from engine.core.game import Game, Toggle
from engine.deal import DEAL
from engine.deal import ai as deal_ai
from engine.deal import basic as deal_basic
from engine.deal import invariants as deal_invariants
from engine.deal import rules as deal_rules
from engine.deal import strong as deal_strong
from engine.deal.feats import DEAL_FEATS
from engine.deal.model import DealOptions, TurnEnded
from engine.deal.presentation import DEAL_PRESENTATION
from engine.play.search import SearchKit, policy

# the ``strong`` level's search: worlds per candidate move and turns played in each, sized to keep
# a decision within the level's budget (docs/figures.md, ``bench_strong``)
STRONG = SearchKit(rules=DEAL, heuristic=deal_ai.choose, candidates=deal_strong.candidates,
                   score=deal_strong.score, worlds=64, horizon=8)

DEAL_GAME = Game(
    rules=DEAL,
    presentation=DEAL_PRESENTATION,
    choose=deal_ai.choose,
    violations=deal_invariants.violations,
    turn_of=lambda s: s.turn_number,
    turn_ended=lambda e: e.seat if isinstance(e, TurnEnded) else None,
    turn_end_check=deal_invariants.hand_limit_ok,
    turn_cap=400,
    policies={"basic": deal_basic.choose, "strong": policy(STRONG)},
    strong=STRONG,
    options_type=DealOptions,
    resolve_options=deal_rules.resolve_options,
    # in the order the lobby shows them; new entries go at the end (codes stay stable)
    toggles=(
        Toggle("discard_to_pile", "pile", "D-04"),
        Toggle("single_double_rent", "onedbl", "D-09"),
        Toggle("wild_sets", "wild", "D-07"),
        Toggle("ordered_payment", "order", "D-14"),
        Toggle("private_discard", "privd", "D-18"),
    ),
    card_clock="card_seconds",
    feats=DEAL_FEATS,
)
