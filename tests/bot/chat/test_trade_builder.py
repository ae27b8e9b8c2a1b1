"""The trade builder's drafts (B-15, ``engine.board.trade_draft``): every change stays inside what
``trade_template`` allows, typed amounts are read strictly, a counter-offer starts from the answered
offer turned round, and the summary (``bot.chat.trade_builder``, worded from the draft's desk) says why
the rules would refuse the offer as it stands."""

from __future__ import annotations

from bot.chat import trade_builder as tb
from engine.board import BOARD
from engine.board import trade_draft as td
from engine.board.model import ProposeTrade


def _state():
    state = BOARD.new_game(3, "china", 5)
    for sq, seat in ((1, 0), (3, 0), (6, 1), (8, 1), (11, 2)):
        state.owner[sq] = seat
    state.players[0].jail_cards = []
    return state


def test_B15_a_fresh_draft_picks_a_partner_and_toggles_only_tradable_deeds():
    state = _state()
    d = td.start(state, 0)
    assert isinstance(d, td.Draft) and d.target == 1
    d = td.change(state, d, "m1")
    d = td.change(state, d, "m6")  # not mine: left out
    d = td.change(state, d, "y6")
    assert (d.give, d.get) == ([1], [6])
    d = td.change(state, d, "m1")  # a second press takes it away
    assert d.give == []
    d = td.change(state, d, "p2")  # another partner: what was asked of the first one goes
    assert (d.target, d.get) == (2, [])


def test_B15_cash_stays_within_what_each_side_holds():
    state = _state()
    d = td.start(state, 0)
    d = td.change(state, d, "cp9999999")
    assert d.cash == state.players[0].cash
    d = td.change(state, d, "z")
    d = td.change(state, d, "cm9999999")
    assert d.cash == -state.players[1].cash


def test_B15_typed_amounts_are_read_strictly():
    assert td.amount("1,500") == 1500 and td.amount("¥1500") == 1500 and td.amount("1500元") == 1500
    assert td.amount("") == 0
    for bad in ("-5", "1e3", "١٢", "abc", "99999999999"):
        assert td.amount(bad) is None, bad
    state = _state()
    d = td.change(state, td.start(state, 0), "xt")
    assert d.typing == "t"
    assert td.typed(state, d, "300").cash == -300
    assert td.typed(state, d, "three hundred") is None
    both = td.typed_both(state, d, "100", "400")
    assert both.cash == -300 and not both.typing


def test_B15_select_menus_set_a_whole_side_inside_the_template():
    state = _state()
    d = td.start(state, 0)
    d = td.chosen(state, d, "vm", ["1", "3", "6", "x"])
    assert d.give == [1, 3]
    d = td.chosen(state, d, "vy", ["6", "8", "11"])
    assert d.get == [6, 8]
    d = td.chosen(state, d, "vp", ["2"])
    assert d.target == 2 and d.get == []


def test_B15_a_counter_offer_starts_from_the_offer_turned_round():
    state = _state()
    BOARD.apply(state, 0, ProposeTrade(target=1, give=(1,), get=(6,), give_cash=200))
    offer = state.trades[0]
    d = td.start(state, 1, offer.id)
    assert (d.target, d.give, d.get, d.cash, d.counter) == (0, [6], [1], -200, offer.id)
    assert d.action() == ProposeTrade(target=0, give=(6,), get=(1,), get_cash=200, counter=offer.id)


def test_B15_the_summary_names_the_rule_that_would_refuse_the_draft():
    state = _state()
    d = td.start(state, 0)
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    text = tb.summary(td.desk(state, d), "en", names, "china")
    assert "Bob" in text and "B-15" in text  # one-sided: nothing given or asked yet
    d = td.change(state, td.change(state, d, "m1"), "y6")
    text = tb.summary(td.desk(state, d), "en", names, "china")
    assert "B-15" not in text and "Net value" in text
    rows = tb.button_rows(tb.controls(td.desk(state, d), "en", names, "china"), "en")
    ops = [op for row in rows for _, op in row]
    assert {"m1", "m3", "y6", "y8", "s", "q", "p1", "p2"} <= set(ops)
    assert all(tb.OP.fullmatch(op) for op in ops)
