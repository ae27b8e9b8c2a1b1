"""Our engines side by side with the peer simulators (issue 33): the board game against
gamescomputersplay/monopoly and Deal against shuckc/monodeal, four-player games played by each
side's own AI, CPU time.

Nothing is fetched: each peer runs only when a checkout of its sources is given by path. Every
batch of games runs in a fresh Python process (ours too), so neither side profits from the
other's imports or warm caches, and the batches alternate (ours, the peer's, ours, ...) so that a
machine that slows down midway slows both alike. Reported per side: CPU seconds per game and,
where the peer lets us count them, per player-turn, and our speed over the peer's.

    tycoon bench --peer-board ~/src/monopoly --peer-deal ~/src/monodeal --json

The drivers below reach into the peers' code as it was laid out when this was written
(``monopoly/core/game.py`` with ``monopoly_game((number, seed))`` and ``settings.py``;
``monodeal/game.py`` with ``Game(players, random).play()``); a peer that moved on fails with its
own traceback, shown as it is.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# one batch of our games: argv = game, games, seed
_OURS = """
import json, sys, time
from engine.games import GAMES
from engine.play.simulation import game_seeds, play_one
game, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
plug, turns = GAMES[game], 0
t0 = time.process_time()
for s in game_seeds(seed, games):
    state, _ = play_one(plug, 4, None, s, None, check_every_action=False)
    turns += state.turn_number
print(json.dumps({"seconds": time.process_time() - t0, "games": games, "player_turns": turns}))
"""

# gamescomputersplay/monopoly: four players of its standard behaviour, standard money, no head
# start, no game log; a player-turn is a move by a player still in. argv = source, games, seed
_PEER_BOARD = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
games, seed = int(sys.argv[2]), int(sys.argv[3])
import settings
from monopoly.core import game, player
from monopoly.log_settings import LogSettings
LogSettings.KEEP_GAME_LOG = False
LogSettings.BANKRUPTCIES_PATH = os.path.join(os.getcwd(), "bankruptcies.tsv")
kind = settings.GameSettings.players_list[-1][1]
settings.GameSettings.players_list = [(name, kind) for name in ("A", "B", "C", "D")]
settings.GameSettings.starting_money = 1500
settings.GameSettings.starting_properties = {}
settings.GameSettings.shuffle_players = False
moves = [0]
move = player.Player.make_a_move
def counted(self, *args, **kwargs):
    if not self.is_bankrupt:
        moves[0] += 1
    return move(self, *args, **kwargs)
player.Player.make_a_move = counted
t0 = time.process_time()
for i in range(games):
    game.monopoly_game((i, seed + i))
print(json.dumps({"seconds": time.process_time() - t0, "games": games, "player_turns": moves[0]}))
"""

# shuckc/monodeal: four of its players; its chatter (a print per step) goes to /dev/null, as
# its cost is part of its engine. argv = source, games, seed
_PEER_DEAL = """
import contextlib, json, os, random, sys, time
sys.path.insert(0, sys.argv[1])
games, seed = int(sys.argv[2]), int(sys.argv[3])
from monodeal.game import Game, Player
t0 = time.process_time()
with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
    for i in range(games):
        Game(players=[Player(name) for name in ("A", "B", "C", "D")], random=random.Random(seed + i)).play()
print(json.dumps({"seconds": time.process_time() - t0, "games": games}))
"""


def _batch(driver: str, args: list[str], cwd: str) -> dict:
    """One batch in a fresh process; its last output line is the batch's figures."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", driver, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"a batch failed ({' '.join(args[:1])}):\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _side(batches: list[dict]) -> dict:
    """Per game and per player-turn (when counted): the median over the batches, in milliseconds
    and microseconds."""
    out = {"games": sum(b["games"] for b in batches),
           "ms_per_game": round(statistics.median(1000 * b["seconds"] / b["games"] for b in batches), 2)}
    if all("player_turns" in b for b in batches):
        out["us_per_player_turn"] = round(statistics.median(1e6 * b["seconds"] / b["player_turns"]
                                                            for b in batches), 2)
        out["player_turns_per_game"] = round(sum(b["player_turns"] for b in batches) / out["games"], 1)
    return out


def compare(peer_board: str | None = None, peer_deal: str | None = None, games: int = 20,
            rounds: int = 3, seed: int = 2026) -> dict:
    """Our engine and each peer given, ``rounds`` alternating batches of ``games`` each."""
    plan = [("board", peer_board, _PEER_BOARD, "gamescomputersplay/monopoly"),
            ("deal", peer_deal, _PEER_DEAL, "shuckc/monodeal")]
    for game, source, _driver, name in plan:
        if source is not None and not Path(source).expanduser().is_dir():
            raise ValueError(f"--peer-{game} {source}: no such folder; give the path of a checkout of {name}")
    out: dict = {}
    with tempfile.TemporaryDirectory() as scratch:  # where a peer may write its files
        for game, source, driver, _name in plan:
            if source is None:
                continue
            source = str(Path(source).expanduser().resolve())
            ours, theirs = [], []
            for r in range(rounds):
                ours.append(_batch(_OURS, [game, str(games), str(seed + r)], scratch))
                theirs.append(_batch(driver, [source, str(games), str(seed + r)], scratch))
            mine, peer = _side(ours), _side(theirs)
            row = {"ours": mine, "peer": peer, "peer_source": source,
                   "our_speed_per_game": round(peer["ms_per_game"] / mine["ms_per_game"], 3)}
            if "us_per_player_turn" in peer:
                row["our_speed_per_player_turn"] = round(peer["us_per_player_turn"] / mine["us_per_player_turn"], 3)
            out[game] = row
    return out
