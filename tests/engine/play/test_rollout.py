"""Rollouts for a search (issue 33): a copy of a table played out never changes the table, replays
exactly from its seed, and re-deals only what the searching seat cannot see."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games import GAMES
from engine.play.rollout import rollout


def _midgame(game: str, moves: int = 60, seed: int = 7):
    rules, plug = GAMES[game].rules, GAMES[game]
    state = rules.new_game(4, None, seed)
    for _ in range(moves):
        decision = rules.waiting_for(state)[0]
        rules.apply(state, decision.seat, plug.choose(state, decision.seat))
    return rules, plug, state


@pytest.mark.parametrize("game", ["deal", "board"])
def test_a_rollout_never_changes_the_table_and_replays_from_its_seed(game):
    rules, plug, state = _midgame(game)
    before = rules.encode_state(state)
    ends = [rules.encode_state(rollout(rules, plug.choose, state, 0, seed)) for seed in (1, 1, 2, 3)]
    assert rules.encode_state(state) == before  # the table as it was
    assert ends[0] == ends[1]  # one seed, one game
    assert len(set(ends[1:])) > 1  # other seeds, other games
    copy = rules.clone(state)
    assert copy is not state and rules.encode_state(copy) == before
    rules.apply(copy, rules.waiting_for(copy)[0].seat, plug.choose(copy, rules.waiting_for(copy)[0].seat))
    assert rules.encode_state(state) == before  # a clone shares none of the table's data


def test_board_copies_share_the_tables_scratch_memos_and_play_as_a_fresh_table_would():
    """The search's worlds share the table's memos (``GameRules.clone``): every entry is keyed by
    all it read, so a rollout on a copy with memos warmed by other worlds ends exactly where the
    same rollout on a table decoded afresh (no memo at all) ends."""
    rules, plug, state = _midgame("board")
    for seed in (1, 2, 3):  # other worlds fill the shared memos
        rollout(rules, plug.choose, state, 0, seed)
    warm = rules.clone(state)
    assert state.__dict__ and all(warm.__dict__[k] is v for k, v in state.__dict__.items())
    cold = rules.decode_state(rules.encode_state(state))
    assert not cold.__dict__
    ends = [rules.encode_state(rollout(rules, plug.choose, table, 0, 4)) for table in (state, cold)]
    assert ends[0] == ends[1]


def test_deal_resample_redeals_only_what_the_viewer_cannot_see():
    rules, _, state = _midgame("deal")
    copy = rules.clone(state)
    rules.resample(copy, 1, 99)
    assert copy.players[1].hand == state.players[1].hand  # the searching seat's own hand
    for seat in (0, 2, 3):
        assert len(copy.players[seat].hand) == len(state.players[seat].hand)
        assert copy.players[seat].bank == state.players[seat].bank  # public
    unseen = lambda s: Counter(s.draw_pile + [c for i in (0, 2, 3) for c in s.players[i].hand])  # noqa: E731
    assert unseen(copy) == unseen(state)  # the same cards, dealt again
    assert [p.hand for p in copy.players] != [p.hand for p in state.players] or copy.draw_pile != state.draw_pile
    assert rules.view(copy, None)["players"] == rules.view(state, None)["players"]  # the table is the same


def test_board_resample_shuffles_the_decks_and_the_dice_only():
    rules, _, state = _midgame("board")
    copy = rules.clone(state)
    rules.resample(copy, 0, 5)
    assert sorted(copy.chance) == sorted(state.chance) and sorted(copy.chest) == sorted(state.chest)
    assert copy.rng != state.rng
    assert rules.view(copy, None)["players"] == rules.view(state, None)["players"]


def test_a_rollout_is_the_same_in_another_process(tmp_path):
    """The sampling hashes only ints, so a rollout from one seed is the same in every process
    (string hashes differ between processes; ints and tuples of ints do not)."""
    import os
    import subprocess
    import sys

    code = ("from engine.games import GAMES; from engine.play.rollout import rollout; "
            "r, p = GAMES['deal'].rules, GAMES['deal']; s = r.new_game(4, None, 7)\n"
            "for _ in range(60):\n    d = r.waiting_for(s)[0]; r.apply(s, d.seat, p.choose(s, d.seat))\n"
            "print(r.encode_state(rollout(r, p.choose, s, 0, 11)).decode())")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(salt)}).stdout for salt in (1, 2)]
    assert runs[0] == runs[1] and runs[0]
