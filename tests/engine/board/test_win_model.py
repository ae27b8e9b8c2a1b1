"""The board game's win model (engine/board/win_model.py): the strong level's score of a world."""

from __future__ import annotations

import pytest

from engine.board import strong
from engine.board.rules import board_of, new_game
from engine.board.win_model import FEATURES, WEIGHTS, features, landings, win_chances
from engine.games import GAMES
from tools import fit_win_model


def _table(seed: int = 5):
    """A four-seat table with every deed dealt round the seats, nothing built."""
    state = new_game(4, None, seed)
    b = board_of(state)
    for i, sq in enumerate(b.properties):
        state.owner[sq] = i % 4
    return state


def _group_of(state, seat):
    """A street group, made whole for ``seat`` (taken from the others)."""
    b = board_of(state)
    _group, squares, _street = next(g for g in b.group_list if g[2] and len(g[1]) == 3)
    for sq in squares:
        state.owner[sq] = seat
    return squares


def test_chances_sum_to_one_over_the_seats_still_in():
    state = _table()
    state.players[2].bankrupt = True
    chances = win_chances(state)
    assert set(chances) == {0, 1, 3}
    assert sum(chances.values()) == pytest.approx(1.0)
    assert strong.score(state, 2) == 0.0
    assert strong.score(state, 0) == pytest.approx(chances[0])


def test_houses_on_a_whole_group_raise_its_owners_chance_and_mortgages_lower_it():
    state = _table()
    squares = _group_of(state, 0)
    before = win_chances(state)[0]
    for sq in squares:
        state.houses[sq] = 3
    built = win_chances(state)[0]
    assert built > before
    mortgaged = _table()
    own = [sq for sq, o in enumerate(mortgaged.owner) if o == 1][:4]
    plain = win_chances(mortgaged)[1]
    for sq in own:
        mortgaged.mortgaged[sq] = True
    assert win_chances(mortgaged)[1] < plain


def test_a_whole_group_counts_its_rent_to_come_and_cash_counts():
    state = _table()
    _group_of(state, 0)
    f = dict(zip(FEATURES, features(state, 0), strict=True))
    assert f["groups"] == 1 and f["potential"] > 0
    richer = _table()
    _group_of(richer, 0)
    richer.players[0].cash += 5000
    assert features(richer, 0)[1] > f["cash"]
    assert win_chances(richer)[0] > win_chances(state)[0]


def test_landings_are_the_engines_own_movement():
    land = landings("china")
    assert 0.9 < sum(land) < 1.0  # the rest: rolls that end in jail
    go_to_jail = 30
    assert land[go_to_jail] == 0.0
    assert max(range(40), key=land.__getitem__) != go_to_jail


def test_the_fitter_finds_weights_that_name_winners_better_than_none():
    data = fit_win_model.positions(games=8, seed=11)
    assert data and all(winner in position for position, winner in data)
    weights = fit_win_model.fit(data, rounds=40)
    assert len(weights) == len(WEIGHTS)
    fitted, flat = fit_win_model.judge(weights, data), fit_win_model.judge([0.0] * len(WEIGHTS), data)
    assert fitted["log_likelihood"] > flat["log_likelihood"]


def test_the_strong_board_level_scores_a_world_it_stops_playing_by_the_model():
    state = _table()
    _group_of(state, 3)
    assert GAMES["board"].strong.score is strong.score
    assert strong.score(state, 3) == pytest.approx(win_chances(state)[3])
    assert strong.score(state, 3) == max(strong.score(state, s) for s in range(4))
