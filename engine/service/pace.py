"""Slow games (issue 48): a table's pace, worked out without any I/O (``slow.py`` fires its clocks).

**The pace.** A lobby's creator chooses, before the start, how long each move may take: the chat's
own clocks (``0``, the default) or one of ``PACE_HOURS`` (1 h, 8 h, 24 h a move). In the lobby it is
kept with the chosen options (``options["pace"]``, hours), beside a timed match's length; at the
start it leaves the rule options (the rules know nothing of it) for the table's clocks: every
decision policy gets the pace, and ``clocks["pace"]`` (seconds) is the marker the rest of the code
asks (``pace_of``, ``is_slow``). A slow game is never a timed match: choosing a pace turns the
match clock (and the Deal tournament's card clock, D-16) off, choosing a timed match turns the
pace off, each said to the creator. Tournament tables have their organisers' clocks: no pace.

**What a pace changes.** Besides the decision clocks, a slow table has two clocks of its own kinds,
derived from its state like the others (``slow_infos``; stored, leased and fired once by any
process's sweep, set afresh by every move, brought back by a restart):

- ``remind:<decision kind>``: at half a decision's time, once per decision clock and person (their
  first decision when they owe several), a private reminder that they owe a move. Whom the table
  reminded at which version is kept on the table row (``tables.slow["reminded"]``), so a restart
  or a second process never reminds twice;
- ``summary``: once a day (24 h after the start, then every 24 h: ``tables.slow["summary_at"]``),
  one message to the group instead of a message per move: what happened since the last one
  (``tables.slow["since"]``, a version), the standings, whose move it is.

A player of a slow game loses their seat to the AI after ``MISSES_SLOW`` missed clocks in a row
(not three): a single miss only applies the rules' time-out action. A table whose people are all
away waits for them at least ``MISSES_SLOW`` paces before it is abandoned (``abandon_after``).

**Rolling deploys.** A process of a release before slow games would fire a reminder's clock as a
time-out. Slow tables are therefore made in table format ``FORMAT`` (storage/formats.py), which such
a process does not read: a lobby made while one still runs cannot be slow (the creator is told).
"""

from __future__ import annotations

from typing import Any

from engine import options as table_options
from engine.core.values import SYSTEM
from engine.games import GAMES
from engine.service.storage.rows import ClockInfo

PACE_HOURS = (0, 1, 8, 24)  # the paces a lobby's creator may choose; 0: the chat's own clocks
HOUR = 3600.0
SUMMARY_EVERY = 24 * HOUR  # a slow table's group hears of it once a day
MISSES_SLOW = 2  # missed clocks in a row before the AI keeps a slow game's seat (else clock_rules')
REMIND = "remind"  # the kind of a reminder's clock: ``remind:<decision kind>``
SUMMARY = "summary"  # the kind of the daily summary's clock
KINDS = (REMIND, SUMMARY)
FORMAT = 3  # the table format a slow table needs (storage/formats.py)
OPTIONAL = ("rent",)  # decisions a player may let lapse on purpose (B-06 rent claims): no reminder


def pace_of(row) -> int:
    """A table's seconds a move (0: not a slow game): chosen in its lobby, kept in its clocks once
    it started."""
    if getattr(row, "status", "") == "lobby":
        hours = (row.options or {}).get("pace", 0)
        return int(hours) * 3600 if isinstance(hours, int) and not isinstance(hours, bool) else 0
    seconds = (row.clocks or {}).get("pace", 0)
    return int(seconds) if isinstance(seconds, int | float) else 0


def is_slow(row) -> bool:
    return pace_of(row) > 0


def misses_before_ai(row, usual: int) -> int:
    """Missed clocks in a row before the AI keeps a seat: ``MISSES_SLOW`` in a slow game."""
    return MISSES_SLOW if is_slow(row) else usual


def abandon_after(row, usual: float) -> float:
    """How long a table whose people are all away waits for one of them: in a slow game never less
    than the time it took to lose a seat (``MISSES_SLOW`` paces)."""
    return max(usual, MISSES_SLOW * pace_of(row))


def choose(row, user: str, hours: int, options: dict, can_be_slow: bool) -> tuple[dict | None, str | None, dict]:
    """The lobby's options after its creator chose a pace of ``hours`` (one of ``PACE_HOURS``):
    (the new options, or None with the refusal's key; the outcome's params). A pace turns a timed
    match off, and the game's card clock (D-16) with it."""
    if hours not in PACE_HOURS:
        return None, "service.bad_token", {}
    if user != row.creator:
        return None, "opt.creator_only", {}
    if hours and "#t" in row.chat_key:  # a tournament's table: its organisers' clocks
        return None, "slow.not_here", {}
    if hours and not can_be_slow:
        return None, "slow.needs_update", {}
    card = GAMES[row.game].card_clock
    out = {k: v for k, v in (options or {}).items() if k != "pace" and not (card and k == card)}
    params: dict[str, Any] = {"hours": hours}
    if hours:
        if table_options.match_minutes(row.game, row.ruleset, options):
            params["match_off"] = True  # said to the creator: a slow game has no match clock
        out["match_minutes"] = 0
        out["pace"] = hours
        if card:
            out[card] = 0
    return out, None, params


def without_pace(options: dict | None, game: str) -> tuple[dict, bool]:
    """A lobby's options once its creator chose a timed match: the pace (and the card clock it had
    turned off) gone; whether there was one."""
    card = GAMES[game].card_clock
    options = dict(options or {})
    had = bool(options.pop("pace", 0))
    if had and card:
        options.pop(card, None)
    return options, had


def started(seconds: int, clocks: dict, now: float) -> tuple[dict, dict]:
    """A slow table's clocks (every policy at the pace, and the marker) and its slow state when it
    starts: the first summary a day later."""
    paced = {**{policy: seconds for policy in clocks if policy != "pace"}, "pace": seconds}
    return paced, {"summary_at": now + SUMMARY_EVERY, "since": 0, "reminded": {}}


def slow_infos(row, decisions: list[tuple[Any, float]], version: int, now: float) -> list[ClockInfo]:
    """A slow table's own clocks at ``version``: a reminder at half time for each person's first
    decision (``decisions``: each decision a person owes with its seconds), unless the table
    reminded them at this version already, and the daily summary."""
    if not is_slow(row):
        return []
    state = row.slow or {}
    reminded = state.get("reminded") or {}
    out, seen = [], set()
    for decision, seconds in decisions:
        if decision.seat in seen or decision.kind in OPTIONAL:
            continue
        seen.add(decision.seat)
        if reminded.get(str(decision.seat)) != version:
            out.append(ClockInfo(version, decision.seat, f"{REMIND}:{decision.kind}", False, now + seconds / 2))
    if state.get("summary_at") is not None:
        out.append(ClockInfo(version, SYSTEM, SUMMARY, False, float(state["summary_at"])))
    return out


def kind_of(clock_kind: str) -> str:
    """The family of a clock's kind (``remind:turn`` is a ``remind``)."""
    return clock_kind.split(":", 1)[0]
