"""The ``tycoon`` command's entry point, kept to the standard library: Ctrl-C while the program is
still loading (``bot.process.cli`` pulls in the engines, the database layer and the pictures, a fraction of
a second) ends it with one line and status 130, not a traceback. Once loaded, ``bot.process.cli`` and the
console game handle Ctrl-C themselves (the move in progress completes or is rolled back)."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from bot.process.cli import main as run
    except KeyboardInterrupt:
        # nothing was opened yet, so nothing is lost; the words layer may not be loaded, so both
        # languages our users read, on one line
        print("已中断，尚未开始任何游戏。Stopped before anything started.", file=sys.stderr)
        sys.exit(130)
    return run()
