"""The rule options of a table as every chat adapter shows them: the lobby's toggle buttons and its
"options on" line, the table's part of ``/rules``, and ``/newgame``'s typed options.

The options themselves (which exist, their values, their button codes) are ``engine.options``;
this module only words them. An option whose label is not in the catalogues yet shows its field
name rather than a raw key. Lobby buttons carry ``l:<table>:o:<code>``, signed like every lobby
button; only the table's creator may press them (the service checks).
"""

from __future__ import annotations

from bot.chat.pace import pace_button
from engine import options as table_options
from engine.games import GAMES
from words.i18n import CATALOGUES, ruleset_name, t

ON, OFF = "✅", "⬜"


def label(lang: str, toggle: table_options.Toggle) -> str:
    """The option's name in ``lang``; its field name while no catalogue has a label for it."""
    if any(toggle.label_key in catalogue for catalogue in CATALOGUES.values()):
        return t(lang, toggle.label_key)
    return toggle.name


def help_text(lang: str, toggle: table_options.Toggle) -> str:
    if any(toggle.help_key in catalogue for catalogue in CATALOGUES.values()):
        return t(lang, toggle.help_key)
    return ""


def values(row) -> dict[str, bool]:
    """What each switchable option is at this table (its rule set, then what the group chose)."""
    chosen = {k: v for k, v in (row.options or {}).items() if k != "ruleset"}
    return table_options.effective(row.game, row.ruleset, chosen)


def lobby_buttons(row, lang: str) -> list[tuple[str, str]]:
    """One toggle per switchable option, marked on or off, then the timed match's length, a press
    moving it to the next (no clock, 30, 60, 90 minutes), then the pace of a slow game (normal, 1 h,
    8 h, 24 h a move: ``bot/chat/pace.py``): (label, unsigned button data)."""
    now = values(row)
    toggles = [(f"{ON if now[o.name] else OFF} {label(lang, o)}", f"l:{row.id}:o:{o.code}")
               for o in table_options.toggles(row.game)]
    slow = pace_button(row, lang)
    return [*toggles, match_button(row, lang), *([slow] if slow else [])]


def match_length(minutes: int, lang: str) -> str:
    return t(lang, "ch.match_minutes", n=minutes) if minutes else t(lang, "ch.match_off")


def match_button(row, lang: str) -> tuple[str, str]:
    """The timed match's button: its length now; pressed, the next length (B-17, D-16)."""
    choices = table_options.MATCH_MINUTES
    now = table_options.match_minutes(row.game, row.ruleset, row.options)
    after = choices[(choices.index(now) + 1) % len(choices)] if now in choices else choices[0]
    return t(lang, "ch.btn.match", length=match_length(now, lang)), f"l:{row.id}:m:{after}"


def on_line(row, lang: str) -> str:
    """The line under a lobby or in ``/rules``: which options are on at this table."""
    now = values(row)
    names = [label(lang, o) for o in table_options.toggles(row.game) if now[o.name]]
    if not table_options.toggles(row.game):
        return ""
    # the language's own list separator (Chinese 、, not ", ")
    return t(lang, "opt.on_list", options=t(lang, "ui.list_sep").join(names)) if names else t(lang, "opt.none_on")


def rules_text(row, lang: str) -> str:
    """``/rules`` for the table of this chat: its rule set, then each option, on or off, with what
    it does."""
    lines = [t(lang, "opt.table_rules", ruleset=ruleset_name(row.ruleset, lang), code=row.ruleset)]
    now = values(row)
    for o in table_options.toggles(row.game):
        explained = help_text(lang, o)
        lines.append(f"{ON if now[o.name] else OFF} {label(lang, o)}" + (f": {explained}" if explained else ""))
    return "\n".join(lines)


def parse_newgame(args: list[str]) -> tuple[str | None, str | None, dict, str | None, dict]:
    """``/newgame <game> [rule set] [name=on|off …]`` typed: the game, the rule set, the options,
    and a refusal (locale key and parameters) when an option is unknown or its value is not one of
    on/off. A word with ``=`` or naming an option is an option; the first other word the rule set
    (the service refuses a rule set the game does not have)."""
    game = args[0] if args else None
    ruleset, words = None, []
    for word in args[1:]:
        if ruleset is None and not words and "=" not in word and (
                game not in GAMES or table_options.by_name(game, word.lower()) is None):
            ruleset = word
        else:
            words.append(word)
    if game not in GAMES or not words:
        return game, ruleset, {}, None, {}
    chosen, refusal = table_options.parse(game, words)
    if refusal is not None:
        return game, ruleset, {}, refusal.key, refusal.params
    return game, ruleset, chosen, None, {}


def parse_options(game: str, text: str) -> tuple[dict, table_options.Refusal | None]:
    """Options typed on their own (Discord's ``options`` field): ``name=on|off`` words."""
    if game not in GAMES:
        return {}, None  # the service names the games
    return table_options.parse(game, text.split())
