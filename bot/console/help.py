"""What `help` shows at the terminal: the keys of the game, one card's text (Deal, ``help 12``),
one square's prices and rents (地产大亨, ``help 5``), and a money-raising suggestion.

A chat shows buttons and pictures; a terminal player only has words, so the card's rules and a
street's rents are spelled out here. Read from the deck and board data and worded through the
locale files; no rules are decided here.
"""

from __future__ import annotations

from engine.board.data import board
from engine.board.model import Mortgage, SellBuilding, SellGroupBuildings
from engine.deal import rules as deal_rules
from engine.deal.cards import CARDS, COLOURS, N_CARDS
from words.board_text import money, party_name, square_name
from words.deal_text import card_name, colour_name
from words.i18n import t


def legend(game: str, lang: str) -> list[str]:
    """The keys of ``game``, one line each."""
    return t(lang, f"console.help.{game}").split("\n")


def card_text(card: int, lang: str) -> str:
    """What a Deal card is and does, with its value, e.g. for ``help 12``."""
    if not 0 <= card < N_CARDS:
        return t(lang, "console.help.no_card", number=card, max=N_CARDS - 1)
    c = CARDS[card]
    params = {"n": card, "name": card_name(card, lang), "value": c.value}
    colours = t(lang, "console.or").join(colour_name(k, lang) for k in c.colours)
    if c.kind == "money":
        key = "console.card.money"
    elif c.kind == "property":
        col = COLOURS[c.colours[0]]
        key = "console.card.property"
        params.update(colour=colour_name(col.key, lang), size=col.set_size,
                      rents=" / ".join(f"{r}M" for r in col.rent))
    elif c.kind == "wild":
        key = "console.card.wild" if c.colours else "console.card.wild_any"
        params.update(colours=colours)
    elif c.kind == "rent":
        key = "console.card.rent" if c.colours else "console.card.rent_any"
        params.update(colours=colours)
    else:
        key = f"console.card.{c.action}"
        params.update(debt=deal_rules.DEBT_AMOUNT, birthday=deal_rules.BIRTHDAY_AMOUNT)
    return t(lang, key, **params)


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


def raise_order(view: dict, seat: int, actions: list, ruleset: str) -> list:
    """The ways to raise money among ``actions``, least damaging first as a player would judge it:
    mortgage unbuilt property (outside complete groups first, smallest mortgage first) before
    selling any building, and single buildings before whole groups. Only an order of suggestions:
    what is allowed is the rules' ``legal_actions``."""
    b = board(ruleset)
    owned = {s["index"] for s in view.get("squares") or [] if s.get("owner") == seat}

    def complete(square: int) -> bool:
        group = b.group[square]
        return group is not None and all(sq in owned for sq in b.groups.get(group, ()))

    mortgages = sorted((a for a in actions if isinstance(a, Mortgage)),
                       key=lambda a: (complete(a.square), b.mortgage[a.square], a.square))
    sales = sorted((a for a in actions if isinstance(a, SellBuilding)),
                   key=lambda a: (b.house_cost[a.square], a.square))
    return mortgages + sales + [a for a in actions if isinstance(a, SellGroupBuildings)]
