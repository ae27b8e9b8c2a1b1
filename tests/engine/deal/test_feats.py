"""大富翁纸牌's achievements (issue 48, engine/deal/feats.py): each earned in a built position, and
not earned in one a step short of it; and the replay that finds them (engine/play/history.py)."""

from __future__ import annotations

from engine.core.values import SYSTEM
from engine.deal import DEAL
from engine.deal.cards import KEY
from engine.deal.feats import DEAL_FEATS, KEYS
from engine.deal.model import (
    BankCard,
    Discard,
    EndMatch,
    EndTurn,
    JustSayNo,
    LayProperty,
    PlayBirthday,
    PlayBuilding,
    PlayDealBreaker,
    PlayDebtCollector,
    PlayForcedDeal,
    PlayRent,
    PlaySlyDeal,
)
from engine.deal.rules import current_seat
from engine.games import GAMES
from engine.play.history import game_story
from engine.play.simulation import game_seeds, play_one
from tests.builders import Table, card_of

BROWN = ("brown", "property_mediterranean", "property_baltic")
DARK_BLUE = ("dark_blue", "property_park_place", "property_boardwalk")
UTILITY = ("utility", "property_electric", "property_water_works")
RED = ("red", "property_kentucky", "property_indiana", "property_illinois")
GREEN = ("green", "property_pacific", "property_north_carolina", "property_pennsylvania_ave")


class Watched:
    """A built table with the feat watcher looking on, as ``game_story`` feeds it."""

    def __init__(self, table: Table) -> None:
        self.s = table.state()
        self.watcher = DEAL_FEATS.watcher(self.s, len(self.s.players))

    def act(self, seat: int, action) -> list:
        events = DEAL.apply(self.s, seat, action)
        self.watcher.see(self.s, seat, action, events)
        return events

    def card(self, seat: int, key: str, where: str = "hand") -> int:
        return card_of(self.s, seat, key, where)

    def lay(self, seat: int, key: str, colour: str) -> list:
        """Lay a card from the hand on the seat's group of ``colour`` (or a new group)."""
        card = self.card(seat, key)
        group = next((i for i, g in enumerate(self.s.players[seat].groups) if g.colour == colour), None)
        return self.act(seat, LayProperty(card=card, colour=colour, group=group))

    def settle(self) -> None:
        """Every open demand answered as its clock would: accept, pay automatically."""
        while self.s.pending and self.s.phase != "over":
            decision = DEAL.waiting_for(self.s)[0]
            self.act(decision.seat, decision.timeout)

    def end_turn(self) -> None:
        seat = current_seat(self.s)
        self.act(seat, EndTurn())
        while self.s.phase == "discard":
            self.act(seat, Discard(card=self.s.players[seat].hand[0]))

    def feats(self, seat: int) -> set[str]:
        return self.watcher.earned(self.s, DEAL.result(self.s)).get(seat, set())

    def won(self, seat: int) -> bool:
        return DEAL.result(self.s).winners == [seat]


def test_the_catalogue_is_declared_on_the_game():
    assert GAMES["deal"].feats is DEAL_FEATS and DEAL_FEATS.keys == KEYS
    assert all(key.startswith("deal.") for key in KEYS) and 15 <= len(KEYS) <= 25


def _two_sets_and(seat: int, table: Table) -> Table:
    return table.group(seat, *BROWN).group(seat, *DARK_BLUE)


# -- winning (D-15, D-16) -------------------------------------------------------------------------


def _win_on_own_turn(passes: int) -> Watched:
    """Seat 0 holds two sets and the card for a third; it ends ``passes`` turns, then lays it."""
    w = Watched(_two_sets_and(0, Table(2)).group(0, "utility", "property_electric").hand(0, "property_water_works"))
    for _ in range(2 * passes):
        w.end_turn()
    w.lay(0, "property_water_works", "utility")
    assert w.won(0)
    return w


def test_D15_speed_run_a_win_on_the_fourth_own_turn():
    assert "deal.speed_run" in _win_on_own_turn(3).feats(0)


def test_D15_no_speed_run_on_the_fifth():
    assert "deal.speed_run" not in _win_on_own_turn(4).feats(0)


def _third_set_from(card: str) -> Watched:
    w = Watched(_two_sets_and(0, Table(2)).group(0, "utility", "property_electric").hand(0, card))
    w.lay(0, card, "utility")
    assert w.won(0)
    return w


def test_D15_purist_wins_without_laying_a_wild():
    assert "deal.purist" in _third_set_from("property_water_works").feats(0)


def test_D07_no_purist_after_laying_a_wild():
    assert "deal.purist" not in _third_set_from("wild_railroad_utility").feats(0)


def _breaker_on_a_set(lay_after: bool) -> Watched:
    table = (Table(2).group(0, *BROWN).group(0, "utility", "property_electric").group(1, *DARK_BLUE)
             .hand(0, "deal_breaker", "property_water_works"))
    if not lay_after:
        table = table.group(0, *RED)
    w = Watched(table)
    w.act(0, PlayDealBreaker(card=w.card(0, "deal_breaker"), target=1, group=0))
    w.settle()
    if lay_after:
        w.lay(0, "property_water_works", "utility")
    assert w.won(0)
    return w


def test_D11_knockout_the_set_taken_wins():
    w = _breaker_on_a_set(lay_after=False)
    assert {"deal.knockout", "deal.deal_breaker"} <= w.feats(0)


def test_D11_no_knockout_when_a_later_card_wins():
    w = _breaker_on_a_set(lay_after=True)
    assert "deal.knockout" not in w.feats(0) and "deal.deal_breaker" in w.feats(0)


def _lose_a_set_then_win(breaker: bool) -> Watched:
    table = (Table(2).group(0, *BROWN).group(0, *DARK_BLUE).group(0, "utility", "property_electric")
             .group(0, "red", "property_kentucky", "property_indiana")
             .hand(0, "property_water_works", "property_illinois").hand(1, "deal_breaker").turn(1))
    w = Watched(table)
    if breaker:
        w.act(1, PlayDealBreaker(card=w.card(1, "deal_breaker"), target=0, group=0))
        w.settle()
    w.end_turn()
    w.lay(0, "property_water_works", "utility")
    if breaker:
        w.lay(0, "property_illinois", "red")
    assert w.won(0)
    return w


def test_D11_phoenix_wins_after_losing_a_set_to_a_deal_breaker():
    assert "deal.phoenix" in _lose_a_set_then_win(breaker=True).feats(0)


def test_D11_no_phoenix_without_the_loss():
    assert "deal.phoenix" not in _lose_a_set_then_win(breaker=False).feats(0)


def test_D15_surprise_a_win_on_another_player_s_turn():
    table = (_two_sets_and(1, Table(2)).group(1, "red", "property_kentucky", "property_indiana")
             .group(1, "railroad", "property_reading").group(0, "red", "property_illinois").hand(0, "forced_deal"))
    w = Watched(table)
    w.act(0, PlayForcedDeal(card=w.card(0, "forced_deal"), give=w.card(0, "property_illinois", "area"), target=1,
                            take=w.card(1, "property_reading", "area")))
    w.settle()
    assert w.won(1) and current_seat(w.s) == 0 and "deal.surprise" in w.feats(1)


def test_D15_no_surprise_on_one_s_own_turn():
    w = _third_set_from("property_water_works")
    assert "deal.surprise" not in w.feats(0)


def _win_after_paying(pay: bool) -> Watched:
    table = (_two_sets_and(0, Table(2)).group(0, "utility", "property_electric").bank(0, "money_2")
             .hand(0, "property_water_works").hand(1, "birthday" if pay else "pass_go").turn(1))
    w = Watched(table)
    if pay:
        w.act(1, PlayBirthday(card=w.card(1, "birthday")))
        w.settle()
    w.end_turn()
    w.lay(0, "property_water_works", "utility")
    assert w.won(0)
    return w


def test_D14_untouchable_wins_without_paying_anyone():
    assert "deal.untouchable" in _win_after_paying(pay=False).feats(0)


def test_D14_not_untouchable_after_paying_a_birthday():
    assert "deal.untouchable" not in _win_after_paying(pay=True).feats(0)


def test_D16_timed_win_when_the_clock_ends_the_match():
    w = Watched(Table(2).bank(1, "money_5"))
    w.act(SYSTEM, EndMatch())
    assert w.won(1) and "deal.timed_win" in w.feats(1)


def test_D16_no_timed_win_for_a_win_by_sets():
    w = _third_set_from("property_water_works")
    assert "deal.timed_win" not in w.feats(0)


def test_winning_feats_only_once_the_game_is_over():
    w = Watched(Table(2).bank(1, "money_5"))
    w.end_turn()
    assert not {"deal.purist", "deal.untouchable", "deal.timed_win", "deal.speed_run"} & w.feats(1)


# -- skill ----------------------------------------------------------------------------------------


def test_D15_hat_trick_three_sets_in_one_turn():
    table = (Table(2).group(0, "brown", "property_mediterranean").group(0, "dark_blue", "property_park_place")
             .group(0, "utility", "property_electric")
             .hand(0, "property_baltic", "property_boardwalk", "property_water_works"))
    w = Watched(table)
    w.lay(0, "property_baltic", "brown")
    w.lay(0, "property_boardwalk", "dark_blue")
    w.lay(0, "property_water_works", "utility")
    assert w.won(0) and "deal.hat_trick" in w.feats(0)


def test_D15_no_hat_trick_when_a_set_was_complete_before_the_turn():
    table = (Table(2).group(0, *BROWN).group(0, "dark_blue", "property_park_place")
             .group(0, "utility", "property_electric").hand(0, "property_boardwalk", "property_water_works"))
    w = Watched(table)
    w.lay(0, "property_boardwalk", "dark_blue")
    w.lay(0, "property_water_works", "utility")
    assert w.won(0) and "deal.hat_trick" not in w.feats(0)


def _breaker_answered(nos: int) -> Watched:
    """Seat 0 plays a Deal Breaker on seat 1's set; ``nos`` Just Say Nos follow, seat 1 first."""
    w = Watched(Table(2).group(1, *BROWN).hand(0, "deal_breaker", "just_say_no").hand(1, "just_say_no"))
    w.act(0, PlayDealBreaker(card=w.card(0, "deal_breaker"), target=1, group=0))
    demand = w.s.pending[0].id
    for i in range(nos):
        seat = 1 - i % 2
        w.act(seat, JustSayNo(demand=demand, card=w.card(seat, "just_say_no")))
    w.settle()
    return w


def test_D11_deal_breaker_takes_a_complete_set():
    w = _breaker_answered(0)
    assert w.s.players[1].groups == [] and "deal.deal_breaker" in w.feats(0)


def test_D11_no_deal_breaker_when_it_is_said_no_to():
    w = _breaker_answered(1)
    assert len(w.s.players[1].groups) == 1 and "deal.deal_breaker" not in w.feats(0)


def test_D13_not_today_a_deal_breaker_stopped():
    assert "deal.not_today" in _breaker_answered(1).feats(1)


def test_D13_not_today_not_when_the_no_is_said_no_to():
    w = _breaker_answered(2)
    assert w.s.players[1].groups == [] and "deal.not_today" not in w.feats(1)


def test_D13_last_word_a_chain_of_two_nos_won():
    assert "deal.last_word" in _breaker_answered(2).feats(0)


def test_D13_no_last_word_for_a_single_no():
    w = _breaker_answered(1)
    assert "deal.last_word" not in w.feats(1) and "deal.last_word" not in w.feats(0)


def test_D13_no_last_word_while_the_chain_is_still_open():
    w = Watched(Table(2).bank(1, "money_5").hand(1, "just_say_no", "just_say_no")
                .hand(0, "debt_collector", "just_say_no"))
    w.act(0, PlayDebtCollector(card=w.card(0, "debt_collector"), target=1))
    demand = w.s.pending[0].id
    w.act(1, JustSayNo(demand=demand, card=w.card(1, "just_say_no")))
    w.act(0, JustSayNo(demand=demand, card=w.card(0, "just_say_no")))
    assert "deal.last_word" not in w.feats(0)  # seat 1 may still answer
    w.act(1, JustSayNo(demand=demand, card=w.card(1, "just_say_no")))
    w.settle()
    assert "deal.last_word" in w.feats(1) and "deal.last_word" not in w.feats(0)


def _forced_deal_for(take: str) -> Watched:
    table = (Table(2).group(0, "red", "property_kentucky", "property_indiana").group(0, "green", "property_pacific")
             .group(1, "red", "property_illinois").group(1, "railroad", "property_reading").hand(0, "forced_deal"))
    w = Watched(table)
    w.act(0, PlayForcedDeal(card=w.card(0, "forced_deal"), give=w.card(0, "property_pacific", "area"), target=1,
                            take=w.card(1, take, "area")))
    w.settle()
    return w


def test_D11_swap_shop_a_forced_deal_completes_a_set():
    assert "deal.swap_shop" in _forced_deal_for("property_illinois").feats(0)


def test_D11_no_swap_shop_when_the_card_taken_completes_nothing():
    assert "deal.swap_shop" not in _forced_deal_for("property_reading").feats(0)


def _sly_deals(count: int) -> Watched:
    table = (Table(2).group(1, "red", "property_kentucky").group(1, "green", "property_pacific")
             .group(1, "railroad", "property_reading"))
    for _ in range(count):
        table = table.hand(0, "sly_deal")
    w = Watched(table)
    for key in ("property_kentucky", "property_pacific", "property_reading")[:count]:
        w.act(0, PlaySlyDeal(card=w.card(0, "sly_deal"), target=1, take=w.card(1, key, "area")))
        w.settle()
    return w


def test_D11_pickpocket_three_sly_deals():
    assert "deal.pickpocket" in _sly_deals(3).feats(0)


def test_D11_no_pickpocket_after_two():
    assert "deal.pickpocket" not in _sly_deals(2).feats(0)


def _rent_with_doubles(doubles: int) -> Watched:
    table = Table(2).group(0, "red", "property_kentucky").bank(1, "money_10").hand(0, "rent_red_yellow")
    for _ in range(doubles):
        table = table.hand(0, "double_rent")
    w = Watched(table)
    dbl = tuple(c for c in w.s.players[0].hand if KEY[c] == "double_rent")
    w.act(0, PlayRent(card=w.card(0, "rent_red_yellow"), group=0, doubles=dbl))
    return w


def test_D09_quad_rent_with_two_double_the_rent():
    assert "deal.quad_rent" in _rent_with_doubles(2).feats(0)


def test_D09_no_quad_rent_with_one():
    assert "deal.quad_rent" not in _rent_with_doubles(1).feats(0)


def _build(*keys: str) -> Watched:
    w = Watched(Table(2).group(0, *BROWN).hand(0, *keys))
    for key in keys:
        w.act(0, PlayBuilding(card=w.card(0, key), group=0))
    return w


def test_D12_grand_hotel_a_hotel_on_a_set():
    assert "deal.grand_hotel" in _build("house", "hotel").feats(0)


def test_D12_no_grand_hotel_for_a_house():
    assert "deal.grand_hotel" not in _build("house").feats(0)


NINE = (("brown", "property_mediterranean"), ("dark_blue", "property_park_place"),
        ("utility", "property_electric"), ("red", "property_kentucky"), ("green", "property_pacific"),
        ("railroad", "property_reading"), ("light_blue", "property_oriental"), ("pink", "property_st_charles"),
        ("orange", "property_st_james"))


def _colours(last: tuple[str, str]) -> Watched:
    table = Table(2)
    for colour, key in NINE:
        table = table.group(0, colour, key)
    w = Watched(table.hand(0, last[1]))
    w.lay(0, last[1], last[0])
    return w


def test_D05_rainbow_all_ten_colours_at_once():
    w = _colours(("yellow", "property_atlantic"))
    assert len({g.colour for g in w.s.players[0].groups}) == 10 and "deal.rainbow" in w.feats(0)


def test_D05_no_rainbow_with_nine():
    assert "deal.rainbow" not in _colours(("orange", "property_tennessee")).feats(0)


def _bank(*keys: str) -> Watched:
    w = Watched(Table(2).bank(0, *keys).hand(0, "money_3"))
    w.act(0, BankCard(card=w.card(0, "money_3")))
    return w


def test_D03_vault_40m_in_the_bank():
    assert "deal.vault" in _bank("money_10", "money_5", "money_5", "money_4", "money_4", "money_4", "money_3",
                                 "money_2").feats(0)


def test_D03_no_vault_at_39m():
    assert "deal.vault" not in _bank("money_10", "money_5", "money_5", "money_4", "money_4", "money_4", "money_3",
                                     "money_1").feats(0)


def _birthday(players: int, say_no: bool = False) -> Watched:
    table = Table(players).hand(0, "birthday")
    for seat in range(1, players):
        table = table.bank(seat, "money_2")
    if say_no:
        table = table.hand(1, "just_say_no")
    w = Watched(table)
    w.act(0, PlayBirthday(card=w.card(0, "birthday")))
    if say_no:
        demand = next(d.id for d in w.s.pending if d.target == 1)
        w.act(1, JustSayNo(demand=demand, card=w.card(1, "just_say_no")))
    w.settle()
    return w


def test_D10_party_everyone_pays_for_your_birthday():
    assert "deal.party" in _birthday(3).feats(0)


def test_D10_no_party_when_one_says_no():
    assert "deal.party" not in _birthday(3, say_no=True).feats(0)


def test_D10_no_party_with_only_one_other_player():
    assert "deal.party" not in _birthday(2).feats(0)


# -- playful --------------------------------------------------------------------------------------


def _collect_debt(*bank: str) -> Watched:
    w = Watched(Table(2).bank(1, *bank).hand(0, "debt_collector"))
    w.act(0, PlayDebtCollector(card=w.card(0, "debt_collector"), target=1))
    w.settle()
    return w


def test_D14_cleaned_out_a_payment_leaves_nothing_on_the_table():
    w = _collect_debt("money_3")
    assert w.s.players[1].bank == [] and "deal.cleaned_out" in w.feats(1)


def test_D14_not_cleaned_out_with_something_left():
    w = _collect_debt("money_5", "money_1")
    assert len(w.s.players[1].bank) == 1 and "deal.cleaned_out" not in w.feats(1)


def test_D14_ouch_the_largest_payment_of_the_game():
    w = Watched(Table(3).bank(1, "money_2").bank(2, "money_2", "money_5").hand(0, "birthday", "debt_collector"))
    w.act(0, PlayBirthday(card=w.card(0, "birthday")))
    w.settle()
    assert "deal.ouch" in w.feats(1) and "deal.ouch" not in w.feats(2)  # 2M each: the first keeps it
    w.act(0, PlayDebtCollector(card=w.card(0, "debt_collector"), target=2))
    w.settle()
    assert "deal.ouch" in w.feats(2) and "deal.ouch" not in w.feats(1)


def _end_turn_holding(cards: int) -> Watched:
    w = Watched(Table(2).hand(0, *["money_1"] * 6, *["pass_go"] * (cards - 6)))
    w.end_turn()
    assert current_seat(w.s) == 1
    return w


def test_D04_hoarder_cuts_the_hand_to_seven():
    assert "deal.hoarder" in _end_turn_holding(8).feats(0)


def test_D04_no_hoarder_with_seven():
    assert "deal.hoarder" not in _end_turn_holding(7).feats(0)


# -- the replay -----------------------------------------------------------------------------------


def test_game_story_finds_the_feats_of_many_games_the_same_way_twice():
    """Over 40 AI games: each replay awards exactly what the one before did, and something is
    earned in every game (at least the largest payment)."""
    for seed in game_seeds(5, 40):
        _, log = play_one(GAMES["deal"], 3, None, seed, None, check_every_action=False)
        first = game_story(DEAL, 3, None, seed, log).feats
        assert first == game_story(DEAL, 3, None, seed, log).feats
        assert any(first.values())
