"""A game's rule options from what a caller has: the name of a rule set, the options themselves,
or a dict of overrides on a named rule set. Both games read their options this way
(``resolve_options`` in each game's rules), so a table stored with ``{"ruleset": …, …}`` and a
test that names a rule set mean the same thing in either game."""

from __future__ import annotations

from typing import Any

import msgspec


def resolve(options: Any, presets: dict[str, msgspec.Struct], default: str, kind: type[msgspec.Struct],
            game: str) -> Any:
    """``options`` as ``kind``: None is ``default``'s preset, a name its preset, a dict its
    ``ruleset`` preset (``default`` when it names none) with the other keys set over it. An unknown
    rule set or option is a ``ValueError`` naming the choices."""
    if options is None:
        return presets[default]
    if isinstance(options, kind):
        return options
    if isinstance(options, str):
        if options not in presets:
            raise ValueError(f"unknown {game} rule set {options!r}; choose one of {', '.join(presets)}")
        return presets[options]
    overrides = dict(options)
    base = resolve(overrides.pop("ruleset", default), presets, default, kind, game)
    unknown = set(overrides) - set(kind.__struct_fields__)
    if unknown:
        raise ValueError(f"unknown {game} options: {', '.join(sorted(unknown))}")
    return msgspec.structs.replace(base, **overrides)
