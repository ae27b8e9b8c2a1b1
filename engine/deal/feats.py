"""大富翁纸牌's achievements (issue 48): the catalogue and the watcher that finds them in a game.

The watcher is fed every applied action of a replayed game (``engine.play.history.game_story``)
with the state after it and the events it made. It reads the events, and looks at a player's
table only when an event says it changed (a property laid, moved, taken or paid, a card banked),
as the win check itself does (D-15), so watching adds little to the replay. What counts is
documented in docs/achievements.md with how often each came up in AI-only games; the words are
``feat.<key>`` and ``feat.<key>.how`` in data/locale.
"""

from __future__ import annotations

from typing import Any

from engine.core.contract import Result
from engine.core.feats import FeatKit, Tally
from engine.core.values import GameOver, TurnStarted
from engine.deal import area
from engine.deal.cards import ACTION, COLOUR_KEYS, KIND, VALUE
from engine.deal.model import (
    ActionPlayed,
    Banked,
    BuildingPlaced,
    DealState,
    DemandCancelled,
    DemandOpened,
    Discarded,
    Paid,
    PropertyLaid,
    PropertyMoved,
    PropertyTaken,
    SaidNo,
)
from engine.deal.rules.base import current_seat

KEYS = (
    # winning
    "deal.speed_run",  # won by three sets on your SPEED_TURNS-th turn or sooner
    "deal.purist",  # won without ever laying a wild card
    "deal.knockout",  # the set taken by Deal Breaker was the winning one
    "deal.phoenix",  # won after losing a complete set to a Deal Breaker
    "deal.surprise",  # won on someone else's turn (D-15)
    "deal.untouchable",  # won without ever paying anyone
    "deal.timed_win",  # D-16: the match clock ran out and your table was worth the most
    # skill
    "deal.hat_trick",  # three sets completed in one turn
    "deal.deal_breaker",  # took a complete set with Deal Breaker
    "deal.last_word",  # a Just Say No chain of two or more, and yours was the last
    "deal.not_today",  # said no to a Deal Breaker aimed at you
    "deal.swap_shop",  # a Forced Deal completed a set for you
    "deal.pickpocket",  # PICKPOCKET properties taken with Sly Deal
    "deal.quad_rent",  # rent with two Double The Rent cards (D-09)
    "deal.grand_hotel",  # a Hotel on one of your sets (D-12)
    "deal.rainbow",  # properties of all ten colours on your table at once
    "deal.vault",  # VAULT M in your bank at once
    # playful
    "deal.party",  # everyone paid for your Birthday (two others at least)
    "deal.cleaned_out",  # a payment left nothing on your table
    "deal.ouch",  # paid the largest payment of the game
    "deal.hoarder",  # cut your hand down to seven (D-04)
)

SPEED_TURNS = 4
PICKPOCKET = 3
VAULT = 40
RAINBOW = len(COLOUR_KEYS)  # all ten colours


class DealFeats:
    """One game's watcher (``engine.core.feats.FeatWatcher``)."""

    def __init__(self, state: DealState, seats: int) -> None:
        self.tally = Tally(seats)
        self.seats = seats
        # the first turn began in ``new_game``, before any action: counted here
        self.turns = [0] * seats
        if state.phase != "over":
            self.turns[current_seat(state)] = 1
        self.sets = [area.complete_colours(p, state.options) for p in state.players]
        self.done_this_turn: set[str] = set()  # colours the player on turn completed this turn
        self.demands: dict[int, DemandOpened] = {}
        self.nos: dict[int, int] = {}  # demand -> the seat of its last Just Say No, chains only
        # a Birthday of two others or more: demand -> (attacker, targets, who paid), one per card
        self.birthday: dict[int, tuple[int, set[int], set[int]]] = {}
        self._party: tuple[int, set[int], set[int]] | None = None  # the latest Birthday card's
        self.laid_wild = [False] * seats
        self.paid = [False] * seats  # ever paid anything
        self.lost_set = [False] * seats  # lost a complete set to a Deal Breaker
        self.sly = [0] * seats
        self.top_payment = (0, -1)  # the largest payment so far, and its payer (the first)
        self.win_by_breaker = False
        self.win_out_of_turn = False
        # within one action: seats whose property area changed (their sets are looked at after
        # it), who was brought a property by a demand of which kind, and the game's end if it came
        self.changed: set[int] = set()
        self.taken: dict[int, str] = {}
        self.over: GameOver | None = None
        self._handlers = {
            TurnStarted: self._turn, DemandOpened: self._opened, SaidNo: self._said_no,
            DemandCancelled: self._cancelled, ActionPlayed: self._played, Paid: self._paid,
            PropertyTaken: self._taken, PropertyLaid: self._laid, BuildingPlaced: self._placed,
            Discarded: self._discarded, Banked: self._banked, PropertyMoved: self._moved, GameOver: self._over,
        }

    # -- the watcher's contract ----------------------------------------------------------------

    def see(self, state: DealState, seat: int, action: Any, events: list) -> None:
        self.changed.clear()
        self.taken.clear()
        self.over = None
        handlers = self._handlers
        for e in events:
            handler = handlers.get(type(e))
            if handler is not None:
                handler(state, e)
        if self.changed:
            self._sets(state)
        over = self.over
        if over is not None and over.reason == "sets":
            winner = over.winners[0]
            self.win_by_breaker = self.taken.get(winner) == "deal_breaker"
            self.win_out_of_turn = winner != current_seat(state)

    def earned(self, state: DealState, result: Result) -> dict[int, set[str]]:
        got = self.tally.copy()
        for demand, seat in self.nos.items():
            if all(d.id != demand for d in state.pending):  # the chain is over: the last no stood
                got[seat].add("deal.last_word")
        if self.top_payment[1] >= 0:
            got[self.top_payment[1]].add("deal.ouch")
        if result.over:
            for w in result.winners:
                keys = got.setdefault(w, set())
                if result.reason == "sets":
                    if self.turns[w] <= SPEED_TURNS:
                        keys.add("deal.speed_run")
                    if self.win_by_breaker:
                        keys.add("deal.knockout")
                    if self.win_out_of_turn:
                        keys.add("deal.surprise")
                elif result.reason == "time":
                    keys.add("deal.timed_win")
                if not self.laid_wild[w]:
                    keys.add("deal.purist")
                if self.lost_set[w]:
                    keys.add("deal.phoenix")
                if not self.paid[w]:
                    keys.add("deal.untouchable")
        return got

    # -- the tables ----------------------------------------------------------------------------

    def _sets(self, state: DealState) -> None:
        on_turn = current_seat(state)
        for seat in self.changed:
            p = state.players[seat]
            now = area.complete_colours(p, state.options)
            new = now - self.sets[seat]
            self.sets[seat] = now
            if len(p.groups) >= RAINBOW and len({g.colour for g in p.groups if g.cards and g.colour}) == RAINBOW:
                self.tally.award(seat, "deal.rainbow")
            if not new:
                continue
            if self.taken.get(seat) == "forced_deal":
                self.tally.award(seat, "deal.swap_shop")
            if seat == on_turn:
                self.done_this_turn |= new
                if len(self.done_this_turn) >= 3:
                    self.tally.award(seat, "deal.hat_trick")

    def _bank(self, state: DealState, seat: int) -> None:
        if sum(VALUE[c] for c in state.players[seat].bank) >= VAULT:
            self.tally.award(seat, "deal.vault")

    # -- events --------------------------------------------------------------------------------

    def _turn(self, state: DealState, e: TurnStarted) -> None:
        self.turns[e.seat] += 1
        self.done_this_turn = set()

    def _opened(self, state: DealState, e: DemandOpened) -> None:
        self.demands[e.demand] = e
        if e.kind == "birthday" and self._party is not None:  # one per target, after the card (D-10)
            self.birthday[e.demand] = self._party

    def _said_no(self, state: DealState, e: SaidNo) -> None:
        if e.refusals >= 2:  # a chain: the latest no has the last word unless answered again
            self.nos[e.demand] = e.seat

    def _cancelled(self, state: DealState, e: DemandCancelled) -> None:
        if e.kind == "deal_breaker":
            self.tally.award(e.target, "deal.not_today")

    def _played(self, state: DealState, e: ActionPlayed) -> None:
        if e.action == "rent" and len(e.doubles) >= 2:
            self.tally.award(e.seat, "deal.quad_rent")
        elif e.action == "hotel":
            self.tally.award(e.seat, "deal.grand_hotel")
        elif e.action == "birthday":
            self._party = (e.seat, set(e.targets), set()) if len(e.targets) >= 2 else None

    def _paid(self, state: DealState, e: Paid) -> None:
        if e.cards:
            self.changed.add(e.payer)
            self.changed.add(e.payee)
        if e.total <= 0:
            return
        self.paid[e.payer] = True
        if e.total > self.top_payment[0]:
            self.top_payment = (e.total, e.payer)
        payer = state.players[e.payer]
        if not payer.bank and all(not g.cards and g.house is None and g.hotel is None for g in payer.groups):
            self.tally.award(e.payer, "deal.cleaned_out")
        self._bank(state, e.payee)
        party = self.birthday.get(e.demand)
        if party is not None:
            attacker, targets, paid = party
            paid.add(e.payer)
            if paid == targets:
                self.tally.award(attacker, "deal.party")

    def _taken(self, state: DealState, e: PropertyTaken) -> None:
        self.changed.add(e.to_seat)
        self.changed.add(e.from_seat)
        d = self.demands.get(e.demand)
        if d is None:
            return
        if e.to_seat == d.attacker:
            self.taken[e.to_seat] = d.kind
        if d.kind == "deal_breaker":
            self.tally.award(e.to_seat, "deal.deal_breaker")
            self.lost_set[e.from_seat] = True
        elif d.kind == "sly_deal":
            self.sly[e.to_seat] += 1
            if self.sly[e.to_seat] >= PICKPOCKET:
                self.tally.award(e.to_seat, "deal.pickpocket")

    def _laid(self, state: DealState, e: PropertyLaid) -> None:
        self.changed.add(e.seat)
        if KIND[e.card] == "wild":
            self.laid_wild[e.seat] = True

    def _moved(self, state: DealState, e: PropertyMoved) -> None:
        self.changed.add(e.seat)

    def _over(self, state: DealState, e: GameOver) -> None:
        self.over = e

    def _placed(self, state: DealState, e: BuildingPlaced) -> None:
        if e.group is None:
            self._bank(state, e.seat)
        elif ACTION[e.card] == "hotel":
            self.tally.award(e.seat, "deal.grand_hotel")

    def _discarded(self, state: DealState, e: Discarded) -> None:
        self.tally.award(e.seat, "deal.hoarder")

    def _banked(self, state: DealState, e: Banked) -> None:
        self._bank(state, e.seat)


DEAL_FEATS = FeatKit(keys=KEYS, watcher=DealFeats)
