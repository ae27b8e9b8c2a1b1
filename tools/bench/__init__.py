"""``tycoon bench``: the project's benchmarks, one JSON object of named figures.

Figures are medians or rates over a fixed, seeded workload, so two runs on one machine are
comparable; budgets live in docs/design.md, not in tests (timings here are noisy).
"""

from __future__ import annotations

import statistics
import time

from engine.games import GAMES
from engine.play.simulation import game_seeds, play_one
from tools.bench.chats import bench_telegram_groups
from tools.bench.clock_processes import bench_clock_processes
from tools.bench.doors import bench_doors
from tools.bench.game_end import bench_game_end
from tools.bench.load import (  # noqa: F401  (the figures' names, for the tests)
    CROWD_FIGURES,
    TWO_PROCESS_FIGURES,
    bench_crowd,
    bench_crowds,
    bench_database_url,
    bench_two_processes,
)
from tools.bench.restart import bench_restart
from tools.bench.service import bench_clocks, bench_finished_memory, bench_service
from tools.bench.web import bench_web


def bench_deal(games: int = 300, seed: int = 2026) -> dict:
    plug = GAMES["deal"]
    rules = plug.rules
    apply_ns: list[int] = []
    legal_ns: list[int] = []
    choose_ns: list[int] = []

    def timed_apply(state, seat, action):
        t0 = time.perf_counter_ns()
        events = rules.apply(state, seat, action)
        apply_ns.append(time.perf_counter_ns() - t0)
        return events

    # per-call timings on a sample of games
    for s in game_seeds(seed, 40):
        state = rules.new_game(4, None, s)
        while state.phase != "over" and state.turn_number <= 200:
            seat = rules.waiting_for(state)[0].seat
            t0 = time.perf_counter_ns()
            actions = rules.legal_actions(state, seat)
            t1 = time.perf_counter_ns()
            action = plug.choose(state, seat, actions)
            t2 = time.perf_counter_ns()
            timed_apply(state, seat, action)
            legal_ns.append(t1 - t0)
            choose_ns.append(t2 - t1)

    # throughput: whole four-player games with the real AI, no checking
    turns = 0
    t0 = time.perf_counter()
    for s in game_seeds(seed + 1, games):
        state, _ = play_one(plug, 4, None, s, 200, check_every_action=False)
        turns += state.turn_number
    seconds = time.perf_counter() - t0
    return {
        "deal_apply_median_us": round(statistics.median(apply_ns) / 1000, 2),
        "deal_legal_actions_median_us": round(statistics.median(legal_ns) / 1000, 2),
        "deal_ai_choose_median_us": round(statistics.median(choose_ns) / 1000, 2),
        "deal_games_per_second_4p": round(games / seconds, 1),
        "deal_player_turns_per_second": round(turns / seconds, 1),
        "deal_bench_games": games,
    }


def bench_board(games: int = 60, seed: int = 2026, landing_rolls: int = 200_000) -> dict:
    from engine.board.landing import landing_frequencies

    plug = GAMES["board"]
    rules = plug.rules
    apply_ns: list[int] = []

    def timed_apply(state, seat, action):
        t0 = time.perf_counter_ns()
        events = rules.apply(state, seat, action)
        apply_ns.append(time.perf_counter_ns() - t0)
        return events

    timed_turns = 0
    for s in game_seeds(seed, 10):
        state, _ = play_one(plug, 4, None, s, None, check_every_action=False, on_action=timed_apply)
        timed_turns += state.turn_number
    turns = 0
    ended = {"last_player": 0, "turn_cap": 0}
    t0 = time.perf_counter()
    for s in game_seeds(seed + 1, games):
        state, _ = play_one(plug, 4, None, s, None, check_every_action=False)
        turns += state.turn_number
        ended[state.end_reason or "turn_cap"] = ended.get(state.end_reason or "turn_cap", 0) + 1
    seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    landing_frequencies("classic", landing_rolls, seed, "short")
    landing_seconds = time.perf_counter() - t1
    return {
        "board_apply_median_us": round(statistics.median(apply_ns) / 1000, 2),
        # the rules' own share of a player-turn (every ``apply`` of the turn; the rest is the AI)
        "board_apply_us_per_player_turn": round(sum(apply_ns) / timed_turns / 1000, 2),
        "board_games_per_second_4p": round(games / seconds, 1),
        "board_player_turns_per_second": round(turns / seconds, 1),
        "board_turns_mean": round(turns / games, 1),
        "board_games_by_bankruptcy": ended["last_player"],
        "board_games_by_turn_cap": ended["turn_cap"],
        "board_landing_rolls_per_second": round(landing_rolls / landing_seconds, 1),
        "board_bench_games": games,
    }


def bench_render(frames: int = 30) -> dict:
    """Medians for a typical turn's picture, PNG included: milliseconds and kilobytes (budgets
    ≤ 10 ms and ≤ 60 KB for the board and the Deal table, issue 18). The board is drawn at
    ``frames`` successive positions of one game, as the chat sees them (net worth, last moves)."""
    from engine.board.rules import valuation
    from render.board import render_board
    from render.png import png_bytes
    from tools import golden

    rules = GAMES["board"].rules
    state = golden.snapshot("board", "china", 7, 100)
    positions = []
    for _ in range(frames):  # one position per move: what an edit of the board message shows
        seat = rules.waiting_for(state)[0].seat
        rules.apply(state, seat, GAMES["board"].choose(state, seat))
        positions.append((rules.view(state, None), valuation(state)))
    events = golden.EVENTS["zh-Hans"]
    render_board(positions[0][0], "zh-Hans", golden.NAMES)  # the cached empty board is drawn once per process
    times, sizes = [], []
    for view, worth in positions:
        t0 = time.perf_counter_ns()
        sizes.append(len(png_bytes(render_board(view, "zh-Hans", golden.NAMES, None, "12:34", worth, events))))
        times.append(time.perf_counter_ns() - t0)
    out = {"board_render_median_ms": round(statistics.median(times) / 1e6, 2),
           "board_png_kb": round(statistics.median(sizes) / 1024, 1)}
    from render.deal import render_table
    from render.deal_hand import render_hand

    deal = GAMES["deal"].rules
    views = []
    for seed in game_seeds(7, 12):  # a dozen positions of different games, each drawn once
        s = golden.snapshot("deal", "standard", seed, 10)
        views.append((deal.view(s, None), deal.view(s, 0)))
    render_table(views[0][0], "zh-Hans", golden.NAMES)  # card faces and labels drawn once per process
    for name, draw in (("deal_table", lambda pv, sv: render_table(pv, "zh-Hans", golden.NAMES)),
                       ("hand", lambda pv, sv: render_hand(sv, 0, "zh-Hans"))):
        times, sizes = [], []
        for public, seat in views:
            t0 = time.perf_counter_ns()
            sizes.append(len(png_bytes(draw(public, seat))))
            times.append(time.perf_counter_ns() - t0)
        out[f"{name}_render_median_ms"] = round(statistics.median(times) / 1e6, 2)
        out[f"{name}_png_kb"] = round(statistics.median(sizes) / 1024, 1)
    return out


def bench_rollouts(seconds: float = 3.0, turns: int = 30) -> dict:
    """For a search: the median time to copy a mid-game table (60 moves in, four players) with its
    hidden cards and dice drawn again, and
    rollouts a second (a copy re-dealt for one seat, then played by the AI to the end or ``turns``
    more turns; ``engine/play/rollout.py``)."""
    from engine.games import GAMES
    from engine.play.rollout import rollout

    out = {}
    for game in ("deal", "board"):
        rules, plug = GAMES[game].rules, GAMES[game]
        state = rules.new_game(4, None, 7)
        for _ in range(60):
            seat = rules.waiting_for(state)[0].seat
            rules.apply(state, seat, plug.choose(state, seat))
        clones = []
        for i in range(2000):  # a copy with what seat 0 cannot see dealt again, as a rollout starts
            t0 = time.perf_counter_ns()
            rules.resample(rules.clone(state), 0, i)
            clones.append(time.perf_counter_ns() - t0)
        done, began = 0, time.perf_counter()
        while time.perf_counter() - began < seconds:
            rollout(rules, plug.choose, state, 0, done, turns)
            done += 1
        out[f"{game}_clone_median_us"] = round(statistics.median(clones) / 1000, 2)
        out[f"{game}_rollouts_per_second"] = round(done / (time.perf_counter() - began), 1)
    return out


def bench_strong(games: int = 4, seed: int = 2026) -> dict:
    """The ``strong`` level's time to decide (budget: mean ≤ 300 ms, p99 ≤ 600 ms), over whole
    four-player games of one strong seat against three ``ai`` seats, its place rotated: every
    decision it faced, those with nothing to weigh (a single candidate) included; and how many
    of its moves differ from the heuristic's in the same position."""
    out = {}
    for game in ("deal", "board"):
        plug = GAMES[game]
        strong, times, differ = plug.policies["strong"], [], []

        def timed(state, seat, strong=strong, times=times, differ=differ, plug=plug):
            t0 = time.perf_counter()
            action = strong(state, seat)
            times.append(time.perf_counter() - t0)
            differ.append(action != plug.choose(state, seat))
            return action

        for i, s in enumerate(game_seeds(seed, games)):
            seats = ["ai"] * 4
            seats[i % 4] = "timed"
            plug.policies["timed"] = timed
            try:
                play_one(plug, 4, None, s, None, check_every_action=False, policies=seats)
            finally:
                del plug.policies["timed"]
        times.sort()
        out[f"{game}_strong_decision_mean_ms"] = round(1000 * sum(times) / len(times), 1)
        out[f"{game}_strong_decision_p99_ms"] = round(1000 * times[int(0.99 * (len(times) - 1))], 1)
        out[f"{game}_strong_decisions"] = len(times)
        out[f"{game}_strong_not_the_heuristics_move"] = sum(differ)  # decisions where the search changed the move
    return out


def run_all() -> dict:
    return {**bench_deal(), **bench_board(), **bench_rollouts(), **bench_strong(), **bench_service(),
            **bench_clocks(),
            **bench_clocks(tables=2000, keep_seats=True),
            **bench_finished_memory(), **bench_game_end(), **bench_doors(), **bench_restart(), **bench_render(),
            **bench_web(),
            **bench_two_processes(bench_database_url()), **bench_crowds(bench_database_url()),
            **bench_clock_processes(bench_database_url()),
            **bench_telegram_groups(30, 90.0), **bench_telegram_groups(30, 200.0, flood=120.0),
            **(bench_telegram_groups(30, 90.0, processes=2, url=bench_database_url()) if bench_database_url() else {})}
