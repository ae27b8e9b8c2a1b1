"""Where a token ends its rolls, counted over many rolls (``tycoon simulate board --landing``).

One token's movement by the real rules: the engine's own ``Roll`` (dice, doubles, three doubles,
Chance and Community Chest moves, Go To Jail) on a table where nothing costs anything: every
property belongs to a second token and is mortgaged, and both have more cash than any card can
take. Both tokens roll in turn and each roll is one sample. ``short`` pays to leave jail at once;
``long`` stays and tries for doubles. A Get-out-of-jail card is used at once with ``short``
(so it goes back under its deck, as the published tables assume). Players use the table to see
which streets pay; it also checks movement and cards against the published frequencies
(docs/reference.md).
"""

from __future__ import annotations

from engine.board.model import PayJailFine, Roll, UseJailCard
from engine.board.rules import apply, board_of, current_seat, new_game

PLENTY = 10**12


def landing_frequencies(ruleset: str, rolls: int, seed: int, jail_strategy: str = "short") -> dict:
    if jail_strategy not in ("short", "long"):
        raise ValueError("jail strategy is 'short' or 'long'")
    state = new_game(2, ruleset, seed)
    b = board_of(state)
    for sq in b.properties:
        state.owner[sq] = 1
        state.mortgaged[sq] = True
    for p in state.players:
        p.cash = PLENTY
    counts = [0] * 40
    in_jail = 0
    roll = Roll()
    fine = PayJailFine()
    card = UseJailCard()
    for _ in range(rolls):
        seat = current_seat(state)
        p = state.players[seat]
        if p.in_jail and jail_strategy == "short":
            apply(state, seat, card if p.jail_cards else fine)
        apply(state, seat, roll)
        if p.in_jail:
            in_jail += 1
        else:
            counts[p.position] += 1
    squares = {str(i): counts[i] / rolls for i in range(40)}
    squares["jail"] = in_jail / rolls
    return {"rolls": rolls, "ruleset": ruleset, "jail_strategy": jail_strategy, "seed": seed, "squares": squares}
