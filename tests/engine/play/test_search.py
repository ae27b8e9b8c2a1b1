"""The ``strong`` level (``engine/play/search.py``): it decides from its seat's view and worlds sampled
from it, never from another hand or the deck order; it picks the same move for the same
position (games replay); it never stalls a game; and it finds a better move than the heuristic
where the heuristic's rule of thumb is wrong."""

from __future__ import annotations

import msgspec
import pytest

from engine.core.rng import Rng
from engine.games import GAMES, chooser
from engine.play import search
from engine.play.simulation import game_seeds, play_one


def _small(game: str) -> search.SearchKit:
    """The game's search with fewer worlds and turns, for the suite's time."""
    return msgspec.structs.replace(GAMES[game].strong, worlds=4, horizon=6)


def _mid_game(game: str, seed: int, moves: int):
    plug = GAMES[game]
    state = plug.rules.new_game(4, None, seed)
    for _ in range(moves):
        seat = plug.rules.waiting_for(state)[0].seat
        plug.rules.apply(state, seat, plug.choose(state, seat))
    return state


def _scrambled(state, seat: int, seed: int):
    """A twin of a Deal table that differs from it only in what ``seat`` cannot see: the other
    hands and the draw pile dealt again from their pooled cards, and another generator."""
    twin = GAMES["deal"].rules.clone(state)
    others = [p for p in twin.players if p.seat != seat]
    pool = list(twin.draw_pile) + [c for p in others for c in p.hand]
    Rng.from_seed(seed).shuffle(pool)
    for p in others:
        p.hand, pool = pool[:len(p.hand)], pool[len(p.hand):]
    twin.draw_pile = pool
    twin.rng = Rng.from_seed(seed)
    return twin


def test_a_world_keeps_what_the_seat_sees_and_deals_the_rest_again():
    rules = GAMES["deal"].rules
    state = _mid_game("deal", 11, 40)
    seen = search.Seen(rules, state, 1)
    worlds = [seen.world(i) for i in range(6)]
    for w in worlds:
        assert w.players[1].hand == state.players[1].hand  # its own hand as it is
        assert [len(p.hand) for p in w.players] == [len(p.hand) for p in state.players]
        assert sorted(w.draw_pile + [c for p in w.players if p.seat != 1 for c in p.hand]) == \
            sorted(state.draw_pile + [c for p in state.players if p.seat != 1 for c in p.hand])
        assert rules.view(w, 1) == seen.view  # the same table, as the seat sees it
    assert len({tuple(w.players[0].hand) for w in worlds}) > 1  # the others' hands are drawn anew
    assert all(w.players[0].hand != state.players[0].hand for w in worlds[:3]) or \
        state.players[0].hand == []


def test_strong_seats_never_read_another_hand_nor_the_deck():
    """A spy: at every decision of a strong seat over whole games, the same seat at a twin table
    whose hidden cards (the other hands, the draw pile, the generator) were dealt otherwise
    decides the same move and sees the same worlds. Whatever it read, it read from its view."""
    rules, kit = GAMES["deal"].rules, _small("deal")
    decisions = 0
    for game_seed in game_seeds(5, 3):
        state = rules.new_game(4, None, game_seed)
        while rules.waiting_for(state) and state.turn_number < 40:
            seat = rules.waiting_for(state)[0].seat
            if seat == 2 and state.phase != "over":
                twin = _scrambled(state, seat, decisions + 1)
                assert twin.players[0].hand != state.players[0].hand or not state.players[0].hand \
                    or twin.draw_pile != state.draw_pile
                mine, theirs = search.Seen(rules, state, seat), search.Seen(rules, twin, seat)
                assert mine.view == theirs.view and mine.salt == theirs.salt
                assert rules.encode_state(mine.world(3)) == rules.encode_state(theirs.world(3))
                action = search.choose(kit, mine)
                assert search.choose(kit, theirs) == action
                decisions += 1
            else:
                action = GAMES["deal"].choose(state, seat)
            rules.apply(state, seat, action)
    assert decisions > 30


@pytest.mark.parametrize("game", ["deal", "board"])
def test_strong_decides_the_same_for_the_same_position_and_leaves_the_table_as_it_was(game):
    rules = GAMES[game].rules
    state = _mid_game(game, 21, 60)
    before = rules.encode_state(state)
    seat = rules.waiting_for(state)[0].seat
    first = search.choose(_small(game), search.Seen(rules, state, seat))
    again = search.choose(_small(game), search.Seen(rules, rules.clone(state), seat))
    assert first == again
    assert rules.encode_state(state) == before
    assert first in rules.legal_actions(state, seat) or rules.apply(rules.clone(state), seat, first) is not None


@pytest.mark.parametrize("game", ["deal", "board"])
def test_games_with_strong_seats_end_and_replay_from_their_seed_and_log(game, monkeypatch):
    plug = GAMES[game]
    monkeypatch.setitem(plug.policies, "strong", search.policy(_small(game)))
    state, log = play_one(plug, 4, None, 77, 300 if game == "board" else None, policies=["strong", "ai", "ai", "ai"])
    assert plug.rules.result(state).over or state.turn_number > 300
    again = plug.rules.replay(4, None, 77, log)
    assert plug.rules.encode_state(again) == plug.rules.encode_state(state)
    assert sum(1 for seat, _ in log if seat == 0) > 10


@pytest.mark.parametrize("wanted", ["buy", "decline"])
def test_the_search_takes_the_move_whose_worlds_score_best_whatever_the_heuristic_picks(wanted):
    """The search plays each candidate in the same worlds and keeps the best mean: with a score
    that rewards holding the street it buys it, with one that rewards not holding it it lets it go,
    while the heuristic's own pick (buy: it completes a group) stays the same."""
    from engine.board import model as m
    from engine.board.ai import choose as heuristic
    from engine.board.data import board
    from tests.board_builders import own, place, set_cash, table

    s = table(2)
    own(s, 0, 1)  # brown: 3 completes seat 0's group
    set_cash(s, 0, board("china").price[3])  # enough to buy, too little to win the auction
    place(s, 0, 3)
    s.stage, s.buy_square, s.rolled = "buy", 3, True
    assert heuristic(s, 0) == m.Buy()

    def score(world, seat):
        return float((world.owner[3] == seat) == (wanted == "buy"))

    kit = msgspec.structs.replace(GAMES["board"].strong, worlds=3, horizon=0, score=score)
    assert search.choose(kit, search.Seen(GAMES["board"].rules, s, 0)) == \
        (m.Buy() if wanted == "buy" else m.DeclineToBuy())


@pytest.mark.parametrize("margin", [0.0, 1e9])
def test_another_move_must_beat_the_heuristics_by_the_kits_margin(margin):
    """The alternative (letting the deed go) scores more than the heuristic's buy in every world,
    by an amount that varies from world to world: with no margin the search takes it, with a
    margin beyond any spread the heuristic's move stands: the margin is the kit's."""
    import zlib

    from engine.board import model as m
    from engine.board.ai import choose as heuristic
    from engine.board.data import board
    from tests.board_builders import own, place, set_cash, table

    s = table(2)
    own(s, 0, 1)
    set_cash(s, 0, board("china").price[3])
    place(s, 0, 3)
    s.stage, s.buy_square, s.rolled = "buy", 3, True
    assert heuristic(s, 0) == m.Buy()

    def score(world, seat):
        luck = zlib.crc32(msgspec.msgpack.encode(world.rng)) / 2**32  # the world's own, in [0, 1)
        return 0.0 if world.owner[3] == seat else 0.01 + luck

    kit = msgspec.structs.replace(GAMES["board"].strong, worlds=6, horizon=0, score=score, margin=margin)
    assert search.choose(kit, search.Seen(GAMES["board"].rules, s, 0)) == \
        (m.DeclineToBuy() if margin == 0.0 else m.Buy())


def test_each_level_is_a_policy_of_each_game():
    for game in ("deal", "board"):
        assert chooser(game) is GAMES[game].choose and chooser(game, "ai") is GAMES[game].choose
        assert chooser(game, "basic") is GAMES[game].policies["basic"]
        assert chooser(game, "strong") is GAMES[game].policies["strong"]
