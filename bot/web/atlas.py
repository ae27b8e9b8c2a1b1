"""What a table page needs to know once, before it draws any view: the game's fixed parts in the
reader's language (the board's 40 squares with their names, kinds, groups, prices and rents; the
Deal deck's cards with their names, kinds, colours and values), the colours every picture uses
(``render``: player colours, group and property colours), the rule set's money as a template, and
the words the page writes itself (square kinds, card kinds). Sent once per page (``atlas`` message,
cached per game, rule set and language), so that each update carries only the views.
"""

from __future__ import annotations

from functools import cache

from engine.board.data import board
from engine.deal.cards import CARDS, COLOURS
from render.colours import PLAYER_COLOURS
from render.deal import PALETTE
from words import board_text, deal_text
from words.games import WORDS
from words.hyphens import soft_hyphens
from words.i18n import ruleset_name


def _hex(rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def money_template(game: str, ruleset: str, lang: str) -> str:
    """The game's money with ``{}`` where the digits go ("¥{}", "{}元", "${}", "{}M")."""
    return WORDS[game].money(1234567, lang, ruleset).replace("1,234,567", "{}").replace("1234567", "{}")


def _board(ruleset: str, lang: str) -> dict:
    b = board(ruleset)
    # ``cell``: the name as the square itself sets it, with soft hyphens where a long word may break;
    # ``deed``: the lines a tapped square shows (its price, rents, costs), worded here
    square_names = [board_text.square_name(ruleset, i, lang) for i in range(len(b.squares))]
    squares = [{"name": square_names[i], "cell": soft_hyphens(square_names[i]), "kind": sq["kind"],
                "group": sq.get("group"), "price": sq.get("price"), "deed": board_text.deed_lines(ruleset, i, lang)}
               for i, sq in enumerate(b.squares)]
    groups = {g: {"colour": b.group_colours.get(g, "#888888"), "name": names.get(lang) or names["en"],
                  "squares": list(b.groups.get(g, ()))} for g, names in b.group_names.items()}
    return {"squares": squares, "groups": groups, "houses": b.money["houses"], "hotels": b.money["hotels"]}


def _deal(ruleset: str, lang: str) -> dict:
    cards = [{"name": deal_text.card_name(c.id, lang), "kind": c.kind, "action": c.action, "value": c.value,
              "colours": list(c.colours), "text": deal_text.card_text(c.id, lang)} for c in CARDS]
    colours = {k: {"name": deal_text.colour_name(k, lang), "colour": _hex(PALETTE[k]), "size": c.set_size,
                   "rent": list(c.rent)} for k, c in COLOURS.items()}
    return {"cards": cards, "colours": colours}


# each game's fixed parts as the page draws them: (rule set, lang) -> the parts
PARTS = {"board": _board, "deal": _deal}


@cache
def atlas(game: str, ruleset: str, lang: str) -> dict:
    parts = PARTS[game](ruleset, lang)
    return {"type": "atlas", "game": game, "ruleset": ruleset, "ruleset_name": ruleset_name(ruleset, lang),
            "lang": lang, "players": [_hex(c) for c in PLAYER_COLOURS],
            "money": money_template(game, ruleset, lang), **parts}
