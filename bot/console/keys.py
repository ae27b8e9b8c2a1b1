"""Keys that keep their meaning at the terminal: a letter or word per kind of move, and numbers
that name a card (Deal) or a square (地产大亨), never a place in a list.

A numbered list renumbers after every move, so "3" means one thing now and another after the next
card is played. Here a key is derived from the action itself: in Deal "e" ends the turn, "12"
plays or lays card 12 and "b12" banks it; on the board "r" rolls, "m5" mortgages square 5 and
"h5" builds there. When one key names several actions (a rent card against two different sets)
they are told apart by a suffix in the order the rules list them ("12.1", "12.2"). Words typed
in any of the three languages ("end", "结束", "bank 12", "存 12") are aliases for the letters;
the alias lists live in the locale files with the rest of the text.
"""

from __future__ import annotations

import re
from collections import Counter

from bot.console.games import KITS
from words.i18n import LANGS, t


def key_of(game: str, action, ruleset: str = "china") -> str:
    """The key of one action, before telling apart actions that share it (the game's kit's
    ``key``: ``deal_key``, ``board_key``)."""
    return KITS[game].key(action, ruleset)


def keyed(game: str, actions: list, ruleset: str = "china") -> list[tuple[str, object]]:
    """Each action with its key, in the order given; keys shared by several actions get a suffix."""
    base = [(key_of(game, a, ruleset), a) for a in actions]
    counts = Counter(k for k, _ in base)
    seen: Counter = Counter()
    out = []
    for k, a in base:
        if counts[k] > 1:
            seen[k] += 1
            k = f"{k}.{seen[k]}" if k[-1].isdigit() else f"{k}{seen[k]}"
        out.append((k, a))
    return out


def _aliases(game: str) -> list[tuple[str, str]]:
    """(word, key) pairs from every language's list, longest word first so "存入" wins over "存"."""
    pairs = []
    for lang in LANGS:
        for item in t(lang, f"console.alias.{game}").split(","):
            word, _, key = item.partition("=")
            if word.strip() and key.strip():
                pairs.append((word.strip().lower(), key.strip()))
    return sorted(set(pairs), key=lambda p: -len(p[0]))


def words(lang: str, key: str) -> set[str]:
    """A comma-separated word list of the locale (yes/no answers, help), in every language."""
    out = {w.strip().lower() for code in LANGS for w in t(code, key).split(",") if w.strip()}
    return out | {w.strip().lower() for w in t(lang, key).split(",") if w.strip()}


def normalise(game: str, text: str) -> str:
    """What was typed as a key: lower case, no spaces, a leading word replaced by its letter
    ("bank 12" and "存12" -> "b12", "Roll" -> "r")."""
    text = re.sub(r"\s+", " ", text.strip().lower())
    for word, key in _aliases(game):
        if text == word or (text.startswith(word) and (word.isascii() is False or not text[len(word)].isalpha())):
            text = key + text[len(word):]
            break
    return text.replace(" ", "")


def resolve(game: str, text: str, table: list[tuple[str, object]]) -> tuple[object | None, list[str]]:
    """The action the typed key names, or None and the keys it could mean (a key shared by several
    actions typed without its suffix); (None, []) when it names nothing."""
    key = normalise(game, text)
    by_key = dict(table)
    if key in by_key:
        return by_key[key], []
    suffix = r"\.[0-9]+" if key[-1:].isdigit() else r"[0-9]+"
    shared = [k for k, _ in table if key and re.fullmatch(re.escape(key) + suffix, k)]
    if shared:
        return None, shared
    if key.isdigit() and f"b{key}" in by_key:  # a Deal money card: its number banks it
        return by_key[f"b{key}"], []
    return None, []
