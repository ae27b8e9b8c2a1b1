"""A game's story (engine/play/history.py, issue 48): one replay of the log gives the net-worth
series exactly as the chart's replay gave it before the achievements joined it, and the feats in
catalogue order, each once, the same on every replay."""

from __future__ import annotations

import pytest

from engine.games import GAMES
from engine.play.history import game_story, net_worth_series
from engine.play.simulation import game_seeds, play_one


def _old_net_worth_series(rules, seats, options, seed, log):
    """The series as engine/play/history.py made it before the feats joined its replay."""
    value = GAMES[rules.name].presentation.worth
    state = rules.new_game(seats, options, seed)
    series = {seat: [] for seat in range(seats)}
    turn = -1
    for seat, action in log:
        if state.turn_number != turn:
            turn = state.turn_number
            for k, v in series.items():
                v.append(value(state).get(k, 0))
        rules.apply(state, seat, action)
    for k, v in series.items():
        v.append(value(state).get(k, 0))
    return series


@pytest.mark.parametrize(("game", "players", "ruleset"), [("board", 4, "china"), ("board", 3, "classic"),
                                                          ("deal", 4, "standard"), ("deal", 3, "tournament")])
def test_game_story_is_the_same_twice_and_its_series_is_the_old_one(game, players, ruleset):
    rules, seed = GAMES[game].rules, game_seeds(48, 1)[0]
    state, log = play_one(GAMES[game], players, ruleset, seed, None, check_every_action=False)
    assert rules.result(state).over
    one = game_story(rules, players, ruleset, seed, log)
    assert one == game_story(rules, players, ruleset, seed, list(log))
    assert one.series == _old_net_worth_series(rules, players, ruleset, seed, log)
    assert net_worth_series(rules, players, ruleset, seed, log) == one.series
    assert sorted(one.feats) == list(range(players))
    keys = GAMES[game].feats.keys
    for earned in one.feats.values():
        assert earned == [k for k in keys if k in earned]  # catalogue order, each once
    if game == "board":
        (winner,) = rules.result(state).winners
        assert "board.last_standing" in one.feats[winner]
