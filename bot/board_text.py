"""地产大亨 in words: square names, money and refusals, for every adapter alike.

The board rules speak in square numbers, seat numbers and plain integers
(``RuleError("B-11", "board.err.build_evenly", square=1)``). A player should read "东山" or
"Dongshan", "2,000元" or "¥2,000", and a name instead of a seat. This module makes that
translation once, from the board data (``data/board/<ruleset>.json``, the one source of square
names) and the message catalogues (``bot.i18n``), so the console, Telegram and Discord show
the same sentence. Seats become names exactly as in the card game (``bot.deal_text``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.deal_text import Names, player_name
from bot.i18n import normalise_lang, t
from engine.board.data import board
from engine.core.errors import RuleError

# How a parameter is shown, by its name (the engine's names: see engine/board/rules.py).
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
        else:
            out[key] = value
    return out


def explain_error(err: RuleError, lang: str, ruleset: str, names: Names) -> str:
    """Why not, and what to do instead, with the rule id so a player can look it up."""
    lang = normalise_lang(lang)
    message = t(lang, err.key, **localise_params(err.params, lang, ruleset, names))
    return t(lang, "ui.error", message=message, rule=err.rule)


__all__ = ["explain_error", "localise_params", "money", "square_name"]
