"""The rule options a group may choose for its table, read by every front end from the games' own
declarations (``Game.toggles``, ``engine/deal/game.py``, ``engine/board/game.py``).

A table plays a rule set (``china``, ``standard``…) plus some named options of the game's options
struct (``BoardOptions``, ``DealOptions``). This module says which of those fields a casual group
may switch in the lobby or on ``/newgame`` (``name=on``), their allowed values, their short button
code (signed button data allows only ``[0-9a-z:]``, so ``income_tax_choice`` cannot ride in it), and
the locale keys of their label and help (``opt.<name>``, ``opt.<name>.help``). Clock-like fields
(``match_minutes``, ``card_seconds``) and fields kept for old games (``open_answers``) are not here:
they are the service's and the tournament's business.

An entry whose field the engine's struct does not have (yet) is skipped, so the registry works
with whatever fields exist. Pure: no I/O; the text lives in data/locale.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.game import Toggle
from engine.games import GAMES

ON_WORDS = ("on", "yes", "true", "1")
OFF_WORDS = ("off", "no", "false", "0")
__all__ = ["Toggle", "toggles", "by_name", "by_code", "ruleset_defaults", "effective", "flipped", "parse_value",
           "Refusal", "parse", "check"]


def toggles(game: str) -> tuple[Toggle, ...]:
    """The options of ``game`` a group may switch: registry entries whose field the engine has,
    as a ``bool`` (an entry for a field not added yet is left out)."""
    spec = GAMES.get(game)
    if spec is None or spec.options_type is None:
        return ()
    struct = spec.options_type
    fields = set(struct.__struct_fields__)
    defaults = struct()
    return tuple(o for o in spec.toggles if o.name in fields and isinstance(getattr(defaults, o.name), bool))


def by_name(game: str, name: str) -> Toggle | None:
    return next((o for o in toggles(game) if o.name == name), None)


def by_code(game: str, code: str) -> Toggle | None:
    return next((o for o in toggles(game) if o.code == code), None)


def ruleset_defaults(game: str, ruleset: str) -> dict[str, bool]:
    """Each switchable option's value under the rule set alone (Deal's ``tournament`` turns some on)."""
    switchable = toggles(game)
    if not switchable:  # nothing to switch (and perhaps no options struct at all)
        return {}
    base = GAMES[game].resolve_options(ruleset)
    return {o.name: bool(getattr(base, o.name)) for o in switchable}


# the lengths of a timed match a lobby's creator may choose (B-17, D-16: the valuation ends it); 0: none
MATCH_MINUTES = (0, 30, 60, 90)


def match_minutes(game: str, ruleset: str, chosen: dict | None) -> int:
    """The table's timed-match length: what its lobby chose, else its rule set's (0: no clock)."""
    if chosen and isinstance(chosen.get("match_minutes"), int):
        return chosen["match_minutes"]
    from engine.games import GAMES  # (the rule sets are the games')

    defaults = GAMES[game].rules.new_game(2, ruleset, 0).options
    return int(getattr(defaults, "match_minutes", 0))


def effective(game: str, ruleset: str, chosen: dict | None) -> dict[str, bool]:
    """Each switchable option's value at this table: the rule set's, then what the group chose."""
    values = ruleset_defaults(game, ruleset)
    for name, value in (chosen or {}).items():
        if name in values:
            values[name] = bool(value)
    return values


def flipped(game: str, ruleset: str, chosen: dict | None, name: str) -> dict:
    """The chosen options after switching ``name``; an option back at its rule set's value is
    dropped, so the table row keeps only real changes."""
    value = not effective(game, ruleset, chosen)[name]
    out = {k: v for k, v in (chosen or {}).items() if k != name}
    if value != ruleset_defaults(game, ruleset)[name]:
        out[name] = value
    return out


def parse_value(text: str) -> bool | None:
    word = text.strip().lower()
    return True if word in ON_WORDS else False if word in OFF_WORDS else None


@dataclass(frozen=True)
class Refusal:
    """Why typed options were refused: a locale key and its parameters (the front end says it)."""

    key: str
    params: dict


def parse(game: str, words: list[str]) -> tuple[dict[str, bool], Refusal | None]:
    """``name=on|off`` words typed after ``/newgame`` (a bare ``name`` means on). Unknown names and
    values are refused, naming the valid ones."""
    chosen: dict[str, bool] = {}
    for word in words:
        name, sep, value = word.partition("=")
        toggle = by_name(game, name.strip().lower())
        if toggle is None:
            return {}, Refusal("opt.unknown", {"option": name, "choices": ", ".join(o.name for o in toggles(game))
                                               or "-"})
        parsed = parse_value(value) if sep else True
        if parsed is None:
            return {}, Refusal("opt.bad_value", {"option": toggle.name, "value": value,
                                                 "choices": "on, off"})
        chosen[toggle.name] = parsed
    return chosen, None


def check(game: str, chosen: dict | None) -> Refusal | None:
    """Options that reach the service from elsewhere (a stored row, another front end): every name
    switchable, every value a ``bool``."""
    for name, value in (chosen or {}).items():
        if by_name(game, name) is None:
            return Refusal("opt.unknown", {"option": name, "choices": ", ".join(o.name for o in toggles(game))
                                           or "-"})
        if not isinstance(value, bool):
            return Refusal("opt.bad_value", {"option": name, "value": str(value), "choices": "on, off"})
    return None
