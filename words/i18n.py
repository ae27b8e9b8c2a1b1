"""Message catalogues: the one place where a message key becomes a sentence.

The engine only ever names what happened or why not (``RuleError(rule, key, **params)``,
events with seat numbers and card ids); every adapter — console, Telegram, Discord — turns keys
into text here, so a chat in simplified Chinese, one in traditional Chinese and one in English
read the same game. The catalogues are flat JSON files in ``data/locale/`` (data, not code),
loaded once at import.

``t`` never raises: a key missing in one language falls back to English, then to the key itself,
and a missing parameter leaves its ``{placeholder}`` visible. A half-translated message is better
than a crashed game.
"""

from __future__ import annotations

import json
import re
import string
from importlib.resources import files

LANGS = ("zh-Hans", "zh-Hant", "en")
FALLBACK = "en"

# Platform codes (Telegram's language_code, Discord's locale, a command-line flag) that name a
# region rather than a script: the region decides which script its readers use.
_HANT_REGIONS = ("tw", "hk", "mo")
_HANS_REGIONS = ("cn", "sg", "my")


def _load(lang: str) -> dict[str, str]:
    text = files("data").joinpath(f"locale/{lang}.json").read_text(encoding="utf-8")
    return json.loads(text)


CATALOGUES: dict[str, dict[str, str]] = {lang: _load(lang) for lang in LANGS}


def normalise_lang(code: str | None) -> str:
    """One of ``LANGS`` for any platform language code; English when nothing fits."""
    if not code:
        return FALLBACK
    parts = code.strip().replace("_", "-").lower().split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] in ("zh", "cmn"):
        rest = parts[1:]
        if "hant" in rest:
            return "zh-Hant"
        if "hans" in rest:
            return "zh-Hans"
        if any(r in _HANT_REGIONS for r in rest):
            return "zh-Hant"
        return "zh-Hans"  # plain "zh", "zh-CN", "zh-SG" and anything else Chinese
    if parts[0] == "yue":  # Cantonese is written in traditional characters
        return "zh-Hant"
    return FALLBACK


class _KeepMissing(dict):
    """``format_map`` helper: an absent parameter stays visible as its placeholder."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def template(lang: str, key: str) -> str:
    """The raw catalogue string for ``key``: the language's, else English's, else the key."""
    lang = lang if lang in CATALOGUES else normalise_lang(lang)
    found = CATALOGUES.get(lang, {}).get(key)
    if found is None:
        found = CATALOGUES.get(FALLBACK, {}).get(key)
    return key if found is None else found


# Chinese text: a Latin name filled in (Bob, AI 1) stands apart from the characters around it
# ("轮到 Bob 了", not "轮到Bob了"); marked while filled in, spaced where it meets a character.
# A name that ends in a number ("AI 2") never runs into a number after it: "欠 AI 2 5M" reads as
# "AI 25M", so a colon parts them ("AI 2：5M"), whether the template had a space there or not.
_OPEN, _CLOSE = "\x02", "\x03"
_HAN = "\u3400-\u9fff\uf900-\ufaff"
_SPACED = re.compile(f"(?<=[{_HAN}]){_OPEN}(?=[A-Za-z0-9])|(?<=[A-Za-z0-9]){_CLOSE}(?=[{_HAN}])")
_NUMBER_AFTER = re.compile(f"(?<=[0-9]){_CLOSE}[ \u00a0]*(?={_OPEN}?[0-9])")
_NAME_SEP = "："
_LATIN = re.compile("[A-Za-z]")


def _marked(value: object) -> object:
    return f"{_OPEN}{value}{_CLOSE}" if isinstance(value, str) and _LATIN.search(value) else value


def t(lang: str, key: str, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in; never raises."""
    text = template(lang, key)
    chinese = lang.startswith("zh")
    if chinese:
        params = {k: _marked(v) for k, v in params.items()}
    try:
        out = text.format_map(_KeepMissing(params))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError):
        return text  # a malformed translation: show it unfilled rather than fail the game
    if chinese:
        out = _NUMBER_AFTER.sub(_NAME_SEP + _CLOSE, out)
        out = _SPACED.sub(" ", out).replace(_OPEN, "").replace(_CLOSE, "")
    return out


def addressed_to_you(text: str, name: str) -> str:
    """A question put to one player on their own screen, without their name in front: "Alice，请出牌："
    becomes "请出牌：" and "Alice, your move:" becomes "Your move:" (a private screen is read by that
    player alone: it says 你 / you, never their own name). Text that does not start with the
    name (a hot-seat console's, or a question for someone else) is returned as it is."""
    for sep in ("，", ", ", ","):
        if name and text.startswith(name + sep):
            rest = text[len(name) + len(sep):].lstrip()
            return rest[:1].upper() + rest[1:] if rest[:1].isascii() else rest
    return text


def game_name(game: str, lang: str) -> str:
    """A game's name as a group reads it (大富翁纸牌 / 大富翁紙牌 / Monopoly Deal): one per
    language, so a traditional-Chinese group never sees the simplified characters."""
    return t(lang, f"ui.game.{game}") if f"ui.game.{game}" in CATALOGUES[FALLBACK] else game


def ruleset_name(ruleset: str, lang: str) -> str:
    """A rule set's name in the group's language (中国版, 比赛规则…); an unknown one as typed."""
    key = f"ui.ruleset.{ruleset}"
    return t(lang, key) if key in CATALOGUES[FALLBACK] else ruleset


def placeholders(text: str) -> set[str]:
    """The parameter names a catalogue string uses (for the catalogue tests)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


__all__ = ["CATALOGUES", "LANGS", "addressed_to_you", "game_name", "normalise_lang", "placeholders", "ruleset_name",
           "t", "template"]
