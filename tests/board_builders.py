"""Prepared board states and forced dice for the rule tests (the invariants keep holding).

``table(3)`` gives a fresh china game on seat 0's turn; ``own``, ``set_cash`` and ``build``
arrange it while keeping the money and building counts consistent; ``Dice`` replaces the one
source of dice in the rules for as many rolls as a test needs; ``tables_start_at`` has the service
start board tables late in a game (for chat tests that need only its end).
"""

from __future__ import annotations

import pytest

from engine.board import BOARD
from engine.board.invariants import violations
from engine.board.model import HOTEL, BoardState
from engine.core.errors import RuleError


def table(players: int = 2, ruleset: str | dict = "china", seed: int = 0) -> BoardState:
    s = BOARD.new_game(players, ruleset, seed)
    s.order = list(range(players))
    s.turn_index = 0
    return s


def set_cash(s: BoardState, seat: int, amount: int) -> None:
    """Give or take cash through the bank, so money stays accounted for."""
    s.bank_net += amount - s.players[seat].cash
    s.players[seat].cash = amount


def own(s: BoardState, seat: int, *squares: int, mortgaged: bool = False) -> None:
    for sq in squares:
        s.owner[sq] = seat
        s.mortgaged[sq] = mortgaged


def build(s: BoardState, sq: int, houses: int) -> None:
    """Put buildings on a street straight from the bank's stock (5 = a hotel)."""
    old = s.houses[sq]
    s.bank_houses += old if old < HOTEL else 0
    s.bank_hotels += 1 if old == HOTEL else 0
    s.houses[sq] = houses
    if houses == HOTEL:
        s.bank_hotels -= 1
    else:
        s.bank_houses -= houses


def place(s: BoardState, seat: int, square: int) -> None:
    s.players[seat].position = square


class Dice:
    """Forced rolls for one table: ``Dice(s, (3, 4), (6, 6))`` sets them on the state itself
    (``engine.board.rules.dice``); running out fails the test."""

    def __init__(self, s: BoardState, *rolls: tuple[int, int]) -> None:
        self.rolls = list(rolls)
        s.forced_rolls = self

    def __next__(self) -> tuple[int, int]:
        assert self.rolls, "the test ran out of forced dice"
        return self.rolls.pop(0)

    def add(self, *rolls: tuple[int, int]) -> None:
        self.rolls += list(rolls)


def act(s: BoardState, seat: int, action) -> list:
    events = BOARD.apply(s, seat, action)
    assert violations(s) == []
    return events


def rejects(s: BoardState, seat: int, action, rule: str) -> RuleError:
    before = BOARD.encode_state(s)
    with pytest.raises(RuleError) as info:
        BOARD.apply(s, seat, action)
    assert info.value.rule == rule, f"expected {rule}, got {info.value.rule}: {info.value}"
    assert BOARD.encode_state(s) == before
    return info.value


def kinds(events: list) -> list[str]:
    return [type(e).__name__ for e in events]


def ai_decisions(seed: int, games: int, turns: int, rulesets=("china", "classic")):
    """Every decision of whole four-player AI games on each board: yields ``(ruleset, state, seat)``
    before the AI's move for ``seat`` is applied (the state is the live one: read, do not change)."""
    from engine.board.ai import choose
    from engine.play.simulation import game_seeds

    for ruleset in rulesets:
        for game_seed in game_seeds(seed, games):
            s = BOARD.new_game(4, ruleset, game_seed)
            while BOARD.waiting_for(s) and s.turn_number < turns:
                seat = BOARD.waiting_for(s)[0].seat
                yield ruleset, s, seat
                BOARD.apply(s, seat, choose(s, seat))


def tables_start_at(monkeypatch: pytest.MonkeyPatch, turn: int) -> None:
    """Board tables started from now on in this test (Start in a chat, ``lobby.start``) begin at
    ``turn``: dealt by the rules' ``new_game``, then every seat played as the chat tests' people play
    (the AI's pick among the buttons, ``choose_listed``), in the rules alone (no service, no chat)
    until that turn begins. A chat test then plays the rest of the game through the chat from the
    table message Start posts; the game's log replays (its replay deals through the same
    ``new_game``). Played so, a board game runs to the service's turn cap (1,000 turns): from turn
    940, some sixty turns are left."""
    from dataclasses import replace

    from engine.games import GAMES

    game = GAMES["board"]
    rules, plug = game.rules, game

    def new_game(seats, options, seed):
        state = rules.new_game(seats, options, seed)
        while state.turn_number < turn and rules.waiting_for(state):
            seat = rules.waiting_for(state)[0].seat
            rules.apply(state, seat, plug.choose_listed(state, seat))
        return state

    monkeypatch.setitem(GAMES, "board", replace(game, rules=replace(rules, new_game=new_game,
                                                                    new_game_with_events=None)))
