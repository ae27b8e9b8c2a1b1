"""Random legal play (hypothesis) with the invariants checked after every action.

- exactly 106 cards across draw pile, discard pile, hands, banks and tables;
- no hand over 7 when a turn ends (D-04);
- ``view(state, p)`` holds no other player's hand and never the draw pile's order;
- every action in ``legal_actions`` is accepted, and an action ``apply`` accepts is in
  ``legal_actions`` (up to identical cards: the ten Pass Go cards are one choice);
- a refused action leaves the serialised state byte-identical.
"""

from __future__ import annotations

import copy
import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.deal import DEAL
from engine.deal import model as m
from engine.deal.ai import choose
from engine.deal.cards import COLOUR_KEYS, KEY, N_CARDS
from engine.deal.invariants import card_locations, violations
from engine.deal.rules import HAND_LIMIT, event_for, view

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

COLOURS = [None, *COLOUR_KEYS, "purple"]


def random_action(r: random.Random):
    """Any action shape with arbitrary, mostly wrong, parameters."""
    card = lambda: r.randrange(N_CARDS)  # noqa: E731
    seat = lambda: r.randint(-1, 5)  # noqa: E731
    group = lambda: r.choice([None, *range(-1, 7)])  # noqa: E731
    demand = lambda: r.randint(0, 8)  # noqa: E731
    makers = [
        lambda: m.EndTurn(),
        lambda: m.BankCard(card=card()),
        lambda: m.LayProperty(card=card(), colour=r.choice(COLOURS), group=group()),
        lambda: m.MoveProperty(card=card(), colour=r.choice(COLOURS), group=group(),
                               replace=r.choice([None, card()])),
        lambda: m.PlayPassGo(card=card()),
        lambda: m.PlayBuilding(card=card(), group=r.randint(-1, 6)),
        lambda: m.PlayDebtCollector(card=card(), target=seat()),
        lambda: m.PlayBirthday(card=card()),
        lambda: m.PlayRent(card=card(), group=r.randint(-1, 6), target=r.choice([None, seat()]),
                           doubles=tuple(card() for _ in range(r.randint(0, 3)))),
        lambda: m.PlaySlyDeal(card=card(), target=seat(), take=card()),
        lambda: m.PlayForcedDeal(card=card(), give=card(), target=seat(), take=card()),
        lambda: m.PlayDealBreaker(card=card(), target=seat(), group=r.randint(-1, 6)),
        lambda: m.JustSayNo(demand=demand(), card=card()),
        lambda: m.Accept(demand=demand()),
        lambda: m.TogglePayment(demand=demand(), card=card()),
        lambda: m.ConfirmPayment(demand=demand()),
        lambda: m.AutoPay(demand=demand()),
        lambda: m.PlaceBuilding(demand=demand(), card=card(), group=group()),
        lambda: m.Discard(card=card()),
        lambda: m.EndMatch(),
    ]
    return r.choice(makers)()


def near_miss(r: random.Random, legal: list):
    """A legal action with one field nudged: the refusals that matter most."""
    a = r.choice(legal)
    fields = [f for f in a.__struct_fields__ if isinstance(getattr(a, f), int) and getattr(a, f) is not None]
    if not fields:
        return a
    f = r.choice(fields)
    return msgspec.structs.replace(a, **{f: getattr(a, f) + r.choice([-1, 1])})


def canonical(state, seat, action):
    """Replace hand cards by the first identical card in the hand (legal_actions offers each once)."""
    hand = state.players[seat].hand if 0 <= seat < len(state.players) else []
    first = {}
    for c in hand:
        first.setdefault(KEY[c], c)
    fields = {}
    if hasattr(action, "card") and action.card in hand and not isinstance(action, (m.TogglePayment, m.PlaceBuilding)):
        fields["card"] = first[KEY[action.card]]
    if isinstance(action, m.PlayRent) and action.doubles:
        doubles = [c for c in hand if KEY[c] == "double_rent"]
        if set(action.doubles) <= set(doubles):
            fields["doubles"] = tuple(doubles[: len(action.doubles)])
    return msgspec.structs.replace(action, **fields) if fields else action


def check_views(state):
    draw = state.draw_pile
    for viewer in [None, *range(len(state.players))]:
        v = view(state, viewer)
        for p in v["players"]:
            assert ("hand" in p) == (p["seat"] == viewer)
        # seat numbers and dice are not cards: a hand such as [4, 6, 1] is also an opening roll
        text = msgspec.json.encode({k: x for k, x in v.items() if k not in ("opening_rolls", "order")})
        if len(draw) >= 3:
            assert msgspec.json.encode(draw) not in text
            assert msgspec.json.encode(list(reversed(draw))) not in text
        for other in state.players:
            if other.seat != viewer and len(other.hand) >= 2:
                assert msgspec.json.encode(other.hand) not in text


def play(seed, players, ruleset, choice_seed, ai_share, probe_illegal, probe_legal):
    r = random.Random(choice_seed)
    state = DEAL.new_game(players, ruleset, seed)
    log = []
    for step in range(600):
        waiting = DEAL.waiting_for(state)
        if not waiting:
            break
        decision = waiting[r.randrange(len(waiting))]
        seat = decision.seat
        legal = DEAL.legal_actions(state, seat)
        assert legal, f"{decision} has no legal action"
        assert canonical(state, seat, decision.timeout) in legal or isinstance(decision.timeout, m.Discard)
        if probe_legal and step % 7 == 0:
            for a in legal:
                probe = copy.deepcopy(state)
                DEAL.apply(probe, seat, a)  # must not raise
        if probe_illegal:
            wild = random_action(r) if r.random() < 0.5 else near_miss(r, legal)
            who = r.choice([seat, seat, (seat + 1) % players, -1])
            before = DEAL.encode_state(state)
            probe = DEAL.decode_state(before)
            try:
                DEAL.apply(probe, who, wild)
            except RuleError:
                assert DEAL.encode_state(probe) == before, f"refused {wild} changed the state"
            else:
                assert canonical(state, who, wild) in DEAL.legal_actions(state, who), f"accepted illegal {wild}"
        action = choose(state, seat, legal) if r.random() < ai_share else r.choice(legal)
        events = DEAL.apply(state, seat, action)
        log.append((seat, action))
        assert violations(state) == []
        assert len(card_locations(state)) == N_CARDS
        for e in events:
            if isinstance(e, m.TurnEnded):
                assert len(state.players[e.seat].hand) <= HAND_LIMIT
            if isinstance(e, m.Drew):
                for viewer in range(players):
                    seen = event_for(e, viewer)
                    assert (seen.cards == e.cards) if viewer == e.seat else seen.cards == []
        check_views(state)
    again = DEAL.replay(players, ruleset, seed, log)
    assert DEAL.encode_state(again) == DEAL.encode_state(state)


GAME = dict(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 5),
            ruleset=st.sampled_from(["standard", "tournament"]), choice_seed=st.integers(0, 2**32),
            ai_share=st.sampled_from([0.0, 0.5, 0.9]))


@SETTINGS
@given(**GAME)
def test_random_legal_play_keeps_every_invariant(seed, players, ruleset, choice_seed, ai_share):
    play(seed, players, ruleset, choice_seed, ai_share, probe_illegal=False, probe_legal=False)


@settings(SETTINGS, max_examples=20)
@given(**GAME)
def test_apply_accepts_exactly_the_legal_actions(seed, players, ruleset, choice_seed, ai_share):
    play(seed, players, ruleset, choice_seed, ai_share, probe_illegal=True, probe_legal=True)
