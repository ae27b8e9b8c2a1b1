"""The Deal AI: a heuristic player that picks from ``legal_actions`` (never builds its own moves).

It fills empty seats, plays for absent players and drives the simulations, so it answers every
kind of decision and never stalls: in the play phase ``EndTurn`` is always legal and scores
zero, and free re-arranging is only chosen when it adds a complete set (so it cannot loop).

What it does, roughly in order of preference: win now; break a complete set (Deal Breaker);
lay properties where they complete or grow a set; steal toward its own sets; charge rent that
opponents can actually pay, and of two that can pay alike the one nearer to winning; draw with
Pass Go early; bank money while its bank is thin; build; say no to the attacks that hurt (Deal
Breaker, a steal from a near-complete set, big rents), but with a complete set and its last Just
Say No, keep it for a Deal Breaker while one may still come; pay with its least valuable cards.

It reads only what the table shows (its own hand, everyone's banks and sets, the discard pile).
Which Deal Breakers may still come is counted from the cards in sight (``unseen``): the deck's,
less those in the discard pile, in the banks and in its own hand.
"""

from __future__ import annotations

from engine.core.values import SYSTEM
from engine.deal import area, payment
from engine.deal.cards import ACTION, IS_MULTI, KIND, PLACEABLE, SET_SIZE, VALUE
from engine.deal.model import (
    Accept,
    AutoPay,
    BankCard,
    DealState,
    Discard,
    EndTurn,
    Group,
    JustSayNo,
    LayProperty,
    MoveProperty,
    PlaceBuilding,
    PlayBirthday,
    PlayBuilding,
    PlayDealBreaker,
    PlayDebtCollector,
    Player,
    PlayForcedDeal,
    PlayPassGo,
    PlayRent,
    PlaySlyDeal,
)
from engine.deal.rules import current_seat, keep_rank, legal_actions, pending_options, turn_options

BANK_COMFORT = 8  # below this bank total, money is banked eagerly
LEADER_CHARGE = 6  # a charge's score per complete set of its target: of two alike, charge the leader
LEADER_BREAK = 40  # a Deal Breaker's score per complete set of the player it breaks
KEEP_FOR_BREAKER_RENT = 8  # the least rent the last Just Say No answers while a Deal Breaker may come
_IN_DECK = {a: ACTION.count(a) for a in ("deal_breaker", "just_say_no")}


def choose(state: DealState, seat: int, actions: list | None = None):
    """The AI's choice for ``seat`` among ``actions`` (default: ``legal_actions``); None if none.

    On its own turn without a list given it asks the rules for the play phase's choices with the
    re-arranging moves cut down to the plain moves into groups one card short, and the Forced
    Deals to those taking a card worth the swap for one of the cards it loses least by
    (``turn_options``): every other move scores below ``EndTurn``, which comes first, and every
    other swap below ``EndTurn`` or below the same swap giving a card it loses less by, so the
    choice is the same."""
    if actions is None:
        if not state.pending and state.phase == "play" and seat == current_seat(state):
            me = state.players[seat]
            near = _near_complete(me)
            if state.plays_left <= 0:  # the plays are made: End turn, or a move that completes a set
                options = turn_options(state, seat, moves_into=near)
                if len(options) == 1:
                    return options[0]
                return _play(state, seat, options, _Context(state, me, near))
            ctx = _Context(state, me, near)
            options = turn_options(state, seat, moves_into=near, forced_takes=ctx.worth_forcing,
                                   forced_give_cost=ctx.loss)
            return _play(state, seat, options, ctx)
        if state.pending and state.phase != "over" and seat != SYSTEM:
            # a demand to answer: ``_answer`` always pays automatically, so the card-by-card
            # choices of a payment are not asked for
            actions = pending_options(state, seat, pick_cards=False)
        else:
            actions = legal_actions(state, seat)
    if not actions:
        return None
    if state.pending:
        return _answer(state, seat, actions)
    if state.phase == "discard":
        discards = [a for a in actions if isinstance(a, Discard)]
        return min(discards, key=lambda a: (keep_rank(a.card), a.card))
    return _play(state, seat, actions)


# -- answering demands ---------------------------------------------------------------------------


def _answer(state: DealState, seat: int, actions: list):
    for a in actions:
        if isinstance(a, PlaceBuilding) and a.group is not None:
            return a
    for a in actions:
        if isinstance(a, JustSayNo) and _worth_refusing(state, seat, a.demand):
            return a
    for kind in (AutoPay, Accept, PlaceBuilding):
        for a in actions:
            if isinstance(a, kind):
                return a
    return actions[0]


def _worth_refusing(state: DealState, seat: int, demand_id: int) -> bool:
    d = next(d for d in state.pending if d.id == demand_id)
    opts = state.options
    if seat == d.attacker:  # the target said no: is pushing through worth a Just Say No?
        if d.kind == "deal_breaker":
            return True
        if d.kind in ("sly_deal", "forced_deal"):
            me = state.players[seat]
            return _gain(me, d.take, opts, area.complete_colours(me, opts)) >= 60
        return d.amount >= 5
    victim = state.players[seat]
    if d.kind == "deal_breaker":
        return True
    keep = _keep_for_breaker(state, victim)
    if d.kind in ("sly_deal", "forced_deal"):
        g = victim.groups[area.find_group(victim, d.take)]
        near = len(g.cards) >= SET_SIZE.get(g.colour or "", 9) - 1
        return near and VALUE[d.take] >= 2 if keep else near or VALUE[d.take] >= 3
    if keep:
        return d.amount >= KEEP_FOR_BREAKER_RENT
    bank = sum(VALUE[c] for c in victim.bank)
    return d.amount >= 5 or (d.amount > bank and payment.payable_total(victim) > bank)


def _keep_for_breaker(state: DealState, me: Player) -> bool:
    """Is ``me``'s one Just Say No better kept for a Deal Breaker? Only with a complete set to lose
    and a Deal Breaker that may still come (``unseen``)."""
    held = 0
    for c in me.hand:
        if ACTION[c] == "just_say_no":
            held += 1
    return held == 1 and unseen(state, me, "deal_breaker") > 0 and bool(area.complete_colours(me, state.options))


def unseen(state: DealState, me: Player, action: str) -> int:
    """How many ``action`` cards ``me`` has not seen: the deck's, less those in the discard pile,
    in the banks and in its own hand (public, or its own)."""
    seen = 0
    for pile in (state.discard_pile, me.hand, *[p.bank for p in state.players]):
        for c in pile:
            if ACTION[c] == action:
                seen += 1
    return _IN_DECK[action] - seen


# -- playing a turn ------------------------------------------------------------------------------


def _near_complete(me: Player) -> set[int]:
    """Groups one card short of a set (a move into one can complete it)."""
    return {i for i, g in enumerate(me.groups) if g.colour is not None and len(g.cards) == SET_SIZE[g.colour] - 1}


def _play(state: DealState, seat: int, actions: list, ctx: _Context | None = None):
    if ctx is None:
        ctx = _Context(state, state.players[seat])
    best, best_score = None, float("-inf")
    scorers = _SCORERS
    for a in actions:
        scorer = scorers.get(type(a))
        s = scorer(ctx, a) if scorer is not None else -1.0
        if s > best_score:
            best, best_score = a, s
    return best


def ranked(state: DealState, seat: int) -> list:
    """The plays of ``seat``'s turn (the options ``choose`` weighs there), best first by its own
    scores: the candidates the ``strong`` level searches."""
    me = state.players[seat]
    near = _near_complete(me)
    ctx = _Context(state, me, near)
    if state.plays_left <= 0:
        options = turn_options(state, seat, moves_into=near)
    else:
        options = turn_options(state, seat, moves_into=near, forced_takes=ctx.worth_forcing,
                               forced_give_cost=ctx.loss)
    scorers = _SCORERS
    scored = []
    for i, a in enumerate(options):
        scorer = scorers.get(type(a))
        scored.append((-(scorer(ctx, a) if scorer is not None else -1.0), i, a))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [a for _s, _i, a in scored]


class _Context:
    """What the scoring needs, computed once per decision (slots: one is made for every play)."""

    __slots__ = ("state", "opts", "me", "complete", "bank", "_payable", "_hand_rents", "_near", "_room",
                 "gains", "rents", "losses", "hurts", "_sets")

    def __init__(self, state: DealState, me: Player, near: set[int] | None = None) -> None:
        self.state = state
        self.opts = state.options
        self.me = me
        self.complete = area.complete_colours(me, state.options)
        bank = 0
        for c in me.bank:
            bank += VALUE[c]
        self.bank = bank
        self._payable: dict[int, int] | None = None
        self._hand_rents: list[int] | None = None
        self._near = near
        self._room: set[str] | None = None
        self.gains: dict[int, float] = {}
        self.rents: dict[tuple, int] = {}
        self.losses: dict[int, float] = {}
        self.hurts: dict[tuple[int, int], float] = {}
        self._sets: dict[int, int] = {}

    def sets(self, seat: int) -> int:
        """How many complete sets ``seat`` shows: how near it is to winning."""
        n = self._sets.get(seat)
        if n is None:
            n = self._sets[seat] = area.complete_set_count(self.state.players[seat], self.opts)
        return n

    @property
    def hand_rents(self) -> list[int]:
        """The rent cards in hand, looked at only when a Double the Rent is scored."""
        if self._hand_rents is None:
            self._hand_rents = [c for c in self.me.hand if KIND[c] == "rent"]
        return self._hand_rents

    @property
    def near_complete(self) -> set[int]:
        if self._near is None:
            self._near = _near_complete(self.me)
        return self._near

    @property
    def payable(self) -> dict[int, int]:
        """What each opponent could pay, computed only when a money action is being scored."""
        if self._payable is None:
            me = self.me.seat
            self._payable = {p.seat: payment.payable_total(p) for p in self.state.players if p.seat != me}
        return self._payable

    def gain(self, card: int) -> float:
        g = self.gains.get(card)
        if g is None:
            g = self.gains[card] = _gain(self.me, card, self.opts, self.complete)
        return g

    def worth_forcing(self, card: int) -> bool:
        """Could a Forced Deal taking ``card`` score above ``EndTurn`` (``_score_forced``)? Asked
        for every card the opponents could give up. A card no group of ours has room for gains
        at most 15 plus its value (``_gain``), below the floor: told apart by its colours alone
        (``_room``); the others' gain is read from ``gain``'s memo."""
        room = self._room
        if room is None:
            room = self._room = {g.colour for g in self.me.groups
                                 if g.colour is not None and len(g.cards) < SET_SIZE[g.colour]}
        allowed = PLACEABLE[card]
        if not room or (allowed is not None and room.isdisjoint(allowed)):
            return False
        g = self.gains.get(card)
        if g is None:
            g = self.gains[card] = _gain(self.me, card, self.opts, self.complete)
        return g > _FORCED_GAIN_FLOOR

    def hurt(self, target: int, card: int) -> float:
        key = (target, card)
        v = self.hurts.get(key)
        if v is None:
            v = self.hurts[key] = _hurt(self.state, target, card)
        return v

    def loss(self, card: int) -> float:
        v = self.losses.get(card)
        if v is None:
            v = self.losses[card] = _loss(self.me, card, self.opts)
        return v


def _score_breaker(ctx: _Context, a: PlayDealBreaker) -> float:
    g = ctx.state.players[a.target].groups[a.group]
    if len(ctx.complete | {g.colour}) >= 3:
        return 1000.0
    return 300.0 + (40 if g.colour not in ctx.complete else 0) + LEADER_BREAK * ctx.sets(a.target)


# every card given costs at least 16 (``_loss``), so a swap gaining no more than this cannot clear
# the bar of 20 in ``_score_forced``
_FORCED_GAIN_FLOOR = 36.0


def _score_forced(ctx: _Context, a: PlayForcedDeal) -> float:
    gain = ctx.gain(a.take)
    if gain <= _FORCED_GAIN_FLOOR:
        return -1.0
    gain -= ctx.loss(a.give)
    return gain - 20 if gain > 20 else -1.0


def _score_debt(ctx: _Context, a: PlayDebtCollector) -> float:
    got = min(5, ctx.payable[a.target])
    return 12.0 + 8 * got + LEADER_CHARGE * ctx.sets(a.target) if got >= 3 else -1.0


def _score_birthday(ctx: _Context, a: PlayBirthday) -> float:
    got = sum(min(2, ctx.payable[s]) for s in ctx.payable if s != ctx.me.seat)
    return 10.0 + 6 * got if got >= 2 else -1.0


def _completes(g: Group | None, card: int, colour: str | None, opts) -> bool:
    cards = [card] if g is None else g.cards + [card]
    return area.is_complete(Group(colour=colour if g is None or g.colour is None else g.colour, cards=cards), opts)


def _score_lay(ctx: _Context, a: LayProperty) -> float:
    g = ctx.me.groups[a.group] if a.group is not None else None
    if a.colour is None:
        return 8.0  # a multicolour wild with no colour yet: keep it for later if possible
    if _completes(g, a.card, a.colour, ctx.opts):
        if len(ctx.complete | {a.colour}) >= 3:
            return 2000.0
        return 200.0 if a.colour not in ctx.complete else 70.0
    size = SET_SIZE[a.colour]
    have = len(g.cards) if g is not None else 0
    if g is None and any(h.colour == a.colour and len(h.cards) < size for h in ctx.me.groups):
        return 20.0  # a new pile when one of that colour still has room
    score = 60.0 + 25 * have / size + VALUE[a.card]
    if IS_MULTI[a.card]:
        score -= 30  # save the multicolour wild for completing a set
    return score


def _score_bank(ctx: _Context, a: BankCard) -> float:
    card = a.card
    kind = KIND[card]
    value = VALUE[card]
    if kind == "money":
        return (45.0 if ctx.bank < BANK_COMFORT else 22.0) + value
    action = ACTION[card]
    if action == "just_say_no":
        return -2.0  # kept to protect sets; the end-of-turn cut drops it last
    if not _action_useful(ctx, card, action):
        return 35.0 + value
    return (16.0 if ctx.bank < 3 else 6.0) + value


def _action_useful(ctx: _Context, card: int, action: str | None) -> bool:
    if KIND[card] == "rent":
        return True  # kept for a later turn when this one is not worth playing
    if action in ("house", "hotel"):
        return bool(ctx.complete)
    if action == "double_rent":
        return bool(ctx.hand_rents)
    return action in ("deal_breaker", "sly_deal", "forced_deal", "pass_go", "debt_collector", "birthday")


def _score_rent(ctx: _Context, a: PlayRent) -> float:
    key = (a.group, len(a.doubles), a.target)
    collect = ctx.rents.get(key)
    if collect is None:
        rent = area.group_rent(ctx.me.groups[a.group], ctx.opts) * (2 ** len(a.doubles))
        payable = ctx.payable
        if a.target is not None:
            collect = min(rent, payable[a.target])
        else:
            collect = 0
            me = ctx.me.seat
            for s, v in payable.items():  # a loop, not a generator: asked for every rent play
                if s != me:
                    collect += v if v < rent else rent
        ctx.rents[key] = collect
    if collect < 2:
        return -1.0
    leader = LEADER_CHARGE * ctx.sets(a.target) if a.target is not None else 0
    return 15.0 + 6 * collect - 18 * len(a.doubles) + leader


def _gain(me: Player, card: int, opts, complete: set) -> float:
    """How much taking ``card`` helps ``me``: most when it completes a set."""
    allowed = area.colours_for(card)
    colours = allowed if allowed is not None else tuple(g.colour for g in me.groups if g.colour)
    best = 15.0 + VALUE[card]
    for colour in colours:
        for g in me.groups:
            if g.colour == colour and area.fits(g, card, colour):
                if _completes(g, card, colour, opts):
                    return 220.0 if colour not in complete else 60.0
                best = max(best, 40.0 + 20 * len(g.cards) / SET_SIZE[colour])
    return best


def _loss(me: Player, card: int, opts) -> float:
    g = me.groups[area.find_group(me, card)]
    size = SET_SIZE[g.colour] if g.colour else 4
    return 15.0 + VALUE[card] + 30 * (len(g.cards) - 1) / size


def _hurt(state: DealState, target: int, card: int) -> float:
    """Taking from a near-complete set also slows the leader down."""
    p = state.players[target]
    g = p.groups[area.find_group(p, card)]
    if g.colour and len(g.cards) == SET_SIZE[g.colour] - 1:
        return 25.0 + 10 * area.complete_set_count(p, state.options)
    return 0.0


def _score_move(ctx: _Context, a: MoveProperty) -> float:
    if a.colour is None or a.group is None or a.replace is not None or a.group not in ctx.near_complete:
        return -1.0  # only a move into a group one card short can add a complete set
    me = ctx.me
    src = me.groups[area.find_group(me, a.card)]
    if a.replace is not None:
        return -1.0
    target = me.groups[a.group] if a.group is not None else None
    if not _completes(target, a.card, a.colour, ctx.opts):
        return -1.0
    gained = a.colour not in ctx.complete
    lost = src.colour in ctx.complete and area.is_complete(src, ctx.opts) and sum(
        1 for g in me.groups if g.colour == src.colour and area.is_complete(g, ctx.opts)) == 1
    return 150.0 if gained and not lost else -1.0


_SCORERS = {
    EndTurn: lambda ctx, a: 0.0,
    LayProperty: _score_lay,
    BankCard: _score_bank,
    PlayPassGo: lambda ctx, a: 58.0 if ctx.state.plays_left >= 2 else 28.0,
    PlayRent: _score_rent,
    PlayDealBreaker: _score_breaker,
    PlaySlyDeal: lambda ctx, a: ctx.gain(a.take) + ctx.hurt(a.target, a.take),
    PlayForcedDeal: _score_forced,
    PlayBuilding: lambda ctx, a: 50.0 + area.group_rent(ctx.me.groups[a.group], ctx.opts),
    PlayDebtCollector: _score_debt,
    PlayBirthday: _score_birthday,
    MoveProperty: _score_move,
}
