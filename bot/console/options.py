"""What `tycoon play` is set up with besides the game: rule options typed as ``--option name=value``
and the folder where a game without ``--db`` is kept.

Options: the switches a group may flip in the lobby come from the shared registry
(``engine.options``) so the console and the chats accept the same names and words; the console also
takes the game's whole-number clock fields (``match_minutes``, Deal's ``card_seconds``), which the
lobby leaves to tournaments, because a person alone at a terminal may want a timed match. Anything
else is refused with the valid names, so a typo never starts a game with the option silently off.

The folder: platformdirs is not a dependency, so it follows the XDG rule by hand:
``$TYCOON_DATA_DIR`` (tests, or a user who wants it elsewhere), else ``$XDG_DATA_HOME/tycoon``, else
``~/.local/share/tycoon``.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine import options as registry
from engine.games import GAMES

CLOCK_FIELDS = ("match_minutes", "card_seconds")  # whole numbers the console lets a player set
MAX_MINUTES = 600  # a ten-hour match is long enough; the bound keeps a typo from meaning "for ever"
DATA_ENV = "TYCOON_DATA_DIR"


def data_dir(env: dict | None = None) -> Path:
    """Where games without ``--db`` are kept (created when missing)."""
    env = os.environ if env is None else env
    if env.get(DATA_ENV):
        folder = Path(env[DATA_ENV])
    else:
        base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        folder = Path(base) / "tycoon"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _numbers(game: str) -> tuple[str, ...]:
    fields = GAMES[game].options_type.__struct_fields__
    return tuple(f for f in CLOCK_FIELDS if f in fields)


def option_names(game: str) -> list[str]:
    return [o.name for o in registry.toggles(game)] + list(_numbers(game))


def parse(game: str, items: list[str] | tuple[str, ...]) -> tuple[dict, tuple[str, dict] | None]:
    """``name=value`` items as an options dict for ``new_game``; or (locale key, params) saying
    why not. A bare ``name`` switches a toggle on."""
    chosen: dict = {}
    choices = ", ".join(option_names(game))
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip().lower(), value.strip()
        if name in _numbers(game):
            if not (sep and value.isascii() and value.isdigit() and int(value) <= MAX_MINUTES):
                return {}, ("console.opt.bad_number", {"option": name, "value": value, "max": MAX_MINUTES})
            chosen[name] = int(value)
            continue
        toggle = registry.by_name(game, name)
        if toggle is None:
            return {}, ("console.opt.unknown", {"option": name, "game": game, "choices": choices,
                                                "example": option_names(game)[0]})
        parsed = registry.parse_value(value) if sep else True
        if parsed is None:
            return {}, ("console.opt.bad_value", {"option": name, "value": value})
        chosen[name] = parsed
    return chosen, None


def options_on(options: dict) -> list[tuple[str, object]]:
    """The options in force that are on (true or a non-zero number), in the game's order, other
    than the rule set's name: what the game's summary lists."""
    out = []
    for name, value in options.items():
        if name == "ruleset" or name == "open_answers":  # open_answers: on in every new game (D-13)
            continue
        if value is True or (type(value) is int and value):
            out.append((name, value))
    return out
