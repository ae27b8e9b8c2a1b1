"""Each game's key for an action at the terminal (``bot.console.keys``): a letter or word per
kind of move, and the number of the card (Deal) or square (地产大亨) the move is about."""

from __future__ import annotations

from collections.abc import Callable

from engine.board.data import board
from engine.board.model import (
    AcceptTrade,
    Bid,
    BuildHouse,
    BuildRound,
    Buy,
    CancelTrade,
    DeclareBankruptcy,
    DeclineShortage,
    DeclineToBuy,
    JoinShortage,
    LiftMortgage,
    Mortgage,
    PassAuction,
    PayDebt,
    PayJailFine,
    PayTax,
    ProposeTrade,
    RaiseMoney,
    RejectTrade,
    Roll,
    SellBuilding,
    SellGroupBuildings,
    UseJailCard,
)
from engine.core.values import EndMatch
from engine.deal.model import (
    Accept,
    AutoPay,
    BankCard,
    ConfirmPayment,
    EndTurn,
    JustSayNo,
    MoveProperty,
)

_DEAL: dict[type, Callable] = {
    EndTurn: lambda a: "e", BankCard: lambda a: f"b{a.card}", MoveProperty: lambda a: f"m{a.card}",
    JustSayNo: lambda a: "n", Accept: lambda a: "a", ConfirmPayment: lambda a: "p", AutoPay: lambda a: "auto",
    EndMatch: lambda a: "end_match",
}


def _first(ruleset: str, group: str) -> int:
    return board(ruleset).groups[group][0]


_BOARD: dict[type, Callable] = {
    Roll: lambda a, r: "r", PayJailFine: lambda a, r: "f", UseJailCard: lambda a, r: "j", Buy: lambda a, r: "b",
    DeclineToBuy: lambda a, r: "d", DeclineShortage: lambda a, r: "d", PassAuction: lambda a, r: "p",
    PayTax: lambda a, r: "t" if a.choice == "flat" else "tp", Bid: lambda a, r: str(a.amount),
    BuildHouse: lambda a, r: f"h{a.square}", BuildRound: lambda a, r: f"hg{_first(r, a.group)}",
    SellBuilding: lambda a, r: f"s{a.square}", SellGroupBuildings: lambda a, r: f"sg{_first(r, a.group)}",
    Mortgage: lambda a, r: f"m{a.square}", LiftMortgage: lambda a, r: f"u{a.square}",
    ProposeTrade: lambda a, r: "o", AcceptTrade: lambda a, r: f"a{a.trade}", RejectTrade: lambda a, r: f"n{a.trade}",
    CancelTrade: lambda a, r: f"c{a.trade}", PayDebt: lambda a, r: "pay", RaiseMoney: lambda a, r: "raise",
    DeclareBankruptcy: lambda a, r: "bankrupt", JoinShortage: lambda a, r: f"w{a.street}",
    EndMatch: lambda a, r: "end_match",
}


def deal_key(action, ruleset: str) -> str:
    make = _DEAL.get(type(action))
    if make is not None:
        return make(action)
    return str(action.card)  # play, lay, place, pay with or discard this card: its number


def board_key(action, ruleset: str) -> str:
    return _BOARD[type(action)](action, ruleset)
