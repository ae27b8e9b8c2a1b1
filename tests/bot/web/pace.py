"""A person's pace for the web's rate limits in tests: ``bot.web.hub.RateLimit`` (a token bucket
per page socket and per address, 4 messages a second) reads a ``Pace`` clock, which is real time
plus the pauses a person would make, so that a test need not wait them out in real seconds."""

from __future__ import annotations

import time

import pytest

from bot.web.hub import RateLimit


class Pace:
    """Real time, plus ``pause``'s seconds, plus ``step`` seconds more at every reading (``step``:
    each message a rate limit counts comes that long after the one before, as a person's would)."""

    def __init__(self, step: float = 0.0) -> None:
        self.step, self.paused = step, 0.0

    def __call__(self) -> float:
        now = time.monotonic() + self.paused
        self.paused += self.step
        return now

    def pause(self, seconds: float) -> None:
        self.paused += seconds


def paced(monkeypatch: pytest.MonkeyPatch, step: float = 0.0) -> Pace:
    """Every rate limit made from now on in this test reads one ``Pace`` clock, returned."""
    clock = Pace(step)
    defaults = RateLimit.__init__.__defaults__  # (rate, burst, clock)
    monkeypatch.setattr(RateLimit.__init__, "__defaults__", (*defaults[:-1], clock))
    return clock
