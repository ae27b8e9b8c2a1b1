"""data/board/*.json: both boards and their 16 + 16 cards load and validate; china is classic ×10."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engine.board.data import LANGS, RULESETS, board, read_board_document, validate_board_document


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_board_is_valid(ruleset):
    assert validate_board_document(read_board_document(ruleset)) == []


def test_classic_board_matches_the_reference_table():
    b = board("classic")
    assert b.price[39] == 400 and b.rent[39] == (50, 200, 600, 1400, 1700, 2000) and b.house_cost[39] == 200
    assert b.price[24] == 240 and b.rent[24] == (20, 100, 300, 750, 925, 1100)
    assert b.rent[5] == (25, 50, 100, 200) and b.rent[12] == (4, 10)
    assert b.money["start"] == 1500 and b.money["salary"] == 200 and b.money["jail_fine"] == 50


def test_china_is_classic_times_ten_with_chinese_streets():
    c, k = board("china"), board("classic")
    assert [x * 10 for x in k.price] == list(c.price)
    assert [tuple(x * 10 for x in r) for r in k.rent] == list(c.rent)
    assert c.squares[1]["names"]["zh-Hans"] == "东山" and c.squares[3]["names"]["zh-Hans"] == "荔湾"
    assert c.squares[6]["names"]["zh-Hans"] == "金阊" and c.squares[39]["names"]["zh-Hans"].startswith("CBD")
    for key in ("start", "salary", "jail_fine", "income_tax", "luxury_tax"):
        assert c.money[key] == 10 * k.money[key]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_decks_have_the_usual_effects(ruleset):
    b = board(ruleset)
    chance = Counter(c.effect for c in b.chance)
    chest = Counter(c.effect for c in b.chest)
    assert len(b.chance) == len(b.chest) == 16
    assert chance["advance_nearest"] == 3 and chance["back"] == 1 and chance["jail_free"] == 1
    assert chance["go_to_jail"] == 1 and chance["repairs"] == 1 and chance["pay_each"] == 1
    assert chest["collect_each"] == 1 and chest["jail_free"] == 1 and chest["repairs"] == 1
    utility = next(c for c in b.chance if c.params.get("kind") == "utility")
    assert utility.params["dice_multiplier"] == (100 if ruleset == "china" else 10)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_name_in_three_languages(ruleset):
    b = board(ruleset)
    for sq in b.squares:
        assert all(sq["names"][lang].strip() for lang in LANGS)
    for card in b.chance + b.chest:
        assert all(card.names[lang].strip() for lang in LANGS)


def test_validation_catches_broken_boards():
    doc = read_board_document("china")
    bad = copy.deepcopy(doc)
    bad["squares"].pop()
    assert any("39 squares" in p for p in validate_board_document(bad))
    bad = copy.deepcopy(doc)
    bad["squares"][1]["rent"] = [20, 10, 300, 900, 1600, 2500]
    assert any("square 1" in p for p in validate_board_document(bad))
    bad = copy.deepcopy(doc)
    bad["chance"][0]["to"] = 44
    assert any("bad square" in p for p in validate_board_document(bad))
    bad = copy.deepcopy(doc)
    bad["squares"][3]["mortgage"] = 1
    assert any("mortgage" in p for p in validate_board_document(bad))
