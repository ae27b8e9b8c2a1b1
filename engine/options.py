"""The rule options a group may choose for its table, one registry read by every front end.

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

import msgspec

from engine.board import rules as board_rules
from engine.board.model import BoardOptions
from engine.deal import rules as deal_rules
from engine.deal.model import DealOptions

ON_WORDS = ("on", "yes", "true", "1")
OFF_WORDS = ("off", "no", "false", "0")


@dataclass(frozen=True)
class Toggle:
    """One option a group may switch: a ``bool`` field of the game's options struct."""

    name: str  # the struct's field, also what ``/newgame … name=on`` types
    code: str  # the button's short id ([a-z0-9], at most 8): stable, never reused for another option
    rule: str  # the rule id in docs/rules.md it belongs to

    @property
    def label_key(self) -> str:
        return f"opt.{self.name}"

    @property
    def help_key(self) -> str:
        return f"opt.{self.name}.help"


# In the order the lobby shows them; new entries go at the end of their game (codes stay stable).
REGISTRY: dict[str, tuple[Toggle, ...]] = {
    "board": (
        Toggle("income_tax_choice", "tax", "B-08"),
        Toggle("no_trading", "notrade", "B-15"),
        Toggle("doubles_lock", "dbllock", "B-02"),
        Toggle("rent_claim", "claim", "B-06"),
        Toggle("uneven_building", "uneven", "B-11"),
        Toggle("free_parking_pot", "pot", "B-10"),
    ),
    "deal": (
        Toggle("discard_to_pile", "pile", "D-04"),
        Toggle("single_double_rent", "onedbl", "D-09"),
        Toggle("wild_sets", "wild", "D-07"),
        Toggle("ordered_payment", "order", "D-14"),
        Toggle("private_discard", "privd", "D-18"),
    ),
}

_STRUCTS: dict[str, type[msgspec.Struct]] = {"board": BoardOptions, "deal": DealOptions}
_RESOLVE = {"board": board_rules.resolve_options, "deal": deal_rules.resolve_options}


def toggles(game: str) -> tuple[Toggle, ...]:
    """The options of ``game`` a group may switch: registry entries whose field the engine has,
    as a ``bool`` (an entry for a field not added yet is left out)."""
    struct = _STRUCTS.get(game)
    if struct is None:
        return ()
    fields = set(struct.__struct_fields__)
    defaults = struct()
    return tuple(o for o in REGISTRY[game] if o.name in fields and isinstance(getattr(defaults, o.name), bool))


def by_name(game: str, name: str) -> Toggle | None:
    return next((o for o in toggles(game) if o.name == name), None)


def by_code(game: str, code: str) -> Toggle | None:
    return next((o for o in toggles(game) if o.code == code), None)


def ruleset_defaults(game: str, ruleset: str) -> dict[str, bool]:
    """Each switchable option's value under the rule set alone (Deal's ``tournament`` turns some on)."""
    base = _RESOLVE[game](ruleset)
    return {o.name: bool(getattr(base, o.name)) for o in toggles(game)}


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
