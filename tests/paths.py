"""Where the repository's own folders are, for tests that read its files or start its commands."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository's top folder
GOLDEN = ROOT / "tests" / "golden"
