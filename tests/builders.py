"""Build Deal states card by card for rule tests, keeping all 106 cards accounted for.

``Table(players=3).hand(0, "sly_deal").group(1, "red", "property_kentucky", ...).state()``
gives a state on seat 0's turn with exactly those cards placed and the rest in the draw pile.
"""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.deal import DEAL
from engine.deal.cards import KEY, N_CARDS
from engine.deal.model import Accept, DealState, Group
from engine.deal.rules import new_game


class Table:
    def __init__(self, players: int = 3, ruleset: str | dict = "standard", seed: int = 0) -> None:
        s = new_game(players, ruleset, seed)
        for p in s.players:
            p.hand, p.bank, p.groups = [], [], []
        s.draw_pile, s.discard_pile, s.pending = [], [], []
        s.order = list(range(players))
        s.turn_index, s.turn_number, s.phase, s.plays_left = 0, 1, "play", 3
        self._s = s
        self._free = list(range(N_CARDS))

    def take(self, key: str) -> int:
        for c in self._free:
            if KEY[c] == key:
                self._free.remove(c)
                return c
        raise KeyError(f"no free card {key!r}")

    def hand(self, seat: int, *keys: str) -> Table:
        self._s.players[seat].hand += [self.take(k) for k in keys]
        return self

    def bank(self, seat: int, *keys: str) -> Table:
        self._s.players[seat].bank += [self.take(k) for k in keys]
        return self

    def group(self, seat: int, colour: str | None, *keys: str, house: bool = False, hotel: bool = False) -> Table:
        g = Group(colour=colour, cards=[self.take(k) for k in keys])
        if house:
            g.house = self.take("house")
        if hotel:
            g.hotel = self.take("hotel")
        self._s.players[seat].groups.append(g)
        return self

    def discard(self, *keys: str) -> Table:
        self._s.discard_pile += [self.take(k) for k in keys]
        return self

    def turn(self, seat: int, plays_left: int = 3) -> Table:
        self._s.turn_index = self._s.order.index(seat)
        self._s.plays_left = plays_left
        return self

    def state(self, draw_pile: bool = True) -> DealState:
        if draw_pile:
            self._s.draw_pile = sorted(self._free)
        else:
            self._s.discard_pile += sorted(self._free)
        self._free = []
        return self._s


def card_of(state: DealState, seat: int, key: str, where: str = "hand") -> int:
    p = state.players[seat]
    pool = {"hand": p.hand, "bank": p.bank}.get(where) or [c for g in p.groups for c in g.cards]
    return next(c for c in pool if KEY[c] == key)


def rejects(state: DealState, seat: int, action, rule: str) -> RuleError:
    """The action is refused naming ``rule``, and the state is byte-identical afterwards."""
    before = DEAL.encode_state(state)
    with pytest.raises(RuleError) as info:
        DEAL.apply(state, seat, action)
    assert info.value.rule == rule, f"expected {rule}, got {info.value.rule}: {info.value}"
    assert DEAL.encode_state(state) == before
    return info.value


def legal(state: DealState, seat: int, action) -> bool:
    return action in DEAL.legal_actions(state, seat)


def accept_windows(state: DealState) -> None:
    """D-13 (``open_answers``): every target asked about an action who holds no Just Say No
    answers the only way they can, by accepting it; those who hold one are left to choose."""
    while True:
        d = next((d for d in state.pending if d.stage == "respond"
                  and not any(KEY[c] == "just_say_no" for c in state.players[d.target].hand)), None)
        if d is None or state.phase == "over":
            return
        DEAL.apply(state, d.target, Accept(demand=d.id))


def settle(state: DealState) -> None:
    """Answer every open demand the way a player who runs out of time would."""
    while state.pending and state.phase != "over":
        decision = DEAL.waiting_for(state)[0]
        DEAL.apply(state, decision.seat, decision.timeout)
