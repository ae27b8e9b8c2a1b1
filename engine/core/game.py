"""A game, declared once: its rules, how it is shown, how the machine plays it, what a group may
switch, and the few capabilities the service and the screens ask of a game instead of its name.

Each game package declares one ``Game`` (``engine/deal/game.py``, ``engine/board/game.py``) and
``engine/games.py`` registers them; every layer above keeps one registry keyed by the same names
(the words, the pictures, the console's kit, the web page's atlas) and the conformance test
(``tests/test_games.py``) checks that each has every registered game, a toy third game included.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.contract import GameRules
from engine.core.feats import FeatKit
from engine.core.presentation import Presentation

Policy = Callable[[Any, int], Any]  # (state, seat) -> the action an AI seat makes


@dataclass(frozen=True)
class Toggle:
    """One option a group may switch: a ``bool`` field of the game's options struct."""

    name: str  # the struct's field, also what ``/newgame … name=on`` types
    code: str  # the button's short id ([a-z0-9], at most 8): stable, never reused for another option
    rule: str  # the rule id in docs/rules.md it belongs to

    @property
    def label_key(self) -> str:
        return f"opt.{self.name}"

    @property
    def help_key(self) -> str:
        return f"opt.{self.name}.help"


@dataclass(frozen=True)
class Game:
    """Everything the layers above the rules need of one game (see the module docstring)."""

    rules: GameRules
    presentation: Presentation
    choose: Policy  # the AI (the ``ai`` level)
    violations: Callable[[Any], list[str]]  # the invariants a state breaks (none: an empty list)
    turn_of: Callable[[Any], int]  # the turn counter
    turn_ended: Callable[[Any], int | None]  # seat whose turn just ended, from an event, else None
    turn_end_check: Callable[[Any, int], bool]  # a fact to check at the end of each turn
    turn_cap: int = 200  # past this turn a game is ended (the service's loop, the simulator)
    at_cap: Callable[[Any], Any] | None = None  # the move that ends a capped game (None: left unfinished)
    policies: dict[str, Policy] = field(default_factory=dict)  # AI levels besides ``ai``: basic, strong
    strong: Any = None  # the ``strong`` level's search kit (``engine.play.search.SearchKit``)
    is_trade: Callable[[Any], bool] | None = None  # does this action close a trade (counted per game)?
    # the AI's choice among the listed actions only (what a button press can be); default: ``choose``
    press: Policy | None = None
    options_type: type | None = None  # the options struct (a rule set's values and a table's changes)
    resolve_options: Callable[[Any], Any] | None = None  # a rule set's name, a dict or a struct -> the struct
    toggles: tuple[Toggle, ...] = ()  # what a group may switch, in the order the lobby shows them
    # the one move a player composes instead of picking it from ``legal_actions`` (the board's trade
    # offer, B-15): the service's ``offer`` takes only this type; None for a game without one
    offer_type: type | None = None
    # an amount a player types instead of pressing one of the offered steps (the board's own bid,
    # B-04): the decision kind it answers and the move it makes; None for a game without one
    amount_kind: str | None = None
    amount_move: Callable[[int], Any] | None = None
    # (a seat's view, seat) -> (the least amount the rules take now, the most the seat could pay)
    amount_bounds: Callable[[dict, int], tuple[int | None, int | None]] | None = None
    # the options of a tournament round's tables before the organiser's (round, rounds) -> dict
    round_defaults: Callable[[int, int], dict] = lambda round_no, rounds: {}
    card_clock: str | None = None  # the option that holds a tournament's seconds per card (D-16)
    landing: Callable[..., dict] | None = None  # where a token's rolls end (a game of squares)
    # the achievements earned in one game, read from its log (engine/core/feats.py, issue 48)
    feats: FeatKit | None = None

    @property
    def name(self) -> str:
        return self.rules.name

    def choose_listed(self, state: Any, seat: int) -> Any:
        return (self.press or self.choose)(state, seat)
