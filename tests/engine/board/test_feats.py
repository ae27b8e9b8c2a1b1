"""地产大亨's achievements (issue 48, engine/board/feats.py): each earned in a built position, and
not earned in one a step short of it; and the replay that finds them (engine/play/history.py)."""

from __future__ import annotations

from engine.board import BOARD
from engine.board import model as m
from engine.board.data import board
from engine.board.feats import BOARD_FEATS, KEYS
from engine.core.values import SYSTEM
from engine.games import GAMES
from engine.play.history import game_story, net_worth_series
from engine.play.simulation import game_seeds, play_one
from tests.board_builders import Dice, act, build, own, place, set_cash, table

CHINA = board("china")
CHANCE = {c.key: i for i, c in enumerate(CHINA.chance)}
CHEST = {c.key: i for i, c in enumerate(CHINA.chest)}
BROWN, LIGHT_BLUE, PINK, ORANGE = (1, 3), (6, 8, 9), (11, 13, 14), (16, 18, 19)
RED, YELLOW, GREEN, DARK_BLUE = (21, 23, 24), (26, 27, 29), (31, 32, 34), (37, 39)


class Watched:
    """A built table with the feat watcher looking on, as ``game_story`` feeds it."""

    def __init__(self, s: m.BoardState) -> None:
        self.s = s
        self.watcher = BOARD_FEATS.watcher(s, len(s.players))

    def act(self, seat: int, action) -> list:
        events = act(self.s, seat, action)
        self.watcher.see(self.s, seat, action, events)
        return events

    def roll(self, seat: int, *dice: tuple[int, int]) -> list:
        Dice(self.s, *dice)
        return self.act(seat, m.Roll())

    def land(self, seat: int, square: int, dice: tuple[int, int] = (1, 2)) -> list:
        place(self.s, seat, (square - sum(dice)) % 40)
        return self.roll(seat, dice)

    def feats(self, seat: int) -> set[str]:
        return self.watcher.earned(self.s, BOARD.result(self.s)).get(seat, set())

    def end_match(self, reason: str = "time") -> None:
        self.act(SYSTEM, m.EndMatch(reason=reason))


def test_the_catalogue_is_declared_on_the_game():
    assert GAMES["board"].feats is BOARD_FEATS and BOARD_FEATS.keys == KEYS
    assert all(key.startswith("board.") for key in KEYS) and 15 <= len(KEYS) <= 25


# -- winning (B-16, B-17) -------------------------------------------------------------------------


def _hotels_on_green(w: Watched, owner: int) -> None:
    own(w.s, owner, *GREEN)
    for sq in GREEN:
        build(w.s, sq, 5)


def test_B16_last_standing_is_the_last_player_left():
    w = Watched(table(2))
    _hotels_on_green(w, 1)
    set_cash(w.s, 0, 0)
    w.land(0, 31)
    w.act(0, m.DeclareBankruptcy())
    assert "board.last_standing" in w.feats(1)


def test_B16_last_standing_not_while_two_are_left():
    w = Watched(table(3))
    _hotels_on_green(w, 1)
    set_cash(w.s, 0, 0)
    w.land(0, 31)
    w.act(0, m.DeclareBankruptcy())
    assert not BOARD.result(w.s).over
    assert "board.last_standing" not in w.feats(1)


def test_B17_timed_win_when_the_clock_ends_the_match():
    w = Watched(table(2))
    own(w.s, 1, 39)
    w.end_match("time")
    assert "board.timed_win" in w.feats(1) and "board.timed_win" not in w.feats(0)


def test_B17_timed_win_not_when_the_turn_cap_ends_it():
    w = Watched(table(2))
    own(w.s, 1, 39)
    w.end_match("turn_cap")
    assert BOARD.result(w.s).winners == [1] and "board.timed_win" not in w.feats(1)


def _behind_then_winning(cash: int) -> Watched:
    """Seat 0 starts turn 3 (after the first round of two) with ``cash``; later it wins on time."""
    w = Watched(table(2))
    w.s.turn_number = 2
    set_cash(w.s, 0, cash)
    w.roll(0, (4, 6))  # just visiting: the turn passes, turn 3 starts with seat 1
    set_cash(w.s, 0, 40000)
    w.end_match()
    assert BOARD.result(w.s).winners == [0]
    return w


def test_B17_comeback_after_being_worth_less_than_half_the_leader():
    assert "board.comeback" in _behind_then_winning(7000).feats(0)  # 7,000 < 15,000 / 2


def test_B17_no_comeback_when_never_that_far_behind():
    assert "board.comeback" not in _behind_then_winning(8000).feats(0)


def test_B09_law_abiding_wins_without_going_to_jail():
    w = Watched(table(2))
    own(w.s, 0, 39)
    w.roll(0, (4, 6))
    w.end_match()
    assert "board.law_abiding" in w.feats(0)


def test_B09_not_law_abiding_after_a_visit_to_jail():
    w = Watched(table(2))
    own(w.s, 0, 39)
    w.land(0, 30, (2, 3))  # 坐牢
    assert w.s.players[0].in_jail
    w.end_match()
    assert BOARD.result(w.s).winners == [0] and "board.law_abiding" not in w.feats(0)


def test_B14_clean_win_without_a_mortgage():
    w = Watched(table(2))
    own(w.s, 0, 39)
    w.end_match()
    assert "board.clean_win" in w.feats(0)


def test_B14_no_clean_win_after_a_mortgage():
    w = Watched(table(2))
    own(w.s, 0, 39)
    w.act(0, m.Mortgage(square=39))
    w.end_match()
    assert BOARD.result(w.s).winners == [0] and "board.clean_win" not in w.feats(0)


def test_winning_feats_only_once_the_game_is_over():
    w = Watched(table(2))
    own(w.s, 0, 39)
    assert not {"board.clean_win", "board.law_abiding", "board.timed_win"} & w.feats(0)


# -- building and owning (B-11, B-12, B-15) -------------------------------------------------------


def test_B11_hotel_row_a_hotel_on_every_street_of_a_group():
    w = Watched(table(2))
    own(w.s, 0, *BROWN)
    build(w.s, 1, 5)
    build(w.s, 3, 4)
    w.act(0, m.BuildHouse(square=3))
    assert "board.hotel_row" in w.feats(0)


def test_B11_no_hotel_row_while_a_street_of_the_group_has_houses():
    w = Watched(table(2))
    own(w.s, 0, *BROWN)
    build(w.s, 1, 4)
    build(w.s, 3, 4)
    w.act(0, m.BuildHouse(square=1))
    assert w.s.houses[1] == 5 and "board.hotel_row" not in w.feats(0)


def _hotels(hotels: tuple[int, ...], fours: tuple[int, ...], then: int) -> Watched:
    w = Watched(table(2))
    own(w.s, 0, *RED, *YELLOW, *GREEN)
    for sq in hotels:
        build(w.s, sq, 5)
    for sq in fours:
        build(w.s, sq, 4)
    w.act(0, m.BuildHouse(square=then))
    return w


def test_B12_hotel_chain_eight_hotels_at_once():
    w = _hotels((*RED, *YELLOW, 31), (32, 34), 32)
    assert w.s.houses.count(5) == 8 and "board.hotel_chain" in w.feats(0)


def test_B12_no_hotel_chain_with_seven():
    w = _hotels((*RED, *YELLOW), GREEN, 31)
    assert w.s.houses.count(5) == 7 and "board.hotel_chain" not in w.feats(0)


def _houses(yellow: tuple[int, int, int], then: int) -> Watched:
    w = Watched(table(2))
    own(w.s, 0, *RED, *YELLOW)
    for sq in RED:
        build(w.s, sq, 4)
    for sq, houses in zip(YELLOW, yellow, strict=True):
        build(w.s, sq, houses)
    w.act(0, m.BuildHouse(square=then))
    return w


def test_B12_housing_boom_sixteen_houses_at_once():
    w = _houses((1, 1, 1), 26)
    assert sum(w.s.houses) == 16 and "board.housing_boom" in w.feats(0)


def test_B12_no_housing_boom_with_fifteen():
    w = _houses((1, 1, 0), 29)
    assert sum(w.s.houses) == 15 and "board.housing_boom" not in w.feats(0)


def _trade_for(gets: tuple[int, ...]) -> Watched:
    """Seat 0 holds all but one street of brown, light blue, pink and orange; seat 1 the rest."""
    w = Watched(table(2))
    own(w.s, 0, 1, 6, 8, 11, 13, 16, 18)
    own(w.s, 1, 3, 9, 14, 19, 5)
    w.act(0, m.ProposeTrade(target=1, get=gets, give_cash=500))
    w.act(1, m.AcceptTrade(trade=w.s.trades[0].id))
    return w


def test_B15_monopolist_four_groups_completed_by_trading():
    w = _trade_for((3, 9, 14, 19))
    assert {"board.monopolist", "board.trade_set"} <= w.feats(0)


def test_B15_no_monopolist_with_three():
    w = _trade_for((3, 9, 14))
    assert "board.monopolist" not in w.feats(0) and "board.trade_set" in w.feats(0)


def test_B15_trade_set_a_trade_completes_a_group():
    assert "board.trade_set" in _trade_for((3,)).feats(0)


def test_B15_no_trade_set_when_the_trade_completes_nothing():
    w = _trade_for((5,))  # a station: no street group completed
    assert "board.trade_set" not in w.feats(0) and "board.trade_set" not in w.feats(1)


def test_B04_station_master_buys_the_fourth_station():
    w = Watched(table(2))
    own(w.s, 0, 5, 15, 25)
    w.land(0, 35)
    w.act(0, m.Buy())
    assert "board.station_master" in w.feats(0)


def test_B04_no_station_master_with_three():
    w = Watched(table(2))
    own(w.s, 0, 5, 15)
    own(w.s, 1, 25)
    w.land(0, 35)
    w.act(0, m.Buy())
    assert "board.station_master" not in w.feats(0)


def test_B16_stations_and_groups_taken_over_from_a_bankrupt_do_not_count():
    w = Watched(table(3))
    own(w.s, 0, 5, 15, 25, 35, 1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19)
    _hotels_on_green(w, 1)
    set_cash(w.s, 0, 0)
    w.land(0, 31)
    w.act(0, m.DeclareBankruptcy())
    assert w.s.owner[35] == 1 and not {"board.station_master", "board.monopolist"} & w.feats(1)


def _auction_of_3(bid: int) -> Watched:
    w = Watched(table(3))
    w.roll(0, (1, 2))  # Liwan, 600
    w.act(0, m.DeclineToBuy())
    w.act(1, m.Bid(amount=bid))
    w.act(2, m.PassAuction())
    w.act(0, m.PassAuction())
    assert w.s.owner[3] == 1
    return w


def test_B04_bargain_an_auction_won_for_half_the_price():
    assert "board.bargain" in _auction_of_3(300).feats(1)


def test_B04_no_bargain_above_half_the_price():
    assert "board.bargain" not in _auction_of_3(310).feats(1)


def _short_of_houses() -> Watched:
    """Seat 0 builds on brown while the bank holds two houses that seats 1 and 2 could want too."""
    w = Watched(table(3))
    own(w.s, 0, *BROWN)
    own(w.s, 1, *LIGHT_BLUE)
    own(w.s, 2, *RED, *YELLOW, *GREEN)
    for sq in (*RED, *YELLOW):
        build(w.s, sq, 4)
    for sq in GREEN:
        build(w.s, sq, 2)
    w.act(0, m.BuildHouse(square=1))
    assert w.s.stage == "shortage"
    return w


def test_B12_bidding_war_a_building_won_at_a_shortage_auction():
    w = _short_of_houses()
    w.act(1, m.JoinShortage(street=6))
    w.act(2, m.DeclineShortage())
    w.act(1, m.Bid(amount=900))
    w.act(0, m.PassAuction())
    assert w.s.houses[6] == 1 and "board.bidding_war" in w.feats(1)


def test_B12_no_bidding_war_when_nobody_else_wants_one():
    w = _short_of_houses()
    w.act(1, m.DeclineShortage())
    w.act(2, m.DeclineShortage())
    assert w.s.houses[1] == 1 and "board.bidding_war" not in w.feats(0)


# -- money (B-06, B-16) ---------------------------------------------------------------------------


def _two_bankrupt(second_to_the_bank: bool) -> Watched:
    w = Watched(table(3))
    _hotels_on_green(w, 2)
    set_cash(w.s, 0, 0)
    w.land(0, 31)
    w.act(0, m.DeclareBankruptcy())
    set_cash(w.s, 1, 0)
    w.land(1, 38 if second_to_the_bank else 31)  # luxury tax, or Fangzhuang's hotel
    w.act(1, m.DeclareBankruptcy())
    return w


def test_B16_double_knockout_two_players_bankrupt_to_you():
    w = _two_bankrupt(second_to_the_bank=False)
    assert "board.double_knockout" in w.feats(2)


def test_B16_no_double_knockout_when_one_went_bankrupt_to_the_bank():
    w = _two_bankrupt(second_to_the_bank=True)
    assert BOARD.result(w.s).winners == [2] and "board.double_knockout" not in w.feats(2)


def _rent_on_39(houses: int) -> Watched:
    w = Watched(table(2))
    own(w.s, 1, *DARK_BLUE)
    build(w.s, 37, 3)
    build(w.s, 39, houses)
    w.land(0, 39)
    return w


def test_B06_jackpot_a_rent_as_large_as_the_starting_cash():
    w = _rent_on_39(4)  # 17,000, owed as a debt: 15,000 in cash
    assert w.s.debts[0].amount == 17000 and "board.jackpot" in w.feats(1)


def test_B06_no_jackpot_below_the_starting_cash():
    w = _rent_on_39(3)  # 14,000
    assert "board.jackpot" not in w.feats(1)


def _rent_to_rich(cash: int) -> Watched:
    w = Watched(table(2))
    own(w.s, 1, 39)
    set_cash(w.s, 1, cash)
    w.land(0, 39)  # rent 500
    return w


def test_B19_fat_cat_twice_the_starting_cash_in_hand():
    w = _rent_to_rich(29500)
    assert w.s.players[1].cash == 30000 and "board.fat_cat" in w.feats(1)


def test_B19_no_fat_cat_just_short_of_it():
    w = _rent_to_rich(29490)
    assert "board.fat_cat" not in w.feats(1)


# -- luck and mishaps (B-02, B-03, B-06, B-07, B-09) ---------------------------------------------


def _escapes(how: list[str]) -> Watched:
    """Seat 0 leaves jail once per entry of ``how`` ("doubles" or "fine"); seat 1 only visits."""
    w = Watched(table(2))
    own(w.s, 0, 12, 13)
    for way in how:
        p = w.s.players[0]
        p.in_jail, p.position = True, 10
        if way == "fine":
            w.act(0, m.PayJailFine())
            w.roll(0, (1, 2))  # to Qingyang, its own
        else:
            w.roll(0, (1, 1))  # out on doubles, to the Electric Company, its own
        assert not p.in_jail
        place(w.s, 1, 0)
        w.roll(1, (4, 6))  # just visiting
    return w


def test_B09_great_escape_out_on_doubles_three_times():
    assert "board.great_escape" in _escapes(["doubles", "doubles", "doubles"]).feats(0)


def test_B09_no_great_escape_when_one_time_was_the_fine():
    assert "board.great_escape" not in _escapes(["doubles", "fine", "doubles"]).feats(0)


def _jailed(times: int) -> Watched:
    w = Watched(table(2))
    for _ in range(times):
        w.land(0, 30, (2, 3))  # 坐牢
        w.s.players[0].in_jail = False  # as if the fine were paid: only the visits count
        place(w.s, 1, 0)
        w.roll(1, (4, 6))
    return w


def test_B09_jailbird_three_times_in_jail():
    assert "board.jailbird" in _jailed(3).feats(0)


def test_B09_no_jailbird_after_two():
    assert "board.jailbird" not in _jailed(2).feats(0)


def _doubles(*rolls: tuple[int, int]) -> Watched:
    w = Watched(table(2))
    own(w.s, 1, 6, 12, 15)
    for roll in rolls:
        w.roll(0, roll)
    return w


def test_B02_speeding_three_doubles_in_a_row_to_jail():
    w = _doubles((3, 3), (3, 3), (5, 5))
    assert w.s.players[0].in_jail and "board.speeding" in w.feats(0)


def test_B02_no_speeding_after_two_doubles():
    w = _doubles((3, 3), (3, 3), (1, 2))
    assert not w.s.players[0].in_jail and "board.speeding" not in w.feats(0)


def _top(s, deck: str, index: int) -> None:
    pile = s.chance if deck == "chance" else s.chest
    pile.remove(index)
    pile.insert(0, index)


def test_B03_double_payday_two_salaries_in_one_turn():
    w = Watched(table(2))
    _top(w.s, "chest", CHEST["advance_go"])
    w.land(0, 2)  # passes GO, then Community Chest: advance to GO
    assert w.s.players[0].position == 0 and "board.double_payday" in w.feats(0)


def test_B03_no_double_payday_for_two_salaries_in_two_turns():
    w = Watched(table(2))
    own(w.s, 0, 3)
    w.land(0, 3, (2, 3))  # from 38: passes GO
    place(w.s, 1, 0)
    w.roll(1, (4, 6))
    w.land(0, 3, (2, 3))  # passes GO again, a turn later
    assert w.s.players[0].cash == 15000 + 2 * 2000 and "board.double_payday" not in w.feats(0)


def test_B07_jail_cards_both_at_once():
    w = Watched(table(2))
    w.s.players[0].jail_cards = ["chance"]
    w.s.chance.remove(CHANCE["jail_free"])
    _top(w.s, "chest", CHEST["jail_free"])
    w.land(0, 2)
    assert len(w.s.players[0].jail_cards) == 2 and "board.jail_cards" in w.feats(0)


def test_B07_no_jail_cards_with_one():
    w = Watched(table(2))
    _top(w.s, "chest", CHEST["jail_free"])
    w.land(0, 2)
    assert len(w.s.players[0].jail_cards) == 1 and "board.jail_cards" not in w.feats(0)


def test_B06_ouch_the_largest_rent_of_the_game():
    w = Watched(table(2))
    own(w.s, 1, 1)
    own(w.s, 0, 39)
    w.land(0, 1)  # 20 to seat 1
    w.land(1, 39)  # 500 to seat 0
    assert "board.ouch" in w.feats(1) and "board.ouch" not in w.feats(0)


def test_B06_ouch_stays_with_who_paid_it_first_when_equalled():
    w = Watched(table(2))
    own(w.s, 1, 1)
    own(w.s, 0, 11, 13)  # not a whole group: 100 each
    w.land(0, 1)  # 20
    assert "board.ouch" in w.feats(0)  # the largest so far
    w.land(1, 11)  # 100
    w.land(0, 1)  # 20 again
    w.land(1, 13)  # 100 again: equal, not larger
    assert "board.ouch" in w.feats(1) and "board.ouch" not in w.feats(0)


# -- the replay -----------------------------------------------------------------------------------


def test_game_story_of_an_unfinished_log_gives_no_feats_for_winning():
    seed = game_seeds(48, 1)[0]
    state, log = play_one(GAMES["board"], 2, "china", seed, None, check_every_action=False)
    cut = game_story(BOARD, 2, "china", seed, log[:-1])
    assert not any("board.last_standing" in keys for keys in cut.feats.values())
    assert len(cut.series[0]) == len(net_worth_series(BOARD, 2, "china", seed, log[:-1])[0])


def test_the_watcher_s_worth_is_the_B17_valuation():
    from engine.board.rules import valuation

    seed = game_seeds(48, 1)[0]
    _, log = play_one(GAMES["board"], 4, "classic", seed, None, check_every_action=False)
    s = BOARD.new_game(4, "classic", seed)
    watcher = BOARD_FEATS.watcher(s, 4)
    for seat, action in log:
        BOARD.apply(s, seat, action)
        assert watcher.worth(s) == valuation(s)
