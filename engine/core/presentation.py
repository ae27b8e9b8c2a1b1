"""How a game is shown, beside its rules (``contract.GameRules``): the facts a screen needs that only
the game knows. Front ends ask these questions instead of branching on the game's name.

- ``where(decision)``: where a decision is answered: ``table`` (buttons on the table message, in
  front of everyone: every decision of the board game but a trade offer), ``prompt`` (the player
  is asked under the table and answers in their own screen: a Deal Just Say No window, D-13, where
  every target is asked alike so that nothing tells who holds a Just Say No) or ``private`` (in the
  player's private message only: Deal payments and discards, board trade offers, B-15);
- ``hand_from_start``: every player keeps a private message from the start (the Deal hand);
  otherwise one is kept once the player asks for their options;
- ``redact(event, viewer)``: the event as ``viewer`` (a seat, or None for the group) may see it,
  or None when they may not see it at all (drawn cards, another pair's trade haggling);
- ``worth(state)``: each seat's value as the game counts it (B-17, D-16);
- ``extras(state, view, seat)``: the seat's controls beside its moves: ``pile`` (look through the
  Deal discard pile, D-18), ``trade`` (open the trade builder, B-15), ``counter:<id>`` (answer an
  offer with one of its own);
- ``subject(action)``: what a move is about, for a screen that lets a player tap the thing instead
  of reading a list: ``c<card>`` (a card, wherever it lies), ``s<square>``, ``g<group>`` (every
  square of a colour group), or None (a move about nothing one can tap: roll, end the turn);
- ``rank(action)``: how a screen weighs a move among the others: 0 the expected answer (roll, buy,
  pay), 1 an ordinary one, 2 one to keep apart (end the turn with plays left, bankruptcy);
- ``drafts``: the game's rules for building an offer one change at a time (the board's
  ``engine.board.trade_draft``: a ``Draft``, its changes and the ``Desk`` a screen shows), or None
  for a game without trading.

Pure: no I/O; what a front end shows is worded by ``words`` from the answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.contract import Decision

WHERE = ("table", "prompt", "private")


@dataclass(frozen=True)
class Presentation:
    """The presentation facts of one game (see the module docstring)."""

    name: str
    where: Callable[[Decision], str]
    hand_from_start: bool
    redact: Callable[[Any, int | None], Any | None]
    worth: Callable[[Any], dict[int, int]]
    extras: Callable[[Any, dict, int], list[str]]
    subject: Callable[[Any], str | None] = lambda action: None
    rank: Callable[[Any], int] = lambda action: 1
    drafts: Any = None

    def events_for(self, events, viewer: int | None) -> list:
        """``events`` as ``viewer`` may see them, those hidden from them left out."""
        out = []
        for event in events:
            shown = self.redact(event, viewer)
            if shown is not None:
                out.append(shown)
        return out
