"""D-14 auto-pay: always a valid payment, and the cheapest one by its own cost measure."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.deal import DEAL
from engine.deal.ai import choose
from engine.deal.cards import VALUE
from engine.deal.payment import _cheapest_cover, auto_selection, check_selection, payable
from engine.deal.rules import new_game
from engine.play.simulation import game_seeds


def test_D14_cheapest_cover_is_optimal_against_brute_force():
    r = random.Random(3)
    cards = [c for c in range(106) if VALUE[c] > 0]
    for _ in range(1500):
        items = r.sample(cards, r.randint(1, 8))
        cost = {c: 4 * VALUE[c] + r.choice([0, 0, 5, 9]) for c in items}
        amount = r.randint(1, 20)
        got = _cheapest_cover(items, amount, cost)
        covers = [
            sum(cost[c] for c in comb)
            for k in range(1, len(items) + 1)
            for comb in itertools.combinations(items, k)
            if sum(VALUE[c] for c in comb) >= amount
        ]
        if not covers:
            assert sorted(got) == sorted(items)
        else:
            assert sum(VALUE[c] for c in got) >= amount
            assert sum(cost[c] for c in got) == min(covers)


@pytest.mark.parametrize("ruleset", ["standard", "tournament"])
def test_D14_auto_pay_is_always_a_valid_payment(ruleset):
    checked = 0
    for seed in game_seeds(21, 30):
        state = new_game(4, ruleset, seed)
        while state.phase != "over" and state.turn_number < 200:
            decision = DEAL.waiting_for(state)[0]
            if decision.kind == "pay":
                d = next(d for d in state.pending if d.target == decision.seat and d.stage == "pay")
                p = state.players[decision.seat]
                for amount in (d.amount, 1, 7, 30):
                    chosen = auto_selection(p, amount, state.options)
                    if sum(VALUE[c] for c in payable(p)) > amount:
                        check_selection(p, chosen, amount, state.options)
                        checked += 1
            DEAL.apply(state, decision.seat, choose(state, decision.seat))
    assert checked > 50


@pytest.mark.parametrize("ruleset", ["standard", "tournament"])
def test_D14_choosing_cards_to_pay_never_dead_ends(ruleset):
    """Issue 45: a payer choosing cards one by one always has a way to pay ("pay automatically",
    and "confirm" once the chosen cards make a valid payment) and, whenever the cards chosen cover
    the debt but cannot be paid as they are, the view says why (what to take back or add). Random
    choices among the offered ones, from every payment of seeded games."""
    from engine.deal.model import AutoPay, ConfirmPayment, TogglePayment

    walks = told = 0
    for seed in game_seeds(45, 30):
        state = new_game(4, ruleset, seed)
        r = random.Random(seed)
        while state.phase != "over" and state.turn_number < 200:
            decision = DEAL.waiting_for(state)[0]
            if decision.kind == "pay":
                trial = DEAL.decode_state(DEAL.encode_state(state))
                d = next(d for d in trial.pending if d.target == decision.seat and d.stage == "pay")
                p = trial.players[decision.seat]
                for _ in range(12):
                    legal = DEAL.legal_actions(trial, decision.seat)
                    assert AutoPay(demand=d.id) in legal, "paying automatically is always there"
                    shown = next(x for x in DEAL.view(trial, decision.seat)["pending"] if x["id"] == d.id)
                    valid = True
                    try:
                        check_selection(p, d.selected, d.amount, trial.options)
                    except Exception:
                        valid = False
                    confirm = ConfirmPayment(demand=d.id) in legal
                    assert confirm == (valid and bool(d.selected)), (d.selected, d.amount)
                    covered = sum(VALUE[c] for c in d.selected) >= d.amount or set(d.selected) == set(payable(p))
                    if d.selected and covered and not confirm:
                        assert shown["problem"] is not None, (d.selected, d.amount)
                        told += 1
                    DEAL.apply(trial, decision.seat, r.choice([a for a in legal if isinstance(a, TogglePayment)]))
                    walks += 1
            DEAL.apply(state, decision.seat, choose(state, decision.seat))
    assert walks > 200 and told > 0
