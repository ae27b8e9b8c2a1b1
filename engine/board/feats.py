"""地产大亨's achievements (issue 48): the catalogue and the watcher that finds them in a game.

The watcher is fed every applied action of a replayed game (``engine.play.history.game_story``)
with the state after it and the events it made, and reads almost everything from the events:
most actions make a handful, and only a few kinds (a building, a purchase, a transfer, a payment)
look at the state at all, so watching adds little to the replay. What counts is documented in
docs/achievements.md with how often each came up in AI-only games; the words are
``feat.<key>`` and ``feat.<key>.how`` in data/locale.

Ownership feats (monopolist, station master) count only what a player bought, won at auction or
traded for: a creditor inherits a bankrupt player's deeds (B-16), and the last player standing
would otherwise always own the whole board.
"""

from __future__ import annotations

from typing import Any

from engine.board.model import (
    BANK,
    HOTEL,
    AuctionWon,
    BoardState,
    Bought,
    Built,
    CardDrawn,
    DebtOpened,
    LeftJail,
    Mortgaged,
    Paid,
    SalaryPaid,
    TradeClosed,
    WentBankrupt,
    WentToJail,
)
from engine.board.rules.base import board_of, start_cash
from engine.core.contract import Result
from engine.core.feats import FeatKit, Tally
from engine.core.values import TurnStarted

KEYS = (
    # winning
    "board.last_standing",  # B-16/B-17: the last player left
    "board.timed_win",  # B-17: the match clock ran out and you were worth the most
    "board.comeback",  # won after being worth less than half the leader at a round's start
    "board.law_abiding",  # won without ever going to jail
    "board.clean_win",  # won without ever mortgaging
    # building and owning
    "board.hotel_row",  # a hotel on every street of a colour group
    "board.hotel_chain",  # HOTEL_CHAIN hotels at once
    "board.housing_boom",  # HOUSING_BOOM houses (not hotels) at once
    "board.monopolist",  # MONOPOLIES colour groups completed by buying, bidding or trading
    "board.station_master",  # all four stations, bought, won or traded for
    "board.trade_set",  # a trade completed a colour group
    "board.bargain",  # an auction won for half the printed price or less
    "board.bidding_war",  # won a house or hotel at a shortage auction (B-12)
    # money
    "board.double_knockout",  # two players went bankrupt to you
    "board.jackpot",  # one rent at least the starting cash
    "board.fat_cat",  # cash twice the starting cash
    # luck and mishaps
    "board.great_escape",  # out of jail on doubles three times
    "board.jailbird",  # to jail three times
    "board.speeding",  # three doubles in a row (B-02)
    "board.double_payday",  # GO's salary twice in one turn
    "board.jail_cards",  # both Get Out of Jail Free cards at once
    "board.ouch",  # paid the largest rent of the game
)

HOTEL_CHAIN = 8  # of the bank's 12 hotels (B-12)
HOUSING_BOOM = 16  # half the bank's 32 houses (B-12)
MONOPOLIES = 4  # of the eight street groups
JAIL_TIMES = 3
ESCAPES = 3
BANKRUPTS = 2


class BoardFeats:
    """One game's watcher (``engine.core.feats.FeatWatcher``)."""

    def __init__(self, state: BoardState, seats: int) -> None:
        self.tally = Tally(seats)
        self.board = board_of(state)
        self.start = start_cash(state.options)
        b = self.board
        self.deeds = tuple((sq, b.price[sq], b.house_cost[sq]) for sq in b.properties)
        self.seats = seats
        self.jailed = [0] * seats
        self.escapes = [0] * seats
        self.bankrupted = [0] * seats  # players who went bankrupt to this seat
        self.mortgaged = [False] * seats  # ever mortgaged a deed
        self.behind = [False] * seats  # once worth less than half the leader, after the first round
        self.completed: list[set[str]] = [set() for _ in range(seats)]  # groups completed by own acquisition
        self.salaries = [0] * seats  # GO's salary this turn
        self.top_rent = (0, -1)  # the largest rent charged so far, and who was charged it (the first)
        self._handlers = {
            TurnStarted: self._turn, WentToJail: self._jail, LeftJail: self._left_jail,
            WentBankrupt: self._bankrupt, Mortgaged: self._mortgaged, Built: self._built,
            Bought: self._acquired, AuctionWon: self._auction, TradeClosed: self._trade,
            Paid: self._paid, DebtOpened: self._debt, SalaryPaid: self._salary, CardDrawn: self._card,
        }

    # -- the watcher's contract ----------------------------------------------------------------

    def see(self, state: BoardState, seat: int, action: Any, events: list) -> None:
        handlers = self._handlers
        for e in events:
            handler = handlers.get(type(e))
            if handler is not None:
                handler(state, e)

    def earned(self, state: BoardState, result: Result) -> dict[int, set[str]]:
        got = self.tally.copy()
        if self.top_rent[1] >= 0:
            got[self.top_rent[1]].add("board.ouch")
        if result.over:
            for w in result.winners:
                keys = got.setdefault(w, set())
                if result.reason == "last_player":
                    keys.add("board.last_standing")
                elif result.reason == "time":
                    keys.add("board.timed_win")
                if self.behind[w]:
                    keys.add("board.comeback")
                if not self.jailed[w]:
                    keys.add("board.law_abiding")
                if not self.mortgaged[w]:
                    keys.add("board.clean_win")
        return got

    def worth(self, state: BoardState) -> dict[int, int]:
        """B-17's valuation (``rules.base.valuation``, which a test holds it to) in one pass over
        the deeds rather than one per player: it is the dearest thing the watcher does."""
        worth = {p.seat: p.cash for p in state.players if not p.bankrupt}
        owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
        for sq, price, house_cost in self.deeds:
            seat = owner[sq]
            if seat in worth:
                worth[seat] += (price // 2 if mortgaged[sq] else price) + houses[sq] * house_cost
        return worth

    # -- events --------------------------------------------------------------------------------

    def _turn(self, state: BoardState, e: TurnStarted) -> None:
        self.salaries = [0] * self.seats
        # worth is looked at once a round (every ``seats`` turns), after the first: valuing the
        # table is the dearest thing a watcher does, and a fall that deep lasts longer than a turn
        if state.turn_number <= self.seats or state.turn_number % self.seats != 1:
            return
        worth = self.worth(state)
        if len(worth) < 2:
            return
        half = max(worth.values())
        for seat, value in worth.items():
            if 2 * value < half:
                self.behind[seat] = True

    def _jail(self, state: BoardState, e: WentToJail) -> None:
        self.jailed[e.seat] += 1
        if self.jailed[e.seat] >= JAIL_TIMES:
            self.tally.award(e.seat, "board.jailbird")
        if e.reason == "doubles":
            self.tally.award(e.seat, "board.speeding")

    def _left_jail(self, state: BoardState, e: LeftJail) -> None:
        if e.how == "doubles":
            self.escapes[e.seat] += 1
            if self.escapes[e.seat] >= ESCAPES:
                self.tally.award(e.seat, "board.great_escape")

    def _bankrupt(self, state: BoardState, e: WentBankrupt) -> None:
        if e.creditor != BANK:
            self._jail_cards(state, e.creditor)  # a bankrupt's cards go to the creditor (B-16)
            self.bankrupted[e.creditor] += 1
            if self.bankrupted[e.creditor] >= BANKRUPTS:
                self.tally.award(e.creditor, "board.double_knockout")

    def _mortgaged(self, state: BoardState, e: Mortgaged) -> None:
        self.mortgaged[e.seat] = True

    def _built(self, state: BoardState, e: Built) -> None:
        b, houses, owner = self.board, state.houses, state.owner
        if e.houses == HOTEL and all(houses[sq] == HOTEL for sq in b.groups[b.group[e.square]]):
            self.tally.award(e.seat, "board.hotel_row")
        mine = [houses[sq] for sq in b.properties if owner[sq] == e.seat]
        if e.houses == HOTEL:
            if mine.count(HOTEL) >= HOTEL_CHAIN:
                self.tally.award(e.seat, "board.hotel_chain")
        elif sum(h for h in mine if h < HOTEL) >= HOUSING_BOOM:
            self.tally.award(e.seat, "board.housing_boom")

    def _acquired(self, state: BoardState, e: Bought) -> None:
        self._owns(state, e.seat, e.square)

    def _auction(self, state: BoardState, e: AuctionWon) -> None:
        if e.kind != "property":
            self.tally.award(e.seat, "board.bidding_war")
            return
        if 2 * e.amount <= self.board.price[e.square]:
            self.tally.award(e.seat, "board.bargain")
        self._owns(state, e.seat, e.square)

    def _trade(self, state: BoardState, e: TradeClosed) -> None:
        if e.outcome != "accepted" or e.deal is None:
            return
        t = e.deal
        for seat, squares in ((t.target, t.give), (t.proposer, t.get)):
            for sq in squares:
                if self._owns(state, seat, sq):
                    self.tally.award(seat, "board.trade_set")
            self._jail_cards(state, seat)

    def _owns(self, state: BoardState, seat: int, square: int) -> bool:
        """``seat`` has just acquired ``square``: does it now hold the square's whole street group?
        Counts the group towards the monopolist, and the stations towards the station master."""
        b = self.board
        kind = b.kind[square]
        if kind == "utility":
            return False
        squares = b.groups[b.group[square]]
        if any(state.owner[sq] != seat for sq in squares):
            return False
        if kind == "station":
            self.tally.award(seat, "board.station_master")
            return False
        done = self.completed[seat]
        done.add(b.group[square])
        if len(done) >= MONOPOLIES:
            self.tally.award(seat, "board.monopolist")
        return True

    def _paid(self, state: BoardState, e: Paid) -> None:
        if e.payee != BANK and state.players[e.payee].cash >= 2 * self.start:
            self.tally.award(e.payee, "board.fat_cat")
        if e.reason == "rent":
            self._rent(e.payer, e.payee, e.amount)

    def _debt(self, state: BoardState, e: DebtOpened) -> None:
        # rent the payer must raise first (B-16) is charged all the same; its payment later
        # repeats the same amount, which changes neither the largest rent nor the jackpot
        if e.reason == "rent":
            self._rent(e.debtor, e.creditor, e.amount)

    def _rent(self, payer: int, owner: int, amount: int) -> None:
        if amount > self.top_rent[0]:
            self.top_rent = (amount, payer)
        if amount >= self.start:
            self.tally.award(owner, "board.jackpot")

    def _card(self, state: BoardState, e: CardDrawn) -> None:
        self._jail_cards(state, e.seat)

    def _jail_cards(self, state: BoardState, seat: int) -> None:
        if len(state.players[seat].jail_cards) >= 2:
            self.tally.award(seat, "board.jail_cards")

    def _salary(self, state: BoardState, e: SalaryPaid) -> None:
        self.salaries[e.seat] += 1
        if self.salaries[e.seat] >= 2:
            self.tally.award(e.seat, "board.double_payday")


BOARD_FEATS = FeatKit(keys=KEYS, watcher=BoardFeats)
