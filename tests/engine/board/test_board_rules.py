"""One or more tests per board rule id (docs/rules.md B-01 … B-19), from prepared states with forced dice."""

from __future__ import annotations

import pytest

from engine.board import BOARD
from engine.board import model as m
from engine.board.data import board
from engine.board.invariants import violations
from engine.board.rules import (
    current_seat,
    interest,
    legal_actions,
    management_choices,
    max_raisable,
    round_amount,
    timeout_action,
    valuation,
    waiting_for,
)
from engine.core.errors import RuleError
from engine.core.values import SYSTEM
from tests.board_builders import Dice, act, ai_decisions, build, kinds, own, place, rejects, set_cash, table

CHINA = board("china")
CHANCE = {c.key: i for i, c in enumerate(CHINA.chance)}
CHEST = {c.key: i for i, c in enumerate(CHINA.chest)}
BROWN = (1, 3)
LIGHT_BLUE = (6, 8, 9)
GREEN = (31, 32, 34)


def cash(s, seat):
    return s.players[seat].cash


# -- B-01 set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5, 8])
def test_B01_two_to_eight_players_start_with_15000(players):
    s = BOARD.new_game(players, "china", 4)
    assert [p.cash for p in s.players] == [15000] * players
    assert all(p.position == 0 for p in s.players)


@pytest.mark.parametrize("players", [1, 9])
def test_B01_player_count(players):
    with pytest.raises(RuleError) as e:
        BOARD.new_game(players, "china", 1)
    assert e.value.rule == "B-01"


def test_B01_highest_roll_starts_then_seat_order():
    for seed in range(60):
        s = BOARD.new_game(5, "china", seed)
        first = {}
        for seat, d1, d2 in s.opening_rolls:
            first.setdefault(seat, d1 + d2)
        assert first[s.order[0]] == max(first.values())
        assert s.order == [(s.order[0] + i) % 5 for i in range(5)]
        if len(s.opening_rolls) > 5:  # a tie for the highest roll: only the tied roll again
            tied = {seat for seat, total in first.items() if total == max(first.values())}
            assert {r[0] for r in s.opening_rolls[5:]} <= tied


def test_B01_classic_starts_with_1500_and_options_override():
    assert BOARD.new_game(2, "classic", 1).players[0].cash == 1500
    assert BOARD.new_game(2, {"ruleset": "china", "start_cash": 20000}, 1).players[0].cash == 20000


# -- B-02 a turn ----------------------------------------------------------------------------------


def test_B02_roll_and_move_then_the_turn_passes():
    s = table(2)
    Dice(s, (3, 4))
    act(s, 0, m.Roll())  # 7: Chance
    s2 = table(2)
    Dice(s2, (2, 3))
    act(s2, 0, m.Roll())  # 5: a station -> buy decision
    assert s2.players[0].position == 5 and s2.stage == "buy"
    act(s2, 0, m.Buy())
    assert current_seat(s2) == 1 and s2.stage == "roll"


def test_B02_doubles_roll_again():
    s = table(2)
    own(s, 1, 6)  # light blue: seat 0 pays rent, nothing to decide
    Dice(s, (3, 3), (1, 2))
    act(s, 0, m.Roll())
    assert current_seat(s) == 0 and s.stage == "roll" and not s.rolled
    act(s, 0, m.Roll())
    assert s.players[0].position == 9 and s.stage == "buy"


def test_B02_third_doubles_go_to_jail_without_moving():
    s = table(2)
    own(s, 1, 6, 12)  # nothing to buy on the way
    Dice(s, (3, 3), (3, 3), (5, 5))
    act(s, 0, m.Roll())
    act(s, 0, m.Roll())
    events = act(s, 0, m.Roll())
    p = s.players[0]
    assert p.in_jail and p.position == 10
    assert "Moved" not in kinds(events) and "SalaryPaid" not in kinds(events)
    assert current_seat(s) == 1


# -- B-03 salary ----------------------------------------------------------------------------------


def test_B03_passing_go_pays_2000():
    s = table(2)
    own(s, 1, 3)
    place(s, 0, 38)
    Dice(s, (2, 3))
    act(s, 0, m.Roll())
    assert s.players[0].position == 3
    assert cash(s, 0) == 15000 + 2000 - 40  # salary, then the rent of 40 for Liwan


def test_B03_advance_to_go_after_passing_pays_twice():
    s = table(2)
    s.chest.insert(0, s.chest.pop(s.chest.index(CHEST["advance_go"])))
    place(s, 0, 39)
    Dice(s, (1, 2))  # 39 -> 2 (Community Chest), passing GO
    act(s, 0, m.Roll())
    assert s.players[0].position == 0
    assert cash(s, 0) == 15000 + 2 * 2000


def test_B03_going_to_jail_never_pays():
    s = table(2)
    place(s, 0, 25)
    own(s, 1, 25)
    Dice(s, (2, 3))
    act(s, 0, m.Roll())  # 30: go to jail, "passing" nothing
    assert s.players[0].in_jail and cash(s, 0) == 15000


# -- B-04 buying and auctions ---------------------------------------------------------------------


def test_B04_buy_at_the_printed_price():
    s = table(2)
    Dice(s, (1, 2))
    act(s, 0, m.Roll())
    assert s.stage == "buy" and waiting_for(s)[0].timeout == m.DeclineToBuy()
    act(s, 0, m.Buy())
    assert s.owner[3] == 0 and cash(s, 0) == 15000 - 600


def test_B04_declined_property_is_auctioned_to_everyone_the_decliner_too():
    s = table(3)
    Dice(s, (1, 2))
    act(s, 0, m.Roll())
    act(s, 0, m.DeclineToBuy())
    assert s.stage == "auction" and sorted(s.auction.bidders) == [0, 1, 2]
    assert s.auction.opening == 10
    rejects(s, 1, m.Bid(amount=5), "B-04")
    rejects(s, 1, m.Bid(amount=15), "B-04")  # steps of 10
    act(s, 1, m.Bid(amount=10))
    rejects(s, 2, m.Bid(amount=10), "B-04")  # must rise by at least 10
    act(s, 0, m.Bid(amount=300))
    act(s, 1, m.PassAuction())
    act(s, 2, m.PassAuction())
    assert s.owner[3] == 0 and cash(s, 0) == 15000 - 300 and s.auction is None


def test_B04_nobody_bids_it_stays_with_the_bank():
    s = table(2)
    Dice(s, (1, 2))
    act(s, 0, m.Roll())
    act(s, 0, m.DeclineToBuy())
    for seat in (0, 1):
        act(s, seat, timeout_action(s, seat))
    assert s.owner[3] == -1 and current_seat(s) == 1


# -- B-05 a winner who cannot pay -----------------------------------------------------------------


def test_B05_winner_who_cannot_pay_voids_and_the_auction_restarts_without_them():
    s = table(3)
    set_cash(s, 2, 100)
    Dice(s, (1, 2))
    act(s, 0, m.Roll())
    act(s, 0, m.DeclineToBuy())
    act(s, 2, m.Bid(amount=5000))
    act(s, 0, m.PassAuction())
    events = act(s, 1, m.PassAuction())
    assert "AuctionVoided" in kinds(events)
    assert s.auction is not None and sorted(s.auction.bidders) == [0, 1] and s.auction.excluded == [2]
    act(s, 1, m.Bid(amount=20))
    act(s, 0, m.PassAuction())
    assert s.owner[3] == 1 and cash(s, 2) == 100


# -- B-06 rent ------------------------------------------------------------------------------------


def _land_on(s, square, dice=(1, 2)):
    place(s, 0, (square - sum(dice)) % 40)
    Dice(s, dice)
    return act(s, 0, m.Roll())


def test_B06_rent_base_and_double_for_a_full_group_even_with_one_mortgaged():
    s = table(2)
    own(s, 1, 1)
    _land_on(s, 1)
    assert cash(s, 1) == 15000 + 20
    s = table(2)
    own(s, 1, 1)
    own(s, 1, 3, mortgaged=True)
    _land_on(s, 1)
    assert cash(s, 1) == 15000 + 40


def test_B06_houses_and_hotel_rent():
    s = table(2)
    own(s, 1, *BROWN)
    build(s, 1, 3)
    build(s, 3, 3)
    _land_on(s, 1)
    assert cash(s, 1) == 15000 + 900
    s = table(2)
    own(s, 1, *BROWN)
    build(s, 1, 5)
    build(s, 3, 5)
    _land_on(s, 3)
    assert cash(s, 1) == 15000 + 4500


@pytest.mark.parametrize("owned,rent", [(1, 250), (2, 500), (3, 1000), (4, 2000)])
def test_B06_stations(owned, rent):
    s = table(2)
    own(s, 1, *(5, 15, 25, 35)[:owned])
    _land_on(s, 5)
    assert cash(s, 1) == 15000 + rent


@pytest.mark.parametrize("owned,factor", [(1, 40), (2, 100)])
def test_B06_utilities_by_the_dice(owned, factor):
    s = table(2)
    own(s, 1, *(12, 28)[:owned])
    _land_on(s, 12, dice=(2, 3))
    assert cash(s, 1) == 15000 + factor * 5


def test_B06_mortgaged_no_rent():
    s = table(2)
    own(s, 1, 5, mortgaged=True)
    _land_on(s, 5)
    assert cash(s, 1) == 15000 and cash(s, 0) == 15000


# -- B-07 cards -----------------------------------------------------------------------------------


def _top(s, deck, index):
    pile = s.chance if deck == "chance" else s.chest
    pile.remove(index)
    pile.insert(0, index)


def test_B07_top_card_then_to_the_bottom():
    s = table(2)
    _top(s, "chance", CHANCE["dividend"])
    _land_on(s, 7)
    assert s.chance[-1] == CHANCE["dividend"] and cash(s, 0) == 15000 + 500


def test_B07_jail_card_is_kept_then_returns_under_the_deck():
    s = table(2)
    _top(s, "chance", CHANCE["jail_free"])
    _land_on(s, 7)
    assert s.players[0].jail_cards == ["chance"] and CHANCE["jail_free"] not in s.chance
    s.players[0].in_jail = True
    s.players[0].position = 10
    s.turn_index = 0
    s.rolled = False
    s.stage = "roll"
    act(s, 0, m.UseJailCard())
    assert not s.players[0].in_jail and s.chance[-1] == CHANCE["jail_free"]


def test_B07_nearest_station_pays_twice_the_rent():
    s = table(2)
    own(s, 1, 25, 35)
    _top(s, "chance", CHANCE["nearest_station_1"])
    _land_on(s, 22)
    assert s.players[0].position == 25 and cash(s, 1) == 15000 + 2 * 500


def test_B07_nearest_utility_charges_100x_a_fresh_roll_in_china():
    s = table(2)
    own(s, 1, 28)
    _top(s, "chance", CHANCE["nearest_utility"])
    place(s, 0, 19)
    dice = Dice(s, (1, 2))
    dice.add((4, 5))  # the card's fresh roll
    act(s, 0, m.Roll())
    assert s.players[0].position == 28 and cash(s, 1) == 15000 + 100 * 9


def test_B07_back_three_from_chance_36_draws_community_chest():
    s = table(2)
    _top(s, "chance", CHANCE["back_3"])
    _top(s, "chest", CHEST["bank_error"])
    _land_on(s, 36)
    assert s.players[0].position == 33 and cash(s, 0) == 15000 + 2000


def test_B07_repairs_and_pay_each_and_collect_each():
    s = table(3)
    own(s, 0, *BROWN)
    build(s, 1, 4)
    build(s, 3, 5)
    _top(s, "chance", CHANCE["repairs"])
    _land_on(s, 7)
    assert cash(s, 0) == 15000 - 4 * 250 - 1000
    s = table(3)
    _top(s, "chest", CHEST["birthday"])
    _land_on(s, 17)
    assert cash(s, 0) == 15000 + 2 * 100 and cash(s, 1) == cash(s, 2) == 15000 - 100


def test_B07_jail_card_sells_for_at_most_500():
    s = table(2)
    s.players[0].jail_cards = ["chance"]
    s.chance.remove(CHANCE["jail_free"])
    rejects(s, 0, m.ProposeTrade(target=1, give_cards=1, get_cash=600), "B-07")
    act(s, 0, m.ProposeTrade(target=1, give_cards=1, get_cash=500))
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    assert s.players[1].jail_cards == ["chance"] and cash(s, 0) == 15500


# -- B-08 taxes -----------------------------------------------------------------------------------


def test_B08_income_tax_2000_and_luxury_tax_1000():
    s = table(2)
    _land_on(s, 4)
    assert cash(s, 0) == 13000
    s = table(2)
    _land_on(s, 38)
    assert cash(s, 0) == 14000


def test_B08_income_tax_choice_counts_assets_after_the_choice():
    s = table(2, {"ruleset": "china", "income_tax_choice": True})
    own(s, 0, 39)  # price 4,000 -> assets 15,000 + 4,000 = 19,000 -> 1,900
    _land_on(s, 4)
    assert s.stage == "tax"
    act(s, 0, m.PayTax(choice="percent"))
    assert cash(s, 0) == 15000 - 1900


# -- B-09 jail ------------------------------------------------------------------------------------


def _jailed(s, seat=0):
    p = s.players[seat]
    p.in_jail, p.position = True, 10
    return p


def test_B09_pay_500_before_rolling():
    s = table(2)
    p = _jailed(s)
    act(s, 0, m.PayJailFine())
    assert not p.in_jail and cash(s, 0) == 14500
    Dice(s, (2, 3))
    act(s, 0, m.Roll())
    assert p.position == 15


def test_B09_doubles_leave_and_move_without_an_extra_roll():
    s = table(2)
    own(s, 1, 14)
    p = _jailed(s)
    Dice(s, (2, 2))
    act(s, 0, m.Roll())
    assert not p.in_jail and p.position == 14 and current_seat(s) == 1


def test_B09_third_failed_roll_pays_and_moves():
    s = table(2)
    own(s, 1, 15, 13)
    p = _jailed(s)
    for k in (1, 2):
        s.turn_index, s.rolled, s.stage = 0, False, "roll"
        Dice(s, (1, 3))
        act(s, 0, m.Roll())
        assert p.in_jail and p.jail_turns == k
    s.turn_index, s.rolled, s.stage = 0, False, "roll"
    Dice(s, (1, 4))
    act(s, 0, m.Roll())
    assert not p.in_jail and p.position == 15 and cash(s, 0) == 15000 - 500 - 250


def test_B09_in_jail_still_collects_rent():
    s = table(2)
    _jailed(s, 1)
    own(s, 1, 3)
    _land_on(s, 3)
    assert cash(s, 1) == 15040


def test_B09_landing_on_jail_is_just_visiting():
    s = table(2)
    _land_on(s, 10)
    assert not s.players[0].in_jail and s.players[0].position == 10


# -- B-10 free parking ----------------------------------------------------------------------------


def test_B10_free_parking_does_nothing():
    s = table(2)
    events = _land_on(s, 20)
    assert cash(s, 0) == 15000 and "Paid" not in kinds(events)


def test_B10_free_parking_pot_collects_taxes_and_fines_and_pays_whoever_stops_there():
    s = table(2, {"ruleset": "china", "free_parking_pot": True})
    _land_on(s, 4)  # income tax 2,000 into the pot, not just to the bank
    assert cash(s, 0) == 13000 and s.parking_pot == 2000
    s.turn_index, s.rolled, s.doubles, s.extra_roll = 0, False, 0, False
    _land_on(s, 38, dice=(2, 3))  # luxury tax 1,000 more
    assert s.parking_pot == 3000
    assert violations(s) == []  # the pot is money the bank took in: cash stays accounted for
    view = BOARD.view(s, None)
    assert view["parking_pot"] == 3000
    s.turn_index, s.rolled, s.doubles, s.extra_roll = 0, False, 0, False
    events = _land_on(s, 20, dice=(2, 4))
    assert s.parking_pot == 0 and cash(s, 0) == 12000 + 3000
    paid = [e for e in events if type(e).__name__ == "Paid" and e.reason == "free_parking"]
    assert [(p.payee, p.amount) for p in paid] == [(0, 3000)]
    assert violations(s) == []


def test_B10_without_the_pot_option_taxes_go_to_the_bank_and_nothing_waits_on_free_parking():
    s = table(2)
    _land_on(s, 4)
    assert s.parking_pot == 0 and BOARD.view(s, None)["parking_pot"] is None
    s.turn_index, s.rolled, s.doubles, s.extra_roll = 0, False, 0, False
    _land_on(s, 20)
    assert cash(s, 0) == 13000 and s.parking_pot == 0


# -- B-11 houses ----------------------------------------------------------------------------------


def test_B11_only_on_a_complete_unmortgaged_group():
    s = table(2)
    own(s, 0, 1)
    rejects(s, 0, m.BuildHouse(square=1), "B-11")
    own(s, 0, 3, mortgaged=True)
    rejects(s, 0, m.BuildHouse(square=1), "B-11")
    s.mortgaged[3] = False
    act(s, 0, m.BuildHouse(square=1))
    assert s.houses[1] == 1 and cash(s, 0) == 14500


def test_B11_build_evenly_and_a_hotel_after_four():
    s = table(2)
    own(s, 0, *BROWN)
    act(s, 0, m.BuildHouse(square=1))
    rejects(s, 0, m.BuildHouse(square=1), "B-11")
    act(s, 0, m.BuildHouse(square=3))
    for _ in range(3):
        act(s, 0, m.BuildHouse(square=1))
        act(s, 0, m.BuildHouse(square=3))
    houses_before = s.bank_houses
    act(s, 0, m.BuildHouse(square=1))
    assert s.houses[1] == 5 and s.bank_houses == houses_before + 4 and s.bank_hotels == 11
    act(s, 0, m.BuildHouse(square=3))
    rejects(s, 0, m.BuildHouse(square=3), "B-11")


def test_B11_B13_with_uneven_building_any_street_of_the_group_goes_up_or_down():
    s = table(2, {"ruleset": "china", "uneven_building": True})
    own(s, 0, *BROWN)
    act(s, 0, m.BuildHouse(square=1))
    act(s, 0, m.BuildHouse(square=1))  # a second house before square 3 has one: the house rule
    assert s.houses[1] == 2 and s.houses[3] == 0
    assert m.BuildHouse(square=1) in legal_actions(s, 0)
    act(s, 0, m.BuildHouse(square=3))
    act(s, 0, m.SellBuilding(square=3))  # selling from the lower street first is allowed too
    assert s.houses == [0, 2, 0, 0] + [0] * 36
    assert violations(s) == []


def test_B11_B13_building_evenly_is_the_default_in_both_rule_sets():
    for ruleset in ("china", "classic"):
        s = table(2, ruleset)
        assert not s.options.uneven_building
        own(s, 0, *BROWN)
        act(s, 0, m.BuildHouse(square=1))
        rejects(s, 0, m.BuildHouse(square=1), "B-11")
        assert m.BuildHouse(square=1) not in legal_actions(s, 0)


def test_B11_any_player_between_rolls_not_during_an_auction():
    s = table(3)
    own(s, 2, *BROWN)
    act(s, 2, m.BuildHouse(square=1))  # not seat 2's turn: still allowed between rolls
    Dice(s, (3, 3))
    act(s, 0, m.Roll())  # 6: light blue, for sale
    act(s, 0, m.DeclineToBuy())
    rejects(s, 2, m.BuildHouse(square=3), "B-11")


def test_B11_in_jail_may_build():
    s = table(2)
    _jailed(s, 0)
    own(s, 0, *BROWN)
    act(s, 0, m.BuildHouse(square=3))
    assert s.houses[3] == 1


def test_B11_a_round_puts_one_building_on_each_lowest_street():
    s = table(2)
    own(s, 0, *LIGHT_BLUE)
    assert m.BuildRound(group="light_blue") in BOARD.legal_actions(s, 0)
    events = act(s, 0, m.BuildRound(group="light_blue"))
    assert [s.houses[sq] for sq in LIGHT_BLUE] == [1, 1, 1] and s.bank_houses == 29
    assert cash(s, 0) == 15000 - 3 * 500 and kinds(events).count("Built") == 3
    act(s, 0, m.BuildHouse(square=6))  # uneven now: the round takes the two lower streets
    act(s, 0, m.BuildRound(group="light_blue"))
    assert [s.houses[sq] for sq in LIGHT_BLUE] == [2, 2, 2]
    for sq in LIGHT_BLUE:
        build(s, sq, 4)
    hotels_before = s.bank_hotels
    act(s, 0, m.BuildRound(group="light_blue"))  # from four houses: hotels, the houses back to the bank
    assert [s.houses[sq] for sq in LIGHT_BLUE] == [5, 5, 5] and s.bank_hotels == hotels_before - 3
    rejects(s, 0, m.BuildRound(group="light_blue"), "B-11")  # nothing left to build


def test_B11_a_round_needs_the_group_unmortgaged_the_cash_and_two_streets():
    s = table(2)
    own(s, 0, 6, 8)
    rejects(s, 0, m.BuildRound(group="light_blue"), "B-11")  # not the whole group
    rejects(s, 0, m.BuildRound(group="station"), "B-11")  # not streets
    rejects(s, 0, m.BuildRound(group="nowhere"), "B-11")
    own(s, 0, 9, mortgaged=True)
    rejects(s, 0, m.BuildRound(group="light_blue"), "B-11")
    s.mortgaged[9] = False
    set_cash(s, 0, 1499)
    rejects(s, 0, m.BuildRound(group="light_blue"), "B-11")  # 3 × 500
    assert m.BuildHouse(square=6) in BOARD.legal_actions(s, 0)
    assert m.BuildRound(group="light_blue") not in BOARD.legal_actions(s, 0)
    set_cash(s, 0, 5000)
    build(s, 6, 1)
    build(s, 8, 1)
    err = rejects(s, 0, m.BuildRound(group="light_blue"), "B-11")  # only 9 is lowest: build it alone
    assert err.key == "board.err.round_of_one"
    assert m.BuildRound(group="light_blue") not in BOARD.legal_actions(s, 0)


def test_B12_no_round_while_the_bank_is_short():
    """With fewer houses in the bank than players could place, a round could skip the shortage
    call: buildings then go up one at a time."""
    s = table(3)
    own(s, 0, *LIGHT_BLUE)
    own(s, 1, *BROWN)
    for sq in (21, 23, 24, 26, 27, 29):
        s.owner[sq] = 2
        build(s, sq, 4)
    assert s.bank_houses == 8
    err = rejects(s, 0, m.BuildRound(group="light_blue"), "B-12")
    assert err.key == "board.err.round_in_shortage"
    assert m.BuildRound(group="light_blue") not in BOARD.legal_actions(s, 0)
    assert m.BuildHouse(square=6) in BOARD.legal_actions(s, 0)


# -- B-12 the bank's 32 houses and 12 hotels ------------------------------------------------------


def test_B12_no_houses_left_no_building():
    s = table(2)
    own(s, 0, *BROWN)
    own(s, 1, 21, 23, 24, 26, 27, 29, 31, 32, 34)
    for sq in (21, 23, 24, 26, 27, 29):
        build(s, sq, 4)
    for sq, h in ((31, 3), (32, 3), (34, 2)):
        build(s, sq, h)
    assert s.bank_houses == 0 and violations(s) == []
    rejects(s, 0, m.BuildHouse(square=1), "B-12")


def test_B12_shortage_auction_when_two_want_more_than_the_bank_has():
    s = table(3)
    own(s, 0, *BROWN)
    own(s, 1, *LIGHT_BLUE)
    for sq in (21, 23, 24, 26, 27, 29, 31, 32, 34):
        s.owner[sq] = 2
    for sq in (21, 23, 24, 26, 27, 29):
        build(s, sq, 4)
    for sq in GREEN:
        build(s, sq, 2)
    assert s.bank_houses == 32 - 24 - 6 == 2
    events = act(s, 0, m.BuildHouse(square=1))
    assert "ShortageCalled" in kinds(events) and s.stage == "shortage"
    assert sorted(s.shortage.asked) == [1, 2]
    act(s, 1, m.JoinShortage(street=6))
    act(s, 2, m.DeclineShortage())
    assert s.stage == "auction" and s.auction.kind == "house"
    assert s.auction.opening == 500  # the lowest house cost among the named streets
    act(s, 1, m.Bid(amount=900))
    act(s, 0, m.PassAuction())
    assert s.houses[6] == 1 and cash(s, 1) == 15000 - 900 and s.stage == "roll"


def test_B12_a_single_interested_player_buys_directly():
    s = table(3)
    own(s, 0, *BROWN)
    own(s, 1, *LIGHT_BLUE)
    own(s, 2, 21, 23, 24, 26, 27, 29, *GREEN)
    for sq in (21, 23, 24, 26, 27, 29):
        build(s, sq, 4)
    for sq, h in ((31, 3), (32, 3), (34, 2)):
        build(s, sq, h)
    assert s.bank_houses == 0
    rejects(s, 0, m.BuildHouse(square=1), "B-12")
    build(s, 31, 2)  # one house back in the bank; seats 1 and 2 could want it too
    events = act(s, 0, m.BuildHouse(square=1))
    assert "ShortageCalled" in kinds(events) and sorted(s.shortage.asked) == [1, 2]
    act(s, 1, m.DeclineShortage())
    act(s, 2, m.DeclineShortage())
    assert s.houses[1] == 1 and s.stage == "roll" and cash(s, 0) == 14500


def test_B12_breaking_a_hotel_needs_four_houses_in_the_bank():
    s = table(2)
    own(s, 0, *BROWN)
    build(s, 1, 5)
    build(s, 3, 5)
    own(s, 1, 21, 23, 24, 26, 27, 29, *GREEN)
    for sq in (21, 23, 24, 26, 27, 29):
        build(s, sq, 4)
    for sq, h in ((31, 2), (32, 2), (34, 1)):
        build(s, sq, h)
    assert s.bank_houses == 3 and violations(s) == []
    rejects(s, 0, m.SellBuilding(square=1), "B-12")
    act(s, 0, m.SellGroupBuildings(group="brown"))
    assert s.houses[1] == s.houses[3] == 0 and cash(s, 0) == 15000 + 2 * 5 * 250


# -- B-13 selling ---------------------------------------------------------------------------------


def test_B13_sell_at_half_cost_evenly():
    s = table(2)
    own(s, 0, *BROWN)
    build(s, 1, 2)
    build(s, 3, 1)
    rejects(s, 0, m.SellBuilding(square=3), "B-13")  # the street with the most goes first
    act(s, 0, m.SellBuilding(square=1))
    assert s.houses[1] == 1 and cash(s, 0) == 15250


# -- B-14 mortgages -------------------------------------------------------------------------------


def test_B14_mortgage_for_half_price_and_lift_with_10_percent():
    s = table(2)
    own(s, 0, 39)
    act(s, 0, m.Mortgage(square=39))
    assert s.mortgaged[39] and cash(s, 0) == 15000 + 2000
    act(s, 0, m.LiftMortgage(square=39))
    assert not s.mortgaged[39] and cash(s, 0) == 15000 - 200


def test_B14_no_mortgage_while_the_group_has_buildings():
    s = table(2)
    own(s, 0, *BROWN)
    build(s, 1, 1)
    rejects(s, 0, m.Mortgage(square=3), "B-14")


def test_B14_the_rest_of_the_group_still_collects():
    s = table(2)
    own(s, 1, 6, 8)
    own(s, 1, 9, mortgaged=True)
    _land_on(s, 6)
    assert cash(s, 1) == 15000 + 2 * 60


# -- B-15 trading ---------------------------------------------------------------------------------


def test_B15_trade_properties_cash_and_the_mortgage_interest():
    s = table(2)
    own(s, 0, 1)
    own(s, 1, 3, mortgaged=True)
    act(s, 0, m.ProposeTrade(target=1, give=(1,), get=(3,), give_cash=100))
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    assert s.owner[1] == 1 and s.owner[3] == 0
    assert cash(s, 0) == 15000 - 100 - 30  # 10 % interest on the 300 mortgage at once
    act(s, 0, m.LiftMortgage(square=3))  # lifting now costs the principal only
    assert cash(s, 0) == 15000 - 130 - 300


def test_B15_lifting_later_costs_the_interest_again():
    s = table(2)
    own(s, 1, 3, mortgaged=True)
    own(s, 0, 1)
    act(s, 0, m.ProposeTrade(target=1, give=(1,), get=(3,)))
    act(s, 1, m.AcceptTrade(trade=s.trades[0].id))
    own(s, 1, 14)
    place(s, 0, 10)
    Dice(s, (1, 3))
    act(s, 0, m.Roll())  # 14: rent 120; the window closes
    act(s, 0, m.LiftMortgage(square=3))
    assert cash(s, 0) == 15000 - 30 - 120 - (300 + 30)


def test_B15_no_trading_groups_with_buildings_or_lending_or_in_a_no_trading_round():
    s = table(2)
    own(s, 0, *BROWN)
    build(s, 1, 1)
    own(s, 1, 39)
    rejects(s, 0, m.ProposeTrade(target=1, give=(3,), get=(39,)), "B-15")
    rejects(s, 0, m.ProposeTrade(target=1, give_cash=1000), "B-15")  # a loan is not a trade
    s2 = table(2, {"ruleset": "china", "no_trading": True})
    own(s2, 0, 1)
    own(s2, 1, 39)
    rejects(s2, 0, m.ProposeTrade(target=1, give=(1,), get=(39,)), "B-15")
    assert not any(isinstance(a, m.ProposeTrade) for a in legal_actions(s2, 0))


def test_B15_offers_are_answered_by_the_target_only_and_lapse_at_the_roll():
    s = table(3)
    own(s, 0, 1)
    own(s, 1, 39)
    act(s, 0, m.ProposeTrade(target=1, give=(1,), get=(39,), give_cash=500))
    t = s.trades[0].id
    rejects(s, 2, m.AcceptTrade(trade=t), "B-15")
    rejects(s, 0, m.ProposeTrade(target=1, give=(1,), get=(39,)), "B-15")  # one offer per window
    assert waiting_for(s)[0].seat == 1 and timeout_action(s, 1) == m.RejectTrade(trade=t)
    own(s, 2, 4 + 2)
    Dice(s, (3, 3), (1, 2))
    events = act(s, 0, m.Roll())
    assert s.trades == [] and "TradeClosed" in kinds(events)


# -- B-16 debt and bankruptcy ---------------------------------------------------------------------


def test_B16_a_debt_over_cash_must_be_raised():
    s = table(2)
    own(s, 1, *GREEN)
    build(s, 31, 1)
    build(s, 32, 1)
    build(s, 34, 1)
    own(s, 0, 39, 37)
    set_cash(s, 0, 500)
    _land_on(s, 31)  # rent 1,300
    assert s.stage == "debt" and s.debts[0].amount == 1300
    rejects(s, 0, m.PayDebt(), "B-16")
    rejects(s, 0, m.DeclareBankruptcy(), "B-16")  # mortgaging would cover it
    act(s, 0, m.Mortgage(square=37))
    act(s, 0, m.PayDebt())
    assert cash(s, 0) == 500 + 1750 - 1300 and s.stage != "debt"


def test_B16_bankrupt_to_a_player_who_pays_interest_on_mortgaged_property():
    s = table(3)
    own(s, 1, *GREEN)
    for sq in GREEN:
        build(s, sq, 5)
    own(s, 0, *BROWN)
    build(s, 1, 1)
    build(s, 3, 1)
    own(s, 0, 39, mortgaged=True)
    set_cash(s, 0, 100)
    _land_on(s, 31)  # rent 12,750
    assert max_raisable(s, 0) < 12750
    before = cash(s, 1)
    act(s, 0, m.DeclareBankruptcy())
    assert s.players[0].bankrupt and s.owner[1] == s.owner[3] == s.owner[39] == 1
    assert s.houses[1] == s.houses[3] == 0
    # cash 100 + two houses sold at half (2 x 250), minus 10 % interest on the 2,000 mortgage
    assert cash(s, 1) == before + 100 + 500 - 200
    assert current_seat(s) == 1


def test_B16_bankrupt_to_the_bank_everything_is_auctioned():
    s = table(3)
    own(s, 0, 1, 39)
    own(s, 0, 5, mortgaged=True)
    set_cash(s, 0, 100)
    s.players[0].jail_cards = ["chest"]
    s.chest.remove(CHEST["jail_free"])
    _land_on(s, 38)  # luxury tax 1,000
    act(s, 0, m.RaiseMoney())  # mortgaging 1 and 39 raises 2,300: the tax is paid
    assert not s.players[0].bankrupt
    s2 = table(3)
    own(s2, 0, 1, mortgaged=True)
    set_cash(s2, 0, 100)
    s2.players[0].jail_cards = ["chest"]
    s2.chest.remove(CHEST["jail_free"])
    _land_on(s2, 38)
    act(s2, 0, m.DeclareBankruptcy())
    assert s2.players[0].bankrupt and s2.stage == "auction" and s2.auction.square == 1
    assert not s2.mortgaged[1] and CHEST["jail_free"] in s2.chest
    assert sorted(s2.auction.bidders) == [1, 2]


def test_B16_timeout_raises_money_automatically():
    s = table(2)
    own(s, 1, 39)
    own(s, 0, 5, 37, 1)
    set_cash(s, 0, 0)
    _land_on(s, 39)
    assert timeout_action(s, 0) == m.RaiseMoney()
    act(s, 0, m.RaiseMoney())
    assert not s.players[0].bankrupt and s.stage != "debt"
    assert s.mortgaged[1] and not s.mortgaged[37]  # the cheapest rent went first


# -- B-17 the end ---------------------------------------------------------------------------------


def test_B17_last_player_wins():
    s = table(2)
    own(s, 1, *GREEN)
    for sq in GREEN:
        build(s, sq, 5)
    set_cash(s, 0, 0)
    _land_on(s, 31)
    act(s, 0, m.DeclareBankruptcy())
    assert s.stage == "over" and s.winners == [1] and s.end_reason == "last_player"
    assert waiting_for(s) == [] and BOARD.result(s).winners == [1]


def test_B17_time_out_valuation_and_shared_wins():
    s = table(3)
    own(s, 0, 39)  # 4,000
    own(s, 1, 37, mortgaged=True)  # half of 3,500
    own(s, 2, *BROWN)
    build(s, 1, 5)  # 5 x 500 at cost
    build(s, 3, 4)
    scores = valuation(s)
    assert scores == {0: 19000, 1: 15000 + 1750, 2: 15000 + 1200 + 4500}
    act(s, SYSTEM, m.EndMatch())
    assert s.winners == [2] and s.end_reason == "time"
    s2 = table(2)
    act(s2, SYSTEM, m.EndMatch())
    assert s2.winners == [0, 1]


def test_B17_only_the_clock_ends_a_match():
    rejects(table(2), 0, m.EndMatch(), "B-17")


# -- B-18 rounding --------------------------------------------------------------------------------


def test_B18_rounding_to_10_halves_up_and_classic_rounds_up():
    s = table(2)
    assert [round_amount(s, x) for x in (750, 740, 745, 300)] == [80, 70, 70, 30]
    assert interest(s, 37) == 180  # 10 % of 1,750 = 175 -> 180
    c = table(2, "classic")
    assert interest(c, 37) == 18  # 10 % of 175 = 17.5 -> 18
    assert interest(c, 12) == 8  # 10 % of 75 = 7.5 -> 8


# -- B-19 the bank ----------------------------------------------------------------------------------


def test_B19_the_bank_never_runs_out():
    s = table(2)
    set_cash(s, 1, 10**9)  # the bank has paid out a fortune already
    place(s, 0, 38)
    own(s, 1, 3)
    Dice(s, (2, 3))
    act(s, 0, m.Roll())
    assert cash(s, 0) == 15000 + 2000 - 40 and s.bank_net > 10**9 - 10**5


def test_B12_nobody_bids_in_a_shortage_auction_then_no_new_call_until_the_next_roll():
    s = table(3)
    own(s, 0, *BROWN)
    own(s, 1, *LIGHT_BLUE)
    own(s, 2, 21, 23, 24, 26, 27, 29, *GREEN)
    for sq in (21, 23, 24, 26, 27, 29):
        build(s, sq, 4)
    for sq in GREEN:
        build(s, sq, 2)
    act(s, 0, m.BuildHouse(square=1))
    act(s, 1, m.JoinShortage(street=6))
    act(s, 2, m.DeclineShortage())
    act(s, 0, m.PassAuction())
    act(s, 1, m.PassAuction())
    assert s.stage == "roll" and s.houses[1] == 0
    events = act(s, 0, m.BuildHouse(square=1))  # the others were asked already: no second call
    assert "ShortageCalled" not in kinds(events) and s.houses[1] == 1


# -- the choices derive from the validators (engine/board/rules/choices.py) ---------------------------


def _validator_choices(s, seat):
    """Every build, round, sale, mortgage and lift the handlers' own validators accept now."""
    from engine.board.rules import building as v

    if v._manage_problem(s, seat, spend=False) is not None:
        return set()
    spend = v._manage_problem(s, seat, spend=True) is None
    b = board(s.options.ruleset)
    out = set()
    for sq in range(40):
        if spend and v._build_problem(s, seat, sq) is None:
            out.add(m.BuildHouse(square=sq))
        if v._sell_problem(s, seat, sq) is None:
            out.add(m.SellBuilding(square=sq))
        if v._mortgage_problem(s, seat, sq) is None:
            out.add(m.Mortgage(square=sq))
        if spend and v._lift_problem(s, seat, sq) is None:
            out.add(m.LiftMortgage(square=sq))
    for group in b.groups:
        if spend and v._round_problem(s, seat, group)[0] is None:
            out.add(m.BuildRound(group=group))
        if v._sell_group_problem(s, seat, group) is None:
            out.add(m.SellGroupBuildings(group=group))
    return out


MANAGEMENT = (m.BuildHouse, m.BuildRound, m.SellBuilding, m.SellGroupBuildings, m.Mortgage, m.LiftMortgage)


def test_management_choices_are_what_the_validators_accept_in_ai_games():
    """Also when a group's terms were first worked out without its sales (what the AI asks): a
    later full list works them out then (``_group_terms``), on a copy with an empty memo."""
    checked = 0
    for _ruleset, s, _seat in ai_decisions(21, 3, 150):
        fresh = BOARD.decode_state(BOARD.encode_state(s))  # the same position, nothing remembered
        for who in range(4):
            listed = {a for a in legal_actions(s, who) if isinstance(a, MANAGEMENT)}
            assert listed == _validator_choices(s, who), (s.stage, who)
            full = management_choices(s, who)
            lean = management_choices(s, who, sells=False, lifts=False)  # what the AI may ask
            assert lean == full._replace(sells=[], lifts=[]), (s.stage, who)
            assert management_choices(fresh, who, sells=False, lifts=False) == lean
            assert management_choices(fresh, who) == full, (s.stage, who)
            checked += 1
    assert checked > 2000


def test_the_choices_memo_is_never_stale_nor_stored():
    """What ``legal_actions`` remembers lives on the state object, keyed by what it was worked out
    from: a state changed behind the rules' back (as tests do) lists its new choices at once, and
    the memo is neither encoded nor carried into a copy."""
    s = table(2)
    own(s, 0, *BROWN)
    assert m.BuildHouse(square=1) in legal_actions(s, 0) and s.memo
    own(s, 0, 3, mortgaged=True)
    assert m.BuildHouse(square=1) not in legal_actions(s, 0)
    assert m.LiftMortgage(square=3) in legal_actions(s, 0)
    s.mortgaged[3] = False
    build(s, 1, 1)
    assert m.BuildHouse(square=1) not in legal_actions(s, 0) and m.BuildHouse(square=3) in legal_actions(s, 0)
    assert m.SellBuilding(square=1) in legal_actions(s, 0)
    set_cash(s, 0, 10)
    assert m.BuildHouse(square=3) not in legal_actions(s, 0)
    text = BOARD.encode_state(s)
    assert b"memo" not in text and not hasattr(BOARD.decode_state(text), "memo")
