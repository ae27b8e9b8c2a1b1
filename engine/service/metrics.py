"""What an operator watches, as Prometheus metrics (``prometheus_client``): the service counts its
moves, refusals, clock lateness and database errors here, the chat front ends their failed sends,
and ``/metrics`` (``bot/process/health.py``) shows them with the process's own (memory, CPU, open files).

Counters are per process; Prometheus adds up the processes of a deployment.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

disable_created_metrics()  # no ``*_created`` series beside every counter: nobody reads them here

MOVES = Counter("tycoon_moves", "Moves stored, by game and by who made them (person, ai, clock)", ["game", "by"])
REFUSALS = Counter("tycoon_refusals", "Presses and moves refused, by reason (a rule id or the service's key)",
                   ["reason"])
CLOCK_LATENESS = Histogram("tycoon_clock_lateness_seconds", "How late clocks fired after they were due",
                           buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.5, 5.0, 10.0, 30.0))
DATABASE_ERRORS = Counter("tycoon_database_errors", "Times the database could not be reached or refused a write",
                          ["where"])
SEND_FAILURES = Counter("tycoon_send_failures", "Messages a chat platform did not take, by platform",
                        ["platform"])
TABLES_OPEN = Gauge("tycoon_tables_open", "Tables in a lobby, running or paused (as of the last count)")
LAST_SWEEP = Gauge("tycoon_last_sweep_timestamp_seconds", "When the clock task last swept the database")
for _platform in ("telegram", "discord"):  # every series shows from the start, at zero
    SEND_FAILURES.labels(_platform)
for _where in ("sweep", "move"):
    DATABASE_ERRORS.labels(_where)


def reason_of(outcome) -> str:
    """A refusal's reason for the metric: its rule id (``B-11``) or the service's key, never free text."""
    return str(outcome.rule or outcome.key or "unknown")[:40]
