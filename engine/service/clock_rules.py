"""Which clocks a table's state implies, worked out without any I/O (``clocks.py`` stores and fires
them; ``core.apply`` stores a move's with it): one per decision a person owes, due after the
table's seconds for that decision's policy, and one per decision an AI seat owes (a safety net due
after ``AI_GRACE``), and a slow game's own clocks (``pace.py``). Also this process's name among
others on one database (``owner_name``)."""

from __future__ import annotations

import os
import secrets
import socket
from typing import TYPE_CHECKING

from engine.service import pace
from engine.service.storage.rows import ClockInfo, DeadlineRow

if TYPE_CHECKING:
    from engine.service.cache import LiveTable

# seconds per decision policy (a chat may set its own); the Deal tournament's card clock comes
# from its rule set (D-16)
DEFAULT_CLOCKS = {"turn": 60, "card": 10, "response": 20, "payment": 60, "discard": 30, "choice": 30,
                  "auction": 30}
MISSES_BEFORE_AI = 3
AI_GRACE = 10.0  # an AI seat's decision left unanswered this long is taken by any process's sweep
LEASE = 30.0  # a taken clock not applied within this long is taken over by another sweep


def owner_name() -> str:
    """This process among others on one database (host, pid and a random part for restarts)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


def clock_seconds(live: LiveTable, policy: str) -> float:
    return live.row.clocks.get(policy, DEFAULT_CLOCKS.get(policy, 60))


def wanted_clocks(live: LiveTable, now: float, version: int | None = None, seats: list | None = None,
                  status: str | None = None) -> list[DeadlineRow]:
    """The decision clocks the table's state implies now (not the match clock); ``version``,
    ``seats`` and ``status`` as they will be once a move being stored is stored."""
    return [DeadlineRow(table_id=live.row.id, version=c.version, seat=c.seat, kind=c.kind, ai=c.ai,
                              due_at=c.due_at) for c in wanted_infos(live, now, version, seats, status)]


def wanted_infos(live: LiveTable, now: float, version: int | None = None, seats: list | None = None,
                 status: str | None = None) -> list[ClockInfo]:
    """``wanted_clocks`` as plain values: what a move stores (an ORM row costs more to build than
    the rest of the move's bookkeeping)."""
    version = live.row.version if version is None else version
    seats = live.row.seats if seats is None else seats
    if (status or live.row.status) != "running" or live.state is None:
        return []
    out, people = [], []
    for decision in live.rules.waiting_for(live.state):
        ai = bool(seats[decision.seat]["ai"])
        seconds = AI_GRACE if ai else clock_seconds(live, decision.policy)
        out.append(ClockInfo(version, decision.seat, decision.kind, ai, now + seconds))
        if not ai:
            people.append((decision, seconds))
    return out + pace.slow_infos(live.row, people, version, now)  # a slow game's reminders and summary
