"""One or more tests per Deal rule id (docs/rules.md D-01 … D-18), each from a built state."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.core.values import SYSTEM
from engine.deal import DEAL, area
from engine.deal.ai import choose
from engine.deal.cards import KEY, N_CARDS, VALUE
from engine.deal.invariants import card_locations
from engine.deal.model import (
    RULESETS,
    Accept,
    AutoPay,
    BankCard,
    ConfirmPayment,
    Discard,
    EndMatch,
    EndTurn,
    JustSayNo,
    LayProperty,
    MoveProperty,
    PlaceBuilding,
    PlayBirthday,
    PlayBuilding,
    PlayDealBreaker,
    PlayDebtCollector,
    PlayForcedDeal,
    PlayPassGo,
    PlayRent,
    PlaySlyDeal,
    TogglePayment,
)
from engine.deal.rules import current_seat, event_for, new_game, timeout_action, view, waiting_for
from tests.builders import Table, accept_windows, card_of, legal, rejects, settle

# -- D-01 set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_D01_deals_five_each_from_106(players):
    s = new_game(players, "standard", 11)
    first = current_seat(s)
    for p in s.players:
        assert len(p.hand) == (7 if p.seat == first else 5)  # the first player has drawn 2
    assert len(card_locations(s)) == N_CARDS == 106
    assert sorted(card_locations(s)) == list(range(106))


@pytest.mark.parametrize("players", [0, 1, 6])
def test_D01_player_count_is_two_to_five(players):
    with pytest.raises(RuleError) as e:
        new_game(players, "standard", 1)
    assert e.value.rule == "D-01"


def test_D01_standard_order_is_a_random_start_then_to_the_left():
    starts = set()
    for seed in range(40):
        s = new_game(4, "standard", seed)
        start = s.order[0]
        assert s.order == [(start + i) % 4 for i in range(4)]
        starts.add(start)
    assert starts == {0, 1, 2, 3}


def test_D01_tournament_order_by_2d6_highest_first():
    for seed in range(30):
        s = new_game(5, "tournament", seed)
        first_round = {}
        for seat, d1, d2 in s.opening_rolls:
            first_round.setdefault(seat, d1 + d2)
        totals = [first_round[seat] for seat in s.order]
        assert totals == sorted(totals, reverse=True)
        assert len(s.opening_rolls) >= 5


def test_D01_tournament_ties_reroll_among_the_tied():
    for seed in range(200):
        s = new_game(5, "tournament", seed)
        if len(s.opening_rolls) > 5:
            rerolled = [r[0] for r in s.opening_rolls[5:]]
            first = {r[0]: r[1] + r[2] for r in s.opening_rolls[:5]}
            assert len({first[x] for x in rerolled}) >= 1
            # everyone who re-rolled tied with someone else on the first roll
            for x in rerolled:
                assert sum(1 for v in first.values() if v == first[x]) >= 2
            return
    pytest.fail("no seed with a tie in 200 tries")


# -- D-02 drawing ---------------------------------------------------------------------------------


def test_D02_turn_starts_with_two_cards():
    s = Table(3).hand(0, "money_1").hand(1, "money_2", "money_3").state()
    DEAL.apply(s, 0, EndTurn())
    assert current_seat(s) == 1
    assert len(s.players[1].hand) == 4


def test_D02_empty_hand_draws_five():
    s = Table(3).hand(0, "money_1").state()
    DEAL.apply(s, 0, EndTurn())
    assert len(s.players[1].hand) == 5


def test_D02_empty_draw_pile_reshuffles_the_discard_pile():
    t = Table(2).hand(0, "money_1")
    s = t.state(draw_pile=False)  # every other card in the discard pile
    assert s.draw_pile == []
    events = DEAL.apply(s, 0, EndTurn())
    assert any(type(e).__name__ == "Reshuffled" for e in events)
    assert len(s.players[1].hand) == 5
    assert len(s.draw_pile) + len(s.discard_pile) == N_CARDS - 6


# -- D-03 playing ---------------------------------------------------------------------------------


def test_D03_three_plays_then_the_turn_ends():
    s = Table(2).hand(0, "money_1", "money_2", "money_3", "money_4").state()
    for key in ("money_1", "money_2", "money_3"):
        DEAL.apply(s, 0, BankCard(card=card_of(s, 0, key)))
    assert current_seat(s) == 1  # third play resolved: the turn passed
    assert [KEY[c] for c in s.players[0].bank] == ["money_1", "money_2", "money_3"]


def test_D03_no_fourth_play():
    s = Table(2).hand(0, "money_1", "money_2", "money_3", "money_4", "money_5",
                      "money_10", "money_1", "money_2").state()
    for key in ("money_1", "money_2"):
        DEAL.apply(s, 0, BankCard(card=card_of(s, 0, key)))
    s.plays_left = 0
    rejects(s, 0, BankCard(card=card_of(s, 0, "money_3")), "D-03")


def test_D03_only_on_your_turn_and_from_your_hand():
    s = Table(3).hand(0, "money_1").hand(1, "money_2").state()
    rejects(s, 1, BankCard(card=card_of(s, 1, "money_2")), "D-03")
    rejects(s, 0, BankCard(card=card_of(s, 1, "money_2")), "D-03")


def test_D03_actions_bank_as_money_properties_never():
    s = Table(2).hand(0, "sly_deal", "property_boardwalk").state()
    sly = card_of(s, 0, "sly_deal")
    DEAL.apply(s, 0, BankCard(card=sly))
    assert sly in s.players[0].bank and sly not in s.players[0].hand
    rejects(s, 0, BankCard(card=card_of(s, 0, "property_boardwalk")), "D-03")
    assert not any(isinstance(a, BankCard) and KEY[a.card] == "property_boardwalk"
                   for a in DEAL.legal_actions(s, 0))


def test_D03_played_cards_never_return_to_the_hand():
    s = Table(2).hand(0, "pass_go").state()
    card = card_of(s, 0, "pass_go")
    DEAL.apply(s, 0, PlayPassGo(card=card))
    assert card in s.discard_pile and card not in s.players[0].hand


# -- D-04 end of turn -----------------------------------------------------------------------------


def _nine_cards() -> Table:
    return Table(2).hand(0, "money_1", "money_1", "money_2", "money_2", "money_3", "money_3",
                         "money_4", "money_4", "money_5")


def test_D04_hand_over_seven_is_cut_to_seven_under_the_draw_pile():
    s = _nine_cards().state()
    DEAL.apply(s, 0, EndTurn())
    assert s.phase == "discard" and current_seat(s) == 0
    rejects(s, 0, BankCard(card=s.players[0].hand[0]), "D-04")
    first = card_of(s, 0, "money_1")
    DEAL.apply(s, 0, Discard(card=first))
    assert s.draw_pile[0] == first  # the bottom of the draw pile
    DEAL.apply(s, 0, Discard(card=card_of(s, 0, "money_1")))
    assert len(s.players[0].hand) == 7
    assert current_seat(s) == 1


def test_D04_option_discard_to_pile():
    s = _nine_cards()
    s = Table(2, {"ruleset": "standard", "discard_to_pile": True}).hand(
        0, *["money_1"] * 2, *["money_2"] * 2, "money_3", "money_3", "money_4", "money_4", "money_5").state()
    DEAL.apply(s, 0, EndTurn())
    card = card_of(s, 0, "money_1")
    DEAL.apply(s, 0, Discard(card=card))
    assert s.discard_pile[-1] == card


def test_D04_discard_is_only_for_a_hand_over_seven():
    s = Table(2).hand(0, "money_1").state()
    rejects(s, 0, Discard(card=card_of(s, 0, "money_1")), "D-04")


def test_D04_timeout_discards_the_least_useful_card():
    s = Table(2).hand(0, "property_boardwalk", "just_say_no", "money_1", "money_2", "money_3",
                      "money_4", "money_5", "deal_breaker").state()
    DEAL.apply(s, 0, EndTurn())
    action = timeout_action(s, 0)
    assert isinstance(action, Discard) and KEY[action.card] == "money_1"


# -- D-05 sets ------------------------------------------------------------------------------------


@pytest.mark.parametrize("colour,size", [("brown", 2), ("dark_blue", 2), ("utility", 2), ("light_blue", 3),
                                          ("pink", 3), ("orange", 3), ("red", 3), ("yellow", 3),
                                          ("green", 3), ("railroad", 4)])
def test_D05_set_sizes(colour, size):
    from engine.deal.cards import SET_SIZE
    assert SET_SIZE[colour] == size


def test_D05_two_sets_of_one_colour_count_once():
    s = (Table(2).group(0, "brown", "property_mediterranean", "property_baltic")
         .group(0, "brown", "wild_light_blue_brown", "wild_any")
         .group(0, "dark_blue", "property_park_place", "property_boardwalk")
         .hand(0, "money_1").state())
    DEAL.apply(s, 0, BankCard(card=card_of(s, 0, "money_1")))
    assert s.phase != "over"
    assert area.complete_set_count(s.players[0], s.options) == 1 + 1  # brown (once) and dark blue


# -- D-06 wildcards -------------------------------------------------------------------------------


def test_D06_two_colour_wild_takes_either_colour():
    s = Table(2).hand(0, "wild_red_yellow", "wild_red_yellow").state()
    a, b = [c for c in s.players[0].hand]
    DEAL.apply(s, 0, LayProperty(card=a, colour="red"))
    DEAL.apply(s, 0, LayProperty(card=b, colour="yellow"))
    assert [g.colour for g in s.players[0].groups] == ["red", "yellow"]


def test_D06_wild_cannot_take_a_colour_it_lacks():
    s = Table(2).hand(0, "wild_red_yellow").state()
    rejects(s, 0, LayProperty(card=s.players[0].hand[0], colour="green"), "D-06")


def test_D06_multicolour_alone_has_no_colour_and_no_rent():
    s = Table(2).hand(0, "wild_any", "rent_wild").state()
    wild = card_of(s, 0, "wild_any")
    rejects(s, 0, LayProperty(card=wild, colour="red"), "D-06")
    DEAL.apply(s, 0, LayProperty(card=wild, colour=None))
    g = s.players[0].groups[0]
    assert g.colour is None and area.group_rent(g, s.options) == 0
    assert not any(isinstance(a, PlayRent) for a in DEAL.legal_actions(s, 0))


def test_D06_multicolour_takes_the_colour_of_the_card_that_joins_it():
    s = Table(2).hand(0, "wild_any", "property_boardwalk").state()
    DEAL.apply(s, 0, LayProperty(card=card_of(s, 0, "wild_any"), colour=None))
    DEAL.apply(s, 0, LayProperty(card=card_of(s, 0, "property_boardwalk"), colour="dark_blue", group=0))
    assert s.players[0].groups[0].colour == "dark_blue"
    assert area.is_complete(s.players[0].groups[0], s.options)


def test_D06_multicolour_never_pays():
    s = (Table(2).group(1, None, "wild_any").group(1, "red", "property_kentucky")
         .hand(0, "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    # 3M payable (Kentucky) is below the 5M debt: everything payable goes, the wild stays
    assert [KEY[c] for g in s.players[1].groups for c in g.cards] == ["wild_any"]
    wild = s.players[1].groups[0].cards[0]
    from engine.deal.payment import check_selection
    with pytest.raises(RuleError) as e:
        check_selection(s.players[1], [wild], 1, s.options)
    assert e.value.rule == "D-06"


def test_D06_rearranging_is_free_on_your_turn():
    s = (Table(2).group(0, "red", "wild_red_yellow").group(0, "yellow", "property_atlantic", "property_ventnor")
         .hand(0, "money_1").state())
    wild = s.players[0].groups[0].cards[0]
    DEAL.apply(s, 0, MoveProperty(card=wild, colour="yellow", group=1))
    assert s.plays_left == 3
    yellow = next(g for g in s.players[0].groups if g.colour == "yellow")
    assert wild in yellow.cards and area.is_complete(yellow, s.options)


def test_D06_no_rearranging_on_another_players_turn():
    s = Table(2).group(1, "red", "wild_red_yellow").state()
    wild = s.players[1].groups[0].cards[0]
    rejects(s, 1, MoveProperty(card=wild, colour="yellow", group=None), "D-06")


def test_D06_tournament_no_rearranging_after_the_last_play():
    s = Table(2, "tournament").group(0, "red", "wild_red_yellow").hand(0, "money_1").state()
    s.plays_left = 0
    rejects(s, 0, MoveProperty(card=s.players[0].groups[0].cards[0], colour="yellow", group=None), "D-06")


def test_D06_a_wild_under_a_house_moves_only_when_replaced():
    s = (Table(2).group(0, "red", "property_kentucky", "property_indiana", "wild_red_yellow", house=True)
         .group(0, "red", "property_illinois").group(0, "yellow", "property_atlantic").state())
    wild = card_of(s, 0, "wild_red_yellow", where="area")
    rejects(s, 0, MoveProperty(card=wild, colour="yellow", group=2), "D-06")
    illinois = card_of(s, 0, "property_illinois", where="area")
    move = MoveProperty(card=illinois, colour="red", group=0, replace=wild)
    assert legal(s, 0, move)
    DEAL.apply(s, 0, move)
    g0 = s.players[0].groups[0]
    assert illinois in g0.cards and wild not in g0.cards and g0.house is not None
    assert area.is_complete(g0, s.options)
    moved = next(g for g in s.players[0].groups if wild in g.cards)
    assert moved.colour == "red"


# -- D-07 completing sets with wilds --------------------------------------------------------------


def test_D07_standard_needs_a_single_colour_card():
    s = Table(2).group(0, "brown", "wild_light_blue_brown", "wild_any").state()
    assert not area.is_complete(s.players[0].groups[0], s.options)


def test_D07_tournament_two_colour_wild_completes():
    s = Table(2, "tournament").group(0, "brown", "wild_light_blue_brown", "wild_any").state()
    assert area.is_complete(s.players[0].groups[0], s.options)


def test_D07_multicolour_never_completes_by_itself():
    s = Table(2, "tournament").group(0, None, "wild_any", "wild_any").state()
    assert not area.is_complete(s.players[0].groups[0], s.options)
    s2 = Table(2, "tournament").group(0, "brown", "wild_any", "wild_any").state()
    assert not area.is_complete(s2.players[0].groups[0], s2.options)


# -- D-08 rent ------------------------------------------------------------------------------------


def _rent_table(players: int = 3, **kw) -> Table:
    t = Table(players, **kw).group(0, "red", "property_kentucky", "property_indiana")
    for seat in range(1, players):
        t.bank(seat, "money_5")
    return t


def test_D08_two_colour_rent_charges_every_other_player():
    s = _rent_table().hand(0, "rent_red_yellow").state()
    DEAL.apply(s, 0, PlayRent(card=card_of(s, 0, "rent_red_yellow"), group=0))
    assert sorted(d.target for d in s.pending) == [1, 2] and {d.amount for d in s.pending} == {3}
    settle(s)
    assert sum(VALUE[c] for c in s.players[0].bank) == 10  # two players paid 5M each (no change)
    assert s.players[1].bank == [] and s.players[2].bank == []


def test_D08_rent_follows_the_table_value():
    s = _rent_table().state()
    assert area.group_rent(s.players[0].groups[0], s.options) == 3  # red, 2 cards
    s2 = (Table(2).group(0, "green", "property_pacific", "property_north_carolina", "property_pennsylvania_ave",
                         house=True, hotel=True).state())
    assert area.group_rent(s2.players[0].groups[0], s2.options) == 7 + 3 + 4


def test_D08_wild_rent_charges_one_chosen_player():
    s = _rent_table().hand(0, "rent_wild").state()
    card = card_of(s, 0, "rent_wild")
    rejects(s, 0, PlayRent(card=card, group=0), "D-10")  # a target is needed
    DEAL.apply(s, 0, PlayRent(card=card, group=0, target=2))
    settle(s)
    assert s.players[1].bank != [] and s.players[2].bank == []


def test_D08_rent_needs_a_property_of_that_colour():
    s = _rent_table().hand(0, "rent_pink_orange").state()
    rejects(s, 0, PlayRent(card=card_of(s, 0, "rent_pink_orange"), group=0), "D-08")
    assert not any(isinstance(a, PlayRent) for a in DEAL.legal_actions(s, 0))


def test_D08_two_groups_of_one_colour_charge_for_one():
    s = (Table(2).group(0, "red", "property_kentucky").group(0, "red", "property_indiana", "property_illinois")
         .bank(1, "money_10").hand(0, "rent_red_yellow").state())
    card = card_of(s, 0, "rent_red_yellow")
    amounts = {a.group: a for a in DEAL.legal_actions(s, 0) if isinstance(a, PlayRent) and not a.doubles}
    assert set(amounts) == {0, 1}
    DEAL.apply(s, 0, PlayRent(card=card, group=1))
    assert s.pending[0].amount == 3
    settle(s)
    # the 10M note pays 3M rent with no change
    assert sum(VALUE[c] for c in s.players[0].bank) == 10


# -- D-09 Double The Rent -------------------------------------------------------------------------


def test_D09_double_the_rent_doubles_and_counts_as_a_play():
    s = _rent_table(2).bank(1, "money_3", "money_2", "money_1").hand(0, "rent_red_yellow", "double_rent").state()
    rent, dbl = card_of(s, 0, "rent_red_yellow"), card_of(s, 0, "double_rent")
    DEAL.apply(s, 0, PlayRent(card=rent, group=0, doubles=(dbl,)))
    assert s.plays_left == 1
    d = s.pending[0] if s.pending else None
    assert d is not None and d.amount == 6


def test_D09_two_doubles_quadruple():
    s = (_rent_table(2).bank(1, "money_10", "money_3").hand(0, "rent_red_yellow", "double_rent", "double_rent")
         .state())
    rent = card_of(s, 0, "rent_red_yellow")
    doubles = tuple(c for c in s.players[0].hand if KEY[c] == "double_rent")
    DEAL.apply(s, 0, PlayRent(card=rent, group=0, doubles=doubles))
    assert s.pending[0].amount == 12
    assert s.plays_left == 0


def test_D09_option_single_double_rent():
    s = (_rent_table(2, ruleset={"single_double_rent": True}).hand(0, "rent_red_yellow", "double_rent",
                                                                    "double_rent").state())
    doubles = tuple(c for c in s.players[0].hand if KEY[c] == "double_rent")
    rejects(s, 0, PlayRent(card=card_of(s, 0, "rent_red_yellow"), group=0, doubles=doubles), "D-09")


def test_D09_doubles_need_plays_left():
    s = _rent_table(2).hand(0, "rent_red_yellow", "double_rent", "double_rent").turn(0, plays_left=2).state()
    doubles = tuple(c for c in s.players[0].hand if KEY[c] == "double_rent")
    rejects(s, 0, PlayRent(card=card_of(s, 0, "rent_red_yellow"), group=0, doubles=doubles), "D-09")


def test_D09_double_the_rent_is_never_played_alone():
    s = Table(2).hand(0, "double_rent").state()
    kinds = {type(a).__name__ for a in DEAL.legal_actions(s, 0)}
    assert kinds == {"EndTurn", "BankCard"}


# -- D-10 Debt Collector, Birthday, Pass Go -------------------------------------------------------


def test_D10_debt_collector_takes_5m_from_one_player():
    s = Table(3).bank(1, "money_5").bank(2, "money_5").hand(0, "debt_collector").state()
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=2))
    accept_windows(s)
    assert s.players[2].bank == [] and len(s.players[1].bank) == 1
    assert sum(VALUE[c] for c in s.players[0].bank) == 5


def test_D10_birthday_takes_2m_from_everyone_else():
    s = Table(3).bank(1, "money_2").bank(2, "money_2").hand(0, "birthday").state()
    DEAL.apply(s, 0, PlayBirthday(card=card_of(s, 0, "birthday")))
    accept_windows(s)
    assert sum(VALUE[c] for c in s.players[0].bank) == 4


def test_D10_pass_go_draws_two_and_may_be_played_twice():
    s = Table(2).hand(0, "pass_go", "pass_go").state()
    DEAL.apply(s, 0, PlayPassGo(card=s.players[0].hand[0]))
    assert len(s.players[0].hand) == 1 + 2
    DEAL.apply(s, 0, PlayPassGo(card=card_of(s, 0, "pass_go")))
    assert len(s.players[0].hand) == 4 and s.plays_left == 1


def test_D10_no_target_yourself():
    s = Table(3).hand(0, "debt_collector").state()
    rejects(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=0), "D-10")


# -- D-11 Sly Deal, Forced Deal, Deal Breaker -----------------------------------------------------


def _steal_table(ruleset: str = "standard") -> Table:
    return (Table(2, ruleset)
            .group(1, "red", "property_kentucky")
            .group(1, "dark_blue", "property_park_place", "property_boardwalk", house=True)
            .group(0, "green", "property_pacific"))


def test_D11_sly_deal_takes_one_property_not_from_a_complete_set():
    s = _steal_table().hand(0, "sly_deal").hand(0, "sly_deal").state()
    sly = card_of(s, 0, "sly_deal")
    boardwalk = card_of(s, 1, "property_boardwalk", where="area")
    rejects(s, 0, PlaySlyDeal(card=sly, target=1, take=boardwalk), "D-11")
    kentucky = card_of(s, 1, "property_kentucky", where="area")
    DEAL.apply(s, 0, PlaySlyDeal(card=sly, target=1, take=kentucky))
    accept_windows(s)
    assert any(kentucky in g.cards and g.colour == "red" for g in s.players[0].groups)
    assert all(kentucky not in g.cards for g in s.players[1].groups)


def test_D11_forced_deal_swaps_two_properties():
    s = _steal_table().hand(0, "forced_deal").state()
    give = card_of(s, 0, "property_pacific", where="area")
    take = card_of(s, 1, "property_kentucky", where="area")
    DEAL.apply(s, 0, PlayForcedDeal(card=card_of(s, 0, "forced_deal"), give=give, target=1, take=take))
    accept_windows(s)
    assert any(take in g.cards for g in s.players[0].groups)
    assert any(give in g.cards for g in s.players[1].groups)


def test_D11_forced_deal_neither_from_a_complete_set():
    s = (_steal_table().group(0, "brown", "property_mediterranean", "property_baltic")
         .hand(0, "forced_deal").state())
    fd = card_of(s, 0, "forced_deal")
    rejects(s, 0, PlayForcedDeal(card=fd, give=card_of(s, 0, "property_baltic", where="area"), target=1,
                                 take=card_of(s, 1, "property_kentucky", where="area")), "D-11")
    rejects(s, 0, PlayForcedDeal(card=fd, give=card_of(s, 0, "property_pacific", where="area"), target=1,
                                 take=card_of(s, 1, "property_boardwalk", where="area")), "D-11")


def test_D11_deal_breaker_takes_a_complete_set_with_its_house():
    s = _steal_table().hand(0, "deal_breaker").state()
    db = card_of(s, 0, "deal_breaker")
    rejects(s, 0, PlayDealBreaker(card=db, target=1, group=0), "D-11")  # red is not complete
    DEAL.apply(s, 0, PlayDealBreaker(card=db, target=1, group=1))
    accept_windows(s)
    taken = next(g for g in s.players[0].groups if g.colour == "dark_blue")
    assert len(taken.cards) == 2 and taken.house is not None
    assert all(g.colour != "dark_blue" for g in s.players[1].groups)


def test_D11_a_taken_wild_takes_its_new_owners_colour():
    s = (Table(2).group(1, "red", "wild_red_yellow").group(0, "yellow", "property_atlantic", "property_ventnor")
         .hand(0, "sly_deal").state())
    wild = s.players[1].groups[0].cards[0]
    DEAL.apply(s, 0, PlaySlyDeal(card=card_of(s, 0, "sly_deal"), target=1, take=wild))
    accept_windows(s)
    g = next(g for g in s.players[0].groups if wild in g.cards)
    assert g.colour == "yellow" and area.is_complete(g, s.options)


def test_D11_multicolour_wild_can_be_stolen():
    s = Table(2).group(1, None, "wild_any").hand(0, "sly_deal").state()
    wild = s.players[1].groups[0].cards[0]
    assert legal(s, 0, PlaySlyDeal(card=card_of(s, 0, "sly_deal"), target=1, take=wild))


# -- D-12 House and Hotel -------------------------------------------------------------------------


def test_D12_house_only_on_a_complete_set():
    s = (Table(2).group(0, "red", "property_kentucky", "property_indiana")
         .group(0, "brown", "property_mediterranean", "property_baltic").hand(0, "house", "hotel").state())
    house = card_of(s, 0, "house")
    rejects(s, 0, PlayBuilding(card=house, group=0), "D-12")
    rejects(s, 0, PlayBuilding(card=card_of(s, 0, "hotel"), group=1), "D-12")  # hotel needs a house
    DEAL.apply(s, 0, PlayBuilding(card=house, group=1))
    assert s.players[0].groups[1].house == house
    DEAL.apply(s, 0, PlayBuilding(card=card_of(s, 0, "hotel"), group=1))
    assert s.players[0].groups[1].hotel is not None


def test_D12_no_buildings_on_railroads_or_utilities():
    s = Table(2).group(0, "utility", "property_electric", "property_water_works").hand(0, "house").state()
    rejects(s, 0, PlayBuilding(card=card_of(s, 0, "house"), group=0), "D-12")


def test_D12_one_house_per_set():
    s = (Table(2).group(0, "brown", "property_mediterranean", "property_baltic", house=True)
         .hand(0, "house").state())
    rejects(s, 0, PlayBuilding(card=card_of(s, 0, "house"), group=0), "D-12")


# -- D-13 Just Say No -----------------------------------------------------------------------------


def test_D13_just_say_no_cancels_for_that_player_only():
    s = (Table(3).bank(1, "money_2").bank(2, "money_2").hand(1, "just_say_no")
         .hand(0, "birthday").state())
    DEAL.apply(s, 0, PlayBirthday(card=card_of(s, 0, "birthday")))
    # both targets are asked, each about their own share
    assert sorted(d.target for d in s.pending) == [1, 2]
    d1, d2 = sorted(s.pending, key=lambda d: d.target)
    DEAL.apply(s, 1, JustSayNo(demand=d1.id, card=card_of(s, 1, "just_say_no")))
    assert d1.stage == "counter"  # the attacker is asked, though it holds no Just Say No
    assert DEAL.legal_actions(s, 0) == [Accept(demand=d1.id)]
    DEAL.apply(s, 0, Accept(demand=d1.id))  # the No stands: cancelled for seat 1 only
    DEAL.apply(s, 2, Accept(demand=d2.id))
    assert s.pending == [] and len(s.players[1].bank) == 1 and s.players[2].bank == []
    assert sum(VALUE[c] for c in s.players[0].bank) == 2


def test_D13_chains_odd_cancels_even_goes_through():
    s = (Table(2).bank(1, "money_5").hand(1, "just_say_no", "just_say_no").hand(0, "debt_collector", "just_say_no")
         .state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    d = s.pending[0]
    DEAL.apply(s, 1, JustSayNo(demand=d.id, card=card_of(s, 1, "just_say_no")))
    assert d.stage == "counter"
    DEAL.apply(s, 0, JustSayNo(demand=d.id, card=card_of(s, 0, "just_say_no")))
    assert d.stage == "respond" and d.refusals == 2
    DEAL.apply(s, 1, JustSayNo(demand=d.id, card=card_of(s, 1, "just_say_no")))
    # three refusals (odd): the attacker, out of Just Say Nos, can only let it stand
    assert d.stage == "counter" and DEAL.legal_actions(s, 0) == [Accept(demand=d.id)]
    DEAL.apply(s, 0, Accept(demand=d.id))
    assert s.pending == [] and len(s.players[1].bank) == 1


def test_D13_even_chain_lets_the_action_through():
    s = (Table(2).bank(1, "money_5").hand(1, "just_say_no").hand(0, "debt_collector", "just_say_no").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    d = s.pending[0]
    DEAL.apply(s, 1, JustSayNo(demand=d.id, card=card_of(s, 1, "just_say_no")))
    DEAL.apply(s, 0, JustSayNo(demand=d.id, card=card_of(s, 0, "just_say_no")))
    assert d.stage == "respond" and DEAL.legal_actions(s, 1) == [Accept(demand=d.id)]
    DEAL.apply(s, 1, Accept(demand=d.id))
    assert s.pending == [] and s.players[1].bank == []


def test_D13_every_target_answers_whether_or_not_they_hold_a_just_say_no():
    s = (Table(4).bank(1, "money_2").bank(2, "money_2").hand(2, "just_say_no")
         .hand(0, "birthday").state())  # seat 3 has nothing on the table: nothing to answer (D-14)
    assert s.options.open_answers and RULESETS["standard"].open_answers and RULESETS["tournament"].open_answers
    events = DEAL.apply(s, 0, PlayBirthday(card=card_of(s, 0, "birthday")))
    assert sorted(d.target for d in s.pending) == [1, 2]
    assert all(d.stage == "respond" for d in s.pending)
    decisions = waiting_for(s)
    assert sorted(w.seat for w in decisions) == [1, 2]
    assert {(w.kind, w.policy) for w in decisions} == {("respond", "response")}
    assert [type(e).__name__ for e in events].count("Paid") == 1  # seat 3 paid nothing at once
    for d in list(s.pending):
        offered = DEAL.legal_actions(s, d.target)
        if d.target == 1:  # no Just Say No: accepting is the only answer, and the AI gives it
            assert offered == [Accept(demand=d.id)]
            assert choose(s, 1) == Accept(demand=d.id)
        else:
            assert JustSayNo(demand=d.id, card=card_of(s, 2, "just_say_no")) in offered
            assert Accept(demand=d.id) in offered
    for seat in (1, 2):
        d = next(d for d in s.pending if d.target == seat)
        DEAL.apply(s, seat, Accept(demand=d.id))
    assert s.pending == [] and sum(VALUE[c] for c in s.players[0].bank) == 4
    # the same holds for a steal: the target is asked, with or without a card
    s = Table(2).group(1, "red", "property_kentucky").hand(0, "sly_deal").state()
    DEAL.apply(s, 0, PlaySlyDeal(card=card_of(s, 0, "sly_deal"), target=1,
                                 take=card_of(s, 1, "property_kentucky", where="area")))
    assert [(d.target, d.stage) for d in s.pending] == [(1, "respond")]


def test_D13_option_open_answers_off_asks_only_who_holds_a_just_say_no():
    """``open_answers=False`` (the games stored before the option): the old windows."""
    s = (Table(3, {"ruleset": "standard", "open_answers": False}).bank(1, "money_2").bank(2, "money_2")
         .hand(1, "just_say_no").hand(0, "birthday", "debt_collector", "just_say_no").state())
    assert not s.options.open_answers
    DEAL.apply(s, 0, PlayBirthday(card=card_of(s, 0, "birthday")))
    # seat 2 holds no Just Say No: paid at once; seat 1 has a window of its own
    assert [d.target for d in s.pending] == [1]
    assert s.players[2].bank == []
    d = s.pending[0]
    DEAL.apply(s, 1, JustSayNo(demand=d.id, card=card_of(s, 1, "just_say_no")))
    assert d.stage == "counter"  # the attacker holds one: asked
    DEAL.apply(s, 0, JustSayNo(demand=d.id, card=card_of(s, 0, "just_say_no")))
    # seat 1 has no more: the action goes straight through
    assert s.pending == [] and s.players[1].bank == []
    assert sum(VALUE[c] for c in s.players[0].bank) == 4


def _redeal(s, r, keep: int | None = None) -> None:
    """Shuffle the hidden cards (every hand but ``keep``'s, and the draw pile) among their places."""
    hands = [p for p in s.players if p.seat != keep]
    hidden = [c for p in hands for c in p.hand] + s.draw_pile
    r.shuffle(hidden)
    for p in hands:
        p.hand, hidden = hidden[:len(p.hand)], hidden[len(p.hand):]
    s.draw_pile = hidden


def _public(s, events=()) -> tuple:
    return (view(s, None), [(w.seat, w.kind, w.policy) for w in waiting_for(s)],
            [event_for(e, None) for e in events])


def _leaks(options, seeds: range) -> tuple[int, int]:
    """(attacks checked, attacks whose public outcome changed when the hidden cards were redealt)
    over AI games: each attack is applied again after redeals of the other players' hands."""
    import random

    r = random.Random(13)
    checked = changed = 0
    for seed in seeds:
        s = new_game(4, options, seed)
        for _ in range(400):
            waiting = waiting_for(s)
            if not waiting:
                break
            seat = waiting[0].seat
            action = choose(s, seat)
            if not s.pending and type(action).__name__.startswith("Play"):
                saved = DEAL.encode_state(s)
                events = DEAL.apply(s, seat, action)
                if s.pending:
                    before = _public(s, events)
                    for _ in range(4):
                        twin = DEAL.decode_state(saved)
                        _redeal(twin, r, keep=seat)
                        changed += _public(twin, DEAL.apply(twin, seat, action)) != before
                        checked += 1
                    # and while the windows are open, redealing changes nothing public either
                    twin = DEAL.decode_state(DEAL.encode_state(s))
                    _redeal(twin, r)
                    changed += _public(twin) != _public(s)
                continue
            DEAL.apply(s, seat, action)
    return checked, changed


def test_D13_the_public_view_and_waiting_for_are_the_same_whoever_holds_the_card():
    """Redeal the hidden cards (the other hands and the draw pile) before an attack and while its
    windows are open: the public view, the public events and who is waiting, for what and on which
    clock, do not change. Every target answers, and one without a Just Say No can accept."""
    checked, changed = _leaks("standard", range(30))
    assert checked > 100 and changed == 0
    s = (Table(3).bank(1, "money_2").bank(2, "money_2").hand(2, "just_say_no").hand(0, "birthday").state())
    DEAL.apply(s, 0, PlayBirthday(card=card_of(s, 0, "birthday")))
    for w in waiting_for(s):
        assert w.timeout in DEAL.legal_actions(s, w.seat)


def test_D13_without_open_answers_a_window_tells_who_holds_the_card():
    """The reason for ``open_answers``: with the old windows the same redeal shows publicly."""
    checked, changed = _leaks({"open_answers": False}, range(30))
    assert checked > 100 and changed > 0


def test_D13_just_say_no_is_not_a_play():
    s = (Table(2).bank(1, "money_5").hand(1, "just_say_no").hand(0, "debt_collector", "just_say_no",
                                                                    "money_1").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    DEAL.apply(s, 1, JustSayNo(demand=d.id, card=card_of(s, 1, "just_say_no")))
    DEAL.apply(s, 0, Accept(demand=d.id))  # the attacker lets the No stand
    assert s.plays_left == 2


def test_D13_only_the_target_may_answer():
    s = Table(3).bank(1, "money_5").hand(1, "just_say_no").hand(2, "just_say_no").hand(0, "debt_collector").state()
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    rejects(s, 2, JustSayNo(demand=d.id, card=card_of(s, 2, "just_say_no")), "D-13")
    rejects(s, 0, Accept(demand=d.id), "D-13")


def test_D13_never_played_on_its_own_but_may_be_banked():
    s = Table(2).hand(0, "just_say_no").state()
    jsn = card_of(s, 0, "just_say_no")
    assert not any(isinstance(a, JustSayNo) for a in DEAL.legal_actions(s, 0))
    rejects(s, 0, JustSayNo(demand=1, card=jsn), "D-13")
    DEAL.apply(s, 0, BankCard(card=jsn))
    assert sum(VALUE[c] for c in s.players[0].bank) == 4


def test_D13_no_window_for_laying_a_property():
    s = Table(2).hand(1, "just_say_no").hand(0, "property_boardwalk").state()
    DEAL.apply(s, 0, LayProperty(card=card_of(s, 0, "property_boardwalk"), colour="dark_blue"))
    assert s.pending == []


def test_D13_attacker_waits_for_the_answer():
    s = Table(2).bank(1, "money_5").hand(1, "just_say_no").hand(0, "debt_collector", "money_1").state()
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    rejects(s, 0, BankCard(card=card_of(s, 0, "money_1")), "D-13")
    assert [w.seat for w in waiting_for(s)] == [1]
    assert waiting_for(s)[0].policy == "response"


# -- D-14 paying ----------------------------------------------------------------------------------


def _pay_table(ruleset: str = "standard") -> Table:
    return (Table(2, ruleset).bank(1, "money_1", "money_3", "money_4")
            .group(1, "red", "property_kentucky", "property_indiana"))


def test_D14_payer_chooses_cards_and_gets_no_change():
    s = _pay_table().hand(0, "debt_collector").state()
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    assert d.stage == "pay" and waiting_for(s)[0].seat == 1
    assert not legal(s, 1, ConfirmPayment(demand=d.id))
    for key in ("money_1", "money_3"):
        DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card_of(s, 1, key, where="bank")))
    rejects(s, 1, ConfirmPayment(demand=d.id), "D-14")  # 4M < 5M
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card_of(s, 1, "money_4", where="bank")))
    DEAL.apply(s, 1, ConfirmPayment(demand=d.id))
    # 1 + 3 + 4 = 8M for a 5M debt: no change
    assert sum(VALUE[c] for c in s.players[0].bank) == 8 and s.players[1].bank == []


def test_D14_hand_never_pays():
    s = Table(2).hand(1, "money_10").bank(1, "money_1").hand(0, "debt_collector").state()
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    assert len(s.players[1].hand) == 1 and s.players[1].bank == []
    assert sum(VALUE[c] for c in s.players[0].bank) == 1


def test_D14_nothing_on_the_table_pays_nothing():
    s = Table(2).hand(0, "debt_collector").state()
    events = DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    paid = [e for e in events if type(e).__name__ == "Paid"]
    assert paid and paid[0].cards == [] and s.pending == []


def test_D14_auto_pay_loses_the_least():
    s = (Table(2).bank(1, "money_1", "money_2", "money_5", "money_10")
         .group(1, "red", "property_kentucky").hand(0, "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    assert legal(s, 1, AutoPay(demand=d.id))
    DEAL.apply(s, 1, AutoPay(demand=d.id))
    assert sorted(KEY[c] for c in s.players[0].bank) == ["money_5"]
    assert s.players[1].groups  # the property was kept


def test_D14_tournament_received_house_goes_on_a_complete_set_or_the_bank():
    s = (Table(2, "tournament")
         .group(1, "red", "property_kentucky", "property_indiana", "property_illinois", house=True)
         .group(0, "brown", "property_mediterranean", "property_baltic")
         .hand(0, "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    house = s.players[1].groups[0].house
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=house))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card_of(s, 1, "property_kentucky", where="area")))
    DEAL.apply(s, 1, ConfirmPayment(demand=d.id))
    assert d.stage == "place" and waiting_for(s)[0].seat == 0
    assert legal(s, 0, PlaceBuilding(demand=d.id, card=house, group=None))
    DEAL.apply(s, 0, PlaceBuilding(demand=d.id, card=house, group=0))
    assert s.players[0].groups[0].house == house and s.pending == []


def test_D14_received_house_with_nowhere_to_go_is_banked():
    s = (Table(2).group(1, "red", "property_kentucky", "property_indiana", "property_illinois", house=True)
         .hand(0, "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    house = s.players[1].groups[0].house
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=house))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card_of(s, 1, "property_kentucky", where="area")))
    DEAL.apply(s, 1, ConfirmPayment(demand=d.id))
    assert house in s.players[0].bank and s.pending == []


def test_D14_tournament_pays_bank_then_hotels_houses_properties():
    s = (Table(2, "tournament").bank(1, "money_1")
         .group(1, "green", "property_pacific", "property_north_carolina", "property_pennsylvania_ave",
                house=True, hotel=True)
         .hand(0, "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    g = s.players[1].groups[0]
    # skipping the bank or the Hotel is refused
    for card in (card_of(s, 1, "property_pacific", where="area"), g.hotel):
        DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card))
    rejects(s, 1, ConfirmPayment(demand=d.id), "D-14")
    DEAL.apply(s, 1, AutoPay(demand=d.id))
    paid = sorted(KEY[c] for c in s.players[0].bank)
    assert paid == ["hotel", "money_1"]  # 1 + 4 = 5M, properties untouched


def test_D14_a_house_leaves_only_after_its_hotel():
    s = (Table(2).group(1, "green", "property_pacific", "property_north_carolina", "property_pennsylvania_ave",
                        house=True, hotel=True).hand(0, "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    d = s.pending[0]
    g = s.players[1].groups[0]
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=g.house))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card_of(s, 1, "property_pacific", where="area")))
    err = rejects(s, 1, ConfirmPayment(demand=d.id), "D-12")
    # no "confirm" for this choice, and the payer's view says why (issue 45: no dead end)
    assert ConfirmPayment(demand=d.id) not in DEAL.legal_actions(s, 1)
    assert DEAL.view(s, 1)["pending"][0]["problem"]["key"] == err.key


def test_D14_timeout_pays_automatically():
    s = _pay_table().hand(0, "debt_collector").state()
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    action = timeout_action(s, 1)
    assert isinstance(action, Accept)  # D-13: the window first, then the payment
    DEAL.apply(s, 1, action)
    action = timeout_action(s, 1)
    assert isinstance(action, AutoPay)
    DEAL.apply(s, 1, action)
    assert s.pending == []


# -- D-15 winning ---------------------------------------------------------------------------------


def _two_sets(t: Table, seat: int) -> Table:
    return (t.group(seat, "brown", "property_mediterranean", "property_baltic")
            .group(seat, "dark_blue", "property_park_place", "property_boardwalk"))


def test_D15_third_set_wins_at_once():
    s = _two_sets(Table(2), 0).group(0, "utility", "property_electric").hand(0, "property_water_works").state()
    events = DEAL.apply(s, 0, LayProperty(card=card_of(s, 0, "property_water_works"), colour="utility", group=2))
    assert s.phase == "over" and s.winners == [0] and s.end_reason == "sets"
    assert type(events[-1]).__name__ == "GameOver"
    assert DEAL.legal_actions(s, 0) == [] and waiting_for(s) == []
    rejects(s, 0, EndTurn(), "D-15")


def test_D15_win_on_someone_elses_turn():
    # seat 1, on turn, swaps Water Works for seat 0's Kentucky: that completes seat 0's third set
    s = (_two_sets(Table(2), 0).group(0, "utility", "property_electric").group(0, "red", "property_kentucky")
         .group(1, "utility", "property_water_works").hand(1, "forced_deal").turn(1).state())
    DEAL.apply(s, 1, PlayForcedDeal(card=card_of(s, 1, "forced_deal"),
                                    give=card_of(s, 1, "property_water_works", where="area"), target=0,
                                    take=card_of(s, 0, "property_kentucky", where="area")))
    accept_windows(s)
    assert s.phase == "over" and s.winners == [0]


def test_D15_two_sets_of_one_colour_do_not_win():
    s = (Table(2, "tournament").group(0, "red", "property_kentucky", "property_indiana", "property_illinois")
         .group(0, "red", "wild_red_yellow", "wild_red_yellow", "wild_any")
         .group(0, "dark_blue", "property_park_place", "property_boardwalk")
         .hand(0, "money_1").state())
    assert all(area.is_complete(g, s.options) for g in s.players[0].groups)
    DEAL.apply(s, 0, BankCard(card=card_of(s, 0, "money_1")))
    assert s.phase != "over"


def test_D15_one_action_completing_two_players_third_set_the_player_on_turn_wins():
    s = (Table(2).group(0, "brown", "property_mediterranean", "property_baltic")
         .group(0, "dark_blue", "property_park_place", "property_boardwalk")
         .group(0, "utility", "property_electric").group(0, "red", "property_kentucky")
         .group(1, "green", "property_pacific", "property_north_carolina", "property_pennsylvania_ave")
         .group(1, "orange", "property_st_james", "property_tennessee", "property_new_york")
         .group(1, "red", "property_indiana", "property_illinois")
         .group(1, "utility", "property_water_works")
         .hand(0, "forced_deal").state())
    DEAL.apply(s, 0, PlayForcedDeal(card=card_of(s, 0, "forced_deal"),
                                    give=card_of(s, 0, "property_kentucky", where="area"), target=1,
                                    take=card_of(s, 1, "property_water_works", where="area")))
    accept_windows(s)
    assert area.complete_set_count(s.players[1], s.options) == 3
    assert area.complete_set_count(s.players[0], s.options) == 3
    assert s.winners == [0]


# -- D-16 tournament clock ------------------------------------------------------------------------


def test_D16_time_out_highest_table_value_wins_hand_not_counted():
    s = (Table(3, "tournament").bank(0, "money_5").bank(1, "money_3").group(1, "red", "property_kentucky")
         .hand(2, "money_10").state())
    events = DEAL.apply(s, SYSTEM, EndMatch())
    assert s.phase == "over" and s.winners == [1] and s.end_reason == "time"
    over = events[-1]
    assert over.scores == {0: 5, 1: 6, 2: 0}
    assert DEAL.result(s).scores == {0: 5, 1: 6, 2: 0}


def test_D16_tie_goes_to_more_complete_sets():
    s = (Table(2, "tournament").bank(0, "money_2")
         .group(1, "brown", "property_mediterranean", "property_baltic").state())
    DEAL.apply(s, SYSTEM, EndMatch())
    assert s.winners == [1]


def test_D16_equal_value_and_sets_share_the_win():
    s = Table(2, "tournament").bank(0, "money_2").bank(1, "money_2").state()
    DEAL.apply(s, SYSTEM, EndMatch())
    assert s.winners == [0, 1]


def _owing_five(settle: bool, holds_no: bool = False):
    """Seat 0 (1M banked) has just played a Debt Collector on seat 1 (6M banked, with a Just Say No
    in hand when ``holds_no``): the match clock runs out before seat 1 answers."""
    table = (Table(2, {"ruleset": "tournament", "settle_at_time_up": settle}).bank(0, "money_1")
             .bank(1, "money_5", "money_1").hand(0, "debt_collector"))
    if holds_no:
        table.hand(1, "just_say_no")
    s = table.state()
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    assert s.pending and waiting_for(s)[0].seat == 1
    return s


@pytest.mark.parametrize("holds_no", [False, True])
def test_D16_at_time_out_a_debt_in_progress_is_paid_before_the_tables_are_valued(holds_no):
    """Issue 47: an open Just Say No window closes letting the action through and the debt is paid
    as its clock would pay it; the debtor can no longer run the clock down and keep the money
    (seat 1 won 6-1 before; now seat 0 wins 6-1)."""
    s = _owing_five(settle=True, holds_no=holds_no)
    events = DEAL.apply(s, SYSTEM, EndMatch())
    assert s.phase == "over" and s.end_reason == "time" and not s.pending
    assert events[-1].scores == {0: 6, 1: 1} and s.winners == [0]


def test_D16_tables_of_the_first_format_end_as_they_always_did():
    """Without ``settle_at_time_up`` (tables made before it, format 1: every process of such a
    table applies the same rule) the open demand is dropped at time-out."""
    s = _owing_five(settle=False)
    DEAL.apply(s, SYSTEM, EndMatch())
    assert s.winners == [1] and DEAL.result(s).scores == {0: 1, 1: 6}


def test_D16_a_payment_at_time_out_that_completes_a_third_set_wins_by_sets():
    s = (Table(2, {"ruleset": "tournament", "settle_at_time_up": True})
         .group(0, "brown", "property_mediterranean", "property_baltic")
         .group(0, "utility", "property_water_works", "property_electric")
         .group(0, "dark_blue", "property_park_place")
         .group(1, "dark_blue", "property_boardwalk").hand(0, "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    DEAL.apply(s, SYSTEM, EndMatch())  # the debtor pays with the Boardwalk: seat 0's third set
    assert s.winners == [0] and s.end_reason == "sets"


def test_D16_only_the_clock_ends_a_match():
    s = Table(2, "tournament").state()
    rejects(s, 0, EndMatch(), "D-16")


def test_D16_each_card_play_has_its_clock_and_running_out_ends_the_turn():
    s = Table(2, "tournament").hand(0, "money_1").state()
    decision = waiting_for(s)[0]
    assert decision.policy == "card" and s.options.card_seconds == 10 and s.options.match_minutes == 45
    DEAL.apply(s, 0, timeout_action(s, 0))
    assert current_seat(s) == 1
    assert waiting_for(Table(2).state())[0].policy == "turn"


# -- D-17 group capacity, buildings on broken sets ------------------------------------------------


def test_D17_a_full_group_takes_no_more_cards():
    s = (Table(2).group(0, "brown", "property_mediterranean", "property_baltic")
         .hand(0, "wild_light_blue_brown").state())
    wild = card_of(s, 0, "wild_light_blue_brown")
    rejects(s, 0, LayProperty(card=wild, colour="brown", group=0), "D-17")
    DEAL.apply(s, 0, LayProperty(card=wild, colour="brown", group=None))
    assert len(s.players[0].groups) == 2


def test_D17_house_stays_on_a_broken_set_without_bonus_and_can_pay():
    # paying with a property while the bank could cover the debt: games without D-14's order
    s = (Table(2, {"ruleset": "standard", "ordered_payment": False})
         .group(1, "brown", "property_mediterranean", "property_baltic", house=True)
         .bank(1, "money_10", "money_5").hand(0, "debt_collector", "debt_collector").state())
    DEAL.apply(s, 0, PlayDebtCollector(card=s.players[0].hand[0], target=1))
    accept_windows(s)
    d = s.pending[0]
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card_of(s, 1, "property_baltic", where="area")))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=s.players[1].groups[0].house))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=s.players[1].groups[0].house))  # untoggled again
    assert d.selected == [card_of(s, 1, "property_baltic", where="area")]
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card_of(s, 1, "money_10", where="bank")))
    DEAL.apply(s, 1, ConfirmPayment(demand=d.id))
    g = s.players[1].groups[0]
    assert g.house is not None and len(g.cards) == 1
    assert area.group_rent(g, s.options) == 1  # no House bonus while incomplete
    DEAL.apply(s, 0, PlayDebtCollector(card=s.players[0].hand[0], target=1))
    accept_windows(s)
    d = s.pending[0]
    assert legal(s, 1, TogglePayment(demand=d.id, card=g.house))


# -- D-18 the discard pile ------------------------------------------------------------------------


def test_D18_tournament_only_the_player_on_turn_sees_the_discard_pile():
    s = Table(3, "tournament").discard("pass_go", "birthday").state()
    assert view(s, 0)["discard"] is not None
    assert view(s, 1)["discard"] is None and view(None if False else s, None)["discard"] is None
    assert view(s, 1)["discard_top"] == s.discard_pile[-1] and view(s, 1)["discard_count"] == 2


def test_D18_standard_discard_pile_is_public():
    s = Table(3).discard("pass_go", "birthday").state()
    assert view(s, None)["discard"] == s.discard_pile
