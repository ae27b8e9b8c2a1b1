"""A requested stop, the same whichever way a process is stopped: SIGTERM (what Docker without a
STOPSIGNAL, systemd and Kubernetes send) and SIGINT (Ctrl-C, our image's STOPSIGNAL) set one event.
The process then drains as for any requested stop: the platforms stop taking updates and answer
the ones taken, the table updates being shown go out, the clock task ends, the database closes,
and it exits 0 (issue 46: SIGTERM used to kill it at once, dropping an update its webhook had
taken)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

log = logging.getLogger(__name__)
SIGNALS = (signal.SIGTERM, signal.SIGINT)


def stop_on_signals(stop: asyncio.Event) -> None:
    """From now on SIGTERM and SIGINT set ``stop`` (in the running loop's thread)."""
    loop = asyncio.get_running_loop()
    for sig in SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # no signals here (a thread)
            loop.add_signal_handler(sig, _requested, stop, sig)


def _requested(stop: asyncio.Event, sig: signal.Signals) -> None:
    if not stop.is_set():
        log.info("stopping (%s): answering what was taken, then exiting", sig.name)
    stop.set()
