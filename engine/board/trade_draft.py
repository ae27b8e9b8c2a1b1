"""An offer being built, one change at a time (B-15): the draft, the changes a player can make to
it, and what a screen shows of it. Why here and not in ``trades.py``: a trade is too open for
``legal_actions`` (which lists only a few ready-made offers), so a player composes one; every change
is checked against the rules' own ``trade_template`` (what may go into an offer now), so a draft
always stays inside the rules' limits, and sending it goes through the one validator
(``trades.proposal_problem``) like any move.

Ops are short (they ride in signed button data): ``p<seat>`` the partner, ``m<sq>`` / ``y<sq>``
toggle a deed of mine / of theirs, ``cp<n>`` / ``cm<n>`` cash towards me paying / them paying,
``z`` no cash, ``j`` / ``i`` toggle a jail card I give / I ask for, ``xy`` / ``xt`` type what I pay /
what they pay; ``vp`` / ``vm`` / ``vy`` the partner, my deeds, their deeds as chosen in a menu.

Pure: no storage, no words (``engine.service.trade_desk`` keeps drafts, ``bot.chat.trade_builder`` words
them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import msgspec

from engine.board.data import board
from engine.board.model import BoardState, ProposeTrade
from engine.board.trades import proposal_problem, trade_template, window_problem
from engine.board.valuation import exchange_gain
from engine.core.errors import RuleError

TYPED_MAX = 10_000_000


class Draft(msgspec.Struct):
    """An offer being built by ``seat`` (stored as JSON between presses)."""

    seat: int
    target: int = -1
    give: list[int] = []
    get: list[int] = []
    cash: int = 0  # > 0: the builder pays it; < 0: the partner pays its absolute value
    give_cards: int = 0
    get_cards: int = 0
    counter: int = 0  # the offer this one answers (a counter-offer), 0 for a fresh offer
    typing: str = ""  # "y" / "t": the next typed number is what I pay / what they pay
    message: int = 0  # the front end's id of the builder's message (Telegram edits it)

    def action(self) -> ProposeTrade:
        return ProposeTrade(target=self.target, give=tuple(sorted(self.give)), get=tuple(sorted(self.get)),
                            give_cash=max(self.cash, 0), get_cash=max(-self.cash, 0), give_cards=self.give_cards,
                            get_cards=self.get_cards, counter=self.counter)


@dataclass(frozen=True)
class Desk:
    """What a screen shows of a draft: the choices the rules leave (partners, deeds of each side,
    jail cards, the most cash each side holds), each side's net value by the AI's value model (group
    completion and rent potential count, not only printed prices), and why the rules would refuse
    the offer as it stands (None: they would take it)."""

    draft: Draft
    partners: list[int]  # whom an offer may go to now (none: no offer can be made now)
    mine: list[int]
    theirs: list[int]  # the chosen partner's deeds
    cards: bool  # a jail card of mine to give
    their_cards: bool
    most_mine: int
    most_theirs: int
    steps: tuple[int, int]  # the cash buttons' steps
    gain: tuple[int, int] | None  # (mine, theirs); None while nobody is chosen
    problem: RuleError | None
    players: int


def steps(ruleset: str) -> tuple[int, int]:
    """The cash steps of the buttons: a twentieth and a half of the salary (100 / 1,000 元 in the
    china rule set, $10 / $100 in classic)."""
    salary = board(ruleset).money["salary"]
    return max(1, salary // 20), max(1, salary // 2)


def start(state: BoardState, seat: int, counter: int = 0) -> Draft | RuleError:
    """A fresh draft (the first partner chosen), or a counter-offer's: the answered offer's terms
    turned round, addressed to its maker."""
    template = trade_template(state, seat)
    if template is None or (counter and counter not in template.counters) or (not counter and not template.fresh):
        problem = window_problem(state, seat, counter)
        return RuleError(*problem[:2], **problem[2]) if problem else RuleError("B-15", "board.err.not_between_rolls")
    if counter:
        tr = next(tr for tr in state.trades if tr.id == counter)
        return Draft(seat=seat, target=tr.proposer, give=list(tr.get), get=list(tr.give),
                     cash=tr.get_cash - tr.give_cash, give_cards=tr.get_cards, get_cards=tr.give_cards, counter=counter)
    return Draft(seat=seat, target=template.partners[0] if template.partners else -1)


def change(state: BoardState, draft: Draft, op: str) -> Draft:
    """``draft`` after ``op``; what the template does not allow (a deed that is not there, more cash
    than a side holds) is left out."""
    template = trade_template(state, draft.seat)
    if template is None:
        return draft
    d = msgspec.structs.replace(draft, typing="")
    partner = d.target if d.target in template.partners else -1
    if op[0] == "p" and not d.counter:
        seat = int(op[1:])
        if seat in template.partners and seat != d.target:
            d.target, d.get, d.get_cards = seat, [], 0
            d.cash = min(d.cash, template.cash)
        return d
    if op[0] in "my":
        sq = int(op[1:])
        side, allowed = (d.give, template.mine) if op[0] == "m" else (d.get, template.theirs.get(partner, ()))
        if sq in side:
            side.remove(sq)
        elif sq in allowed:
            side.append(sq)
        return d
    if op[0] == "c":
        amount = int(op[2:])
        d.cash += amount if op[1] == "p" else -amount
    elif op == "z":
        d.cash = 0
    elif op == "j":
        d.give_cards = 0 if d.give_cards or not template.cards else 1
    elif op == "i":
        d.get_cards = 0 if d.get_cards or not template.their_cards.get(partner, 0) else 1
    elif op in ("xy", "xt"):
        d.typing = op[1]
    return clamp(template, d)


def clamp(template, d: Draft) -> Draft:
    """Cash within what each side holds."""
    their = template.their_cash.get(d.target, 0)
    d.cash = max(-their, min(template.cash, d.cash))
    return d


def chosen(state: BoardState, draft: Draft, op: str, values: list[str]) -> Draft:
    """A select menu's choice (``vp`` the partner, ``vm`` / ``vy`` the deeds of either side, the
    whole side at once); what the template does not allow is left out."""
    template = trade_template(state, draft.seat)
    picked = [int(v) for v in values if isinstance(v, str) and v.isdigit() and len(v) <= 2]
    if template is None:
        return draft
    if op == "vp":
        return change(state, draft, f"p{picked[0]}") if picked else draft
    d = msgspec.structs.replace(draft, typing="")
    if op == "vm":
        d.give = sorted({sq for sq in picked if sq in template.mine})
    else:
        d.get = sorted({sq for sq in picked if sq in template.theirs.get(d.target, ())})
    return d


def amount(text: str) -> int | None:
    """A typed amount: digits, commas and the money sign allowed ("1,500", "¥1500", "1500元")."""
    digits = (text or "").strip()
    for mark in (",", "，", "元", "$", "¥", " "):
        digits = digits.replace(mark, "")
    if not digits:
        return 0
    if not re.fullmatch(r"[0-9]{1,8}", digits) or int(digits) > TYPED_MAX:
        return None
    return int(digits)


def typed_both(state: BoardState, draft: Draft, you: str, them: str) -> Draft | None:
    """Both amounts typed at once (a form): None when either is not an amount."""
    mine, theirs = amount(you), amount(them)
    template = trade_template(state, draft.seat)
    if mine is None or theirs is None or template is None:
        return None
    return clamp(template, msgspec.structs.replace(draft, cash=mine - theirs, typing=""))


def typed(state: BoardState, draft: Draft, text: str) -> Draft | None:
    """The amount a player typed for the side they asked to type (None: not a number)."""
    value = amount(text) if (text or "").strip() else None
    template = trade_template(state, draft.seat)
    if value is None or not draft.typing or template is None:
        return None
    d = msgspec.structs.replace(draft, cash=value if draft.typing == "y" else -value, typing="")
    return clamp(template, d)


def desk(state: BoardState, draft: Draft) -> Desk:
    """What a screen shows of ``draft`` now."""
    template = trade_template(state, draft.seat)
    gain = problem = None
    if draft.target >= 0:
        mine, theirs, *_ = exchange_gain(state, draft.seat, draft.target, draft.get, draft.give,
                                         cash_in=max(-draft.cash, 0), cash_out=max(draft.cash, 0),
                                         cards_in=draft.get_cards, cards_out=draft.give_cards)
        gain = (mine, theirs)
        found = proposal_problem(state, draft.seat, draft.action())
        problem = RuleError(found[0], found[1], **found[2]) if found is not None else None
    if template is None:
        return Desk(draft, [], [], [], False, False, 0, 0, steps(state.options.ruleset), gain, problem,
                    len(state.players))
    return Desk(draft, list(template.partners), list(template.mine),
                list(template.theirs.get(draft.target, ())), bool(template.cards),
                bool(template.their_cards.get(draft.target, 0)), template.cash,
                template.their_cash.get(draft.target, 0), steps(state.options.ruleset), gain, problem,
                len(state.players))


def is_open(state: BoardState, offer: int) -> bool:
    """Is offer ``offer`` still waiting for its answer (not accepted, declined, withdrawn, lapsed)?"""
    return any(t.id == offer for t in state.trades)
