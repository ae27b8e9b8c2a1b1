"""What every service call answers (``Outcome``), and the few names all parts of the service share.

A leaf: every part of the service (lobby, clocks, schedules, tournaments…) imports it, and it
imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.games import GAMES

ACTIVE = ("lobby", "running")  # a chat has at most one table in these
IN_PROGRESS = ("running", "paused")  # a game in progress; "paused": a tournament admin stopped its clocks


@dataclass
class Outcome:
    """What happened to a request: applied (with events), or refused with a translatable reason."""

    ok: bool
    key: str | None = None  # message key when refused ("service.out_of_date", "deal.err.…")
    rule: str | None = None  # the rule id when the rules refused
    params: dict = field(default_factory=dict)
    events: list = field(default_factory=list)
    table: int | None = None
    version: int | None = None


def game_and_ruleset(game: str, ruleset: str | None) -> tuple[str, Outcome | None]:
    """The rule set to play (the game's first when none is named), or why not."""
    if game not in GAMES:
        return "", Outcome(False, "service.unknown_game", params={"game": game})
    rulesets = GAMES[game].rules.rulesets
    ruleset = ruleset or rulesets[0]
    if ruleset not in rulesets:
        return ruleset, Outcome(False, "service.unknown_ruleset", params={"ruleset": ruleset,
                                                                         "choices": ", ".join(rulesets)})
    return ruleset, None


def is_ai_user(user: str) -> bool:
    """An AI seat's user id (``ai:<n>``), as every part of the service tells it from a person's."""
    return str(user).startswith("ai:")
