"""The side-by-side comparison with the peer simulators (issue 33, ``tools/bench/peers.py``), run
against two small stand-ins laid out as the peers are: the drivers set the peers up for four
standard players, count a board player-turn only for a player still in, and report both sides."""

from __future__ import annotations

import textwrap

import pytest

from tools.bench.peers import compare

_SETTINGS = """
class StandardPlayerSettings:
    unspendable_cash = 200

class GameSettings:
    players_list = [("Hero", StandardPlayerSettings), ("Alice", StandardPlayerSettings)]
    starting_money = [1200, 200]
    starting_properties = {0: [11, 13, 14]}
    shuffle_players = True
"""

_LOG_SETTINGS = """
class LogSettings:
    KEEP_GAME_LOG = True
    BANKRUPTCIES_PATH = "/nonexistent/bankruptcies.tsv"
"""

_PLAYER = """
class Player:
    def __init__(self, name, settings):
        self.name, self.settings, self.is_bankrupt = name, settings, False

    def make_a_move(self, board, players, dice, log):
        return "bankrupt" if self.is_bankrupt else "continue"
"""

# ten rounds; the fourth player is out after five, and is still asked to move, as the peer does
_GAME = """
from settings import GameSettings
from monopoly.core.player import Player
from monopoly.log_settings import LogSettings

def monopoly_game(number_and_seed):
    assert len(GameSettings.players_list) == 4 and GameSettings.starting_money == 1500
    assert not GameSettings.starting_properties and not GameSettings.shuffle_players
    assert not LogSettings.KEEP_GAME_LOG
    open(LogSettings.BANKRUPTCIES_PATH, "a").close()
    players = [Player(name, kind) for name, kind in GameSettings.players_list]
    for turn in range(10):
        players[3].is_bankrupt = turn >= 5
        for p in players:
            p.make_a_move(None, players, None, None)
"""

_DEAL = """
class Player:
    def __init__(self, name):
        self.name = name

class Game:
    def __init__(self, players=[], random=None):
        assert len(players) == 4
        self.players, self.random = players, random

    def play(self):
        for _ in range(50):
            print("chatter", self.random.random())
        return self.players[0]
"""


def _tree(root, files: dict[str, str]):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def test_the_peers_given_by_path_are_timed_beside_our_engines(tmp_path):
    board = _tree(tmp_path / "monopoly", {"settings.py": _SETTINGS, "monopoly/__init__.py": "",
                                          "monopoly/core/__init__.py": "", "monopoly/core/player.py": _PLAYER,
                                          "monopoly/core/game.py": _GAME, "monopoly/log_settings.py": _LOG_SETTINGS})
    deal = _tree(tmp_path / "monodeal", {"monodeal/__init__.py": "", "monodeal/game.py": _DEAL})
    figures = compare(str(board), str(deal), games=2, rounds=2)
    row = figures["board"]
    assert row["peer"]["player_turns_per_game"] == 4 * 5 + 3 * 5  # the player out is not counted
    assert row["peer"]["games"] == row["ours"]["games"] == 4
    assert row["ours"]["player_turns_per_game"] > 50  # our own games, played to their end
    assert row["our_speed_per_player_turn"] == pytest.approx(
        row["peer"]["us_per_player_turn"] / row["ours"]["us_per_player_turn"], rel=0.02, abs=0.002)
    assert figures["deal"]["ours"]["ms_per_game"] > 0 and "us_per_player_turn" not in figures["deal"]["peer"]
    assert not (board / "bankruptcies.tsv").exists()  # the peer wrote into a scratch folder, not its tree


def test_a_peer_that_does_not_run_says_why(tmp_path):
    deal = _tree(tmp_path / "monodeal", {"monodeal/__init__.py": "", "monodeal/game.py": "raise ImportError('moved')"})
    with pytest.raises(RuntimeError, match="moved"):
        compare(None, str(deal), games=1, rounds=1)
    assert compare() == {}  # no peer given: nothing runs


def test_a_wrong_peer_path_is_one_line_naming_the_checkout_wanted(tmp_path, capfd):
    """Through ``tycoon bench``, which runs ``python -m tools.bench`` from the checkout."""
    from bot.process.cli import main

    assert main(["bench", "--peer-board", str(tmp_path / "nowhere"), "--json"]) == 2
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0 and "no such folder" in err and "gamescomputersplay/monopoly" in err
