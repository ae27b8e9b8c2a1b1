"""Every achievement (issue 48, ``Game.feats``) has its words in the three catalogues: a short name
with one leading emoji (``feat.<key>``) and one sentence on how it is earned (``feat.<key>.how``),
the traditional Chinese converted rather than copied from the simplified."""

from __future__ import annotations

import re

import pytest

from engine.games import GAMES
from words.i18n import CATALOGUES

LANGS = ("en", "zh-Hans", "zh-Hant")
KEYS = [key for game in GAMES.values() if game.feats is not None for key in game.feats.keys]
HAN = re.compile(r"[\u4e00-\u9fff]")
# characters written only in simplified Chinese that these texts use (their traditional forms differ)
SIMPLIFIED_ONLY = set("们这说时个来为会过还对发经开关门见车书买卖头边钱银产业两张组齐凑获胜赢盖馆连锁垄断购竞"
                      "谈颜条满栋库抢战让丰于达掷点数监狱进轮领闪电击别恶盗换针挡华种倾荡笔弃结乐级后从总额"
                      "记录钟场庆贵带")


def _emoji_and_name(text: str) -> tuple[str, str]:
    emoji, _, name = text.partition(" ")
    return emoji, name


def test_both_games_declare_their_feats():
    assert {key.split(".")[0] for key in KEYS} == {"board", "deal"}
    assert len(KEYS) == len(set(KEYS))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", KEYS)
def test_every_feat_has_a_name_and_how_it_is_earned(key, lang):
    name, how = CATALOGUES[lang].get(f"feat.{key}"), CATALOGUES[lang].get(f"feat.{key}.how")
    assert name and how, f"feat.{key} has no {lang} words"
    emoji, words = _emoji_and_name(name)
    assert len(emoji) == 1 and ord(emoji) >= 0x2300 and not emoji.isalnum(), name  # one emoji, then a space
    assert words and words.strip() == words, name
    assert not [c for c in words if ord(c) >= 0x2300 and not HAN.match(c) and c not in "！？"], name  # one only
    if lang == "en":
        assert len(words) <= 16, name
        assert how.endswith(".") and how[0].isupper(), how
    else:
        assert len(HAN.findall(words)) <= 8 and HAN.search(words), name
        assert how.endswith("。"), how


@pytest.mark.parametrize("key", KEYS)
def test_traditional_chinese_is_converted(key):
    for suffix in ("", ".how"):
        hans, hant = CATALOGUES["zh-Hans"][f"feat.{key}{suffix}"], CATALOGUES["zh-Hant"][f"feat.{key}{suffix}"]
        left = SIMPLIFIED_ONLY & set(hant)
        assert not left, f"feat.{key}{suffix} in zh-Hant still has {''.join(sorted(left))}: {hant}"
        if SIMPLIFIED_ONLY & set(hans):
            assert hant != hans
