"""The Chinese words follow the user's rule documents (issue 16 item 6, "Words from the seeds").

The seeds (000 and 001 for 地产大亨, 003 and 004 for 大富翁纸牌) fix the words a Chinese player
knows from the printed game: 免费停留, 坐牢, 「探监－只是参观」, 旅馆 (board) and 酒店 (Deal),
同点数 for doubles, 罚金 for the jail fine, 作出反对 for Just Say No. These tests scan every shipped
text (the three catalogues and the names in data/board/*.json and data/deal/deck.json), in
simplified and traditional Chinese, so that a word drifting back fails here and not in a chat.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.board import BOARD
from tests.paths import ROOT
from words.board_text import render_board
from words.i18n import t

DATA = ROOT / "data"
ZH = ("zh-Hans", "zh-Hant")
BOARDS = ("china", "classic")


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _catalogue(lang: str) -> dict[str, str]:
    return _json(DATA / "locale" / f"{lang}.json")


def _names(obj: object, lang: str) -> Iterator[str]:
    """Every text of ``lang`` in a data file: the values under a ``lang`` key, at any depth."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == lang and isinstance(value, str):
                yield value
            else:
                yield from _names(value, lang)
    elif isinstance(obj, list):
        for item in obj:
            yield from _names(item, lang)


def _board(ruleset: str) -> dict:
    return _json(DATA / "board" / f"{ruleset}.json")


def _deck() -> dict:
    return _json(DATA / "deal" / "deck.json")


def _game_of(key: str, english: str) -> str | None:
    """Which game a catalogue text belongs to: by its key (``board.…``, ``dc.rules.deal``) or, for
    shared keys such as table options, by the rule id its English text cites ("(D-14)")."""
    parts = set(key.split("."))
    if "board" in parts or re.search(r"\(B-\d", english):
        return "board"
    if "deal" in parts or re.search(r"\(D-\d", english):
        return "deal"
    return None


def _shipped(lang: str) -> dict[str, list[str]]:
    """Every shipped text of ``lang``, by game ("board", "deal", or "shared")."""
    out: dict[str, list[str]] = {"board": [], "deal": [], "shared": []}
    english = _catalogue("en")
    for key, value in _catalogue(lang).items():
        out[_game_of(key, english.get(key, "")) or "shared"].append(value)
    for ruleset in BOARDS:
        out["board"].extend(_names(_board(ruleset), lang))
    out["deal"].extend(_names(_deck(), lang))
    return out


def _all(lang: str) -> list[str]:
    return [text for texts in _shipped(lang).values() for text in texts]


def _offending(lang: str, *words: str) -> list[str]:
    return [text for text in _all(lang) if any(w in text for w in words)]


def _square(ruleset: str, kind: str) -> dict:
    (square,) = [sq for sq in _board(ruleset)["squares"] if sq["kind"] == kind]
    return square


# -- Free Parking: 免费停留 (seed 000), never 免费停车 ---------------------------------------------

@pytest.mark.parametrize("ruleset", BOARDS)
def test_B10_free_parking_is_named_as_in_the_seed(ruleset):
    names = _square(ruleset, "free_parking")["names"]
    assert (names["zh-Hans"], names["zh-Hant"]) == ("免费停留", "免費停留")


@pytest.mark.parametrize("lang", ZH)
def test_B10_no_text_says_parking(lang):
    assert _offending(lang, "停车", "停車") == []


# -- Go to Jail: 坐牢 (seed 000: 停在写着「坐牢」的位置；抽到写着「坐牢」的卡片) ---------------------

@pytest.mark.parametrize("ruleset", BOARDS)
def test_B09_go_to_jail_square_and_cards_say_坐牢(ruleset):
    data = _board(ruleset)
    assert _square(ruleset, "go_to_jail")["names"]["zh-Hans"] == "坐牢"
    assert _square(ruleset, "go_to_jail")["names"]["zh-Hant"] == "坐牢"
    cards = [c for deck in ("chance", "chest") for c in data[deck] if c["effect"] == "go_to_jail"]
    assert len(cards) == 2
    for card in cards:
        assert card["names"]["zh-Hans"].startswith("坐牢。") and card["names"]["zh-Hant"].startswith("坐牢。")


@pytest.mark.parametrize("lang", ZH)
def test_B09_no_text_uses_入狱_for_go_to_jail(lang):
    assert _offending(lang, "入狱", "入獄") == []


@pytest.mark.parametrize("lang", ZH)
def test_B09_landing_on_go_to_jail_quotes_the_square(lang):
    quoted = {"zh-Hans": "“坐牢”", "zh-Hant": "「坐牢」"}[lang]
    assert quoted in _catalogue(lang)["board.ev.jail_square"]


# -- The jail corner: 「探监－只是参观」 (seed 000, with its full-width dash) ---------------------

@pytest.mark.parametrize("ruleset", BOARDS)
def test_B09_jail_corner_is_named_as_in_the_seed(ruleset):
    names = _square(ruleset, "jail")["names"]
    assert names["zh-Hans"] == "探监\uff0d只是参观"
    assert names["zh-Hant"] == "探監\uff0d只是參觀"


@pytest.mark.parametrize("lang", ZH)
def test_B09_a_jailed_player_is_shown_in_jail_not_just_visiting(lang):
    state = BOARD.new_game(2, "china", 0)
    state.players[0].position = 10
    state.players[0].in_jail = True
    state.players[1].position = 10  # just visiting
    lines = render_board(BOARD.view(state, None), lang, {0: "Ada", 1: "Bo"}, "china").splitlines()
    (ada,) = [line for line in lines if "Ada —" in line]
    (bo,) = [line for line in lines if "Bo —" in line]
    jail = {"zh-Hans": "位于监狱 ·", "zh-Hant": "位於監獄 ·"}[lang]
    assert jail in ada and "只是" not in ada
    assert _square("china", "jail")["names"][lang] in bo


# -- One word for hotel per game: 旅馆 on the board (seeds 000/001), 酒店 in Deal (seeds 003/004) --

@pytest.mark.parametrize("lang", ZH)
def test_B11_board_texts_say_旅馆_and_never_酒店(lang):
    board = _shipped(lang)["board"]
    assert [text for text in board if "酒店" in text] == []
    assert sum("旅馆" in text or "旅館" in text for text in board) >= 5


@pytest.mark.parametrize("lang", ZH)
def test_D12_deal_texts_say_酒店_and_never_旅馆(lang):
    deal = _shipped(lang)["deal"]
    assert [text for text in deal if "旅馆" in text or "旅館" in text] == []
    (hotel,) = [c for c in _deck()["cards"] if c["key"] == "hotel"]
    assert hotel["names"][lang] == "酒店"


@pytest.mark.parametrize("lang", ZH)
def test_B11_D12_no_text_names_both_hotel_words(lang):
    assert [text for text in _all(lang) if "酒店" in text and ("旅馆" in text or "旅館" in text)] == []


@pytest.mark.parametrize("lang", ZH)
def test_B11_D12_rules_of_both_games_on_one_screen_name_one_hotel_word(lang):
    """``/rules`` outside a table shows both games' rules in one message: "never both
    words on one screen" holds there too (the Deal summary names no hotel)."""
    from bot.chat.flows import rules_text

    screen = rules_text(None, lang)  # no table: both games
    assert t(lang, "ch.rules.board") in screen and t(lang, "ch.rules.deal") in screen
    assert not ("酒店" in screen and ("旅馆" in screen or "旅館" in screen))


@pytest.mark.parametrize("lang", ZH)
def test_B11_board_picture_words_say_旅馆(lang):
    """The board picture's own words (``render.board.*``) follow the board's texts: 旅馆, never 酒店."""
    words = {k: v for k, v in _catalogue(lang).items() if k.startswith("render.board.")}
    assert words and all("酒店" not in word for word in words.values())


# -- Doubles: 同点数 (seed 000); 双数 means "even number" -------------------------------------------

@pytest.mark.parametrize("lang", ZH)
def test_B02_no_text_calls_doubles_even_numbers(lang):
    assert _offending(lang, "双数", "雙數") == []


@pytest.mark.parametrize("lang", ZH)
def test_B02_every_text_about_doubles_says_同点数(lang):
    english, chinese = _catalogue("en"), _catalogue(lang)
    word = {"zh-Hans": "同点数", "zh-Hant": "同點數"}[lang]
    about = [key for key, text in english.items() if re.search(r"\bdoubles\b", text, re.IGNORECASE)]
    assert len(about) >= 5
    assert [key for key in about if word not in chinese[key]] == []


# -- The jail fine: 罚金 (seed 000: 支付500元罚金), never 保释金 or 罚款 --------------------------

@pytest.mark.parametrize("lang", ZH)
def test_B09_every_text_about_the_jail_fine_says_罚金(lang):
    english, chinese = _catalogue("en"), _catalogue(lang)
    word = {"zh-Hans": "罚金", "zh-Hant": "罰金"}[lang]
    about = [key for key, text in english.items()
             if re.search(r"\bfine\b", text) and ("jail" in key or "jail" in text.lower())]
    assert len(about) >= 5
    assert [key for key in about if word not in chinese[key]] == []
    assert _offending(lang, "保释", "保釋") == []


# -- Just Say No: the card's name 作出反对 (seeds 003/004), not 说不 ----------------------------------

@pytest.mark.parametrize("lang", ZH)
def test_D13_just_say_no_is_called_by_its_card_name(lang):
    (card,) = [c for c in _deck()["cards"] if c["key"] == "just_say_no"]
    assert card["names"][lang] in ("作出反对", "作出反對")
    assert _offending(lang, "说不", "說不") == []


# -- One name per street and colour across the two games ---------------------------------------

def test_D05_every_deal_property_is_a_classic_board_square():
    squares = {sq["names"]["en"] for sq in _board("classic")["squares"]}
    properties = [c for c in _deck()["cards"] if c["kind"] == "property"]
    assert len(properties) == 28
    assert [c["names"]["en"] for c in properties if c["names"]["en"] not in squares] == []


@pytest.mark.parametrize("lang", ZH)
def test_D05_a_street_has_the_same_name_on_the_board_and_in_the_deck(lang):
    board = {sq["names"]["en"]: sq["names"][lang] for sq in _board("classic")["squares"]}
    differ = {c["names"]["en"]: (board.get(c["names"]["en"]), c["names"][lang])
              for c in _deck()["cards"] if c["kind"] == "property" and board.get(c["names"]["en"]) != c["names"][lang]}
    assert differ == {}


@pytest.mark.parametrize("lang", ZH)
def test_D05_a_colour_has_the_same_name_on_the_boards_and_in_the_deck(lang):
    deck = _deck()["colours"]
    for ruleset in BOARDS:
        groups = _board(ruleset)["groups"]
        for colour, group in (*((c, c) for c in deck if c != "railroad"), ("railroad", "station")):
            if ruleset == "china" and group == "station":
                continue  # the China board's stations are 车站, its own seed's word (seed 001)
            assert groups[group]["names"][lang] == deck[colour]["names"][lang], (ruleset, colour)


def test_game_and_rule_set_names_are_written_in_each_language_s_own_script():
    """A traditional-Chinese group never reads the simplified 纸/产 in a game's name, and every
    rule set a lobby names has a name in each language (not the typed code)."""
    from words.i18n import game_name, ruleset_name

    assert game_name("deal", "zh-Hant") == "大富翁紙牌" and game_name("board", "zh-Hant") == "地產大亨"
    assert game_name("deal", "zh-Hans") == "大富翁纸牌" and game_name("board", "zh-Hans") == "地产大亨"
    assert game_name("deal", "en") == "Monopoly Deal"
    for ruleset in ("standard", "tournament", "china", "classic"):
        names = {lang: ruleset_name(ruleset, lang) for lang in ("en", "zh-Hans", "zh-Hant")}
        assert ruleset not in names["zh-Hans"] and ruleset not in names["zh-Hant"], names
    assert ruleset_name("house", "en") == "house"  # an unknown one as typed
