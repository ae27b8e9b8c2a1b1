"""B-15 trades as any exchange: the one validator, the template, counter-offers, order, expiry,
the mortgage interest on receipt, the no_trading ban and the memory of refused offers."""

from __future__ import annotations

import pytest

from engine.board import model as m
from engine.board.data import board
from engine.board.rules import legal_actions, timeout_action, waiting_for
from engine.board.trades import position_stamp, proposal_problem, trade_template, was_refused
from tests.board_builders import Dice, act, build, own, rejects, set_cash, table

BROWN = (1, 3)
LIGHT_BLUE = (6, 8, 9)


def cash(s, seat):
    return s.players[seat].cash


def test_B15_any_exchange_of_deeds_cash_and_cards_both_ways():
    s = table(2)
    own(s, 0, 1, 5)
    own(s, 1, 39, 12)
    offer = m.ProposeTrade(target=1, give=(1, 5), get=(39, 12), give_cash=300, get_cash=1200)
    assert proposal_problem(s, 0, offer) is None  # the same validator apply uses
    act(s, 0, offer)
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    assert [s.owner[sq] for sq in (1, 5, 39, 12)] == [1, 1, 0, 0]
    assert cash(s, 0) == 15000 - 300 + 1200 and cash(s, 1) == 15000 + 300 - 1200


def test_B15_jail_cards_change_hands_and_B07_caps_their_price():
    s = table(2)
    card = next(i for i, c in enumerate(board("china").chance) if c.effect == "jail_free")
    s.chance.remove(card)  # the card leaves the deck for seat 0's hand: the deck count stays whole
    s.players[0].jail_cards = ["chance"]
    rejects(s, 0, m.ProposeTrade(target=1, give_cards=1, get_cash=600), "B-07")
    act(s, 0, m.ProposeTrade(target=1, give_cards=1, get_cash=500))
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    assert s.players[1].jail_cards == ["chance"] and s.players[0].jail_cards == []


@pytest.mark.parametrize("offer, key", [
    (m.ProposeTrade(target=1, give=(1,), get=(39,), give_cash=-5), "board.err.trade_negative"),
    (m.ProposeTrade(target=1, give=(1,), get=(39,), give_cash=10**6), "board.err.trade_cash"),
    (m.ProposeTrade(target=1, give=(3,), get=(39,)), "board.err.trade_not_owned"),
    (m.ProposeTrade(target=1, give=(1, 1), get=(39,)), "board.err.trade_duplicate"),
    (m.ProposeTrade(target=1, give_cash=1000), "board.err.trade_one_sided"),  # a loan is not a trade
    (m.ProposeTrade(target=0, give=(1,), get=(39,)), "board.err.bad_trade_partner"),
    (m.ProposeTrade(target=1, give=(1,), get_cards=1), "board.err.trade_cards"),
])
def test_B15_refusals_name_their_rule(offer, key):
    s = table(2)
    own(s, 0, 1)
    own(s, 1, 39)
    err = rejects(s, 0, offer, "B-15")
    assert err.key == key


def test_B15_no_deed_of_a_group_with_buildings():
    s = table(2)
    own(s, 0, *LIGHT_BLUE)
    build(s, 6, 1)
    own(s, 1, 39)
    err = rejects(s, 0, m.ProposeTrade(target=1, give=(9,), get=(39,)), "B-15")  # 9 is bare, its group is not
    assert err.key == "board.err.trade_buildings"
    assert 9 not in trade_template(s, 0).mine


def test_B15_no_trading_bans_offers_shortcuts_and_the_template():
    s = table(2, {"ruleset": "china", "no_trading": True})
    own(s, 0, 1)
    own(s, 1, 3)
    err = rejects(s, 0, m.ProposeTrade(target=1, get=(3,), give_cash=600), "B-15")
    assert err.key == "board.err.no_trading"
    assert trade_template(s, 0) is None
    assert not any(isinstance(a, m.ProposeTrade) for a in legal_actions(s, 0))


def test_B15_one_open_offer_per_proposer_between_rolls():
    s = table(3)
    own(s, 0, 1)
    own(s, 1, 39)
    own(s, 2, 37)
    act(s, 0, m.ProposeTrade(target=1, give=(1,), get=(39,)))
    err = rejects(s, 0, m.ProposeTrade(target=2, give=(1,), get=(37,)), "B-15")
    assert err.key == "board.err.one_offer_per_window"
    assert trade_template(s, 0) is None  # nothing to counter either


def test_B15_the_template_describes_what_may_be_offered():
    s = table(3)
    own(s, 0, 1, 5)
    own(s, 1, 39)
    set_cash(s, 2, 700)
    t = trade_template(s, 0)
    assert t.partners == (1, 2) and t.mine == (1, 5) and t.theirs == {1: (39,), 2: ()}
    assert t.cash == 15000 and t.their_cash[2] == 700 and t.fresh and t.counters == ()
    # every shortcut legal_actions lists passes the same validator
    own(s, 0, 3)
    own(s, 1, 1)
    for a in legal_actions(s, 0):
        if isinstance(a, m.ProposeTrade):
            assert proposal_problem(s, 0, a) is None


def test_B15_a_counter_offer_replaces_the_offer_and_goes_back_to_its_maker():
    s = table(3)
    own(s, 0, 1)
    own(s, 1, 3)
    act(s, 0, m.ProposeTrade(target=1, get=(3,), give_cash=600))
    first = s.trades[0].id
    assert trade_template(s, 1).counters == (first,)
    err = rejects(s, 1, m.ProposeTrade(target=2, give=(3,), get_cash=900, counter=first), "B-15")
    assert err.key == "board.err.counter_target"
    err = rejects(s, 2, m.ProposeTrade(target=0, give_cash=900, get=(1,), counter=first), "B-15")
    assert err.key == "board.err.not_your_trade"
    events = act(s, 1, m.ProposeTrade(target=0, give=(3,), get_cash=1100, counter=first))
    assert any(isinstance(e, m.TradeClosed) and (e.trade, e.outcome) == (first, "countered") for e in events)
    [t] = s.trades
    assert (t.proposer, t.target, t.counter, t.get_cash) == (1, 0, first, 1100)
    assert 1 not in s.proposed  # a counter-offer does not use up the seat's own offer
    err = rejects(s, 0, m.ProposeTrade(target=1, get=(3,), give_cash=800, counter=t.id), "B-15")
    assert err.key == "board.err.counter_to_counter"
    act(s, 0, m.AcceptTrade(trade=t.id))
    assert s.owner[3] == 0 and cash(s, 0) == 15000 - 1100


def test_B15_offers_are_settled_in_the_order_made():
    s = table(3)
    own(s, 0, 1)
    own(s, 1, 39)
    own(s, 2, 37)
    act(s, 0, m.ProposeTrade(target=2, give=(1,), get=(37,)))
    act(s, 1, m.ProposeTrade(target=0, give=(39,), get_cash=3000))
    later = s.trades[1].id
    err = rejects(s, 0, m.AcceptTrade(trade=later), "B-15")
    assert err.key == "board.err.earlier_offer_first"
    assert m.AcceptTrade(trade=later) not in legal_actions(s, 0)
    assert [d.seat for d in waiting_for(s)][:2] == [2, 0]  # the earlier offer is asked first
    act(s, 2, m.RejectTrade(trade=s.trades[0].id))
    act(s, 0, m.AcceptTrade(trade=later))
    assert s.owner[39] == 0


def test_B15_an_offer_expires_on_its_clock_as_a_decline_and_lapses_at_the_roll():
    s = table(3)
    own(s, 0, 1)
    own(s, 1, 39)
    act(s, 0, m.ProposeTrade(target=1, give=(1,), get=(39,)))
    t = s.trades[0].id
    decision = waiting_for(s)[0]
    assert (decision.seat, decision.kind, decision.policy) == (1, "trade", "response")
    assert timeout_action(s, 1) == m.RejectTrade(trade=t)
    act(s, 1, timeout_action(s, 1))  # what the service applies when the clock runs out
    assert s.trades == []
    act(s, 1, m.ProposeTrade(target=0, give=(39,), get=(1,)))
    Dice(s, (1, 2))
    events = act(s, 0, m.Roll())
    assert s.trades == []
    assert any(isinstance(e, m.TradeClosed) and (e.trade, e.outcome) == (t + 1, "expired") for e in events)


def test_B15_B18_a_received_mortgaged_deed_costs_its_interest_at_once():
    s = table(2)
    own(s, 0, 1)
    own(s, 1, 39, mortgaged=True)  # mortgage 2000: 10 % is 200
    own(s, 1, 37, mortgaged=True)  # mortgage 1750: 175 rounds to 180 (B-18)
    act(s, 0, m.ProposeTrade(target=1, give=(1,), get=(39, 37)))
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    assert cash(s, 0) == 15000 - 200 - 180 and cash(s, 1) == 15000
    assert s.mortgaged[39] and s.mortgaged[37]


def test_B15_refused_offers_are_remembered_until_the_holdings_change():
    s = table(2)
    own(s, 0, 1)
    own(s, 1, 3)
    offer = m.ProposeTrade(target=1, get=(3,), give_cash=700)
    act(s, 0, offer)
    act(s, 1, m.RejectTrade(trade=s.trades[0].id))
    assert was_refused(s, 0, offer) and s.refused[0].position == position_stamp(s)
    assert not was_refused(s, 0, m.ProposeTrade(target=1, get=(3,), give_cash=900))
    own(s, 0, 5)  # the holdings changed: the same terms may be offered again
    assert not was_refused(s, 0, offer)


def test_B15_B02_a_mortgaged_deed_received_in_the_doubles_window_is_lifted_at_its_principal_after_the_extra_roll():
    """Ruling: nobody lifts a mortgage between doubles and the extra roll (B-02's lock), so a deed
    received then keeps its principal-only price (B-15) until the first roll after a window in
    which it could be lifted: the 10 % is never paid twice for want of a chance to lift."""
    s = table(2)
    own(s, 0, 6, 9)  # the doubles and the extra roll land on seat 0's own streets
    own(s, 1, 39, mortgaged=True)  # mortgage 2000: interest 200
    Dice(s, (3, 3), (1, 2), (1, 1))
    act(s, 0, m.Roll())  # doubles: the window of the extra roll
    act(s, 0, m.ProposeTrade(target=1, give_cash=1000, get=(39,)))
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    assert cash(s, 0) == 15000 - 1000 - 200
    err = rejects(s, 0, m.LiftMortgage(square=39), "B-02")
    assert err.key == "board.err.doubles_lock"
    act(s, 0, m.Roll())  # the extra roll, to 9: the window is open again
    act(s, 0, m.LiftMortgage(square=39))
    assert cash(s, 0) == 15000 - 1000 - 200 - 2000 and not s.mortgaged[39]


def test_B15_B02_the_principal_price_still_ends_with_the_first_roll_after_an_open_window():
    s = table(2)
    own(s, 0, 6, 9)
    own(s, 1, 39, 37, mortgaged=True)
    Dice(s, (3, 3), (1, 2), (1, 2))
    act(s, 0, m.Roll())
    act(s, 0, m.ProposeTrade(target=1, give_cash=1000, get=(39, 37)))
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    act(s, 0, m.Roll())  # the extra roll: both keep the principal price through it
    act(s, 0, m.LiftMortgage(square=39))  # one lifted in the open window, the other left
    assert s.lift_discount == [37]
    act(s, 1, m.Roll())  # the next player's roll ends the chance
    assert s.lift_discount == []


@pytest.mark.parametrize("receiver", [0, 1])
def test_B15_a_trade_whose_receiver_cannot_pay_the_interest_at_once_is_refused(receiver):
    """Ruling: the 10 % on a received mortgaged deed is paid at once out of the cash the receiver
    holds once the trade's cash has moved, so an offer that would leave it unpaid is refused
    (a trade never leaves a debt behind: players may not lend each other money)."""
    s = table(2)
    giver = 1 - receiver
    own(s, giver, 39, mortgaged=True)  # interest 200
    own(s, receiver, 1)
    set_cash(s, receiver, 500)
    to_receiver = m.ProposeTrade(target=1, give=(39,), get=(1,), get_cash=400) if giver == 0 else \
        m.ProposeTrade(target=1, get=(39,), give=(1,), give_cash=400)
    err = rejects(s, 0, to_receiver, "B-15")
    assert err.key == "board.err.trade_interest"
    assert err.params == {"seat": receiver, "due": 200, "cash": 100}
    fair = m.ProposeTrade(target=1, give=(39,), get=(1,), get_cash=300) if giver == 0 else \
        m.ProposeTrade(target=1, get=(39,), give=(1,), give_cash=300)
    act(s, 0, fair)  # 200 left after the cash moves: exactly the interest
    set_cash(s, receiver, 499)  # the receiver spends a coin before answering: refused at acceptance
    err = rejects(s, 1, m.AcceptTrade(trade=s.trades[0].id), "B-15")
    assert err.key == "board.err.trade_interest"
    set_cash(s, receiver, 500)
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    assert cash(s, receiver) == 0 and s.owner[39] == receiver and s.debts == []
