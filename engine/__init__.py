"""The game engine: pure rules (core, deal, board) and the async service on top of them.

The rules packages never import asyncio, a clock, a database, Pillow or a chat library;
``tests/engine/test_purity.py`` enforces it. Importing the package does nothing else.
"""
