"""地产大亨 declared once (``engine.core.game.Game``): its rules, presentation, AI levels, the options
a group may switch, the trade offer a player composes (B-15), a tournament round's defaults and
where a token's rolls end."""

from __future__ import annotations

from engine.board import BOARD
from engine.board import ai as board_ai
from engine.board import basic as board_basic
from engine.board import invariants as board_invariants
from engine.board import rules as board_rules
from engine.board import strong as board_strong
from engine.board.feats import BOARD_FEATS
from engine.board.landing import landing_frequencies
from engine.board.model import AcceptTrade, Bid, BoardOptions, EndMatch, ProposeTrade, TurnEnded
from engine.board.presentation import BOARD_PRESENTATION
from engine.core.game import Game, Toggle
from engine.play.search import SearchKit, policy

# the ``strong`` level's search (docs/figures.md, ``bench_strong``)
STRONG = SearchKit(rules=BOARD, heuristic=board_ai.choose, candidates=board_strong.candidates,
                   score=board_strong.score, worlds=32, horizon=16)


def round_defaults(round_no: int, rounds: int) -> dict:
    """A tournament round's tables (seed 000): rent is claimed, and no trading before the final."""
    defaults: dict = {}
    if "rent_claim" in BoardOptions.__struct_fields__:  # the engine may not have it yet
        defaults["rent_claim"] = True
    if round_no < rounds:
        defaults["no_trading"] = True
    return defaults


BOARD_GAME = Game(
    rules=BOARD,
    presentation=BOARD_PRESENTATION,
    choose=board_ai.choose,
    violations=board_invariants.violations,
    turn_of=lambda s: s.turn_number,
    turn_ended=lambda e: e.seat if isinstance(e, TurnEnded) else None,
    turn_end_check=lambda state, seat: not any(d.debtor == seat for d in state.debts),
    turn_cap=1000,
    at_cap=lambda state: EndMatch(reason="turn_cap"),
    policies={"basic": board_basic.choose, "strong": policy(STRONG)},
    strong=STRONG,
    is_trade=lambda action: isinstance(action, AcceptTrade),
    press=board_ai.choose_listed,
    options_type=BoardOptions,
    resolve_options=board_rules.resolve_options,
    # in the order the lobby shows them; new entries go at the end (codes stay stable)
    toggles=(
        Toggle("income_tax_choice", "tax", "B-08"),
        Toggle("no_trading", "notrade", "B-15"),
        Toggle("doubles_lock", "dbllock", "B-02"),
        Toggle("rent_claim", "claim", "B-06"),
        Toggle("uneven_building", "uneven", "B-11"),
        Toggle("free_parking_pot", "pot", "B-10"),
    ),
    offer_type=ProposeTrade,
    amount_kind="bid",
    amount_move=lambda amount: Bid(amount=amount),
    amount_bounds=lambda view, seat: (view.get("min_bid"), (view.get("bid_reach") or {}).get(seat)),
    round_defaults=round_defaults,
    landing=landing_frequencies,
    feats=BOARD_FEATS,
)
