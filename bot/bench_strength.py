"""How strong the ``strong`` level is at other sizes than the shipped ones: one strong seat (its
place rotated) against three ``ai`` seats, with the search's worlds, turns and margin given.
``tycoon simulate --seats strong,ai,ai,ai`` measures the shipped sizes; this is how they were
chosen (docs/figures.md, "AI strength"):

    python -m bot.bench_strength deal --games 120 --worlds 64 --horizon 8 --seed 7

It prints the strong seat's share of the wins (shared wins split) and its decision times.
"""

from __future__ import annotations

import argparse
import time

import msgspec

from engine import search
from engine.games import PLUGS, STRONG
from engine.simulation import game_seeds, play_one


def strength(game: str, games: int, worlds: int, horizon: int, seed: int, margin: float | None = None) -> dict:
    plug = PLUGS[game]
    margin = STRONG[game].margin if margin is None else margin
    kit = msgspec.structs.replace(STRONG[game], worlds=worlds, horizon=horizon, margin=margin)
    times: list[float] = []

    def strong(state, seat):
        t0 = time.perf_counter()
        action = search.choose(kit, search.Seen(kit.rules, state, seat))
        times.append(time.perf_counter() - t0)
        return action

    plug.policies["measured"] = strong
    wins = 0.0
    try:
        for i, s in enumerate(game_seeds(seed, games)):
            seats = ["ai"] * 4
            seats[i % 4] = "measured"
            state, _ = play_one(plug, 4, None, s, None, check_every_action=False, policies=seats)
            result = plug.rules.result(state)
            if i % 4 in result.winners:
                wins += 1 / len(result.winners)
    finally:
        del plug.policies["measured"]
    times.sort()
    return {"game": game, "games": games, "worlds": worlds, "horizon": horizon, "margin": margin, "seed": seed,
            "strong_win_share": round(wins / games, 4), "decisions": len(times),
            "decision_mean_ms": round(1000 * sum(times) / len(times), 1),
            "decision_p99_ms": round(1000 * times[int(0.99 * (len(times) - 1))], 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=["deal", "board"])
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--worlds", type=int, required=True)
    p.add_argument("--horizon", type=int, required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--margin", type=float, default=None, help="the shipped level's by default")
    args = p.parse_args()
    print(strength(args.game, args.games, args.worlds, args.horizon, args.seed, args.margin))


if __name__ == "__main__":
    main()
