"""The board game's data: state, options, auctions, debts, trades, actions and events.

msgspec Structs (plain data, JSON round trips, tagged unions for actions and events), like the
card game. Squares are numbered 0…39; ``owner``, ``houses`` and ``mortgaged`` are per-square
lists (``houses`` 5 means a hotel). ``BANK`` (-1) stands for the bank as owner or creditor.
"""

from __future__ import annotations

from typing import Union

import msgspec

from engine.core.rng import Rng
from engine.core.values import Action, EndMatch, Event, GameOver, GameStarted, TurnEnded, TurnStarted

SCHEMA_VERSION = 1
BANK = -1
HOTEL = 5


class BoardOptions(msgspec.Struct, frozen=True):
    ruleset: str = "china"
    start_cash: int = 0  # 0: the board's own (15,000 china, 1,500 classic)
    salary: int = 0  # 0: the board's own
    income_tax_choice: bool = False  # B-08: flat tax or 10 % of total assets
    no_trading: bool = False  # B-15: seed 000's preliminary round
    match_minutes: int = 0  # B-17: 0 = no match clock
    # B-02 (seed 002 §4, §5): nobody builds or lifts a mortgage between a doubles roll and its extra
    # roll. The china rule set turns it on (``RULESET_OPTIONS``); the field's own default is False,
    # which is also how a snapshot stored before the option existed decodes (it played without).
    doubles_lock: bool = False
    # B-06 (seed 000): rent is not charged by itself; the owner collects it by a decision that
    # lapses when the next player rolls.
    rent_claim: bool = False
    # B-11/B-13 house rule: houses go up and come down on a complete group in any order, not evenly.
    # Off in every rule set (the seeds all say "evenly"); a group may switch it on.
    uneven_building: bool = False
    # B-10: the seeds' Free Parking is a rest and nothing more. The popular house rule, which a
    # group may switch on: taxes, fines, card fees and repairs paid to the bank go into a pot on
    # Free Parking, and whoever stops there takes it all.
    free_parking_pot: bool = False
    # B-15 rulings (docs/rulings.md): a mortgaged deed received while B-02's lock bars lifting keeps
    # its principal-only price until the first roll after an open window, and a trade is refused
    # whose receiver could not pay the 10 % due at once. On in every rule set; a snapshot stored
    # before them decodes to off, and migration 0009 keeps games then in progress without them.
    received_mortgage_rulings: bool = False


# Each rule set's options; a dict of overrides (the lobby's toggles, a tournament's) is applied on top.
RULESET_OPTIONS: dict[str, BoardOptions] = {
    "china": BoardOptions(ruleset="china", doubles_lock=True, received_mortgage_rulings=True),
    "classic": BoardOptions(ruleset="classic", received_mortgage_rulings=True),
}


class BoardPlayer(msgspec.Struct):
    seat: int
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0  # failed rolls for doubles so far (B-09)
    jail_cards: list[str] = []  # "chance" / "chest": Get-out-of-jail cards held (B-07)
    bankrupt: bool = False


class Auction(msgspec.Struct):
    """B-04/B-05 property auctions and B-12 building-shortage auctions (one building each)."""

    kind: str  # "property" | "house" | "hotel"
    square: int  # the property (property auctions); -1 for building auctions
    bidders: list[int]  # seats still in (passing leaves the auction)
    opening: int
    high_bid: int = 0
    high_bidder: int = -1
    excluded: list[int] = []  # winners who could not pay (B-05)
    streets: dict[int, int] = {}  # building auctions: the street each bidder named
    settling: bool = False  # B-05: the high bidder won and is raising money to pay (a debt to the bank)


class Debt(msgspec.Struct):
    debtor: int
    creditor: int  # a seat or BANK
    amount: int
    reason: str


class RentClaim(msgspec.Struct):
    """B-06 with ``rent_claim``: rent ``owner`` may collect from ``payer`` for landing on ``square``
    (the amount is fixed at the landing, card multipliers and fresh utility dice included)."""

    owner: int
    payer: int
    square: int
    amount: int


class Trade(msgspec.Struct):
    """An offer from ``proposer`` to ``target``: properties, cash and jail cards each way (B-15)."""

    id: int
    proposer: int
    target: int
    give: list[int] = []
    get: list[int] = []
    give_cash: int = 0
    get_cash: int = 0
    give_cards: int = 0
    get_cards: int = 0
    counter: int = 0  # the offer this one answers (a counter-offer), 0 for a fresh offer


class Refusal(msgspec.Struct):
    """An offer its target refused (or countered), with the table's holdings at that moment
    (``trades.position_stamp``): the AI does not make it again until the holdings change."""

    trade: Trade
    position: int


class Shortage(msgspec.Struct):
    """B-12: the bank cannot meet every player who could build now; who wants one too?"""

    building: str  # "house" | "hotel"
    initiator: int
    asked: list[int]  # seats still to answer
    wanters: dict[int, int] = {}  # seat -> street named


class BoardState(msgspec.Struct, dict=True):
    # ``dict=True``: room for memos of this very object (``rules.base.memo``); attributes that
    # are not fields are never encoded or compared, so a decoded state starts without; a search's
    # copies of a table share them (``GameRules.clone``).
    schema: int
    options: BoardOptions
    rng: Rng
    players: list[BoardPlayer]
    order: list[int]
    owner: list[int]
    houses: list[int]
    mortgaged: list[bool]
    bank_houses: int
    bank_hotels: int
    chance: list[int]  # deck order, top first (card indices into the board's deck)
    chest: list[int]
    game: str = "board"
    turn_index: int = 0
    turn_number: int = 0
    stage: str = "roll"  # roll | buy | auction | debt | tax | shortage | over
    rolled: bool = False  # the current player's roll is being (or has been) resolved
    extra_roll: bool = False  # doubles: roll again once things settle
    doubles: int = 0
    last_dice: list[int] = []
    buy_square: int = -1
    tax_due: bool = False  # B-08 with income_tax_choice: the current player must choose
    auction: Auction | None = None
    auction_queue: list[int] = []  # the bank's auctions after a bankruptcy (B-16)
    debts: list[Debt] = []
    trades: list[Trade] = []
    next_trade: int = 1
    proposed: list[int] = []  # seats that made an offer since the last roll
    refused: list[Refusal] = []  # recent refused offers, while the holdings stay as they were
    shortage: Shortage | None = None
    declined_shortage: list[int] = []  # seats that said "no" to a shortage call since the last roll
    lift_discount: list[int] = []  # mortgages that may be lifted at principal until the next roll (B-15)
    bank_net: int = 0  # money the bank paid out minus money it took in (B-19: it never runs out)
    winners: list[int] = []
    end_reason: str | None = None
    opening_rolls: list[list[int]] = []  # B-01: [seat, die, die] per roll, re-rolls included
    rent_claims: list[RentClaim] = []  # B-06 with rent_claim: open until the next player rolls
    parking_pot: int = 0  # B-10 with free_parking_pot: paid into the bank, waiting on Free Parking


# ---------------------------------------------------------------------------------------------
# Actions


class Roll(Action, tag="roll"):
    pass


class PayJailFine(Action, tag="pay_jail_fine"):
    pass


class UseJailCard(Action, tag="use_jail_card"):
    pass


class Buy(Action, tag="buy"):
    pass


class DeclineToBuy(Action, tag="decline"):
    pass


class Bid(Action, tag="bid", omit_defaults=True):
    """``beyond_reach`` (B-05) marks a listed bid above what the bidder could raise (cash plus
    every sale and mortgage): a presenter shows a warning. Information only: validation ignores
    it, and it is left out of the encoding when False, so logs read as before."""

    amount: int
    beyond_reach: bool = False


class PassAuction(Action, tag="pass_auction"):
    pass


class PayTax(Action, tag="pay_tax"):
    choice: str  # "flat" | "percent" (B-08)


class BuildHouse(Action, tag="build"):
    square: int  # a house, or the hotel when the street has 4


class BuildRound(Action, tag="build_round"):
    """One building on every street of a group at its lowest level, in one step (B-11): three taps
    become one. Offered when it places two or more and the bank is not short (B-12)."""

    group: str


class SellBuilding(Action, tag="sell_building"):
    square: int


class SellGroupBuildings(Action, tag="sell_group_buildings"):
    """Every building of a colour group back to the bank at once (when a hotel cannot be broken)."""

    group: str


class Mortgage(Action, tag="mortgage"):
    square: int


class LiftMortgage(Action, tag="lift_mortgage"):
    square: int


class ProposeTrade(Action, tag="propose_trade"):
    target: int
    give: tuple[int, ...] = ()
    get: tuple[int, ...] = ()
    give_cash: int = 0
    get_cash: int = 0
    give_cards: int = 0
    get_cards: int = 0
    counter: int = 0  # answer offer #counter with this one instead (the target's counter-offer)


class AcceptTrade(Action, tag="accept_trade"):
    trade: int


class RejectTrade(Action, tag="reject_trade"):
    trade: int


class CancelTrade(Action, tag="cancel_trade"):
    trade: int


class CollectRent(Action, tag="collect_rent"):
    """B-06 with ``rent_claim``: the owner claims the rent due for ``square``."""

    square: int


class ForgoRent(Action, tag="forgo_rent"):
    """B-06 with ``rent_claim``: the owner lets the claim for ``square`` go (also its clock's answer)."""

    square: int


class PayDebt(Action, tag="pay_debt"):
    pass


class RaiseMoney(Action, tag="raise_money"):
    """Sell and mortgage the least useful assets until the debt can be paid, then pay it (or go bankrupt)."""


class DeclareBankruptcy(Action, tag="bankrupt"):
    pass


class JoinShortage(Action, tag="join_shortage"):
    street: int


class DeclineShortage(Action, tag="decline_shortage"):
    pass


BoardAction = Union[  # noqa: UP007 - msgspec decodes tagged values through a real Union
    Roll, PayJailFine, UseJailCard, Buy, DeclineToBuy, Bid, PassAuction, PayTax, BuildHouse, BuildRound,
    SellBuilding, SellGroupBuildings, Mortgage, LiftMortgage, ProposeTrade, AcceptTrade, RejectTrade, CancelTrade,
    PayDebt, RaiseMoney, DeclareBankruptcy, JoinShortage, DeclineShortage, EndMatch, CollectRent, ForgoRent,
]

# ---------------------------------------------------------------------------------------------
# Events


class DiceRolled(Event, tag="dice_rolled"):
    seat: int
    dice: list[int]


class Moved(Event, tag="moved"):
    seat: int
    start: int
    to: int
    passed_go: bool = False


class SalaryPaid(Event, tag="salary"):
    seat: int
    amount: int


class WentToJail(Event, tag="went_to_jail"):
    seat: int
    reason: str  # square | card | doubles


class LeftJail(Event, tag="left_jail"):
    seat: int
    how: str  # fine | card | doubles | third_try


class StayedInJail(Event, tag="stayed_in_jail"):
    seat: int
    tries: int


class CardDrawn(Event, tag="card_drawn"):
    seat: int
    deck: str
    card: int


class Bought(Event, tag="bought"):
    seat: int
    square: int
    price: int


class AuctionOpened(Event, tag="auction_opened"):
    kind: str
    square: int
    opening: int
    bidders: list[int]


class BidMade(Event, tag="bid"):
    seat: int
    amount: int


class AuctionPassed(Event, tag="auction_passed"):
    seat: int


class AuctionWon(Event, tag="auction_won"):
    seat: int
    square: int
    amount: int
    kind: str = "property"


class AuctionVoided(Event, tag="auction_voided"):
    seat: int
    amount: int


class AuctionUnsold(Event, tag="auction_unsold"):
    square: int


class Paid(Event, tag="paid"):
    payer: int  # a seat or BANK
    payee: int  # a seat or BANK
    amount: int
    reason: str


class RentDue(Event, tag="rent_due"):
    """B-06 with ``rent_claim``: ``owner`` may now collect ``amount`` from ``payer``."""

    owner: int
    payer: int
    square: int
    amount: int


class RentLapsed(Event, tag="rent_lapsed"):
    """B-06 with ``rent_claim``: a claim not made in time (the next player rolled, the owner let it
    go, the clock ran out, someone went bankrupt, or the match ended)."""

    owner: int
    payer: int
    square: int
    amount: int


class DebtOpened(Event, tag="debt_opened"):
    debtor: int
    creditor: int
    amount: int
    reason: str


class Built(Event, tag="built"):
    seat: int
    square: int
    houses: int  # now on the street (5 = hotel)


class BuildingSold(Event, tag="building_sold"):
    seat: int
    square: int
    houses: int
    refund: int


class Mortgaged(Event, tag="mortgaged"):
    seat: int
    square: int
    amount: int


class MortgageLifted(Event, tag="mortgage_lifted"):
    seat: int
    square: int
    amount: int


class TradeProposed(Event, tag="trade_proposed"):
    trade: Trade


class TradeClosed(Event, tag="trade_closed"):
    trade: int
    outcome: str  # accepted | rejected | countered | cancelled | expired
    # the offer's terms, so that a log can say what was traded (to the group: only an accepted
    # trade; the haggling only to the two players)
    deal: Trade | None = None


class PropertyTransferred(Event, tag="property_transferred"):
    square: int
    from_seat: int
    to_seat: int


class ShortageCalled(Event, tag="shortage_called"):
    building: str
    initiator: int
    asked: list[int]
    bank: int


class WentBankrupt(Event, tag="bankrupt"):
    seat: int
    creditor: int


BoardEvent = Union[  # noqa: UP007
    GameStarted, TurnStarted, DiceRolled, Moved, SalaryPaid, WentToJail, LeftJail, StayedInJail, CardDrawn,
    Bought, AuctionOpened, BidMade, AuctionPassed, AuctionWon, AuctionVoided, AuctionUnsold, Paid, DebtOpened,
    Built, BuildingSold, Mortgaged, MortgageLifted, TradeProposed, TradeClosed, PropertyTransferred,
    ShortageCalled, WentBankrupt, TurnEnded, GameOver, RentDue, RentLapsed,
]
