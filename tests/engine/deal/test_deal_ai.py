"""The Deal AI asks the rules for less than the full list on its own turn, and still chooses the same.

On its own turn ``choose`` asks ``turn_options`` for the re-arranging moves into groups one card
short only, and for the Forced Deals that take a card worth the swap (``forced_takes``) and give
one of the cards it loses least by (``forced_give_cost``) only: the moves and swaps it leaves out
all score below ``EndTurn``, which comes first in the list, or below a swap it keeps.
"""

from __future__ import annotations

import pytest

from engine.deal import DEAL
from engine.deal import model as m
from engine.deal.ai import _FORCED_GAIN_FLOOR, _Context, choose
from engine.deal.cards import IS_PROPERTY, N_CARDS, VALUE
from engine.deal.rules import legal_actions, turn_options
from engine.play.simulation import game_seeds


def _decisions(ruleset: str, seed: int, games: int):
    """Every decision of whole four-player AI games: ``(state, seat)`` before the AI's move."""
    for game_seed in game_seeds(seed, games):
        s = DEAL.new_game(4, ruleset, game_seed)
        while DEAL.waiting_for(s) and s.turn_number <= 200:
            seat = DEAL.waiting_for(s)[0].seat
            yield s, seat
            DEAL.apply(s, seat, choose(s, seat))


@pytest.mark.parametrize("ruleset", ["standard", "tournament"])
def test_the_ai_chooses_from_its_narrowed_turn_options_as_from_the_full_list(ruleset):
    seen: set[type] = set()
    narrowed = 0
    for s, seat in _decisions(ruleset, 11, 25):
        full = legal_actions(s, seat)
        fast = choose(s, seat)
        assert fast == choose(s, seat, full), (ruleset, s.turn_number, seat)
        seen.add(type(fast))
        forced = [a for a in full if isinstance(a, m.PlayForcedDeal)]
        if forced and not s.pending and s.phase == "play":
            ctx = _Context(s, s.players[seat])
            asked = turn_options(s, seat, forced_takes=ctx.worth_forcing, forced_give_cost=ctx.loss)
            kept = [a for a in asked if isinstance(a, m.PlayForcedDeal)]
            least = min(ctx.loss(a.give) for a in forced)
            assert kept == [a for a in forced if ctx.worth_forcing(a.take) and ctx.loss(a.give) == least]
            assert [a for a in asked if not isinstance(a, m.PlayForcedDeal)] == \
                [a for a in full if not isinstance(a, m.PlayForcedDeal)]
            narrowed += len(kept) < len(forced)
    assert narrowed > 10  # the filter left swaps out, and the choice stayed the same
    assert {m.LayProperty, m.BankCard, m.PlayRent, m.PlayForcedDeal, m.PlaySlyDeal, m.EndTurn, m.AutoPay} <= seen, seen


def test_a_card_no_group_has_room_for_is_never_worth_a_forced_deal():
    """``_Context.worth_forcing`` skips the value model for a card no group of ours has room for:
    its gain is then 15 plus its face value (``_gain``), which for every property of the deck
    stays under the floor of a Forced Deal."""
    assert max(15 + VALUE[c] for c in range(N_CARDS) if IS_PROPERTY[c]) <= _FORCED_GAIN_FLOOR


def test_the_deal_ai_beats_three_basic_seats_and_the_basic_player_only_picks_legal_moves():
    """Issue 34: Deal has seat types too (``--seats ai,basic,...``): the baseline lays, banks and
    ends its turn, never attacks, never says no; the AI wins most games against three of them."""
    from engine.deal.basic import choose as basic_choose
    from engine.games import GAMES
    from engine.play.simulation import simulate

    stats = simulate(GAMES["deal"], 24, 4, seed=3, seats=["ai", "basic", "basic", "basic"])
    assert stats.invariant_violations == 0 and stats.replay_mismatches == 0
    by_type = stats.wins_by_type
    assert by_type.get("ai", 0) > 2 * by_type.get("basic", 0), by_type  # one AI seat, three basic ones
    state = DEAL.new_game(3, None, 5)
    for _ in range(300):  # the baseline alone at a table: every move it makes is a legal one
        if state.phase == "over":
            break
        seat = DEAL.waiting_for(state)[0].seat
        action = basic_choose(state, seat)
        assert action in DEAL.legal_actions(state, seat)
        DEAL.apply(state, seat, action)


# -- what the table shows: who to charge, when to keep the last Just Say No (issue 34) ----------

def _table(hands: dict[int, list[str]], sets: dict[int, list[list[str]]], banks: dict[int, list[str]],
           discard: tuple[str, ...] = ()) -> m.DealState:
    """Three seats, seat 0 to play: each seat's hand, complete or partial sets (lists of card keys,
    the colour read from the first card) and bank as given; every other card in the draw pile."""
    from engine.deal.cards import KEY, PLACEABLE
    from engine.deal.rules import current_seat

    state = DEAL.new_game(3, None, 1)
    state.order = [0, 1, 2]
    state.turn_index = 0
    assert current_seat(state) == 0
    used: list[int] = []

    def cards(keys) -> list[int]:  # the next copy of each key not dealt yet
        out = []
        for k in keys:
            out.append(next(c for c in range(N_CARDS) if KEY[c] == k and c not in used))
            used.append(out[-1])
        return out

    for p in state.players:
        p.hand = cards(hands.get(p.seat, []))
        p.bank = cards(banks.get(p.seat, []))
        p.groups = [m.Group(colour=PLACEABLE[cards(g[:1])[0]][0], cards=[used[-1], *cards(g[1:])])
                    for g in sets.get(p.seat, [])]
    state.discard_pile = cards(discard)
    state.draw_pile = [c for c in range(N_CARDS) if c not in set(used)]
    state.pending = []
    state.plays_left = 3
    return state


GREEN = ["property_pacific", "property_north_carolina", "property_pennsylvania_ave"]
BROWN = ["property_mediterranean", "property_baltic"]
DARK_BLUE = ["property_park_place", "property_boardwalk"]
BANKS = {1: ["money_5", "money_4"], 2: ["money_5", "money_4"]}  # 9M each: any rent here is paid in full


def test_D13_the_ai_keeps_its_last_just_say_no_for_a_deal_breaker_while_one_may_come():
    """A rent of 7 against a complete set and one Just Say No: paid while a Deal Breaker is unseen
    (in the draw pile or a hand), refused once both lie in the discard pile for all to see."""
    def answer(discard: tuple[str, ...]):
        state = _table(hands={0: ["rent_dark_blue_green"], 1: ["just_say_no"]},
                       sets={0: [GREEN], 1: [BROWN]}, banks=BANKS, discard=discard)
        rent = next(a for a in legal_actions(state, 0) if isinstance(a, m.PlayRent))
        DEAL.apply(state, 0, rent)
        demand = next(d for d in state.pending if d.target == 1)
        assert demand.amount == 7
        return choose(state, 1)

    assert isinstance(answer(()), m.Accept)
    assert isinstance(answer(("deal_breaker", "deal_breaker")), m.JustSayNo)


def test_D11_the_ai_charges_and_breaks_the_player_nearer_to_winning_of_two_alike():
    """Seats 1 and 2 could each pay the whole rent; seat 2 shows two complete sets: the wild rent
    charges seat 2, and the Deal Breaker takes seat 2's set (the first of two alike before)."""
    state = _table(hands={0: ["rent_wild"]}, sets={0: [GREEN], 1: [BROWN], 2: [DARK_BLUE]},
                   banks=BANKS)
    assert isinstance(choose(state, 0), m.PlayRent) and choose(state, 0).target == 1  # one set each: the first
    state = _table(hands={0: ["rent_wild"]}, sets={0: [GREEN], 1: [BROWN], 2: [DARK_BLUE, ["property_electric",
                   "property_water_works"]]}, banks=BANKS)
    rent = choose(state, 0)
    assert isinstance(rent, m.PlayRent) and rent.target == 2
    state = _table(hands={0: ["deal_breaker"]}, sets={1: [BROWN], 2: [DARK_BLUE, ["property_electric",
                   "property_water_works"]]}, banks=BANKS)
    breaker = choose(state, 0)
    assert isinstance(breaker, m.PlayDealBreaker) and breaker.target == 2
