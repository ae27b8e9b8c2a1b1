"""Fits the board game's win model (``engine/board/win_model.py``) and says how well it predicts.

``python -m tools.fit_win_model --games 400 --seed 31337`` plays games of four ``ai`` seats, keeps
every seat's ``features`` at the start of every sixth turn from the twelfth, and fits the weights
of a conditional logit (the winner's chance is the softmax of the seats' weighted sums) by
gradient ascent on four fifths of the positions. It prints the weights for ``WEIGHTS`` and, on the
fifth held back, the mean log-likelihood of the real winner and how often the model's favourite
won, beside the same figures for the assets alone (``position_worth``, with its best scale). All
of it is seeded: the same command prints the same weights.
"""

from __future__ import annotations

import argparse
import json
import math

from engine.board.win_model import FEATURES, chances, features
from engine.games import GAMES
from engine.play.simulation import game_seeds, play_one

Position = dict[int, list[float]]  # seat still in -> its features


def positions(games: int, seed: int, every: int = 6, first: int = 12) -> list[tuple[Position, int]]:
    """(features of every seat still in, the game's winner) at the start of every ``every``-th turn."""
    plug = GAMES["board"]
    out: list[tuple[Position, int]] = []
    for game_seed in game_seeds(seed, games):
        seen: list[Position] = []

        def keep(state, seat, action, seen=seen):  # the simulator's move, after a look at the table
            turn = state.turn_number
            if turn >= first and turn % every == 0 and state.stage == "roll" and not state.rolled \
                    and (not seen or seen[-1][0] != turn):
                seen.append((turn, {p.seat: features(state, p.seat) for p in state.players if not p.bankrupt}))
            return plug.rules.apply(state, seat, action)

        state, _log = play_one(plug, 4, None, game_seed, None, check_every_action=False, on_action=keep)
        winners = plug.rules.result(state).winners
        if len(winners) == 1:
            out += [(position, winners[0]) for _turn, position in seen if winners[0] in position]
    return out


def _log_chance(weights: list[float], position: Position, seat: int) -> tuple[float, dict[int, float]]:
    odds = chances(position, weights)
    return math.log(odds[seat]), odds


def fit(data: list[tuple[Position, int]], rounds: int = 300, rate: float = 0.5, shrink: float = 1e-3) -> list[float]:
    """The weights that make the winners likeliest (plain gradient ascent, a little shrinkage)."""
    k = len(next(iter(data[0][0].values())))
    weights = [0.0] * k
    for _ in range(rounds):
        grad = [0.0] * k
        for position, winner in data:
            _, chances = _log_chance(weights, position, winner)
            won = position[winner]
            for j in range(k):
                grad[j] += won[j] - sum(chances[s] * f[j] for s, f in position.items())
        weights = [w + rate * (g / len(data) - shrink * w) for w, g in zip(weights, grad, strict=True)]
    return weights


def judge(weights: list[float], data: list[tuple[Position, int]]) -> dict:
    """Mean log-likelihood of the real winners, and the share of positions whose favourite won."""
    total, right = 0.0, 0
    for position, winner in data:
        logp, chances = _log_chance(weights, position, winner)
        total += logp
        right += max(chances, key=chances.get) == winner
    return {"log_likelihood": round(total / len(data), 4), "favourite_won": round(right / len(data), 4)}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=31337)
    p.add_argument("--rounds", type=int, default=300)
    args = p.parse_args(argv)
    data = positions(args.games, args.seed)
    train = [d for i, d in enumerate(data) if i % 5]
    held = [d for i, d in enumerate(data) if not i % 5]
    weights = fit(train, args.rounds)
    assets = [({s: f[:1] for s, f in position.items()}, winner) for position, winner in held]
    worth_only = [({s: f[:1] for s, f in position.items()}, winner) for position, winner in train]
    scale = fit(worth_only, args.rounds)  # the assets alone, at their best scale
    out = {
        "positions": len(data),
        "weights": dict(zip(FEATURES, [round(w, 3) for w in weights], strict=True)),
        "held_out": judge(weights, held),
        "held_out_assets_only": judge(scale, assets),
    }
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
