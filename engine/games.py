"""The registry of games: each game package declares one ``Game`` (``engine.core.game``), registered
here under its rules' name; every layer above keys its own registry by the same names. A test
game registers itself the same way (``register``), and ``tests/test_games.py`` plays a short game
of every registered game through every layer."""

from __future__ import annotations

from engine.board.game import BOARD_GAME
from engine.core.game import Game
from engine.deal.game import DEAL_GAME

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry (a game of the same name is replaced)."""
    GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    GAMES.pop(name, None)


for _game in (DEAL_GAME, BOARD_GAME):
    register(_game)

# the AI's strengths, weakest first: a seat's level in the lobby, ``--seats`` and ``--ai-level``
LEVELS = ("basic", "ai", "strong")


def chooser(game: str, level: str | None = None):
    """The policy ``(state, seat) -> action`` of an AI seat of ``level`` (None: the default, ``ai``)."""
    spec = GAMES[game]
    return spec.choose if level in (None, "ai") else spec.policies[level]
