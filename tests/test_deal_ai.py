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
from engine.simulation import game_seeds


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
    from engine.games import PLUGS
    from engine.simulation import simulate

    stats = simulate(PLUGS["deal"], 24, 4, seed=3, seats=["ai", "basic", "basic", "basic"])
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
