"""engine/core: the seeded generator, the rule error, and JSON round trips of the contract."""

from __future__ import annotations

import pickle

import msgspec
import pytest

from engine.core.errors import RuleError
from engine.core.rng import Rng
from engine.deal import DEAL
from engine.deal import model as m
from engine.deal.rules import new_game


def test_rng_is_a_pure_function_of_seed_and_counter():
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    xs = [a.next64() for _ in range(5)]
    assert xs == [b.next64() for _ in range(5)]
    c = Rng(seed=42, counter=2)
    assert c.next64() == xs[2]
    assert Rng.from_seed(43).next64() != xs[0]


def test_rng_values_are_stable_across_versions():
    # pinned: a change here would break replay of every stored game
    r = Rng.from_seed(1)
    assert [r.below(100) for _ in range(6)] == [65, 19, 90, 35, 61, 48]
    r = Rng.from_seed(1)
    assert [r.die() for _ in range(10)] == [6, 2, 1, 6, 4, 3, 4, 4, 1, 5]


def test_rng_holds_its_values_at_the_ends_of_64_bits():
    """Pinned values at the largest seed, a counter past 2**32, and a bound just over 2**63, where
    about half the draws are rejected: a replay of any stored game depends on these numbers."""
    r = Rng(seed=(1 << 64) - 1, counter=1 << 40)
    assert [r.next64() for _ in range(2)] == [7550352060150933567, 4848638810840959809]
    assert [r.below(3) for _ in range(4)] == [1, 1, 1, 2]
    assert [r.below((1 << 63) + 1) for _ in range(3)] == [7242216022544010361, 5432720359412420080,
                                                          1821848648839261837]
    assert r.counter == (1 << 40) + 11  # two of the last three bounds' draws were rejected
    items = list(range(10))
    r.shuffle(items)
    assert items == [8, 3, 0, 2, 6, 5, 4, 9, 7, 1] and r.counter == (1 << 40) + 20


def test_rng_die_is_below_six_plus_one():
    a, b = Rng.from_seed(2026), Rng.from_seed(2026)
    assert [a.die() for _ in range(5000)] == [b.below(6) + 1 for _ in range(5000)]


def test_rng_below_is_in_range_and_roughly_uniform():
    r = Rng.from_seed(7)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.die() - 1] += 1
    assert all(850 < c < 1150 for c in counts)


def test_rng_shuffle_is_a_permutation_and_depends_on_the_seed():
    items = list(range(50))
    a, b = list(items), list(items)
    Rng.from_seed(1).shuffle(a)
    Rng.from_seed(2).shuffle(b)
    assert sorted(a) == items and sorted(b) == items and a != b


def test_rng_round_trips_through_json():
    r = Rng.from_seed(99)
    r.next64()
    again = msgspec.json.decode(msgspec.json.encode(r), type=Rng)
    assert again.next64() == r.next64()


def test_rule_error_names_rule_key_and_params_and_pickles():
    e = RuleError("D-13", "deal.err.no_jsn", card=5)
    assert (e.rule, e.key, e.params) == ("D-13", "deal.err.no_jsn", {"card": 5})
    again = pickle.loads(pickle.dumps(e))
    assert (again.rule, again.key, again.params) == (e.rule, e.key, e.params)


ALL_ACTIONS = [
    m.EndTurn(), m.BankCard(card=1), m.LayProperty(card=80, colour="red", group=0),
    m.LayProperty(card=104, colour=None), m.MoveProperty(card=3, colour="red", group=1, replace=4),
    m.PlayPassGo(card=2), m.PlayBuilding(card=3, group=0), m.PlayDebtCollector(card=4, target=1),
    m.PlayBirthday(card=5), m.PlayRent(card=6, group=0, target=2, doubles=(7, 8)),
    m.PlaySlyDeal(card=9, target=1, take=70), m.PlayForcedDeal(card=10, give=71, target=2, take=72),
    m.PlayDealBreaker(card=11, target=1, group=2), m.JustSayNo(demand=3, card=12), m.Accept(demand=3),
    m.TogglePayment(demand=3, card=13), m.ConfirmPayment(demand=3), m.AutoPay(demand=3),
    m.PlaceBuilding(demand=3, card=14, group=None), m.Discard(card=15), m.EndMatch(),
]


def test_every_action_type_is_covered():
    assert {type(a) for a in ALL_ACTIONS} == set(m.DealAction.__args__)


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: type(a).__name__)
def test_actions_round_trip_through_json(action):
    data = DEAL.encode_action(action)
    assert b'"type"' in data
    assert DEAL.decode_action(data) == action


def test_events_and_state_round_trip_through_json():
    from engine.games import GAMES
    from engine.play.simulation import play_one

    events = []

    def record(state, seat, action):
        out = DEAL.apply(state, seat, action)
        events.extend(out)
        return out

    state, _ = play_one(GAMES["deal"], 3, "standard", 5, 200, on_action=record)
    assert {type(e) for e in events} >= {m.TurnStarted, m.Drew, m.TurnEnded, m.GameOver}
    assert DEAL.decode_events(DEAL.encode_events(events)) == events
    again = DEAL.decode_state(DEAL.encode_state(state))
    assert DEAL.encode_state(again) == DEAL.encode_state(state)
    assert again.schema == m.SCHEMA_VERSION


def test_state_json_is_plain_data():
    state = new_game(4, "tournament", 3)
    doc = msgspec.json.decode(DEAL.encode_state(state))
    assert doc["schema"] == m.SCHEMA_VERSION and doc["game"] == "deal"
    assert doc["rng"]["seed"] == 3 and isinstance(doc["players"][0]["hand"], list)
