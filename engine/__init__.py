"""The game engine: pure rules (core, deal, board) and, later, the async service on top of them.

The rules packages never import asyncio, a clock, a database, Pillow or a chat library;
``tests/test_purity.py`` enforces it.
"""

from engine import compiled as _compiled

_compiled.install()  # before any rules module loads: compiled where built and unchanged (engine/compiled.py)
