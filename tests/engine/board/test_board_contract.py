"""The board game on the shared contract: JSON round trips, decisions with timeouts, replay."""

from __future__ import annotations

import msgspec
import pytest

from engine.board import BOARD
from engine.board import model as m
from engine.board.rules import new_game_with_events
from engine.games import GAMES
from engine.play.simulation import play_one

ALL_ACTIONS = [
    m.Roll(), m.PayJailFine(), m.UseJailCard(), m.Buy(), m.DeclineToBuy(), m.Bid(amount=120), m.PassAuction(),
    m.PayTax(choice="percent"), m.BuildHouse(square=1), m.BuildRound(group="red"), m.SellBuilding(square=3),
    m.SellGroupBuildings(group="brown"), m.Mortgage(square=5), m.LiftMortgage(square=5),
    m.ProposeTrade(target=1, give=(1, 3), get=(39,), give_cash=100, get_cash=0, give_cards=1, get_cards=0),
    m.AcceptTrade(trade=2), m.RejectTrade(trade=2), m.CancelTrade(trade=2), m.PayDebt(), m.RaiseMoney(),
    m.DeclareBankruptcy(), m.JoinShortage(street=6), m.DeclineShortage(), m.EndMatch(reason="time"),
    m.CollectRent(square=3), m.ForgoRent(square=3), m.Bid(amount=9000, beyond_reach=True),
]


def test_every_action_type_is_covered():
    assert {type(a) for a in ALL_ACTIONS} == set(m.BoardAction.__args__)


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: type(a).__name__)
def test_actions_round_trip_through_json(action):
    assert BOARD.decode_action(BOARD.encode_action(action)) == action


def test_a_whole_game_round_trips_and_replays():
    events: list = []

    def record(state, seat, action):
        out = BOARD.apply(state, seat, action)
        events.extend(out)
        return out

    state, log = play_one(GAMES["board"], 4, "china", 9, None, on_action=record)
    assert state.stage == "over"
    kinds = {type(e) for e in events}
    assert {m.DiceRolled, m.Moved, m.Bought, m.Paid, m.TurnEnded, m.WentBankrupt, m.GameOver} <= kinds
    assert BOARD.decode_events(BOARD.encode_events(events)) == events
    again = BOARD.decode_state(BOARD.encode_state(state))
    assert BOARD.encode_state(again) == BOARD.encode_state(state)
    assert BOARD.encode_state(BOARD.replay(4, "china", 9, log)) == BOARD.encode_state(state)
    doc = msgspec.json.decode(BOARD.encode_state(state))
    assert doc["schema"] == m.SCHEMA_VERSION and doc["game"] == "board"


def test_opening_events_report_the_order_and_the_first_turn():
    state, events = new_game_with_events(3, "classic", 4)
    assert isinstance(events[0], m.GameStarted) and events[0].order == state.order
    assert isinstance(events[-1], m.TurnStarted) and events[-1].seat == state.order[0]


def test_every_decision_has_a_timeout_that_is_legal():
    state, _ = play_one(GAMES["board"], 3, "china", 12, 40)
    seen = set()
    for seed in range(6):
        state = BOARD.new_game(3, "china", seed)
        for _ in range(600):
            decisions = BOARD.waiting_for(state)
            if not decisions:
                break
            for d in decisions:
                legal = BOARD.legal_actions(state, d.seat)
                assert d.timeout in legal
                assert d.timeout in BOARD.answers(d, legal)  # the answers shown with it include it
                seen.add(d.kind)
            d = decisions[-1]
            BOARD.apply(state, d.seat, d.timeout)  # everyone times out, always
    assert {"roll", "buy", "bid"} <= seen
