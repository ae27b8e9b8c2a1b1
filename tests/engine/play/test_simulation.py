"""``tycoon simulate`` / ``tycoon bench`` and the AI: every game ends, replays, and is reproducible."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from bot.process.cli import main
from engine.core.values import SYSTEM
from engine.deal import DEAL
from engine.deal.ai import choose
from engine.deal.rules import new_game
from engine.games import GAMES
from engine.play.simulation import game_seeds, play_one, simulate
from tests.bot.web.pace import paced
from tools.bench import (
    bench_board,
    bench_clocks,
    bench_deal,
    bench_finished_memory,
    bench_render,
    bench_restart,
    bench_rollouts,
    bench_service,
    bench_web,
)

REQUIRED = {"games", "completed", "seconds", "games_per_second", "actions", "turns_mean", "wins",
            "invariant_violations"}


@pytest.mark.parametrize("ruleset,players", [("standard", 4), ("tournament", 5), ("standard", 2)])
def test_ai_games_end_keep_invariants_and_replay(ruleset, players):
    stats = simulate(GAMES["deal"], 40, players, seed=3, options=ruleset)
    assert stats.games == 40
    assert stats.completed + stats.capped == 40
    assert stats.completed >= 38  # the AI finishes games; the cap is a safety net
    assert stats.invariant_violations == 0, stats.first_violations
    assert stats.replay_mismatches == 0
    assert sum(stats.wins.values()) >= stats.completed


def test_same_seed_same_figures():
    a = simulate(GAMES["deal"], 15, 4, seed=11).as_dict()
    b = simulate(GAMES["deal"], 15, 4, seed=11).as_dict()
    c = simulate(GAMES["deal"], 15, 4, seed=12).as_dict()
    assert a == b and a != c


def test_turn_cap_stops_and_counts():
    stats = simulate(GAMES["deal"], 5, 4, seed=1, turn_cap=2)
    assert stats.capped == 5 and stats.completed == 0 and stats.end_reasons == {"turn_cap": 5}


def test_the_ai_answers_every_kind_of_decision_and_never_stalls():
    kinds = Counter()
    for n, seed in enumerate(game_seeds(5, 60)):
        # a received House is placed by choice only in the tournament (D-14); standard banks it
        state = new_game(4, ("standard", "tournament")[n % 2], seed)
        while state.phase != "over" and state.turn_number <= 200:
            decision = DEAL.waiting_for(state)[0]
            kinds[decision.kind] += 1
            action = choose(state, decision.seat)
            legal = DEAL.legal_actions(state, decision.seat)
            assert action in legal
            assert action in DEAL.answers(decision, legal)  # the AI answers what it was asked
            DEAL.apply(state, decision.seat, action)
    assert {"play", "end_turn", "respond", "counter", "pay", "place", "discard"} <= set(kinds), kinds


def test_the_ai_beats_random_play():
    """The heuristics matter: one AI seat against three random seats wins far more than a quarter."""
    import random

    r = random.Random(4)
    wins = 0
    games = 40
    for seed in game_seeds(9, games):
        state = new_game(4, "standard", seed)
        while state.phase != "over" and state.turn_number <= 300:
            seat = DEAL.waiting_for(state)[0].seat
            legal = DEAL.legal_actions(state, seat)
            action = choose(state, seat, legal) if seat == 0 else r.choice(legal)
            DEAL.apply(state, seat, action)
        wins += 0 in state.winners
    assert wins > games * 0.6


def test_simulate_command_prints_one_json_object(capsys):
    assert main(["simulate", "deal", "--games", "6", "--players", "3", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= REQUIRED
    assert out["games"] == 6 and out["invariant_violations"] == 0 and out["replay_mismatches"] == 0
    assert set(out["wins"]) <= {"0", "1", "2"}


def test_simulate_command_output_is_reproducible(capsys):
    outs = []
    for _ in range(2):
        main(["simulate", "deal", "--games", "5", "--seed", "8", "--json"])
        doc = json.loads(capsys.readouterr().out)
        for timing in ("seconds", "games_per_second", "engine_seconds", "check_seconds"):
            doc.pop(timing)
        outs.append(doc)
    assert outs[0] == outs[1]


def _counting_plug(game: str):
    """The game's plug with its invariant check and its ``apply`` counted (a replay applies too)."""
    import dataclasses

    plug = GAMES[game]
    calls = Counter()

    def violations(state):
        calls["violations"] += 1
        return plug.violations(state)

    def apply(state, seat, action):
        calls["apply"] += 1
        return plug.rules.apply(state, seat, action)

    rules = dataclasses.replace(plug.rules, apply=apply)
    return dataclasses.replace(plug, rules=rules, violations=violations), calls


@pytest.mark.parametrize("game", ["deal", "board"])
def test_check_modes_check_what_they_say_and_play_the_same_games(game):
    figures = {}
    for mode in ("all", "end", "none"):
        plug, calls = _counting_plug(game)
        stats = simulate(plug, 3, 4, seed=6, check=mode)
        figures[mode] = stats.as_dict()
        actions = stats.actions + figures[mode]["end_reasons"].get("turn_cap", 0) * (game == "board")
        if mode == "all":  # after every action, and every action again in the replay
            assert calls["violations"] == stats.actions and calls["apply"] == 2 * actions
        elif mode == "end":  # once a game, and the replay
            assert calls["violations"] == 3 and calls["apply"] == 2 * actions
        else:
            assert calls["violations"] == 0 and calls["apply"] == actions
        assert stats.invariant_violations == 0 and stats.replay_mismatches == 0
    for doc in figures.values():
        assert doc.pop("check") in ("all", "end", "none")
    assert figures["all"] == figures["end"] == figures["none"]


def test_simulate_command_reports_engine_and_check_time(capsys):
    docs = {}
    for mode in ("all", "none"):
        assert main(["simulate", "board", "--games", "2", "--seed", "3", "--check", mode, "--json"]) == 0
        docs[mode] = json.loads(capsys.readouterr().out)
    assert docs["all"]["check"] == "all" and docs["none"]["check"] == "none"
    for doc in docs.values():
        assert doc["engine_seconds"] > 0 and doc["check_seconds"] >= 0
    assert docs["none"]["check_seconds"] == 0
    assert docs["all"]["actions"] == docs["none"]["actions"] and docs["all"]["wins"] == docs["none"]["wins"]


def test_simulate_command_refuses_an_unknown_check(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "deal", "--check", "some"])
    assert "--check" in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["simulate", "deal", "--players", "6"], "2–5 players"),
    (["simulate", "deal", "--ruleset", "nope"], "unknown rule set"),
    (["simulate", "board", "--players", "9"], "2–8 players"),
    (["simulate", "deal", "--landing"], "a game of squares (board)"),
])
def test_simulate_command_explains_bad_input(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_bench_reports_the_named_figures(monkeypatch):
    paced(monkeypatch, step=0.25)  # the web figures' player presses at a person's pace, never waiting it out
    figures = {**bench_deal(games=4), **bench_board(games=2, landing_rolls=2000)}
    for key in ("deal_apply_median_us", "deal_games_per_second_4p", "deal_player_turns_per_second",
                "board_apply_median_us", "board_games_per_second_4p", "board_player_turns_per_second",
                "board_landing_rolls_per_second"):
        assert figures[key] > 0
    # the rules' share of a player-turn: every apply of it, so more than one apply's median
    assert figures["board_apply_us_per_player_turn"] > figures["board_apply_median_us"]
    assert figures["board_games_by_bankruptcy"] + figures["board_games_by_turn_cap"] == 2
    service = bench_service(moves=20, tables=10)
    assert service["service_move_p50_ms"] > 0 and service["service_moves_measured"] == 20
    assert service["memory_1000_tables_mb"] > 0
    clocks = bench_clocks(tables=4, seconds=4, clock_seconds=1)
    assert clocks["clocks_fired"] > 4 and clocks["clock_lateness_p99_s"] >= clocks["clock_lateness_p50_s"] >= 0
    memory = bench_finished_memory(games=6, checkpoint=3)
    assert memory["memory_after_6_finished_games_mb"] > 0 and memory["memory_after_3_finished_games_mb"] > 0
    rollouts = bench_rollouts(seconds=0.2, turns=5)
    assert all(rollouts[f"{g}_clone_median_us"] > 0 and rollouts[f"{g}_rollouts_per_second"] > 0
               for g in ("deal", "board"))
    restart = bench_restart(tables=20)
    assert restart["restart_to_first_clock_s_20_tables"] > 0
    assert restart["restart_to_first_clock_restoring_all_first_s_20_tables"] > 0
    web = bench_web(games=3, presses=3)
    assert 0 < web["web_update_bytes_median_deal"] < 8192 and 0 < web["web_update_bytes_median_board"] < 8192
    assert "web_memory_growth_mb_3_games" in web
    assert web["web_press_to_paint_ms_median"] is None or web["web_press_to_paint_ms_median"] > 0
    pictures = bench_render(frames=2)
    assert pictures["board_render_median_ms"] > 0 and 0 < pictures["board_png_kb"] < 250
    assert pictures["deal_table_png_kb"] > 0 and pictures["hand_png_kb"] > 0


def test_play_one_logs_every_action():
    state, log = play_one(GAMES["deal"], 3, None, 77, 200)
    assert state.phase == "over"
    again = DEAL.replay(3, None, 77, log)
    assert DEAL.encode_state(again) == DEAL.encode_state(state)


@pytest.mark.parametrize("ruleset", ["china", "classic"])
def test_board_ai_games_end_mostly_by_bankruptcy_and_replay(ruleset):
    stats = simulate(GAMES["board"], 12, 4, seed=5, options=ruleset)
    assert stats.completed == 12
    assert stats.end_reasons["last_player"] >= 10
    assert stats.invariant_violations == 0, stats.first_violations
    assert stats.replay_mismatches == 0


def test_board_turn_cap_ends_by_valuation():
    stats = simulate(GAMES["board"], 3, 4, seed=2, turn_cap=5)
    assert stats.end_reasons == {"turn_cap": 3} and stats.capped == 3 and stats.completed == 3
    assert sum(stats.wins.values()) >= 3


def test_the_board_ai_beats_random_play():
    import random

    from engine.board import BOARD
    from engine.board.ai import choose as board_choose

    r = random.Random(3)
    wins = 0.0
    games = 24
    for seed in game_seeds(4, games):
        state = BOARD.new_game(3, "china", seed)
        while state.stage != "over" and state.turn_number <= 400:
            seat = BOARD.waiting_for(state)[0].seat
            legal = BOARD.legal_actions(state, seat)
            BOARD.apply(state, seat, board_choose(state, seat, legal) if seat == 0 else r.choice(legal))
        if state.stage != "over":
            from engine.board.model import EndMatch

            BOARD.apply(state, SYSTEM, EndMatch())
        wins += (0 in state.winners) / len(state.winners)
    assert wins > games * 0.6


def test_the_strong_level_figures_time_every_decision_and_count_its_own_moves(monkeypatch):
    import msgspec

    from engine.games import GAMES
    from engine.play import search
    from tools.bench import bench_strong
    from tools.bench.strength import strength

    for game in ("deal", "board"):  # smaller searches than shipped: the suite's time
        small = msgspec.structs.replace(GAMES[game].strong, worlds=3, horizon=4)
        monkeypatch.setitem(GAMES[game].policies, "strong", search.policy(small))
    figures = bench_strong(games=1)
    for game in ("deal", "board"):
        assert figures[f"{game}_strong_decisions"] > 10
        assert figures[f"{game}_strong_decision_p99_ms"] >= figures[f"{game}_strong_decision_mean_ms"] / 10 > 0
        assert 0 <= figures[f"{game}_strong_not_the_heuristics_move"] <= figures[f"{game}_strong_decisions"]
    assert "timed" not in GAMES["deal"].policies and "timed" not in GAMES["board"].policies
    measured = strength("deal", games=2, worlds=2, horizon=2, seed=1, margin=0.0)
    assert (measured["games"], measured["worlds"], measured["horizon"], measured["margin"]) == (2, 2, 2, 0.0)
    assert measured["decisions"] > 10 and GAMES["deal"].strong.margin == search.MARGIN  # the shipped kit is untouched
    assert "measured" not in GAMES["deal"].policies


def test_a_paired_strength_run_plays_each_game_again_with_an_ai_in_the_strong_seat():
    """``bench_strength --paired``: with a margin no move can beat (infinite: a move that gains the
    same in every world has no spread and beats any finite margin), the strong seat plays its first
    candidate at every decision, which in Deal is the heuristic's move, so each game and its twin
    (an ``ai`` in that seat, the same seed) are the same game: no difference, results in perfect
    step. On the board the first candidate is the heuristic's move with its offers asked dearer:
    the same games as ``--prior`` plays. With the search free to move (no margin), the difference
    is the two shares' difference, inside its interval."""
    from tools.bench.strength import strength

    same = strength("deal", games=4, worlds=2, horizon=2, seed=3, margin=math.inf, paired=True)
    assert same["strong_win_share"] == same["ai_in_its_place_win_share"]
    assert same["difference"] == 0 and same["difference_95"] == [0, 0]
    capped = strength("board", games=6, worlds=2, horizon=2, seed=3, margin=math.inf, paired=True)
    prior = strength("board", games=6, worlds=2, horizon=2, seed=3, paired=True, prior=True)
    assert prior["prior"] and not capped["prior"]
    assert (capped["strong_win_share"], capped["difference"]) == (prior["strong_win_share"], prior["difference"])
    free = strength("board", games=4, worlds=2, horizon=2, seed=3, margin=0.0, paired=True)
    assert free["difference"] == pytest.approx(free["strong_win_share"] - free["ai_in_its_place_win_share"], abs=1e-3)
    low, high = free["difference_95"]
    assert low <= free["difference"] <= high
    assert "correlation" in free and "ai_in_its_place_win_share" not in strength("deal", games=1, worlds=2,
                                                                                   horizon=2, seed=3)
