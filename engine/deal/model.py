"""The Deal game's data: state, options, pending demands, actions and events.

Everything is a msgspec Struct so that it is plain data, round-trips through JSON
(``msgspec.json``), and still has typed fields. Actions and events are tagged unions: the
``type`` field names the class, so a logged action decodes back to the same value.

Groups are referred to by their index in the owner's ``groups`` list and cards by id; both are
stable within one state version, which is what a button token carries.
"""

from __future__ import annotations

from typing import Union

import msgspec

from engine.core.rng import Rng
from engine.core.values import Action, EndMatch, Event, GameOver, GameStarted, TurnEnded, TurnStarted

SCHEMA_VERSION = 1


class Group(msgspec.Struct):
    """A pile of one colour in a player's property area (D-05, D-17)."""

    colour: str | None  # None: only multicolour wilds, no colour yet (D-06)
    cards: list[int]
    house: int | None = None
    hotel: int | None = None


class Player(msgspec.Struct):
    seat: int
    hand: list[int] = []
    bank: list[int] = []
    groups: list[Group] = []


class Demand(msgspec.Struct):
    """An action aimed at one player, waiting for answers (D-13) and then for payment (D-14).

    Stages: ``respond`` (the target may say no), ``counter`` (the attacker may say no to the no),
    ``pay`` (the target chooses cards), ``place`` (the receiver puts a received House/Hotel).
    """

    id: int
    kind: str  # rent | debt | birthday | sly_deal | forced_deal | deal_breaker
    attacker: int
    target: int
    card: int
    amount: int = 0
    take: int | None = None  # sly/forced deal: the card taken; deal breaker: a card of the set
    give: int | None = None  # forced deal: the attacker's card given
    stage: str = "respond"
    refusals: int = 0  # Just Say No cards played on this demand so far
    selected: list[int] = []  # payment toggles (D-14)
    to_place: list[int] = []  # received Houses/Hotels still to be placed


class DealOptions(msgspec.Struct, frozen=True):
    """A rule set: ``standard`` (seed 003) or ``tournament`` (seed 004), plus named options."""

    ruleset: str = "standard"
    discard_to_pile: bool = False  # D-04: excess cards to the discard pile, not under the draw pile
    single_double_rent: bool = False  # D-09: at most one Double The Rent per rent card
    wild_sets: bool = False  # D-07: two-colour wilds complete a set without a single-colour card
    ordered_payment: bool = False  # D-14: bank first, then Hotels, Houses, properties
    private_discard: bool = False  # D-18: only the player whose turn it is sees the discard pile
    dice_order: bool = False  # D-01: turn order by a 2d6 roll
    match_minutes: int = 0  # D-16: 0 = no match clock
    card_seconds: int = 0  # D-16: per card play; 0 = the chat's turn clock
    # D-13: every target of an action answers (say no, or accept) whether or not they hold a Just
    # Say No, so nobody can tell who holds one; after a target says no, the attacker is asked the
    # same way. False: a window opens only for a player who holds one (games stored before 0005).
    open_answers: bool = True
    # the seed rulings of migration 0006, last so that it can add them to a stored snapshot in order
    # D-14 standard (seed 003 FAQ 30): a House/Hotel received as payment becomes money in the
    # receiver's bank; off (tournament, seed 004), the receiver may put it on a complete set instead
    buildings_to_bank: bool = False
    # D-06 standard (seed 003 FAQ 9/10): after the last play the turn waits for End turn, and the
    # player may still re-arrange; off (tournament, seed 004), it ends once the last play resolved
    rearrange_after_last_play: bool = False
    # D-02 tournament (seed 004): the discard pile becomes the new draw pile when a draw finds one
    # card or none left (the last card is shuffled in); off: only when the draw pile is empty
    rebuild_at_one: bool = False
    # D-16 at time-out (issue 47): what is in progress resolves before the tables are valued, as B-17
    # says for the board: a Just Say No window closes letting the action through, a debt is paid as
    # its clock would pay it, a received building is placed; off (tables of format 1), an open
    # demand was dropped and a debtor kept what they owed. Set by the table's format
    # (engine/service/storage/formats.py), not by a rule set: all processes of a table apply one rule
    settle_at_time_up: bool = False


RULESETS: dict[str, DealOptions] = {
    # the struct's defaults are the rules Deal games were stored with before these options
    # existed, so an old snapshot decodes to the rules it was played with
    "standard": DealOptions(ordered_payment=True, buildings_to_bank=True, rearrange_after_last_play=True),
    "tournament": DealOptions(
        ruleset="tournament", wild_sets=True, ordered_payment=True, private_discard=True,
        dice_order=True, match_minutes=45, card_seconds=10, rebuild_at_one=True,
    ),
}


class DealState(msgspec.Struct):
    schema: int
    options: DealOptions
    rng: Rng
    players: list[Player]
    order: list[int]  # seats in turn order
    game: str = "deal"
    turn_index: int = 0  # index into ``order`` of the player whose turn it is
    turn_number: int = 0  # 1 for the first turn of the game
    phase: str = "play"  # play | discard | over
    plays_left: int = 3
    draw_pile: list[int] = []  # the top is the end of the list
    discard_pile: list[int] = []  # the top is the end of the list
    pending: list[Demand] = []
    next_demand: int = 1
    winners: list[int] = []
    end_reason: str | None = None
    opening_rolls: list[list[int]] = []  # D-01 tournament: [seat, die, die] per roll, re-rolls included


# ---------------------------------------------------------------------------------------------
# Actions


class EndTurn(Action, tag="end_turn"):
    pass


class BankCard(Action, tag="bank"):
    card: int


class LayProperty(Action, tag="lay"):
    card: int
    colour: str | None
    group: int | None = None  # None: start a new group


class MoveProperty(Action, tag="move"):
    """Free re-arranging on one's own turn (D-06); ``replace`` swaps a card out of a built set."""

    card: int
    colour: str | None
    group: int | None = None
    replace: int | None = None


class PlayPassGo(Action, tag="pass_go"):
    card: int


class PlayBuilding(Action, tag="build"):
    card: int  # a House or a Hotel
    group: int


class PlayDebtCollector(Action, tag="debt_collector"):
    card: int
    target: int


class PlayBirthday(Action, tag="birthday"):
    card: int


class PlayRent(Action, tag="rent"):
    card: int
    group: int
    target: int | None = None  # wild rent only
    doubles: tuple[int, ...] = ()  # Double The Rent cards played with it


class PlaySlyDeal(Action, tag="sly_deal"):
    card: int
    target: int
    take: int


class PlayForcedDeal(Action, tag="forced_deal"):
    card: int
    give: int
    target: int
    take: int


class PlayDealBreaker(Action, tag="deal_breaker"):
    card: int
    target: int
    group: int


class JustSayNo(Action, tag="just_say_no"):
    demand: int
    card: int


class Accept(Action, tag="accept"):
    demand: int


class TogglePayment(Action, tag="toggle_pay"):
    demand: int
    card: int


class ConfirmPayment(Action, tag="confirm_pay"):
    demand: int


class AutoPay(Action, tag="auto_pay"):
    demand: int


class PlaceBuilding(Action, tag="place_building"):
    demand: int
    card: int
    group: int | None  # None: into the bank


class Discard(Action, tag="discard"):
    card: int


DealAction = Union[  # noqa: UP007 - msgspec needs a real Union to decode tagged values
    EndTurn, BankCard, LayProperty, MoveProperty, PlayPassGo, PlayBuilding, PlayDebtCollector,
    PlayBirthday, PlayRent, PlaySlyDeal, PlayForcedDeal, PlayDealBreaker, JustSayNo, Accept,
    TogglePayment, ConfirmPayment, AutoPay, PlaceBuilding, Discard, EndMatch,
]
PLAY_ACTIONS = (
    BankCard, LayProperty, PlayPassGo, PlayBuilding, PlayDebtCollector, PlayBirthday, PlayRent,
    PlaySlyDeal, PlayForcedDeal, PlayDealBreaker,
)

# ---------------------------------------------------------------------------------------------
# Events


class Drew(Event, tag="drew"):
    seat: int
    count: int
    cards: list[int] = []  # only the drawer sees them (see ``event_for``)


class Reshuffled(Event, tag="reshuffled"):
    count: int


class Banked(Event, tag="banked"):
    seat: int
    card: int


class PropertyLaid(Event, tag="property_laid"):
    seat: int
    card: int
    colour: str | None
    group: int


class PropertyMoved(Event, tag="property_moved"):
    seat: int
    card: int
    colour: str | None
    group: int


class ActionPlayed(Event, tag="action_played"):
    seat: int
    card: int
    action: str
    targets: list[int] = []
    colour: str | None = None
    amount: int = 0
    doubles: list[int] = []


class DemandOpened(Event, tag="demand_opened"):
    demand: int
    kind: str
    attacker: int
    target: int
    amount: int = 0


class SaidNo(Event, tag="said_no"):
    demand: int
    seat: int
    card: int
    refusals: int


class DemandCancelled(Event, tag="demand_cancelled"):
    demand: int
    kind: str = ""
    attacker: int = -1
    target: int = -1


class Paid(Event, tag="paid"):
    demand: int
    payer: int
    payee: int
    cards: list[int]
    total: int


class PropertyTaken(Event, tag="property_taken"):
    demand: int
    from_seat: int
    to_seat: int
    cards: list[int]


class BuildingPlaced(Event, tag="building_placed"):
    seat: int
    card: int
    group: int | None  # None: banked


class Discarded(Event, tag="discarded"):
    seat: int
    card: int
    to_pile: str  # "draw_bottom" (hidden) or "discard" (public)


DealEvent = Union[  # noqa: UP007
    GameStarted, TurnStarted, Drew, Reshuffled, Banked, PropertyLaid, PropertyMoved, ActionPlayed,
    DemandOpened, SaidNo, DemandCancelled, Paid, PropertyTaken, BuildingPlaced, Discarded, TurnEnded,
    GameOver,
]
