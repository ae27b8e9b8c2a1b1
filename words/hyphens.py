"""Where a long Latin word may break, for names set in narrow boxes (the web board's squares).

A square of the web board is about 60 px wide on a desktop at a 12 px font: "Community",
"Shangcheng" or "Pennsylvania" do not fit, and the browser broke them anywhere ("Communit / y
Chest"). Browsers hyphenate only with a dictionary for the page's language, which Chromium on Linux
does not ship, so the names carry soft hyphens (U+00AD) where a syllable starts: the browser breaks
there, if at all, and draws the hyphen. Chinese needs none (it breaks between any two characters).

The rule is the one that fits both the pinyin of the Chinese edition's districts and the classic
board's English: a break before a syllable's first consonant (or zh, ch, sh, th, ph, wh), followed
by a vowel, where the part before ends in a vowel or a vowel and one consonant (so "Shang-cheng",
"Yong-ding-men", "Com-mu-nity", "Me-di-ter-ra-nean"), leaving at least two letters before and three
after, and none before an English ending ("-ing", "-es", "-ed"). Words under seven letters, which
fit, are left whole.
"""

from __future__ import annotations

import re

SOFT_HYPHEN = "\u00ad"
_VOWELS = frozenset("aeiouy")  # y closes a syllable ("Pennsyl-vania"), and opens one before a vowel
_OPEN = frozenset("aeiou")  # what follows a syllable's first consonant
_PAIRS = ("zh", "ch", "sh", "th", "ph", "wh")
_ENDINGS = ("ing", "es", "ed")  # English endings that do not start a syllable of their own
_WORD = re.compile(r"[A-Za-z]+")


def _breaks(word: str) -> list[int]:
    """The positions in ``word`` (a run of Latin letters) before which it may break."""
    low = word.lower()
    out = []
    for i in range(2, len(low) - 2):
        onset = 2 if low[i:i + 2] in _PAIRS else 1
        if low[i] in _OPEN or low[i - 1:i + 1] in _PAIRS or i + onset >= len(low) or low[i + onset] not in _OPEN:
            continue
        if len(low) - i < 3 or low[i + 1:] in _ENDINGS:
            continue
        before = low[:i]
        if before[-1] in _OPEN or (before[-2] in _VOWELS and before[-1] not in _VOWELS) or (
                len(before) >= 3 and before.endswith("ng") and before[-3] in _VOWELS):
            out.append(i)
    return out


def soft_hyphens(text: str, shortest: int = 7) -> str:
    """``text`` with a soft hyphen at each place a long Latin word may break (``_breaks``)."""

    def mark(m: re.Match) -> str:
        word = m.group(0)
        if len(word) < shortest:
            return word
        cuts = _breaks(word)
        return SOFT_HYPHEN.join(word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True))

    return _WORD.sub(mark, text)
