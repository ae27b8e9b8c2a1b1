"""Trades (B-15): the one validator of any offer, the template offers are built from, the order
offers are settled in, and the memory of refused offers.

A trade is any exchange between two players of cash (either way), deeds and Get-out-of-jail cards.
``legal_actions`` cannot list every such exchange, so the contract is:

- ``legal_actions`` lists a few ready-made ``ProposeTrade`` shortcuts (buy or sell the street that
  completes a group, swaps, a jail card at the cap); every one of them passes the validator;
- any other concrete ``ProposeTrade`` (a counter-offer is one with ``counter`` = the answered
  offer's id) is legal exactly when ``proposal_problem`` returns ``None``: ``apply`` calls the
  same function, so there is one validation path for buttons, typed offers and the AI;
- ``trade_template`` describes the space a front end (or the AI) builds offers from: partners,
  tradable deeds on both sides, cash and card limits, the offers the seat may counter.

Rulings (the seeds say "by agreement" and "the transactions negotiated first are processed first"):
an offer is accepted only when no earlier open offer involves either of its players (answer the
earlier one first); a counter-offer closes the answered offer ("countered") and is itself a fresh
offer to its maker, who may accept or decline it but not counter it again (no endless haggling);
a counter-offer does not use up the one offer a player may make between two rolls.
"""

from __future__ import annotations

import zlib
from array import array
from operator import itemgetter
from typing import NamedTuple

from engine.board.data import PROPERTY_KINDS, RULESETS, board
from engine.board.model import BoardState, ProposeTrade, Refusal, Trade

REFUSALS_KEPT = 24  # a bounded memory: enough for every pair of seats and more


def _no(rule: str, key: str, **params) -> tuple:
    return (rule, key, params)


# per rule set and square: may the deed be traded at all (a property), and the getter of its
# group's squares (a deed in a group with buildings may not be traded)
_DEED = {r: tuple(board(r).kind[sq] in PROPERTY_KINDS for sq in range(40)) for r in RULESETS}
_GROUP_OF = {r: tuple(itemgetter(*board(r).groups[board(r).group[sq]]) if _DEED[r][sq] else None
                      for sq in range(40)) for r in RULESETS}


def _tradable(state: BoardState, sq: int) -> bool:
    ruleset = state.options.ruleset
    return _DEED[ruleset][sq] and not any(_GROUP_OF[ruleset][sq](state.houses))


def offer_problem(state: BoardState, seat: int, a: ProposeTrade | Trade, target: int) -> tuple | None:
    """Why ``seat``'s offer ``a`` to ``target`` may not stand (cash and holdings as they are now):
    its terms (``terms_problem``: the partner, the shape, the deeds), then the means
    (``means_problem``: cash and cards)."""
    return terms_problem(state, seat, a, target) or means_problem(state, seat, a, target)


def terms_problem(state: BoardState, seat: int, a: ProposeTrade | Trade, target: int) -> tuple | None:
    """What ``offer_problem`` checks first: trading allowed, the partner still in, something on
    both sides, nothing negative, and each deed its giver's, in a group without buildings."""
    options = state.options
    if options.no_trading:
        return _no("B-15", "board.err.no_trading")
    players = state.players
    if target == seat or not 0 <= target < len(players) or players[target].bankrupt:
        return _no("B-15", "board.err.bad_trade_partner", target=target)
    give, get = a.give, a.get
    if not (give or a.give_cash or a.give_cards) or not (get or a.get_cash or a.get_cards):
        return _no("B-15", "board.err.trade_one_sided")
    if a.give_cash < 0 or a.get_cash < 0 or a.give_cards < 0 or a.get_cards < 0:
        return _no("B-15", "board.err.trade_negative")
    deed, group_of = _DEED[options.ruleset], _GROUP_OF[options.ruleset]
    owner, houses = state.owner, state.houses
    for squares, who in ((give, seat), (get, target)):
        if len(squares) > 1 and len(set(squares)) != len(squares):
            return _no("B-15", "board.err.trade_duplicate")
        for sq in squares:
            if not 0 <= sq < 40 or not deed[sq] or owner[sq] != who:
                return _no("B-15", "board.err.trade_not_owned", square=sq)
            if any(group_of[sq](houses)):
                return _no("B-15", "board.err.trade_buildings", square=sq)
    return None


def means_problem(state: BoardState, seat: int, a: ProposeTrade | Trade, target: int) -> tuple | None:
    """The rest of ``offer_problem``: whether both sides have the cash and the cards they offer."""
    players = state.players
    give, get = a.give, a.get
    me, them = players[seat], players[target]
    if a.give_cash > me.cash or a.get_cash > them.cash:
        return _no("B-15", "board.err.trade_cash")
    mortgaged = state.mortgaged
    if state.options.received_mortgage_rulings and (True in [mortgaged[sq] for sq in give]
                                                    or True in [mortgaged[sq] for sq in get]):
        # ruling: whoever receives a mortgaged deed pays its 10 % at once, so it must be paid out of
        # the cash they hold once the trade's cash has moved (a trade never leaves a debt behind)
        from engine.board.rules.base import interest  # the rules import this module: read when needed

        for squares, who, left in ((give, target, them.cash + a.give_cash - a.get_cash),
                                   (get, seat, me.cash - a.give_cash + a.get_cash)):
            due = sum(interest(state, sq) for sq in squares if mortgaged[sq])
            if due > left:
                return _no("B-15", "board.err.trade_interest", seat=who, due=due, cash=left)
    if a.give_cards > len(me.jail_cards) or a.get_cards > len(them.jail_cards):
        return _no("B-15", "board.err.trade_cards")
    if a.give_cards and not give and not get:
        cap = board(state.options.ruleset).money["jail_card_max_price"]
        if a.get_cash > cap * a.give_cards:
            return _no("B-07", "board.err.jail_card_price", cap=cap)
    if a.get_cards and not give and not get:
        cap = board(state.options.ruleset).money["jail_card_max_price"]
        if a.give_cash > cap * a.get_cards:
            return _no("B-07", "board.err.jail_card_price", cap=cap)
    return None


def window_problem(state: BoardState, seat: int, counter: int = 0) -> tuple | None:
    """Why ``seat`` may not make an offer now (``counter``: the id of the offer it answers)."""
    if state.options.no_trading:
        return _no("B-15", "board.err.no_trading")
    if state.stage == "debt":
        if state.debts[0].debtor != seat and not counter:
            return _no("B-15", "board.err.not_between_rolls")
    elif state.stage != "roll":
        return _no("B-15", "board.err.not_between_rolls")
    if counter:
        answered = next((t for t in state.trades if t.id == counter), None)
        if answered is None:
            return _no("B-15", "board.err.no_such_trade", trade=counter)
        if answered.target != seat:
            return _no("B-15", "board.err.not_your_trade", trade=counter)
        if answered.counter:
            return _no("B-15", "board.err.counter_to_counter", trade=counter)
    elif seat in state.proposed:
        return _no("B-15", "board.err.one_offer_per_window")
    return None


def proposal_problem(state: BoardState, seat: int, a: ProposeTrade) -> tuple | None:
    """The whole check of a concrete offer (``apply`` and the AI both use it)."""
    problem = window_problem(state, seat, a.counter)
    if problem is not None:
        return problem
    if a.counter:
        answered = next(t for t in state.trades if t.id == a.counter)
        if a.target != answered.proposer:
            return _no("B-15", "board.err.counter_target", trade=a.counter)
    return offer_problem(state, seat, a, a.target)


def order_problem(state: BoardState, t: Trade) -> tuple | None:
    """Offers are settled in the order made: an earlier open offer involving either player first."""
    players = (t.proposer, t.target)
    for other in state.trades:
        if other.id == t.id:
            return None
        if other.proposer in players or other.target in players:
            return _no("B-15", "board.err.earlier_offer_first", trade=other.id)
    return None


class TradeTemplate(NamedTuple):
    """What ``seat`` may put into an offer now (a parameterised ``ProposeTrade``)."""

    partners: tuple[int, ...]
    mine: tuple[int, ...]  # deeds ``seat`` may give
    theirs: dict[int, tuple[int, ...]]  # partner -> deeds they may give
    cash: int  # most cash ``seat`` may give
    their_cash: dict[int, int]
    cards: int
    their_cards: dict[int, int]
    counters: tuple[int, ...]  # open offers to ``seat`` it may answer with a counter-offer
    fresh: bool  # may it make a fresh (not counter) offer now?
    jail_card_cap: int


def trade_template(state: BoardState, seat: int) -> TradeTemplate | None:
    """The space of offers ``seat`` may make now, or ``None`` when it may make none."""
    if state.stage == "over" or not 0 <= seat < len(state.players) or state.players[seat].bankrupt:
        return None
    counters = tuple(t.id for t in state.trades if window_problem(state, seat, t.id) is None)
    fresh = window_problem(state, seat) is None
    if not (fresh or counters):
        return None
    b = board(state.options.ruleset)
    partners = tuple(p.seat for p in state.players if p.seat != seat and not p.bankrupt)

    def deeds(who: int) -> tuple[int, ...]:
        return tuple(sq for sq in b.properties if state.owner[sq] == who and _tradable(state, sq))

    return TradeTemplate(
        partners=partners, mine=deeds(seat), theirs={p: deeds(p) for p in partners},
        cash=state.players[seat].cash, their_cash={p: state.players[p].cash for p in partners},
        cards=len(state.players[seat].jail_cards),
        their_cards={p: len(state.players[p].jail_cards) for p in partners},
        counters=counters, fresh=fresh, jail_card_cap=b.money["jail_card_max_price"],
    )


# -- refused offers --------------------------------------------------------------------------------


def position_stamp(state: BoardState) -> int:
    """The table's holdings (owners, mortgages, buildings) as one number, the same in every process."""
    raw = array("b", state.owner).tobytes() + bytes(state.mortgaged) + bytes(state.houses)
    return zlib.crc32(raw)


def _terms(t: Trade | ProposeTrade) -> tuple:
    return (tuple(sorted(t.give)), tuple(sorted(t.get)), t.give_cash, t.get_cash, t.give_cards, t.get_cards)


def record_refusal(state: BoardState, t: Trade) -> None:
    """Remember a refused offer; forget the ones made on holdings that have changed since."""
    stamp = position_stamp(state)
    kept = [r for r in state.refused if r.position == stamp]
    kept.append(Refusal(trade=t, position=stamp))
    state.refused = kept[-REFUSALS_KEPT:]


def was_refused(state: BoardState, seat: int, offer: ProposeTrade, stamp: int | None = None) -> bool:
    """Did ``offer``'s target already refuse these terms from ``seat`` on these very holdings?"""
    if not state.refused:
        return False
    stamp = position_stamp(state) if stamp is None else stamp
    terms = _terms(offer)
    return any(r.position == stamp and r.trade.proposer == seat and r.trade.target == offer.target
               and _terms(r.trade) == terms for r in state.refused)
