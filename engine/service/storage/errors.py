"""What a lost, restarting, locked or full database raises, in one place: the error kinds the
service retries (``DB_ERRORS``), one line for the log (``describe``), and how often a failure of one
kind is told (``outage_told``: a full disk fails every table's move at once)."""

from __future__ import annotations

import asyncio
import errno
import time

from sqlalchemy import exc

# what a lost, restarting or unreachable database raises (the drivers' errors come wrapped in
# DBAPIError; a refused connection can come through as a plain OSError)
DB_ERRORS = (exc.DBAPIError, exc.TimeoutError, OSError, ConnectionError, asyncio.TimeoutError)


def describe(error: BaseException) -> str:
    """One line for the log: the error's kind and the first line of its message."""
    text = str(getattr(error, "orig", None) or error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200] if text else ''}"


def is_full(error: BaseException) -> bool:
    """Whether the database failed for want of space (SQLite "database or disk is full", PostgreSQL
    ``53100 disk_full`` / "No space left on device", ENOSPC): the operator must make room, and players
    are told so rather than "press again"."""
    orig = getattr(error, "orig", None) or error
    if isinstance(orig, OSError) and orig.errno == errno.ENOSPC:
        return True
    if getattr(orig, "sqlstate", None) == "53100" or getattr(orig, "pgcode", None) == "53100":
        return True
    text = str(orig).lower()
    return "database or disk is full" in text or "no space left on device" in text or "disk full" in text


OUTAGE_SPACING = 5.0  # seconds between two log lines about one kind of database failure


_outages: dict[str, list] = {}  # the failure's line -> [when it was last told, how many since]


def outage_told(error: BaseException, now: float | None = None) -> tuple[bool, int]:
    """Whether a database failure of this kind is told in the log now (at most once every
    ``OUTAGE_SPACING`` seconds: a full disk fails every table's move at once), and how many like
    it went untold since the last line."""
    now = time.monotonic() if now is None else now
    seen = _outages.setdefault(describe(error), [float("-inf"), 0])
    if now - seen[0] < OUTAGE_SPACING:
        seen[1] += 1
        return False, 0
    untold, seen[0], seen[1] = seen[1], now, 0
    return True, untold
