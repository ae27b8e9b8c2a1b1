"""Soft hyphens in the web board's square names (``words.hyphens``): a long Latin word breaks at a
syllable with a hyphen, never anywhere ("Communit / y Chest"); Chinese is left as it is."""

from __future__ import annotations

import re

import pytest

from bot.web.atlas import atlas
from words.hyphens import SOFT_HYPHEN, soft_hyphens


def _shown(text: str) -> str:
    return text.replace(SOFT_HYPHEN, "-")


@pytest.mark.parametrize(("name", "broken"), [
    ("Community Chest", "Com-mu-nity Chest"),
    ("Shangcheng", "Shang-cheng"),
    ("Yongdingmen", "Yong-ding-men"),
    ("Guangzhou Railway Station", "Guang-zhou Rail-way Sta-tion"),
    ("Suzhou Industrial Park", "Suzhou In-dustrial Park"),  # a pair (zh) is never split, nor a short word
    ("Qingyang", "Qing-yang"),  # y opens a syllable before a vowel
    ("Pennsylvania Railroad", "Pennsyl-va-nia Rail-road"),  # ... and closes one before a consonant
    ("Mediterranean Avenue", "Me-di-ter-ra-nean Avenue"),
    ("Reading Railroad", "Reading Rail-road"),  # no break before an ending ("-ing")
    ("Free Parking", "Free Parking"),
    ("东山 Dongshan", "东山 Dong-shan"),
])
def test_long_words_break_where_a_syllable_starts(name, broken):
    assert _shown(soft_hyphens(name)) == broken
    assert soft_hyphens(name).replace(SOFT_HYPHEN, "") == name


@pytest.mark.parametrize("ruleset", ["china", "classic"])
def test_the_web_atlas_gives_every_long_english_square_name_a_place_to_break(ruleset):
    squares = atlas("board", ruleset, "en")["squares"]
    unbroken = set()
    for sq in squares:
        assert sq["cell"].replace(SOFT_HYPHEN, "") == sq["name"]
        unbroken |= {w for w in re.findall(r"[A-Za-z]+", sq["cell"].replace(SOFT_HYPHEN, " ")) if len(w) >= 9}
    assert unbroken <= {"Boardwalk"}  # a compound: no syllable break by the rule
    for sq in atlas("board", ruleset, "zh-Hans")["squares"]:
        assert sq["cell"] == sq["name"]
