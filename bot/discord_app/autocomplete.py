"""Suggestions Discord shows while a slash command's option is typed (autocomplete, issue 49), in
the typer's own language (``interaction.locale``), at most 25 as Discord allows:

- ``ruleset``: the rule sets of the game chosen in the same command (Discord cannot make one
  option's fixed choices depend on another's; a suggestion can), each named as the group reads it
  ("中国版 · china"); before a game is chosen, every game's sets, each with its game;
- ``options`` of ``/newgame``: the table's switchable rule options (``engine/options.py``, the game's
  toggles), one suggestion per option not named yet, with the value that changes the table (the
  opposite of the rule set's), appended to what is typed so far: ``no_trading=on rent_claim=on``.

Suggestions are only help: Discord sends whatever is typed in the end, so ``ruleset_code`` takes a
rule set's name in any language back to its code (what the service knows), and the options are
parsed and refused as before (``bot/chat/option_screens.py``).
"""

from __future__ import annotations

from discord import app_commands

from engine import options as table_options
from engine.games import GAMES
from words.i18n import LANGS, game_name, ruleset_name, t

MAX_CHOICES = 25  # Discord's limit on an autocomplete answer
NAME_MAX = 100  # a choice's name and a string value


def _fits(text: str) -> str:
    return text if len(text) <= NAME_MAX else text[:NAME_MAX - 1] + "…"


def _matches(typed: str, *names: str) -> bool:
    typed = typed.strip().lower()
    return not typed or any(typed in name.lower() for name in names)


def ruleset_choices(game: str | None, typed: str, lang: str) -> list[app_commands.Choice[str]]:
    """The rule sets of ``game`` (every game's when it is not chosen yet) that match what is typed
    (a code or a name in the typer's language)."""
    games = [game] if game in GAMES else list(GAMES)
    out = []
    for g in games:
        for code in GAMES[g].rules.rulesets:
            name = ruleset_name(code, lang)
            shown = f"{name} · {code}" if len(games) == 1 else f"{name} · {game_name(g, lang)} · {code}"
            if _matches(typed, code, name, shown):
                out.append(app_commands.Choice(name=_fits(shown), value=code))
    return out[:MAX_CHOICES]


def ruleset_code(game: str, typed: str | None) -> str | None:
    """What was sent for ``ruleset`` as the rule set's code: a code as it is, a rule set's name in
    any of our languages as its code; anything else as typed (the service refuses it, naming the
    game's rule sets)."""
    if not typed or game not in GAMES:
        return typed or None
    wanted = typed.strip()
    rulesets = GAMES[game].rules.rulesets
    if wanted.lower() in rulesets:
        return wanted.lower()
    for code in rulesets:
        names = {ruleset_name(code, lang).lower() for lang in LANGS}
        if wanted.lower() in names or wanted.rsplit("·", 1)[-1].strip().lower() == code:
            return code
    return wanted


def option_choices(game: str | None, ruleset: str | None, typed: str, lang: str) -> list[app_commands.Choice[str]]:
    """What ``/newgame``'s ``options`` may go on with: for each of the game's switchable options
    not named yet in ``typed``, the words typed so far followed by ``name=value``, ``value`` the
    one that differs from the rule set's (switching an option to what it is already changes
    nothing). The last word, unfinished, narrows the suggestions (by the option's code or its
    name in the typer's language)."""
    if game not in GAMES:
        return []
    code = ruleset_code(game, ruleset) or GAMES[game].rules.rulesets[0]
    if code not in GAMES[game].rules.rulesets:
        code = GAMES[game].rules.rulesets[0]
    defaults = table_options.ruleset_defaults(game, code)
    words = typed.split()
    partial = "" if not words or typed[-1:].isspace() else words.pop()
    named = {w.partition("=")[0].strip().lower() for w in words}
    kept = " ".join(words)
    out = []
    for toggle in table_options.toggles(game):
        if toggle.name in named:
            continue
        label = t(lang, f"opt.{toggle.name}")
        if not _matches(partial.partition("=")[0], toggle.name, label):
            continue
        value = "off" if defaults.get(toggle.name) else "on"
        text = f"{kept} {toggle.name}={value}".strip()
        if len(text) > NAME_MAX:  # Discord's limit on a value: the option cannot grow further
            continue
        shown = t(lang, f"dc.ac.{value}", option=label)
        out.append(app_commands.Choice(name=_fits(("… + " if kept else "") + shown), value=text))
    return out[:MAX_CHOICES]
