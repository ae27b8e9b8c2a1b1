"""地产大亨 in words: square names, money, refusals, button labels, log lines and a text board.

The board rules speak in square numbers, seat numbers and plain integers
(``RuleError("B-11", "board.err.build_evenly", square=1)``, ``Bought(seat=0, square=1, price=600)``).
A player should read "东山" or "Dongshan", "2,000元" or "¥2,000", and a name instead of a seat.
This module makes that translation once, from the board data (``data/board/<ruleset>.json``, the
one source of square, group and card names) and the message catalogues (``words.i18n``), so the
console, Telegram and Discord show the same sentence. Seats become names exactly as in the card
game (``words.deal_text``). Everything on this table is public, so unlike the card game no line
depends on who reads it; ``render_board`` still reads only a view, never the raw state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial

import msgspec

from engine.board import rules
from engine.board.data import board
from engine.board.model import (
    BANK,
    HOTEL,
    AcceptTrade,
    AuctionOpened,
    AuctionPassed,
    AuctionUnsold,
    AuctionVoided,
    AuctionWon,
    Bid,
    BidMade,
    Bought,
    BuildHouse,
    BuildingSold,
    BuildRound,
    Built,
    Buy,
    CancelTrade,
    CardDrawn,
    CollectRent,
    DebtOpened,
    DeclareBankruptcy,
    DeclineShortage,
    DeclineToBuy,
    DiceRolled,
    EndMatch,
    ForgoRent,
    GameOver,
    GameStarted,
    JoinShortage,
    LeftJail,
    LiftMortgage,
    Mortgage,
    Mortgaged,
    MortgageLifted,
    Moved,
    Paid,
    PassAuction,
    PayDebt,
    PayJailFine,
    PayTax,
    PropertyTransferred,
    ProposeTrade,
    RaiseMoney,
    RejectTrade,
    RentDue,
    RentLapsed,
    Roll,
    SalaryPaid,
    SellBuilding,
    SellGroupBuildings,
    ShortageCalled,
    StayedInJail,
    TradeClosed,
    TradeProposed,
    TurnEnded,
    TurnStarted,
    UseJailCard,
    WentBankrupt,
    WentToJail,
)
from engine.board.presentation import raise_order
from engine.board.rules.base import WHOLE_GROUP_RENT
from engine.core.errors import RuleError
from words.deal_text import Names, player_name
from words.i18n import addressed_to_you, normalise_lang, t

# How a parameter is shown, by its name (the engine's names: see engine/board/rules/).
SQUARE_PARAMS = frozenset({"square", "street"})
MONEY_PARAMS = frozenset({"amount", "minimum", "step", "cap", "cash", "raisable", "price", "refund"})
SEAT_PARAMS = frozenset({"target", "current", "seat"})


def square_name(ruleset: str, square: int, lang: str) -> str:
    """The name printed on ``square`` of the ruleset's board in ``lang``; "#n" for no such square."""
    lang = normalise_lang(lang)
    squares = board(ruleset).squares
    if not isinstance(square, int) or not 0 <= square < len(squares):
        return f"#{square}"
    names = squares[square]["names"]
    return names.get(lang) or names["en"]


def money(ruleset: str, amount: int, lang: str) -> str:
    """An amount as the rule set's money: china "¥2,000" in English and "2,000元" in Chinese,
    classic "$200" in every language."""
    if not isinstance(amount, int):
        return str(amount)
    sign, digits = ("-" if amount < 0 else ""), f"{abs(amount):,}"
    if ruleset == "china":
        if normalise_lang(lang) == "en":
            return f"{sign}¥{digits}"
        return f"{sign}{digits}元"
    return f"{sign}${digits}"


def localise_params(params: Mapping[str, object], lang: str, ruleset: str, names: Names) -> dict[str, object]:
    """Engine parameters as a player reads them: squares -> square names, amounts -> money,
    seats -> player names; anything else (counts, trade numbers) unchanged."""
    lang = normalise_lang(lang)
    out: dict[str, object] = {}
    for key, value in params.items():
        if key in SQUARE_PARAMS:
            out[key] = square_name(ruleset, value, lang)  # type: ignore[arg-type]
        elif key in MONEY_PARAMS:
            out[key] = money(ruleset, value, lang)  # type: ignore[arg-type]
        elif key in SEAT_PARAMS:
            out[key] = player_name(value, lang, names)  # type: ignore[arg-type]
        elif key == "group":
            out[key] = group_name(ruleset, value, lang)  # type: ignore[arg-type]
        else:
            out[key] = value
    return out


def explain_error(err: RuleError, lang: str, ruleset: str, names: Names) -> str:
    """Why not, and what to do instead, with the rule id so a player can look it up."""
    lang = normalise_lang(lang)
    message = t(lang, err.key, **localise_params(err.params, lang, ruleset, names))
    return t(lang, "ui.error", message=message, rule=err.rule)


# -- shared wording ------------------------------------------------------------------------------


def _join(items: Iterable[str], lang: str) -> str:
    return t(lang, "ui.list_sep").join(items)


def party_name(seat: int | None, lang: str, names: Names) -> str:
    """A player's name, or "the bank" for ``BANK`` (a payer, payee, creditor or owner)."""
    if seat == BANK:
        return t(lang, "board.ui.bank")
    return player_name(seat, lang, names)


def _seats(seats: Iterable[int], lang: str, names: Names) -> str:
    return _join((party_name(s, lang, names) for s in seats), lang) or t(lang, "board.ui.nobody")


def group_name(ruleset: str, group: str, lang: str) -> str:
    found = board(ruleset).group_names.get(group)
    return (found.get(lang) or found["en"]) if found else str(group)


def level_text(houses: int, lang: str) -> str:
    """What stands on a street: nothing, n houses or a hotel (``houses`` 5)."""
    if houses >= HOTEL:
        return t(lang, "board.ui.level_hotel")
    if houses in (0, 1):
        return t(lang, f"board.ui.level_{houses}")
    return t(lang, "board.ui.level_n", count=houses)


def _building(kind: str, lang: str) -> str:
    return t(lang, "board.ui.hotel" if kind == "hotel" else "board.ui.house")


def _reason(reason: str, lang: str) -> str:
    key = f"board.ui.reason.{reason}"
    text = t(lang, key)
    return reason if text == key else text  # an unknown reason reads as the engine's word


def trade_terms(squares: Iterable[int], cash: int, cards: int, lang: str, ruleset: str) -> str:
    """One side of a trade: its squares, cash and jail cards; "nothing" when empty."""
    parts = [square_name(ruleset, sq, lang) for sq in squares]
    if cash:
        parts.append(money(ruleset, cash, lang))
    if cards == 1:
        parts.append(t(lang, "board.ui.jail_card_one"))
    elif cards:
        parts.append(t(lang, "board.ui.jail_cards", count=cards))
    return _join(parts, lang) or t(lang, "board.ui.nothing")


def _trade_sides(trade, lang: str, ruleset: str) -> dict[str, str]:
    """``give`` (what the proposer hands over) and ``get`` (what it asks for), worded; ``trade``
    is a ``ProposeTrade``, a ``Trade`` or a view's trade dict."""
    field = trade.get if isinstance(trade, dict) else lambda k, d=None: getattr(trade, k, d)
    return {
        "give": trade_terms(field("give", ()), field("give_cash", 0), field("give_cards", 0), lang, ruleset),
        "get": trade_terms(field("get", ()), field("get_cash", 0), field("get_cards", 0), lang, ruleset),
    }


# -- button labels -------------------------------------------------------------------------------


def _as_view(ctx) -> dict:
    """A view dict from either a view or a raw state (then the public view: nothing is hidden)."""
    return ctx if isinstance(ctx, dict) else rules.view(ctx, None)


def _trade_in(view: dict, trade_id: int) -> dict | None:
    return next((tr for tr in view.get("trades") or [] if tr.get("id") == trade_id), None)


def _claim_in(view: dict, square: int, owner: int | None = None) -> dict | None:
    """The open rent claim (B-06 ``rent_claim``) on ``square`` in the view (the viewer's, when the
    view has one), or None."""
    owner = view.get("viewer") if owner is None else owner
    claims = [c for c in view.get("rent_claims") or [] if c.get("square") == square]
    return next((c for c in claims if c.get("owner") == owner), claims[0] if claims else None)


def _houses_on(view: dict, square: int) -> int:
    return next((s["houses"] for s in view.get("squares") or [] if s["index"] == square), 0)


def _auction_what(auction: dict | None, lang: str, ruleset: str) -> str | None:
    if not auction:
        return None
    if auction.get("kind") == "property":
        return square_name(ruleset, auction.get("square"), lang)
    return t(lang, "board.ui.building_for", building=_building(auction.get("kind", "house"), lang))


def _trade_label(view: dict, action, lang: str, names: Names, ruleset: str) -> str:
    """Accept, reject or withdraw an offer, saying what it is when the view still holds it."""
    key = {AcceptTrade: "accept", RejectTrade: "reject", CancelTrade: "cancel"}[type(action)]
    trade = _trade_in(view, action.trade)
    if trade is None:
        return t(lang, f"board.act.{key}_plain", trade=action.trade)
    return t(lang, f"board.act.{key}", trade=action.trade, proposer=party_name(trade["proposer"], lang, names),
             target=party_name(trade["target"], lang, names), **_trade_sides(trade, lang, ruleset))


def describe_action(ctx, action, lang: str, names: Names, ruleset: str | None = None) -> str:
    """A short button label for ``action``; ``ctx`` is a view dict (preferred) or the state."""
    lang = normalise_lang(lang)
    view = _as_view(ctx)
    ruleset = ruleset or view.get("ruleset", "china")
    b = board(ruleset)
    cash = partial(money, ruleset, lang=lang)
    place = partial(square_name, ruleset, lang=lang)
    kind = type(action)
    if kind in _PLAIN_ACTIONS:
        return t(lang, _PLAIN_ACTIONS[kind])
    if kind is PayJailFine:
        return t(lang, "board.act.pay_jail_fine", amount=cash(b.money["jail_fine"]))
    if kind in (Buy, DeclineToBuy):
        sq = view.get("buy_square", -1)
        key = "board.act.buy" if kind is Buy else "board.act.decline"
        if not isinstance(sq, int) or sq < 0:
            return t(lang, key + "_plain")
        return t(lang, key, square=place(sq), amount=cash(b.price[sq]))
    if kind is Bid:
        what = _auction_what(view.get("auction"), lang, ruleset)
        key = "board.act.bid_beyond" if action.beyond_reach else "board.act.bid"  # B-05's warning
        if what is None:
            return t(lang, key + "_plain", amount=cash(action.amount))
        return t(lang, key, amount=cash(action.amount), what=what)
    if kind is CollectRent:
        claim = _claim_in(view, action.square)
        if claim is None:
            return t(lang, "board.act.collect_rent_plain", square=place(action.square))
        return t(lang, "board.act.collect_rent", amount=cash(claim["amount"]), square=place(action.square),
                 payer=party_name(claim["payer"], lang, names))
    if kind is ForgoRent:
        return t(lang, "board.act.forgo_rent", square=place(action.square))
    if kind is PayTax:
        if action.choice == "percent":
            return t(lang, "board.act.tax_percent", percent=b.money["income_tax_percent"])
        return t(lang, "board.act.tax_flat", amount=cash(b.money["income_tax"]))
    if kind is BuildHouse:
        key = "board.act.build_hotel" if _houses_on(view, action.square) == 4 else "board.act.build_house"
        return t(lang, key, square=place(action.square), amount=cash(b.house_cost[action.square]))
    if kind is BuildRound:
        squares = b.groups.get(action.group, ())
        levels = [_houses_on(view, sq) for sq in squares]
        low = min(levels, default=0)
        key = "board.act.build_round_hotels" if low == 4 else "board.act.build_round"
        cost = b.house_cost[squares[0]] if squares else 0
        return t(lang, key, count=levels.count(low), group=group_name(ruleset, action.group, lang),
                 amount=cash(levels.count(low) * cost))
    if kind is SellBuilding:
        key = "board.act.sell_hotel" if _houses_on(view, action.square) >= HOTEL else "board.act.sell_house"
        return t(lang, key, square=place(action.square), amount=cash(b.house_cost[action.square] // 2))
    if kind is SellGroupBuildings:
        return t(lang, "board.act.sell_group", group=group_name(ruleset, action.group, lang))
    if kind is Mortgage:
        return t(lang, "board.act.mortgage", square=place(action.square), amount=cash(b.mortgage[action.square]))
    if kind is LiftMortgage:
        return t(lang, "board.act.lift", square=place(action.square))
    if kind is ProposeTrade:
        return t(lang, "board.act.propose", target=party_name(action.target, lang, names),
                 **_trade_sides(action, lang, ruleset))
    if kind in (AcceptTrade, RejectTrade, CancelTrade):
        return _trade_label(view, action, lang, names, ruleset)
    if kind is PayDebt:
        debts = view.get("debts") or []
        if not debts:
            return t(lang, "board.act.pay_debt_plain")
        return t(lang, "board.act.pay_debt", amount=cash(debts[0]["amount"]),
                 creditor=party_name(debts[0]["creditor"], lang, names))
    if kind is JoinShortage:
        building = (view.get("shortage") or {}).get("building", "house")
        return t(lang, "board.act.join_shortage", building=_building(building, lang), street=place(action.street))
    return type(action).__name__


_PLAIN_ACTIONS = {
    Roll: "board.act.roll", UseJailCard: "board.act.use_jail_card", PassAuction: "board.act.pass_auction",
    RaiseMoney: "board.act.raise_money", DeclareBankruptcy: "board.act.bankrupt",
    DeclineShortage: "board.act.decline_shortage", EndMatch: "board.act.end_match",
}

# The actions that answer each kind of decision, keyed by the decision's timeout action: they
# lead the numbered list so a long list of build, mortgage and trade options does not bury them.
def decision_first(actions: list, decision) -> list:
    """``actions`` reordered (stably) so that the ones answering ``decision`` come first; a trade
    decision's answers are those for that very offer."""
    first = rules.answers(decision, actions)
    return first + [a for a in actions if a not in first]


def prompt_line(view: dict, decision, lang: str, names: Names, ruleset: str | None = None) -> str:
    """The question put to the seat of ``decision`` (a ``waiting_for`` entry), with its stakes."""
    lang = normalise_lang(lang)
    ruleset = ruleset or view.get("ruleset", "china")
    cash = partial(money, ruleset, lang=lang)
    params: dict[str, object] = {"seat": party_name(decision.seat, lang, names)}
    kind = decision.kind
    if kind == "buy" and view.get("buy_square", -1) >= 0:
        sq = view["buy_square"]
        params.update(square=square_name(ruleset, sq, lang), amount=cash(board(ruleset).price[sq]))
    elif kind == "bid" and view.get("auction"):
        params.update(minimum=cash(view.get("min_bid") or view["auction"]["opening"]))
    elif kind == "debt" and view.get("debts"):
        d = view["debts"][0]
        params.update(creditor=party_name(d["creditor"], lang, names), amount=cash(d["amount"]))
    elif kind == "shortage" and view.get("shortage"):
        params.update(building=_building(view["shortage"]["building"], lang))
    elif kind == "rent":
        claim = _claim_in(view, getattr(decision.timeout, "square", None), decision.seat)
        if claim is not None:
            params.update(payer=party_name(claim["payer"], lang, names), amount=cash(claim["amount"]),
                          square=square_name(ruleset, claim["square"], lang))
    elif kind == "trade":
        trade = _trade_in(view, getattr(decision.timeout, "trade", None))
        if trade is not None:
            params.update(proposer=party_name(trade["proposer"], lang, names), **_trade_sides(trade, lang, ruleset))
    if kind in _PROMPT_KINDS and all(p in params for p in _PROMPT_KINDS[kind]):
        return t(lang, f"board.ui.prompt.{kind}", **params)
    return t(lang, "board.ui.prompt.other", **params)  # unknown stakes: the general question


# What each question needs besides the seat; without it (a stale view) the general one is asked.
_PROMPT_KINDS = {
    "roll": (), "tax": (), "buy": ("square", "amount"), "bid": ("minimum",), "debt": ("creditor", "amount"),
    "shortage": ("building",), "trade": ("proposer", "give", "get"), "rent": ("payer", "square", "amount"),
}


# -- log lines -----------------------------------------------------------------------------------

# Payments a more telling event reports already (bought, built, mortgaged, ...): a log leaves them out.
QUIET_PAYMENTS = frozenset({"salary", "purchase", "auction", "building", "building_sale", "mortgage",
                            "lift_mortgage"})


def _card_text(ruleset: str, deck: str, index: int, lang: str) -> str:
    cards = board(ruleset).deck(deck)
    if not isinstance(index, int) or not 0 <= index < len(cards):
        return f"#{index}"
    return cards[index].names.get(lang) or cards[index].names["en"]


def _scores(scores: dict, lang: str, names: Names, ruleset: str) -> str:
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], int(kv[0])))
    return _join((t(lang, "board.ui.score", seat=party_name(int(s), lang, names), amount=money(ruleset, v, lang))
                  for s, v in ranked), lang)


def _describe_game_over(ev: GameOver, lang: str, names: Names, ruleset: str) -> str:
    if not ev.winners:
        return t(lang, "board.ev.game_over_none")
    key = {"last_player": "board.ev.game_over_last", "time": "board.ev.game_over_time",
           "turn_cap": "board.ev.game_over_turn_cap"}.get(ev.reason, "board.ev.game_over_other")
    if key in ("board.ev.game_over_time", "board.ev.game_over_turn_cap") and not ev.scores:
        key = "board.ev.game_over_other"
    return t(lang, key, winners=_seats(ev.winners, lang, names), scores=_scores(ev.scores, lang, names, ruleset))


def describe_event(event, lang: str, names: Names, ruleset: str) -> str:
    """One log line for ``event``. Everything in this game is public, so no viewer is needed."""
    lang = normalise_lang(lang)
    who = partial(party_name, lang=lang, names=names)
    cash = partial(money, ruleset, lang=lang)
    place = partial(square_name, ruleset, lang=lang)
    ev = event
    kind = type(ev)
    if kind is GameStarted:
        order = _seats(ev.order, lang, names)
        if ev.rolls:
            rolls = _join((f"{who(s)} {a}+{b}" for s, a, b in ev.rolls), lang)
            return t(lang, "board.ev.game_started_rolls", order=order, rolls=rolls)
        return t(lang, "board.ev.game_started", order=order)
    if kind is TurnStarted:
        return t(lang, "board.ev.turn_started", seat=who(ev.seat), turn=ev.turn)
    if kind is TurnEnded:
        return t(lang, "board.ev.turn_ended", seat=who(ev.seat))
    if kind is DiceRolled:
        a, b = (list(ev.dice) + [0, 0])[:2]
        key = "board.ev.dice_doubles" if a == b else "board.ev.dice"
        return t(lang, key, seat=who(ev.seat), a=a, b=b, total=a + b)
    if kind is Moved:
        return t(lang, "board.ev.moved", seat=who(ev.seat), square=place(ev.to))
    if kind is SalaryPaid:
        return t(lang, "board.ev.salary", seat=who(ev.seat), amount=cash(ev.amount))
    if kind is WentToJail:
        return t(lang, f"board.ev.jail_{ev.reason}", seat=who(ev.seat))
    if kind is LeftJail:
        return t(lang, f"board.ev.left_jail_{ev.how}", seat=who(ev.seat))
    if kind is StayedInJail:
        return t(lang, "board.ev.stayed_in_jail", seat=who(ev.seat), tries=ev.tries)
    if kind is CardDrawn:
        return t(lang, "board.ev.card", seat=who(ev.seat), deck=t(lang, f"board.ui.deck.{ev.deck}"),
                 card=_card_text(ruleset, ev.deck, ev.card, lang))
    if kind is Bought:
        return t(lang, "board.ev.bought", seat=who(ev.seat), square=place(ev.square), amount=cash(ev.price))
    if kind is AuctionOpened:
        common = {"amount": cash(ev.opening), "bidders": _seats(ev.bidders, lang, names)}
        if ev.kind == "property":
            return t(lang, "board.ev.auction_property", square=place(ev.square), **common)
        return t(lang, "board.ev.auction_building", building=_building(ev.kind, lang), **common)
    if kind is BidMade:
        return t(lang, "board.ev.bid", seat=who(ev.seat), amount=cash(ev.amount))
    if kind is AuctionPassed:
        return t(lang, "board.ev.auction_passed", seat=who(ev.seat))
    if kind is AuctionWon:
        if ev.kind == "property":
            return t(lang, "board.ev.auction_won", seat=who(ev.seat), square=place(ev.square), amount=cash(ev.amount))
        return t(lang, "board.ev.auction_won_building", seat=who(ev.seat), square=place(ev.square),
                 amount=cash(ev.amount), building=_building(ev.kind, lang))
    if kind is AuctionVoided:
        return t(lang, "board.ev.auction_voided", seat=who(ev.seat), amount=cash(ev.amount))
    if kind is AuctionUnsold:
        if ev.square < 0:
            return t(lang, "board.ev.auction_unsold_building")
        return t(lang, "board.ev.auction_unsold", square=place(ev.square))
    if kind is Paid:  # the bank as payer opens the sentence, where English wants a capital
        key = "board.ev.paid_by_bank" if ev.payer == BANK else "board.ev.paid"
        return t(lang, key, payer=who(ev.payer), payee=who(ev.payee), amount=cash(ev.amount),
                 reason=_reason(ev.reason, lang))
    if kind in (RentDue, RentLapsed):
        key = "board.ev.rent_due" if kind is RentDue else "board.ev.rent_lapsed"
        return t(lang, key, owner=who(ev.owner), payer=who(ev.payer), square=place(ev.square), amount=cash(ev.amount))
    if kind is DebtOpened:
        return t(lang, "board.ev.debt", debtor=who(ev.debtor), creditor=who(ev.creditor), amount=cash(ev.amount),
                 reason=_reason(ev.reason, lang))
    if kind is Built:
        return t(lang, "board.ev.built", seat=who(ev.seat), square=place(ev.square), level=level_text(ev.houses, lang))
    if kind is BuildingSold:
        return t(lang, "board.ev.building_sold", seat=who(ev.seat), square=place(ev.square),
                 amount=cash(ev.refund), level=level_text(ev.houses, lang))
    if kind is Mortgaged:
        return t(lang, "board.ev.mortgaged", seat=who(ev.seat), square=place(ev.square), amount=cash(ev.amount))
    if kind is MortgageLifted:
        return t(lang, "board.ev.mortgage_lifted", seat=who(ev.seat), square=place(ev.square),
                 amount=cash(ev.amount))
    if kind is TradeProposed:
        tr = ev.trade
        return t(lang, "board.ev.trade_proposed", proposer=who(tr.proposer), target=who(tr.target), trade=tr.id,
                 **_trade_sides(tr, lang, ruleset))
    if kind is TradeClosed:
        if ev.outcome == "accepted" and ev.deal is not None:
            return t(lang, "board.ev.trade_done", proposer=who(ev.deal.proposer), target=who(ev.deal.target),
                     **_trade_sides(ev.deal, lang, ruleset))
        return t(lang, f"board.ev.trade_{ev.outcome}", trade=ev.trade)
    if kind is PropertyTransferred:
        return t(lang, "board.ev.transferred", square=place(ev.square), from_seat=who(ev.from_seat),
                 to_seat=who(ev.to_seat))
    if kind is ShortageCalled:
        return t(lang, "board.ev.shortage", count=ev.bank, building=_building(ev.building, lang),
                 initiator=who(ev.initiator), asked=_seats(ev.asked, lang, names))
    if kind is WentBankrupt:
        return t(lang, "board.ev.bankrupt", seat=who(ev.seat), creditor=who(ev.creditor))
    if kind is GameOver:
        return _describe_game_over(ev, lang, names, ruleset)
    return type(ev).__name__


def _haggling(event, viewer: int | None) -> bool:
    """Is ``event`` part of a trade's haggling that ``viewer`` does not see? The group sees one
    line when a trade is made (B-15: offers are private to their two players); the cash and deeds
    that change hands are in that line."""
    if isinstance(event, TradeProposed):
        return viewer not in (event.trade.proposer, event.trade.target)
    if isinstance(event, TradeClosed) and event.outcome != "accepted":
        return event.deal is None or viewer not in (event.deal.proposer, event.deal.target)
    return False


def log_lines(events: Iterable, lang: str, names: Names, ruleset: str, viewer: int | None = None) -> list[str]:
    """The log for a batch of events as ``viewer`` (None: the group) reads it, without the payments
    and transfers another line already tells, and without the haggling of others' trades."""
    events = list(events)
    traded = any(isinstance(e, TradeClosed) and e.outcome == "accepted" and e.deal is not None for e in events)
    kept = [e for e in events
            if not (isinstance(e, Paid) and (e.reason in QUIET_PAYMENTS or (traded and e.reason == "trade")))
            and not (traded and isinstance(e, PropertyTransferred) and e.from_seat != BANK)
            and not _haggling(e, viewer)]
    return [describe_event(e, lang, names, ruleset) for e in _summed_payments(kept)]


def _summed_payments(events: list) -> list:
    """Payments in a row from one payer to one payee for one reason as one (a bankrupt's mortgaged
    deeds taken over: the interest on each, B-16, six lines of it at the end of a game)."""
    out: list = []
    for e in events:
        last = out[-1] if out else None
        if isinstance(e, Paid) and isinstance(last, Paid) and (e.payer, e.payee, e.reason) == (
                last.payer, last.payee, last.reason):
            out[-1] = msgspec.structs.replace(last, amount=last.amount + e.amount)
        else:
            out.append(e)
    return out


def deed_lines(ruleset: str, square: int, lang: str) -> list[str]:
    """A square's printed deed, a line each: its price, its rents as the deed lists them (B-06: the
    base rent, doubled for the whole group; with 1–4 houses; with a hotel; a station's by how many
    are owned; a utility's by the dice), a building's cost, the mortgage. Empty for the rest."""
    lang = normalise_lang(lang)
    b = board(ruleset)
    kind, rent = b.kind[square], b.rent[square]
    if kind not in ("street", "station", "utility"):
        return []
    cash = partial(money, ruleset, lang=lang)
    lines = [t(lang, "web.sq.price", amount=cash(b.price[square]))]
    if kind == "street":
        lines += [t(lang, "web.sq.rent_base", amount=cash(rent[0]), double=cash(WHOLE_GROUP_RENT * rent[0])),
                  t(lang, "web.sq.rent_houses", amounts=" / ".join(cash(r) for r in rent[1:5])),
                  t(lang, "web.sq.hotel", amount=cash(rent[5])),
                  t(lang, "web.sq.house_cost", amount=cash(b.house_cost[square]))]
    elif kind == "station":
        lines.append(t(lang, "web.sq.rent_stations", amounts=" / ".join(cash(r) for r in rent)))
    else:
        lines.append(t(lang, "web.sq.rent_utility", one=rent[0], two=rent[1]))
    return lines + [t(lang, "web.sq.mortgage", amount=cash(b.mortgage[square]))]


def news_lines(events: Iterable, seat: int, lang: str, names: Names, ruleset: str, timed_out=()) -> list[str]:
    """What this update tells ``seat`` alone about an offer of theirs that closed without a trade
    (B-15: offers are private, so the group's log never says): declined (to its proposer), not
    answered in time (the target's clock, ``timed_out``, closed it: not a refusal), withdrawn (to its
    target), lapsed with the roll (to both)."""
    lang = normalise_lang(lang)
    who = partial(party_name, lang=lang, names=names)
    out = []
    for e in events:
        if not isinstance(e, TradeClosed) or e.deal is None or seat not in (e.deal.proposer, e.deal.target):
            continue
        deal, mine = e.deal, e.deal.proposer == seat
        if e.outcome == "rejected" and mine:
            key = "board.news.unanswered" if deal.target in timed_out else "board.news.rejected"
            out.append(t(lang, key, target=who(deal.target), trade=e.trade, **_trade_sides(deal, lang, ruleset)))
        elif e.outcome == "cancelled" and not mine:
            out.append(t(lang, "board.news.withdrawn", proposer=who(deal.proposer), trade=e.trade))
        elif e.outcome == "expired":
            out.append(t(lang, "board.news.lapsed", proposer=who(deal.proposer), target=who(deal.target),
                         trade=e.trade))
    return out


def winners_line(winners: list[int], lang: str, names: Names) -> str:
    lang = normalise_lang(lang)
    if not winners:
        return t(lang, "board.ui.no_winner")
    key = "board.ui.winner" if len(winners) == 1 else "board.ui.winners"
    return t(lang, key, names=_seats(winners, lang, names))


# -- the board -----------------------------------------------------------------------------------


def _header(view: dict, lang: str, names: Names) -> list[str]:
    if view["stage"] == "over":
        return [f"== {t(lang, 'board.ui.game_over')} ==", winners_line(view.get("winners") or [], lang, names)]
    header = t(lang, "board.ui.header", turn=view["turn"], seat=party_name(view["current"], lang, names),
               stage=t(lang, f"board.ui.stage.{view['stage']}"))
    lines = [f"== {header} =="]
    if len(view.get("last_dice") or []) == 2:
        a, b = view["last_dice"]
        lines.append(t(lang, "board.ui.dice", a=a, b=b))
    return lines


def _player_line(p: dict, view: dict, lang: str, names: Names, ruleset: str) -> str:
    extras = ""
    if p["in_jail"]:
        extras += t(lang, "board.ui.mark_in_jail", tries=p["jail_turns"])
    if p["jail_cards"]:
        extras += t(lang, "board.ui.mark_jail_cards", count=p["jail_cards"])
    if p["bankrupt"]:
        extras += t(lang, "board.ui.mark_bankrupt")
    on_turn = p["seat"] == view["current"] and view["stage"] != "over"
    # The jail corner's printed name is the visitors' one (探监－只是参观); a jailed player is in the jail.
    place = t(lang, "board.ui.in_jail_square") if p["in_jail"] else square_name(ruleset, p["position"], lang)
    return t(lang, "board.ui.player_line", marker="▶ " if on_turn else "  ", seat=party_name(p["seat"], lang, names),
             cash=money(ruleset, p["cash"], lang), square=place, count=len(p["properties"]), extras=extras)


def _property_lines(view: dict, lang: str, names: Names, ruleset: str) -> list[str]:
    """Owned properties, one line per colour group in board order, with owner and buildings."""
    by_square = {s["index"]: s for s in view.get("squares") or []}
    lines = []
    # streets in board order first, then stations and utilities (the data lists groups as met)
    groups = sorted(board(ruleset).group_list, key=lambda g: (not g[2], g[1][0]))
    for group, squares, _street in groups:
        owned = []
        for sq in squares:
            s = by_square.get(sq)
            if s is None or s["owner"] == BANK:
                continue
            marks = t(lang, "board.ui.mark_level", level=level_text(s["houses"], lang)) if s["houses"] else ""
            if s["mortgaged"]:
                marks += t(lang, "board.ui.mark_mortgaged")
            owned.append(t(lang, "board.ui.owned", square=square_name(ruleset, sq, lang),
                           owner=party_name(s["owner"], lang, names), marks=marks))
        if owned:
            lines.append("  " + t(lang, "board.ui.group_line", group=group_name(ruleset, group, lang),
                                  squares=_join(owned, lang)))
    return lines or ["  " + t(lang, "board.ui.no_properties")]


def pending_lines(view: dict, lang: str, names: Names, ruleset: str) -> list[str]:
    """What the table waits for besides the roll: a purchase, the tax, an auction, debts, offers."""
    who = partial(party_name, lang=lang, names=names)
    cash = partial(money, ruleset, lang=lang)
    lines = []
    cur = view["current"]
    if view["stage"] == "buy" and view.get("buy_square", -1) >= 0:
        sq = view["buy_square"]
        lines.append(t(lang, "board.ui.buy_pending", seat=who(cur), square=square_name(ruleset, sq, lang),
                       amount=cash(board(ruleset).price[sq])))
    if view["stage"] == "tax":
        lines.append(t(lang, "board.ui.tax_pending", seat=who(cur)))
    a = view.get("auction")
    if a:
        common = {"what": _auction_what(a, lang, ruleset), "minimum": cash(view.get("min_bid") or a["opening"]),
                  "bidders": _seats(a["bidders"], lang, names)}
        if a["high_bidder"] < 0:
            lines.append(t(lang, "board.ui.auction_open", **common))
        else:
            lines.append(t(lang, "board.ui.auction", amount=cash(a["high_bid"]), bidder=who(a["high_bidder"]),
                           **common))
    for d in view.get("debts") or []:
        lines.append(t(lang, "board.ui.debt", debtor=who(d["debtor"]), creditor=who(d["creditor"]),
                       amount=cash(d["amount"]), reason=_reason(d["reason"], lang)))
    s = view.get("shortage")
    if s:
        wanters = _join((t(lang, "board.ui.wanter", seat=who(int(seat)), street=square_name(ruleset, street, lang))
                         for seat, street in s["wanters"].items()), lang)
        lines.append(t(lang, "board.ui.shortage", building=_building(s["building"], lang),
                       asked=_seats(s["asked"], lang, names), wanters=wanters or t(lang, "board.ui.nobody")))
    return lines


def render_board(view: dict, lang: str, names: Names, ruleset: str | None = None) -> str:
    """A compact multi-line picture of a ``view(state, seat)`` dict: whose turn, the players,
    owned properties by colour group, the bank's buildings and whatever the table waits for.
    Reads only the view."""
    lang = normalise_lang(lang)
    ruleset = ruleset or view.get("ruleset", "china")
    lines = _header(view, lang, names)
    by_seat = {p["seat"]: p for p in view["players"]}
    for seat in view.get("order") or sorted(by_seat):
        lines.append(_player_line(by_seat[seat], view, lang, names, ruleset))
    lines += _property_lines(view, lang, names, ruleset)
    lines.append(t(lang, "board.ui.bank_stock", houses=view["bank_houses"], hotels=view["bank_hotels"]))
    if view.get("parking_pot") is not None:  # B-10 with the Free Parking pot
        lines.append(t(lang, "board.ui.parking_pot", amount=money(ruleset, view["parking_pot"], lang)))
    lines += pending_lines(view, lang, names, ruleset)
    return "\n".join(lines)


__all__ = [
    "QUIET_PAYMENTS", "decision_first", "describe_action", "describe_event", "explain_error", "group_name",
    "level_text", "localise_params", "log_lines", "money", "party_name", "prompt_line", "render_board",
    "square_name",
    "winners_line",
]


def private_lines(view: dict, seat: int, decisions: list, lang: str, names: Names, ruleset: str | None = None
                  ) -> list[str]:
    """A player's own message, short: their own line (cash, square, properties) and what they are
    asked now (the board itself, and whose turn it is, are in the group's message)."""
    lang = normalise_lang(lang)
    ruleset = ruleset or view.get("ruleset", "china")
    lines = []
    me = next((p for p in view["players"] if p["seat"] == seat), None)
    if me is not None:
        lines.append(_player_line(me, view, lang, names, ruleset).strip())
    # the player's own screen: the question says 你 / you, not their own name
    lines += [addressed_to_you(prompt_line(view, d, lang, names, ruleset), party_name(d.seat, lang, names))
              for d in decisions]
    # the player's own open offers (the group's message never lists offers: B-15 haggling is private)
    who = partial(party_name, lang=lang, names=names)
    for tr in view.get("trades") or []:
        if tr["proposer"] == seat:
            lines.append(t(lang, "board.ui.trade", trade=tr["id"], proposer=who(tr["proposer"]),
                           target=who(tr["target"]), **_trade_sides(tr, lang, ruleset)))
    return lines


def square_text(view: dict, square: int, lang: str, names: dict, ruleset: str) -> str:
    """A square's price, rents, building cost and mortgage, and who holds it now."""
    b = board(ruleset)
    if not 0 <= square < len(b.kind):
        return t(lang, "console.help.no_square", number=square, max=len(b.kind) - 1)
    cash = lambda amount: money(ruleset, amount, lang)  # noqa: E731
    name = square_name(ruleset, square, lang)
    kind, rent = b.kind[square], b.rent[square]
    if kind == "street":
        text = t(lang, "console.square.street", n=square, square=name, price=cash(b.price[square]),
                 rent=cash(rent[0]), houses=" / ".join(cash(r) for r in rent[1:5]), hotel=cash(rent[5]),
                 house=cash(b.house_cost[square]), mortgage=cash(b.mortgage[square]))
    elif kind == "station":
        text = t(lang, "console.square.station", n=square, square=name, price=cash(b.price[square]),
                 rents=" / ".join(cash(r) for r in rent), mortgage=cash(b.mortgage[square]))
    elif kind == "utility":
        text = t(lang, "console.square.utility", n=square, square=name, price=cash(b.price[square]),
                 one=rent[0], two=rent[1], mortgage=cash(b.mortgage[square]))
    else:
        return t(lang, "console.square.other", n=square, square=name)
    info = next((s for s in view.get("squares") or [] if s["index"] == square), None)
    if info is not None and info.get("owner", -1) >= 0:
        text += " " + t(lang, "console.square.owner", owner=party_name(info["owner"], lang, names),
                        houses=info["houses"],
                        mortgaged=t(lang, "board.ui.mark_mortgaged") if info["mortgaged"] else "")
    return text


def choice_order(view: dict, decision, actions: list) -> list:
    """The decision's own answers first; in a debt, the ways to raise money in the order the
    suggestion prefers (mortgages before building sales), then the rest."""
    actions = decision_first(actions, decision)
    if decision.kind != "debt":
        return actions
    first = rules.answers(decision, actions)
    raising = raise_order(view, decision.seat, actions, view["ruleset"])
    return first + raising + [a for a in actions if a not in first and a not in raising]


def decision_notes(view: dict, decision, keyed: list, lang: str, names: Names, ruleset: str, label) -> list[str]:
    """The lines a terminal shows beside a decision's keyed choices: a street's rents before buying
    it; in a debt, the suggested first step to raise money (``label`` words a move)."""
    if decision.kind == "buy" and view.get("buy_square", -1) >= 0:
        return [square_text(view, view["buy_square"], lang, names, ruleset)]
    if decision.kind == "debt":
        raising = raise_order(view, decision.seat, [a for _, a in keyed], ruleset)
        if raising:
            key = next(k for k, a in keyed if a == raising[0])
            return [t(lang, "console.suggest_raise", code=key, move=label(view, raising[0], lang, names,
                                                                                   ruleset))]
    return []
