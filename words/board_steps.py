"""The steps that lead to each 地产大亨 move, as short labels (see ``words.deal_steps``): building,
selling, mortgaging and redeeming are each one button that opens the streets it may be done on, so
that a player with twenty deeds does not get forty long buttons under every prompt."""

from __future__ import annotations

from engine.board.data import board
from engine.board.model import (
    HOTEL,
    AcceptTrade,
    BuildHouse,
    BuildRound,
    CancelTrade,
    DeclineToBuy,
    LiftMortgage,
    Mortgage,
    ProposeTrade,
    RejectTrade,
    SellBuilding,
    SellGroupBuildings,
)
from words.board_text import (
    _as_view,
    _houses_on,
    _trade_sides,
    describe_action,
    group_name,
    money,
    party_name,
    square_name,
)
from words.deal_text import Names
from words.i18n import normalise_lang, t


def action_path(ctx, action, lang: str, names: Names, ruleset: str | None = None) -> tuple[str, ...]:
    lang = normalise_lang(lang)
    view = _as_view(ctx)
    ruleset = ruleset or view.get("ruleset", "china")
    b = board(ruleset)
    kind = type(action)
    if kind in (BuildHouse, BuildRound):
        if kind is BuildRound:
            squares = b.groups.get(action.group, ())
            levels = [_houses_on(view, sq) for sq in squares]
            low = min(levels, default=0)
            what = t(lang, "board.step.round", group=group_name(ruleset, action.group, lang),
                     amount=money(ruleset, levels.count(low) * (b.house_cost[squares[0]] if squares else 0), lang))
        else:
            key = "board.step.hotel" if _houses_on(view, action.square) == 4 else "board.step.house"
            what = t(lang, key, square=square_name(ruleset, action.square, lang),
                     amount=money(ruleset, b.house_cost[action.square], lang))
        return t(lang, "board.step.build"), what
    if kind in (SellBuilding, SellGroupBuildings):
        if kind is SellGroupBuildings:
            what = t(lang, "board.step.sell_group", group=group_name(ruleset, action.group, lang))
        else:
            key = "board.step.sell_hotel" if _houses_on(view, action.square) >= HOTEL else "board.step.sell_house"
            what = t(lang, key, square=square_name(ruleset, action.square, lang),
                     amount=money(ruleset, b.house_cost[action.square] // 2, lang))
        return t(lang, "board.step.sell"), what
    if kind is Mortgage:
        return t(lang, "board.step.mortgage"), t(lang, "board.step.square_amount", square=square_name(
            ruleset, action.square, lang), amount=money(ruleset, b.mortgage[action.square], lang))
    if kind is LiftMortgage:
        return t(lang, "board.step.lift"), square_name(ruleset, action.square, lang)
    if kind is ProposeTrade:  # a trade the rules suggest: to whom, then what for what
        return (t(lang, "board.step.propose"), party_name(action.target, lang, names),
                t(lang, "board.step.swap", **_trade_sides(action, lang, ruleset)))
    if kind in _OFFERS:  # the offer itself is told above the buttons
        return (t(lang, _OFFERS[kind], trade=action.trade),)
    if kind is DeclineToBuy:  # beside "Buy <square> for <price>"
        return (t(lang, "board.step.decline"),)
    return (describe_action(view, action, lang, names, ruleset),)


_OFFERS = {AcceptTrade: "board.act.accept_plain", RejectTrade: "board.act.reject_plain",
           CancelTrade: "board.act.cancel_plain"}
