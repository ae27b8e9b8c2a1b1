"""Board: random legal play (hypothesis) with the invariants checked after every action.

Money only moves between the bank and players, 32 houses and 12 hotels in all, even building,
no negative cash, replay from seed + log identical, rejected actions leave the state
byte-identical, every listed action is accepted and every accepted one is listed (bids and trade
amounts are open: any valid amount is accepted, a few are listed), and views hide the decks.
"""

from __future__ import annotations

import copy
import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import BOARD
from engine.board import model as m
from engine.board.ai import choose
from engine.board.invariants import violations
from engine.board.rules import view
from engine.core.errors import RuleError

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_action(r: random.Random, state):
    sq = lambda: r.randint(-1, 40)  # noqa: E731
    seat = lambda: r.randint(-1, len(state.players))  # noqa: E731
    makers = [
        lambda: m.Roll(), lambda: m.PayJailFine(), lambda: m.UseJailCard(), lambda: m.Buy(), lambda: m.DeclineToBuy(),
        lambda: m.Bid(amount=r.choice([0, 5, 10, 15, 100, 2000, 10**6])), lambda: m.PassAuction(),
        lambda: m.PayTax(choice=r.choice(["flat", "percent", "none"])), lambda: m.BuildHouse(square=sq()),
        lambda: m.SellBuilding(square=sq()), lambda: m.SellGroupBuildings(group=r.choice(["red", "x", "station"])),
        lambda: m.BuildRound(group=r.choice(["red", "brown", "x", "station", "utility"])),
        lambda: m.Mortgage(square=sq()), lambda: m.LiftMortgage(square=sq()),
        lambda: m.ProposeTrade(target=seat(), give=(sq(),), get=(sq(),), give_cash=r.choice([0, 10, 10**7])),
        lambda: m.AcceptTrade(trade=r.randint(0, 5)), lambda: m.RejectTrade(trade=r.randint(0, 5)),
        lambda: m.CancelTrade(trade=r.randint(0, 5)), lambda: m.PayDebt(), lambda: m.RaiseMoney(),
        lambda: m.DeclareBankruptcy(), lambda: m.JoinShortage(street=sq()), lambda: m.DeclineShortage(),
        lambda: m.EndMatch(),
    ]
    return r.choice(makers)()


def listed(state, seat, action) -> bool:
    legal = BOARD.legal_actions(state, seat)
    if isinstance(action, m.Bid):  # an open amount (B-04, typed): listed as a kind, or none when no
        # step of the scaled buttons is within the bidder's reach; a bidder still in is asked (Pass)
        return any(isinstance(a, (m.Bid, m.PassAuction)) for a in legal)
    if isinstance(action, m.ProposeTrade):  # any valid trade may be typed in
        return True
    return action in legal


def play(seed, players, ruleset, choice_seed, ai_share, probe, max_steps=700):
    r = random.Random(choice_seed)
    state = BOARD.new_game(players, ruleset, seed)
    log = []
    for step in range(max_steps):
        waiting = BOARD.waiting_for(state)
        if not waiting:
            break
        decision = waiting[r.randrange(len(waiting))]
        seat = decision.seat
        legal = BOARD.legal_actions(state, seat)
        assert decision.timeout in legal, (decision, state.stage)
        if probe and step % 5 == 0:
            for a in legal:
                BOARD.apply(copy.deepcopy(state), seat, a)  # every listed action is accepted
            wild = random_action(r, state)
            who = r.choice([seat, (seat + 1) % players, -1])
            before = BOARD.encode_state(state)
            trial = BOARD.decode_state(before)
            try:
                BOARD.apply(trial, who, wild)
            except RuleError:
                assert BOARD.encode_state(trial) == before, f"refused {wild} changed the state"
            else:
                assert listed(state, who, wild), f"accepted unlisted {wild} from {who} in {state.stage}"
        action = choose(state, seat, legal) if r.random() < ai_share else r.choice(legal)
        BOARD.apply(state, seat, action)
        log.append((seat, action))
        assert violations(state) == []
        text = msgspec.json.encode(view(state, None))
        assert b'"chance":' not in text and b'"chest":' not in text  # counts only, never the order
    again = BOARD.replay(players, ruleset, seed, log)
    assert BOARD.encode_state(again) == BOARD.encode_state(state)
    return state


GAME = dict(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 6), ruleset=st.sampled_from(["china", "classic"]),
            choice_seed=st.integers(0, 2**32), ai_share=st.sampled_from([0.0, 0.6, 0.95]))


@SETTINGS
@given(**GAME)
def test_random_play_keeps_every_invariant(seed, players, ruleset, choice_seed, ai_share):
    play(seed, players, ruleset, choice_seed, ai_share, probe=False)


@settings(SETTINGS, max_examples=15)
@given(**GAME)
def test_apply_accepts_exactly_the_listed_actions(seed, players, ruleset, choice_seed, ai_share):
    play(seed, players, ruleset, choice_seed, ai_share, probe=True, max_steps=400)


def _raise_step_by_step(state, seat):
    """B-16 raising money as the rules describe it: ask ``next_sale`` again after every step."""
    from engine.board import rules

    events: list = []
    debt = state.debts[0]
    player = state.players[seat]
    while player.cash < debt.amount:
        step = rules.next_sale(state, seat)
        if step is None:
            break
        rules._HANDLERS[type(step)](state, seat, step, events)
    if player.cash >= debt.amount:
        rules._pay_first_debt(state, events)  # an auction's debt also hands over the lot (B-05)
    else:
        rules._bankrupt(state, seat, debt.creditor, events)
    if state.stage != "over":
        rules._settle(state, events)
    return events


def test_B16_raise_money_takes_the_steps_next_sale_names():
    """``RaiseMoney`` ranks each pile once; it must end exactly where asking ``next_sale`` after
    every step ends (same state, same events), in every debt of a batch of AI games."""
    from engine.games import GAMES
    from engine.play.simulation import game_seeds, play_one

    plug = GAMES["board"]
    checked = sold = 0

    def compare(state, seat, action):
        nonlocal checked, sold
        if isinstance(action, m.RaiseMoney):
            twin = BOARD.decode_state(BOARD.encode_state(state))
            reference = _raise_step_by_step(twin, seat)
            events = BOARD.apply(state, seat, action)
            assert BOARD.encode_state(state) == BOARD.encode_state(twin)
            assert events == reference
            checked += 1
            sold += any(isinstance(e, m.BuildingSold) for e in events)
            return events
        return BOARD.apply(state, seat, action)

    for ruleset in ("china", "classic"):
        for s in game_seeds(11, 8):
            play_one(plug, 4, ruleset, s, None, check_every_action=False, on_action=compare)
    assert checked > 50 and sold > 5  # the batch really raised money, selling buildings too
