"""How strong the ``strong`` level is at other sizes than the shipped ones: one strong seat (its
place rotated) against three ``ai`` seats, with the search's worlds, turns and margin given.
``tycoon simulate --seats strong,ai,ai,ai`` measures the shipped sizes; this is how they were
chosen (docs/figures.md, "AI strength"):

    python -m tools.bench.strength deal --games 120 --worlds 64 --horizon 8 --seed 7

It prints the strong seat's share of the wins (shared wins split) and its decision times. With
``--paired`` it also plays every game again with an ``ai`` seat in the strong seat's place (the
same seed, so the same dice until the two games part): the difference of the two seats' results
game by game measures what the search adds with less noise than the share alone, as both games
share their luck (a control variate: the ``ai`` seat's share is 25 % by symmetry). Printed: the
``ai`` seat's share in the same games, the mean difference with its 95 % interval, and how closely
the two results go together. With ``--prior`` the measured seat plays without searching: each
decision's first candidate, the heuristic's move as the game's kit adjusts it (on the board, its
offers asked at the dearest price the partner takes), so that what the kit adds before any search
is measured apart.
"""

from __future__ import annotations

import argparse
import statistics
import time

import msgspec

from engine.games import GAMES
from engine.play import search
from engine.play.simulation import game_seeds, play_one


def strength(game: str, games: int, worlds: int | None, horizon: int | None, seed: int,
             margin: float | None = None, paired: bool = False, prior: bool = False) -> dict:
    """The measured seat's share (the shipped sizes where ``worlds``, ``horizon`` or ``margin`` is
    None); ``prior``: it plays the kit's first candidate of each decision, without searching."""
    plug, shipped = GAMES[game], GAMES[game].strong
    kit = msgspec.structs.replace(shipped, worlds=worlds or shipped.worlds, horizon=horizon or shipped.horizon,
                                  margin=shipped.margin if margin is None else margin)
    worlds, horizon, margin = kit.worlds, kit.horizon, kit.margin
    decide = search.prior(kit) if prior else search.policy(kit)
    times: list[float] = []

    def strong(state, seat):
        t0 = time.perf_counter()
        action = decide(state, seat)
        times.append(time.perf_counter() - t0)
        return action

    plug.policies["measured"] = strong
    won: list[float] = []  # the strong seat's result in each game (a shared win split)
    twin: list[float] = []  # the same seat's, an ``ai`` in its place, same seed (``paired``)
    try:
        for i, s in enumerate(game_seeds(seed, games)):
            seats = ["ai"] * 4
            seats[i % 4] = "measured"
            won.append(_result(plug, s, seats, i % 4))
            if paired:
                twin.append(_result(plug, s, ["ai"] * 4, i % 4))
    finally:
        del plug.policies["measured"]
    times.sort()
    out = {"game": game, "games": games, "prior": prior, "worlds": worlds, "horizon": horizon, "margin": margin,
           "seed": seed,
           "strong_win_share": round(sum(won) / games, 4), "decisions": len(times),
           "decision_mean_ms": round(1000 * sum(times) / len(times), 1),
           "decision_p99_ms": round(1000 * times[int(0.99 * (len(times) - 1))], 1)}
    if paired and games > 1:
        diffs = [a - b for a, b in zip(won, twin, strict=True)]
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / games ** 0.5
        together = statistics.correlation(won, twin) if len(set(won)) > 1 and len(set(twin)) > 1 else 0.0
        out.update({"ai_in_its_place_win_share": round(sum(twin) / games, 4),
                    "difference": round(mean, 4), "difference_95": [round(mean - half, 4), round(mean + half, 4)],
                    "correlation": round(together, 3)})
    return out


def _result(plug, seed: int, seats: list[str], seat: int) -> float:
    """``seat``'s share of the win in one game with these seat types."""
    state, _ = play_one(plug, 4, None, seed, None, check_every_action=False, policies=seats)
    winners = plug.rules.result(state).winners
    return 1 / len(winners) if seat in winners else 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=["deal", "board"])
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--worlds", type=int, default=None, help="the shipped level's by default")
    p.add_argument("--horizon", type=int, default=None, help="the shipped level's by default")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--margin", type=float, default=None, help="the shipped level's by default")
    p.add_argument("--paired", action="store_true", help="also play each game with an ai in the strong seat")
    p.add_argument("--prior", action="store_true", help="the measured seat plays without searching")
    args = p.parse_args()
    print(strength(args.game, args.games, args.worlds, args.horizon, args.seed, args.margin, args.paired, args.prior))


if __name__ == "__main__":
    main()
